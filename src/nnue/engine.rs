//! A game's learned evaluation at play, for any game ([`Evaluated`]): the network in use, the
//! `EvalFile` and `Use NNUE` options, and each thread's accumulators.
//!
//! Each game has its own [`Store`] (a static of the game's: the process's network, its
//! generation, its `Use NNUE`, the embedded default if the build has one) and its own
//! thread-local [`Cache`], so chess and each member of the losing family load and evaluate
//! with their own networks. Off, or without a network, [`evaluate`] answers `None` and the
//! game's hand-made evaluation answers. A protocol session has its own [`NetSettings`]
//! (starting from the process's): its `EvalFile` and `Use NNUE` change only its copy, and its
//! search threads [`enter`] it, so that the sessions of one server never evaluate with each
//! other's network. A loaded network is shared read-only (`Arc`) by whoever holds it and
//! freed with the last holder.
//!
//! Accumulators are kept per thread in slots, one per ply of the search's line. Each slot
//! holds the board it was computed for (a bitboard per piece code, [`Sets`]), so it is always
//! exact: to evaluate a position at ply `p`, the slot of `p` is brought to it from whichever
//! of the slots `p`, `p − 1` and `p − 2` differs from it by the fewest pieces (a move changes
//! two to four), or refreshed from scratch when all differ by more than [`REFRESH_AFTER`].
//! So make/unmake needs no hook: the diff of the pieces' bitboards covers castling, en
//! passant, promotions, captures and null moves alike, and a slot left over from another line
//! only costs a larger diff.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Once, RwLock};
use std::thread::LocalKey;

use super::Layout;
use super::NetError;
use super::net::Network;
use crate::engine_option::{GameOption, GameSettings, OptionKind, TextForm};

/// The most piece codes a game may have (the records' four bits).
pub const MAX_CODES: usize = 16;

/// A board as a bitboard per piece code (`colour · kinds + kind`), in the game's own square
/// numbering; codes beyond the game's `2 · kinds` stay empty.
pub type Sets = [u64; MAX_CODES];

/// A diff of more pieces than this refreshes the accumulators instead.
pub const REFRESH_AFTER: u32 = 12;

/// What a game says of its positions for the network: its layout, its pieces, the side to
/// move, and where its network and accumulators live.
pub trait Evaluated: Sized + 'static {
    /// How the pieces become inputs (the same as the records' [`super::data::Pack::LAYOUT`]).
    const LAYOUT: Layout;
    /// Slots per thread: one per ply of the search, the last for evaluations without a ply.
    const SLOTS: usize;
    /// The game's name as its networks record it (`Game::GAME`): a network file tagged with
    /// another game is refused.
    const NET_GAME: &'static str;
    /// Whether files of the first format, which name no game, are taken (chess's, whose
    /// networks were written before the tag).
    const FIRST_FORMAT: bool = false;
    /// The game's network and switch.
    fn store() -> &'static Store;
    /// The game's accumulators, one cache per thread.
    fn cache() -> &'static LocalKey<RefCell<Cache>>;
    /// The pieces of each code (`colour · kinds + kind`) as bitboards of the game's squares.
    fn sets(&self) -> Sets;
    /// The input square (`rank · width + file` on the board) of bit `bit` of [`Self::sets`].
    fn input_square(bit: usize) -> usize;
    /// Whether Black is to move.
    fn black_to_move(&self) -> bool;
}

/// A game's network in the process, its generation (bumped on every change), its `Use NNUE`,
/// and the network built into the binary, if any.
pub struct Store {
    net: RwLock<Option<Arc<Network>>>,
    generation: AtomicU64,
    enabled: AtomicBool,
    embedded_loaded: Once,
    embedded: Option<&'static [u8]>,
}

