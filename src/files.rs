//! Files in and out, the one way every reader and writer of the project takes them.
//!
//! Reading ([`read`], [`read_text`], [`open`]): a file is opened without blocking (`O_NONBLOCK`,
//! so a FIFO with no writer cannot hang the open), its kind is checked on the open handle (a
//! regular file only: a FIFO, socket, device or folder is refused with what it is), and its
//! size is checked against the caller's bound *before* a byte is read (a 2 GiB file for a
//! 34 MB table is refused at once, not read whole first); the read itself stops at the bound
//! too. Inputs that a person gives on the command line and that may well be a pipe
//! (`/dev/stdin`, `<(…)`: a PGN, a list of openings) go through [`read_input`]: any readable
//! thing, bounded in size.
//!
//! Writing ([`write_whole`], [`append`]): the target is followed through symbolic links to
//! the file they name (a link is written through, not replaced); where that is anything but
//! a regular file or nothing (a device such as `/dev/full`, a FIFO, a folder), the write is
//! refused before anything is created. A whole file is written into a new temporary file
//! beside the target (created exclusively, so a link planted at its name is not followed),
//! synced and renamed over it, with the old file's permissions: a reader sees the old file or
//! the new one, never half of one. [`append`] opens a regular file (or a new one) to add to.
//!
//! Every error names the path and says why. Depends on `error` only.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::error::FileError;

/// What a file that is not a regular file is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "a folder"
    } else {
        "a device, FIFO or socket"
    }
}

/// Opens `path` for reading only if it is a regular file (a symbolic link is followed to one).
/// The open does not block (a FIFO is refused, not waited on) and the kind is checked on the
/// handle opened, so the check and the open cannot see two different files.
pub fn open(path: &Path) -> Result<File, FileError> {
    let name = path.display().to_string();
    let file = open_nonblocking(path).map_err(|e| FileError::io(&name, &e))?;
    let meta = file.metadata().map_err(|e| FileError::io(&name, &e))?;
    if !meta.is_file() {
        return Err(FileError::NotRegular {
            path: name,
            what: kind_of(&meta),
        });
    }
    Ok(file)
}

/// Opens for reading with `O_NONBLOCK`: for a regular file it changes nothing; a FIFO's open
/// returns at once instead of waiting for a writer.
#[cfg(target_os = "linux")]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Opens a command-line input that may be a pipe: without blocking on a FIFO that no writer
/// holds open (the open would wait for ever), then back to blocking reads, so a pipe whose
/// writer is slow is waited for and one with no writer reads as empty.
#[cfg(target_os = "linux")]
fn open_input(path: &Path) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    let file = open_nonblocking(path)?;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is the open descriptor `file` owns for the whole call; F_GETFL and F_SETFL
    // read and set its status flags and touch no memory of ours.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(file)
}

#[cfg(not(target_os = "linux"))]
fn open_input(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Elsewhere the kind is checked before the open (a FIFO could be swapped in between).
#[cfg(not(target_os = "linux"))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a regular file ({})", kind_of(&meta)),
        ));
    }
    File::open(path)
}

/// The whole of the regular file `path`, refused (before reading) where it holds more than
/// `limit` bytes.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open(path)?;
    let name = path.display().to_string();
    let len = file.metadata().map_err(|e| FileError::io(&name, &e))?.len();
    if len > limit {
        return Err(FileError::TooBig { path: name, limit });
    }
    read_bounded_from(file, &name, limit)
}

/// [`read`] for a text file: the bytes must be UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    utf8(read(path, limit)?, &path.display().to_string())
}

/// Reads a command-line input that may be a pipe (`/dev/stdin`, `<(…)`) as well as a file,
/// refusing more than `limit` bytes: at most `limit + 1` bytes are ever read, so `/dev/zero`
/// or an endless pipe ends at once with an error. A folder is refused.
pub fn read_input(path: &str, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_input(Path::new(path)).map_err(|e| FileError::io(path, &e))?;
    let meta = file.metadata().map_err(|e| FileError::io(path, &e))?;
    if meta.is_dir() {
        return Err(FileError::NotRegular {
            path: path.to_string(),
            what: "a folder",
        });
    }
    read_bounded_from(file, path, limit)
}

/// [`read_input`] for text: the bytes must be UTF-8.
pub fn read_input_text(path: &str, limit: u64) -> Result<String, FileError> {
    utf8(read_input(path, limit)?, path)
}

