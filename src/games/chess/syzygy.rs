//! Syzygy endgame tablebases for chess, probed with the `pyrrhic-rs` crate (MIT), which reads
//! the `.rtbw` (win/draw/loss) and `.rtbz` (distance to zeroing) files. The crate generates
//! moves through [`Adapter`], our own attack tables.
//!
//! The crate keeps one global set of tables, so this module does too: [`set_path`] loads (or
//! unloads) them for the whole process, and every probe reads them under a shared lock. A
//! protocol session takes a [`Hold`] on them instead ([`hold`]): sessions naming the same path
//! share the tables, a session naming another path is refused while they are held (it
//! neither unloads nor replaces another session's tables), and the last hold frees them.
//! Probes answer `None` where the tables cannot: more pieces than the largest table loaded,
//! castling rights left, or no table for the material.
//!
//! WDL values are those of the Syzygy format, for the side to move: −2 loss, −1 loss that the
//! 50-move rule saves (blessed), 0 draw, 1 win that the 50-move rule spoils (cursed), 2 win.

use std::sync::{Mutex, RwLock};

use pyrrhic_rs::{DtzProbeValue, EngineAdapter, Piece, TableBases, WdlProbeResult};

use super::attacks;
use super::position::{BISHOP, KING, KNIGHT, NO_EP, PAWN, QUEEN, ROOK};
use crate::board::{Color, Move, MoveList};
use crate::games::chess::Chess;

/// Our attack tables, as the probing code asks for them (square 0 = a1, bitboards as ours).
#[derive(Clone, Copy, Debug)]
pub struct Adapter;

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let side = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::PAWN[side as usize][square as usize]
    }
    fn knight_attacks(square: u64) -> u64 {
        attacks::KNIGHT[square as usize]
    }
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        attacks::bishop(square as usize, occupied)
    }
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        attacks::rook(square as usize, occupied)
    }
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        attacks::queen(square as usize, occupied)
    }
    fn king_attacks(square: u64) -> u64 {
        attacks::KING[square as usize]
    }
}

/// The loaded tables: the crate's handle, the most pieces they cover, the path they were read
/// from, and how many sessions hold them ([`hold`]).
struct Loaded {
    tables: TableBases<Adapter>,
    largest: u32,
    path: String,
    holders: usize,
}

/// The loaded tables, if any.
static TABLES: RwLock<Option<Loaded>> = RwLock::new(None);
/// Root probes are not safe to run two at once (the crate says so): they take turns.
static ROOT_PROBE: Mutex<()> = Mutex::new(());

fn write_tables() -> std::sync::RwLockWriteGuard<'static, Option<Loaded>> {
    TABLES.write().unwrap_or_else(|e| e.into_inner())
}

/// Whether `path` names no tables (an empty path or `<empty>`).
fn no_path(path: &str) -> bool {
    path.is_empty() || path == "<empty>"
}

/// Loads the tables found in `path` (directories separated by `:`), replacing those loaded
/// before; an empty path or `<empty>` unloads them. Returns the largest number of pieces the
/// tables cover (0 when unloaded). A path without any table file is an error, and leaves
/// nothing loaded.
pub fn set_path(path: &str) -> Result<u32, String> {
    load_into(&mut write_tables(), path.trim())
}

fn load_into(slot: &mut Option<Loaded>, path: &str) -> Result<u32, String> {
    // Free the old tables first: the crate holds one set at a time.
    *slot = None;
    if no_path(path) {
        return Ok(0);
    }
    // The crate stays marked as loaded after a path without tables, so check first; and it
    // reports the most pieces it could probe, not those of the tables: count them here.
    let largest = path
        .split(':')
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rtbw")?;
            let letters = stem.chars().filter(|c| "KQRBNP".contains(*c)).count();
            (stem.starts_with('K') && stem.contains('v')).then_some(letters as u32)
        })
        .max()
        .ok_or_else(|| format!("no Syzygy tables (.rtbw) in '{path}'"))?;
    attacks::init();
    let tables = TableBases::<Adapter>::new(path)
        .map_err(|e| format!("cannot load Syzygy tables from '{path}': {e:?}"))?;
    *slot = Some(Loaded {
        tables,
        largest,
        path: path.to_string(),
        holders: 0,
    });
    Ok(largest)
}