impl Store {
    /// A store with `embedded` as the default network (installed the first time anything
    /// asks), `Use NNUE` on.
    pub const fn new(embedded: Option<&'static [u8]>) -> Store {
        Store {
            net: RwLock::new(None),
            generation: AtomicU64::new(0),
            enabled: AtomicBool::new(true),
            embedded_loaded: Once::new(),
            embedded,
        }
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Option<Arc<Network>>> {
        self.net.write().unwrap_or_else(|e| e.into_inner())
    }

    fn current(&self) -> Option<Arc<Network>> {
        self.net.read().ok().and_then(|n| n.clone())
    }

    /// Installs the embedded network the first time anything asks.
    fn ensure_embedded(&self, layout: &Layout) {
        self.embedded_loaded.call_once(|| {
            if let Some(bytes) = self.embedded {
                let net = Network::from_bytes(bytes, layout.inputs())
                    .expect("the embedded network is valid");
                *self.write() = Some(Arc::new(net));
                self.generation.fetch_add(1, Relaxed);
            }
        });
    }

    /// Makes `net` the process's network (none: the hand-made evaluation).
    fn replace(&self, layout: &Layout, net: Option<Arc<Network>>) {
        self.ensure_embedded(layout);
        *self.write() = net;
        self.generation.fetch_add(1, Relaxed);
    }
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
pub fn process_settings<G: Evaluated>() -> NetSettings {
    let store = G::store();
    store.ensure_embedded(&G::LAYOUT);
    NetSettings {
        net: store.current(),
        enabled: store.enabled.load(Relaxed),
    }
}

/// Makes `settings` the process's (`bench --option`).
pub fn adopt<G: Evaluated>(settings: &NetSettings) {
    G::store().replace(&G::LAYOUT, settings.net.clone());
    G::store().enabled.store(settings.enabled, Relaxed);
}

/// `layout` in words, for messages (`8×8, 12 piece codes: 768 inputs`).
pub fn describe_layout(layout: &Layout) -> String {
    format!(
        "{}×{}, {} piece codes: {} inputs",
        layout.width,
        layout.height,
        2 * layout.kinds,
        layout.inputs()
    )
}

/// A network of `G`'s shape and game from file bytes: a file tagged with another game is
/// refused, and one that names no game unless `G` takes the first format.
pub fn parse<G: Evaluated>(bytes: &[u8]) -> Result<Network, NetError> {
    let net = Network::from_bytes(bytes, G::LAYOUT.inputs())?;
    match net.game.as_str() {
        "" if G::FIRST_FORMAT => Ok(net),
        "" => Err(NetError::Untagged { game: G::NET_GAME }),
        game if game == G::NET_GAME => Ok(net),
        game => Err(NetError::OtherGame {
            found: game.to_string(),
            game: G::NET_GAME,
        }),
    }
}

/// Reads a network file (`EvalFile`; empty: the embedded network, or none where the build
/// has none): the network and a line saying what it is. Nothing is installed; the error says
/// what is wrong with the file (a network of another game's shape among them).
pub fn read<G: Evaluated>(path: &str) -> Result<(Option<Network>, String), NetError> {
    let net = if path.is_empty() {
        match G::store().embedded {
            Some(bytes) => parse::<G>(bytes)?,
            None => {
                return Ok((
                    None,
                    "NNUE: no network (this build has none built in)".into(),
                ));
            }
        }
    } else {
        let bytes = crate::files::read(std::path::Path::new(path), super::net::MAX_FILE_BYTES)?;
        parse::<G>(&bytes).map_err(|e| NetError::File {
            path: path.to_string(),
            error: Box::new(e),
            layout: describe_layout(&G::LAYOUT),
        })?
    };
    let name = if path.is_empty() { "embedded" } else { path };
    let line = format!("NNUE {name} ({}→{}×2→1)", net.inputs, net.hidden);
    Ok((Some(net), line))
}

/// Loads a network file (`EvalFile`; empty: the embedded network) as the process's. On any
/// error the network in use stays. Returns a line saying what is in use.
pub fn load<G: Evaluated>(path: &str) -> Result<String, NetError> {
    G::store().ensure_embedded(&G::LAYOUT);
    let (net, line) = read::<G>(path)?;
    G::store().replace(&G::LAYOUT, net.map(Arc::new));
    Ok(line)
}

/// Makes `net` the process's network.
pub fn install<G: Evaluated>(net: Network) {
    G::store().replace(&G::LAYOUT, Some(Arc::new(net)));
}

/// Turns the process's network on or off (`Use NNUE`).
pub fn set_enabled<G: Evaluated>(on: bool) {
    G::store().enabled.store(on, Relaxed);
}

/// Whether the process's evaluations come from a network now.
pub fn active<G: Evaluated>() -> bool {
    process_settings::<G>().in_use().is_some()
}

/// What evaluates under `settings`, in words (`info string`).
pub fn describe_settings(settings: &NetSettings) -> String {
    match (settings.enabled, &settings.net) {
        (true, Some(net)) => format!("NNUE on ({}→{}×2→1)", net.inputs, net.hidden),
        (true, None) => "NNUE on, but no network is loaded: the hand-made evaluation".into(),
        (false, _) => "NNUE off: the hand-made evaluation".into(),
    }
}

/// A session's network settings, or the process's where it has none yet.
pub fn session_settings<G: Evaluated>(settings: &GameSettings) -> NetSettings {
    settings
        .get::<NetSettings>()
        .cloned()
        .unwrap_or_else(process_settings::<G>)
}

/// `EvalFile` (a network file; empty: the built-in one, or none) and `Use NNUE` (off: the
/// hand-made evaluation), for the session that sets them ([`NetSettings`]).
pub fn options<G: Evaluated>() -> Vec<GameOption> {
    vec![
        GameOption {
            name: "EvalFile",
            kind: OptionKind::Text {
                default: "",
                form: TextForm::File,
            },
            set: |s, v| {
                let (net, line) = read::<G>(v.text())?;
                let mut net_settings = session_settings::<G>(s);
                net_settings.net = net.map(Arc::new);
                s.set(net_settings);
                Ok(Some(line))
            },
        },
        GameOption {
            name: "Use NNUE",
            kind: OptionKind::Check { default: true },
            set: |s, v| {
                let mut net_settings = session_settings::<G>(s);
                net_settings.enabled = v.on();
                let line = describe_settings(&net_settings);
                s.set(net_settings);
                Ok(Some(line))
            },
        },
    ]
}

/// Makes the network settings in `settings`, if any, those this thread evaluates with.
pub fn enter_settings<G: Evaluated>(settings: &GameSettings) {
    if let Some(s) = settings.get::<NetSettings>() {
        enter::<G>(s);
    }
}

/// Makes the network settings in `settings`, if any, the process's.
pub fn adopt_settings<G: Evaluated>(settings: &GameSettings) {
    if let Some(s) = settings.get::<NetSettings>() {
        adopt::<G>(s);
    }
}

/// Makes `settings` (a session's) those this thread evaluates with from now on; the thread's
/// accumulators are dropped when the network differs from the one they were computed with.
pub fn enter<G: Evaluated>(settings: &NetSettings) {
    let net = settings.in_use();
    G::cache().with(|c| {
        let mut cache = c.borrow_mut();
        cache.entered = true;
        let same = match (&cache.net, &net) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            cache.net = net;
            cache.reset_slots(G::SLOTS);
        }
    });
}

/// One slot: the board it was computed for and its two accumulators (White's perspective,
/// then Black's).
#[derive(Clone)]
struct Slot {
    sets: Sets,
    acc: Vec<i16>,
    valid: bool,
}

/// A thread's slots and the network they were computed with; `entered`: the network is a
/// session's ([`enter`]), not the process's.
pub struct Cache {
    generation: u64,
    net: Option<Arc<Network>>,
    slots: Vec<Slot>,
    entered: bool,
}

impl Cache {
    /// An empty cache (for a game's `thread_local!`).
    pub const fn new() -> Cache {
        Cache {
            generation: u64::MAX,
            net: None,
            slots: Vec::new(),
            entered: false,
        }
    }
}

impl Default for Cache {
    fn default() -> Self {
        Cache::new()
    }
}

/// The evaluation of `pos` for the side to move from the network, using slot `slot`
/// (`None` when the network is off or absent).
#[inline]
pub fn evaluate<G: Evaluated>(pos: &G, slot: usize) -> Option<i32> {
    G::cache().with(|c| {
        let mut cache = c.borrow_mut();
        if !cache.entered {
            let store = G::store();
            if !store.enabled.load(Relaxed) {
                return None;
            }
            store.ensure_embedded(&G::LAYOUT);
            cache.sync(store, G::SLOTS);
        }
        let net = cache.net.clone()?;
        let slot = slot.min(G::SLOTS - 1);
        cache.bring::<G>(&net, pos, slot);
        let acc = &cache.slots[slot].acc;
        Some(output(&net, acc, pos.black_to_move()))
    })
}

/// The network's output from both perspectives' accumulators, for the side to move.
fn output(net: &Network, acc: &[i16], black_to_move: bool) -> i32 {
    let (white, black) = acc.split_at(net.hidden);
    if black_to_move {
        net.output(black, white)
    } else {
        net.output(white, black)
    }
}

/// The evaluation of `pos` by the process's network from a fresh accumulator (for tests).
pub fn evaluate_fresh<G: Evaluated>(pos: &G) -> Option<i32> {
    let store = G::store();
    store.ensure_embedded(&G::LAYOUT);
    let net = store.current()?;
    let mut acc = vec![0i16; 2 * net.hidden];
    refresh::<G>(&net, &pos.sets(), &mut acc);
    Some(output(&net, &acc, pos.black_to_move()))
}

/// The pieces of `sets` as (input square, code).
fn active_pieces<G: Evaluated>(sets: &Sets) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(32);
    let codes = 2 * G::LAYOUT.kinds as usize;
    for (code, &set) in sets.iter().enumerate().take(codes) {
        let mut b = set;
        while b != 0 {
            out.push((G::input_square(b.trailing_zeros() as usize), code));
            b &= b - 1;
        }
    }
    out
}

