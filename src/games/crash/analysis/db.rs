//! Exhaustive CRASH! databases: the value and the distance to the end under optimal play of
//! every position with 1 to n white and 1 to n black stones on m cells, either side to move.
//!
//! **Method.** No CRASH! position can repeat (every move carries stones forward), so the game
//! graph is acyclic and a memoised depth-first walk computes exactly what retrograde analysis
//! would: a position without stones for the side to move is lost in 0 plies; otherwise the
//! mover wins if some move leads to a lost position (it picks the quickest such), and loses
//! otherwise (it picks the longest resistance). A distance d in plies says the value too: the
//! side that makes the last move wins, so **d odd = a win for the side to move, d even = a
//! loss**. The walk visits every index of the table, so every position is solved.
//!
//! **Index.** With both sides on the board, list the stones left to right with White's cells
//! as they are and Black's cells minus one: the kw + kb numbers are non-decreasing and lie in
//! 0..m−2, and every such list is exactly one position (White's stones all lie left of Black's).
//! A sorted list of k numbers from V = m−1 values is ranked in the combinatorial number system
//! (c_i = s_i + i, rank = Σ C(c_i, i+1)); the table holds, for each side to move and each
//! (kw, kb) in 1..n × 1..n, a block of C(V+k−1, k) bytes. No byte is wasted.
//!
//! **File** (`--out FILE`, read by `--db FILE`), little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `KBZCRASH` |
//! | 4 | format version (1) |
//! | 1 | n, the most stones a side |
//! | 1 | m, the cells |
//! | 2 | 0 |
//! | 8 | number of entries N |
//! | 8 | FNV-1a 64 checksum of the entries |
//! | N | one byte per position: the distance d in plies (odd: the mover wins) |
//!
//! Depends on `board`, `game` and the position of [`super`]; [`MATE`] from `search::params`; what
//! Ctrl-C prints during [`analyze`] goes to `progress`.

use std::io::{Read, Write};
use std::time::Instant;

use crate::board::{Color, Move, MoveList};
use crate::checksum::fnv1a as fnv;
use crate::game::Game;

/// Why a database cannot be made, written or read: its size (n, m), memory, a file that is not
/// a whole database of this format. `Display` is the sentence the commands print.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DbError {
    /// A board of fewer than 2 or more than 64 cells.
    #[error("--cells {0}: a board has 2 to 64 cells")]
    Cells(usize),
    /// No stones, or more than 15 a side.
    #[error("--n {0}: 1 to 15 stones a side")]
    Stones(usize),
    /// Games longer than a byte's distances hold.
    #[error(
        "n = {n} on {m} cells: games may last {plies} plies, more than a byte holds (2n(m−1) < 255)"
    )]
    TooLong { n: usize, m: usize, plies: usize },
    /// More entries than this machine's addresses.
    #[error("the table is too large")]
    TooLarge,
    /// The table's memory could not be had.
    #[error("cannot allocate {0} bytes for the table")]
    NoMemory(usize),
    /// Writing the file failed.
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
    /// The file cannot be read (missing, a folder or device, unreadable, too big).
    #[error(transparent)]
    File(#[from] crate::FileError),
    /// The entries its header announces cannot be read.
    #[error("{source} (the {total} entries its header announces)")]
    Entries {
        source: crate::FileError,
        total: u64,
    },
    /// What is wrong with the file at `path`.
    #[error("{path}: {source}")]
    In { path: String, source: Box<DbError> },
    /// No `KBZCRASH` magic.
    #[error("not a kiebitz CRASH! database (no KBZCRASH header)")]
    NotADatabase,
    /// A format version this engine does not read.
    #[error("database format version {0}, this engine reads version {VERSION}")]
    Version(u32),
    /// A header whose size (n, m) is no database's.
    #[error("bad header: {0}")]
    Size(Box<DbError>),
    /// A header whose entry count is not its size's.
    #[error("bad header: {total} entries, but n = {n} on {m} cells has {expected}")]
    Count {
        total: u64,
        n: usize,
        m: usize,
        expected: u64,
    },
    /// Fewer entries than the header announces.
    #[error("truncated: {present} of {total} entries present")]
    Truncated { present: u64, total: u64 },
    /// Bytes after the entries.
    #[error("{extra} bytes after the {total} entries: not a database file")]
    Extra { extra: u64, total: u64 },
    /// The checksum does not match the entries.
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
    /// An entry the solver never filled.
    #[error("entry {0} was never solved")]
    Unsolved(usize),
}

