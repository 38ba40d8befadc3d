//! `units`: a solve split into independent work units, so that machines which share nothing
//! but a folder can solve it together (docs/rules.md §1's extra subcommands; docs/solved.md, "Work
//! units").
//!
//! - `units split`: the tree of every line `--plies` deep from the root is written to a
//!   manifest; each distinct position at its frontier is a unit (its line from the root kept,
//!   so that repetitions are judged as in the whole game).
//! - `units work`: a worker solves units with the solver `solve` would pick and writes each
//!   one's result next to the manifest. For an acyclic game the win/draw/loss solver
//!   ([`wdl`]): `unit-N.value` (the unit's value), with `--certificates` its checked
//!   certificates; otherwise (or with `--dfpn`) proof-number search ([`crate::solve::pns`]):
//!   `unit-N.proof` (a checked proof, either side's win). `unit-N.open`: nothing decided
//!   within the budget. Units are dealt out by number (`--unit N`, or `--worker K --of W`:
//!   every unit N with N mod W = K), so a Slurm job array, GNU parallel over ssh or a
//!   Kubernetes indexed Job runs one worker per index with no coordination; a unit that has a
//!   result is skipped, so a worker can be restarted.
//! - `units merge`: the top of the tree is evaluated from the units' values (a proof is a
//!   win for its winner): the root's value where the units decide it. With `--out`, its
//!   certificates are joined from the choices above the frontier and the units' certificates
//!   (a win's proof; a draw's two holds) and checked by [`crate::solve::proof::check`] before
//!   they are written: the check, not the workers, decides.
//!
//! Generic over the [`Game`]; depends on `solve` (df-pn, the win/draw/loss solver, proofs),
//! `limits` and `progress`.

mod wdl;

use crate::error::CliError;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use super::solve::{RootArgs, SolverArgs, TablesArgs, play_line};
use crate::board::{Color, MoveList};
use crate::game::{Game, Outcome};
use crate::limits;
use crate::solve::pns::{self, Budget, Verdict};
use crate::solve::proof::{self, Proof, identity};

/// The manifest's first line.
const MAGIC: &str = "kiebitz-units 1";
/// The most lines `--plies` may unfold (a wider split is better done in two steps).
const MAX_UNITS: usize = 100_000;
/// The most plies between the root and the units (`split --plies`).
const MAX_PLIES: u32 = 8;
/// The largest manifest or unit proof read (256 MiB).
const MAX_FILE_BYTES: u64 = 256 << 20;
/// The longest line of a manifest (a root line of some thousand moves fits).
const MAX_LINE_BYTES: usize = 64 << 10;
/// The most moves from the manifest's start to its root.
const MAX_ROOT_MOVES: usize = 2000;

#[derive(Parser, Debug)]
#[command(about = "Splits a proof into work units, solves units, merges their proofs")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Writes DIR/manifest: one unit per distinct position PLIES deep below the root.
    Split {
        /// The folder of the manifest and the units' results (created if missing).
        #[arg(long)]
        dir: PathBuf,
        /// Plies from the root to the units.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
        plies: u32,
        #[command(flatten)]
        root: RootArgs,
    },
    /// Solves units of DIR/manifest that have no result yet.
    Work(WorkArgs),
    /// The root's value from the units' values; with --out its certificates joined from the
    /// units', checked and written.
    Merge {
        #[arg(long)]
        dir: PathBuf,
        /// The merged certificate: a win's proof to FILE, a draw's holds to FILE.white and
        /// FILE.black.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
    },
}

