//! Endgame tables for antichess: the exact value of every position with at most three pieces
//! (both colours together), and of the four-piece signatures whose files a folder holds, and
//! the plies to the game's end under perfect play (the winner hurrying, the loser holding
//! out), built in memory from the move generator by the shared retrograde analysis
//! ([`crate::solve::retro`]).
//!
//! The three-piece set is built (or read from one file) at once; a four-piece signature is
//! built by `kiebitz-antichess tables --four` once the signatures its promotions lead to are
//! there ([`promotion_closure`]), written to a file of its own (16.8 MB), and read back with
//! every value checked against its moves one ply down when a set is asked for four pieces.
//!
//! A table covers one material signature (the pieces by colour and kind, both colours
//! present); a position's number is the side to move and the pieces' squares in the
//! signature's order, pieces of one kind in ascending square order, the board mirrored left
//! to right where that puts the first piece on files a–d (antichess has no castling, so a
//! position and its mirror image are worth the same; where both orientations fit, the
//! smaller number counts and the other is no position). Signatures are solved in order of
//! their piece count and, within a count, their pawns: a capture leads to fewer pieces, a
//! promotion to fewer pawns, so every move out of a signature lands in a finished table. A
//! move that leaves an en-passant capture to the other side leaves the table too: that
//! position's moves are all captures, and its value is the best of them. With one colour gone
//! the value needs no table: the side without pieces to move has won; the other side loses
//! in one ply if it has a move.
//!
//! The tables ignore the move clock and repetitions, as the game's draws by them only add
//! draws: the probe's users ([`crate::game::Game::solved`]) take a win or a loss only where
//! the clock leaves room for its plies. Values are stored in a byte: 0 a draw, `1 + d / 2` a
//! win in d plies (always even, d ≤ 252), `128 + (d − 1) / 2` a loss in d plies (always odd,
//! d ≤ 255) ([`pack`]).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::movegen::PAWN_K;
use super::position::{Antichess, NO_EP};
use crate::board::{Color, MoveList};
use crate::engine_option::{Access, SharedSets};
use crate::game::{Game, TableBuilds};
use crate::games::losing::tables::session::{self, Member};
use crate::games::losing::tables::signature::{
    CODES, both_colours, counts_of, key_of, kind_of_letter, letters, pawns,
};
use crate::games::losing::tables::{check, file, worker};
use crate::games::losing::{Board, Eight};
use crate::solve::retro::{self, Child, Node, Slice, better, parent};
use crate::table_error::TableError;

/// The most pieces the tables hold: every signature of up to [`BASE_PIECES`], and the
/// four-piece signatures whose files are in the tables' folder ([`Tables::add_four`]).
pub const MAX_PIECES: u32 = 4;

/// The pieces of the set built (or read from one file) at once: every signature of up to
/// three pieces.
pub const BASE_PIECES: u32 = 3;

/// A signature's name: White's pieces, `v`, Black's, in code order (`PKKvK`, `RKvNK`).
pub fn signature_name(codes: &[u8]) -> String {
    format!(
        "{}v{}",
        letters(codes, 0).collect::<String>(),
        letters(codes, 1).collect::<String>()
    )
}

/// The signature a name stands for (`KRvKN` or any order of the letters, either case), both
/// colours present; the error says what is wrong.
pub fn parse_signature(name: &str) -> Result<Vec<u8>, String> {
    let (white, black) = name
        .split_once(['v', 'V'])
        .ok_or_else(|| format!("signature '{name}': White's pieces, 'v', Black's (e.g. KRvKN)"))?;
    let mut codes = Vec::new();
    for (colour, part) in [(0u8, white), (1, black)] {
        if part.is_empty() {
            return Err(format!("signature '{name}': each side needs a piece"));
        }
        for ch in part.bytes() {
            let kind = kind_of_letter(char::from(ch)).ok_or_else(|| {
                format!(
                    "signature '{name}': '{}' is no piece letter (PNBRQK)",
                    ch as char
                )
            })?;
            codes.push(colour * 6 + kind);
        }
    }
    codes.sort_unstable();
    Ok(codes)
}

/// `codes` and every signature a promotion out of it leads to, again and again: what a table
/// of `codes` needs built before it, fewer pawns first, `codes` last.
pub fn promotion_closure(codes: &[u8]) -> Vec<Vec<u8>> {
    let mut all = vec![codes.to_vec()];
    let mut at = 0;
    while at < all.len() {
        let sig = all[at].clone();
        for (i, &c) in sig.iter().enumerate() {
            if c as usize % 6 != PAWN_K || (i > 0 && sig[i - 1] == c) {
                continue;
            }
            for kind in 1..6u8 {
                let mut next = sig.clone();
                next[i] = c - PAWN_K as u8 + kind;
                next.sort_unstable();
                if !all.contains(&next) {
                    all.push(next);
                }
            }
        }
        at += 1;
    }
    all.sort_by_key(|s| pawns(s));
    all
}

/// The counts of each code on the board.
fn counts_on(pos: &Antichess) -> [u8; CODES] {
    let mut counts = [0u8; CODES];
    let mut occ = pos.occupied();
    while occ != 0 {
        let sq = occ.trailing_zeros() as usize;
        counts[pos.board[sq] as usize] += 1;
        occ &= occ - 1;
    }
    counts
}

/// The positions of one signature: `2 × 32 × 64^(n−1)` numbers.
fn slice_len(n: usize) -> usize {
    2 * 32 * 64usize.pow(n as u32 - 1)
}

/// One signature's values, a byte each.
struct Table {
    codes: Vec<u8>,
    values: Vec<u8>,
    /// Whether its values are checked ([`CHECKED`]), not yet ([`UNCHECKED`], [`CHECKING`]),
    /// or refused ([`REFUSED`]): a four-piece file read by a session is checked the first
    /// time a probe meets it ([`Tables::probe`]).
    state: AtomicU8,
}

/// [`Table::state`]s.
const CHECKED: u8 = 0;
const UNCHECKED: u8 = 1;
const CHECKING: u8 = 2;
const REFUSED: u8 = 3;

/// The value in a byte ([`Table::values`]); `None` beyond what a byte holds. A win is always
/// an even number of plies away (the side with no move wins, one ply after a loss) and a loss
/// an odd number, so the byte holds half the distance: 0 a draw, `1 + d / 2` a win in d plies
/// (d ≤ 252), `128 + (d − 1) / 2` a loss in d plies (d ≤ 255).
fn pack(v: i16) -> Option<u8> {
    match v {
        0 => Some(0),
        1..=253 if v % 2 == 1 => Some(1 + (v as u8 - 1) / 2),
        -256..=-2 if v % 2 == 0 => Some(128 + ((-v - 2) / 2) as u8),
        _ => None,
    }
}

/// The value of a byte ([`pack`]).
fn unpack(b: u8) -> i16 {
    match b {
        0 => 0,
        1..=127 => 2 * i16::from(b) - 1,
        b => -(2 * i16::from(b - 128) + 2),
    }
}

