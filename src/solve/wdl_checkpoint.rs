//! Checkpoints of the win/draw/loss solver ([`super::wdl`]) for runs of hours: the table's
//! entries written to a file now and then and when the run ends (also when it is stopped),
//! and read back into the table of a later run of the same position and rules, which then
//! goes on from where the earlier one was (every stored bound is a proof, whatever the run
//! that found it).
//!
//! The file: a text header (`kiebitz-wdl-checkpoint 1`, the position's identity — variant
//! and FEN — and the number of entries, a line each), the entries (16 bytes each,
//! little-endian: the key's low word, then its high bits with the packed bounds above them,
//! as the table keeps them), and an FNV-1a checksum of the entries (8 bytes). It is written
//! whole under a temporary name, then renamed, so a crash leaves the previous one. Depends on
//! [`super::wdl_table`].

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::wdl_table::{Bounds, Table};

const MAGIC: &str = "kiebitz-wdl-checkpoint 1";
/// Bits of an entry's second word that hold the key (the bounds are above them).
const HIGH_BITS: u32 = 46;

/// Where and how often a run writes its checkpoint.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub path: PathBuf,
    pub every: Duration,
}

/// FNV-1a over `bytes`, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Writes every entry of `tt` to `path` for the position `identity`; returns the count.
pub fn write(path: &Path, identity: &str, tt: &Table) -> Result<u64, String> {
    let mut entries = Vec::new();
    tt.for_each_entry(|key, b| entries.push((key, b)));
    let tmp = path.with_extension("tmp");
    let fail = |e: std::io::Error| format!("cannot write the checkpoint {}: {e}", tmp.display());
    let file = std::fs::File::create(&tmp).map_err(fail)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write!(out, "{MAGIC}\n{identity}\n{}\n", entries.len()).map_err(fail)?;
    let mut h = FNV_START;
    for (key, b) in &entries {
        let mut rec = [0u8; 16];
        rec[..8].copy_from_slice(&(*key as u64).to_le_bytes());
        let high = (key >> 64) as u64 | b.pack() << HIGH_BITS;
        rec[8..].copy_from_slice(&high.to_le_bytes());
        h = fnv(h, &rec);
        out.write_all(&rec).map_err(fail)?;
    }
    out.write_all(&h.to_le_bytes()).map_err(fail)?;
    out.into_inner()
        .map_err(|e| fail(e.into_error()))?
        .sync_all()
        .map_err(fail)?;
    std::fs::rename(&tmp, path)
        .map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), path.display()))?;
    Ok(entries.len() as u64)
}

/// The entries of the checkpoint at `path` for the position `identity`, each checked; a file
/// of another position, cut short or damaged is refused whole, with the reason.
pub fn read(path: &Path, identity: &str) -> Result<Vec<(u128, Bounds)>, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("cannot read the checkpoint {}: {e}", path.display()))?;
    let refuse = |why: &str| format!("the checkpoint {} is refused: {why}", path.display());
    let mut lines = bytes.splitn(4, |&b| b == b'\n');
    let mut line = || lines.next().map(String::from_utf8_lossy);
    if line().as_deref() != Some(MAGIC) {
        return Err(refuse("not a checkpoint of the win/draw/loss solver"));
    }
    let theirs = line().unwrap_or_default();
    if theirs != identity {
        return Err(refuse(&format!(
            "it is of another position ({theirs}), not of {identity}"
        )));
    }
    let count: usize = line()
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| refuse("no entry count"))?;
    let body = lines.next().unwrap_or_default();
    if Some(body.len()) != count.checked_mul(16).and_then(|n| n.checked_add(8)) {
        return Err(refuse(
            "its length does not match its entry count (cut short?)",
        ));
    }
    let (records, sum) = body.split_at(count * 16);
    if fnv(FNV_START, records).to_le_bytes() != sum {
        return Err(refuse("its checksum does not match (damaged)"));
    }
    records
        .chunks_exact(16)
        .map(|rec| decode(rec).ok_or_else(|| refuse("an entry holds bounds no search gives")))
        .collect()
}

/// One entry of 16 bytes: its key and bounds, if they are valid.
fn decode(rec: &[u8]) -> Option<(u128, Bounds)> {
    let low = u64::from_le_bytes(rec[..8].try_into().ok()?);
    let high = u64::from_le_bytes(rec[8..].try_into().ok()?);
    let data = high >> HIGH_BITS;
    let key = ((high & ((1 << HIGH_BITS) - 1)) as u128) << 64 | low as u128;
    let bounds = Bounds::unpack(data);
    (data < 1 << 10 && bounds.valid() && key >> 109 == 1).then_some((key, bounds))
}

/// Reads the checkpoint at `path` (if there is one) into `tt`: the entries loaded, 0 where
/// there is no file yet.
pub fn resume(path: &Path, identity: &str, tt: &Table) -> Result<u64, String> {
    if !path.exists() {
        return Ok(0);
    }
    let entries = read(path, identity)?;
    for &(key, bounds) in &entries {
        tt.put(key, bounds);
    }
    Ok(entries.len() as u64)
}
