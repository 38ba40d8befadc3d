//! What the network tests of every game share: random positions rich in special moves, records
//! labelled by a hand-made evaluation, and a small float network trained on them.

use std::sync::{Mutex, MutexGuard};

use kiebitz::board::{Color, Move, MoveKind, MoveList};
use kiebitz::game::Game;
use kiebitz::nnue::Layout;
use kiebitz::nnue::data::{Pack, Record};
use kiebitz::nnue::engine::{self, Evaluated};
use kiebitz::nnue::train::{Config, FloatNet, Inputs, train};
use kiebitz::rng::Rng;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A game's network is process-wide: its tests take this lock to run one at a time.
pub fn lock() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A random legal move, special kinds (castling, en passant, promotions) preferred when there
/// are any.
pub fn pick<G: Game>(pos: &G, rng: &mut Rng) -> Option<Move> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let special: Vec<_> = moves
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal && m.kind() != MoveKind::DoubleStep)
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        return Some(special[rng.below(special.len())]);
    }
    Some(moves[rng.below(moves.len())])
}

/// `count` random positions: up to 29 random plies from the start (half of them) or from one
/// of `others`.
pub fn positions<G: Game + Clone>(start: &G, others: &[G], count: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = if others.is_empty() || rng.below(2) == 0 {
            start.clone()
        } else {
            others[rng.below(others.len())].clone()
        };
        for _ in 0..rng.below(30) {
            match pick(&pos, &mut rng) {
                Some(mv) => pos = pos.play(mv),
                None => break,
            }
        }
        out.push(pos);
    }
    out
}

/// A training record of `pos` with White's score and the game's result (0, 1, 2).
pub fn record<G: Game + Pack>(pos: &G, white_score: i16, result: u8) -> Record {
    let side = (pos.side_to_move() == Color::Black) as u8;
    Record::new(Pack::pieces(pos), white_score, result, side, 0)
}

/// A record labelled by an evaluation `e` from the side to move's view, clamped to ±2000: the
/// result is a win for White beyond +100, a loss below −100.
pub fn labelled<G: Game + Pack>(pos: &G, e: i32) -> Record {
    let e = e.clamp(-2000, 2000);
    let white = if pos.side_to_move() == Color::White {
        e
    } else {
        -e
    };
    let result = match white {
        w if w > 100 => 2,
        w if w < -100 => 0,
        _ => 1,
    };
    record(pos, white as i16, result)
}

/// A small float network trained a few epochs on `records`; its validation loss must fall.
pub fn trained_net(records: &[Record], layout: &Layout) -> FloatNet {
    let cfg = Config {
        hidden: 32,
        epochs: 4,
        batch: 256,
        lr: 0.01,
        lr_drop: 1.0,
        lr_step: 0,
        wdl: 0.2,
        seed: 3,
        threads: 2,
        validation: 0.1,
        mirror: false,
        init: None,
    };
    let mut losses = Vec::new();
    let net = train(records, layout, &cfg, |r, _| losses.push(r.validation_loss)).unwrap();
    assert!(
        losses.last() < losses.first(),
        "training lowers the validation loss: {losses:?}"
    );
    net
}

/// The engine's evaluation `got` of `pos` against the trainer's float forward pass (within
/// 10 cp + 2 %), and `Game::evaluate` answering with it; returns the difference.
pub fn assert_matches_trainer<G: Game + Pack>(float: &FloatNet, pos: &G, got: i32) -> f64 {
    let inputs = Inputs::of(&record(pos, 0, 1), &G::LAYOUT);
    let expected = float.forward(&inputs) as f64 * 400.0;
    let difference = (got as f64 - expected).abs();
    let tolerance = 10.0 + 0.02 * expected.abs();
    let fen = pos.fen();
    assert!(
        difference <= tolerance,
        "{fen}: engine {got}, trainer {expected:.2}"
    );
    assert_eq!(
        pos.evaluate(),
        got,
        "the game's evaluation is the network's"
    );
    difference
}

/// Evaluates every node of a random tree below `pos` at its ply (as the search does: lines
/// abandoned, siblings after them, null moves where `null_ok` allows one) and compares each
/// incremental evaluation with a fresh refresh; counts them in `checked`.
pub fn walk<G: Game + Evaluated>(
    pos: &G,
    (ply, depth): (usize, u32),
    rng: &mut Rng,
    checked: &mut u64,
    null_ok: fn(&G) -> bool,
) {
    let incremental = engine::evaluate(pos, ply).unwrap();
    let fresh = engine::evaluate_fresh(pos).unwrap();
    assert_eq!(incremental, fresh, "ply {ply}: {}", pos.fen());
    *checked += 1;
    if depth == 0 {
        return;
    }
    for _ in 0..3 {
        let child = if rng.below(8) == 0 && null_ok(pos) {
            pos.play_null()
        } else {
            match pick(pos, rng) {
                Some(mv) => pos.play(mv),
                None => return,
            }
        };
        walk(&child, (ply + 1, depth - 1), rng, checked, null_ok);
    }
}
