//! Perfect play from checked certificates: the proofs of forced wins and the holds of
//! docs/solved.md, each checked by [`crate::solve::proof::check`] when it is loaded, answer
//! [`crate::game::EndgameTables::certified`] with their move in every position where their side
//! is to move.
//!
//! The engine ships nine: the start's two holds, which make the start a draw, and the seven
//! proofs that Black wins after White's first moves other than 1. e3 (`data/proofs/`, beside
//! this file, with the table made from them). The
//! binary embeds their moves as a table ([`SHIPPED_TABLE`], `data/certified-moves.bin`, made by
//! the test suite from the certificates after it has checked them all, and compared with them
//! byte for byte on every run: docs/solved.md), so a fresh process plays their moves from its
//! first `go`, with no check to wait for. A session adds its own files by the option
//! `ProofFiles` ([`load_files`]), read and checked at once. A file that does not parse or
//! check is refused with the reason and leaves nothing.
//!
//! The store keeps one entry per position (its hash without the clocks, the move and the
//! certificate): 16 bytes, sorted for a binary search. Where two certificates cover a
//! position, a proof's win is kept before a hold's draw.

use std::sync::{Arc, OnceLock};

use super::{Raeuber, VARIANTS};
use crate::board::{Color, Move, MoveList};
use crate::game::{Certified, Game};
use crate::solve::proof::{self, Proof};

/// The certificates the engine ships: name and compact text, in the order they are read
/// (the largest, Black's hold from the start, last). The engine itself carries only their
/// moves ([`SHIPPED_TABLE`]); the tests check them and make the table from them.
#[cfg(test)]
const SHIPPED: [(&str, &[u8]); 9] = [
    (
        "raeuber-start-white-holds",
        include_bytes!("data/proofs/raeuber-start-white-holds.proof"),
    ),
    (
        "raeuber-1a3-black-wins",
        include_bytes!("data/proofs/raeuber-1a3-black-wins.proof"),
    ),
    (
        "raeuber-1b3-black-wins",
        include_bytes!("data/proofs/raeuber-1b3-black-wins.proof"),
    ),
    (
        "raeuber-1c3-black-wins",
        include_bytes!("data/proofs/raeuber-1c3-black-wins.proof"),
    ),
    (
        "raeuber-1d3-black-wins",
        include_bytes!("data/proofs/raeuber-1d3-black-wins.proof"),
    ),
    (
        "raeuber-1f3-black-wins",
        include_bytes!("data/proofs/raeuber-1f3-black-wins.proof"),
    ),
    (
        "raeuber-1Nd3-black-wins",
        include_bytes!("data/proofs/raeuber-1Nd3-black-wins.proof"),
    ),
    (
        "raeuber-1Nf3-black-wins",
        include_bytes!("data/proofs/raeuber-1Nf3-black-wins.proof"),
    ),
    (
        "raeuber-start-black-holds",
        include_bytes!("data/proofs/raeuber-start-black-holds.proof"),
    ),
];

/// One checked certificate: what the store says of it.
#[derive(Clone, Debug)]
struct Cert {
    name: String,
    hold: bool,
    side: Color,
    positions: usize,
    plies: u32,
}

