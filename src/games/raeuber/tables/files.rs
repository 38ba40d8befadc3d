//! Endgame tables on disk: one file per material signature, named by its pieces the way
//! Syzygy names its files (`KPvK.krt`: White's pieces, `v`, Black's, each side from king to
//! pawn), holding every index's value of [`Table`] (a byte each, two where a distance needs
//! more). Given a directory ([`Tables::build_in`], `Endgame Tables Path`, `solve
//! --tables-dir`), the tables read a signature's file instead of building it and write the
//! file of each signature they build, so the next process finds it;
//! `kiebitz-raeuber tables --pieces N --dir D` writes every signature of up to N pieces.
//!
//! A file is checked when read: its checksum, header, pieces and length, and its values against
//! their moves one ply down (all of a table of up to three pieces, a sample of larger ones:
//! [`Tables::verify`]). It is read only if it is a regular file, and no more than its
//! signature's size. A file that fails is reported on stderr and the signature built as if it
//! were not there.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use clap::Parser;

use super::{Table, Tables, counts_of, key_of, multisets};
use crate::games::losing::tables::file;
use crate::games::losing::tables::signature::letters;

/// The first bytes of every table file (format 2: format 1 and a checksum at the end).
const MAGIC: &[u8] = b"kiebitz raeuber table 2\n";

/// The bytes of the FNV-1a 64 checksum (little-endian) that ends a file: of all before it
/// ([`file`]).
const CHECKSUM: usize = file::SUM;

/// The file name of the signature `codes` (ascending codes: colour * 6 + kind).
pub(super) fn name_of(codes: &[u8]) -> String {
    let side = |colour: u8| -> String { letters(codes, colour).rev().collect() };
    format!("{}v{}.krt", side(0), side(1))
}

/// The path of signature `codes`'s file in `dir`.
pub(super) fn path_of(dir: &Path, codes: &[u8]) -> PathBuf {
    dir.join(name_of(codes))
}

/// The table of `codes` from its file in `dir`: `None` when there is none, or (said on
/// stderr) when it is not a table of these pieces.
pub(super) fn load(dir: &Path, codes: &[u8]) -> Option<Table> {
    let path = path_of(dir, codes);
    // The largest file of this signature: the header and two bytes a value.
    let largest =
        (MAGIC.len() + codes.len() + 2 + CHECKSUM + 4 * 36usize.pow(codes.len() as u32)) as u64;
    let bytes = match crate::files::read(&path, largest) {
        Ok(bytes) => bytes,
        Err(crate::FileError::NotFound { .. }) => return None,
        Err(e) => {
            eprintln!("endgame tables: {e}; building it");
            return None;
        }
    };
    match parse(&bytes, codes) {
        Ok(values) => Some(Table {
            codes: codes.to_vec(),
            values,
        }),
        Err(why) => {
            eprintln!("endgame tables: {} {why}; building it", path.display());
            None
        }
    }
}

/// The values of a file's `bytes` for the signature `codes`, or why they are not.
fn parse(bytes: &[u8], codes: &[u8]) -> Result<Vec<i16>, String> {
    let bytes = file::unsummed(bytes)
        .ok_or("is damaged (its checksum does not match) or of another format")?;
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or("is not a kiebitz Räuberschach table")?;
    let n = codes.len();
    let size = 2 * 36usize.pow(n as u32);
    let (&count, rest) = rest.split_first().ok_or("ends early")?;
    if usize::from(count) != n || rest.len() < n + 1 || rest[..n] != *codes {
        return Err("holds other pieces".into());
    }
    let (width, data) = (rest[n], &rest[n + 1..]);
    match (width, data.len()) {
        (1, len) if len == size => Ok(data.iter().map(|&b| i16::from(b as i8)).collect()),
        (2, len) if len == 2 * size => Ok(data
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect()),
        (1 | 2, _) => Err("has the wrong length".into()),
        _ => Err(format!("has an unknown value width {width}")),
    }
}

