//! The losing family's side of the learned evaluation ([`crate::nnue::engine`]): a position of
//! either board as the network sees it — the pieces by `colour · 6 + kind` (the records' codes,
//! [`crate::nnue::data::Pack`]), squares numbered `rank · width + file` on the board (the
//! position's own grid is 8 wide, so a 6×6 square is renumbered) — and each member's network
//! store and accumulators (its [`Variant::net_store`], [`Variant::net_cache`]). No member has
//! a network built in yet: the hand-made evaluation answers until an `EvalFile` is loaded.

use super::game::{SLOTS, Variant, layout};
use super::position::Position;
use crate::nnue::Layout;
use crate::nnue::engine::{self, Cache, Evaluated, Sets, Store};

pub use super::game::SCRATCH;

impl<V: Variant> Evaluated for Position<V> {
    const LAYOUT: Layout = layout::<V>();
    const SLOTS: usize = SLOTS;
    const NET_GAME: &'static str = V::PROFILE.game;

    fn store() -> &'static Store {
        V::net_store()
    }

    fn cache() -> &'static std::thread::LocalKey<std::cell::RefCell<Cache>> {
        V::net_cache()
    }

    /// The pieces by `colour · 6 + kind`, as bitboards of the 8-wide grid.
    #[inline]
    fn sets(&self) -> Sets {
        let mut sets = [0; engine::MAX_CODES];
        for (color, &own) in self.bits.colors.iter().enumerate() {
            for (kind, &pieces) in self.bits.kinds.iter().enumerate() {
                sets[color * 6 + kind] = pieces & own;
            }
        }
        sets
    }

    /// A square of the 8-wide grid as `rank · width + file` on the board.
    #[inline]
    fn input_square(bit: usize) -> usize {
        bit / 8 * usize::from(V::WIDTH) + bit % 8
    }

    #[inline]
    fn black_to_move(&self) -> bool {
        self.side == crate::board::Color::Black
    }
}

/// The evaluation of `pos` for the side to move from the member's network, using slot `slot`
/// (`None` when the network is off or absent).
#[inline]
pub fn evaluate<V: Variant>(pos: &Position<V>, slot: usize) -> Option<i32> {
    engine::evaluate(pos, slot)
}

/// Writes a member's [`Variant::net_store`] and [`Variant::net_cache`] inside its `impl
/// Variant`: the process's network and switch (none built in) and one cache of accumulators
/// per thread, each a static of its own (a generic function cannot own one).
macro_rules! member_network {
    () => {
        fn net_store() -> &'static $crate::nnue::engine::Store {
            static NET: $crate::nnue::engine::Store = $crate::nnue::engine::Store::new(None);
            &NET
        }

        fn net_cache()
        -> &'static std::thread::LocalKey<std::cell::RefCell<$crate::nnue::engine::Cache>> {
            thread_local! {
                static CACHE: std::cell::RefCell<$crate::nnue::engine::Cache> =
                    const { std::cell::RefCell::new($crate::nnue::engine::Cache::new()) };
            }
            &CACHE
        }
    };
}
pub(crate) use member_network;