/// The number of `pos` in the table of `codes` (its signature's), over both orientations.
fn number_of(pos: &Antichess, codes: &[u8]) -> usize {
    let side = pos.side.index();
    [0usize, 7]
        .iter()
        .filter_map(|&flip| number_in(pos, codes, side, flip))
        .min()
        .expect("one orientation puts the first piece on files a to d")
}

/// The number of `pos` with its files flipped by `flip` (0 or 7), if that puts the first
/// piece on files a–d.
fn number_in(pos: &Antichess, codes: &[u8], side: usize, flip: usize) -> Option<usize> {
    let mut squares = [0usize; MAX_PIECES as usize];
    let mut at = 0;
    let mut k = 0;
    while k < codes.len() {
        let code = codes[k];
        let group = codes[k..].iter().take_while(|&&c| c == code).count();
        let mut bb = pos.bits.kinds[code as usize % 6] & pos.bits.colors[code as usize / 6];
        let start = at;
        while bb != 0 {
            squares[at] = (bb.trailing_zeros() as usize) ^ flip;
            bb &= bb - 1;
            at += 1;
        }
        squares[start..at].sort_unstable();
        k += group;
    }
    let first = squares[0];
    if first % 8 >= 4 {
        return None;
    }
    let mut number = (first / 8) * 4 + first % 8;
    let mut scale = 32;
    for &sq in &squares[1..codes.len()] {
        number += sq * scale;
        scale *= 64;
    }
    Some(side + 2 * number)
}

/// The position of number `i` of `codes`, if the number stands for one: the squares apart,
/// no pawn on the first or last rank, and the number the position's own.
fn position_of(codes: &[u8], i: usize) -> Option<Antichess> {
    let side = if i & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut rest = i >> 1;
    let first = rest % 32;
    rest /= 32;
    let mut pieces = Vec::with_capacity(codes.len());
    pieces.push((codes[0], (first / 4) * 8 + first % 4));
    for &code in &codes[1..] {
        pieces.push((code, rest % 64));
        rest /= 64;
    }
    let mut occ = 0u64;
    for &(code, sq) in &pieces {
        let bb = 1u64 << sq;
        if occ & bb != 0
            || (code as usize % 6 == PAWN_K
                && (Eight::PROMOTION_RANK[0] | Eight::PROMOTION_RANK[1]) & bb != 0)
        {
            return None;
        }
        occ |= bb;
    }
    let pos = Antichess::from_pieces(side, &pieces);
    (number_of(&pos, codes) == i).then_some(pos)
}

/// The tables of every signature of up to [`BASE_PIECES`] pieces, and of the four-piece
/// signatures added ([`Tables::add_four`], [`Tables::read_fours`]).
pub struct Tables {
    ids: HashMap<u64, usize>,
    tables: Vec<Table>,
    /// Where an unchecked table a probe meets is sent ([`Tables::ready`]).
    checker: Mutex<Option<Sender<usize>>>,
}

impl Tables {
    /// Builds every table of up to `max_pieces` pieces (at most [`BASE_PIECES`]), each on
    /// `threads` threads.
    pub fn build(max_pieces: u32, threads: usize) -> Tables {
        Tables::build_while(max_pieces, threads, &|| true).expect("wanted to the end")
    }

    /// [`Tables::build`], given up (`None`) as soon as `wanted` says no between two
    /// signatures: a set whose sessions have all gone stops costing time.
    pub fn build_while(
        max_pieces: u32,
        threads: usize,
        wanted: &dyn Fn() -> bool,
    ) -> Option<Tables> {
        let mut tables = Tables {
            ids: HashMap::new(),
            tables: Vec::new(),
            checker: Mutex::new(None),
        };
        for n in 2..=max_pieces.min(BASE_PIECES) as usize {
            for codes in both_colours(n) {
                if !wanted() {
                    return None;
                }
                let values = retro::solve(
                    &Builder {
                        codes: &codes,
                        done: &tables,
                    },
                    threads,
                );
                let values = values
                    .iter()
                    .map(|&v| pack(v).expect("three-piece distances fit in a byte"))
                    .collect();
                tables.insert(codes, values);
            }
        }
        Some(tables)
    }

    /// How many positions are won, lost and drawn for the side to move (no positions left
    /// out), over every table.
    pub fn census(&self) -> [u64; 3] {
        let mut census = [0u64; 3];
        for t in &self.tables {
            for (i, &b) in t.values.iter().enumerate() {
                if b == 0 && position_of(&t.codes, i).is_none() {
                    continue;
                }
                census[match unpack(b) {
                    v if v > 0 => 0,
                    v if v < 0 => 1,
                    _ => 2,
                }] += 1;
            }
        }
        census
    }

    /// The bytes the tables take.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.values.len()).sum()
    }

    /// The value of `pos` for its side to move (`d + 1` won in d plies, `-(d + 1)` lost, 0
    /// drawn), ignoring the move clock; `None` for more pieces than the tables hold, and for
    /// a four-piece table not checked yet: the first probe that meets it asks the set's
    /// checker for it ([`Tables::check_requested`]).
    pub fn probe(&self, pos: &Antichess) -> Option<i16> {
        self.probe_as(pos, false)
    }

    /// [`Tables::probe`], taking every table as it is (`raw`: what a check or a build reads).
    fn value(&self, pos: &Antichess) -> Option<i16> {
        self.probe_as(pos, true)
    }

    /// [`Tables::probe`] (`raw` false) or [`Tables::value`].
    fn probe_as(&self, pos: &Antichess, raw: bool) -> Option<i16> {
        let counts = counts_on(pos);
        let (white, black) = (
            counts[..6].iter().sum::<u8>(),
            counts[6..].iter().sum::<u8>(),
        );
        if white == 0 || black == 0 {
            return Some(one_sided(pos));
        }
        if pos.insufficient_material() {
            return Some(0);
        }
        if pos.ep != NO_EP {
            // Every move is a capture: the best of them, one table down.
            let mut moves = MoveList::new();
            pos.moves(&mut moves);
            return moves.iter().try_fold(None, |best: Option<i16>, &mv| {
                let v = parent(self.probe_as(&pos.after(mv), raw)?);
                Some(Some(match best {
                    Some(b) if !better(v, b) => b,
                    _ => v,
                }))
            })?;
        }
        let id = *self.ids.get(&key_of(&counts))?;
        let table = &self.tables[id];
        if !raw && !self.ready(id) {
            return None;
        }
        Some(unpack(table.values[number_of(pos, &table.codes)]))
    }

    /// Whether table `id` is checked; an unchecked one is handed to the set's checker.
    fn ready(&self, id: usize) -> bool {
        let state = &self.tables[id].state;
        match state.load(Ordering::Acquire) {
            CHECKED => true,
            UNCHECKED => {
                let checker = self.checker.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(tx) = checker.as_ref()
                    && state
                        .compare_exchange(UNCHECKED, CHECKING, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                {
                    let _ = tx.send(id);
                }
                false
            }
            _ => false,
        }
    }

    /// Gives the set a checker: the four-piece tables a probe meets unchecked are sent to
    /// `tx`, whose receiver hands them to [`Tables::check_requested`].
    fn set_checker(&self, tx: Sender<usize>) {
        *self.checker.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
    }

    /// Checks table `id` and, first, every table its promotions lead to, each against its
    /// moves one ply down (on one thread, beside the search); a table refused is left out
    /// with the reason on stderr, and so is every table that needs it.
    pub fn check_requested(&self, id: usize) {
        for codes in promotion_closure(&self.tables[id].codes) {
            let Some(&m) = self.ids.get(&key_of(&counts_of(&codes))) else {
                self.tables[id].state.store(REFUSED, Ordering::Release);
                return;
            };
            let t = &self.tables[m];
            match t.state.load(Ordering::Acquire) {
                CHECKED => continue,
                REFUSED => {
                    self.tables[id].state.store(REFUSED, Ordering::Release);
                    return;
                }
                _ => {}
            }
            let verdict = self.verify_table(t);
            if let Err(e) = &verdict {
                eprintln!("endgame table {}: {e}; left out", signature_name(&t.codes));
            }
            t.state.store(
                if verdict.is_ok() { CHECKED } else { REFUSED },
                Ordering::Release,
            );
            if verdict.is_err() {
                self.tables[id].state.store(REFUSED, Ordering::Release);
                return;
            }
        }
    }
}

