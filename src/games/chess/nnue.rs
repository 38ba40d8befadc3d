//! Chess's learned evaluation: the network in use, and each thread's accumulators.
//!
//! The process has one network at a time (the embedded default, or one `EvalFile` loaded;
//! a file that does not load leaves the old one in use) and one switch (`Use NNUE`); off, or
//! without a network, the hand-made evaluation ([`Chess::evaluate_hce`]) answers. A protocol
//! session has its own ([`NetSettings`], starting from the process's): its `EvalFile` and
//! `Use NNUE` change only its copy, and its search threads [`enter`] it, so that the
//! sessions of one server never evaluate with each other's network. A loaded network is
//! shared read-only (`Arc`) by whoever holds it and freed with the last holder.
//!
//! Accumulators are kept per thread in slots, one per ply of the search's line. Each slot
//! holds the board it was computed for, so it is always exact: to evaluate a position at
//! ply `p`, the slot of `p` is brought to it from whichever of the slots `p`, `p − 1` and
//! `p − 2` differs from it by the fewest pieces (a move changes two to four), or refreshed
//! from scratch when all differ by more than [`REFRESH_AFTER`]. So make/unmake needs no hook:
//! the diff of the pieces' bitboards covers castling, en passant, promotions, captures and
//! null moves alike, and a slot left over from another line only costs a larger diff.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

use super::position::Chess;
use crate::nnue::Layout;
use crate::nnue::net::Network;

/// The network built into the binary (docs/nnue.md says how it was made), if any.
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nets/chess-3.nnue"));

/// Slots per thread: one per ply of the search, and one for evaluations without a ply.
pub const SLOTS: usize = crate::search::MAX_PLY + 8;
/// The slot of [`crate::game::Game::evaluate`], which knows no ply.
pub const SCRATCH: usize = SLOTS - 1;
/// A diff of more pieces than this refreshes the accumulators instead.
pub const REFRESH_AFTER: u32 = 12;

/// The process's network and its generation (bumped on every change).
static NET: RwLock<Option<Arc<Network>>> = RwLock::new(None);
static GENERATION: AtomicU64 = AtomicU64::new(0);
static EMBEDDED_LOADED: std::sync::Once = std::sync::Once::new();
/// The process's `Use NNUE`.
static ENABLED: AtomicBool = AtomicBool::new(true);

fn net_lock() -> std::sync::RwLockWriteGuard<'static, Option<Arc<Network>>> {
    NET.write().unwrap_or_else(|e| e.into_inner())
}

/// Installs the embedded network the first time anything asks.
fn ensure_embedded() {
    EMBEDDED_LOADED.call_once(|| {
        if let Some(bytes) = EMBEDDED {
            let net = Network::from_bytes(bytes, Layout::CHESS.inputs())
                .expect("the embedded network is valid");
            *net_lock() = Some(Arc::new(net));
            GENERATION.fetch_add(1, Relaxed);
        }
    });
}

/// One session's network and `Use NNUE` (or the process's, [`process_settings`]).
#[derive(Clone, Debug)]
pub struct NetSettings {
    pub net: Option<Arc<Network>>,
    pub enabled: bool,
}

impl NetSettings {
    /// The network that evaluates under these settings (`None`: the hand-made evaluation).
    fn in_use(&self) -> Option<Arc<Network>> {
        self.net.clone().filter(|_| self.enabled)
    }
}

/// The process's network and switch, as a new session starts with them.
pub fn process_settings() -> NetSettings {
    ensure_embedded();
    NetSettings {
        net: NET.read().ok().and_then(|n| n.clone()),
        enabled: ENABLED.load(Relaxed),
    }
}

/// Makes `settings` the process's (`bench --option`).
pub fn adopt(settings: &NetSettings) {
    ensure_embedded();
    *net_lock() = settings.net.clone();
    ENABLED.store(settings.enabled, Relaxed);
    GENERATION.fetch_add(1, Relaxed);
}

