//! Tuning the Räuberschach evaluation on played games (Texel's method).
//!
//! The evaluation ([`super::eval::evaluate_with`]) is a linear function of its weights, but
//! for the piece count below which the tempo term counts (`tempo_pieces`, kept fixed): a
//! position's term for weight `j` is its evaluation with `j` set to [`UNIT`] and every other
//! weight zero, divided by [`UNIT`] (the large unit keeps the integer divisions of the threat
//! terms exact to 10⁻⁴). So the trace needs no second copy of the evaluation, and the fit of
//! [`crate::texel`] applies as it is.
//!
//! `examples/raeuber-tune.rs` drives it: positions from match PGNs (every position after the
//! opening plies, forced captures included — the search stands pat in those too), one game in
//! ten held out, K fitted to the engine's weights, then Adam; it prints the held-out error
//! before and after and the weights as a `KIEBITZ_RAEUBER_EVAL` text, so that a self-play
//! SPRT can try them without a rebuild. Depends on [`super::eval`] and [`crate::texel`].

use super::Raeuber;
use super::eval::{Weights, evaluate_with};
use super::position::{BISHOP_K, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K};
use crate::board::Color;
use crate::game::Game;
use crate::games::losing::Six;
use crate::texel::Linear;

/// The weight of one unit in a position's trace.
pub const UNIT: i32 = 10_000;

/// Reads one weight.
type GetWeight = fn(&Weights) -> i32;

/// The weights that are fitted, by their `KIEBITZ_RAEUBER_EVAL` names.
pub const TUNABLE: &[(&str, GetWeight)] = &[
    ("burden_pawn", |w| w.burden[PAWN_K]),
    ("burden_knight", |w| w.burden[KNIGHT_K]),
    ("burden_bishop", |w| w.burden[BISHOP_K]),
    ("burden_rook", |w| w.burden[ROOK_K]),
    ("burden_queen", |w| w.burden[QUEEN_K]),
    ("burden_king", |w| w.burden[KING_K]),
    ("offer1", |w| w.offer[1]),
    ("offer2", |w| w.offer[2]),
    ("offer3", |w| w.offer[3]),
    ("offer4", |w| w.offer[4]),
    ("hanging", |w| w.hanging),
    ("deep", |w| w.deep),
    ("tempo", |w| w.tempo),
    ("to_move", |w| w.to_move),
    ("must_capture", |w| w.must_capture),
    ("must_capture_defended", |w| w.must_capture_defended),
    ("forced_to_move", |w| w.forced_to_move),
    ("forced_waiting", |w| w.forced_waiting),
    ("offer_square", |w| w.offer_square),
    ("offer_square_free", |w| w.offer_square_free),
    ("mobility", |w| w.mobility),
    ("burden_end_pawn", |w| w.burden_end[PAWN_K]),
    ("burden_end_knight", |w| w.burden_end[KNIGHT_K]),
    ("burden_end_bishop", |w| w.burden_end[BISHOP_K]),
    ("burden_end_rook", |w| w.burden_end[ROOK_K]),
    ("burden_end_queen", |w| w.burden_end[QUEEN_K]),
    ("burden_end_king", |w| w.burden_end[KING_K]),
    ("pawn_advance", |w| w.pawn_advance),
];

/// Every tunable weight zero (`tempo_pieces` as in `base`).
fn zero(base: &Weights) -> Weights {
    let mut w = *base;
    for (name, _) in TUNABLE {
        w = w
            .with_overrides(&format!("{name}=0"))
            .expect("every tunable name is a weight");
    }
    w
}

/// The weights of `base` as the flat vector the fit works on, in [`TUNABLE`]'s order.
pub fn flatten(base: &Weights) -> Vec<f64> {
    TUNABLE.iter().map(|(_, get)| get(base) as f64).collect()
}

/// The fitted vector rounded back into weights (`tempo_pieces` from `base`).
pub fn unflatten(w: &[f64], base: &Weights) -> Weights {
    let text = overrides(w);
    base.with_overrides(&text)
        .expect("rounded weights are in range")
}

