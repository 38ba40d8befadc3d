//! Räuberschach's evaluation weights: the family's evaluation
//! ([`crate::games::losing::eval`]) with the weights fitted on Räuberschach games, which can be
//! overridden at start-up for experiments (`KIEBITZ_RAEUBER_EVAL=name=value,…`,
//! [`ENV_OVERRIDES`]): one binary then plays or screens with other weights.

pub use crate::games::losing::eval::{Weights, noisy_order, quiet_order};
pub use crate::games::losing::game::evaluate_with;

/// The weights the engine plays with, fitted by Texel's method (`examples/raeuber-tune.rs`,
/// λ = 0.0003) in two rounds, each kept by a self-play SPRT (docs/search-log.md, sessions 8
/// and 9): the first 21 weights on 1,787 self-play games at 50 000 against 55 000 nodes a
/// move of the hand-set weights before them (burden 50 each, offers 24–50, hanging 18, deep
/// 6, tempo 6, to_move 10, no must-capture term, threats 2000, offer squares 200 + 200,
/// mobility 20); then, those 21 frozen, the phase burdens and the pawn advance on 2,500
/// self-play games of the first round's weights at 200 000 against 220 000 nodes a move.
pub const WEIGHTS: Weights = Weights {
    burden: [413, 33, 136, -68, 303, -126],
    offer: [0, 50, 64, 68, 68],
    hanging: 128,
    deep: 108,
    tempo: -59,
    tempo_pieces: 6,
    to_move: 84,
    must_capture: 81,
    must_capture_defended: 13,
    forced_to_move: 2082,
    forced_waiting: 1951,
    offer_square: 64,
    offer_square_free: 116,
    mobility: 26,
    burden_end: [102, -43, 3, -108, 187, -98],
    pawn_advance: 58,
};

/// The weights chosen at start-up ([`set_startup_overrides`]).
static ACTIVE: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();

/// The environment variable whose `name=value` pairs override [`WEIGHTS`] at start-up (for
/// experiments: one binary plays or screens with other weights, as `KIEBITZ_SEARCH` does for
/// the search's switches).
pub const ENV_OVERRIDES: &str = "KIEBITZ_RAEUBER_EVAL";

/// Applies `overrides` to [`WEIGHTS`] for every later evaluation; set once, before the first
/// evaluation. A bad text is an error and the weights stay [`WEIGHTS`].
pub fn set_startup_overrides(overrides: &str) -> Result<(), crate::Error> {
    let w = WEIGHTS.with_overrides(overrides)?;
    let _ = ACTIVE.set(w);
    Ok(())
}

/// The weights the engine evaluates with: [`WEIGHTS`] unless overridden at start-up.
#[inline]
pub fn active_weights() -> &'static Weights {
    ACTIVE.get_or_init(|| WEIGHTS)
}
