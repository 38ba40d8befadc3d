//! The one match runner of kiebitz-match, generic over seating: two seats with colours swapped
//! within a pair ([`super::run`]) and N seats rotating through every seating
//! ([`super::nseat::run`]) are both a [`Format`] played by [`play`].
//!
//! [`play`] owns what every match does alike: the game numbering (game `i` is round
//! `i / seatings`, seating `i % seatings`, see [`Slot`]), the pool of `--concurrency` worker
//! threads taking the next game number from a shared counter, the stop flag, the progress on
//! stderr and what Ctrl-C prints. A [`Format`] says how many seatings a round has and plays
//! one game; a [`Collect`] consumes the finished games (the PGN, the tables, Elo and SPRT)
//! under one lock, in the worker that finished the game, so a worker takes its next game
//! number only once its last game is consumed (a PGN error or an SPRT decision starts no
//! further game). [`PgnFile`] is the PGN output both formats write to, and
//! [`check_records`] the `--check-pgn` loop both read it back with.
//!
//! Depends on `progress` (the progress line and Ctrl-C), `limits` (bounded reads) and `pgn`
//! (the records as read).

use super::error::MatchError;
use crate::CliError;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::pgn::PgnGame;
use crate::progress::{self, Progress, Style};

/// The largest PGN file `--check-pgn` reads (256 MiB, about a hundred thousand games).
pub const MAX_PGN_BYTES: u64 = 256 << 20;

/// One game of a match: its 0-based index, its round (a round's seatings share an opening)
/// and its seating within the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub index: usize,
    pub round: usize,
    pub seating: usize,
}

impl Slot {
    /// Game `index` of a match with `seatings` seatings a round.
    pub fn of(index: usize, seatings: usize) -> Slot {
        let seatings = seatings.max(1);
        Slot {
            index,
            round: index / seatings,
            seating: index % seatings,
        }
    }

    /// The 1-based game number the records and lines show.
    pub fn number(self) -> usize {
        self.index + 1
    }
}

/// How one game came out, for the worker that played it.
pub enum Played<R> {
    /// Over: its record goes to the consumers.
    Finished(R),
    /// Cut short by the match's end (it is not counted); the worker stops.
    Cut,
    /// The match cannot go on (no opening for the round): the error ends it.
    Failed(String),
}

/// A kind of match: its seatings, its stop flag, and how one game is played.
pub trait Format: Sync {
    /// The finished game.
    type Record: Send;
    /// What a worker keeps from one game to its next (the engine processes of a pair).
    type Worker: Default;
    /// The games of the match.
    fn games(&self) -> usize;
    /// The seatings of a round: the games that share the round's opening.
    fn seatings(&self) -> usize;
    /// Set to end the match: no game starts after it (games in progress may see it too).
    fn stop(&self) -> &AtomicBool;
    /// Plays game `slot`; `announce` hands a line saying that the game starts to the
    /// consumers.
    fn play(
        &self,
        slot: Slot,
        worker: &mut Self::Worker,
        announce: &mut dyn FnMut(String),
    ) -> Played<Self::Record>;
}

/// What a consumer does with a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// Counted; the match goes on.
    Go,
    /// Counted; the match ends (a decision, a PGN that cannot be written, a closed stdout).
    Stop,
    /// Not counted (it finished after the match was decided).
    Ignored,
}

/// The consumers of finished games: the PGN, the tables, the statistics.
pub trait Collect<R>: Send {
    /// A game starts: its line (the two-seat `Started game …`).
    fn started(&mut self, _line: String) {}
    /// A finished game.
    fn finished(&mut self, slot: Slot, record: R) -> Taken;
    /// The match cannot go on, for this reason.
    fn failed(&mut self, error: String);
    /// The figures Ctrl-C prints below `N of M games played`.
    fn figures(&self) -> String;
}