/// The value of a position with one colour gone: its side to move has no pieces (won: no
/// move), or has a move and loses in one ply (the other side then has none), or is blocked
/// (won).
fn one_sided(pos: &Antichess) -> i16 {
    if pos.occupied_by(pos.side) == 0 || pos.count_moves() == 0 {
        1
    } else {
        -2
    }
}

/// The tables' file in a folder (`Endgame Tables Path`).
pub const FILE: &str = "antichess-3.tables";

/// The file's first line.
const MAGIC: &[u8] = b"kiebitz antichess endgame tables, up to 3 pieces, format 2\n";

impl Tables {
    /// Writes the tables to `path` (the first line, every signature's bytes in the order
    /// they are built, the FNV-1a checksum of those bytes), under a temporary name, then
    /// renamed: a file is there whole or not at all.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::files::write_whole(path, |out| {
            out.write_all(MAGIC)?;
            file::write_summed(out, self.tables.iter().map(|t| &t.values[..]))
        })
    }

    /// Reads tables [`Tables::write`] wrote; a file of another format, cut short or damaged
    /// is refused with the reason. The size is checked before a byte is read, and every value
    /// against its moves one ply down ([`Tables::verify`]): a checksum anyone can recompute
    /// shows a file is whole, not that its values are true.
    pub fn read(path: &Path) -> Result<Tables, TableError> {
        let fail = |why: TableError| TableError::SetFile {
            path: path.display().to_string(),
            why: Box::new(why),
        };
        let all: Vec<Vec<u8>> = (2..=BASE_PIECES as usize).flat_map(both_colours).collect();
        let body: usize = all.iter().map(|c| slice_len(c.len())).sum();
        let data = read_summed(path, MAGIC, body, false).map_err(fail)?;
        let mut tables = Tables {
            ids: HashMap::new(),
            tables: Vec::new(),
            checker: Mutex::new(None),
        };
        let mut at = 0;
        for codes in all {
            let len = slice_len(codes.len());
            tables.insert(codes, data[at..at + len].to_vec());
            at += len;
        }
        tables.verify(2).map_err(fail)?;
        Ok(tables)
    }

    /// Checks every value against the position's moves one ply down, on `threads` threads: a
    /// number that is no position holds 0, and each position's value is the best of its
    /// moves' values (a win where it has no move, a draw where no mate is possible). With the
    /// game's ends right that makes every value exact, by induction on the distance: a value
    /// that agrees with its moves everywhere is the one the retrograde analysis finds.
    pub fn verify(&self, threads: usize) -> Result<(), TableError> {
        let next = AtomicU32::new(0);
        let failed = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    loop {
                        let t = next.fetch_add(1, Ordering::Relaxed) as usize;
                        if t >= self.tables.len() || failed.lock().is_ok_and(|f| f.is_some()) {
                            break;
                        }
                        if let Err(e) = self.verify_table(&self.tables[t]) {
                            *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        }
                    }
                });
            }
        });
        match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// [`Tables::verify`] for one table.
    fn verify_table(&self, t: &Table) -> Result<(), TableError> {
        self.verify_range(t, 0..t.values.len())
    }

    /// [`Tables::verify_table`] for the numbers of `range`.
    fn verify_range(&self, t: &Table, range: std::ops::Range<usize>) -> Result<(), TableError> {
        for i in range {
            let b = t.values[i];
            let (stored, want) = match position_of(&t.codes, i) {
                None => (b, 0),
                Some(pos) => {
                    let want = self.by_moves(&pos);
                    if unpack(b) == want {
                        continue;
                    }
                    (b, pack(want).unwrap_or(0))
                }
            };
            if stored != want {
                let at = position_of(&t.codes, i).map_or("no position".into(), |p| p.to_string());
                return Err(TableError::Contradicted {
                    at,
                    stored: unpack(stored),
                    want: unpack(want),
                });
            }
        }
        Ok(())
    }

    /// The value of `pos` from its moves and the tables' values one ply on ([`check::by_moves`];
    /// a draw where no mate is possible, a child the tables do not hold taken as drawn).
    fn by_moves(&self, pos: &Antichess) -> i16 {
        if pos.insufficient_material() {
            return 0;
        }
        let value = check::by_moves(pos, |child| Some(self.value(child).unwrap_or(0)));
        value.expect("every child has a value")
    }

    /// Whether the table of `codes` is here.
    fn has(&self, codes: &[u8]) -> bool {
        self.ids.contains_key(&key_of(&counts_of(codes)))
    }

    /// Why the table of the four-piece signature `codes` cannot be made or read yet, if it
    /// cannot: not four pieces of both colours, a base table missing, or a signature its
    /// promotions lead to not here.
    fn needs(&self, codes: &[u8]) -> Result<(), TableError> {
        let name = signature_name(codes);
        if codes.len() != 4 || codes.iter().all(|&c| c < 6) || codes.iter().all(|&c| c >= 6) {
            return Err(TableError::NotFour { name });
        }
        if (2..=BASE_PIECES as usize)
            .flat_map(both_colours)
            .any(|s| !self.has(&s))
        {
            return Err(TableError::NoBase { name });
        }
        match promotion_closure(codes)
            .iter()
            .find(|s| s[..] != codes[..] && !self.has(s))
        {
            Some(s) => Err(TableError::NeedsFirst {
                name,
                first: signature_name(s),
            }),
            None => Ok(()),
        }
    }

    /// Builds the table of the four-piece signature `codes` on `threads` threads (once the
    /// tables it leads to are here: the base set and the signatures of its promotions) and
    /// adds it.
    pub fn add_four(&mut self, codes: &[u8], threads: usize) -> Result<(), TableError> {
        self.needs(codes)?;
        let values = retro::solve(&Builder { codes, done: self }, threads);
        let values = values
            .iter()
            .map(|&v| {
                pack(v).ok_or_else(|| TableError::Distance {
                    name: signature_name(codes),
                    plies: v,
                })
            })
            .collect::<Result<Vec<u8>, TableError>>()?;
        self.insert(codes.to_vec(), values);
        Ok(())
    }

    /// The values of the table of `codes`, if it is here.
    fn values_of(&self, codes: &[u8]) -> Option<&[u8]> {
        let id = *self.ids.get(&key_of(&counts_of(codes)))?;
        Some(&self.tables[id].values)
    }

    /// Adds the table of `codes`.
    fn insert(&mut self, codes: Vec<u8>, values: Vec<u8>) {
        self.ids
            .insert(key_of(&counts_of(&codes)), self.tables.len());
        self.tables.push(Table {
            codes,
            values,
            state: AtomicU8::new(CHECKED),
        });
    }
}

