//! Checkpoints of a df-pn attempt on disk, so that a solve of hours survives a restart
//! (`solve --checkpoint DIR`, [`super::pns::Checkpoints`]).
//!
//! A df-pn search keeps all it knows in its transposition table: the line it is on is rebuilt
//! from the table in a few steps. A checkpoint is therefore the table's occupied entries
//! (key, φ, δ, work: four little-endian `u64`) after a header that names what they are about:
//!
//! ```text
//! KIEBITZ-DFPN 1
//! variant=raeuberschach attacker=white weak=1 ghi=0 eval=0 nodes=123456789 entries=42 history=9f…
//! root=rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1
//! <entries × 32 bytes>
//! ```
//!
//! A checkpoint is read back only for the same question (variant, root position, the game's
//! history before it, attacker, counting options): anything else is refused with the reason,
//! and the file stays as it is. The table's entries are only hints — every proof is checked
//! by the move generator before it is reported — so a table carried over cannot make a wrong
//! result, only a slower or faster search. Files are written to a temporary name and renamed,
//! so a crash while writing leaves the previous checkpoint whole.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// Why a checkpoint (df-pn's here, the win/draw/loss solver's in `wdl_checkpoint`) cannot be
/// written or read back. `Display` is the sentence the solvers print.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Writing the file failed.
    #[error("cannot write the checkpoint {path}: {reason}")]
    Write { path: String, reason: String },
    /// The file is there but cannot be opened (a folder, a device, no permission).
    #[error("the checkpoint: {0}")]
    Open(crate::FileError),
    /// A df-pn checkpoint of another search, damaged or cut short: why.
    #[error("the checkpoint {path} cannot be used: {why}")]
    Unusable { path: String, why: String },
    /// A win/draw/loss checkpoint of another position, damaged or cut short: why.
    #[error("the checkpoint {path} is refused: {why}")]
    Refused { path: String, why: String },
}

crate::error::sentence_error!(CheckpointError, string only);

/// The first line of every checkpoint file.
const MAGIC: &str = "KIEBITZ-DFPN 1";
/// Bytes of one entry.
const RECORD: usize = 32;

/// What a checkpoint is about: a checkpoint of another question is never read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub variant: String,
    pub root: String,
    /// A hash of the game's positions before the root (repetitions depend on them).
    pub history: u64,
    /// `white` or `black`: whose win the attempt looks for.
    pub attacker: String,
    pub weak: bool,
    pub ghi_safe: bool,
    pub eval_init: bool,
}

