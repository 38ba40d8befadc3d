//! Antichess's evaluation weights: the family's evaluation ([`crate::games::losing::eval`]) —
//! Räuberschach's terms, fed with what the pieces do on the 8×8 board — with Räuberschach's
//! weights (fitted there by Texel's method and kept by SPRTs, docs/search-log.md) and the
//! phase counted over the 32 pieces of the 8×8 start; fitting them on antichess games
//! ([`crate::games::raeuber::tune::sample_of`] with
//! [`crate::games::losing::eval::evaluate_with`]) is the next step (docs/antichess.md).

use crate::games::losing::eval::Weights;

/// Antichess's weights: so far equal to Räuberschach's.
pub const WEIGHTS: Weights = crate::games::raeuber::eval::WEIGHTS;