/// The `body` bytes of the file at `path` after its first line `magic`: read no further than
/// its size, refused where it is of another format or cut short (`signature`: a four-piece
/// signature's file) or where its checksum ([`file`]) is not theirs.
fn read_summed(
    path: &Path,
    magic: &[u8],
    body: usize,
    signature: bool,
) -> Result<Vec<u8>, TableError> {
    let size = magic.len() + body + file::SUM;
    let mut bytes = crate::files::read(path, size as u64)?;
    if !bytes.starts_with(magic) || bytes.len() != size {
        return Err(TableError::Format { signature });
    }
    if file::unsummed(&bytes[magic.len()..]).is_none() {
        return Err(TableError::Checksum);
    }
    bytes.truncate(magic.len() + body);
    bytes.drain(..magic.len());
    Ok(bytes)
}

/// The file of a four-piece signature's table in the tables' folder.
pub fn four_file(codes: &[u8]) -> String {
    format!("antichess-4-{}.table", signature_name(codes))
}

/// The first line of a four-piece signature's file.
fn four_magic(codes: &[u8]) -> Vec<u8> {
    format!(
        "kiebitz antichess endgame table {}, format 2\n",
        signature_name(codes)
    )
    .into_bytes()
}

impl Tables {
    /// The names of the four-piece signatures here, in the order they were added.
    pub fn four_names(&self) -> Vec<String> {
        let four = self.tables.iter().filter(|t| t.codes.len() == 4);
        four.map(|t| signature_name(&t.codes)).collect()
    }

    /// Writes the table of the four-piece signature `codes` to its file in `dir` (the first
    /// line, the values, their FNV-1a checksum), whole or not at all.
    pub fn write_four(&self, dir: &Path, codes: &[u8]) -> std::io::Result<()> {
        let values = self.values_of(codes).ok_or_else(|| {
            std::io::Error::other(format!("no table of {}", signature_name(codes)))
        })?;
        crate::files::write_whole(&dir.join(four_file(codes)), |out| {
            out.write_all(&four_magic(codes))?;
            file::write_summed(out, [values])
        })
    }

    /// Reads the table of the four-piece signature `codes` from its file in `dir` and adds
    /// it: refused (with the reason) where the tables it leads to are not here, where the
    /// file is of another format, cut short or damaged, or where a value disagrees with its
    /// moves one ply down (every position is checked, on `threads` threads).
    pub fn read_four(
        &mut self,
        dir: &Path,
        codes: &[u8],
        threads: usize,
    ) -> Result<(), TableError> {
        self.read_four_checking(dir, codes, Some(threads))
    }

    /// [`Tables::read_four`], the values checked now on `threads` threads, or (`None`) left
    /// for the set's checker when a probe first meets the table ([`Tables::probe`]).
    fn read_four_checking(
        &mut self,
        dir: &Path,
        codes: &[u8],
        threads: Option<usize>,
    ) -> Result<(), TableError> {
        let path = dir.join(four_file(codes));
        let fail = |why: TableError| TableError::SignatureFile {
            path: path.display().to_string(),
            why: Box::new(why),
        };
        self.needs(codes).map_err(fail)?;
        let data = read_summed(&path, &four_magic(codes), slice_len(4), true).map_err(fail)?;
        // In place, as its positions' moves reach positions of the same table; taken out
        // again where it is refused.
        self.insert(codes.to_vec(), data);
        let added = self.tables.last().expect("just added");
        let Some(threads) = threads else {
            added.state.store(UNCHECKED, Ordering::Release);
            return Ok(());
        };
        if let Err(e) = self.verify_in_parts(added, threads) {
            self.tables.pop();
            self.ids.remove(&key_of(&counts_of(codes)));
            return Err(fail(e));
        }
        Ok(())
    }

    /// Every four-piece file in `dir` ([`four_file`]), read in order of their pawns
    /// ([`Tables::read_four`], checked now on `threads` threads or, with `None`, when a probe
    /// first meets them); returns the lines of the files refused, which are left out (and so
    /// are the files that need them).
    pub fn read_fours(&mut self, dir: &Path, threads: Option<usize>) -> Vec<String> {
        let mut found: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let sig = name.strip_prefix("antichess-4-")?.strip_suffix(".table")?;
                parse_signature(sig).ok().filter(|c| four_file(c) == name)
            })
            .collect();
        found.sort_by_key(|s| (pawns(s), s.clone()));
        found
            .iter()
            .filter_map(|codes| self.read_four_checking(dir, codes, threads).err())
            .map(|e| e.to_string())
            .collect()
    }

    /// [`Tables::verify_table`] of `t` on `threads` threads, each a share of its numbers.
    fn verify_in_parts(&self, t: &Table, threads: usize) -> Result<(), TableError> {
        let threads = threads.max(1);
        let part = t.values.len().div_ceil(threads);
        std::thread::scope(|s| {
            let runs: Vec<_> = (0..threads)
                .map(|k| {
                    s.spawn(move || {
                        self.verify_range(t, k * part..((k + 1) * part).min(t.values.len()))
                    })
                })
                .collect();
            runs.into_iter()
                .try_for_each(|r| r.join().unwrap_or(Err(TableError::CheckFailed)))
        })
    }
}

/// One signature to solve, with the finished tables its moves out of it reach.
struct Builder<'a> {
    codes: &'a [u8],
    done: &'a Tables,
}