/// Checked certificates, searchable by position.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// (hash of the position, the certificate's move, index into `certs`), sorted by hash,
    /// one entry per hash.
    entries: Vec<(u64, Move, u16)>,
    certs: Vec<Cert>,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Store {
    /// Reads `text` (either proof format), checks it, and adds its moves; `name` names it in
    /// the messages. An error (the reason, with the name) leaves the store as it was.
    pub fn add(&mut self, name: &str, text: &str) -> Result<String, String> {
        let fail = |e: String| format!("{name}: refused: {e}");
        let proof = Proof::parse_any::<Raeuber>(text).map_err(|e| fail(e.to_string()))?;
        let checked = proof::check::<Raeuber>(&proof).map_err(|e| fail(e.to_string()))?;
        let index = u16::try_from(self.certs.len()).map_err(|_| fail("too many files".into()))?;
        let mut entries = Vec::with_capacity(proof.nodes.len());
        for (fen, text) in &proof.nodes {
            let pos = Raeuber::from_fen(VARIANTS[0], fen).map_err(|e| fail(e.to_string()))?;
            let mv = pos.parse_move(text).map_err(|e| fail(e.to_string()))?;
            entries.push((pos.hash(), mv, index));
        }
        let cert = Cert {
            name: name.to_string(),
            hold: proof.hold,
            side: proof.winner,
            positions: checked.positions,
            plies: checked.plies,
        };
        let line = format!("{}: {} ({} moves)", name, cert.claim(), entries.len());
        self.certs.push(cert);
        self.entries.extend(entries);
        let holds: Vec<bool> = self.certs.iter().map(|c| c.hold).collect();
        self.entries
            .sort_by_key(|&(hash, _, i)| (hash, holds[usize::from(i)]));
        self.entries.dedup_by_key(|e| e.0);
        Ok(line)
    }

    /// The number of certificates.
    pub fn len(&self) -> usize {
        self.certs.len()
    }

    /// Whether the store has no certificate.
    pub fn is_empty(&self) -> bool {
        self.certs.is_empty()
    }

    /// The bytes the store's entries take.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<(u64, Move, u16)>()
    }

    /// The certificate's move in `pos`, if one covers it and the move is legal there.
    pub fn lookup(&self, pos: &Raeuber) -> Option<Certified> {
        let hash = pos.hash();
        let at = self.entries.binary_search_by_key(&hash, |e| e.0).ok()?;
        let (_, mv, index) = self.entries[at];
        certified_move(pos, mv, &self.certs[usize::from(index)])
    }

    /// The store as a table of certified moves ([`Table`]): the certificates (name, hold or
    /// proof, side, positions, plies), then the entries sorted by hash (hash, move,
    /// certificate), little-endian.
    pub fn to_table(&self) -> Vec<u8> {
        let mut out = TABLE_MAGIC.to_vec();
        out.push(self.certs.len() as u8);
        for c in &self.certs {
            out.push(c.name.len() as u8);
            out.extend_from_slice(c.name.as_bytes());
            out.extend([u8::from(c.hold), u8::from(c.side == Color::Black)]);
            out.extend((c.positions as u32).to_le_bytes());
            out.extend(c.plies.to_le_bytes());
        }
        out.extend((self.entries.len() as u32).to_le_bytes());
        for &(hash, mv, index) in &self.entries {
            out.extend(hash.to_le_bytes());
            out.extend(mv.0.to_le_bytes());
            out.push(index as u8);
        }
        out
    }
}

/// The certificate `cert`'s move `mv` in `pos`, where it is legal there: its value (a win's
/// distance, a hold's draw) and a note saying where it comes from.
fn certified_move(pos: &Raeuber, mv: Move, cert: &Cert) -> Option<Certified> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if !moves.contains(&mv) {
        return None;
    }
    let value = if cert.hold {
        0
    } else {
        crate::search::MATE - cert.plies as i32
    };
    let note = format!(
        "certified move {} from {}: {}",
        pos.move_text(mv),
        cert.name,
        cert.claim()
    );
    Some(Certified { mv, value, note })
}

impl Cert {
    fn claim(&self) -> String {
        let side = side_name(self.side);
        if self.hold {
            format!(
                "hold, {side} keeps {} from forcing a win (checked, {} positions)",
                side_name(self.side.flip()),
                self.positions
            )
        } else {
            format!(
                "proof, {side} wins (checked, {} positions, lines of at most {} plies)",
                self.positions, self.plies
            )
        }
    }
}

/// The shipped certificates' moves: what [`Store::to_table`] makes of the nine certificates
/// once they are checked (the test `the_shipped_table_is_the_checked_certificates` makes it
/// again and compares).
pub const SHIPPED_TABLE: &[u8] = include_bytes!("data/certified-moves.bin");