impl DbError {
    /// This error, of the file at `path`.
    fn of(self, path: &str) -> DbError {
        DbError::In {
            path: path.to_string(),
            source: Box::new(self),
        }
    }
}

crate::error::sentence_error!(DbError);

use crate::games::crash::Crash;
use crate::search::params::MATE;

const MAGIC: &[u8; 8] = b"KBZCRASH";
const VERSION: u32 = 1;
const HEADER: usize = 32;
/// A table entry not computed yet.
const UNKNOWN: u8 = u8::MAX;

/// Binomial coefficients C(a, b) for a < 160, b < 32 (enough for m ≤ 64, n ≤ 15).
struct Binomial {
    c: Vec<[u64; 32]>,
}

impl Binomial {
    fn new() -> Binomial {
        let mut c = vec![[0u64; 32]; 160];
        for a in 0..160 {
            c[a][0] = 1;
            for b in 1..32 {
                c[a][b] = if a == 0 {
                    0
                } else {
                    c[a - 1][b - 1].saturating_add(c[a - 1][b])
                };
            }
        }
        Binomial { c }
    }

    fn get(&self, a: usize, b: usize) -> u64 {
        self.c[a][b]
    }
}

/// The shape of a database: how many stones a side, how many cells, and where each block
/// (side to move, kw, kb) starts.
pub struct Layout {
    pub n: usize,
    pub m: usize,
    binomial: Binomial,
    /// offsets[side][kw][kb]: first entry of the block; `total`: all entries.
    offsets: Vec<u64>,
    pub total: u64,
}

/// Most stones a side a database may hold (distances must fit a byte: 2n(m−1) < 255).
pub fn check_size(n: usize, m: usize) -> Result<(), DbError> {
    if !(2..=64).contains(&m) {
        return Err(DbError::Cells(m));
    }
    if n == 0 || n > 15 {
        return Err(DbError::Stones(n));
    }
    let plies = 2 * n * (m - 1);
    if plies >= UNKNOWN as usize {
        return Err(DbError::TooLong { n, m, plies });
    }
    Ok(())
}

impl Layout {
    pub fn new(n: usize, m: usize) -> Result<Layout, DbError> {
        check_size(n, m)?;
        let binomial = Binomial::new();
        let v = m - 1;
        let mut offsets = vec![0u64; 2 * (n + 1) * (n + 1)];
        let mut total = 0u64;
        for side in 0..2 {
            for kw in 1..=n {
                for kb in 1..=n {
                    offsets[(side * (n + 1) + kw) * (n + 1) + kb] = total;
                    let k = kw + kb;
                    total += binomial.get(v + k - 1, k);
                }
            }
        }
        Ok(Layout {
            n,
            m,
            binomial,
            offsets,
            total,
        })
    }

    fn offset(&self, side: usize, kw: usize, kb: usize) -> u64 {
        self.offsets[(side * (self.n + 1) + kw) * (self.n + 1) + kb]
    }

    fn block(&self, kw: usize, kb: usize) -> u64 {
        let k = kw + kb;
        self.binomial.get(self.m - 1 + k - 1, k)
    }

    /// Whether `pos` lies in this database (its size, both sides with 1 to n stones).
    pub fn covers(&self, pos: &Crash) -> bool {
        let (w, b) = (
            pos.stones(Color::White) as usize,
            pos.stones(Color::Black) as usize,
        );
        pos.cells() == self.m && (1..=self.n).contains(&w) && (1..=self.n).contains(&b)
    }

    /// The entry of `pos`, which must be covered.
    pub fn index(&self, pos: &Crash) -> u64 {
        let mut rank = 0u64;
        let mut i = 0usize;
        let (mut kw, mut kb) = (0, 0);
        for (cell, &h) in pos.row().iter().enumerate() {
            let s = if h > 0 {
                kw += h as usize;
                cell
            } else if h < 0 {
                kb += h.unsigned_abs() as usize;
                cell - 1
            } else {
                continue;
            };
            for _ in 0..h.unsigned_abs() {
                rank += self.binomial.get(s + i, i + 1);
                i += 1;
            }
        }
        self.offset(pos.side_to_move().index(), kw, kb) + rank
    }

