//! N-seat tournaments (`kiebitz-match --game chamaeleon …`): 2–4 seats, any number of engines
//! (or one binary with different `Algorithm` options), every seating played (all ordered
//! choices of engines for the seats; with fewer engines than seats, every assignment that
//! uses each engine), optional random opening turns shared by a round, a clock per seat,
//! PGN-like records and a results table per engine.
//!
//! - [`cli`]: the command line (the two-seat runner's flags where they fit N seats);
//! - [`record`]: game records and the results table;
//! - [`check`]: `--check-pgn`, the records read back and replayed;
//! - the engines are [`crate::tournament::client::nseat`] clients (one process per seat).
//!
//! The referee is a step function, [`judge`]: the position, the answer of the seat to move and
//! its clock in, the move to play or the forfeit out; [`play_game`] loops it, and the table
//! and the records are made from finished games only.
//!
//! A seat whose engine fails (no move in time, an illegal move, a crash) loses the game at
//! once; the other seats still in it draw.
//!
//! The tournament is a [`Format`] of the one match runner ([`crate::tournament::runner`]),
//! which numbers the games (game `i` is round `i / seatings`, seating `i % seatings`), runs
//! the workers and prints the progress; a round's opening is made when a game needs it, so
//! `--rounds` costs nothing before play (at most [`MAX_GAMES`] games). The [`Table`] consumes
//! the finished games: the line per game, the PGN, the running table. A PGN that cannot be
//! written (a full disk) stops the tournament with an error naming the first game lost;
//! Ctrl-C prints the table of the games finished. Depends on `nsearch` (the game trait),
//! `rng`, `tournament::client` (the engine processes) and `tournament::runner`.

pub mod check;
pub mod cli;
pub mod record;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::{Move, MoveList};
use crate::nsearch::game::{MAX_SEATS, NGame, SeatResult};
use crate::rng::Rng;
use crate::tournament::client::nseat::{Nseat, SeatView};
use crate::tournament::client::{Client, Reply};
use crate::tournament::error::MatchError;
use crate::tournament::runner::{self, Collect, Format, PgnFile, Played, Slot, Taken};
pub use cli::{Config, parse};
use record::{GameRecord, Tally};

/// The most games one tournament plays (`--rounds` × seatings, or `--games`).
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most games played at once (`--concurrency`): each is a process per seat.
pub const MAX_CONCURRENCY: usize = 256;
/// The largest `--openings` file read (64 MiB).
pub const MAX_OPENINGS_BYTES: u64 = 64 << 20;

/// Every seating of `engines` engines on `players` seats: injective when there are enough
/// engines, else every assignment using each engine at least once. Lexicographic order.
pub fn seatings(engines: usize, players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let total = engines.pow(players as u32);
    for code in 0..total {
        let mut c = code;
        let mut s: Vec<usize> = (0..players)
            .map(|_| {
                let d = c % engines;
                c /= engines;
                d
            })
            .collect();
        s.reverse();
        let distinct = (0..engines).filter(|e| s.contains(e)).count();
        if distinct == engines.min(players) {
            out.push(s);
        }
    }
    out
}

/// `kiebitz-match --game chamaeleon …`: returns the exit code.
pub fn main<G: NGame>(args: &[String]) -> i32 {
    let cfg = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kiebitz-match: {e}");
            return 2;
        }
    };
    if let Some(path) = &cfg.check_pgn {
        return crate::limits::exit_code(check::check_pgn::<G>(path), "kiebitz-match", 1);
    }
    // The table goes to stdout; a failing stdout (`> /dev/full`) is an error, not a panic.
    let result = run::<G>(&cfg)
        .map_err(crate::CliError::from)
        .and_then(|table| {
            crate::limits::out(format_args!(
                "{}",
                table.strip_suffix('\n').unwrap_or(&table)
            ))
        });
    crate::limits::exit_code(result, "kiebitz-match", 1)
}

/// The random opening of a round: `turns` random legal turns from the start.
fn opening<G: NGame>(start: &G, turns: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    let mut out = Vec::new();
    let mut moves = MoveList::new();
    for _ in 0..turns {
        if pos.outcome().is_some() {
            break;
        }
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        out.push(pos.move_text(m));
        pos = pos.play(m);
    }
    out
}