impl Slice for Builder<'_> {
    fn size(&self) -> usize {
        slice_len(self.codes.len())
    }

    fn expand(&self, i: usize, children: &mut Vec<Child>) -> Node {
        let Some(pos) = position_of(self.codes, i) else {
            return Node::Absent;
        };
        if pos.insufficient_material() {
            return Node::Decided(0);
        }
        let mut moves = MoveList::new();
        pos.moves(&mut moves);
        if moves.is_empty() {
            return Node::Decided(1);
        }
        let here = pos.occupied().count_ones();
        for &mv in moves.iter() {
            let child = pos.after(mv);
            let same = child.occupied().count_ones() == here
                && child.ep == NO_EP
                && !mv.kind().is_promotion();
            children.push(if same {
                Child::Inside(number_of(&child, self.codes) as u32)
            } else {
                Child::Outside(self.done.value(&child).expect("a smaller table is built"))
            });
        }
        Node::Moves
    }
}

/// The tables a process or its sessions probe: built once (in the background where a
/// search must not wait), then read-only, shared by every session asking for them; the
/// memory a server's pool lent for them goes with the last holder.
pub type Shared = session::Shared<Tables>;

/// What a set is: the folder its file is read from, whether it is written there, and whether
/// the folder's four-piece files are read too.
type Key = (Option<PathBuf>, bool, bool);

/// The sets the sessions hold, one per folder: a session naming another folder does not get
/// a set read from someone else's.
static SESSIONS: SharedSets<Key, Shared> = SharedSets::new();

/// A session's endgame tables (the family's [`session::Hold`]): probe positions of at most
/// `limit` pieces in `set`, read from the folder `dir` (`Endgame Tables Path`); `extra`:
/// whether `set` holds the folder's four-piece tables (`limit` 4).
pub type Hold = session::Hold<Tables>;

impl Member for Tables {
    type Board = Eight;
    type Extra = bool;
    const IN_FOLDER: &'static str = "their file is";
    const OFFERED: u32 = MAX_PIECES;

    fn probe_in(&self, pos: &Antichess) -> Option<i16> {
        self.probe(pos)
    }

    // The process's own set (`solve --tables`, a lone command), its limit and its folder
    // (`solve --tables-dir`); the hold this thread's searches probe (`None`: the process's).
    session::member_holds!(Tables);

    /// The process's tables of up to `max_pieces` pieces (0: off), built now (`builds`
    /// waits) or in the background; the line to report.
    fn use_in_process(max_pieces: u32, builds: TableBuilds) -> Result<String, TableError> {
        check_pieces(max_pieces)?;
        Tables::process().set_limit(max_pieces);
        if max_pieces == 0 {
            return Ok("endgame tables off".to_string());
        }
        if Tables::process().tables().is_some() {
            return Ok(format!("endgame tables of up to {max_pieces} pieces"));
        }
        let dir = Tables::process().dir();
        let fours = max_pieces > BASE_PIECES;
        if builds == TableBuilds::Wait {
            publish_process(obtain(dir, true, (fours, true), &|| true).expect("wanted"));
            return Ok(format!("endgame tables of up to {max_pieces} pieces"));
        }
        worker::spawn(worker::BUILDS, move || {
            publish_process(obtain(dir, true, (fours, false), &|| true).expect("wanted"));
        })?;
        Ok(format!(
            "endgame tables of up to {max_pieces} pieces: being built in the background (about a \
             minute), probed once they are there"
        ))
    }

    /// A session's hold after `Endgame Tables` = `max_pieces`: the set the sessions share,
    /// built in the background by the first, its memory taken from `access`'s pool; the line
    /// to report.
    fn use_in_session(
        mut hold: Hold,
        max_pieces: u32,
        access: &Access,
    ) -> Result<(Hold, String), TableError> {
        check_pieces(max_pieces)?;
        hold.limit = max_pieces;
        if max_pieces == 0 {
            return Ok((hold, "endgame tables off".to_string()));
        }
        let fours = max_pieces > BASE_PIECES;
        if hold.set.is_some() && hold.extra == fours {
            return Ok((hold, format!("endgame tables of up to {max_pieces} pieces")));
        }
        hold.extra = fours;
        let key: Key = (hold.dir.clone(), access.writes, fours);
        let (set, _) = SESSIONS.obtain(key.clone(), || new_set(key, access))?;
        hold.set = Some(set);
        Ok((
            hold,
            format!(
                "endgame tables of up to {max_pieces} pieces: being built in the background \
                 (about a minute), probed once they are there"
            ),
        ))
    }

    /// Where the tables are on, the new folder's set is taken at once (read by the next
    /// build).
    fn retake(
        hold: Hold,
        _held: bool,
        access: &Access,
    ) -> Result<(Hold, Option<String>), TableError> {
        if hold.limit == 0 {
            return Ok((hold, None));
        }
        let limit = hold.limit;
        let (hold, line) = Tables::use_in_session(hold, limit, access)?;
        Ok((hold, Some(line)))
    }
}

/// The line a table build (`how`: built, read and checked) reports on stderr.
fn report(tables: &Tables, how: &str, seconds: f64) -> String {
    let [won, lost, drawn] = tables.census();
    let fours = tables.four_names();
    let fours = match fours.len() {
        0 => String::new(),
        n => format!(" and {n} of four ({})", fours.join(", ")),
    };
    format!(
        "endgame tables of up to {BASE_PIECES} pieces{fours}: {} positions ({won} won, {lost} \
         lost, {drawn} drawn for the side to move), {} MB, {how} in {seconds:.1} s",
        won + lost + drawn,
        tables.bytes() >> 20
    )
}

/// The tables from `dir`'s file where it is there and sound, else built on two threads (and
/// written there where `writes`) while `wanted` says so, and with `fours` the four-piece
/// files of `dir` read (checked now where `check_now`, else when a probe first meets them);
/// what happened goes to stderr.
fn obtain(
    dir: Option<PathBuf>,
    writes: bool,
    (fours, check_now): (bool, bool),
    wanted: &dyn Fn() -> bool,
) -> Option<Tables> {
    let (mut tables, _) = obtain_saying(dir.clone(), writes, wanted)?;
    if let Some(dir) = dir.filter(|_| fours && wanted()) {
        add_fours_saying(&mut tables, &dir, check_now);
    }
    Some(tables)
}

/// The four-piece files of `dir` added to `tables` ([`Tables::read_fours`], checked now on
/// two threads where `check_now`); what happened goes to stderr.
fn add_fours_saying(tables: &mut Tables, dir: &Path, check_now: bool) {
    let start = Instant::now();
    for e in tables.read_fours(dir, check_now.then_some(2)) {
        eprintln!("{e}; left out");
    }
    let names = tables.four_names();
    eprintln!(
        "endgame tables of four pieces from {}: {} read in {:.1} s, {}{}",
        dir.display(),
        names.len(),
        start.elapsed().as_secs_f64(),
        if check_now {
            "checked"
        } else {
            "each checked when a search first meets it"
        },
        if names.is_empty() {
            String::new()
        } else {
            format!(" ({})", names.join(", "))
        }
    );
}