/// A session's hold on the loaded tables ([`hold`]): they stay loaded while any hold does,
/// and are freed with the last.
#[derive(Debug)]
pub struct Hold(());

impl Drop for Hold {
    fn drop(&mut self) {
        let mut tables = write_tables();
        if let Some(loaded) = tables.as_mut() {
            loaded.holders = loaded.holders.saturating_sub(1);
            if loaded.holders == 0 {
                *tables = None;
            }
        }
    }
}

/// A session's `SyzygyPath`: the tables of `path`, shared with every session that named the
/// same path, loaded if none are. The crate holds one set per process, so a different path
/// is refused while another session holds its tables (they are neither unloaded nor
/// replaced); with no holder left they are replaced. An empty path or `<empty>`: none (0).
/// Returns the most pieces the tables cover and the hold that keeps them.
pub fn hold(path: &str) -> Result<(u32, Option<Hold>), String> {
    let path = path.trim();
    if no_path(path) {
        return Ok((0, None));
    }
    let mut tables = write_tables();
    match tables.as_mut() {
        Some(loaded) if loaded.path == path => {
            loaded.holders += 1;
            return Ok((loaded.largest, Some(Hold(()))));
        }
        Some(loaded) if loaded.holders > 0 => {
            return Err(format!(
                "the Syzygy tables of '{}' are in use by another session (one set of tables \
                 per process): '{path}' was not loaded, and this session probes none",
                loaded.path
            ));
        }
        _ => {}
    }
    let largest = load_into(&mut tables, path)?;
    if let Some(loaded) = tables.as_mut() {
        loaded.holders = 1;
    }
    Ok((largest, Some(Hold(()))))
}

/// The largest number of pieces the loaded tables cover (0: none loaded).
pub fn max_pieces() -> u32 {
    TABLES
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .map_or(0, |t| t.largest)
}

/// The bitboards the crate takes, in its order, if the tables can answer for `pos` with at
/// most `limit` pieces (and the tables' largest).
fn probe_args(pos: &Chess, limit: u32, largest: u32) -> Option<[u64; 8]> {
    let pieces = pos.occupied().count_ones();
    if pieces > limit.min(largest) || pos.castling != 0 {
        return None;
    }
    let p = &pos.pieces;
    Some([
        pos.colors[Color::White as usize],
        pos.colors[Color::Black as usize],
        p[KING],
        p[QUEEN],
        p[ROOK],
        p[BISHOP],
        p[KNIGHT],
        p[PAWN],
    ])
}

fn ep_square(pos: &Chess) -> u32 {
    if pos.ep == NO_EP { 0 } else { pos.ep as u32 }
}

fn wdl_value(w: WdlProbeResult) -> i32 {
    match w {
        WdlProbeResult::Loss => -2,
        WdlProbeResult::BlessedLoss => -1,
        WdlProbeResult::Draw => 0,
        WdlProbeResult::CursedWin => 1,
        WdlProbeResult::Win => 2,
    }
}

/// The WDL value of `pos` for the side to move (−2…2, see the module), assuming the 50-move
/// counter at zero; `None` if `pos` has more than `limit` pieces or the tables cannot answer.
pub fn probe_wdl(pos: &Chess, limit: u32) -> Option<i32> {
    // Cheap first: the search asks after every capture.
    if pos.occupied().count_ones() > limit {
        return None;
    }
    let tables = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let Loaded {
        tables, largest, ..
    } = tables.as_ref()?;
    let [w, b, k, q, r, bi, n, p] = probe_args(pos, limit, *largest)?;
    let turn = pos.side == Color::White;
    tables
        .probe_wdl(w, b, k, q, r, bi, n, p, ep_square(pos), turn)
        .ok()
        .map(wdl_value)
}