/// Reads a network file (`EvalFile`; empty: the embedded network): the network and a line
/// saying what it is. Nothing is installed.
pub fn read(path: &str) -> Result<(Network, String), String> {
    let net = if path.is_empty() {
        match EMBEDDED {
            Some(bytes) => Network::from_bytes(bytes, Layout::CHESS.inputs())?,
            None => return Err("this build has no embedded network".into()),
        }
    } else {
        let bytes = crate::files::read(std::path::Path::new(path), crate::nnue::net::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
        Network::from_bytes(&bytes, Layout::CHESS.inputs()).map_err(|e| format!("{path}: {e}"))?
    };
    let name = if path.is_empty() { "embedded" } else { path };
    let line = format!("NNUE {name} ({}→{}×2→1)", net.inputs, net.hidden);
    Ok((net, line))
}

/// Loads a network file (`EvalFile`; empty: the embedded network) as the process's. On any
/// error the network in use stays. Returns a line saying what is in use.
pub fn load(path: &str) -> Result<String, String> {
    ensure_embedded();
    let (net, line) = read(path)?;
    install(net);
    Ok(line)
}

/// Makes `net` the process's network.
pub fn install(net: Network) {
    ensure_embedded();
    *net_lock() = Some(Arc::new(net));
    GENERATION.fetch_add(1, Relaxed);
}

/// Turns the process's network on or off (`Use NNUE`).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Relaxed);
}

/// Whether the process's evaluations come from a network now.
pub fn active() -> bool {
    process_settings().in_use().is_some()
}

/// What evaluates under the process's settings, in words (`info string`).
pub fn describe() -> String {
    describe_settings(&process_settings())
}

/// What evaluates under `settings`, in words (`info string`).
pub fn describe_settings(settings: &NetSettings) -> String {
    match (settings.enabled, &settings.net) {
        (true, Some(net)) => format!("NNUE on ({}→{}×2→1)", net.inputs, net.hidden),
        (true, None) => "NNUE on, but no network is loaded: the hand-made evaluation".into(),
        (false, _) => "NNUE off: the hand-made evaluation".into(),
    }
}

/// Makes `settings` (a session's) those this thread evaluates with from now on; the thread's
/// accumulators are dropped when the network differs from the one they were computed with.
pub fn enter(settings: &NetSettings) {
    let net = settings.in_use();
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        cache.entered = true;
        let same = match (&cache.net, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            cache.net = net;
            cache.reset_slots();
        }
    });
}

/// One slot: the board it was computed for and its two accumulators (White's perspective,
/// then Black's).
#[derive(Clone)]
struct Slot {
    pieces: [u64; 6],
    colors: [u64; 2],
    acc: Vec<i16>,
    valid: bool,
}

/// A thread's slots and the network they were computed with; `entered`: the network is a
/// session's ([`enter`]), not the process's.
struct Cache {
    generation: u64,
    net: Option<Arc<Network>>,
    slots: Vec<Slot>,
    entered: bool,
}

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache { generation: u64::MAX, net: None, slots: Vec::new(), entered: false }) };
}

/// The evaluation of `pos` for the side to move from the network, using slot `slot`
/// (`None` when the network is off or absent).
pub fn evaluate(pos: &Chess, slot: usize) -> Option<i32> {
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if !cache.entered {
            if !ENABLED.load(Relaxed) {
                return None;
            }
            ensure_embedded();
            cache.sync();
        }
        let net = cache.net.clone()?;
        let slot = slot.min(SCRATCH);
        cache.bring(&net, pos, slot);
        let h = net.hidden;
        let acc = &cache.slots[slot].acc;
        let (white, black) = acc.split_at(h);
        Some(match pos.side {
            crate::board::Color::White => net.output(white, black),
            crate::board::Color::Black => net.output(black, white),
        })
    })
}

/// The evaluation of `pos` from a fresh accumulator (for tests).
pub fn evaluate_fresh(pos: &Chess) -> Option<i32> {
    ensure_embedded();
    let net = NET.read().ok()?.clone()?;
    let mut acc = vec![0i16; 2 * net.hidden];
    refresh(&net, pos, &mut acc);
    let (white, black) = acc.split_at(net.hidden);
    Some(match pos.side {
        crate::board::Color::White => net.output(white, black),
        crate::board::Color::Black => net.output(black, white),
    })
}

