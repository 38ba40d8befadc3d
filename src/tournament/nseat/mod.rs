//! N-seat tournaments (`kiebitz-match --game chamaeleon …`): 2–4 seats, any number of engines
//! (or one binary with different `Algorithm` options), every seating played (all ordered
//! choices of engines for the seats; with fewer engines than seats, every assignment that
//! uses each engine), optional random opening turns shared by a round, a clock per seat,
//! PGN-like records and a results table per engine.
//!
//! - [`record`]: game records and the results table;
//! - the engines are [`crate::tournament::client::nseat`] clients (one process per seat).
//!
//! A seat whose engine fails (no move in time, an illegal move, a crash) loses the game at
//! once; the other seats still in it draw.
//!
//! The games are numbered, not listed: game `i` is round `i / seatings`, seating
//! `i % seatings`, and a round's opening is made when a game needs it, so `--rounds` costs
//! nothing before play (at most [`MAX_GAMES`] games). A PGN that cannot be written (a full
//! disk) stops the tournament with an error naming the first game lost; Ctrl-C prints the
//! table of the games finished. Depends on `nsearch` (the game trait), `rng` and
//! `tournament::client` (the engine processes).

pub mod record;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::board::MoveList;
use crate::nsearch::game::{MAX_SEATS, NGame, SeatResult};
use crate::rng::Rng;
use crate::tournament::client::Client;
use crate::tournament::client::nseat::{Nseat, SeatView, Spec};
use record::{GameRecord, Tally};

/// The most games one tournament plays (`--rounds` × seatings, or `--games`).
pub const MAX_GAMES: usize = 1_000_000_000;
/// The most games played at once (`--concurrency`): each is a process per seat.
pub const MAX_CONCURRENCY: usize = 256;

const USAGE: &str = "\
usage: kiebitz-match --game chamaeleon [--players N]
         --engine cmd=PATH [name=NAME] [arg=ARG]… [option.K=V]…   (two or more)
         [--tc SECONDS | --clock BASE+INC] [--rounds N] [--random-turns K] [--seed S]
         [--games N] [--concurrency N] [--pgn FILE]
Every seating of the engines is played --rounds times (a round shares its random opening);
--tc gives each move SECONDS, --clock gives each seat BASE seconds plus INC a move.";

/// The tournament's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub players: usize,
    pub engines: Vec<Spec>,
    pub movetime: Option<Duration>,
    pub clock: Option<(Duration, Duration)>,
    pub rounds: usize,
    pub random_turns: usize,
    pub seed: u64,
    pub max_games: Option<usize>,
    pub concurrency: usize,
    pub pgn: Option<String>,
}

fn num<T: std::str::FromStr>(what: &str, v: Option<&String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{what} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{what} needs a number, got '{v}'"))
}

fn secs(what: &str, v: &str) -> Result<Duration, String> {
    let x: f64 = v
        .parse()
        .map_err(|_| format!("{what} needs seconds, got '{v}'"))?;
    crate::limits::seconds(what, x)
}