/// The fitted vector as a `KIEBITZ_RAEUBER_EVAL` text.
pub fn overrides(w: &[f64]) -> String {
    TUNABLE
        .iter()
        .zip(w)
        .map(|((name, _), v)| format!("{name}={}", v.round().clamp(-100_000.0, 100_000.0)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The trace of `pos` for White: `(index into TUNABLE, count)` for each weight that counts,
/// with `base`'s `tempo_pieces`.
pub fn trace(pos: &Raeuber, base: &Weights) -> Vec<(u16, f64)> {
    trace_of(pos, base, evaluate_with::<Six>)
}

/// The trace of any game's position whose evaluation `eval` is Räuberschach's [`score`] of
/// that board's views (antichess's is): the same terms, so the same fit.
///
/// [`score`]: super::eval::score
pub fn trace_of<G: Game>(
    pos: &G,
    base: &Weights,
    eval: fn(&G, &Weights) -> i32,
) -> Vec<(u16, f64)> {
    let sign = if pos.side_to_move() == Color::White {
        1.0
    } else {
        -1.0
    };
    let zero = zero(base);
    TUNABLE
        .iter()
        .enumerate()
        .filter_map(|(i, (name, _))| {
            let unit = zero
                .with_overrides(&format!("{name}={UNIT}"))
                .expect("every tunable name is a weight");
            let e = eval(pos, &unit);
            (e != 0).then(|| (i as u16, sign * e as f64 / UNIT as f64))
        })
        .collect()
}

/// A labelled position as a sample of the fit.
pub fn sample(fen: &str, result: f64, base: &Weights) -> Result<Linear, String> {
    sample_of("raeuberschach", fen, result, base, evaluate_with::<Six>)
}

/// A labelled position of `variant` (a game of type `G`, evaluated by `eval`) as a sample.
pub fn sample_of<G: Game>(
    variant: &str,
    fen: &str,
    result: f64,
    base: &Weights,
    eval: fn(&G, &Weights) -> i32,
) -> Result<Linear, String> {
    let pos = G::from_fen(variant, fen)?;
    Ok(Linear {
        terms: trace_of(&pos, base, eval),
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::raeuber::eval::WEIGHTS;

    /// The getters read what the override names set: the two lists cannot drift apart.
    #[test]
    fn every_tunable_name_reads_what_it_sets() {
        for (i, (name, get)) in TUNABLE.iter().enumerate() {
            let v = 1000 + i as i32;
            let w = WEIGHTS.with_overrides(&format!("{name}={v}")).unwrap();
            assert_eq!(get(&w), v, "{name}");
        }
        let w = flatten(&WEIGHTS);
        assert_eq!(unflatten(&w, &WEIGHTS), WEIGHTS);
    }

    /// The trace reproduces the evaluation (for White) to within the integer divisions'
    /// rounding, on positions of a real game of Räuberschach and of antichess (whose
    /// evaluation is the same terms on 8×8, so the fit can run on its games).
    #[test]
    fn trace_reproduces_the_evaluation() {
        trace_agrees::<Six>(7);
        trace_agrees::<crate::games::losing::Eight>(5);
        let bad = sample_of(
            "antichess",
            "not a fen",
            0.5,
            &WEIGHTS,
            evaluate_with::<crate::games::losing::Eight>,
        );
        assert!(bad.is_err());
    }

    fn trace_agrees<V: crate::games::losing::Variant>(stride: usize)
    where
        crate::games::losing::Position<V>: Game,
    {
        let mut pos =
            crate::games::losing::Position::<V>::startpos(V::PROFILE.variants[0]).unwrap();
        let w = flatten(&WEIGHTS);
        let mut checked = 0;
        for ply in 0..24 {
            let mut moves = crate::board::MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let sign = if pos.side_to_move() == Color::White {
                1
            } else {
                -1
            };
            let expected = (sign * evaluate_with(&pos, &WEIGHTS)) as f64;
            let s = sample_of(
                V::PROFILE.variants[0],
                &pos.fen(),
                1.0,
                &WEIGHTS,
                evaluate_with::<V>,
            )
            .unwrap();
            // The threat terms divide by 1 + n in integers: a few centipawns at most.
            assert!(
                (s.eval(&w) - expected).abs() <= 8.0,
                "{}: {} vs {expected}",
                pos.fen(),
                s.eval(&w)
            );
            checked += 1;
            pos = pos.play(moves[(ply * stride) % moves.len()]);
        }
        assert!(checked >= 10);
    }
}
