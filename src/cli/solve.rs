//! The `solve` and `check-proof` subcommands an engine may add (docs/rules.md §1's extra subcommands):
//! proof-number search for a forced win or loss ([`crate::solve::pns`]) and the independent
//! check of a proof file ([`crate::solve::proof`]). Generic over the [`Game`]; results to
//! stdout, errors to stderr with a non-zero exit code. Ctrl-C stops `solve`, which then
//! prints what it found so far and exits with 130.

use crate::error::CliError;
use std::time::Duration;

use clap::Parser;

use crate::game::{Game, TableBuilds};
use crate::limits;
use crate::progress;
use crate::solve::compact::{self, Compact};
use crate::solve::pns::{self, Budget, Verdict};
use crate::solve::proof::{self, Proof};
use crate::solve::{wdl, wdl_checkpoint};

/// A proof or disproof number as text ("infinite" at the cap).
fn number(n: u64) -> String {
    if n >= pns::INFINITE {
        "infinite".to_string()
    } else {
        n.to_string()
    }
}

/// `println!` for results: returns from the function with the error when stdout fails
/// (`> /dev/full`), see [`limits::out`].
macro_rules! out {
    ($($arg:tt)*) => {
        limits::out(format_args!($($arg)*))?
    };
}

#[derive(Parser, Debug)]
#[command(about = "Proof-number search: proves a forced win or loss for the side to move")]
struct SolveArgs {
    #[command(flatten)]
    root: RootArgs,
    /// Time budget in seconds (default 10 unless --nodes is given).
    #[arg(long, value_name = "SECS")]
    budget: Option<f64>,
    /// Budget in expanded positions.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// The win/draw/loss solver: only the root's value, not every first move's. The first
    /// moves are tried best first; once one gives the root a value, the others are searched
    /// only until they are shown no better (`move …: no better than …`).
    #[arg(long)]
    root_only: bool,
    #[command(flatten)]
    solver: SolverArgs,
    /// Write each attempt's table to DIR (white.dfpn, black.dfpn; the win/draw/loss solver's
    /// to wdl.table) every --checkpoint-every seconds and when it ends (also on Ctrl-C); a
    /// later run with the same position, options and DIR resumes from them. DIR is created if
    /// it is not there.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<String>,
    /// Seconds between checkpoints.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 600.0,
        requires = "checkpoint"
    )]
    checkpoint_every: f64,
    /// Write the proof (of a win or a loss) to FILE, for `check-proof`.
    #[arg(long, value_name = "FILE")]
    proof: Option<String>,
    /// Write the proof in the compact format (the winner's moves only, about a tenth of the
    /// size; `check-proof` unfolds it with the move generator).
    #[arg(long, requires = "proof")]
    compact: bool,
    /// With --compact: the certificates' lines end where a lemma of the game's settles them
    /// (pawn chess: races and positions where no pawn can take; src/games/pawns/lemma.rs), a
    /// tenth of the positions or fewer. `check-proof` applies the same lemmas.
    #[arg(long, requires = "compact")]
    lemmas: bool,
    #[command(flatten)]
    tables: TablesArgs,
    /// Use df-pn even for an acyclic game (pawn chess), which `solve` otherwise solves with the
    /// win/draw/loss alpha-beta solver (src/solve/wdl.rs).
    #[arg(long)]
    dfpn: bool,
}

/// Endgame tables as proof leaves (`solve`, `units work`).
#[derive(clap::Args, Debug)]
pub(crate) struct TablesArgs {
    /// Build the game's endgame tables of up to N pieces first (Räuberschach 1 to 5: 3 take
    /// about a minute and 70 MB, 4 and 5 are built signature by signature as met, a
    /// five-piece one in minutes; antichess 1 to 3, about 40 s of CPU and 63 MB) and take
    /// their positions as solved: the proof still goes down to the game's end, following the
    /// tables' shortest wins.
    #[arg(long, value_name = "N")]
    tables: Option<u32>,
    /// Read the tables' files from DIR where they are there, and write there those built
    /// (Räuberschach: one file per signature, `kiebitz-raeuber tables` writes them all;
    /// antichess: one file, antichess-3.tables). Processes may share DIR: a file is written
    /// whole under a temporary name, then renamed.
    #[arg(long, value_name = "DIR", requires = "tables")]
    tables_dir: Option<String>,
}