fn utf8(bytes: Vec<u8>, path: &str) -> Result<String, FileError> {
    String::from_utf8(bytes).map_err(|e| FileError::Damaged {
        path: path.to_string(),
        reason: format!("not UTF-8 text ({e})"),
    })
}

/// Reads all of `reader` (named `name` in errors), refusing more than `limit` bytes: at most
/// `limit + 1` bytes are ever read.
pub fn read_bounded_from(reader: impl Read, name: &str, limit: u64) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(name, &e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooBig {
            path: name.to_string(),
            limit,
        });
    }
    Ok(bytes)
}

/// The most symbolic links followed to a write's target (as the kernel's own limit).
const MAX_LINKS: usize = 40;

/// The file a write to `path` lands in: `path` followed through symbolic links, and whether
/// it exists. An error where it is anything but a regular file, or the links go round.
fn target_of(path: &Path) -> io::Result<(PathBuf, Option<std::fs::Metadata>)> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((at, None)),
            Err(e) => return Err(e),
        };
        if meta.file_type().is_symlink() {
            let next = std::fs::read_link(&at)?;
            at = match at.parent() {
                Some(dir) if next.is_relative() => dir.join(next),
                _ => next,
            };
            continue;
        }
        if !meta.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is not a regular file ({}): refused, nothing written",
                    at.display(),
                    kind_of(&meta)
                ),
            ));
        }
        return Ok((at, Some(meta)));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: more than {MAX_LINKS} symbolic links", path.display()),
    ))
}

/// Writes the file `path` whole or not at all: `body` writes into a buffered temporary file
/// beside the target (`NAME.tmpPID-N`, created exclusively), which is synced to disk and
/// renamed over the target, so that a reader (or a run resumed after a crash) sees the old
/// file or the new one, never half of one. A symbolic link is written through to the file it
/// names; a target that is not a regular file (a device, FIFO, folder) is refused before
/// anything is created. On an error the temporary file is removed and the target is left as
/// it was.
pub fn write_whole<T>(
    path: &Path,
    body: impl FnOnce(&mut io::BufWriter<File>) -> io::Result<T>,
) -> io::Result<T> {
    let (target, old) = target_of(path)?;
    let (tmp, file) = temporary_beside(&target)?;
    let written = (|| {
        if let Some(meta) = &old {
            file.set_permissions(meta.permissions())?;
        }
        let mut out = io::BufWriter::with_capacity(1 << 20, file);
        let value = body(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, &target)?;
        Ok(value)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// [`write_whole`] of `bytes`, with an error that names the path: `cannot write PATH: why`.
pub fn write_bytes(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> Result<(), FileError> {
    let path = path.as_ref();
    write_whole(path, |out| io::Write::write_all(out, bytes.as_ref())).map_err(|e| {
        FileError::Unwritable {
            path: path.display().to_string(),
            reason: e.to_string(),
        }
    })
}

/// A new file beside `target` that did not exist before (so no link planted at its name is
/// followed): `NAME.tmpPID-N` for the first free N.
fn temporary_beside(target: &Path) -> io::Result<(PathBuf, File)> {
    let base = target.file_name().unwrap_or_default().to_os_string();
    for n in 0..1000 {
        let mut name = base.clone();
        name.push(format!(".tmp{}-{n}", std::process::id()));
        let tmp = target.with_file_name(name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "no free temporary name beside {}",
        target.display()
    )))
}

/// Opens `path` to append to: a regular file (through symbolic links) or a new one; a device,
/// FIFO or folder is refused before it is opened.
pub fn append(path: &Path) -> io::Result<File> {
    let (target, _) = target_of(path)?;
    let file = OpenOptions::new().create(true).append(true).open(&target)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file: refused", target.display()),
        ));
    }
    Ok(file)
}