/// The seats that play in `pos`.
fn playing<G: NGame>(pos: &G) -> Vec<usize> {
    (0..pos.seats()).filter(|&s| pos.plays(s)).collect()
}

/// The start positions of the rounds: those of `--openings FILE` (one position text a line;
/// blank lines and `#` comments skipped), each with the seats of `start`, or `start` alone.
pub fn start_positions<G: NGame>(start: &G, path: Option<&str>) -> Result<Vec<G>, String> {
    let Some(path) = path else {
        return Ok(vec![start.clone()]);
    };
    let text = crate::files::read_input_text(path, MAX_OPENINGS_BYTES)
        .map_err(|e| format!("--openings: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in crate::tournament::openings::position_lines(&text) {
        let pos = G::from_text(line).map_err(|e| format!("{path}:{n}: {e}"))?;
        if playing(&pos) != playing(start) || pos.outcome().is_some() {
            return Err(format!(
                "{path}:{n}: not a game in progress with the {} seats of --players",
                playing(start).len()
            ));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("--openings: {path} holds no position"));
    }
    Ok(out)
}

/// The number of games: `rounds` × `seatings` (at most `max_games`), refused beyond
/// [`MAX_GAMES`].
fn game_count(cfg: &Config, seatings: usize) -> Result<usize, MatchError> {
    let all = cfg
        .rounds
        .checked_mul(seatings)
        .filter(|&n| n <= MAX_GAMES)
        .ok_or(MatchError::TooManyGames {
            rounds: cfg.rounds,
            seatings,
            most: MAX_GAMES,
        })?;
    Ok(cfg.max_games.map_or(all, |n| n.min(all)))
}

/// A tournament under way: what every worker reads.
struct Tournament<'a, G> {
    cfg: &'a Config,
    /// The start position of each round, in turn.
    starts: Vec<G>,
    /// The seats that play, and every seating of the engines on them.
    seats: Vec<usize>,
    all: Vec<Vec<usize>>,
    total: usize,
    names: &'a [String],
    /// Set by the runner when the [`Table`] stops the tournament (a PGN error).
    stop: AtomicBool,
}

/// The N-seat tournament as the runner plays it: a round is every seating of the engines from
/// one start; each game starts its own engine processes.
impl<G: NGame> Format for Tournament<'_, G> {
    type Record = GameRecord;
    type Worker = ();

    fn games(&self) -> usize {
        self.total
    }

    fn seatings(&self) -> usize {
        self.all.len()
    }

    fn stop(&self) -> &AtomicBool {
        &self.stop
    }

    /// Game `slot`: the round's start and random turns, the seating's engines.
    fn play(&self, slot: Slot, _: &mut (), _: &mut dyn FnMut(String)) -> Played<GameRecord> {
        let (round, seating) = (slot.round, &self.all[slot.seating]);
        let start = &self.starts[round % self.starts.len()];
        let mut slots = vec![None; start.seats()];
        for (k, &seat) in self.seats.iter().enumerate() {
            slots[seat] = Some(seating[k]);
        }
        let moves = opening(
            start,
            self.cfg.random_turns,
            self.cfg.seed.wrapping_add(round as u64),
        );
        Played::Finished(play_game(
            self.cfg,
            start,
            slot.number(),
            slots,
            &moves,
            self.names,
        ))
    }
}

/// The consumer of finished games: a line each on stderr, the PGN, the table per engine.
struct Table<'a> {
    cfg: &'a Config,
    names: &'a [String],
    total: usize,
    players: usize,
    pgn: PgnFile,
    tallies: Vec<Tally>,
    played: usize,
    /// The first game the PGN could not take, and why: no game starts after it.
    pgn_error: Option<(usize, String)>,
}