impl TablesArgs {
    /// Sets the tables up as asked, each step's line to stderr after `who: `.
    pub(crate) fn apply<G: Game>(&self, who: &str) -> Result<(), CliError> {
        if let Some(dir) = &self.tables_dir {
            eprintln!("{who}: {}", G::tables_dir(dir)?);
        }
        if let Some(n) = self.tables {
            eprintln!("{who}: {}", G::use_tables(n, TableBuilds::Wait)?);
        }
        Ok(())
    }
}

/// How df-pn searches: its table, its numbers, its threads (`solve`, `units work`).
#[derive(clap::Args, Debug)]
pub(crate) struct SolverArgs {
    /// Transposition table of the solver in MiB.
    #[arg(long, value_name = "MB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub(crate) hash: u64,
    /// Weak disproof numbers (the largest child's plus the other open children, not the
    /// sum): for graphs with many transpositions, where the sum overflows.
    #[arg(long)]
    weak: bool,
    /// Keep disproofs that rest on a repetition of a position above them (or on the move
    /// clock) out of the table, where another line would take them for the position's value
    /// (the graph-history interaction): a disproof is then one on every line. Those that rest
    /// on repetitions go to a second table (half of --hash) with the positions they rest on,
    /// used wherever those are on the line; it is not written to checkpoints (docs/solved.md,
    /// "Repetitions").
    #[arg(long)]
    ghi_safe: bool,
    /// Initial proof and disproof numbers from the game's static evaluation (a position good
    /// for its mover starts with a larger disproof number, a bad one with a larger proof
    /// number) instead of (1, its moves).
    #[arg(long)]
    eval_init: bool,
    /// 2: search both questions (does the side to move win, does the opponent) at once, on
    /// two threads, each with half the table and half the node budget; 1: one after the
    /// other, each with the whole table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub(crate) threads: u8,
}

impl SolverArgs {
    /// The solver's options these arguments ask for.
    pub(crate) fn options(&self) -> pns::Options {
        pns::Options {
            weak: self.weak,
            ghi_safe: self.ghi_safe,
            eval_init: self.eval_init,
        }
    }
}

/// Where a solver starts (`solve`, `units split`): a position or the start, the moves played
/// from it, and the rules.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct RootArgs {
    /// The position (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position first (coordinates, separated by spaces).
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Rules to follow (default: the engine's first variant).
    #[arg(long)]
    pub variant: Option<String>,
}

impl RootArgs {
    /// The variant named, or the engine's first.
    pub fn variant<G: Game>(&self) -> String {
        self.variant
            .clone()
            .unwrap_or_else(|| G::variants()[0].to_string())
    }