/// Opens `path` to read and write in place (a checkpoint, a record file resumed): a regular
/// file (through symbolic links) or a new one; a device, FIFO or folder is refused.
pub fn open_rw(path: &Path) -> io::Result<File> {
    let (target, _) = target_of(path)?;
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&target)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a regular file: refused", target.display()),
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    struct Dir(PathBuf);

    impl Dir {
        fn new(name: &str) -> Dir {
            let d =
                std::env::temp_dir().join(format!("kiebitz-files-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_file_is_written_whole_or_not_at_all() {
        let dir = Dir::new("whole");
        let path = dir.0.join("f.txt");
        let n = write_whole(&path, |out| out.write_all(b"old").map(|_| 3)).unwrap();
        assert_eq!((n, std::fs::read(&path).unwrap()), (3, b"old".to_vec()));
        let failed = write_whole(&path, |out| {
            out.write_all(b"half")?;
            Err::<(), _>(io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "the old file stays");
        let left: Vec<_> = std::fs::read_dir(&dir.0)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["f.txt"], "no temporary file is left");
        assert!(write_whole(&dir.0.join("no/such/dir/f"), |_| Ok(())).is_err());
    }

    /// A link is written through (the file it names changes, the link stays a link); a FIFO,
    /// a folder and a device are refused and left as they were.
    #[cfg(target_os = "linux")]
    #[test]
    fn links_are_written_through_and_other_files_refused() {
        let dir = Dir::new("links");
        let real = dir.0.join("real.txt");
        std::fs::write(&real, b"before").unwrap();
        let link = dir.0.join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_whole(&link, |out| out.write_all(b"after")).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"after");
        let mut more = append(&link).unwrap();
        more.write_all(b"!").unwrap();
        assert_eq!(std::fs::read(&real).unwrap(), b"after!");
        let fifo = dir.0.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (target, what) in [
            (fifo.clone(), "FIFO"),
            (dir.0.clone(), "folder"),
            (PathBuf::from("/dev/null"), "device"),
        ] {
            let e = write_whole(&target, |out| out.write_all(b"x")).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{what}: {e}");
            assert!(append(&target).is_err(), "{what}");
            assert!(open_rw(&target).is_err(), "{what}");
        }
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(&kind),
            "the FIFO stays"
        );
        let left = std::fs::read_dir(&dir.0).unwrap().count();
        assert_eq!(left, 3, "no temporary file is left");
    }

    /// A FIFO is refused at once (no writer: a blocking open would wait for ever), a device
    /// and a folder too, and a file larger than the bound before a byte is read.
    #[cfg(target_os = "linux")]
    #[test]
    fn reads_refuse_what_is_not_a_regular_file_or_too_big() {
        let dir = Dir::new("reads");
        let fifo = dir.0.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for path in [fifo.as_path(), Path::new("/dev/zero"), dir.0.as_path()] {
            let e = read(path, 1 << 20).unwrap_err();
            assert!(
                matches!(e, FileError::NotRegular { .. }),
                "{}: {e}",
                path.display()
            );
        }
        let big = dir.0.join("sparse");
        File::create(&big).unwrap().set_len(2 << 30).unwrap();
        let e = read(&big, 1 << 20).unwrap_err();
        assert!(matches!(e, FileError::TooBig { .. }), "{e}");
        std::fs::write(&big, b"abc").unwrap();
        assert_eq!(read(&big, 3).unwrap(), b"abc");
        assert_eq!(read_text(&big, 3).unwrap(), "abc");
        assert!(
            read(&dir.0.join("none"), 3)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }

    /// A FIFO no writer holds reads as empty at once (a blocking open would wait for ever);
    /// one whose writer has written reads whole, up to the writer's close.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_input_fifo_never_blocks_the_open() {
        let dir = Dir::new("input-fifo");
        let fifo = dir.0.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(read_input(fifo.to_str().unwrap(), 10).unwrap(), b"");
        // A writer that holds the FIFO open (read-write: its open does not wait), writes and
        // closes a moment later.
        let (wrote, written) = std::sync::mpsc::channel();
        let path = fifo.clone();
        let writer = std::thread::spawn(move || {
            let mut w = OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .unwrap();
            w.write_all(b"abc").unwrap();
            wrote.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(200));
        });
        written.recv().unwrap();
        assert_eq!(read_input(fifo.to_str().unwrap(), 10).unwrap(), b"abc");
        writer.join().unwrap();
    }

    #[test]
    fn inputs_are_bounded() {
        let e = read_input("/dev/zero", 1000).unwrap_err();
        let e = e.to_string();
        assert!(e.contains("/dev/zero") && e.contains("1000 bytes"), "{e}");
        assert_eq!(read_bounded_from(&b"abc"[..], "x", 3).unwrap(), b"abc");
        assert!(read_bounded_from(&b"abcd"[..], "x", 3).is_err());
        assert!(read_input("/", 10).is_err());
        assert!(
            read_input("/no/such/file", 10)
                .unwrap_err()
                .to_string()
                .contains("cannot read")
        );
    }
}