    /// The position of entry `index`.
    pub fn position(&self, index: u64) -> Crash {
        let n = self.n;
        let mut found = None;
        'outer: for side in 0..2 {
            for kw in 1..=n {
                for kb in 1..=n {
                    let start = self.offset(side, kw, kb);
                    if index >= start && index < start + self.block(kw, kb) {
                        found = Some((side, kw, kb, index - start));
                        break 'outer;
                    }
                }
            }
        }
        let (side, kw, kb, mut rank) = found.expect("index inside the table");
        let k = kw + kb;
        let mut stones = vec![0usize; k];
        // Colex unranking: the largest c with C(c, i+1) ≤ rank, from the top element down.
        let mut top = self.m - 1 + k - 1;
        for i in (0..k).rev() {
            let mut c = top;
            while self.binomial.get(c, i + 1) > rank {
                c -= 1;
            }
            rank -= self.binomial.get(c, i + 1);
            stones[i] = c - i;
            top = c.saturating_sub(1);
        }
        let mut row = vec![0i32; self.m];
        for (i, &s) in stones.iter().enumerate() {
            if i < kw {
                row[s] += 1;
            } else {
                row[s + 1] -= 1;
            }
        }
        let mut text: String = row
            .iter()
            .map(|&h| match h {
                0 => ".".to_string(),
                h if h > 0 => format!("W{h}"),
                h => format!("B{}", -h),
            })
            .collect();
        text.push_str(if side == 0 { " w" } else { " b" });
        Crash::parse(&text).expect("a database position is a valid position")
    }
}

/// A solved database in memory.
pub struct Db {
    pub layout: Layout,
    pub dist: Vec<u8>,
}

/// The figures `analyze` reports.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub n: usize,
    pub m: usize,
    pub positions: u64,
    pub wins_for_mover: u64,
    pub longest_win: u8,
    pub longest_win_position: String,
    pub seconds: f64,
    pub peak_memory_mb: f64,
}

/// Peak resident memory of this process in MB (Linux `VmHWM`), 0 where unknown.
pub fn peak_memory_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

impl Db {
    /// Solves every position of (n, m); `progress` is called now and then with the share done.
    pub fn solve(n: usize, m: usize, progress: &mut dyn FnMut(u64, u64)) -> Result<Db, DbError> {
        let layout = Layout::new(n, m)?;
        let size = usize::try_from(layout.total).map_err(|_| DbError::TooLarge)?;
        let mut dist = Vec::new();
        dist.try_reserve_exact(size)
            .map_err(|_| DbError::NoMemory(size))?;
        dist.resize(size, UNKNOWN);
        let mut db = Db { layout, dist };
        let step = (db.layout.total / 100).max(1 << 16);
        for index in 0..db.layout.total {
            if db.dist[index as usize] == UNKNOWN {
                let pos = db.layout.position(index);
                db.walk(&pos);
            }
            if index % step == 0 {
                progress(index, db.layout.total);
            }
        }
        Ok(db)
    }