impl Collect<GameRecord> for Table<'_> {
    /// A finished game: its line on stderr, its record in the PGN, its results in the table.
    fn finished(&mut self, slot: Slot, rec: GameRecord) -> Taken {
        let summary: Vec<String> = (0..rec.seating.len())
            .filter_map(|s| {
                let e = rec.seating[s]?;
                Some(format!(
                    "{} {} {}",
                    rec.seat_names[s],
                    self.names[e],
                    rec.results[s].word()
                ))
            })
            .collect();
        eprintln!(
            "game {}/{}: {} ({}, {} turns)",
            slot.number(),
            self.total,
            summary.join(", "),
            rec.termination,
            rec.moves.len()
        );
        if let Err(e) = self.pgn.write(|| rec.text(self.players)) {
            let first = self
                .pgn_error
                .as_ref()
                .map_or(slot.number(), |(g, _)| (*g).min(slot.number()));
            self.pgn_error = Some((first, e.to_string()));
        }
        record::tally(&mut self.tallies, &rec);
        self.played += 1;
        // The running table, so that an interrupted run still has its figures.
        eprint!("{}", self.figures());
        if self.pgn_error.is_some() {
            Taken::Stop
        } else {
            Taken::Go
        }
    }

    /// Never called: every N-seat game finishes (a fault is a forfeit).
    fn failed(&mut self, error: String) {
        eprintln!("kiebitz-match: {error}");
    }

    fn figures(&self) -> String {
        record::table(self.names, &self.tallies)
    }
}

impl Table<'_> {
    /// The final table, or the PGN error (the table then goes to stderr).
    fn result(self) -> Result<String, MatchError> {
        let cfg = self.cfg;
        let table = format!(
            "{} games, {} seats, {}\n{}",
            self.played,
            self.players,
            time_text(cfg),
            self.figures()
        );
        match self.pgn_error {
            None => Ok(table),
            Some((game, e)) => {
                // The table still goes to stderr: nothing played is lost.
                eprint!("{table}");
                Err(MatchError::PgnStopped {
                    path: cfg.pgn.as_deref().unwrap_or("").to_string(),
                    reason: e.to_string(),
                    played: self.played,
                    game,
                })
            }
        }
    }
}

/// The time control as the table's first line names it.
fn time_text(cfg: &Config) -> String {
    match (cfg.movetime, cfg.clock) {
        (_, Some((b, i))) => format!("clock {}+{} s a seat", b.as_secs_f64(), i.as_secs_f64()),
        (Some(t), None) => format!("{} s a move", t.as_secs_f64()),
        _ => String::new(),
    }
}

/// Plays the tournament on the one match runner; returns the results table.
pub fn run<G: NGame>(cfg: &Config) -> Result<String, MatchError> {
    let start = G::startpos(cfg.players)?;
    let starts = start_positions(&start, cfg.openings.as_deref())?;
    let seats = playing(&start);
    let all = seatings(cfg.engines.len(), seats.len());
    let total = game_count(cfg, all.len())?;
    let pgn = PgnFile::create(cfg.pgn.as_deref(), "PGN file")?;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let table = Table {
        cfg,
        names: &names,
        total,
        players: seats.len(),
        pgn,
        tallies: vec![Tally::default(); names.len()],
        played: 0,
        pgn_error: None,
    };
    let tournament = Tournament {
        cfg,
        starts,
        seats,
        all,
        total,
        names: &names,
        stop: AtomicBool::new(false),
    };
    runner::play(&tournament, table, cfg.concurrency).result()
}

/// The referee's verdict on one answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The move is legal and in time: play it.
    Play(Move),
    /// The seat to move loses, for this reason.
    Forfeit(String),
}

/// The referee's step: the answer of the seat to move in `pos`, charged to its clock (`None`
/// without one; `inc` is added after the move), becomes the move to play or a forfeit.
pub fn judge<G: NGame>(
    pos: &G,
    answer: &Reply,
    clock: Option<&mut Duration>,
    inc: Duration,
) -> Verdict {
    let name = G::seat_name(pos.to_move());
    if let Some(left) = clock {
        if answer.elapsed > *left {
            return Verdict::Forfeit(format!("{name} lost on time"));
        }
        *left = *left - answer.elapsed + inc;
    }
    match pos.parse_move(&answer.text) {
        Ok(m) => Verdict::Play(m),
        Err(e) => Verdict::Forfeit(format!(
            "{name} played an illegal move {}: {e}",
            answer.text
        )),
    }
}

/// The rules' end of the game, if it is over: the seats' results and the termination.
fn game_over<G: NGame>(pos: &G) -> Option<(Vec<SeatResult>, String)> {
    let r = pos.outcome()?;
    let n = pos.seats();
    let alive = (0..n).filter(|&s| pos.in_game(s)).count();
    let why = if alive <= 1 {
        "last player with pieces"
    } else {
        "turn limit"
    };
    Some((r[..n].to_vec(), why.into()))
}

