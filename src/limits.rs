//! Bounds on what the shell takes in and gives out, shared by every binary: files and pipes
//! read with a size limit ([`read_bounded`], so `/dev/zero` or an endless pipe is refused
//! instead of filling memory), durations from the command line checked against
//! [`MAX_SECONDS`] ([`seconds`], so `1e20` is an error instead of a `Duration` panic), and
//! results written to a stdout that may fail ([`out`], so `> /dev/full` is an error instead of
//! a panic or a silent exit 0; [`print_line`] for output that a closed pipe ends quietly).
//!
//! Every error is a sentence for stderr that names the file or argument and the bound; a
//! file's is a typed [`FileError`] (not found, not regular, too big, damaged, unreadable).
//! Depends on `error` only.

use std::io::{self, Read, Write};
use std::time::Duration;

use crate::error::FileError;

/// The longest time a command-line argument may give (one year, 31 536 000 s): far beyond any
/// game or solver run, and small enough that deadlines computed from it (`now + t`, sums of
/// increments) cannot overflow.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// `secs` seconds as a [`Duration`] for the argument `what`: a finite number from 0 to
/// [`MAX_SECONDS`], or an error naming the argument, the value and the bound.
pub fn seconds(what: &str, secs: f64) -> Result<Duration, String> {
    if !(secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs)) {
        return Err(format!(
            "{what} must be a number of seconds from 0 to {MAX_SECONDS} (one year), not {secs}"
        ));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("{what} {secs}: {e}"))
}

/// `ms` milliseconds as a [`Duration`] for the argument `what`, at most [`MAX_SECONDS`].
pub fn millis(what: &str, ms: u64) -> Result<Duration, String> {
    if ms as f64 > MAX_SECONDS * 1000.0 {
        return Err(format!(
            "{what} must be a number of milliseconds from 0 to {} (one year), not {ms}",
            MAX_SECONDS * 1000.0
        ));
    }
    Ok(Duration::from_millis(ms))
}

/// Reads all of `reader` (named `name` in errors), refusing more than `limit` bytes: at most
/// `limit + 1` bytes are ever read, so a never-ending input ends at once with an error.
pub fn read_bounded_from(
    reader: impl Read,
    name: &str,
    limit: u64,
) -> Result<Vec<u8>, crate::Error> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(name, &e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooBig {
            path: name.to_string(),
            limit,
        }
        .into());
    }
    Ok(bytes)
}

/// Reads the file or pipe at `path`, refusing more than `limit` bytes (see
/// [`read_bounded_from`]).
pub fn read_bounded(path: &str, limit: u64) -> Result<Vec<u8>, crate::Error> {
    let file = std::fs::File::open(path).map_err(|e| FileError::io(path, &e))?;
    read_bounded_from(file, path, limit)
}

/// What a path that is not a regular file is, for messages.
fn not_regular(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a folder"
    } else {
        "a device, FIFO or socket"
    }
}

/// Opens `path` for reading only if it is a regular file (a symbolic link is followed to one):
/// a FIFO, socket or device is refused *before* `open`, which for a FIFO with no writer would
/// block for ever. For files an engine session reads on a client's word (books, networks,
/// tables, checkpoints), where a hang would stall the session; command-line inputs keep
/// [`read_bounded`], which also takes a pipe such as `/dev/stdin`.
pub fn open_regular(path: &std::path::Path) -> io::Result<std::fs::File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", not_regular(&meta)),
        ));
    }
    std::fs::File::open(path)
}

/// Writes the file `path` whole or not at all: `body` writes into a buffered temporary file
/// beside it (`NAME.tmpPID`), which is synced to disk and renamed to `path`, so that a reader
/// (or a run resumed after a crash) sees the old file or the new one, never half of one. On an
/// error the temporary file is removed and `path` is left as it was.
pub fn write_whole<T>(
    path: &std::path::Path,
    body: impl FnOnce(&mut io::BufWriter<std::fs::File>) -> io::Result<T>,
) -> io::Result<T> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(name);
    let written = (|| {
        let mut out = io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&tmp)?);
        let value = body(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(value)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// [`read_bounded`] for a regular file only (see [`open_regular`]).
pub fn read_regular(path: &str, limit: u64) -> Result<Vec<u8>, crate::Error> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, &e))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: path.to_string(),
            what: not_regular(&meta),
        }
        .into());
    }
    let file = std::fs::File::open(path).map_err(|e| FileError::io(path, &e))?;
    read_bounded_from(file, path, limit)
}