impl Identity {
    /// The hash of a history of position hashes (FNV-1a over the words).
    pub fn history_hash(history: &[u64]) -> u64 {
        history.iter().fold(0xcbf2_9ce4_8422_2325, |h, &k| {
            (h ^ k).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    fn header(&self, nodes: u64, entries: u64) -> String {
        format!(
            "{MAGIC}\nvariant={} attacker={} weak={} ghi={} eval={} nodes={nodes} entries={entries} history={:016x}\nroot={}\n",
            self.variant,
            self.attacker,
            u8::from(self.weak),
            u8::from(self.ghi_safe),
            u8::from(self.eval_init),
            self.history,
            self.root
        )
    }
}

/// The file of an attempt's checkpoint in `dir`.
pub fn path(dir: &Path, attacker: &str) -> PathBuf {
    dir.join(format!("{attacker}.dfpn"))
}

/// Writes the entries (key, φ, δ, work) as the checkpoint of `id` after `nodes` expanded
/// positions, through a temporary file.
pub fn save(
    file: &Path,
    id: &Identity,
    nodes: u64,
    count: u64,
    entries: impl Iterator<Item = [u64; 4]>,
) -> Result<(), CheckpointError> {
    crate::files::write_whole(file, |out| {
        out.write_all(id.header(nodes, count).as_bytes())?;
        let mut written = 0u64;
        for record in entries {
            for word in record {
                out.write_all(&word.to_le_bytes())?;
            }
            written += 1;
        }
        debug_assert_eq!(
            written, count,
            "the entries counted and the entries written"
        );
        Ok(())
    })
    .map_err(|e| CheckpointError::Write {
        path: file.display().to_string(),
        reason: e.to_string(),
    })
}

/// Reads the checkpoint in `file` if there is one: the positions expanded before and the
/// entries, each given to `put`. Refuses (with the reason) a file of another question, or
/// one that is damaged or cut short.
pub fn load(
    file: &Path,
    id: &Identity,
    infinite: u64,
    mut put: impl FnMut([u64; 4]),
) -> Result<Option<u64>, CheckpointError> {
    let handle = match crate::files::open(file) {
        Ok(f) => f,
        Err(crate::FileError::NotFound { .. }) => return Ok(None),
        Err(e) => return Err(CheckpointError::Open(e)),
    };
    let bad = |why: &str| CheckpointError::Unusable {
        path: file.display().to_string(),
        why: why.to_string(),
    };
    let mut input = BufReader::with_capacity(1 << 20, handle);
    let mut line = |what: &str| -> Result<String, CheckpointError> {
        let mut text = String::new();
        input
            .by_ref()
            .take(1 << 16)
            .read_line(&mut text)
            .map_err(|e| bad(&format!("{what}: {e}")))?;
        text.strip_suffix('\n')
            .map(str::to_string)
            .ok_or_else(|| bad(&format!("the {what} line is missing or cut short")))
    };
    if line("first")? != MAGIC {
        return Err(bad(&format!("it does not start with '{MAGIC}'")));
    }
    let fields = line("header")?;
    let root = line("root")?;
    let field = |key: &str| -> Result<&str, CheckpointError> {
        fields
            .split(' ')
            .find_map(|f| f.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
            .ok_or_else(|| bad(&format!("no '{key}' in its header")))
    };
    let number = |key: &str| -> Result<u64, CheckpointError> {
        field(key)?
            .parse::<u64>()
            .map_err(|_| bad(&format!("'{key}' is not a number")))
    };
    let found = Identity {
        variant: field("variant")?.to_string(),
        root: root
            .strip_prefix("root=")
            .ok_or_else(|| bad("no root position"))?
            .to_string(),
        history: u64::from_str_radix(field("history")?, 16)
            .map_err(|_| bad("'history' is not a hexadecimal number"))?,
        attacker: field("attacker")?.to_string(),
        weak: field("weak")? == "1",
        ghi_safe: field("ghi")? == "1",
        eval_init: field("eval")? == "1",
    };
    if found != *id {
        return Err(bad(&format!(
            "it is of another search ({}), not this one ({}); give another directory or remove it",
            describe(&found),
            describe(id)
        )));
    }
    let nodes = number("nodes")?;
    let count = number("entries")?;
    let mut record = [0u8; RECORD];
    for i in 0..count {
        input
            .read_exact(&mut record)
            .map_err(|_| bad(&format!("it ends after {i} of its {count} entries")))?;
        let word = |k: usize| u64::from_le_bytes(record[8 * k..8 * k + 8].try_into().unwrap());
        let entry = [word(0), word(1), word(2), word(3)];
        if !numbers_are_sound(entry[1], entry[2], infinite) {
            return Err(bad(&format!(
                "entry {} has proof and disproof numbers ({}, {}) that no search makes",
                i + 1,
                entry[1],
                entry[2]
            )));
        }
        put(entry);
    }
    if input.read(&mut record).map_err(|e| bad(&e.to_string()))? != 0 {
        return Err(bad(&format!("it has more than its {count} entries")));
    }
    Ok(Some(nodes))
}

/// Whether (φ, δ) can be a df-pn entry: both within 0…∞, a proof (φ = 0) disproves nothing
/// (δ = ∞) and the other way round.
fn numbers_are_sound(phi: u64, delta: u64, infinite: u64) -> bool {
    phi <= infinite
        && delta <= infinite
        && (phi != 0 || delta == infinite)
        && (delta != 0 || phi == infinite)
}

fn describe(id: &Identity) -> String {
    format!(
        "{}'s win in {} from '{}', history {:016x}, weak {}, ghi-safe {}, eval {}",
        id.attacker,
        id.variant,
        id.root,
        id.history,
        u8::from(id.weak),
        u8::from(id.ghi_safe),
        u8::from(id.eval_init)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF: u64 = 1 << 62;

    /// Why a checkpoint is refused: the error must be [`CheckpointError::Unusable`].
    fn why(e: CheckpointError) -> String {
        match e {
            CheckpointError::Unusable { why, .. } => why,
            e => panic!("not refused as unusable: {e}"),
        }
    }

    fn id() -> Identity {
        Identity {
            variant: "toy".into(),
            root: "a b c".into(),
            history: Identity::history_hash(&[1, 2, 3]),
            attacker: "white".into(),
            weak: true,
            ghi_safe: false,
            eval_init: false,
        }
    }

    #[test]
    fn a_checkpoint_reads_back_what_was_written_and_refuses_other_questions() {
        let dir = std::env::temp_dir().join(format!("kiebitz-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = path(&dir, "white");
        let entries = vec![[1u64, 2, 3, 4], [u64::MAX, 0, 1 << 62, 7]];
        save(&file, &id(), 99, 2, entries.iter().copied()).unwrap();
        let mut read = Vec::new();
        assert_eq!(load(&file, &id(), INF, |r| read.push(r)), Ok(Some(99)));
        assert_eq!(read, entries);
        // Another attacker, another history: refused, the file left as it is.
        let other = Identity {
            attacker: "black".into(),
            ..id()
        };
        let err = why(load(&file, &other, INF, |_| {}).unwrap_err());
        assert!(err.contains("another search"), "{err}");
        let moved = Identity {
            history: Identity::history_hash(&[1, 2]),
            ..id()
        };
        assert!(load(&file, &moved, INF, |_| {}).is_err());
        assert_eq!(load(&file, &id(), INF, |_| {}), Ok(Some(99)));
        // Cut short, or with bytes to spare: refused.
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() - 5]).unwrap();
        let err = why(load(&file, &id(), INF, |_| {}).unwrap_err());
        assert!(err.contains("ends after 1 of its 2"), "{err}");
        std::fs::write(&file, [&bytes[..], b"x"].concat()).unwrap();
        assert!(why(load(&file, &id(), INF, |_| {}).unwrap_err()).contains("more than"));
        std::fs::write(&file, b"something else\n").unwrap();
        assert!(why(load(&file, &id(), INF, |_| {}).unwrap_err()).contains("does not start"));
        // No file: nothing to resume.
        assert_eq!(load(&dir.join("none.dfpn"), &id(), INF, |_| {}), Ok(None));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Numbers beyond ∞, or a proof that is not a disproof's opposite, are no search's: such a
    /// file (damaged or forged) is refused, not resumed from.
    #[test]
    fn entries_no_search_makes_are_refused() {
        let dir = std::env::temp_dir().join(format!("kiebitz-ckpt-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = path(&dir, "white");
        for bad in [
            [9, INF + 1, 5, 1],
            [9, 5, u64::MAX, 1],
            [9, 0, 5, 1],
            [9, 3, 0, 1],
        ] {
            let entries = [[1u64, 2, 3, 4], bad];
            save(&file, &id(), 9, 2, entries.iter().copied()).unwrap();
            let err = why(load(&file, &id(), INF, |_| {}).unwrap_err());
            assert!(
                err.contains("entry 2 has proof and disproof numbers"),
                "{err}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