/// The consumers and the count of the games they took, under the runner's lock.
struct Desk<C> {
    collect: C,
    played: usize,
    progress: Progress,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Plays the games of `format` on `concurrency` workers, each finished game handed to
/// `collect`; returns the consumers once every worker is done.
pub fn play<F: Format, C: Collect<F::Record>>(format: &F, collect: C, concurrency: usize) -> C {
    let total = format.games();
    let desk = Mutex::new(Desk {
        collect,
        played: 0,
        progress: match_progress(total),
    });
    progress::set_known(format!("0 of {total} games played"));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(total.max(1)) {
            scope.spawn(|| work(format, &desk, &next));
        }
    });
    desk.into_inner().unwrap_or_else(|p| p.into_inner()).collect
}

/// A worker's loop: the next game number until none is left or the match stops.
fn work<F: Format, C: Collect<F::Record>>(format: &F, desk: &Mutex<Desk<C>>, next: &AtomicUsize) {
    let (stop, total) = (format.stop(), format.games());
    let mut worker = F::Worker::default();
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= total {
            break;
        }
        let slot = Slot::of(index, format.seatings());
        let mut announce = |line| lock(desk).collect.started(line);
        match format.play(slot, &mut worker, &mut announce) {
            Played::Finished(record) => {
                let mut desk = lock(desk);
                match desk.collect.finished(slot, record) {
                    Taken::Ignored => continue,
                    Taken::Stop => stop.store(true, Ordering::Relaxed),
                    Taken::Go => {}
                }
                let figures = desk.collect.figures();
                desk.counted(total, &figures);
            }
            Played::Cut => break,
            Played::Failed(e) => {
                lock(desk).collect.failed(e);
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
}

impl<C> Desk<C> {
    /// One more game counted: the progress, and what Ctrl-C prints.
    fn counted(&mut self, total: usize, figures: &str) {
        self.played += 1;
        self.progress.set(self.played as u64, "games");
        progress::set_known(format!(
            "{} of {total} games played\n{figures}",
            self.played
        ));
    }
}

/// The match's progress on stderr: plain lines with percentage and ETA (a bar would be torn
/// by the game lines), none with `KIEBITZ_PROGRESS=off`; Ctrl-C prints the figures known.
fn match_progress(total: usize) -> Progress {
    let style = match Style::detect() {
        Style::Bar => Style::Lines,
        other => other,
    };
    progress::catch_interrupt();
    Progress::with_style("kiebitz-match", total as u64, style)
}

/// [`MatchError::File`]: the output file `what` at `path` could not be opened or written.
fn file_error(
    action: &'static str,
    what: &str,
    path: &str,
    reason: impl std::fmt::Display,
) -> MatchError {
    MatchError::File {
        action,
        what: what.to_string(),
        path: path.to_string(),
        reason: reason.to_string(),
    }
}

/// A match's output file (`--pgn FILE`, `--epdout FILE`), or none; `what` names it in
/// errors.
pub struct PgnFile(Option<std::fs::File>);

impl PgnFile {
    /// `path` opened for appending (the two-seat runner adds to a file); `what` names the
    /// file in errors (`PGN file`, `EPD file`).
    pub fn append(path: Option<&str>, what: &str) -> Result<PgnFile, MatchError> {
        let Some(path) = path else {
            return Ok(PgnFile(None));
        };
        crate::files::append(std::path::Path::new(path))
            .map(|f| PgnFile(Some(f)))
            .map_err(|e| file_error("open", what, path, e))
    }

    /// `path` made empty, then opened for appending (the N-seat runner starts a new file).
    pub fn create(path: Option<&str>, what: &str) -> Result<PgnFile, MatchError> {
        if let Some(path) = path {
            crate::files::write_whole(std::path::Path::new(path), |_| Ok(()))
                .map_err(|e| file_error("write", what, path, e))?;
        }
        PgnFile::append(path, what)
    }

    /// Writes the text of a record (made only when there is a file) and flushes it.
    pub fn write(&mut self, text: impl FnOnce() -> String) -> std::io::Result<()> {
        match self.0.as_mut() {
            Some(f) => f.write_all(text().as_bytes()).and_then(|_| f.flush()),
            None => Ok(()),
        }
    }
}

/// `--check-pgn`: the records of the file at `path` (read by `read`), each replayed by `replay`
/// (`Ok` with a summary, or why it is wrong), a line a game and the count of wrong ones given
/// to `out`; an error when any is wrong.
pub fn check_records<E: std::fmt::Display>(
    path: &str,
    read: impl FnOnce(&str) -> Result<Vec<PgnGame>, E>,
    replay: impl Fn(&PgnGame) -> Result<String, String>,
    mut out: impl FnMut(std::fmt::Arguments) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let text =
        crate::files::read_input_text(path, MAX_PGN_BYTES).map_err(|e| format!("PGN file: {e}"))?;
    let games = read(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut bad = 0;
    for (i, g) in games.iter().enumerate() {
        match replay(g) {
            Ok(summary) => out(format_args!("game {}: ok ({summary})", i + 1))?,
            Err(e) => {
                bad += 1;
                out(format_args!("game {}: {e}", i + 1))?
            }
        }
    }
    out(format_args!("{} games, {bad} wrong", games.len()))?;
    if bad > 0 {
        return Err(CliError::Failed(format!(
            "{bad} of {} games in {path} do not replay to their result",
            games.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `games` games of `seatings` seatings a round; the worker counts its games.
    struct Counting {
        games: usize,
        seatings: usize,
        stop: AtomicBool,
    }

    impl Format for Counting {
        type Record = Slot;
        type Worker = usize;
        fn games(&self) -> usize {
            self.games
        }
        fn seatings(&self) -> usize {
            self.seatings
        }
        fn stop(&self) -> &AtomicBool {
            &self.stop
        }
        fn play(
            &self,
            slot: Slot,
            worker: &mut usize,
            announce: &mut dyn FnMut(String),
        ) -> Played<Slot> {
            *worker += 1;
            announce(format!("game {}", slot.number()));
            Played::Finished(slot)
        }
    }

    /// Keeps the slots; stops after `stop_after` games.
    #[derive(Default)]
    struct Keep {
        slots: Vec<Slot>,
        lines: usize,
        stop_after: usize,
    }

    impl Collect<Slot> for Keep {
        fn started(&mut self, _line: String) {
            self.lines += 1;
        }
        fn finished(&mut self, slot: Slot, record: Slot) -> Taken {
            assert_eq!(slot, record);
            self.slots.push(slot);
            if self.slots.len() == self.stop_after {
                Taken::Stop
            } else {
                Taken::Go
            }
        }
        fn failed(&mut self, error: String) {
            panic!("{error}");
        }
        fn figures(&self) -> String {
            String::new()
        }
    }

    #[test]
    fn every_game_once_with_its_round_and_seating() {
        let format = Counting {
            games: 14,
            seatings: 6,
            stop: AtomicBool::new(false),
        };
        let keep = play(&format, Keep::default(), 3);
        let mut slots = keep.slots;
        slots.sort_by_key(|s| s.index);
        assert_eq!(slots.len(), 14);
        assert_eq!(keep.lines, 14);
        for (i, s) in slots.iter().enumerate() {
            assert_eq!(*s, Slot::of(i, 6));
        }
        assert_eq!(
            Slot::of(13, 6),
            Slot {
                index: 13,
                round: 2,
                seating: 1
            }
        );
    }

    #[test]
    fn a_stop_starts_no_further_game_on_one_worker() {
        let format = Counting {
            games: 10,
            seatings: 2,
            stop: AtomicBool::new(false),
        };
        let keep = Keep {
            stop_after: 3,
            ..Keep::default()
        };
        let keep = play(&format, keep, 1);
        assert_eq!(keep.slots.len(), 3);
        assert!(format.stop.load(Ordering::Relaxed));
    }
}