/// `units work`'s arguments.
#[derive(clap::Args, Debug)]
struct WorkArgs {
    #[arg(long)]
    dir: PathBuf,
    /// Solve only this unit.
    #[arg(long, conflicts_with_all = ["worker", "of"])]
    unit: Option<usize>,
    /// This worker's index, 0 to --of − 1 (default: all units).
    #[arg(long, requires = "of")]
    worker: Option<usize>,
    /// How many workers share the units.
    #[arg(long, requires = "worker", value_parser = clap::value_parser!(u64).range(1..))]
    of: Option<u64>,
    /// df-pn's budget per unit (and per run of it) in expanded positions (default 2,000,000).
    #[arg(long)]
    nodes: Option<u64>,
    /// Budget per unit (and per run of it) in seconds, besides --nodes.
    #[arg(long, value_name = "SECS")]
    time: Option<f64>,
    #[command(flatten)]
    solver: SolverArgs,
    #[command(flatten)]
    tables: TablesArgs,
    /// Keep each unit's solver tables in DIR/unit-N.ck (white.dfpn, black.dfpn), written
    /// every SECS seconds and when the unit's run ends (also on Ctrl-C): a unit that is
    /// stopped or stays open resumes from them in a later run (see `solve --checkpoint`).
    /// A proven unit's folder is removed.
    #[arg(long, value_name = "SECS")]
    checkpoint_every: Option<f64>,
    /// Work again the units that stayed open (unit-N.open), from their checkpoints where
    /// there are any; the new result replaces the old.
    #[arg(long)]
    retry_open: bool,
    /// Proof-number search even for an acyclic game (whose units the win/draw/loss solver
    /// takes by default, as `solve` does).
    #[arg(long)]
    dfpn: bool,
    /// The win/draw/loss solver: collect each unit's certificates too (a win's proof, a draw's
    /// two holds), checked, for `merge --out` to join.
    #[arg(long)]
    certificates: bool,
}

/// The manifest: how to reach the root, and each unit's line from it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Manifest {
    variant: String,
    /// The FEN the moves start from (`startpos` for the variant's start position).
    start: String,
    /// Moves from `start` to the root.
    moves: Vec<String>,
    plies: u32,
    /// Each unit's moves from the root.
    units: Vec<Vec<String>>,
}

impl Manifest {
    fn to_text(&self) -> String {
        let mut t = format!(
            "{MAGIC}\nvariant {}\nstart {}\nmoves {}\nplies {}\n",
            self.variant,
            self.start,
            self.moves.join(" "),
            self.plies
        );
        for (i, line) in self.units.iter().enumerate() {
            t.push_str(&format!("unit {i} {}\n", line.join(" ")));
        }
        t
    }

    /// Reads a manifest, refusing what `split` never writes: lines longer than
    /// [`MAX_LINE_BYTES`], more than [`MAX_UNITS`] units or [`MAX_ROOT_MOVES`] moves to the
    /// root, plies beyond [`MAX_PLIES`], a unit line longer than the plies.
    fn parse(text: &str) -> Result<Manifest, CliError> {
        if let Some((n, _)) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.len() > MAX_LINE_BYTES)
        {
            return Err(format!(
                "line {} is longer than {MAX_LINE_BYTES} bytes: not a manifest split writes",
                n + 1
            )
            .into());
        }
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!("not a manifest: the first line must be '{MAGIC}'").into());
        }
        let mut field = |name: &str| -> Result<String, CliError> {
            let line = lines.next().unwrap_or("");
            Ok(line
                .strip_prefix(name)
                .map(|rest| rest.trim().to_string())
                .ok_or_else(|| format!("expected '{name} …', found '{line}'"))?)
        };
        let variant = field("variant")?;
        let start = field("start")?;
        let moves = field("moves")?;
        let plies = field("plies")?
            .parse()
            .ok()
            .filter(|p| (1..=MAX_PLIES).contains(p))
            .ok_or_else(|| {
                format!("plies must be a number from 1 to {MAX_PLIES}, as split makes")
            })?;
        let moves: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        if moves.len() > MAX_ROOT_MOVES {
            return Err(format!(
                "{} moves to the root, more than {MAX_ROOT_MOVES}",
                moves.len()
            )
            .into());
        }
        let mut units = Vec::new();
        for line in lines.filter(|l| !l.trim().is_empty()) {
            if units.len() == MAX_UNITS {
                return Err(format!("more than {MAX_UNITS} units, more than split makes").into());
            }
            let mut words = line.split_whitespace();
            let index = (words.next() == Some("unit"))
                .then(|| words.next()?.parse::<usize>().ok())
                .flatten();
            if index != Some(units.len()) {
                return Err(format!("expected 'unit {} …', found '{line}'", units.len()).into());
            }
            let unit: Vec<String> = words.map(str::to_string).collect();
            if unit.len() > plies as usize {
                return Err(format!(
                    "unit {} has {} moves, more than the manifest's {plies} plies",
                    units.len(),
                    unit.len()
                )
                .into());
            }
            units.push(unit);
        }
        Ok(Manifest {
            variant,
            start,
            moves,
            plies,
            units,
        })
    }

    /// The root and the hashes of the positions before it (for repetitions).
    fn root<G: Game>(&self) -> Result<(G, Vec<u64>), crate::Error> {
        RootArgs {
            fen: (self.start != "startpos").then(|| self.start.clone()),
            moves: Some(self.moves.join(" ")),
            variant: Some(self.variant.clone()),
        }
        .root::<G>()
    }

    /// Unit `i`'s position and the hashes of every position before it.
    fn unit<G: Game>(&self, i: usize) -> Result<(G, Vec<u64>), crate::Error> {
        self.unit_below(&self.root::<G>()?, i)
    }

    /// Unit `i`'s position and history below `root` ([`Manifest::root`], played once for all
    /// units).
    fn unit_below<G: Game>(
        &self,
        root: &(G, Vec<u64>),
        i: usize,
    ) -> Result<(G, Vec<u64>), crate::Error> {
        play_line(root.0.clone(), root.1.clone(), &self.units[i])
    }
}

