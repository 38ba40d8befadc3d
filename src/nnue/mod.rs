//! A learned evaluation (NNUE): a perspective network over piece-square inputs.
//!
//! - [`data`]: the 32-byte training records that `datagen` writes and the trainer reads.
//!
//! Nothing here knows a game: a game maps its pieces to records ([`data::Pack`]).
pub mod data;