/// Both perspectives' accumulators of `pos` from scratch.
fn refresh(net: &Network, pos: &Chess, acc: &mut [i16]) {
    let (white, black) = acc.split_at_mut(net.hidden);
    let pieces = active_pieces(pos);
    net.refresh(pieces.iter().map(|&(sq, code)| Layout::CHESS.index(0, sq, code)), white);
    net.refresh(pieces.iter().map(|&(sq, code)| Layout::CHESS.index(1, sq, code)), black);
}

/// The pieces of `pos` as (square, colour · 6 + kind).
fn active_pieces(pos: &Chess) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(32);
    for color in 0..2 {
        for kind in 0..6 {
            let mut b = pos.pieces[kind] & pos.colors[color];
            while b != 0 {
                out.push((b.trailing_zeros() as usize, color * 6 + kind));
                b &= b - 1;
            }
        }
    }
    out
}

/// The pieces that differ between a slot's board and `pos`.
fn diff_count(slot: &Slot, pos: &Chess) -> u32 {
    let mut n = 0;
    for color in 0..2 {
        for kind in 0..6 {
            let old = slot.pieces[kind] & slot.colors[color];
            let new = pos.pieces[kind] & pos.colors[color];
            n += (old ^ new).count_ones();
        }
    }
    n
}

impl Cache {
    /// Drops the slots when the network changed.
    fn sync(&mut self) {
        let generation = GENERATION.load(Relaxed);
        if generation != self.generation {
            self.net = NET.read().ok().and_then(|n| n.clone());
            self.generation = generation;
            self.reset_slots();
        }
    }

    /// Fresh slots for the network in `net`.
    fn reset_slots(&mut self) {
        let h = self.net.as_ref().map_or(0, |n| n.hidden);
        let empty = Slot {
            pieces: [0; 6],
            colors: [0; 2],
            acc: vec![0; 2 * h],
            valid: false,
        };
        self.slots = vec![empty; SLOTS];
    }

    /// Brings slot `s` to `pos` from the nearest slot, or refreshes it.
    fn bring(&mut self, net: &Network, pos: &Chess, s: usize) {
        let candidates = [Some(s), s.checked_sub(1), s.checked_sub(2)];
        let best = candidates
            .into_iter()
            .flatten()
            .filter(|&c| self.slots[c].valid)
            .map(|c| (diff_count(&self.slots[c], pos), c))
            .min();
        match best {
            Some((0, c)) if c == s => {}
            Some((n, c)) if n <= REFRESH_AFTER => {
                if c != s {
                    let (from, to) = if c < s {
                        let (a, b) = self.slots.split_at_mut(s);
                        (&a[c], &mut b[0])
                    } else {
                        unreachable!("candidates are at or below the slot")
                    };
                    to.acc.copy_from_slice(&from.acc);
                    to.pieces = from.pieces;
                    to.colors = from.colors;
                }
                apply_diff(net, &mut self.slots[s], pos);
            }
            _ => refresh(net, pos, &mut self.slots[s].acc),
        }
        let slot = &mut self.slots[s];
        slot.pieces = pos.pieces;
        slot.colors = pos.colors;
        slot.valid = true;
    }
}

/// Updates a slot's accumulators from its board to `pos`'s.
fn apply_diff(net: &Network, slot: &mut Slot, pos: &Chess) {
    let h = net.hidden;
    for color in 0..2 {
        for kind in 0..6 {
            let old = slot.pieces[kind] & slot.colors[color];
            let new = pos.pieces[kind] & pos.colors[color];
            let code = color * 6 + kind;
            for (bits, adding) in [(old & !new, false), (new & !old, true)] {
                let mut b = bits;
                while b != 0 {
                    let sq = b.trailing_zeros() as usize;
                    b &= b - 1;
                    for p in 0..2 {
                        let column = net.column(Layout::CHESS.index(p, sq, code));
                        let acc = &mut slot.acc[p * h..(p + 1) * h];
                        if adding {
                            crate::nnue::net::add(acc, column);
                        } else {
                            crate::nnue::net::sub(acc, column);
                        }
                    }
                }
            }
        }
    }
}