/// Both perspectives' accumulators of the board `sets` from scratch.
fn refresh<G: Evaluated>(net: &Network, sets: &Sets, acc: &mut [i16]) {
    let (white, black) = acc.split_at_mut(net.hidden);
    let pieces = active_pieces::<G>(sets);
    let layout = &G::LAYOUT;
    net.refresh(
        pieces.iter().map(|&(sq, code)| layout.index(0, sq, code)),
        white,
    );
    net.refresh(
        pieces.iter().map(|&(sq, code)| layout.index(1, sq, code)),
        black,
    );
}

/// The pieces that differ between two boards.
fn diff_count(old: &Sets, new: &Sets, codes: usize) -> u32 {
    old.iter()
        .zip(new)
        .take(codes)
        .map(|(a, b)| (a ^ b).count_ones())
        .sum()
}

impl Cache {
    /// Drops the slots when the process's network changed.
    fn sync(&mut self, store: &Store, slots: usize) {
        let generation = store.generation.load(Relaxed);
        if generation != self.generation {
            self.net = store.current();
            self.generation = generation;
            self.reset_slots(slots);
        }
    }

    /// Fresh slots for the network in `net`.
    fn reset_slots(&mut self, slots: usize) {
        let h = self.net.as_ref().map_or(0, |n| n.hidden);
        let empty = Slot {
            sets: [0; MAX_CODES],
            acc: vec![0; 2 * h],
            valid: false,
        };
        self.slots = vec![empty; slots];
    }