    /// The distance of `pos` (covered or finished), solving what is not known yet.
    fn walk(&mut self, pos: &Crash) -> u8 {
        if pos.stones(pos.side_to_move()) == 0 {
            return 0;
        }
        let index = self.layout.index(pos) as usize;
        let known = self.dist[index];
        if known != UNKNOWN {
            return known;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let (mut best_win, mut longest_loss) = (u8::MAX, 0u8);
        for &mv in &moves {
            let d = self.walk(&pos.play(mv));
            if d.is_multiple_of(2) {
                best_win = best_win.min(d + 1);
            } else {
                longest_loss = longest_loss.max(d + 1);
            }
        }
        let d = if best_win != u8::MAX {
            best_win
        } else {
            longest_loss
        };
        self.dist[index] = d;
        d
    }

    /// The distance of a position (0 when the side to move has no stones), `None` outside
    /// the database.
    pub fn distance(&self, pos: &Crash) -> Option<u8> {
        if pos.stones(pos.side_to_move()) == 0 && pos.cells() == self.layout.m {
            return Some(0);
        }
        self.layout
            .covers(pos)
            .then(|| self.dist[self.layout.index(pos) as usize])
    }

    /// The optimal moves of a covered position (the quickest wins, or the longest
    /// resistances) and its distance.
    pub fn best_moves(&self, pos: &Crash) -> Option<(Vec<Move>, u8)> {
        let d = self.distance(pos)?;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let best: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let next = pos.play(mv);
                self.distance(&next).is_some_and(|e| e + 1 == d)
            })
            .collect();
        Some((best, d))
    }

    /// The oracle's answer: the first optimal move and its score for the side to move
    /// (`MATE - d` for a win in d plies, `-(MATE - d)` for a loss).
    pub fn best(&self, pos: &Crash) -> Option<(Move, i32)> {
        let (moves, d) = self.best_moves(pos)?;
        let mv = *moves.first()?;
        Some((mv, score(d)))
    }

    /// An optimal line from `pos` to the end of the game.
    pub fn line(&self, pos: &Crash) -> Option<Vec<(Crash, Move)>> {
        let mut line = Vec::new();
        let mut p = pos.clone();
        while p.stones(p.side_to_move()) > 0 && p.stones(p.side_to_move().flip()) > 0 {
            let (mv, _) = self.best(&p)?;
            line.push((p.clone(), mv));
            p = p.play(mv);
        }
        Some(line)
    }

    /// The figures of the solved table.
    pub fn summary(&self, seconds: f64) -> Summary {
        let mut s = Summary {
            n: self.layout.n,
            m: self.layout.m,
            positions: self.layout.total,
            seconds,
            peak_memory_mb: peak_memory_mb(),
            ..Summary::default()
        };
        let mut longest_at = 0;
        for (i, &d) in self.dist.iter().enumerate() {
            if d % 2 == 1 {
                s.wins_for_mover += 1;
                if d > s.longest_win {
                    s.longest_win = d;
                    longest_at = i;
                }
            }
        }
        if s.longest_win > 0 {
            s.longest_win_position = self.layout.position(longest_at as u64).text();
        }
        s
    }

    /// Writes the database file.
    pub fn save(&self, path: &str) -> Result<(), DbError> {
        let write = || -> std::io::Result<()> {
            crate::files::write_whole(std::path::Path::new(path), |f| {
                f.write_all(MAGIC)?;
                f.write_all(&VERSION.to_le_bytes())?;
                f.write_all(&[self.layout.n as u8, self.layout.m as u8, 0, 0])?;
                f.write_all(&self.layout.total.to_le_bytes())?;
                f.write_all(&fnv(&self.dist).to_le_bytes())?;
                f.write_all(&self.dist)
            })
        };
        write().map_err(|e| DbError::Write {
            path: path.to_string(),
            reason: e.to_string(),
        })
    }

    /// Reads a database file, checking its header, size and checksum. The header is read
    /// first: no more is read than the entries it announces (plus one byte to notice extra
    /// ones), so a device or an endless pipe (`--db /dev/zero`) is refused at once.
    pub fn load(path: &str) -> Result<Db, DbError> {
        let file = crate::files::open(std::path::Path::new(path))?;
        let mut reader = std::io::BufReader::new(file);
        let mut bytes = crate::files::read_bounded_from(
            (&mut reader).take(HEADER as u64),
            path,
            HEADER as u64,
        )?;
        let total = Db::header_entries(&bytes).map_err(|e| e.of(path))?;
        let entries = crate::files::read_bounded_from(reader, path, total)
            .map_err(|source| DbError::Entries { source, total })?;
        bytes.extend_from_slice(&entries);
        Db::from_bytes(&bytes).map_err(|e| e.of(path))
    }

    /// The number of entries a file's header announces, after checking its magic, version
    /// and size (n, m, entries) as [`Db::from_bytes`] does.
    fn header_entries(bytes: &[u8]) -> Result<u64, DbError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(DbError::NotADatabase);
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(DbError::Version(version));
        }
        let (n, m) = (bytes[12] as usize, bytes[13] as usize);
        let layout = Layout::new(n, m).map_err(|e| DbError::Size(Box::new(e)))?;
        let total = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        if total != layout.total {
            let expected = layout.total;
            return Err(DbError::Count {
                total,
                n,
                m,
                expected,
            });
        }
        Ok(total)
    }

    /// A database from the bytes of its file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Db, DbError> {
        let total = Db::header_entries(bytes)?;
        let layout = Layout::new(bytes[12] as usize, bytes[13] as usize)?;
        let data = &bytes[HEADER..];
        let present = data.len() as u64;
        if present < total {
            return Err(DbError::Truncated { present, total });
        }
        if present > total {
            let extra = present - total;
            return Err(DbError::Extra { extra, total });
        }
        let sum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        if fnv(data) != sum {
            return Err(DbError::Checksum);
        }
        if let Some(i) = data.iter().position(|&d| d == UNKNOWN) {
            return Err(DbError::Unsolved(i));
        }
        Ok(Db {
            layout,
            dist: data.to_vec(),
        })
    }
}

