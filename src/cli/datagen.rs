//! The `datagen` subcommand: self-play games that become training data for a learned
//! evaluation ([`crate::nnue`]).
//!
//! Each game starts from the start position (or a line of `--openings`) and a few random
//! plies, then both sides search with a soft node budget (the search stops after the
//! iteration that passes it) and a hard one. Games end by the rules or by adjudication as
//! testers do it (a score beyond `--win-score` for both sides over `--win-plies` plies; a
//! score within ±`--draw-score` for `--draw-plies` plies after `--draw-after` plies; a
//! length cap). The positions kept — not in a forcing position, a quiet best move, no mate
//! score — go to the output with the search's score and the game's result as 32-byte
//! [`Record`]s, a whole game at a time, so that a kill or a full disk loses only games in
//! progress. A run appends to its file (resuming a dataset) and writes a line of what it did
//! to `FILE.log`. Threads play games of their own; the seed fixes every game's random plies.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;

use crate::board::MoveList;
use crate::game::{Game, Outcome};
use crate::nnue::data::{Pack, RECORD_BYTES, Record};
use crate::rng::Rng;
use crate::search::{Control, Limits, Score, Searcher};

#[derive(Parser, Debug, Clone)]
#[command(about = "Self-play games written as training records (32 bytes a position)")]
pub struct Args {
    /// The record file; records are appended to what it holds.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Stop once the file holds this many records (default: until Ctrl-C).
    #[arg(long, value_name = "N")]
    pub positions: Option<u64>,
    /// Games played at once, one search thread each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// The seed of the random plies (a resumed run should take another).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Soft node budget of a move: no new iteration once it is spent.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Hard node budget of a move.
    #[arg(long, default_value_t = 50_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub hard_nodes: u64,
    /// Random plies at each game's start (one more in every other game).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Start positions, one FEN (or EPD) a line, taken in turn before the random plies.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<String>,
    /// Openings whose score after the random plies is beyond this are not played.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(i32).range(0..=30000))]
    pub max_opening_score: i32,
    /// Adjudicate a win once both sides' scores are beyond this for --win-plies plies.
    #[arg(long, default_value_t = 1500, value_parser = clap::value_parser!(i32).range(1..=30000))]
    pub win_score: i32,
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub win_plies: u32,
    /// Adjudicate a draw once the scores stay within ± this for --draw-plies plies …
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(0..=30000))]
    pub draw_score: i32,
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub draw_plies: u32,
    /// … from this ply on.
    #[arg(long, default_value_t = 80, value_parser = clap::value_parser!(u32).range(0..=10000))]
    pub draw_after: u32,
    /// Games longer than this are drawn.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=10000))]
    pub max_plies: u32,
    /// Positions whose score is beyond this are not kept.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(i32).range(1..=30000))]
    pub score_cap: i32,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Set one of the game's own options first, `NAME=VALUE` (`Use NNUE=false` plays with the
    /// hand-made evaluation, `EvalFile=net.nnue` with another network); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// `kiebitz-GAME datagen …` with the arguments after `datagen`; the exit code.
pub fn main<G: Game + Pack>(args: &[String]) -> i32 {
    let name = format!("kiebitz-{} datagen", G::GAME);
    super::run_subcommand(&name, args, |parsed: &Args| run::<G>(parsed, args))
}

/// A finished game's records, or an opening that was not played.
type GameRecords = Vec<Record>;