/// The name of the thread that checks the process's four-piece tables as probes meet them.
const CHECKS: &str = "endgame table checks";

/// Makes `tables` the process's own, with a thread that checks the four-piece tables its
/// probes meet unchecked.
fn publish_process(tables: Tables) {
    let (tx, rx) = mpsc::channel();
    tables.set_checker(tx);
    if Tables::process().install(tables) {
        let _ = worker::serve(CHECKS, rx, |id| {
            if let Some(tables) = Tables::process().tables() {
                tables.check_requested(id);
            }
            true
        });
    }
}

/// [`obtain`], and how the tables came: `read and checked` or `built`.
fn obtain_saying(
    dir: Option<PathBuf>,
    writes: bool,
    wanted: &dyn Fn() -> bool,
) -> Option<(Tables, &'static str)> {
    let path = dir.map(|d| d.join(FILE));
    if let Some(path) = path.as_ref().filter(|p| p.exists()) {
        match Tables::read(path) {
            Ok(tables) => {
                eprintln!(
                    "endgame tables of up to {BASE_PIECES} pieces read from {}",
                    path.display()
                );
                return Some((tables, "read and checked"));
            }
            Err(e) => eprintln!("{e}; building them anew"),
        }
    }
    let start = Instant::now();
    let tables = Tables::build_while(BASE_PIECES, 2, wanted)?;
    eprintln!(
        "{}",
        report(&tables, "built", start.elapsed().as_secs_f64())
    );
    if let Some(path) = path.filter(|_| writes) {
        match tables.write(&path) {
            Ok(()) => eprintln!("endgame tables written to {}", path.display()),
            Err(e) => eprintln!("endgame tables not written to {}: {e}", path.display()),
        }
    }
    Some((tables, "built"))
}

/// Write the antichess endgame tables of up to 3 pieces to a folder (antichess-3.tables, read
/// by `Endgame Tables Path` and `solve --tables-dir`) and, with --four, tables of four-piece
/// signatures (antichess-4-<signature>.table each), or check the files there.
///
/// The tables' file is read back (and checked) where it is there, else built and written;
/// with --check, only read and checked; with --sample, positions of the four-piece tables and
/// their values for an independent checker.
#[derive(clap::Parser, Debug)]
#[command(name = "tables")]
struct TablesArgs {
    /// The folder of the tables' files (created if missing).
    #[arg(long)]
    dir: PathBuf,
    /// Four-piece signatures to build and write where their files are not there yet (read and
    /// checked where they are), comma-separated (`KRvKN,PKKvK`: White's pieces, `v`,
    /// Black's), each with the signatures its promotions lead to; `common` for the ones
    /// self-play meets most.
    #[arg(long, value_name = "SIGNATURES")]
    four: Option<String>,
    /// Only read the files and check every value against its moves; nothing is built or
    /// written (exit 1 where one is refused).
    #[arg(long)]
    check: bool,
    /// Print this many random positions of the four-piece tables, each `FEN;value;move=value
    /// …;line` (the value for the side to move: d + 1 won in d plies, −(d + 1) lost, 0 drawn;
    /// each legal move with the value it reaches for the side to move there; the line both
    /// sides play from the tables to the end), for scripts/oracles/antichess_tables_check.py.
    #[arg(long, value_name = "N", default_value_t = 0)]
    sample: usize,
    /// The seed of `--sample`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The four-piece signatures self-play meets most (the most frequent of 42,564 records of
/// antichess self-play at 5,000 nodes a move, 2026-12-05; with `--four common` each comes
/// with the signatures its promotions lead to).
pub const COMMON_FOUR: &[&str] = &[
    "KKvKK", "PKKvK", "BKvPB", "PBvBB", "KKvRK", "PBRvK", "PPKvK", "NRPvK", "BKvNK", "BKvBK",
    "RKvNK", "BPvBK", "NKvNR", "KvPNR", "BPvPB", "PKvPK", "RPKvK", "KvPBK", "NKvNK", "PRvPR",
];

/// The signatures `--four` names, each after those its promotions lead to.
fn four_list(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let names: Vec<&str> = match text.trim() {
        "common" => COMMON_FOUR.to_vec(),
        t => t.split(',').map(str::trim).collect(),
    };
    let mut all: Vec<Vec<u8>> = Vec::new();
    for name in names {
        let codes = parse_signature(name)?;
        if codes.len() != 4 {
            return Err(format!("signature '{name}': four pieces"));
        }
        for sig in promotion_closure(&codes) {
            if !all.contains(&sig) {
                all.push(sig);
            }
        }
    }
    all.sort_by_key(|s| pawns(s));
    Ok(all)
}

/// The `tables` subcommand; the process exit code.
pub fn main(args: &[String]) -> i32 {
    let args: TablesArgs = match crate::limits::parse_args("kiebitz-antichess tables", args) {
        Ok(args) => args,
        Err(code) => return code,
    };
    match run_tables(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tables: {e}");
            1
        }
    }
}

/// [`main`] once the arguments are read.
fn run_tables(args: &TablesArgs) -> Result<i32, String> {
    let start = Instant::now();
    let fours = args.four.as_deref().map(four_list).transpose()?;
    let (mut tables, how) = if args.check {
        let mut tables = Tables::read(&args.dir.join(FILE))?;
        if let Some(e) = tables.read_fours(&args.dir, Some(2)).into_iter().next() {
            return Err(e);
        }
        (tables, "read and checked")
    } else {
        std::fs::create_dir_all(&args.dir)
            .map_err(|e| format!("--dir {}: {e}", args.dir.display()))?;
        obtain_saying(Some(args.dir.clone()), true, &|| true).expect("wanted")
    };
    for codes in fours.iter().flatten() {
        four_from_file_or_built(&mut tables, &args.dir, codes)?;
    }
    let line = report(&tables, how, start.elapsed().as_secs_f64());
    if args.sample > 0 {
        print_sample(&tables, args.sample, args.seed);
    }
    Ok(crate::limits::exit_code(
        crate::limits::out(format_args!("{line}")),
        "tables",
        1,
    ))
}