/// Writes `table`'s file in `dir` whole (a temporary file renamed), so that a reader never
/// sees half of one.
pub(super) fn save(dir: &Path, table: &Table) -> io::Result<()> {
    let path = path_of(dir, &table.codes);
    let wide = table.values.iter().any(|&v| i8::try_from(v).is_err());
    let mut bytes =
        Vec::with_capacity(MAGIC.len() + 2 + table.codes.len() + 2 * table.values.len());
    bytes.extend_from_slice(MAGIC);
    bytes.push(table.codes.len() as u8);
    bytes.extend_from_slice(&table.codes);
    if wide {
        bytes.push(2);
        table
            .values
            .iter()
            .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
    } else {
        bytes.push(1);
        bytes.extend(table.values.iter().map(|&v| v as i8 as u8));
    }
    crate::files::write_whole(&path, |out| file::write_summed(out, [&bytes[..]]))
}

/// Write the endgame tables of every signature of up to N pieces to a directory, one file per
/// signature (read back by `Endgame Tables Path` and `solve --tables-dir`).
///
/// Resumes: signatures whose files are there are read, not built.
#[derive(Parser, Debug)]
#[command(name = "tables")]
struct Args {
    /// The most pieces (1 to 5; 3 take ~15 s and 35 MB on disk, 4 about 15 minutes on one
    /// core and 4.4 GB; 5 about a minute for each of 4,368 signatures of 121 MB: days, 0.5 TB)
    #[arg(long)]
    pieces: u32,
    /// The directory to write to (created if missing)
    #[arg(long)]
    dir: PathBuf,
    /// Threads for the signatures of up to three pieces (default: every core)
    #[arg(long)]
    threads: Option<usize>,
}

/// The `tables` subcommand; the process exit code.
pub fn main(args: &[String]) -> i32 {
    let args: Args = match crate::limits::parse_args("kiebitz-raeuber tables", args) {
        Ok(args) => args,
        Err(code) => return code,
    };
    match write_every(args.pieces, args.threads, &args.dir) {
        Ok(line) => {
            eprintln!("tables: {line}");
            0
        }
        Err(e) => {
            eprintln!("tables: {e}");
            1
        }
    }
}