    /// The moves as words.
    pub fn move_list(&self) -> Vec<String> {
        self.moves
            .iter()
            .flat_map(|m| m.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    /// The root and the hashes of the positions before it (for repetitions); a bad variant,
    /// FEN or move is the library's typed [`crate::Error`].
    pub fn root<G: Game>(&self) -> Result<(G, Vec<u64>), crate::Error> {
        let variant = self.variant::<G>();
        let start = match &self.fen {
            Some(fen) => G::from_fen(&variant, fen)?,
            None => G::startpos(&variant)?,
        };
        play_line(start, Vec::new(), &self.move_list())
    }
}

/// Plays `moves` from `pos`, extending `history` with the position before each.
pub(crate) fn play_line<G: Game>(
    mut pos: G,
    mut history: Vec<u64>,
    moves: &[String],
) -> Result<(G, Vec<u64>), crate::Error> {
    for text in moves {
        let mv = pos.parse_move(text)?;
        history.push(pos.hash());
        pos = pos.play(mv);
    }
    Ok((pos, history))
}

pub use crate::solve::proof::{MAX_COMPACT_PROOF_BYTES, MAX_PROOF_BYTES};

/// The size limit for the proof file at `path`: the compact format's where the file begins
/// with its first line, else [`MAX_PROOF_BYTES`]: also for a pipe (whose beginning a look
/// would take away) and where the beginning cannot be read (the read that follows says why).
fn proof_limit(path: &str) -> u64 {
    use std::io::Read;
    let mut head = Vec::new();
    let read = crate::files::open(std::path::Path::new(path))
        .map_err(std::io::Error::other)
        .and_then(|f| f.take(64).read_to_end(&mut head));
    let compact = read.is_ok() && head.trim_ascii_start().starts_with(b"kiebitz-proof 2");
    if compact {
        MAX_COMPACT_PROOF_BYTES
    } else {
        MAX_PROOF_BYTES
    }
}

#[derive(Parser, Debug)]
#[command(about = "Checks a proof file written by `solve --proof` with the move generator only")]
struct CheckArgs {
    /// The proof file.
    file: String,
}

/// `solve [--fen F] [--budget SECS | --nodes N] [--proof FILE]`: returns the exit code.
pub fn solve<G: Game>(args: &[String]) -> i32 {
    let name = format!("kiebitz-{} solve", G::GAME);
    let args: SolveArgs = match crate::limits::parse_args(&name, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let code = limits::exit_code(run_solve::<G>(&args), "solve", 1);
    if progress::interrupted() {
        eprintln!(
            "solve: interrupted: the verdict and the figures above are what was found so far"
        );
        return progress::INTERRUPTED_EXIT;
    }
    code
}

fn run_solve<G: Game>(args: &SolveArgs) -> Result<(), CliError> {
    let (root, history) = args.root.root::<G>()?;
    if !args.dfpn
        && let Some(acyclic) = crate::games::page::acyclic::<G>()
    {
        return run_acyclic(args, &root, acyclic);
    }
    if args.root_only {
        return Err(
            "--root-only is for the win/draw/loss solver of acyclic games \
                    (pawn chess without --dfpn); df-pn answers the root's question only"
                .into(),
        );
    }
    let time = match (args.budget, args.nodes) {
        (Some(s), _) if s <= 0.0 => {
            return Err(format!("--budget must be a positive number of seconds, not {s}").into());
        }
        // Also refuses NaN, infinity and budgets a `Duration` or a deadline cannot hold.
        (Some(s), _) => Some(limits::seconds("--budget", s)?),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs(10)),
    };
    let budget = Budget {
        time,
        nodes: args.nodes,
    };
    args.tables.apply::<G>("solve")?;
    // The first Ctrl-C stops the search; the report below then shows how far it got.
    let stop = progress::stop_on_interrupt();
    let started = std::time::Instant::now();
    let report = |attacker: crate::board::Color, nodes: u64, (phi, delta): (u64, u64)| {
        let secs = started.elapsed().as_secs_f64();
        let left = time.map_or(String::new(), |t| {
            format!(
                ", {:.0} s of the budget left",
                (t.as_secs_f64() - secs).max(0.0)
            )
        });
        let rate = nodes as f64 / secs.max(1e-3);
        // df-pn cannot say how far a proof is: the root's numbers are lower bounds of the
        // work left, and the only time one can foresee is when the node budget runs out.
        let eta = budget.nodes.map_or(String::new(), |n| {
            let per_attempt = if args.solver.threads == 2 { n / 2 } else { n };
            format!(
                ", node budget spent in about {:.0} s",
                per_attempt.saturating_sub(nodes) as f64 / rate.max(1.0)
            )
        });
        eprintln!(
            "solve: {attacker:?}'s win: {nodes} positions in {secs:.0} s ({rate:.0}/s), root \
             proof number {}, disproof number {}{left}{eta}",
            number(phi),
            number(delta)
        );
    };
    let tick: Option<&pns::Tick<'_>> =
        (progress::Style::detect() != progress::Style::Off).then_some(&report);
    let checkpoints = match &args.checkpoint {
        Some(dir) => Some(pns::Checkpoints {
            dir: dir.into(),
            every: limits::seconds("--checkpoint-every", args.checkpoint_every)?,
        }),
        None => None,
    };
    let run = pns::Run {
        stop: Some(stop),
        tick,
        options: args.solver.options(),
        parallel: args.solver.threads == 2,
        checkpoints,
    };
    let solution = pns::try_solve_run(&root, &history, budget, args.solver.hash as usize, &run)?;
    for note in &solution.notes {
        eprintln!("solve: {note}");
    }
    print_solution(&root, &solution)?;
    if let Some(path) = &args.proof {
        let write = |path: &str, p: &Proof| -> Result<(), CliError> {
            let text = if args.compact {
                p.to_compact::<G>()?
            } else {
                p.to_text()
            };
            Ok(crate::files::write_bytes(path, text)?)
        };
        match &solution.proof {
            Some(p) => write(path, p)?,
            None if solution.holds.is_empty() => {
                eprintln!("solve: nothing proven, no proof written to {path}")
            }
            // A hold (a draw: two) goes to FILE.white, FILE.black: the holder's colour.
            None => {
                for (p, _) in &solution.holds {
                    let file = format!("{path}.{}", p.winner.name().to_ascii_lowercase());
                    write(&file, p)?;
                    eprintln!("solve: {:?}'s hold written to {file}", p.winner);
                }
            }
        }
    }
    Ok(())
}

/// `solve` for an acyclic game: the win/draw/loss solver's values of the root and of every
/// first move, its certificates (with `--proof`: a win's proof, a draw's two holds) checked
/// and written, the cost.
fn run_acyclic<G: Game>(
    args: &SolveArgs,
    root: &G,
    acyclic: crate::solve::AcyclicSolve<G>,
) -> Result<(), CliError> {
    if args.nodes.is_some() {
        return Err(
            "the win/draw/loss solver takes --budget (seconds), not --nodes (or use --dfpn)".into(),
        );
    }
    let checkpoint = match &args.checkpoint {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
            Some(wdl_checkpoint::Checkpoint {
                path: std::path::Path::new(dir).join("wdl.table"),
                every: limits::seconds("--checkpoint-every", args.checkpoint_every)?,
            })
        }
        None => None,
    };
    let time = match args.budget {
        Some(s) => Some(limits::seconds("--budget", s)?),
        None => Some(Duration::from_secs(10)),
    };
    let options = wdl::Options {
        hash_mb: args.solver.hash,
        threads: args.solver.threads as usize,
        time,
        progress: (progress::Style::detect() != progress::Style::Off).then_some(10.0),
        certificates: args.proof.is_some(),
        lemmas: args.lemmas,
        root_only: args.root_only,
        checkpoint,
    };
    let stop = progress::stop_on_interrupt();
    let solution = acyclic(root, &options, stop)?;
    for note in &solution.notes {
        eprintln!("solve: {note}");
    }
    let word = |v: Option<i8>| v.map_or("unknown", wdl::value_word);
    out!("position  {}", root.fen());
    out!("result    {} (for the side to move)", word(solution.value));
    for ((mv, v), at_most) in solution
        .first_moves
        .iter()
        .zip(&solution.first_moves_at_most)
    {
        match at_most {
            Some(hi) => out!("move      {mv}: no better than a {}", word(Some(*hi))),
            None if v.is_none() && args.root_only && solution.value == Some(1) => {
                out!("move      {mv}: not searched (a move before it wins)")
            }
            None => out!("move      {mv}: {}", word(*v)),
        }
    }
    for (p, c) in &solution.certificates {
        let (what, with) = if p.hold {
            (
                "hold ",
                format!(
                    "{:?} keeps {:?} from forcing a win",
                    p.winner,
                    p.winner.flip()
                ),
            )
        } else {
            ("proof", format!("{:?} wins", p.winner))
        };
        out!(
            "{what}     {with}: {} positions, {} choices, longest line {} plies (checked)",
            c.positions,
            p.count,
            c.plies
        );
    }
    out!(
        "nodes     {} (certificates {})",
        solution.nodes,
        solution.certificate_nodes
    );
    out!(
        "table     {} of {} entries written",
        solution.stored,
        solution.capacity
    );
    out!(
        "time      {:.3} s (certificates {:.3} s)",
        solution.time.as_secs_f64(),
        solution.certificate_time.as_secs_f64()
    );
    if let Some(path) = &args.proof {
        write_certificates::<G>(path, args.compact, &solution.certificates)?;
    }
    Ok(())
}

/// A win's proof to `path`; a draw's holds to `path.white` and `path.black`: in the compact
/// format where asked, else unfolded into the text format (a FEN per winner's position).
fn write_certificates<G: Game>(
    path: &str,
    compact: bool,
    certificates: &[(Compact, proof::Checked)],
) -> Result<(), CliError> {
    for (c, _) in certificates {
        let file = if c.hold {
            format!("{path}.{}", c.winner.name().to_ascii_lowercase())
        } else {
            path.to_string()
        };
        let written = if compact {
            crate::files::write_whole(std::path::Path::new(&file), |w| c.write_to(w))
        } else {
            let text = c.unfold::<G>()?.to_text();
            crate::files::write_whole(std::path::Path::new(&file), |w| {
                std::io::Write::write_all(w, text.as_bytes())
            })
        };
        written.map_err(|e| format!("cannot write {file}: {e}"))?;
        eprintln!("solve: certificate written to {file}");
    }
    if certificates.is_empty() {
        eprintln!("solve: no certificate, nothing written to {path}");
    }
    Ok(())
}

/// The verdict, the proof's size, each attempt's numbers, the nodes and the time, on stdout.
fn print_solution<G: Game>(root: &G, solution: &pns::Solution) -> Result<(), CliError> {
    let verdict = match solution.verdict {
        Verdict::Win => "win",
        Verdict::Loss => "loss",
        Verdict::Draw => "draw",
        Verdict::Unknown => "unknown",
    };
    out!("position  {}", root.fen());
    out!("result    {verdict} (for the side to move)");
    if let Some(mv) = solution.best {
        out!("move      {}", root.move_text(mv));
    }
    if let Some(checked) = solution.checked {
        out!(
            "proof     {} positions, {} winner's choices, longest line {} plies (checked)",
            checked.positions,
            solution.proof.as_ref().map_or(0, |p| p.nodes.len()),
            checked.plies
        );
    }
    for (hold, checked) in &solution.holds {
        out!(
            "hold      {:?} keeps {:?} from forcing a win: {} positions, {} holder's choices, farthest {} plies (checked)",
            hold.winner,
            hold.winner.flip(),
            checked.positions,
            hold.nodes.len(),
            checked.plies
        );
    }
    for a in &solution.attempts {
        let who = if a.attacker == root.side_to_move() {
            "side to move"
        } else {
            "opponent"
        };
        let mut earlier = if a.earlier_nodes > 0 {
            format!(" (after {} in earlier runs)", a.earlier_nodes)
        } else {
            String::new()
        };
        if a.line_results != (0, 0) {
            earlier.push_str(&format!(
                "; line-dependent disproofs {} stored, {} used again",
                a.line_results.0, a.line_results.1
            ));
        }
        if a.hold_searches > 0 {
            earlier.push_str(&format!("; {} searches for the hold", a.hold_searches));
        }
        if a.unextracted {
            earlier.push_str(
                "; the table claimed a win whose proof was not collected within the budget, \
                 so nothing is proven: the table lost parts of it (try a larger --hash) or a \
                 resumed checkpoint held false entries (remove it)",
            );
        }
        out!(
            "attempt   win for the {who} ({:?}): proof number {}, disproof number {}, {} nodes{earlier}",
            a.attacker,
            number(a.phi),
            number(a.delta),
            a.nodes
        );
    }
    let disproven = |a: &pns::Attempt| a.delta == 0;
    if !G::REPETITION
        && G::DRAW_PLIES.is_none()
        && solution.attempts.len() == 2
        && solution.attempts.iter().all(disproven)
    {
        // Without repetitions the game graph has no cycles and every disproof is sound.
        out!("draw      neither side forces a win: both attempts disproven (no proof file)");
    }
    out!("nodes     {}", solution.nodes);
    out!("time      {:.3} s", solution.time.as_secs_f64());
    Ok(())
}

/// Checks a certificate's text: the compact format by its own walk, without a FEN per position
/// ([`compact::check`]); the text format by [`proof::check`]. Returns its header (as a proof
/// without nodes), what the check found, and whether it was the compact walk (whose plies are a
/// hold's longest line; the text format's check gives a hold's farthest position).
fn check_text<G: Game>(text: &str) -> Result<(Proof, proof::Checked, bool), CliError> {
    if let Ok(c) = Compact::parse(text) {
        let checked = compact::check::<G>(&c)?;
        let head = Proof {
            variant: c.variant,
            root: c.root,
            winner: c.winner,
            hold: c.hold,
            nodes: Vec::new(),
        };
        return Ok((head, checked, true));
    }
    let p = Proof::parse_any::<G>(text).map_err(|e| e.to_string())?;
    let checked = proof::check::<G>(&p).map_err(|e| e.to_string())?;
    Ok((p, checked, false))
}

/// `check-proof FILE`: 0 if the proof holds, 1 (with the reason on stderr) if not.
pub fn check_proof<G: Game>(args: &[String]) -> i32 {
    let name = format!("kiebitz-{} check-proof", G::GAME);
    let args: CheckArgs = match crate::limits::parse_args(&name, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let text = match crate::files::read_input_text(&args.file, proof_limit(&args.file)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("check-proof: {e}");
            return 1;
        }
    };
    match check_text::<G>(&text) {
        Ok((p, c, walked)) => {
            let winner = p.winner.name().to_ascii_lowercase();
            let plies = if walked {
                format!("longest line {} plies", c.plies)
            } else {
                format!("farthest {} plies from the root", c.plies)
            };
            let said = if p.hold {
                limits::out(format_args!(
                    "proof holds: {winner} keeps {} from forcing a win from {} ({} positions, {plies})",
                    p.winner.flip().name().to_ascii_lowercase(),
                    p.root,
                    c.positions,
                ))
            } else {
                limits::out(format_args!(
                    "proof holds: {winner} wins from {} ({} positions, longest line {} plies)",
                    p.root, c.positions, c.plies
                ))
            };
            limits::exit_code(said, "check-proof", 1)
        }
        Err(msg) => {
            eprintln!("check-proof: the proof does not hold: {msg}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use crate::games::chess::Chess;

    fn root(fen: Option<&str>, moves: &str, variant: &str) -> Result<Chess, Error> {
        RootArgs {
            fen: fen.map(str::to_string),
            moves: Some(moves.to_string()),
            variant: Some(variant.to_string()),
        }
        .root::<Chess>()
        .map(|(pos, _)| pos)
    }

    /// `--variant`, `--fen` and `--moves` fail with the kind of what was wrong.
    #[test]
    fn a_bad_root_says_which_argument_was_wrong() {
        assert!(root(None, "e2e4 e7e5", "chess").is_ok());
        assert!(matches!(root(None, "", "shogi"), Err(Error::Variant(_))));
        assert!(matches!(
            root(Some("8/8 w"), "", "chess"),
            Err(Error::Position(_))
        ));
        assert!(matches!(
            root(None, "e2e4 e2e4", "chess"),
            Err(Error::Move(_))
        ));
    }
}
