//! Räuberschach 6×6 (SPEC §3.2).
//!
//! PLACEHOLDER — the Räuberschach helper fills this in.