/// The first line of a table of certified moves.
const TABLE_MAGIC: &[u8] = b"kiebitz certified moves 1\n";

/// The bytes of one entry of a table: the position's hash, the move, the certificate.
const ENTRY_BYTES: usize = 11;

/// A table of certified moves, read in place: its certificates, and its entries sorted by
/// hash ([`Store::to_table`]).
pub struct Table {
    certs: Vec<Cert>,
    entries: &'static [u8],
}

impl Table {
    /// The table of `bytes` (in the format [`Store::to_table`] writes), or what is wrong.
    fn read(bytes: &'static [u8]) -> Result<Table, String> {
        let mut at = bytes
            .strip_prefix(TABLE_MAGIC)
            .ok_or("not a table of certified moves")?;
        let mut take = |n: usize| -> Result<&'static [u8], String> {
            let (head, rest) = at.split_at_checked(n).ok_or("the table ends early")?;
            at = rest;
            Ok(head)
        };
        let mut certs = Vec::new();
        for _ in 0..take(1)?[0] {
            let len = usize::from(take(1)?[0]);
            let name = String::from_utf8(take(len)?.to_vec()).map_err(|e| e.to_string())?;
            let flags = take(2)?;
            let number = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
            let (positions, plies) = (number(take(4)?), number(take(4)?));
            certs.push(Cert {
                name,
                hold: flags[0] == 1,
                side: if flags[1] == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                positions: positions as usize,
                plies,
            });
        }
        let count = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
        let entries = take(count * ENTRY_BYTES)?;
        if !at.is_empty() {
            return Err("bytes after the table's entries".into());
        }
        Ok(Table { certs, entries })
    }

    /// The certified move in `pos`, if an entry covers it and the move is legal there.
    pub fn lookup(&self, pos: &Raeuber) -> Option<Certified> {
        let hash = pos.hash();
        let count = self.entries.len() / ENTRY_BYTES;
        let entry = |i: usize| &self.entries[i * ENTRY_BYTES..(i + 1) * ENTRY_BYTES];
        let key = |i: usize| u64::from_le_bytes(entry(i)[..8].try_into().expect("8 bytes"));
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if key(mid) < hash {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == count || key(lo) != hash {
            return None;
        }
        let e = entry(lo);
        let mv = Move(u16::from_le_bytes([e[8], e[9]]));
        certified_move(pos, mv, self.certs.get(usize::from(e[10]))?)
    }
}

/// The shipped certificates' table, read on first use (a header: nothing is copied).
pub fn shipped() -> Option<&'static Table> {
    static SHIPPED: OnceLock<Option<Table>> = OnceLock::new();
    SHIPPED
        .get_or_init(|| match Table::read(SHIPPED_TABLE) {
            Ok(table) => Some(table),
            Err(e) => {
                log::error!("the shipped certificates' table: {e}");
                None
            }
        })
        .as_ref()
}

/// Reads and checks the files of `paths` (separated by `:`; empty or `<empty>`: none), for
/// the option `ProofFiles`. Files that fail are named with the reason; an error when none is
/// left (and then nothing changes).
pub fn load_files(paths: &str) -> Result<(Option<Arc<Store>>, String), String> {
    let paths = paths.trim();
    if paths.is_empty() || paths == "<empty>" {
        return Ok((None, "no proof files of this session's own".to_string()));
    }
    let mut store = Store::default();
    let (mut lines, mut refused) = (Vec::new(), Vec::new());
    for path in paths.split(':').filter(|p| !p.trim().is_empty()) {
        let bound = crate::solve::proof::MAX_COMPACT_PROOF_BYTES;
        match crate::files::read_text(std::path::Path::new(path.trim()), bound) {
            Ok(text) => match store.add(path.trim(), &text) {
                Ok(line) => lines.push(line),
                Err(e) => refused.push(e),
            },
            Err(e) => refused.push(format!("{path}: refused: {e}")),
        }
    }
    if store.is_empty() {
        return Err(format!("no proof file checked: {}", refused.join("; ")));
    }
    let mut line = format!("proof files checked: {}", lines.join("; "));
    if !refused.is_empty() {
        line.push_str(&format!("; {}", refused.join("; ")));
    }
    Ok((Some(Arc::new(store)), line))
}