/// One process per seat that plays, or the seat that failed to start and why.
fn start_engines<G: NGame>(
    cfg: &Config,
    seating: &[Option<usize>],
) -> Result<Vec<Option<Nseat>>, (usize, String)> {
    let mut procs = Vec::new();
    for (seat, e) in seating.iter().enumerate() {
        procs.push(match e {
            None => None,
            Some(e) => Some(Nseat::start(&cfg.engines[*e]).map_err(|err| {
                (
                    seat,
                    format!("{} failed to start: {err}", G::seat_name(seat)),
                )
            })?),
        });
    }
    Ok(procs)
}

/// One game with `seating` (engine per seat slot) from `start` after the opening moves.
fn play_game<G: NGame>(
    cfg: &Config,
    start: &G,
    number: usize,
    seating: Vec<Option<usize>>,
    opening: &[String],
    names: &[String],
) -> GameRecord {
    let n = start.seats();
    let mut rec = GameRecord {
        number,
        seating: seating.clone(),
        seat_names: (0..n).map(G::seat_name).collect(),
        engine_names: names.to_vec(),
        start: start.text(),
        opening: opening.len(),
        moves: Vec::new(),
        results: vec![SeatResult::Absent; n],
        termination: String::new(),
        depths: vec![Vec::new(); n],
        nodes: vec![Vec::new(); n],
    };
    let mut pos = start.clone();
    for m in opening {
        let mv = pos.parse_move(m).expect("opening moves are legal");
        pos = pos.play(mv);
        rec.moves.push(m.clone());
    }
    let mut procs = match start_engines::<G>(cfg, &seating) {
        Ok(p) => p,
        Err((seat, why)) => return forfeit(rec, &pos, seat, &why),
    };
    let mut clocks: Vec<Duration> = vec![cfg.clock.map_or(Duration::ZERO, |c| c.0); n];
    let inc = cfg.clock.map_or(Duration::ZERO, |c| c.1);
    let start_text = start.text();
    loop {
        if let Some((results, why)) = game_over(&pos) {
            rec.results = results;
            rec.termination = why;
            return rec;
        }
        let seat = pos.to_move();
        let seat_clocks: Vec<(char, Duration)> = (0..n)
            .filter(|&s| seating[s].is_some())
            .map(|s| (G::seat_letter(s), clocks[s]))
            .collect();
        let view = SeatView {
            start: &start_text,
            moves: &rec.moves,
            movetime: cfg.movetime.filter(|_| cfg.clock.is_none()),
            clocks: &seat_clocks,
            inc,
            own: clocks[seat],
        };
        let Some(p) = procs[seat].as_mut() else {
            return forfeit(rec, &pos, seat, "a seat to move without an engine");
        };
        let answer = match p.go(&view) {
            Ok(a) => a,
            Err(e) => return forfeit(rec, &pos, seat, &format!("{}: {e}", G::seat_name(seat))),
        };
        let clock = cfg.clock.is_some().then_some(&mut clocks[seat]);
        match judge(&pos, &answer, clock, inc) {
            Verdict::Forfeit(why) => return forfeit(rec, &pos, seat, &why),
            Verdict::Play(mv) => {
                rec.depths[seat].push(answer.depth.unwrap_or(0));
                rec.nodes[seat].push(answer.nodes.unwrap_or(0));
                rec.moves.push(answer.text);
                pos = pos.play(mv);
            }
        }
    }
}

/// The game ends with `seat` losing for a fault; the other seats still in it draw.
fn forfeit<G: NGame>(mut rec: GameRecord, pos: &G, seat: usize, why: &str) -> GameRecord {
    for s in 0..pos.seats() {
        rec.results[s] = if !pos.plays(s) {
            SeatResult::Absent
        } else if s == seat || !pos.in_game(s) {
            SeatResult::Loss
        } else {
            SeatResult::Draw
        };
    }
    rec.termination = format!("forfeit: {why}");
    rec
}

#[allow(dead_code)]
const _: () = assert!(MAX_SEATS >= 4);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_cover_every_arrangement() {
        assert_eq!(seatings(4, 4).len(), 24);
        assert_eq!(seatings(5, 4).len(), 120);
        assert_eq!(seatings(2, 2).len(), 2);
        // Two engines on four seats: every assignment using both.
        assert_eq!(seatings(2, 4).len(), 14);
        assert_eq!(seatings(3, 3).len(), 6);
    }
}
