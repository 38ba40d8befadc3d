//! The games: each implements [`crate::game::Game`] in a few game-specific files.
//!
//! - [`pawns`]: pawn chess on W×H boards with optional double step and en passant.
//! - [`raeuber`]: Räuberschach 6×6, losing chess with forced capture.
//! - [`chess`]: standard chess.
//! - [`chamaeleon`]: Chamäleon Schach for 2–4 players (an [`crate::nsearch::NGame`]).
//! - [`zobrist`]: the hashing keys they share.

pub mod chamaeleon;
pub mod chess;
pub mod pawns;
pub mod raeuber;
pub mod zobrist;