/// The table of `codes` read from its file in `dir` where it is there and sound, else built
/// on two threads and written there; what happened goes to stderr.
fn four_from_file_or_built(
    tables: &mut Tables,
    dir: &Path,
    codes: &[u8],
) -> Result<(), TableError> {
    let name = signature_name(codes);
    let start = Instant::now();
    if dir.join(four_file(codes)).exists() {
        match tables.read_four(dir, codes, 2) {
            Ok(()) => {
                eprintln!(
                    "{name}: read and checked in {:.1} s",
                    start.elapsed().as_secs_f64()
                );
                return Ok(());
            }
            Err(e) => eprintln!("{e}; building it anew"),
        }
    }
    tables.add_four(codes, 2)?;
    tables
        .write_four(dir, codes)
        .map_err(|e| TableError::NotWritten {
            name: name.clone(),
            dir: dir.display().to_string(),
            reason: e.to_string(),
        })?;
    eprintln!(
        "{name}: built and written in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `count` random positions of the four-piece tables on stdout ([`TablesArgs::sample`]).
fn print_sample(tables: &Tables, count: usize, seed: u64) {
    let fours: Vec<&Table> = tables
        .tables
        .iter()
        .filter(|t| t.codes.len() == 4)
        .collect();
    if fours.is_empty() {
        return;
    }
    let mut rng = crate::rng::Rng::new(seed);
    for _ in 0..count {
        let t = fours[rng.below(fours.len())];
        let pos = loop {
            if let Some(p) = position_of(&t.codes, rng.below(t.values.len())) {
                break p;
            }
        };
        println!("{}", sample_line(tables, &pos));
    }
}

/// A `--sample` line: the FEN, the value, every move with the value it reaches, the line.
fn sample_line(tables: &Tables, pos: &Antichess) -> String {
    let value = tables.value(pos).unwrap_or(0);
    let mut moves = MoveList::new();
    pos.moves(&mut moves);
    let children: Vec<String> = moves
        .iter()
        .map(|&mv| {
            format!(
                "{}={}",
                pos.move_text(mv),
                tables.value(&pos.after(mv)).unwrap_or(0)
            )
        })
        .collect();
    let line: Vec<String> = if value == 0 {
        Vec::new()
    } else {
        table_line(tables, pos)
    };
    format!("{pos};{value};{};{}", children.join(" "), line.join(" "))
}

/// The moves both sides play from the tables until the game ends: the best value each time
/// (the winner's fastest win, the loser's longest defence).
fn table_line(tables: &Tables, start: &Antichess) -> Vec<String> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    while line.len() < 300 {
        let mut moves = MoveList::new();
        pos.moves(&mut moves);
        let best = moves
            .iter()
            .copied()
            .fold(None, |b: Option<(crate::board::Move, i16)>, mv| {
                let v = parent(tables.value(&pos.after(mv)).unwrap_or(0));
                match b {
                    Some((_, bv)) if !better(v, bv) => b,
                    _ => Some((mv, v)),
                }
            });
        let Some((mv, _)) = best else { break };
        line.push(pos.move_text(mv));
        pos = pos.after(mv);
    }
    line
}

/// Checks a requested number of pieces: 0 (off) to [`MAX_PIECES`].
fn check_pieces(max_pieces: u32) -> Result<(), TableError> {
    if max_pieces > MAX_PIECES {
        return Err(TableError::OverAntichess {
            asked: max_pieces,
            most: MAX_PIECES,
        });
    }
    Ok(())
}

/// The MiB the tables of up to three pieces take (a byte a number of every signature).
pub fn megabytes() -> usize {
    (2..=BASE_PIECES as usize)
        .map(|n| both_colours(n).len() * slice_len(n))
        .sum::<usize>()
        .div_ceil(1 << 20)
}

/// The MiB of a set: [`megabytes`], and with `fours` those of the four-piece files in `dir`.
fn set_megabytes(dir: Option<&Path>, fours: bool) -> usize {
    let files = match dir.filter(|_| fours).map(std::fs::read_dir) {
        Some(Ok(entries)) => entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("antichess-4-"))
            .count(),
        _ => 0,
    };
    megabytes() + (files * slice_len(4)).div_ceil(1 << 20)
}

/// A new set for the folder and write right of `key`, its memory taken from `access`'s pool,
/// built (or read) in the background.
fn new_set((dir, writes, fours): Key, access: &Access) -> Result<Arc<Shared>, TableError> {
    let mb = set_megabytes(dir.as_deref(), fours);
    Shared::building(access, mb, move |weak| {
        let wanted = || weak.strong_count() > 0;
        let Some(tables) = obtain(dir, writes, (fours, false), &wanted) else {
            return;
        };
        let (tx, rx) = mpsc::channel();
        tables.set_checker(tx);
        match weak.upgrade() {
            Some(set) => set.publish(tables),
            None => return,
        }
        // The checks the probes ask for, while a session holds the set (the sender goes
        // with the set, and the loop with it).
        worker::drain(rx, |id| {
            session::while_held(&weak, |t| t.check_requested(id))
        });
    })
}

#[cfg(test)]
mod tests {
    use super::super::position::EMPTY;
    use super::*;
    use std::sync::OnceLock;

    fn fen(text: &str) -> Antichess {
        Antichess::read_fen(text).expect("a FEN")
    }

    #[test]
    fn every_number_of_a_signature_is_its_positions_number() {
        for codes in [vec![3u8, 11], vec![0, 6, 6], vec![1, 1, 6]] {
            let mut found = 0;
            for i in 0..slice_len(codes.len()) {
                if let Some(pos) = position_of(&codes, i) {
                    assert_eq!(number_of(&pos, &codes), i);
                    let mirror = Antichess::from_pieces(
                        pos.side,
                        &(0..64)
                            .filter(|&sq| pos.board[sq] != EMPTY)
                            .map(|sq| (pos.board[sq], sq ^ 7))
                            .collect::<Vec<_>>(),
                    );
                    assert_eq!(number_of(&mirror, &codes), i, "{pos} mirrored");
                    found += 1;
                }
            }
            assert!(found > slice_len(codes.len()) / 8, "{codes:?}: {found}");
        }
    }

    #[test]
    fn signatures_have_both_colours_and_fewer_pawns_first() {
        let three = both_colours(3);
        assert_eq!(three.len(), 2 * 6 * 21);
        assert!(three.windows(2).all(|w| {
            let p = |s: &Vec<u8>| s.iter().filter(|&&c| c % 6 == 0).count();
            p(&w[0]) <= p(&w[1])
        }));
        assert_eq!(both_colours(2).len(), 36);
    }

    #[test]
    fn bytes_hold_the_values_they_are_given() {
        for v in [0i16, 1, 5, 127, 131, 253, -2, -4, -128, -132, -256] {
            assert_eq!(unpack(pack(v).expect("fits")), v);
        }
        for b in 0..=255u8 {
            assert_eq!(pack(unpack(b)), Some(b));
        }
        // Beyond a byte, and distances of the wrong parity (no position has them).
        for v in [255i16, -258, 2, -1, -3] {
            assert_eq!(pack(v), None, "{v}");
        }
    }