/// Runs the generation until `--positions` are in the file or Ctrl-C.
pub fn run<G: Game + Pack>(args: &Args, argv: &[String]) -> Result<(), String> {
    super::set_game_options::<G>(&args.options)?;
    let openings = read_openings::<G>(args.openings.as_deref())?;
    let mut file = open_records(&args.out, &G::LAYOUT)?;
    let had = file.metadata().map_err(|e| e.to_string())?.len() / RECORD_BYTES as u64;
    let target = args.positions;
    if target.is_some_and(|t| had >= t) {
        eprintln!("{}: already {had} records", args.out);
        return Ok(());
    }
    let stop = crate::progress::stop_on_interrupt();
    let games_started = AtomicU64::new(0);
    let (tx, rx) = mpsc::sync_channel::<GameRecords>(4 * args.threads as usize);
    let start = Instant::now();
    let mut written = 0u64;
    let mut games = 0u64;
    let mut write_error = None;
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            let tx = tx.clone();
            let (openings, games_started) = (&openings, &games_started);
            s.spawn(move || {
                let mut player = Player::<G>::new(args);
                while !stop.load(Relaxed) {
                    let n = games_started.fetch_add(1, Relaxed);
                    let records = player.play_game(n, openings, stop);
                    if tx.send(records).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut last_report = Instant::now();
        for records in rx.iter() {
            if records.is_empty() || write_error.is_some() {
                continue;
            }
            let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
            if let Err(e) = file.write_all(&bytes).and_then(|_| file.flush()) {
                write_error = Some(format!("{}: {e}", args.out));
                stop.store(true, Relaxed);
                continue;
            }
            written += records.len() as u64;
            games += 1;
            if target.is_some_and(|t| had + written >= t) {
                stop.store(true, Relaxed);
            }
            if last_report.elapsed() >= Duration::from_secs(10) {
                last_report = Instant::now();
                report(had, written, games, target, start.elapsed());
            }
        }
    });
    report(had, written, games, target, start.elapsed());
    log_run(&args.out, argv, had, written, games, start.elapsed())?;
    match write_error {
        Some(e) => Err(format!("{e} (the records written before are whole)")),
        None => Ok(()),
    }
}

/// Opens the record file for appending: a new file, or one whose every whole record is a
/// record of this game's layout (anything else, a network say, is refused, not cut); a
/// partial record left at its end is cut.
fn open_records(path: &str, layout: &crate::nnue::Layout) -> Result<std::fs::File, String> {
    let file = crate::files::append(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    check_records(path, layout)?;
    let len = file.metadata().map_err(|e| format!("{path}: {e}"))?.len();
    let whole = len - len % RECORD_BYTES as u64;
    if whole != len {
        eprintln!(
            "{path}: cutting a partial record of {} bytes at its end",
            len - whole
        );
        file.set_len(whole).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(file)
}

/// Checks that every whole record of the file at `path` decodes and fits `layout`, reading it
/// a megabyte at a time.
fn check_records(path: &str, layout: &crate::nnue::Layout) -> Result<(), String> {
    let mut file = std::io::BufReader::new(crate::files::open(Path::new(path))?);
    let mut chunk = vec![0u8; RECORD_BYTES << 15];
    let mut seen = 0usize;
    loop {
        let mut filled = 0;
        while filled < chunk.len() {
            match file.read(&mut chunk[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) => return Err(format!("{path}: {e}")),
            }
        }
        crate::nnue::data::decode(&chunk[..filled], layout).map_err(|e| {
            format!(
                "{path} holds something other than this game's training records (record {}: \
                 {}); refusing to append to it",
                seen + e.index,
                e.reason
            )
        })?;
        seen += filled / RECORD_BYTES;
        if filled < chunk.len() {
            return Ok(());
        }
    }
}

/// Prints the progress line on stderr.
fn report(had: u64, written: u64, games: u64, target: Option<u64>, elapsed: Duration) {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = written as f64 / secs;
    let eta = match target {
        Some(t) if rate > 0.0 => {
            let left = t.saturating_sub(had + written) as f64 / rate;
            format!(", ETA {:.0} min", left / 60.0)
        }
        _ => String::new(),
    };
    eprintln!(
        "datagen: {} records ({written} new in {games} games), {rate:.0} positions/s{eta}",
        had + written
    );
}

/// Appends a line saying what this run did to `OUT.log`.
fn log_run(
    out: &str,
    argv: &[String],
    had: u64,
    written: u64,
    games: u64,
    elapsed: Duration,
) -> Result<(), String> {
    let path = format!("{out}.log");
    let mut log = crate::files::append(Path::new(&path)).map_err(|e| format!("{path}: {e}"))?;
    let unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    writeln!(
        log,
        "unix {unix}: datagen {} | {written} records in {games} games, {:.0} s, file {} → {}",
        argv.join(" "),
        elapsed.as_secs_f64(),
        had,
        had + written
    )
    .map_err(|e| format!("{path}: {e}"))
}

/// The start positions of `--openings` (none: the variant's start position).
fn read_openings<G: Game>(path: Option<&str>) -> Result<Vec<G>, String> {
    let variant = G::variants()[0];
    let Some(path) = path else {
        return Ok(vec![G::startpos(variant).map_err(|e| e.to_string())?]);
    };
    let text = crate::files::read_input_text(path, 256 << 20)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // An EPD line has four fields and operations; a FEN six.
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..fields.len().min(4)].join(" "))
        };
        let pos = G::from_fen(variant, &fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("{path} holds no positions"));
    }
    // A finished position starts no game: with only such openings the threads would start
    // games for ever and play none.
    let read = out.len();
    out.retain(|pos| pos.verdict(&[pos.hash()]).is_none());
    match out.len() {
        0 => Err(format!(
            "{path}: all {read} positions are finished games: no opening to play"
        )),
        left if left < read => {
            eprintln!("{path}: {} finished positions left out", read - left);
            Ok(out)
        }
        _ => Ok(out),
    }
}

/// One thread's games.
struct Player<'a, G: Game> {
    args: &'a Args,
    searcher: Searcher<G>,
}

/// What one search said: its best move and its score for the side to move.
struct Searched {
    best: crate::board::Move,
    score: Score,
}

impl<'a, G: Game + Pack> Player<'a, G> {
    fn new(args: &'a Args) -> Self {
        let mut searcher = Searcher::<G>::new(args.hash as usize);
        searcher.set_use_solver(false);
        Player { args, searcher }
    }