    /// Brings slot `s` to `pos` from the nearest slot, or refreshes it.
    fn bring<G: Evaluated>(&mut self, net: &Network, pos: &G, s: usize) {
        let sets = pos.sets();
        let codes = 2 * G::LAYOUT.kinds as usize;
        let candidates = [Some(s), s.checked_sub(1), s.checked_sub(2)];
        let best = candidates
            .into_iter()
            .flatten()
            .filter(|&c| self.slots[c].valid)
            .map(|c| (diff_count(&self.slots[c].sets, &sets, codes), c))
            .min();
        match best {
            Some((0, c)) if c == s => {}
            Some((n, c)) if n <= REFRESH_AFTER => {
                if c != s {
                    let (below, rest) = self.slots.split_at_mut(s);
                    let (from, to) = (&below[c], &mut rest[0]);
                    to.acc.copy_from_slice(&from.acc);
                    to.sets = from.sets;
                }
                apply_diff::<G>(net, &mut self.slots[s], &sets);
            }
            _ => refresh::<G>(net, &sets, &mut self.slots[s].acc),
        }
        let slot = &mut self.slots[s];
        slot.sets = sets;
        slot.valid = true;
    }
}

/// Updates a slot's accumulators from its board to `sets`.
fn apply_diff<G: Evaluated>(net: &Network, slot: &mut Slot, sets: &Sets) {
    let (h, layout) = (net.hidden, &G::LAYOUT);
    let codes = 2 * layout.kinds as usize;
    for (code, &new) in sets.iter().enumerate().take(codes) {
        let old = slot.sets[code];
        for (bits, adding) in [(old & !new, false), (new & !old, true)] {
            let mut b = bits;
            while b != 0 {
                let sq = G::input_square(b.trailing_zeros() as usize);
                b &= b - 1;
                for p in 0..2 {
                    let column = net.column(layout.index(p, sq, code));
                    let acc = &mut slot.acc[p * h..(p + 1) * h];
                    if adding {
                        super::net::add(acc, column);
                    } else {
                        super::net::sub(acc, column);
                    }
                }
            }
        }
    }
}