    /// The tables of up to three pieces, built once for the tests that need them.
    fn three() -> &'static Tables {
        static THREE: OnceLock<Tables> = OnceLock::new();
        THREE.get_or_init(|| Tables::build(3, 2))
    }

    /// Every position of every two-piece table, and every 61st number of every three-piece
    /// one, has the value of the best of its moves (a win with no move), the values of the
    /// positions its moves reach being the tables' own: with the ends right, that makes
    /// every value exact (by induction on the distance).
    #[test]
    fn every_value_is_the_best_of_its_moves() {
        let tables = three();
        for t in &tables.tables {
            let step = if t.codes.len() == 2 { 1 } else { 61 };
            check_table(tables, t, step);
        }
    }

    /// df-pn, another algorithm over the same rules, with no tables: every position it
    /// decides among 60 random three-piece ones has the tables' verdict.
    #[test]
    fn df_pn_agrees_with_the_tables() {
        use crate::solve::pns::{self, Budget, Verdict};
        let tables = three();
        let mut rng = crate::rng::Rng::new(7);
        let mut decided = 0;
        for _ in 0..60 {
            let t = &tables.tables[36 + rng.below(tables.tables.len() - 36)];
            let pos = loop {
                if let Some(p) = position_of(&t.codes, rng.below(t.values.len())) {
                    break p;
                }
            };
            let budget = Budget {
                time: None,
                nodes: Some(200_000),
            };
            let v = unpack(t.values[number_of(&pos, &t.codes)]);
            match pns::solve(&pos, &[], budget, 16).verdict {
                Verdict::Win => assert!(v > 0, "{pos}: df-pn a win, the table {v}"),
                Verdict::Loss => assert!(v < 0, "{pos}: df-pn a loss, the table {v}"),
                Verdict::Draw => assert_eq!(v, 0, "{pos}: df-pn a draw"),
                Verdict::Unknown => continue,
            }
            decided += 1;
        }
        assert!(decided >= 40, "df-pn decided only {decided} of 60");
    }

    fn check_table(tables: &Tables, t: &Table, step: usize) {
        for i in (0..t.values.len()).step_by(step) {
            let Some(pos) = position_of(&t.codes, i) else {
                assert_eq!(t.values[i], 0);
                continue;
            };
            assert_eq!(unpack(t.values[i]), tables.by_moves(&pos), "{pos}");
        }
    }

    #[test]
    fn a_written_file_reads_back_and_a_damaged_one_is_refused() {
        let tables = three();
        let dir =
            std::env::temp_dir().join(format!("kiebitz-antichess-tables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join(FILE);
        tables.write(&path).expect("written");
        let back = Tables::read(&path).expect("read back");
        assert!(
            back.tables
                .iter()
                .zip(&tables.tables)
                .all(|(a, b)| a.codes == b.codes && a.values == b.values)
        );
        let pos = fen("8/8/8/8/3N4/8/8/k6r w - - 0 1");
        assert_eq!(back.probe(&pos), tables.probe(&pos));
        let mut bytes = std::fs::read(&path).expect("the file");
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&path, &bytes).expect("damaged");
        let e = Tables::read(&path).err().expect("refused").to_string();
        assert!(e.contains("checksum"), "{e}");
        std::fs::write(&path, &bytes[..middle]).expect("cut");
        let e = Tables::read(&path).err().expect("refused").to_string();
        assert!(e.contains("cut short"), "{e}");
        // A forged value with its checksum made anew: the lost position claimed won in one.
        let lost = fen("8/8/8/8/8/8/8/kR6 b - - 0 1");
        let forged = forge(tables, &lost, 1);
        std::fs::write(&path, &forged).expect("forged");
        let e = Tables::read(&path).err().expect("refused").to_string();
        assert!(e.contains("contradict"), "{e}");
        // Longer than the format: refused before it is read.
        let long = std::fs::File::create(&path).expect("a file");
        long.set_len(2 << 30).expect("a sparse 2 GiB file");
        let e = Tables::read(&path).err().expect("refused").to_string();
        assert!(e.contains("larger than"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The file of `tables` with the value of `pos` set to `value` and the checksum made anew.
    fn forge(tables: &Tables, pos: &Antichess, value: i16) -> Vec<u8> {
        let mut counts = counts_on(pos);
        let id = tables.ids[&key_of(&counts)];
        counts.fill(0);
        let mut data = Vec::new();
        for (k, t) in tables.tables.iter().enumerate() {
            let mut values = t.values.clone();
            if k == id {
                assert!(
                    unpack(values[number_of(pos, &t.codes)]) < 0,
                    "{pos} is lost"
                );
                values[number_of(pos, &t.codes)] = pack(value).expect("a byte");
            }
            data.extend_from_slice(&values);
        }
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&data);
        bytes.extend_from_slice(&crate::checksum::fnv1a(&data).to_le_bytes());
        bytes
    }

    /// Sessions naming one folder share one set; a session naming another folder gets a set
    /// of its own (before, every session got the first session's set, read from its folder):
    /// under a pool with room for one set, the second folder's is refused.
    #[test]
    fn sessions_share_a_set_only_with_the_same_folder() {
        use crate::engine_option::MemoryPool;
        use std::sync::atomic::{AtomicUsize, Ordering};
        struct Pool(AtomicUsize);
        impl MemoryPool for Pool {
            fn take(&self, mb: usize) -> bool {
                let f = |free: usize| free.checked_sub(mb);
                self.0
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, f)
                    .is_ok()
            }
            fn give_back(&self, mb: usize) {
                self.0.fetch_add(mb, Ordering::SeqCst);
            }
        }
        let pool = Arc::new(Pool(AtomicUsize::new(megabytes() + 10)));
        let access = Access {
            writes: false,
            memory: Some(Arc::clone(&pool) as Arc<dyn MemoryPool>),
        };
        let at = |dir: &str| Hold {
            dir: Some(PathBuf::from(dir)),
            ..Hold::default()
        };
        let (a, _) = Tables::use_in_session(at("/kiebitz-no-folder/a"), 3, &access).unwrap();
        let (b, _) = Tables::use_in_session(at("/kiebitz-no-folder/a"), 3, &access).unwrap();
        assert!(Arc::ptr_eq(
            a.set.as_ref().unwrap(),
            b.set.as_ref().unwrap()
        ));
        let other = Tables::use_in_session(at("/kiebitz-no-folder/b"), 3, &access);
        let e = other
            .err()
            .expect("another folder's set does not fit")
            .to_string();
        assert!(e.contains("MiB"), "{e}");
        drop((a, b));
        assert_eq!(
            pool.0.load(Ordering::SeqCst),
            megabytes() + 10,
            "given back"
        );
    }

    #[test]
    fn known_endings_have_their_values() {
        let tables = Tables::build(2, 2);
        assert_eq!(tables.tables.len(), 36);
        // A rook against a king, the king to move next to the rook: it must take it and
        // then has no piece left.
        assert_eq!(tables.probe(&fen("8/8/8/8/8/8/8/kR6 b - - 0 1")), Some(-2));
        // White to move with no piece: won at once.
        assert_eq!(tables.probe(&fen("8/8/8/8/8/8/8/k7 w - - 0 1")), Some(1));
        // Opposite bishops: a draw.
        assert_eq!(tables.probe(&fen("8/8/8/8/8/8/8/bB6 w - - 0 1")), Some(0));
        assert_eq!(tables.probe(&fen("8/8/8/8/8/8/1k6/KQ6 w - - 0 1")), None);
    }
}
