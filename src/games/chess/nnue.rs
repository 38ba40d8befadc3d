//! Chess's learned evaluation: chess's side of the generic machinery ([`crate::nnue::engine`]):
//! its network store with the embedded default, its thread-local accumulators, its pieces as
//! bitboards per code, and the functions the engine, the tests and the examples call, each
//! the generic one for chess.
//!
//! The process has one chess network at a time (the embedded default, or one `EvalFile`
//! loaded; a file that does not load leaves the old one in use) and one switch (`Use NNUE`);
//! off, or without a network, the hand-made evaluation ([`Chess::evaluate_hce`]) answers. A
//! protocol session has its own ([`NetSettings`]), entered by its search threads.

use std::cell::RefCell;

use super::position::Chess;
use crate::nnue::Layout;
use crate::nnue::engine::{self, Cache, Evaluated, Sets, Store};
use crate::nnue::net::Network;

pub use crate::nnue::engine::{NetSettings, REFRESH_AFTER, describe_settings};

/// The network built into the binary (docs/nnue.md says how it was made), if any.
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nets/chess-3.nnue"));

/// Slots per thread: one per ply of the search, and one for evaluations without a ply.
pub const SLOTS: usize = crate::search::MAX_PLY + 8;
/// The slot of [`crate::game::Game::evaluate`], which knows no ply.
pub const SCRATCH: usize = SLOTS - 1;

/// Chess's network and switch in this process.
static STORE: Store = Store::new(EMBEDDED);

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

impl Evaluated for Chess {
    const LAYOUT: Layout = Layout::CHESS;
    const SLOTS: usize = SLOTS;
    const NET_GAME: &'static str = <Chess as crate::game::Game>::GAME;
    const FIRST_FORMAT: bool = true;

    fn store() -> &'static Store {
        &STORE
    }

    fn cache() -> &'static std::thread::LocalKey<RefCell<Cache>> {
        &CACHE
    }

    /// The pieces by `colour · 6 + kind`.
    #[inline]
    fn sets(&self) -> Sets {
        let mut sets = [0; engine::MAX_CODES];
        for (color, &own) in self.colors.iter().enumerate() {
            for (kind, &pieces) in self.pieces.iter().enumerate() {
                sets[color * 6 + kind] = pieces & own;
            }
        }
        sets
    }

    #[inline]
    fn input_square(bit: usize) -> usize {
        bit
    }

    #[inline]
    fn black_to_move(&self) -> bool {
        self.side == crate::board::Color::Black
    }
}

/// The process's network and switch, as a new session starts with them.
pub fn process_settings() -> NetSettings {
    engine::process_settings::<Chess>()
}

/// Makes `settings` the process's (`bench --option`).
pub fn adopt(settings: &NetSettings) {
    engine::adopt::<Chess>(settings);
}

/// Reads a network file (`EvalFile`; empty: the embedded network): the network and a line
/// saying what it is. Nothing is installed.
pub fn read(path: &str) -> Result<(Option<Network>, String), crate::nnue::NetError> {
    engine::read::<Chess>(path)
}

/// Loads a network file (`EvalFile`; empty: the embedded network) as the process's. On any
/// error the network in use stays. Returns a line saying what is in use.
pub fn load(path: &str) -> Result<String, crate::nnue::NetError> {
    engine::load::<Chess>(path)
}

/// Makes `net` the process's network.
pub fn install(net: Network) {
    engine::install::<Chess>(net);
}

/// Turns the process's network on or off (`Use NNUE`).
pub fn set_enabled(on: bool) {
    engine::set_enabled::<Chess>(on);
}

/// Whether the process's evaluations come from a network now.
pub fn active() -> bool {
    engine::active::<Chess>()
}

/// What evaluates under the process's settings, in words (`info string`).
pub fn describe() -> String {
    describe_settings(&process_settings())
}

/// Makes `settings` (a session's) those this thread evaluates with from now on.
pub fn enter(settings: &NetSettings) {
    engine::enter::<Chess>(settings);
}

/// The evaluation of `pos` for the side to move from the network, using slot `slot`
/// (`None` when the network is off or absent).
#[inline]
pub fn evaluate(pos: &Chess, slot: usize) -> Option<i32> {
    engine::evaluate(pos, slot)
}

/// The evaluation of `pos` from a fresh accumulator (for tests).
pub fn evaluate_fresh(pos: &Chess) -> Option<i32> {
    engine::evaluate_fresh(pos)
}