    /// Searches `pos` with the soft and hard node budgets.
    fn search(&mut self, pos: &G, history: &[u64]) -> Searched {
        let limits = Limits {
            nodes: Some(self.args.hard_nodes),
            ..Limits::default()
        };
        let control = Control::default();
        let soft = self.args.nodes;
        let result = self
            .searcher
            .search(pos, history, &limits, &control, &mut |info| {
                if info.nodes >= soft {
                    control.stop.store(true, Relaxed);
                }
            });
        Searched {
            best: result.best,
            score: result.score,
        }
    }

    /// The start of game `n`: an opening and random plies, or `None` when they end the game.
    fn opening(&mut self, n: u64, openings: &[G]) -> Option<(G, Vec<u64>)> {
        let mut rng = Rng::new(self.args.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut pos = openings[(n % openings.len() as u64) as usize].clone();
        let mut history = vec![pos.hash()];
        let plies = self.args.random_plies + (n % 2) as u32;
        let mut moves = MoveList::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
            history.push(pos.hash());
        }
        if pos.verdict(&history).is_some() {
            return None;
        }
        Some((pos, history))
    }

    /// Plays game `n` to its end; its kept positions with the result (empty if the opening
    /// was not played or Ctrl-C came first).
    fn play_game(
        &mut self,
        n: u64,
        openings: &[G],
        stop: &std::sync::atomic::AtomicBool,
    ) -> GameRecords {
        let Some((mut pos, mut history)) = self.opening(n, openings) else {
            return Vec::new();
        };
        self.searcher.clear();
        let first = self.search(&pos, &history[..history.len() - 1]);
        if !matches!(first.score, Score::Cp(cp) if cp.abs() <= self.args.max_opening_score) {
            return Vec::new();
        }
        let mut kept: Vec<(G, i16, u16)> = Vec::new();
        let mut judge = Adjudicator::new(self.args);
        let outcome = loop {
            if stop.load(Relaxed) {
                return Vec::new();
            }
            if let Some((outcome, _)) = pos.verdict(&history) {
                break outcome;
            }
            let ply = history.len() as u32 - 1;
            let searched = self.search(&pos, &history[..history.len() - 1]);
            let white = |v: i32| {
                if pos.side_to_move() == crate::board::Color::White {
                    v
                } else {
                    -v
                }
            };
            if let Score::Cp(cp) = searched.score
                && !pos.forcing()
                && !pos.is_noisy(searched.best)
                && cp.abs() <= self.args.score_cap
            {
                kept.push((
                    pos.clone(),
                    white(cp) as i16,
                    ply.min(u16::MAX as u32) as u16,
                ));
            }
            if let Some(outcome) = judge.after(white(score_value(searched.score)), ply) {
                break outcome;
            }
            pos = pos.play(searched.best);
            history.push(pos.hash());
        };
        let result = match outcome {
            Outcome::Win(crate::board::Color::White) => 2,
            Outcome::Win(crate::board::Color::Black) => 0,
            Outcome::Draw => 1,
        };
        kept.iter()
            .map(|(p, score, ply)| {
                let side = (p.side_to_move() == crate::board::Color::Black) as u8;
                Record::new(p.pieces(), *score, result, side, *ply)
            })
            .collect()
    }
}

/// A score as centipawns, mates as ±100 000.
fn score_value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

/// Ends a game early as testers do: a win both sides see, a long quiet draw, a length cap.
struct Adjudicator<'a> {
    args: &'a Args,
    win_run: u32,
    win_sign: i32,
    draw_run: u32,
}

impl<'a> Adjudicator<'a> {
    fn new(args: &'a Args) -> Self {
        Adjudicator {
            args,
            win_run: 0,
            win_sign: 0,
            draw_run: 0,
        }
    }

    /// The outcome after a search scored White's chances `white` at ply `ply`, if any.
    fn after(&mut self, white: i32, ply: u32) -> Option<Outcome> {
        let a = self.args;
        let sign = white.signum();
        if white.abs() >= a.win_score && sign == self.win_sign {
            self.win_run += 1;
        } else if white.abs() >= a.win_score {
            (self.win_sign, self.win_run) = (sign, 1);
        } else {
            (self.win_sign, self.win_run) = (0, 0);
        }
        if self.win_run >= a.win_plies || white.abs() >= 100_000 {
            let winner = if sign > 0 {
                crate::board::Color::White
            } else {
                crate::board::Color::Black
            };
            return Some(Outcome::Win(winner));
        }
        self.draw_run = if white.abs() <= a.draw_score {
            self.draw_run + 1
        } else {
            0
        };
        if (ply >= a.draw_after && self.draw_run >= a.draw_plies) || ply >= a.max_plies {
            return Some(Outcome::Draw);
        }
        None
    }
}
