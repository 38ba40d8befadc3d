//! Checkpoints of the win/draw/loss solver ([`super::wdl`]) for runs of hours: the table's
//! entries written to a file now and then and when the run ends (also when it is stopped),
//! and read back into the table of a later run of the same position and rules, which then
//! goes on from where the earlier one was (every stored bound is a proof, whatever the run
//! that found it).
//!
//! The file: a text header (`kiebitz-wdl-checkpoint 1` and the position's identity — variant
//! and FEN — a line each), the entries (16 bytes each, little-endian: the key's low word, then
//! its high bits with the packed bounds above them, as the table keeps them), then an FNV-1a
//! checksum of the entries and their count (8 bytes each). Both ways it is streamed, never
//! held in memory whole (a table of gigabytes writes a file of gigabytes). It is written under
//! a temporary name, then renamed, so a crash leaves the previous one. Depends on
//! [`super::wdl_table`] and, for the hardened file opening, [`crate::limits`].

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::checkpoint::CheckpointError;
use super::wdl_table::{Bounds, Table};
use crate::checksum::{START as FNV_START, extend as fnv};

const MAGIC: &str = "kiebitz-wdl-checkpoint 1";
/// Bits of an entry's second word that hold the key (the bounds are above them).
const HIGH_BITS: u32 = 46;

/// Where and how often a run writes its checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub every: Duration,
}

/// Writes every entry of `tt` to `path` for the position `identity`; returns the count.
pub fn write(path: &Path, identity: &str, tt: &Table) -> Result<u64, CheckpointError> {
    crate::files::write_whole(path, |out| {
        write!(out, "{MAGIC}\n{identity}\n")?;
        let (mut h, mut count, mut error) = (FNV_START, 0u64, None);
        tt.for_each_entry(|key, b| {
            let mut rec = [0u8; 16];
            rec[..8].copy_from_slice(&(key as u64).to_le_bytes());
            let high = (key >> 64) as u64 | b.pack() << HIGH_BITS;
            rec[8..].copy_from_slice(&high.to_le_bytes());
            h = fnv(h, &rec);
            count += 1;
            if error.is_none() {
                error = out.write_all(&rec).err();
            }
        });
        error.map_or(Ok(()), Err)?;
        out.write_all(&h.to_le_bytes())?;
        out.write_all(&count.to_le_bytes())?;
        Ok(count)
    })
    .map_err(|e| CheckpointError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// One entry of 16 bytes: its key and bounds, if they are valid.
fn decode(rec: &[u8; 16]) -> Option<(u128, Bounds)> {
    let low = u64::from_le_bytes(rec[..8].try_into().ok()?);
    let high = u64::from_le_bytes(rec[8..].try_into().ok()?);
    let data = high >> HIGH_BITS;
    let key = ((high & ((1 << HIGH_BITS) - 1)) as u128) << 64 | low as u128;
    let bounds = Bounds::unpack(data);
    (data < 1 << 10 && bounds.valid() && key >> 109 == 1).then_some((key, bounds))
}

/// Reads the checkpoint at `path` (if there is one) into `tt`, entry by entry: the entries
/// loaded, 0 where there is no file yet. A file of another position, cut short or damaged is
/// refused with the reason (and left as it was); `tt` may then hold part of it, so the run
/// that asked must not start.
pub fn resume(path: &Path, identity: &str, tt: &Table) -> Result<u64, CheckpointError> {
    let refuse = |why: &str| CheckpointError::Refused {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    let file = match crate::files::open(path) {
        Ok(f) => f,
        Err(crate::FileError::NotFound { .. }) => return Ok(0),
        Err(e) => return Err(CheckpointError::Open(e)),
    };
    let size = file.metadata().map_err(|e| refuse(&e.to_string()))?.len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut line = || -> Result<String, CheckpointError> {
        let mut text = String::new();
        (&mut input)
            .take(1 << 16)
            .read_line(&mut text)
            .map_err(|e| refuse(&e.to_string()))?;
        Ok(text.strip_suffix('\n').unwrap_or(&text).to_string())
    };
    if line()? != MAGIC {
        return Err(refuse("not a checkpoint of the win/draw/loss solver"));
    }
    let theirs = line()?;
    if theirs != identity {
        return Err(refuse(&format!(
            "it is of another position ({theirs}), not of {identity}"
        )));
    }
    let header = (MAGIC.len() + theirs.len() + 2) as u64;
    let body = size.saturating_sub(header);
    if body < 16 || (body - 16) % 16 != 0 {
        return Err(refuse("its length does not match its entries (cut short?)"));
    }
    let count = (body - 16) / 16;
    let mut h = FNV_START;
    let mut rec = [0u8; 16];
    for _ in 0..count {
        input
            .read_exact(&mut rec)
            .map_err(|e| refuse(&e.to_string()))?;
        h = fnv(h, &rec);
        let (key, bounds) =
            decode(&rec).ok_or_else(|| refuse("an entry holds bounds no search gives"))?;
        tt.put(key, bounds);
    }
    input
        .read_exact(&mut rec)
        .map_err(|e| refuse(&e.to_string()))?;
    if rec[..8] != h.to_le_bytes() {
        return Err(refuse("its checksum does not match (damaged)"));
    }
    if rec[8..] != count.to_le_bytes() {
        return Err(refuse(
            "its entry count does not match its length (cut short?)",
        ));
    }
    Ok(count)
}