/// The certified move in `pos`: from the session's own files first, then the shipped ones.
pub fn certified(pos: &Raeuber, own: Option<&Store>) -> Option<Certified> {
    own.and_then(|s| s.lookup(pos))
        .or_else(|| shipped()?.lookup(pos))
}

/// Reads and checks the shipped certificates in their order (every one must check: they are
/// the engine's own): the store and a line for each.
#[cfg(test)]
pub(crate) fn load_shipped() -> Result<(Store, Vec<String>), String> {
    let mut store = Store::default();
    let mut lines = Vec::new();
    for (name, bytes) in SHIPPED {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: {e}"))?;
        lines.push(store.add(name, text)?);
    }
    Ok((store, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table the engine ships is the one the nine certificates make once every one of
    /// them is checked (it is made again here and compared byte for byte); and its moves are
    /// the certificates' own. Run with `--ignored write_the_shipped_table` to write it anew
    /// (after a certificate changed), then look at `data/certified-moves.txt`.
    #[test]
    fn the_shipped_table_is_the_checked_certificates() {
        let (store, _) = load_shipped().expect("every shipped certificate checks");
        assert!(
            store.to_table() == SHIPPED_TABLE,
            "data/certified-moves.bin is stale"
        );
        let table = shipped().expect("the table reads");
        let start = Raeuber::startpos(VARIANTS[0]).unwrap();
        let c = table.lookup(&start).expect("the start is covered");
        assert_eq!(Some(c.clone()), store.lookup(&start));
        assert_eq!(c.value, 0, "a hold: a draw");
        let position = |e: &[u8]| e[..8] == store.entries[0].0.to_le_bytes();
        assert!(table.entries.chunks(ENTRY_BYTES).any(position));
    }

    #[test]
    #[ignore = "writes src/games/raeuber/data/certified-moves.bin"]
    fn write_the_shipped_table() {
        let (store, lines) = load_shipped().expect("every shipped certificate checks");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/raeuber/data");
        crate::files::write_bytes(dir.join("certified-moves.bin"), store.to_table()).unwrap();
        eprintln!("{}", lines.join("\n"));
    }

    #[test]
    fn a_proof_gives_its_move_and_a_mate_score_and_a_damaged_one_is_refused() {
        let (_, bytes) = SHIPPED
            .iter()
            .find(|(name, _)| *name == "raeuber-1f3-black-wins")
            .unwrap();
        let text = std::str::from_utf8(bytes).unwrap();
        let mut store = Store::default();
        store.add("f3", text).unwrap();
        let root =
            Raeuber::from_fen(VARIANTS[0], "rqkbnr/pppppp/6/5P/PPPPP1/RQKBNR b - - 0 1").unwrap();
        let c = store.lookup(&root).expect("the proof's root is covered");
        assert_eq!(root.move_text(c.mv), "e5e4");
        assert!(c.value > crate::search::MATE_IN_MAX, "{c:?}");
        assert!(
            c.note.contains("f3") && c.note.contains("black wins"),
            "{}",
            c.note
        );
        // The start is not in this proof.
        assert!(
            store
                .lookup(&Raeuber::startpos(VARIANTS[0]).unwrap())
                .is_none()
        );
        // Its first move changed to another legal one: the check fails, the store is unchanged.
        let damaged = text.replacen("moves e5e4", "moves a5a4", 1);
        let before = store.entries.len();
        let e = store.add("damaged", &damaged).unwrap_err();
        assert!(e.starts_with("damaged: refused"), "{e}");
        assert_eq!((store.len(), store.entries.len()), (1, before));
    }
}