/// One root move with what the tables say of it, for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// WDL after the move, counting the position's 50-move counter (−2…2).
    pub wdl: i32,
    /// Plies to the next zeroing move after playing this one, signed like `wdl`.
    pub dtz: i32,
}

/// What the DTZ tables say of `pos`: its DTZ (plies to a zeroing move, positive when the side
/// to move wins, negative when it loses, 0 drawn; python-chess's `probe_dtz`) and each legal
/// move's value. `None` where the tables cannot answer or the position has no legal move.
pub fn probe_root(pos: &Chess, limit: u32) -> Option<(i32, Vec<RootMove>)> {
    let tables = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let Loaded {
        tables, largest, ..
    } = tables.as_ref()?;
    let [w, b, k, q, r, bi, n, p] = probe_args(pos, limit, *largest)?;
    let turn = pos.side == Color::White;
    let result = {
        let _turn = ROOT_PROBE.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .probe_root(
                w,
                b,
                k,
                q,
                r,
                bi,
                n,
                p,
                pos.halfmove as u32,
                ep_square(pos),
                turn,
            )
            .ok()?
    };
    let signed = |wdl: i32, dtz: u16| wdl.signum() * dtz as i32;
    let DtzProbeValue::DtzResult(root) = result.root else {
        return None;
    };
    let mut legal = MoveList::new();
    pos.generate(&mut legal);
    let mut moves = Vec::with_capacity(result.num_moves);
    for value in &result.moves[..result.num_moves] {
        let DtzProbeValue::DtzResult(m) = value else {
            continue;
        };
        let promotion = match m.promotion {
            Piece::Queen => Some('q'),
            Piece::Rook => Some('r'),
            Piece::Bishop => Some('b'),
            Piece::Knight => Some('n'),
            _ => None,
        };
        let found = legal.iter().copied().find(|mv| {
            mv.from().index() == m.from_square as usize
                && mv.to().index() == m.to_square as usize
                && mv.kind().promotion_char() == promotion
        });
        let wdl = wdl_value(m.wdl);
        match found {
            Some(mv) => moves.push(RootMove {
                mv,
                wdl,
                dtz: signed(wdl, m.dtz),
            }),
            None => {
                log::warn!("tablebase move {m:?} is not legal in {}", pos.to_fen());
                return None;
            }
        }
    }
    if moves.len() != legal.len() {
        return None;
    }
    // The root's WDL was judged with the position's 50-move counter; its sign is that of the
    // DTZ, whatever the counter.
    Some((signed(wdl_value(root.wdl), root.dtz), moves))
}

/// The DTZ of `pos` (see [`probe_root`]), or `None`.
pub fn probe_dtz(pos: &Chess, limit: u32) -> Option<i32> {
    let mut zeroed = pos.clone();
    zeroed.halfmove = 0;
    probe_root(&zeroed, limit).map(|(dtz, _)| dtz)
}

/// The root moves that keep the tables' verdict, best first by rank, and that verdict (−2…2,
/// cursed wins and blessed losses counting as wins and losses when `rule50` is off): when
/// winning, the moves that reach a zeroing move (mate, capture, pawn move) soonest, so that
/// every move makes progress and the 50-move rule never interferes; when losing, those that
/// hold out longest; when drawn, every drawing move.
pub fn root_moves(pos: &Chess, limit: u32, rule50: bool) -> Option<(Vec<Move>, i32)> {
    let (_, moves) = probe_root(pos, limit)?;
    let class = |m: &RootMove| match m.wdl {
        1 | -1 if !rule50 => 2 * m.wdl,
        w => w,
    };
    let rank = |m: &RootMove| {
        let c = class(m);
        if c > 0 {
            1000 * c - m.dtz.abs()
        } else if c < 0 {
            1000 * c + m.dtz.abs()
        } else {
            0
        }
    };
    let best = moves.iter().map(rank).max()?;
    let verdict = moves.iter().map(class).max()?;
    let kept = moves
        .iter()
        .filter(|m| rank(m) == best)
        .map(|m| m.mv)
        .collect();
    Some((kept, verdict))
}
