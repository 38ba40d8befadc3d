//! Exact time use (issue 26, item 4), with a fake clock: no test here times anything. The fake
//! clock moves on by a fixed step at every reading, so a search's progress in "time" is a
//! function of its own work and the assertions hold on any machine.
//!
//! - `go movetime T` ends between `T - Move Overhead` and `T` (two-seat and N-seat search);
//! - with one legal move, `movetime`, `depth`, `nodes` and `infinite` keep searching (only a
//!   clock share may answer at once), and so does a mate already found (only `go mate` stops
//!   at it);
//! - a CRASH! position with one legal move gets its true value under `go movetime`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use kiebitz::game::Game;
use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::games::chess::Chess;
use kiebitz::games::crash::Crash;
use kiebitz::nsearch::{self, NGame};
use kiebitz::search::time::Clock;
use kiebitz::search::{Control, Limits, MAX_PLY, Score, SearchResult, Searcher};

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Kxa2 is White's only move.
const ONE_MOVE: &str = "7k/8/8/8/8/8/r7/K6r w - - 0 1";
/// Ra8 mates at once.
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// A search of `fen` under `limits` on a fake clock stepping `step` per reading; returns the
/// result, the depths reported and the clock's time at the end.
fn search<G: Game>(
    variant: &str,
    fen: &str,
    limits: &Limits,
    step: Duration,
) -> (SearchResult, Vec<u32>, Duration) {
    let pos = G::from_fen(variant, fen).unwrap();
    let mut searcher = Searcher::<G>::new(16);
    let clock = Clock::fake(step);
    searcher.set_clock(clock.clone());
    let mut depths = Vec::new();
    let result = searcher.search(&pos, &[], limits, &Control::default(), &mut |info| {
        depths.push(info.depth)
    });
    (result, depths, clock.peek().unwrap())
}

fn movetime(t: u64, overhead: u64) -> Limits {
    Limits {
        movetime: Some(ms(t)),
        move_overhead: ms(overhead),
        ..Limits::default()
    }
}

#[test]
fn movetime_is_used_to_its_end() {
    // Before: a settled best move stopped the search at 70% of the soft limit (1.39 s of 2 s).
    let start = Chess::startpos("chess").unwrap().fen();
    let (result, _, end) = search::<Chess>("chess", &start, &movetime(2000, 10), ms(4));
    assert!(
        // One reading past the limit at most: the final `info` with the search's exact count.
        end >= ms(1990) && end <= ms(2004),
        "answered at {end:?} (fake), depth {}",
        result.depth
    );
    assert!(result.depth >= 2);
}

#[test]
fn one_legal_move_is_searched_under_movetime_depth_nodes_and_infinite() {
    // Before: `go movetime` answered at depth 1 with a centipawn score.
    let (result, depths, end) = search::<Chess>("chess", ONE_MOVE, &movetime(1000, 10), ms(2));
    assert!(
        end >= ms(990) || result.depth == MAX_PLY as u32 - 1,
        "depth {} at {end:?}",
        result.depth
    );
    assert!(result.depth > 4, "{depths:?}");
    assert_eq!(
        Chess::from_fen("chess", ONE_MOVE)
            .unwrap()
            .move_text(result.best),
        "a1a2"
    );

    let depth = Limits {
        depth: Some(9),
        ..Limits::default()
    };
    let (result, _, _) = search::<Chess>("chess", ONE_MOVE, &depth, ms(2));
    assert_eq!(result.depth, 9);

    let nodes = Limits {
        nodes: Some(50_000),
        ..Limits::default()
    };
    let (result, _, _) = search::<Chess>("chess", ONE_MOVE, &nodes, ms(2));
    assert!(result.depth > 4 && result.nodes >= 50_000, "{result:?}");

    // `go infinite`: searches until `stop` (raised here at 300 ms of fake time).
    let pos = Chess::from_fen("chess", ONE_MOVE).unwrap();
    let mut searcher = Searcher::<Chess>::new(16);
    let clock = Clock::fake(ms(1));
    searcher.set_clock(clock.clone());
    let control = Control::default();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut reached = 0;
    let result = searcher.search(&pos, &[], &infinite, &control, &mut |info| {
        reached = reached.max(info.depth);
        if clock.peek().unwrap() >= ms(300) || info.depth >= 20 {
            control.stop.store(true, Ordering::Relaxed);
        }
    });
    assert!(
        reached >= 20 || clock.peek().unwrap() >= ms(300),
        "{reached}"
    );
    assert!(result.depth > 4);
}

