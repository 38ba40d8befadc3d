//! Protocol layer: the engine loop speaking UCI or XBoard/CECP v2 over any stream.
//!
//! PLACEHOLDER — the protocol helper fills this in.
