//! Standard chess (SPEC §3.1).
//!
//! PLACEHOLDER — the chess helper fills this in.