/// The search score of distance `d` for the side to move.
pub fn score(d: u8) -> i32 {
    if d % 2 == 1 {
        MATE - d as i32
    } else {
        -(MATE - d as i32)
    }
}

/// Solves (n, m) with progress on stderr and returns the database and its summary.
pub fn analyze(n: usize, m: usize, quiet: bool) -> Result<(Db, Summary), DbError> {
    let start = Instant::now();
    let mut last = Instant::now();
    let mut progress = |done: u64, total: u64| {
        if !quiet {
            // What Ctrl-C prints (the shell installs the handler): how far the solve got.
            crate::progress::set_known(format!(
                "analyze n={n} m={m}: the scan had reached entry {done} of {total} ({:.1} %) after {:.1} s; no database written",
                100.0 * done as f64 / total as f64,
                start.elapsed().as_secs_f64()
            ));
        }
        if !quiet && last.elapsed().as_secs_f64() >= 2.0 {
            last = Instant::now();
            eprintln!(
                "analyze n={n} m={m}: {:.1} % of {total} entries ({:.0} s)",
                100.0 * done as f64 / total as f64,
                start.elapsed().as_secs_f64()
            );
        }
    };
    let db = Db::solve(n, m, &mut progress)?;
    let summary = db.summary(start.elapsed().as_secs_f64());
    Ok((db, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance by plain recursion over the rules, independent of the table.
    fn brute(pos: &Crash) -> u8 {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return 0;
        }
        let ds: Vec<u8> = moves.iter().map(|&mv| brute(&pos.play(mv))).collect();
        match ds.iter().filter(|d| d.is_multiple_of(2)).min() {
            Some(d) => d + 1,
            None => ds.iter().max().expect("moves") + 1,
        }
    }

    #[test]
    fn index_is_a_bijection() {
        for (n, m) in [(1, 2), (2, 5), (3, 6)] {
            let l = Layout::new(n, m).unwrap();
            for i in 0..l.total {
                let p = l.position(i);
                assert!(l.covers(&p));
                assert_eq!(l.index(&p), i, "{p:?}");
            }
        }
    }

    #[test]
    fn table_agrees_with_plain_recursion() {
        let (db, s) = analyze(3, 7, true).unwrap();
        assert_eq!(s.positions, db.layout.total);
        for i in (0..db.layout.total).step_by(7) {
            let p = db.layout.position(i);
            assert_eq!(db.dist[i as usize], brute(&p), "{p:?}");
        }
        // The column's example is lost for White.
        let ex = Crash::parse("W2.W1..B3 w").unwrap();
        let db6 = analyze(3, 6, true).unwrap().0;
        assert_eq!(db6.distance(&ex).unwrap() % 2, 0);
    }

    #[test]
    fn file_round_trip_and_bad_files() {
        let (db, _) = analyze(2, 5, true).unwrap();
        let path = std::env::temp_dir().join(format!("kiebitz-crash-{}.db", std::process::id()));
        let path = path.to_str().unwrap();
        db.save(path).unwrap();
        let back = Db::load(path).unwrap();
        assert_eq!(back.dist, db.dist);
        let bytes = std::fs::read(path).unwrap();
        std::fs::remove_file(path).unwrap();
        // Each fault is its own kind, with its data.
        let total = db.layout.total;
        let e = Db::from_bytes(&bytes[..bytes.len() - 3]).err().unwrap();
        assert_eq!(
            e,
            DbError::Truncated {
                present: total - 3,
                total
            }
        );
        assert!(e.to_string().starts_with("truncated"), "{e}");
        assert_eq!(
            Db::from_bytes(&bytes[..10]).err(),
            Some(DbError::NotADatabase)
        );
        assert_eq!(
            Db::from_bytes(b"PK\x03\x04 a zip file, not ours........").err(),
            Some(DbError::NotADatabase)
        );
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert_eq!(Db::from_bytes(&damaged).err(), Some(DbError::Checksum));
        assert_eq!(Layout::new(2, 1).err(), Some(DbError::Cells(1)));
    }
}
