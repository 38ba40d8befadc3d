//! Search: iterative deepening, alpha-beta, transposition table and time control.
//!
//! PLACEHOLDER API — the search helper replaces the body, keeping these signatures.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::{Move, MoveList};
use crate::game::Game;

/// Score of a mate (or any forced game end) in 0 plies; mate in n plies is `MATE - n`.
pub const MATE: i32 = 32000;

/// What limits a search (UCI `go` / XBoard `level st sd time otim`).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining clock time of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increment per move of White and Black.
    pub inc: [Duration; 2],
    pub movestogo: Option<u32>,
    /// Search until stopped (UCI `go infinite`, XBoard `analyze`).
    pub infinite: bool,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
}

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible and return the best move found.
    pub stop: AtomicBool,
    /// Pondering: ignore the clock until `ponderhit` clears this.
    pub pondering: AtomicBool,
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Forced game end in this many moves: positive the side to move wins, negative it loses.
    Mate(i32),
}

/// One iteration's report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// A legal move; `Move::NULL` only when the root has no legal move.
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// A searcher for one game, owning its transposition table and ordering tables.
pub struct Searcher<G: Game> {
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        let _ = hash_mb;
        Searcher {
            _game: std::marker::PhantomData,
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, hash_mb: usize) {
        let _ = hash_mb;
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {}

    /// Searches `root`. `history` holds the hashes of the game's earlier positions, oldest
    /// first, not including `root`, for repetition detection. `on_info` receives a report per
    /// iteration. Returns when a limit is reached or `control.stop` is set.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let _ = (history, limits, control.stop.load(Ordering::Relaxed));
        let mut moves = MoveList::new();
        root.legal_moves(&mut moves);
        let best = moves.first().copied().unwrap_or(Move::NULL);
        let info = Info {
            depth: 1,
            seldepth: 1,
            score: Score::Cp(0),
            nodes: moves.len() as u64,
            time: Duration::ZERO,
            hashfull: 0,
            pv: vec![best],
        };
        on_info(&info);
        SearchResult {
            best,
            ponder: None,
            score: Score::Cp(0),
            depth: 1,
            nodes: info.nodes,
        }
    }
}