/// Writes every signature of up to `pieces` pieces to `dir`; the line that says what.
pub fn write_every(pieces: u32, threads: Option<usize>, dir: &Path) -> Result<String, String> {
    if !(1..=5).contains(&pieces) {
        return Err(format!("--pieces {pieces}: the tables hold 1 to 5 pieces"));
    }
    fs::create_dir_all(dir).map_err(|e| format!("--dir {}: {e}", dir.display()))?;
    let started = std::time::Instant::now();
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut tables = Tables::build_in(pieces.min(3), threads, Some(dir.to_path_buf()));
    tables = tables.on_demand_up_to(pieces);
    for n in 4..=pieces as usize {
        let all = multisets(n);
        let every = if n == 4 { 50 } else { 1 };
        for (i, codes) in all.iter().enumerate() {
            tables.lazy_table(key_of(&counts_of(codes)));
            // Written: the next signature reads what it needs back from the directory.
            tables.forget_on_demand();
            if (i + 1) % every == 0 {
                eprintln!("tables: {} of {} {n}-piece signatures", i + 1, all.len());
            }
        }
    }
    let (read, written, unwritten) = tables.files();
    if unwritten > 0 {
        return Err(format!(
            "{unwritten} signatures could not be written to {} (said above)",
            dir.display()
        ));
    }
    Ok(format!(
        "up to {pieces} pieces in {}: {written} signatures built and written, {read} read \
         (already there), {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of its own under the system's temporary one, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!("kiebitz-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn files_are_named_as_syzygy_names_them() {
        // Codes: colour * 6 + kind, kinds P N B R Q K.
        assert_eq!(name_of(&[0, 5, 11]), "KPvK.krt");
        assert_eq!(name_of(&[2, 4, 9, 9]), "QBvRR.krt");
        assert_eq!(name_of(&[7]), "vN.krt");
    }

    /// Every signature of up to two pieces written, then read back instead of built, value
    /// for value; a value changed on disk is what the next tables hold (the file is read,
    /// not rebuilt), and a damaged file is refused and its signature built again, right.
    #[test]
    fn tables_written_are_read_back_and_a_damaged_file_is_rebuilt() {
        let dir = TempDir::new("tables-files");
        let dir = || Some(dir.0.clone());
        let signatures = multisets(1).len() + multisets(2).len();
        let first = Tables::build_in(2, 2, dir());
        assert_eq!(first.files(), (0, signatures, 0));
        let again = Tables::build_in(2, 2, dir());
        assert_eq!(again.files(), (signatures, 0, 0));
        for (a, b) in first.tables.iter().zip(&again.tables) {
            assert_eq!((&a.codes, &a.values), (&b.codes, &b.values));
        }
        // K against K: a won position's value changed on disk is refused, by the checksum,
        // and when the checksum is made to match, by the values of its moves; either way
        // the signature is built again with the true values.
        let codes = [5u8, 11];
        let id = first.ids[&key_of(&counts_of(&codes))];
        let truth = first.tables[id].values.clone();
        let index = truth.iter().position(|&v| v > 0).unwrap();
        let path = path_of(dir().as_deref().unwrap(), &codes);
        let good = fs::read(&path).unwrap();
        let header = MAGIC.len() + 2 + codes.len();
        assert_eq!(good.len(), header + truth.len() + CHECKSUM, "a byte each");
        let mut bytes = good.clone();
        bytes[header + index] = -(truth[index] as i8) as u8;
        let rebuilt_from = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            let tables = Tables::build_in(2, 2, dir());
            assert_eq!(tables.files(), (signatures - 1, 1, 0));
            assert_eq!(tables.tables[id].values, truth);
        };
        rebuilt_from(&bytes);
        let n = bytes.len() - CHECKSUM;
        let sum = crate::nnue::net::fnv1a(&bytes[..n]).to_le_bytes();
        bytes[n..].copy_from_slice(&sum);
        assert!(parse(&bytes, &codes).is_ok(), "the checksum matches");
        rebuilt_from(&bytes);
        // Cut short: refused, built again (and written again), with the true values.
        rebuilt_from(&good[..good.len() - 1]);
        assert!(parse(&fs::read(&path).unwrap(), &codes).is_ok());
        assert!(parse(b"something else", &codes).is_err());
    }

    /// A signature built on demand (three pieces on top of two) is written with its
    /// promotion, and the next tables read it back alone: its own file makes the promotion's
    /// table unnecessary.
    #[test]
    fn signatures_built_on_demand_are_written_too() {
        let dir = TempDir::new("tables-on-demand");
        let first = Tables::build_in(2, 2, Some(dir.0.clone())).on_demand();
        let key = key_of(&counts_of(&[0, 5, 11]));
        let built = first.lazy_table(key);
        // K+P against K and K+Q against K (the promotion) beside those of up to two pieces:
        // written, then read, not built.
        let signatures = multisets(1).len() + multisets(2).len() + 2;
        assert_eq!(first.files(), (0, signatures, 0));
        let again = Tables::build_in(2, 2, Some(dir.0.clone())).on_demand();
        let read = again.lazy_table(key);
        assert_eq!(read.values, built.values);
        assert_eq!(again.files(), (signatures - 1, 0, 0));
        assert_eq!(again.built_on_demand(), 1, "K+Q against K is not needed");
    }

    /// A FIFO or a link to a device in the table folder is refused before it is opened (an
    /// open FIFO without a writer would block for ever; `/dev/zero` never ends), and the
    /// signature built.
    #[test]
    fn a_fifo_or_a_device_in_the_folder_is_refused_not_read() {
        let dir = TempDir::new("tables-fifo");
        let signatures = multisets(1).len();
        let (fifo, zero) = (path_of(&dir.0, &[5]), path_of(&dir.0, &[11]));
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let tables = Tables::build_in(1, 1, Some(dir.0.clone()));
        assert_eq!(tables.files().0, 0, "nothing read");
        assert_eq!(tables.tables.len(), signatures);
    }
}
