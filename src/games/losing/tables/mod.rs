//! The family's endgame tables: what both members' tables share, generic over the member's
//! tables ([`session::Member`]); each member's folder (`raeuber/tables.rs`,
//! `antichess/tables.rs`) keeps its index, its files and how a set is built.
//!
//! - [`check`]: the value a position's moves make one ply down, against which both check
//!   the tables they read from files.
//! - [`file`]: the checksum that ends both members' table files.
//! - [`session`]: the process's tables, limit and folder ([`session::Process`]), a protocol
//!   session's hold on a set the sessions asking alike share ([`session::Hold`],
//!   [`session::Shared`], its memory lent by a server's pool), what a search thread probes
//!   ([`session::enter`], [`session::probe`]), the folder a user names, and what the table
//!   options do to a session's settings ([`session::session_tables`]).
//! - [`signature`]: material signatures (codes, keys, counts), the signatures of n pieces in
//!   the order both build them, their pieces' letters.
//! - [`worker`]: the threads that build and check tables beside the search.

pub mod check;
pub mod file;
pub mod session;
pub mod signature;
pub mod worker;