/// `units split|work|merge …`: returns the exit code.
pub fn units<G: Game>(args: &[String]) -> i32 {
    let args: Args = match crate::limits::parse_args(&format!("kiebitz-{} units", G::GAME), args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let result = match args.command {
        Command::Split { dir, plies, root } => split::<G>(&dir, plies, &root),
        Command::Work(w) => w.tables.apply::<G>("units").and_then(|()| work::<G>(&w)),
        Command::Merge { dir, out } => merge::<G>(&dir, out.as_deref()),
    };
    limits::exit_code(result, "units", 1)
}

fn manifest_path(dir: &Path) -> PathBuf {
    dir.join("manifest")
}

fn read_manifest(dir: &Path) -> Result<Manifest, CliError> {
    let path = manifest_path(dir);
    Manifest::parse(&crate::files::read_text(&path, MAX_FILE_BYTES)?)
}

fn split<G: Game>(dir: &Path, plies: u32, root: &RootArgs) -> Result<(), CliError> {
    let mut manifest = Manifest {
        variant: root.variant::<G>(),
        start: root.fen.clone().unwrap_or_else(|| "startpos".to_string()),
        moves: root.move_list(),
        plies,
        units: Vec::new(),
    };
    let (root, history) = manifest.root::<G>()?;
    if root.verdict(&history).is_some() {
        return Err(format!("the game is over at the root {}", root.fen()).into());
    }
    // Breadth first; a position reached twice is one unit (the first line to it is kept).
    let mut seen = HashSet::new();
    let mut layer = vec![(root, history, Vec::<String>::new())];
    for _ in 0..plies {
        let mut next = Vec::new();
        for (pos, history, line) in layer {
            if pos.verdict(&history).is_some() {
                continue; // decided above the frontier: merge judges it by the rules
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for &mv in moves.iter() {
                let child = pos.play(mv);
                if !seen.insert(identity(&child.fen())) {
                    continue;
                }
                let mut h = history.clone();
                h.push(pos.hash());
                let mut l = line.clone();
                l.push(pos.move_text(mv));
                next.push((child, h, l));
            }
            if next.len() > MAX_UNITS {
                return Err(format!(
                    "more than {MAX_UNITS} units: split fewer plies, then split the units"
                )
                .into());
            }
        }
        layer = next;
    }
    manifest.units = layer
        .into_iter()
        .filter(|(pos, history, _)| pos.verdict(history).is_none())
        .map(|(_, _, line)| line)
        .collect();
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = manifest_path(dir);
    write_whole(&path, &manifest.to_text())?;
    limits::out(format_args!(
        "{} units {plies} plies below {} in {}",
        manifest.units.len(),
        manifest.root::<G>()?.0.fen(),
        path.display()
    ))
}

fn result_path(dir: &Path, unit: usize, ext: &str) -> PathBuf {
    dir.join(format!("unit-{unit}.{ext}"))
}

/// Writes `text` to `path` through a temporary file, so that a reader never sees half of it.
fn write_whole(path: &Path, text: &str) -> Result<(), CliError> {
    Ok(
        crate::files::write_whole(path, |out| std::io::Write::write_all(out, text.as_bytes()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
    )
}

/// The units this worker takes, by the manifest's numbers.
fn my_units(w: &WorkArgs, count: usize) -> Result<Vec<usize>, CliError> {
    match (w.unit, w.worker, w.of) {
        (Some(u), _, _) if u < count => Ok(vec![u]),
        (Some(u), _, _) => Err(format!(
            "no unit {u}: the manifest has units 0 to {}",
            count.saturating_sub(1)
        )
        .into()),
        (None, Some(_), Some(0)) => Err("--of must be at least 1".into()),
        (None, Some(k), Some(w)) if k as u64 >= w => {
            Err(format!("--worker must be 0 to {}, not {k}", w - 1).into())
        }
        (None, Some(k), Some(w)) => Ok((k..count).step_by(w as usize).collect()),
        _ => Ok((0..count).collect()),
    }
}

/// How one unit's run ended.
enum UnitEnd {
    Proven,
    Open,
    /// Interrupted before a result: the unit stays to do (its checkpoint, if kept, written).
    Stopped,
}

fn work<G: Game>(w: &WorkArgs) -> Result<(), CliError> {
    let manifest = read_manifest(&w.dir)?;
    let mine = my_units(w, manifest.units.len())?;
    let stop = crate::progress::stop_on_interrupt();
    if !w.dfpn
        && let Some(solve) = crate::games::page::acyclic::<G>()
    {
        let (solved, open) = wdl::work::<G>(w, &manifest, &mine, solve, stop)?;
        return limits::out(format_args!(
            "worker done: {solved} units solved, {open} open"
        ));
    }
    let budget = Budget {
        time: w.time.map(|t| limits::seconds("--time", t)).transpose()?,
        nodes: Some(w.nodes.unwrap_or(2_000_000)),
    };
    let every = w
        .checkpoint_every
        .map(|t| limits::seconds("--checkpoint-every", t))
        .transpose()?;
    let (mut proven, mut open) = (0, 0);
    for i in mine {
        if has_result(&w.dir, i, w.retry_open) {
            continue;
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let run = pns::Run {
            stop: Some(stop),
            options: w.solver.options(),
            parallel: w.solver.threads == 2,
            checkpoints: every.map(|every| pns::Checkpoints {
                dir: checkpoint_dir(&w.dir, i),
                every,
            }),
            ..pns::Run::default()
        };
        match work_unit::<G>(w, &manifest, i, budget, &run)? {
            UnitEnd::Proven => proven += 1,
            UnitEnd::Open => open += 1,
            UnitEnd::Stopped => break,
        }
    }
    limits::out(format_args!(
        "worker done: {proven} units proven, {open} open"
    ))
}

/// Whether unit `i` has a result a worker leaves alone: a proof or a value, or an open mark
/// unless open units are to be worked again.
fn has_result(dir: &Path, i: usize, retry_open: bool) -> bool {
    result_path(dir, i, "proof").exists()
        || result_path(dir, i, "value").exists()
        || (!retry_open && result_path(dir, i, "open").exists())
}

/// Where unit `unit` keeps its solver's checkpoints.
fn checkpoint_dir(dir: &Path, unit: usize) -> PathBuf {
    dir.join(format!("unit-{unit}.ck"))
}

/// Solves unit `i` as `run` says and writes its result: its proof (the open mark and the
/// checkpoints then removed), or the open mark with the root numbers reached.
fn work_unit<G: Game>(
    w: &WorkArgs,
    manifest: &Manifest,
    i: usize,
    budget: Budget,
    run: &pns::Run<'_>,
) -> Result<UnitEnd, CliError> {
    let (pos, history) = manifest.unit::<G>(i)?;
    let s = pns::try_solve_run(&pos, &history, budget, w.solver.hash as usize, run)?;
    for note in &s.notes {
        eprintln!("units: unit {i}: {note}");
    }
    let stopped = run
        .stop
        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed));
    let earlier: u64 = s.attempts.iter().map(|a| a.earlier_nodes).sum();
    let (end, said) = match (&s.verdict, &s.proof) {
        (Verdict::Win | Verdict::Loss, Some(p)) => {
            write_whole(&result_path(&w.dir, i, "proof"), &p.to_text())?;
            let _ = std::fs::remove_file(result_path(&w.dir, i, "open"));
            let _ = std::fs::remove_dir_all(checkpoint_dir(&w.dir, i));
            (UnitEnd::Proven, format!("{:?} wins", p.winner))
        }
        _ if stopped => (UnitEnd::Stopped, "stopped, no result".to_string()),
        _ => {
            let text = format!(
                "open after {} positions{}: {}\n",
                s.nodes,
                if earlier > 0 {
                    format!(" ({} with the earlier runs)", s.nodes + earlier)
                } else {
                    String::new()
                },
                s.attempts
                    .iter()
                    .map(|a| format!("{:?} φ {} δ {}", a.attacker, a.phi, a.delta))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            write_whole(&result_path(&w.dir, i, "open"), &text)?;
            (UnitEnd::Open, "open".to_string())
        }
    };
    eprintln!(
        "units: unit {i} ({}): {said}, {} positions, {:.1} s",
        manifest.units[i].join(" "),
        s.nodes,
        s.time.as_secs_f64()
    );
    Ok(end)
}

/// What the merge knows of the tree's frontier, by position identity: each unit's value for
/// its side to move (from its value file, or its proof: a win for the proof's winner) and the
/// certificates, by their root and their holder.
struct Frontier {
    values: HashMap<String, i8>,
    certificates: HashMap<(String, Color), Proof>,
    /// Units with no result at all (neither a value, a proof nor an open mark).
    missing: usize,
}

impl Frontier {
    /// Reads every unit's results. A certificate counts only where it is of the unit's own
    /// position, says what its file name says and is checked ([`proof::check`]); a value file
    /// that contradicts the unit's certificates is an error, not a value.
    fn read<G: Game>(dir: &Path, manifest: &Manifest) -> Result<Frontier, CliError> {
        let mut f = Frontier {
            values: HashMap::new(),
            certificates: HashMap::new(),
            missing: 0,
        };
        let root = manifest.root::<G>()?;
        for i in 0..manifest.units.len() {
            let (pos, _) = manifest.unit_below::<G>(&root, i)?;
            f.read_unit(dir, i, &pos)?;
        }
        Ok(f)
    }

    /// Reads unit `i`'s results (its position `pos`).
    fn read_unit<G: Game>(&mut self, dir: &Path, i: usize, pos: &G) -> Result<(), CliError> {
        let id = identity(&pos.fen());
        // What the certificates show for the unit's side to move.
        let (mut lo, mut hi) = (-1i8, 1i8);
        // The proof (either side's win) and each side's hold.
        for (side, hold) in [
            (None, false),
            (Some(Color::White), true),
            (Some(Color::Black), true),
        ] {
            let ext = wdl::certificate_ext(side.unwrap_or(Color::White), hold);
            let Some(p) = read_certificate::<G>(&result_path(dir, i, ext), pos, (side, hold))?
            else {
                continue;
            };
            match (p.winner == pos.side_to_move(), p.hold) {
                (true, false) => lo = 1,
                (false, false) => hi = -1,
                (true, true) => lo = lo.max(0),
                (false, true) => hi = hi.min(0),
            }
            self.certificates.insert((id.clone(), p.winner), p);
        }
        if lo > hi {
            return Err(format!("unit {i}: its certificates contradict each other").into());
        }
        let path = result_path(dir, i, "value");
        if path.exists() {
            let text = crate::files::read_text(&path, 4096)?;
            let v = wdl::parse_value(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            if !(lo..=hi).contains(&v) {
                return Err(format!(
                    "{}: says {} for the side to move, the unit's certificates say otherwise",
                    path.display(),
                    crate::solve::wdl::value_word(v)
                )
                .into());
            }
            self.values.insert(id, v);
        } else if lo == hi {
            self.values.insert(id, lo);
        } else if !result_path(dir, i, "open").exists() {
            self.missing += 1;
        }
        Ok(())
    }
}

/// The certificate at `path` (a proof or a hold, either format), if there is one: refused
/// where it is of another position than `unit`'s, is not what its name says (a hold or not,
/// and whose where `side` says), or does not hold.
fn read_certificate<G: Game>(
    path: &Path,
    unit: &G,
    (side, hold): (Option<Color>, bool),
) -> Result<Option<Proof>, CliError> {
    if !path.exists() {
        return Ok(None);
    }
    let name = path.display();
    let text = crate::files::read_text(path, MAX_FILE_BYTES)?;
    let p = Proof::parse_any::<G>(&text).map_err(|e| format!("{name}: {e}"))?;
    if identity(&p.root) != identity(&unit.fen()) {
        return Err(format!(
            "{name}: a certificate of {}, not of this unit's position {}",
            p.root,
            unit.fen()
        )
        .into());
    }
    if p.hold != hold || side.is_some_and(|c| c != p.winner) {
        let what = |h: bool| if h { "hold" } else { "proof" };
        return Err(format!(
            "{name}: a {} of {:?}'s, where its name says a {}{}",
            what(p.hold),
            p.winner,
            what(hold),
            side.map_or(String::new(), |c| format!(" of {c:?}'s"))
        )
        .into());
    }
    proof::check::<G>(&p).map_err(|e| format!("{name}: {e}"))?;
    Ok(Some(p))
}

/// What the root's side to move is worth, between `lo` and `hi`, from the rules above the
/// frontier and the units' values at it (a unit without one: anything).
fn bounds<G: Game>(
    pos: &G,
    history: &mut Vec<u64>,
    depth: u32,
    (plies, values): (u32, &HashMap<String, i8>),
) -> (i8, i8) {
    if let Some((outcome, _)) = pos.verdict(history) {
        let v = match outcome {
            Outcome::Win(c) if c == pos.side_to_move() => 1,
            Outcome::Win(_) => -1,
            _ => 0,
        };
        return (v, v);
    }
    if depth == plies {
        return values
            .get(&identity(&pos.fen()))
            .map_or((-1, 1), |&v| (v, v));
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    history.push(pos.hash());
    let (mut lo, mut hi) = (-1, -1);
    for &mv in moves.iter() {
        let (clo, chi) = bounds(&pos.play(mv), history, depth + 1, (plies, values));
        (lo, hi) = (lo.max(-chi), hi.max(-clo));
        if lo == 1 {
            break;
        }
    }
    history.pop();
    (lo, hi)
}

/// The top of the tree walked for one certificate (a win of `side`'s, or with `hold` a
/// hold): `side`'s choices above the frontier and the units' certificates used, as
/// [`Top::reaches`] finds them.
struct Top<'a> {
    plies: u32,
    side: Color,
    hold: bool,
    frontier: &'a Frontier,
    choices: Vec<(String, String)>,
    used: Vec<(String, Color)>,
}

impl Top<'_> {
    /// Whether `side` reaches its goal from `pos` (`depth` plies below the root, `history`
    /// the positions before it): by one move where it is to move, by every move elsewhere.
    fn reaches<G: Game>(&mut self, pos: &G, history: &mut Vec<u64>, depth: u32) -> bool {
        if let Some((outcome, _)) = pos.verdict(history) {
            return outcome == Outcome::Win(self.side) || (self.hold && outcome == Outcome::Draw);
        }
        if depth == self.plies {
            let key = (identity(&pos.fen()), self.side);
            return match self.frontier.certificates.get(&key) {
                Some(p) if self.hold || !p.hold => {
                    self.used.push(key);
                    true
                }
                _ => false,
            };
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        history.push(pos.hash());
        let ours = pos.side_to_move() == self.side;
        let mut result = !ours;
        for &mv in moves.iter() {
            let (c, u) = (self.choices.len(), self.used.len());
            let child = self.reaches(&pos.play(mv), history, depth + 1);
            if ours && child {
                self.choices.push((pos.fen(), pos.move_text(mv)));
                result = true;
                break;
            }
            if ours {
                // A line that does not reach the goal leaves nothing behind.
                self.choices.truncate(c);
                self.used.truncate(u);
            } else if !child {
                result = false;
                break;
            }
        }
        history.pop();
        result
    }
}

fn merge<G: Game>(dir: &Path, out: Option<&str>) -> Result<(), CliError> {
    let manifest = read_manifest(dir)?;
    let frontier = Frontier::read::<G>(dir, &manifest)?;
    let (root, history) = manifest.root::<G>()?;
    let (count, known) = (manifest.units.len(), frontier.values.len());
    let (lo, hi) = bounds(
        &root,
        &mut history.clone(),
        0,
        (manifest.plies, &frontier.values),
    );
    if lo != hi {
        return Err(format!(
            "the root is not decided yet (between a {} and a {} for the side to move): {known} \
             of {count} units have a value, {} without a result",
            crate::solve::wdl::value_word(lo),
            crate::solve::wdl::value_word(hi),
            frontier.missing
        )
        .into());
    }
    limits::out(format_args!(
        "value     {} for the side to move at {} ({known} of {count} units have a value)",
        crate::solve::wdl::value_word(lo),
        root.fen()
    ))?;
    let Some(out) = out else {
        return Ok(());
    };
    let us = root.side_to_move();
    let goals = match lo {
        1 => vec![(us, false)],
        -1 => vec![(us.flip(), false)],
        _ => vec![(Color::White, true), (Color::Black, true)],
    };
    for (side, hold) in goals {
        let file = if hold {
            format!("{out}.{}", side.name().to_ascii_lowercase())
        } else {
            out.to_string()
        };
        join_certificate(&root, &history, (&manifest, &frontier), (side, hold), &file)?;
    }
    Ok(())
}

/// Joins `side`'s certificate (a win's proof, or with `hold` a hold) from the choices above
/// the frontier and the units' certificates, checks it and writes it to `file`.
fn join_certificate<G: Game>(
    root: &G,
    history: &[u64],
    (manifest, frontier): (&Manifest, &Frontier),
    (side, hold): (Color, bool),
    file: &str,
) -> Result<(), CliError> {
    let mut top = Top {
        plies: manifest.plies,
        side,
        hold,
        frontier,
        choices: Vec::new(),
        used: Vec::new(),
    };
    let what = if hold { "hold" } else { "proof" };
    if !top.reaches(root, &mut history.to_vec(), 0) {
        return Err(format!(
            "no {what} of {side:?}'s to join: the units' certificates are missing where it \
             needs them (work the units with --certificates)"
        )
        .into());
    }
    let Top { choices, used, .. } = top;
    let mut seen = HashSet::new();
    let mut nodes = Vec::new();
    let unit_nodes = used
        .iter()
        .flat_map(|key| frontier.certificates[key].nodes.iter());
    for (fen, mv) in choices.iter().chain(unit_nodes) {
        if seen.insert(identity(fen)) {
            nodes.push((fen.clone(), mv.clone()));
        }
    }
    let merged = Proof {
        variant: root.variant().to_string(),
        root: root.fen(),
        winner: side,
        hold,
        nodes,
    };
    let checked =
        proof::check::<G>(&merged).map_err(|e| format!("the merged {what} does not hold: {e}"))?;
    write_whole(Path::new(file), &merged.to_text())?;
    let did = if hold { "holds" } else { "wins" };
    limits::out(format_args!(
        "{what:<9} {side:?} {did} from {}: {} units used, {} positions, longest line {} plies \
         (checked), written to {file}",
        root.fen(),
        used.len(),
        checked.positions,
        checked.plies
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_reads_back_and_bad_ones_are_refused() {
        let m = Manifest {
            variant: "pawns4ep".into(),
            start: "startpos".into(),
            moves: vec!["a1a2".into()],
            plies: 2,
            units: vec![
                vec!["b4b3".into(), "b1b2".into()],
                vec!["c4c3".into(), "a2a3".into()],
            ],
        };
        assert_eq!(Manifest::parse(&m.to_text()), Ok(m.clone()));
        assert!(Manifest::parse("kiebitz-units 2\n").is_err());
        let skipped = m.to_text().replace("unit 1 ", "unit 2 ");
        assert!(Manifest::parse(&skipped).is_err());
        // More plies than split makes: merge would walk them without a budget.
        for plies in ["plies 40", "plies 0", "plies x"] {
            let deep = m.to_text().replace("plies 2", plies);
            let err = Manifest::parse(&deep).unwrap_err().to_string();
            assert!(err.contains("from 1 to 8"), "{err}");
        }
        assert_eq!(identity("pp2/4/4/PP2 w - - 3 7"), "pp2/4/4/PP2 w - -");
        // What split never writes, which merge would replay without a bound: a line beyond
        // 64 KiB, more units than split makes, a unit line longer than the plies.
        let long = m
            .to_text()
            .replace("moves a1a2", &format!("moves {}", "a1a2 ".repeat(20_000)));
        assert!(
            Manifest::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("longer than")
        );
        let mut many = m.to_text();
        (2..=MAX_UNITS).for_each(|i| many.push_str(&format!("unit {i} a4a3\n")));
        assert!(
            Manifest::parse(&many)
                .unwrap_err()
                .to_string()
                .contains("more than 100000 units")
        );
        let deep = m
            .to_text()
            .replace("unit 1 c4c3 a2a3", "unit 1 c4c3 a2a3 d4d3");
        assert!(
            Manifest::parse(&deep)
                .unwrap_err()
                .to_string()
                .contains("more than the manifest's 2 plies")
        );
    }
}