#[test]
fn a_clock_share_may_answer_a_single_move_at_once() {
    let clock = Limits {
        time: [Some(ms(60_000)), Some(ms(60_000))],
        ..Limits::default()
    };
    let (result, _, end) = search::<Chess>("chess", ONE_MOVE, &clock, ms(2));
    assert_eq!(result.depth, 1);
    assert!(end < ms(100), "{end:?}");
}

#[test]
fn a_mate_found_stops_go_mate_only() {
    // Before: `go movetime` stopped at the first iteration that saw the mate.
    let (result, _, end) = search::<Chess>("chess", MATE_IN_ONE, &movetime(1000, 10), ms(2));
    assert_eq!(result.score, Score::Mate(1));
    assert!(
        end >= ms(990) || result.depth == MAX_PLY as u32 - 1,
        "depth {} at {end:?}",
        result.depth
    );
    assert!(result.depth > 2);
    let mate = Limits {
        mate: Some(1),
        ..movetime(1000, 10)
    };
    let (result, _, end) = search::<Chess>("chess", MATE_IN_ONE, &mate, ms(2));
    assert_eq!((result.score, result.depth), (Score::Mate(1), 1));
    assert!(end < ms(100), "{end:?}");
}

#[test]
fn crash_with_one_legal_move_gets_its_true_value() {
    // White's only move is 1:1; the tower of three then wins in 3 (the full-depth search
    // below, and `kiebitz-crash analyze`, agree). Before: depth 1, `cp -200`.
    let fen = "W1......B3 w";
    let (deep, _, _) = search::<Crash>(
        "crash",
        fen,
        &Limits {
            depth: Some(40),
            ..Limits::default()
        },
        ms(1),
    );
    assert_eq!(deep.score, Score::Mate(-3));
    let (result, depths, _) = search::<Crash>("crash", fen, &movetime(1000, 10), ms(2));
    assert_eq!(result.score, deep.score, "depths {depths:?}");
    assert!(result.depth > 1);
}

#[test]
fn n_seat_movetime_is_used_to_its_end() {
    // Before: no iteration began after half the time, and one legal move answered at once.
    let pos = Chamaeleon::startpos(4).unwrap();
    let mut searcher = nsearch::Searcher::<Chamaeleon>::new(nsearch::Options::default(), 16);
    let clock = Clock::fake(ms(2));
    searcher.set_clock(clock.clone());
    let limits = nsearch::Limits {
        time: Some(ms(1000)),
        ..nsearch::Limits::default()
    };
    let report = searcher.search(&pos, limits, |_| {});
    let end = clock.peek().unwrap();
    let floor = ms(1000) - nsearch::MOVE_OVERHEAD;
    assert!(
        (end >= floor && end <= ms(1000)) || report.depth >= pos.turns_left().unwrap_or(64),
        "answered at {end:?} (fake), depth {}",
        report.depth
    );
    assert!(report.depth >= 2);
}

#[test]
fn the_soft_limit_follows_time_soft_percent() {
    // 20 s on the clock, no increment: a move's share is 20 s / 35, the soft limit 60 % of it
    // (0.34 s, stretched by the best move's stability), the hard one three times the share
    // (1.71 s). `time_soft_percent` scales the soft limit alone.
    let pos = Chess::startpos("chess").unwrap();
    let clock_limits = Limits {
        time: [Some(ms(20_000)), Some(ms(20_000))],
        ..Limits::default()
    };
    let answer_at = |percent: u32| {
        let mut searcher = Searcher::<Chess>::new(16);
        let params = searcher
            .params()
            .with_overrides(&format!("time_soft_percent={percent}"))
            .unwrap();
        searcher.set_params(params);
        let clock = Clock::fake(ms(1));
        searcher.set_clock(clock.clone());
        let result = searcher.search(&pos, &[], &clock_limits, &Control::default(), &mut |_| {});
        (clock.peek().unwrap(), result.depth)
    };
    let (short, d_short) = answer_at(50);
    let (usual, d_usual) = answer_at(100);
    let (long, d_long) = answer_at(250);
    assert!(
        short <= usual && usual <= long && short < long,
        "{short:?} {usual:?} {long:?}"
    );
    assert!(
        d_short <= d_usual && d_usual <= d_long,
        "{d_short} {d_usual} {d_long}"
    );
    // The hard limit holds whatever the soft one: one reading past it at most.
    assert!(long <= ms(1716), "{long:?}");
}