/// Parses the command line (after `--game chamaeleon` has chosen this runner).
pub fn parse(args: &[String]) -> Result<Config, String> {
    let mut cfg = Config {
        players: 4,
        engines: Vec::new(),
        movetime: None,
        clock: None,
        rounds: 1,
        random_turns: 0,
        seed: 1,
        max_games: None,
        concurrency: 1,
        pgn: None,
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let next = args.get(i + 1);
        i += 2;
        match a {
            "--game" => {}
            "--players" => cfg.players = num("--players", next)?,
            "--tc" => cfg.movetime = Some(secs("--tc", next.ok_or("--tc needs seconds")?)?),
            "--clock" => {
                let v = next.ok_or("--clock needs BASE+INC")?;
                let (b, inc) = v.split_once('+').unwrap_or((v, "0"));
                cfg.clock = Some((secs("--clock", b)?, secs("--clock", inc)?));
            }
            "--rounds" => cfg.rounds = num("--rounds", next)?,
            "--random-turns" => cfg.random_turns = num("--random-turns", next)?,
            "--seed" => cfg.seed = num("--seed", next)?,
            "--games" => cfg.max_games = Some(num("--games", next)?),
            "--concurrency" => cfg.concurrency = num("--concurrency", next)?,
            "--pgn" => cfg.pgn = Some(next.ok_or("--pgn needs a file")?.clone()),
            "--engine" => {
                i -= 1;
                let mut spec = Spec {
                    name: String::new(),
                    cmd: String::new(),
                    args: Vec::new(),
                    options: Vec::new(),
                };
                while let Some(w) = args.get(i).filter(|w| !w.starts_with("--")) {
                    let (k, v) = w
                        .split_once('=')
                        .ok_or_else(|| format!("engine setting '{w}' is not KEY=VALUE"))?;
                    match k {
                        "cmd" => spec.cmd = v.to_string(),
                        "name" => spec.name = v.to_string(),
                        "arg" => spec.args.push(v.to_string()),
                        _ => match k.strip_prefix("option.") {
                            Some(o) => spec.options.push((o.to_string(), v.to_string())),
                            None => return Err(format!("unknown engine setting '{k}'")),
                        },
                    }
                    i += 1;
                }
                if spec.cmd.is_empty() {
                    return Err("--engine needs cmd=PATH".into());
                }
                if spec.name.is_empty() {
                    spec.name = format!("E{}", cfg.engines.len() + 1);
                }
                cfg.engines.push(spec);
            }
            "--help" | "-h" => return Err(USAGE.into()),
            other => return Err(format!("unknown option '{other}'\n{USAGE}")),
        }
    }
    if cfg.engines.len() < 2 {
        return Err(format!("two or more engines are needed\n{USAGE}"));
    }
    if cfg.movetime.is_none() && cfg.clock.is_none() {
        cfg.movetime = Some(Duration::from_secs(1));
    }
    if cfg.rounds == 0 || cfg.concurrency == 0 {
        return Err("--rounds and --concurrency must be positive".into());
    }
    if cfg.concurrency > MAX_CONCURRENCY {
        return Err(format!(
            "--concurrency must be 1 to {MAX_CONCURRENCY}, not {}",
            cfg.concurrency
        ));
    }
    if cfg.rounds > MAX_GAMES || cfg.max_games.is_some_and(|g| g > MAX_GAMES) {
        return Err(format!(
            "--rounds and --games must be at most {MAX_GAMES} (the most games one tournament plays)"
        ));
    }
    Ok(cfg)
}

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
    // The table goes to stdout; a failing stdout (`> /dev/full`) is an error, not a panic.
    let result = run::<G>(&cfg).and_then(|table| {
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

/// The number of games: `rounds` × `seatings` (at most `max_games`), refused beyond
/// [`MAX_GAMES`].
fn game_count(cfg: &Config, seatings: usize) -> Result<usize, String> {
    let all = cfg
        .rounds
        .checked_mul(seatings)
        .filter(|&n| n <= MAX_GAMES)
        .ok_or_else(|| {
            format!(
                "--rounds {} × {seatings} seatings is more than {MAX_GAMES} games",
                cfg.rounds
            )
        })?;
    Ok(cfg.max_games.map_or(all, |n| n.min(all)))
}

/// What the games played so far add up to, shared by the workers.
struct Progress {
    tallies: Vec<Tally>,
    played: usize,
    /// The first game the PGN could not take, and why: no game starts after it.
    pgn_error: Option<(usize, String)>,
}

/// Plays the tournament; returns the results table.
pub fn run<G: NGame>(cfg: &Config) -> Result<String, String> {
    let start = G::startpos(cfg.players)?;
    let seats: Vec<usize> = (0..start.seats()).filter(|&s| start.plays(s)).collect();
    let all = seatings(cfg.engines.len(), seats.len());
    let total = game_count(cfg, all.len())?;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let next = AtomicUsize::new(0);
    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {p}: {e}"))?),
        None => None,
    };
    let state = Mutex::new(Progress {
        tallies: vec![Tally::default(); names.len()],
        played: 0,
        pgn_error: None,
    });
    let lock = || state.lock().unwrap_or_else(|p| p.into_inner());
    let pgn = Mutex::new(pgn_file.as_mut());
    // Ctrl-C prints the table of the finished games and exits with 130.
    crate::progress::catch_interrupt();
    crate::progress::set_known(format!("0 of {total} games played"));
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.min(total.max(1)) {
            scope.spawn(|| {
                loop {
                    if lock().pgn_error.is_some() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total {
                        break;
                    }
                    let (round, seating) = (i / all.len(), &all[i % all.len()]);
                    let mut slots = vec![None; start.seats()];
                    for (k, &seat) in seats.iter().enumerate() {
                        slots[seat] = Some(seating[k]);
                    }
                    let moves = opening(
                        &start,
                        cfg.random_turns,
                        cfg.seed.wrapping_add(round as u64),
                    );
                    let rec = play_game(cfg, &start, i + 1, slots, &moves, &names);
                    let summary: Vec<String> = (0..start.seats())
                        .filter_map(|s| {
                            rec.seating[s].map(|e| {
                                format!(
                                    "{} {} {}",
                                    G::seat_name(s),
                                    names[e],
                                    rec.results[s].word()
                                )
                            })
                        })
                        .collect();
                    eprintln!(
                        "game {}/{total}: {} ({}, {} turns)",
                        i + 1,
                        summary.join(", "),
                        rec.termination,
                        rec.moves.len()
                    );
                    let written = match pgn.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
                        Some(f) => {
                            use std::io::Write;
                            f.write_all(rec.text(seats.len()).as_bytes())
                                .and_then(|_| f.flush())
                        }
                        None => Ok(()),
                    };
                    let mut st = lock();
                    if let Err(e) = written {
                        let first = st
                            .pgn_error
                            .as_ref()
                            .map_or(i + 1, |(g, _)| (*g).min(i + 1));
                        st.pgn_error = Some((first, e.to_string()));
                    }
                    record::tally(&mut st.tallies, &rec);
                    st.played += 1;
                    // The running table, so that an interrupted run still has its figures.
                    let table = record::table(&names, &st.tallies);
                    eprint!("{table}");
                    crate::progress::set_known(format!(
                        "{} of {total} games played\n{table}",
                        st.played
                    ));
                }
            });
        }
    });
    let st = state.into_inner().unwrap_or_else(|p| p.into_inner());
    let table = format!(
        "{} games, {} seats, {}\n{}",
        st.played,
        seats.len(),
        match (cfg.movetime, cfg.clock) {
            (_, Some((b, i))) => format!("clock {}+{} s a seat", b.as_secs_f64(), i.as_secs_f64()),
            (Some(t), None) => format!("{} s a move", t.as_secs_f64()),
            _ => String::new(),
        },
        record::table(&names, &st.tallies)
    );
    match st.pgn_error {
        None => Ok(table),
        Some((game, e)) => {
            // The table still goes to stderr: nothing played is lost.
            eprint!("{table}");
            Err(format!(
                "cannot write the PGN {}: {e}; stopped after {} games, the records from game {game} on are missing",
                cfg.pgn.as_deref().unwrap_or(""),
                st.played
            ))
        }
    }
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
    // One process per seat.
    let mut procs: Vec<Option<Nseat>> = Vec::new();
    for (seat, e) in seating.iter().enumerate() {
        match e {
            None => procs.push(None),
            Some(e) => match Nseat::start(&cfg.engines[*e]) {
                Ok(p) => procs.push(Some(p)),
                Err(err) => {
                    return forfeit(
                        rec,
                        &pos,
                        seat,
                        &format!("{} failed to start: {err}", G::seat_name(seat)),
                    );
                }
            },
        }
    }
    let mut clocks: Vec<Duration> = vec![cfg.clock.map_or(Duration::ZERO, |c| c.0); n];
    let inc = cfg.clock.map_or(Duration::ZERO, |c| c.1);
    loop {
        if let Some(r) = pos.outcome() {
            rec.results = r[..n].to_vec();
            let alive = (0..n).filter(|&s| pos.in_game(s)).count();
            rec.termination = if alive <= 1 {
                "last player with pieces".into()
            } else {
                "turn limit".into()
            };
            return rec;
        }
        let seat = pos.to_move();
        let start_text = start.text();
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
        let p = procs[seat]
            .as_mut()
            .expect("a seat that plays has a process");
        let answer = match p.go(&view) {
            Ok(a) => a,
            Err(e) => return forfeit(rec, &pos, seat, &format!("{}: {e}", G::seat_name(seat))),
        };
        if cfg.clock.is_some() {
            if answer.elapsed > clocks[seat] {
                return forfeit(
                    rec,
                    &pos,
                    seat,
                    &format!("{} lost on time", G::seat_name(seat)),
                );
            }
            clocks[seat] = clocks[seat] - answer.elapsed + inc;
        }
        let mv = match pos.parse_move(&answer.text) {
            Ok(m) => m,
            Err(e) => {
                return forfeit(
                    rec,
                    &pos,
                    seat,
                    &format!(
                        "{} played an illegal move {}: {e}",
                        G::seat_name(seat),
                        answer.text
                    ),
                );
            }
        };
        rec.depths[seat].push(answer.depth.unwrap_or(0));
        rec.nodes[seat].push(answer.nodes.unwrap_or(0));
        rec.moves.push(answer.text);
        pos = pos.play(mv);
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
