//! Perfect play from checked certificates: the proofs of forced wins and the holds of
//! docs/solved.md, each checked by [`crate::solve::proof::check`] when it is loaded, answer
//! [`crate::game::EndgameTables::certified`] with their move in every position where their side
//! is to move.
//!
//! The engine ships nine (embedded in the binary): the start's two holds, which make the start a
//! draw, and the seven proofs that Black wins after White's first moves other than 1. e3. They
//! are read and checked once per process, in a background thread that the first protocol or
//! web session starts ([`start_loading`]), each one used as soon as it is checked; until then
//! the search plays as before. A
//! session adds its own files by the option `ProofFiles` ([`load_files`]), read and checked at
//! once. A file that does not parse or check is refused with the reason and leaves nothing.
//!
//! The store keeps one entry per position (its hash without the clocks, the move and the
//! certificate): 16 bytes, sorted for a binary search. Where two certificates cover a
//! position, a proof's win is kept before a hold's draw.

use std::sync::{Arc, Once, RwLock};
use std::time::Instant;

use super::{Raeuber, VARIANTS};
use crate::board::{Color, Move, MoveList};
use crate::game::{Certified, Game};
use crate::solve::proof::{self, Proof};

/// The certificates the engine ships: name and compact text, in the order they are read
/// (the largest, Black's hold from the start, last).
const SHIPPED: [(&str, &[u8]); 9] = [
    (
        "raeuber-start-white-holds",
        include_bytes!("../../../tests/data/proofs/raeuber-start-white-holds.proof"),
    ),
    (
        "raeuber-1a3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1a3-black-wins.proof"),
    ),
    (
        "raeuber-1b3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1b3-black-wins.proof"),
    ),
    (
        "raeuber-1c3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1c3-black-wins.proof"),
    ),
    (
        "raeuber-1d3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1d3-black-wins.proof"),
    ),
    (
        "raeuber-1f3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1f3-black-wins.proof"),
    ),
    (
        "raeuber-1Nd3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1Nd3-black-wins.proof"),
    ),
    (
        "raeuber-1Nf3-black-wins",
        include_bytes!("../../../tests/data/proofs/raeuber-1Nf3-black-wins.proof"),
    ),
    (
        "raeuber-start-black-holds",
        include_bytes!("../../../tests/data/proofs/raeuber-start-black-holds.proof"),
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
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            return None;
        }
        let cert = &self.certs[usize::from(index)];
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

static LOADED: RwLock<Option<Arc<Store>>> = RwLock::new(None);
static START: Once = Once::new();

/// Reads and checks the shipped certificates in their order (every one must check: they are
/// the engine's own), handing `publish` the store after each one, with a line for each and
/// the time taken.
pub fn load_shipped(mut publish: impl FnMut(&Store)) -> Result<Vec<String>, String> {
    let start = Instant::now();
    let mut store = Store::default();
    let mut lines = Vec::new();
    for (name, bytes) in SHIPPED {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("{name}: {e}"))?;
        lines.push(store.add(name, text)?);
        publish(&store);
    }
    lines.push(format!(
        "{} shipped certificates read and checked in {:.1} s: {} positions' moves, {:.1} MB",
        store.len(),
        start.elapsed().as_secs_f64(),
        store.entries.len(),
        store.bytes() as f64 / 1e6
    ));
    Ok(lines)
}

/// Starts reading and checking the shipped certificates in a background thread, once per
/// process; [`shipped`] has each one as soon as it is checked (the start's White hold and the
/// proofs within seconds, Black's hold last).
pub fn start_loading() {
    START.call_once(|| {
        let spawned = std::thread::Builder::new()
            .name("certificates".into())
            .spawn(|| {
                let publish = |store: &Store| {
                    let mut loaded = LOADED.write().unwrap_or_else(|e| e.into_inner());
                    *loaded = Some(Arc::new(store.clone()));
                };
                match load_shipped(publish) {
                    Ok(lines) => lines.iter().for_each(|l| log::info!("{l}")),
                    Err(e) => log::error!("the shipped certificates: {e}"),
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot start reading the shipped certificates: {e}");
        }
    });
}

/// The shipped certificates checked so far ([`start_loading`]).
pub fn shipped() -> Option<Arc<Store>> {
    LOADED.read().unwrap_or_else(|e| e.into_inner()).clone()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_gives_its_move_and_a_mate_score_and_a_damaged_one_is_refused() {
        let (_, bytes) = SHIPPED
            .iter()
            .find(|(name, _)| *name == "raeuber-1f3-black-wins")
            .unwrap();
        let text = std::str::from_utf8(bytes).unwrap();
        let mut store = Store::default();
        store.add("f3", text).unwrap();
        let root = Raeuber::from_fen(VARIANTS[0], "rqkbnr/pppppp/6/5P/PPPPP1/RQKBNR b - - 0 1")
            .unwrap();
        let c = store.lookup(&root).expect("the proof's root is covered");
        assert_eq!(root.move_text(c.mv), "e5e4");
        assert!(c.value > crate::search::MATE_IN_MAX, "{c:?}");
        assert!(c.note.contains("f3") && c.note.contains("black wins"), "{}", c.note);
        // The start is not in this proof.
        assert!(store.lookup(&Raeuber::startpos(VARIANTS[0]).unwrap()).is_none());
        // Its first move changed to another legal one: the check fails, the store is unchanged.
        let damaged = text.replacen("moves e5e4", "moves a5a4", 1);
        let before = store.entries.len();
        let e = store.add("damaged", &damaged).unwrap_err();
        assert!(e.starts_with("damaged: refused"), "{e}");
        assert_eq!((store.len(), store.entries.len()), (1, before));
    }
}
