//! Bounds on what the shell takes in and gives out, shared by every binary: durations from
//! the command line checked against [`MAX_SECONDS`] ([`seconds`], so `1e20` is an error
//! instead of a `Duration` panic), numbers checked finite and in range ([`number`]), and
//! results written to a stdout that may fail ([`out`], so `> /dev/full` is an error instead of
//! a panic or a silent exit 0; [`print_line`] for output that a closed pipe ends quietly), and
//! every subcommand's arguments read the same way ([`parse_args`]).
//! Files are read and written through [`crate::files`].
//!
//! Every error is a sentence for stderr that names the argument and the bound. Depends on
//! nothing of the crate.

use std::io::{self, Write};
use std::time::Duration;

use crate::error::CliError;

/// A subcommand's arguments, `name` heading clap's usage (`kiebitz-raeuber tables`), or the
/// exit code once clap has printed its help (0, on stdout) or its error (2, on stderr); a
/// closed pipe does not panic.
pub fn parse_args<A: clap::Parser>(name: &str, args: &[String]) -> Result<A, i32> {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    A::try_parse_from(argv).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() { 2 } else { 0 }
    })
}

/// The longest time a command-line argument may give (one year, 31 536 000 s): far beyond any
/// game or solver run, and small enough that deadlines computed from it (`now + t`, sums of
/// increments) cannot overflow.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A command-line argument outside its bounds: the argument (`what`), the value and the bound
/// in the sentence users have always read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BoundError {
    /// Seconds that are not a finite number from 0 to [`MAX_SECONDS`].
    #[error("{what} must be a number of seconds from 0 to {MAX_SECONDS} (one year), not {secs}")]
    Seconds { what: String, secs: f64 },
    /// Seconds that make no [`Duration`] (`reason`: why).
    #[error("{what} {secs}: {reason}")]
    Duration {
        what: String,
        secs: f64,
        reason: String,
    },
    /// A number outside `start..=end`.
    #[error("{what} must be a number from {start} to {end}, not {value}")]
    Number {
        what: String,
        value: String,
        start: String,
        end: String,
    },
    /// Milliseconds beyond [`MAX_SECONDS`].
    #[error(
        "{what} must be a number of milliseconds from 0 to {} (one year), not {ms}",
        MAX_SECONDS * 1000.0
    )]
    Millis { what: String, ms: u64 },
}

crate::error::sentence_error!(BoundError);

/// `secs` seconds as a [`Duration`] for the argument `what`: a finite number from 0 to
/// [`MAX_SECONDS`], or an error naming the argument, the value and the bound.
pub fn seconds(what: &str, secs: f64) -> Result<Duration, BoundError> {
    let what = what.to_string();
    if !(secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs)) {
        return Err(BoundError::Seconds { what, secs });
    }
    Duration::try_from_secs_f64(secs).map_err(|e| BoundError::Duration {
        what,
        secs,
        reason: e.to_string(),
    })
}

/// `value` for the argument `what` where it is a finite number within `range` (a NaN, an
/// infinity or a number out of range is an error naming the argument, the value and the
/// range).
pub fn number<T>(what: &str, value: T, range: std::ops::RangeInclusive<T>) -> Result<T, BoundError>
where
    T: Copy + PartialOrd + std::fmt::Display,
{
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(BoundError::Number {
            what: what.to_string(),
            value: value.to_string(),
            start: range.start().to_string(),
            end: range.end().to_string(),
        })
    }
}

/// `ms` milliseconds as a [`Duration`] for the argument `what`, at most [`MAX_SECONDS`].
pub fn millis(what: &str, ms: u64) -> Result<Duration, BoundError> {
    if ms as f64 > MAX_SECONDS * 1000.0 {
        let what = what.to_string();
        return Err(BoundError::Millis { what, ms });
    }
    Ok(Duration::from_millis(ms))
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

/// Writes one line of a result to stdout and flushes it. A closed stdout (`| head`) is
/// [`CliError::Closed`] (the reader has gone: end quietly); any other failure (`> /dev/full`)
/// is an error to report, so that the command ends with a non-zero exit code instead of a
/// panic or a silent success.
pub fn out(args: std::fmt::Arguments) -> Result<(), CliError> {
    write_out(args, b"\n")
}

/// [`out`] without the newline: a prompt (`Your move: `) that the answer follows on the
/// same line.
pub fn prompt(args: std::fmt::Arguments) -> Result<(), CliError> {
    write_out(args, b"")
}

fn write_out(args: std::fmt::Arguments, end: &[u8]) -> Result<(), CliError> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_fmt(args)
        .and_then(|_| stdout.write_all(end))
        .and_then(|_| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(CliError::Closed),
        Err(e) => Err(CliError::Failed(format!("cannot write the output: {e}"))),
    }
}

/// The exit code for a command's result: 0 for success or a closed stdout
/// ([`CliError::Closed`]), otherwise `code` after the error on stderr behind `prefix`
/// (`error`, `solve`, …).
pub fn exit_code<E: Into<CliError>>(result: Result<(), E>, prefix: &str, code: i32) -> i32 {
    match result.map_err(Into::into) {
        Ok(()) | Err(CliError::Closed) => 0,
        Err(CliError::Failed(e)) => {
            eprintln!("{prefix}: {e}");
            code
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_stdout_ends_quietly_and_a_failure_with_its_code() {
        assert_eq!(exit_code(Err(CliError::Closed), "error", 1), 0);
        assert_eq!(exit_code(Ok::<(), CliError>(()), "error", 1), 0);
        assert_eq!(exit_code(Err("no such file".to_string()), "error", 3), 3);
        assert_eq!(CliError::Closed.message(), None);
        assert_eq!(CliError::from("bad").message(), Some("bad"));
    }

    #[test]
    fn numbers_are_finite_and_in_range() {
        assert_eq!(number("--lr", 0.5f32, 0.0..=10.0), Ok(0.5));
        for bad in [f32::NAN, f32::INFINITY, -1.0, 1e39f64 as f32, 11.0] {
            let e = number("--lr", bad, 0.0..=10.0).unwrap_err().to_string();
            assert!(e.contains("--lr") && e.contains("from 0 to 10"), "{e}");
        }
    }

    #[test]
    fn seconds_are_bounded() {
        assert_eq!(seconds("t", 1.5).unwrap(), Duration::from_millis(1500));
        for bad in [1e20, -1.0, f64::NAN, f64::INFINITY, MAX_SECONDS * 2.0] {
            let e = seconds("--budget", bad).unwrap_err().to_string();
            assert!(e.contains("--budget") && e.contains("31536000"), "{e}");
        }
        assert_eq!(millis("m", 1500).unwrap(), Duration::from_millis(1500));
        assert!(
            millis("m", u64::MAX)
                .unwrap_err()
                .to_string()
                .contains("31536000000")
        );
    }
}
