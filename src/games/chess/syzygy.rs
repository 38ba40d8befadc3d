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

use super::position::{BISHOP, KING, KNIGHT, NO_EP, PAWN, QUEEN, ROOK};
use super::{attacks, syzygy_files};
use crate::board::{Color, Move, MoveList};
use crate::games::chess::Chess;
use crate::table_error::{SyzygyFileError, TableError};

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
/// from, the files left out of it as damaged ([`checked_folder`]), and how many sessions hold
/// them ([`hold`]). The crate reads its files through `folder`, which goes after it.
struct Loaded {
    tables: TableBases<Adapter>,
    largest: u32,
    path: String,
    left_out: Vec<String>,
    holders: usize,
    _folder: CheckedFolder,
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

/// What a `SyzygyPath` gave: the most pieces its tables cover (0: none) and the files left
/// out as damaged, each named with the reason.
#[derive(Debug, Default)]
pub struct Loading {
    pub largest: u32,
    pub left_out: Vec<String>,
}

/// Loads the tables found in `path` (directories separated by `:`), replacing those loaded
/// before; an empty path or `<empty>` unloads them. Returns the largest number of pieces the
/// tables cover (0 when unloaded). Every table file is checked first
/// ([`syzygy_files::check_file`]); a damaged one is left out (logged; [`hold`] names it to
/// the session), the others are used. A path without any sound table file is an error, and
/// leaves nothing loaded.
pub fn set_path(path: &str) -> Result<u32, TableError> {
    load_into(&mut write_tables(), path.trim()).map(|l| l.largest)
}

fn load_into(slot: &mut Option<Loaded>, path: &str) -> Result<Loading, TableError> {
    // Free the old tables first: the crate holds one set at a time.
    *slot = None;
    if no_path(path) {
        return Ok(Loading::default());
    }
    let (folder, left_out) = checked_folder(path)?;
    // The crate reports the most pieces it could probe, not those of the tables: count them.
    let largest = folder
        .names
        .iter()
        .filter_map(|name| name.strip_suffix(".rtbw"))
        .map(|stem| stem.chars().filter(|c| "KQRBNP".contains(*c)).count() as u32)
        .max()
        .ok_or_else(|| TableError::NoSyzygy {
            path: path.to_string(),
            left_out: left_out.clone(),
        })?;
    attacks::init();
    let dir = folder.dir.to_str().ok_or(TableError::TempFolder {
        reason: String::new(),
    })?;
    let tables = TableBases::<Adapter>::new(dir).map_err(|e| TableError::SyzygyLoad {
        path: path.to_string(),
        reason: format!("{e:?}"),
    })?;
    *slot = Some(Loaded {
        tables,
        largest,
        path: path.to_string(),
        left_out: left_out.clone(),
        holders: 0,
        _folder: folder,
    });
    Ok(Loading { largest, left_out })
}

/// A private folder of links to the table files of a path that passed their check: the
/// crate is given this folder, never the path's own, so it never opens a file that failed.
/// Removed when dropped.
struct CheckedFolder {
    dir: std::path::PathBuf,
    names: Vec<String>,
}

impl Drop for CheckedFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `name` is a Syzygy table file's name (`KQvKR.rtbw`, `KQvKR.rtbz`).
fn table_name(name: &str) -> bool {
    let stem = name
        .strip_suffix(".rtbw")
        .or_else(|| name.strip_suffix(".rtbz"));
    stem.is_some_and(|s| {
        s.starts_with('K') && s.contains('v') && s.chars().all(|c| "KQRBNPv".contains(c))
    })
}

/// Checks every table file of `path` (the first of each name, in the order of the path's
/// folders) and links those that pass into a fresh private folder; the others are named,
/// each with its reason.
fn checked_folder(path: &str) -> Result<(CheckedFolder, Vec<String>), TableError> {
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("kiebitz-syzygy-{}-{serial}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| TableError::TempFolder {
        reason: e.to_string(),
    })?;
    let mut folder = CheckedFolder {
        dir,
        names: Vec::new(),
    };
    let mut left_out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for file in table_files(path) {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !seen.insert(name.clone()) {
            continue;
        }
        match syzygy_files::check_file_once(&file)
            .and_then(|()| link(&file, &folder.dir.join(&name)))
        {
            Ok(()) => folder.names.push(name),
            Err(why) => {
                log::warn!("Syzygy table {} left out: {why}", file.display());
                left_out.push(format!("{} ({why})", file.display()));
            }
        }
    }
    Ok((folder, left_out))
}

/// The table files in the folders of `path`, in the path's order, sorted by name in each.
fn table_files(path: &str) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for dir in path.split(':') {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut here: Vec<_> = entries
            .flatten()
            .filter(|e| e.file_name().to_str().is_some_and(table_name))
            .map(|e| e.path())
            .collect();
        here.sort();
        files.extend(here);
    }
    files
}

/// Links `to` to the checked file `from` (by its absolute path).
fn link(from: &std::path::Path, to: &std::path::Path) -> Result<(), SyzygyFileError> {
    let from = std::fs::canonicalize(from).map_err(SyzygyFileError::io)?;
    #[cfg(unix)]
    let linked = std::os::unix::fs::symlink(&from, to);
    #[cfg(not(unix))]
    let linked = std::fs::copy(&from, to).map(|_| ());
    linked.map_err(|e| SyzygyFileError::Link {
        reason: e.to_string(),
    })
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
/// Returns what was loaded (the files left out named again for each session) and the hold
/// that keeps it.
pub fn hold(path: &str) -> Result<(Loading, Option<Hold>), TableError> {
    let path = path.trim();
    if no_path(path) {
        return Ok((Loading::default(), None));
    }
    let mut tables = write_tables();
    match tables.as_mut() {
        Some(loaded) if loaded.path == path => {
            loaded.holders += 1;
            let loading = Loading {
                largest: loaded.largest,
                left_out: loaded.left_out.clone(),
            };
            return Ok((loading, Some(Hold(()))));
        }
        Some(loaded) if loaded.holders > 0 => {
            return Err(TableError::SyzygyInUse {
                held: loaded.path.clone(),
                path: path.to_string(),
            });
        }
        _ => {}
    }
    let loading = load_into(&mut tables, path)?;
    if let Some(loaded) = tables.as_mut() {
        loaded.holders = 1;
    }
    Ok((loading, Some(Hold(()))))
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