/// [`read_bounded`] for a text file: the bytes must be UTF-8.
pub fn read_bounded_text(path: &str, limit: u64) -> Result<String, crate::Error> {
    String::from_utf8(read_bounded(path, limit)?).map_err(|e| {
        FileError::Damaged {
            path: path.to_string(),
            reason: format!("not UTF-8 text ({e})"),
        }
        .into()
    })
}

/// Whether stdout has been found closed by [`print_line`].
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `println!` for results that may go into a pipe: false once stdout cannot be written
/// (`| head -1` has closed it), and then nothing more is written; never a panic. Other
/// write errors are reported on stderr once.
pub fn print_line(args: std::fmt::Arguments) -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    if STDOUT_CLOSED.load(Relaxed) {
        return false;
    }
    let mut out = io::stdout().lock();
    match out
        .write_fmt(args)
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush())
    {
        Ok(()) => true,
        Err(e) => {
            if e.kind() != io::ErrorKind::BrokenPipe {
                eprintln!("error: cannot write the output: {e}");
            }
            STDOUT_CLOSED.store(true, Relaxed);
            false
        }
    }
}

/// Writes one line of a result to stdout and flushes it. A closed stdout (`| head`) is the
/// empty error (the reader has gone: end quietly); any other failure (`> /dev/full`) is an
/// error to report, so that the command ends with a non-zero exit code instead of a panic or
/// a silent success.
pub fn out(args: std::fmt::Arguments) -> Result<(), String> {
    write_out(args, b"\n")
}

/// [`out`] without the newline: a prompt (`Your move: `) that the answer follows on the
/// same line.
pub fn prompt(args: std::fmt::Arguments) -> Result<(), String> {
    write_out(args, b"")
}

fn write_out(args: std::fmt::Arguments, end: &[u8]) -> Result<(), String> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_fmt(args)
        .and_then(|_| stdout.write_all(end))
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(String::new()),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

/// The exit code for a command's result: 0 for success or a closed stdout (the empty error),
/// otherwise `code` after the error on stderr behind `prefix` (`error`, `solve`, …).
pub fn exit_code(result: Result<(), String>, prefix: &str, code: i32) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) if e.is_empty() => 0,
        Err(e) => {
            eprintln!("{prefix}: {e}");
            code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_written_whole_or_not_at_all() {
        let dir = std::env::temp_dir().join(format!("kiebitz-write-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f.txt");
        let n = write_whole(&path, |out| out.write_all(b"old").map(|_| 3)).unwrap();
        assert_eq!((n, std::fs::read(&path).unwrap()), (3, b"old".to_vec()));
        let failed = write_whole(&path, |out| {
            out.write_all(b"half")?;
            Err::<(), _>(io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "the old file stays");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["f.txt"], "no temporary file is left");
        assert!(write_whole(&dir.join("no/such/dir/f"), |_| Ok(())).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_are_bounded() {
        let e = read_bounded("/dev/zero", 1000).unwrap_err();
        assert_eq!(e.kind(), "file");
        let e = e.to_string();
        assert!(e.contains("/dev/zero") && e.contains("1000 bytes"), "{e}");
        assert_eq!(read_bounded_from(&b"abc"[..], "x", 3).unwrap(), b"abc");
        assert!(read_bounded_from(&b"abcd"[..], "x", 3).is_err());
        assert!(
            read_bounded("/no/such/file", 10)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }

    #[test]
    fn seconds_are_bounded() {
        assert_eq!(seconds("t", 1.5).unwrap(), Duration::from_millis(1500));
        for bad in [1e20, -1.0, f64::NAN, f64::INFINITY, MAX_SECONDS * 2.0] {
            let e = seconds("--budget", bad).unwrap_err();
            assert!(e.contains("--budget") && e.contains("31536000"), "{e}");
        }
        assert_eq!(millis("m", 1500).unwrap(), Duration::from_millis(1500));
        assert!(millis("m", u64::MAX).unwrap_err().contains("31536000000"));
    }
}
