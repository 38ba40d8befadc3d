//! The plumbing between a member's endgame tables and the protocols, once for the family: the
//! process's set with its limit and folder ([`Process`]: `solve --tables`, a lone engine), a
//! protocol session's hold ([`Hold`]: `Endgame Tables`, `Endgame Tables Path`, kept in its
//! settings by [`session_tables`] and [`session_tables_dir`]) on a set that the sessions
//! asking for the same tables share ([`Shared`], built once on a thread of its own,
//! [`Shared::building`], freed with its last holder, its memory lent by a server's pool), the
//! hold a search thread entered ([`enter`]) and the probe through it ([`probe`]), and the
//! folder a user names ([`folder`], [`process_dir`], [`session_dir`]). Each member
//! instantiates it with its tables ([`Member`]) and keeps what is its own: what the options do
//! to the process's tables and to a session's hold, a set's key, how it is built, its limits.
//! The family's `EndgameTables` impl (`losing/game.rs`) calls through here.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock, RwLock, Weak};
use std::thread::LocalKey;

use super::super::{Board, Position};
use super::worker;
use crate::engine_option::{Access, GameSettings, Lease};
use crate::game::TableBuilds;
use crate::table_error::TableError;

/// A member's endgame tables as the family's plumbing sees them.
pub trait Member: Send + Sync + Sized + 'static {
    /// The member's board.
    type Board: Board;
    /// What the member's hold keeps besides the family's fields (Räuberschach: the session's
    /// proof files; antichess: whether its set holds the four-piece tables).
    type Extra: Clone + Default + Send + Sync + 'static;
    /// What the folder's lines say is read from it: "their files are" (one a signature) or
    /// "their file is".
    const IN_FOLDER: &'static str;
    /// The most pieces the protocols offer (`Endgame Tables`).
    const OFFERED: u32;

    /// The value of `pos` in these tables (`d + 1` won in d plies, `-(d + 1)` lost, 0
    /// drawn); `None` where they do not answer.
    fn probe_in(&self, pos: &Position<Self::Board>) -> Option<i16>;
    /// The process's set, limit and folder.
    fn process() -> &'static Process<Self>;
    /// The hold this thread's searches probe (`None`: the process's).
    fn entered() -> &'static LocalKey<RefCell<Option<Hold<Self>>>>;
    /// Told that the process's folder is now `dir` (the tables that build on demand read
    /// and write there from now on); nothing by default.
    fn folder_changed(&self, _dir: &Option<PathBuf>) {}

    /// The process's tables after `Endgame Tables` = `max_pieces` (0: off; `solve --tables`,
    /// a lone engine), built now where `builds` waits, else in the background; the line to
    /// report.
    fn use_in_process(max_pieces: u32, builds: TableBuilds) -> Result<String, TableError>;
    /// A session's `hold` after `Endgame Tables` = `max_pieces` (0: off): a set the sessions
    /// asking alike share, its memory taken from `access`'s pool; the line to report.
    fn use_in_session(
        hold: Hold<Self>,
        max_pieces: u32,
        access: &Access,
    ) -> Result<(Hold<Self>, String), TableError>;
    /// What a session's `hold` takes once `Endgame Tables Path` named another folder (`held`:
    /// it held a set from the old one, now let go), and what to add to the line.
    fn retake(
        hold: Hold<Self>,
        held: bool,
        access: &Access,
    ) -> Result<(Hold<Self>, Option<String>), TableError>;
    /// A session's hold before its first table option: none (the default).
    fn first_hold() -> Hold<Self> {
        Hold::default()
    }
}

/// Writes a member's [`Member::process`] and [`Member::entered`] inside its `impl Member for
/// $tables`: the process's set and the hold this thread entered, each a static of its own (a
/// generic function cannot own one).
macro_rules! member_holds {
    ($tables:ty) => {
        fn process() -> &'static $crate::games::losing::tables::session::Process<$tables> {
            static PROCESS: $crate::games::losing::tables::session::Process<$tables> =
                $crate::games::losing::tables::session::Process::new();
            &PROCESS
        }

        fn entered() -> &'static std::thread::LocalKey<
            std::cell::RefCell<Option<$crate::games::losing::tables::session::Hold<$tables>>>,
        > {
            thread_local! {
                static ENTERED: std::cell::RefCell<
                    Option<$crate::games::losing::tables::session::Hold<$tables>>,
                > = const { std::cell::RefCell::new(None) };
            }
            &ENTERED
        }
    };
}
pub(crate) use member_holds;

/// The process's tables (installed once), the most pieces they are probed for (0: off) and
/// the folder they read and write.
pub struct Process<T> {
    tables: OnceLock<T>,
    limit: AtomicU32,
    dir: RwLock<Option<PathBuf>>,
}

impl<T> Process<T> {
    pub const fn new() -> Self {
        Process {
            tables: OnceLock::new(),
            limit: AtomicU32::new(0),
            dir: RwLock::new(None),
        }
    }

    /// The process's tables, if installed.
    pub fn tables(&self) -> Option<&T> {
        self.tables.get()
    }

    /// Makes `tables` the process's (the first call wins; false if some were there).
    pub fn install(&self, tables: T) -> bool {
        self.tables.set(tables).is_ok()
    }

    /// The most pieces of a position the process's tables answer for (0: none).
    pub fn limit(&self) -> u32 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Answers from the process's tables only for positions of at most `pieces` pieces.
    pub fn set_limit(&self, pieces: u32) {
        self.limit.store(pieces, Ordering::Relaxed);
    }

    /// The folder of the process's table files (`None`: in memory only).
    pub fn dir(&self) -> Option<PathBuf> {
        self.dir.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn set_dir(&self, dir: Option<PathBuf>) {
        *self.dir.write().unwrap_or_else(|e| e.into_inner()) = dir;
    }
}

impl<T> Default for Process<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// One set of tables as the sessions holding it share it: built in the background, then
/// read-only; the memory a server's pool lent for it goes with it.
pub struct Shared<T> {
    tables: OnceLock<T>,
    lease: Option<Lease>,
}

impl<T> Shared<T> {
    /// A set still to be built, its `mb` MiB taken from `access`'s pool where it has one: a
    /// refusal when that has too little left.
    pub fn new(access: &Access, mb: usize) -> Result<Arc<Shared<T>>, TableError> {
        let lease = match &access.memory {
            None => None,
            Some(pool) => Some(Lease::take(pool, mb).ok_or(TableError::Memory { mb })?),
        };
        Ok(Arc::new(Shared {
            tables: OnceLock::new(),
            lease,
        }))
    }

    /// The tables, once built.
    pub fn tables(&self) -> Option<&T> {
        self.tables.get()
    }

    /// Hands the set its tables, built (the first call wins).
    pub fn publish(&self, tables: T) {
        let _ = self.tables.set(tables);
    }

    /// Whether its memory is lent by a server's pool.
    pub fn pooled(&self) -> bool {
        self.lease.is_some()
    }
}

impl<T: Send + Sync + 'static> Shared<T> {
    /// [`Shared::new`], with the thread that builds it started ([`worker::BUILDS`]): `build`
    /// holds the set only weakly (where no session holds it any longer, it may stop) and
    /// publishes its tables.
    pub fn building(
        access: &Access,
        mb: usize,
        build: impl FnOnce(Weak<Shared<T>>) + Send + 'static,
    ) -> Result<Arc<Shared<T>>, TableError> {
        let set = Shared::new(access, mb)?;
        let weak = Arc::downgrade(&set);
        worker::spawn(worker::BUILDS, move || build(weak))?;
        Ok(set)
    }
}

/// Does `work` on the tables of the set `weak` points to, where they are built, while a
/// session holds the set: false where none does any longer (a worker's cue to stop).
pub fn while_held<T>(weak: &Weak<Shared<T>>, work: impl FnOnce(&T)) -> bool {
    let Some(set) = weak.upgrade() else {
        return false;
    };
    if let Some(tables) = set.tables() {
        work(tables);
    }
    true
}

/// A session's endgame tables: probe positions of at most `limit` pieces in `set` (`None`:
/// the process's tables), whose files are read from `dir`; and the member's own `extra`.
pub struct Hold<T: Member> {
    pub limit: u32,
    pub dir: Option<PathBuf>,
    pub set: Option<Arc<Shared<T>>>,
    pub extra: T::Extra,
}

impl<T: Member> Clone for Hold<T> {
    fn clone(&self) -> Self {
        Hold {
            limit: self.limit,
            dir: self.dir.clone(),
            set: self.set.clone(),
            extra: self.extra.clone(),
        }
    }
}

impl<T: Member> Default for Hold<T> {
    fn default() -> Self {
        Hold {
            limit: 0,
            dir: None,
            set: None,
            extra: T::Extra::default(),
        }
    }
}

/// Makes `hold` (or, for `None`, the process's tables) what this thread probes.
pub fn enter<T: Member>(hold: Option<&Hold<T>>) {
    T::entered().with(|e| *e.borrow_mut() = hold.cloned());
}

/// The member's part of the hold this thread entered, if any.
pub fn entered_extra<T: Member>() -> Option<T::Extra> {
    T::entered().with(|e| e.borrow().as_ref().map(|h| h.extra.clone()))
}

/// The value of `pos` from the tables this thread probes (the hold it entered, else the
/// process's; a hold without a set probes the process's within its own limit): `None`
/// beyond their limit or where they do not answer.
pub fn probe<T: Member>(pos: &Position<T::Board>) -> Option<i16> {
    let pieces = pos.occupied().count_ones();
    let process = T::process();
    T::entered().with(|e| match &*e.borrow() {
        Some(h) if pieces > h.limit => None,
        Some(h) => match &h.set {
            Some(set) => set.tables()?.probe_in(pos),
            None => process.tables()?.probe_in(pos),
        },
        None if pieces > process.limit() => None,
        None => process.tables()?.probe_in(pos),
    })
}

/// The folder a user named (`Endgame Tables Path`, `solve --tables-dir`) and the line to
/// report: `None` for an empty text; made where it is missing if `writes`, else refused
/// where it is not there (an engine server's client writes no files).
pub fn folder<T: Member>(dir: &str, writes: bool) -> Result<(Option<PathBuf>, String), TableError> {
    let dir = dir.trim();
    if dir.is_empty() || dir == "<empty>" {
        return Ok((None, "endgame tables in memory only".to_string()));
    }
    let path = PathBuf::from(dir);
    let read = format!(
        "endgame tables read from {dir} where {} there",
        T::IN_FOLDER
    );
    if writes {
        std::fs::create_dir_all(&path).map_err(|e| TableError::folder(dir, e))?;
        return Ok((Some(path), format!("{read}, and written there when built")));
    }
    if !path.is_dir() {
        return Err(TableError::NotAFolder {
            dir: dir.to_string(),
        });
    }
    let line = format!(
        "{read}; tables built are kept in memory, never written (this server writes no files)"
    );
    Ok((Some(path), line))
}

/// The process's folder (`solve --tables-dir`, `Endgame Tables Path` of a lone engine), made
/// where missing: for tables built from now on and for what the installed ones have still to
/// build. The line to report.
pub fn process_dir<T: Member>(dir: &str) -> Result<String, TableError> {
    let (dir, line) = folder::<T>(dir, true)?;
    let process = T::process();
    process.set_dir(dir.clone());
    if let Some(tables) = process.tables() {
        tables.folder_changed(&dir);
    }
    Ok(line)
}

/// A session's hold after `Endgame Tables Path` = `dir`, and the line to report. Where the
/// folder changed, the set held from the old one is let go and the member says what the hold
/// takes instead ([`Member::retake`]).
pub fn session_dir<T: Member>(
    mut hold: Hold<T>,
    dir: &str,
    access: &Access,
) -> Result<(Hold<T>, String), TableError> {
    let (dir, line) = folder::<T>(dir, access.writes)?;
    if hold.dir == dir {
        return Ok((hold, line));
    }
    hold.dir = dir;
    let held = hold.set.take().is_some();
    let (hold, more) = T::retake(hold, held, access)?;
    Ok(match more {
        Some(more) => (hold, format!("{line}; {more}")),
        None => (hold, line),
    })
}

/// The hold of a session's `settings`, or the member's first ([`Member::first_hold`]).
pub fn hold_in<T: Member>(settings: &GameSettings) -> Hold<T> {
    settings
        .get::<Hold<T>>()
        .cloned()
        .unwrap_or_else(T::first_hold)
}

/// A session's `Endgame Tables` = `max_pieces` ([`Member::use_in_session`]) kept in its
/// `settings`; the line to report.
pub fn session_tables<T: Member>(
    settings: &mut GameSettings,
    max_pieces: u32,
    access: &Access,
) -> Result<String, TableError> {
    let (hold, line) = T::use_in_session(hold_in::<T>(settings), max_pieces, access)?;
    settings.set(hold);
    Ok(line)
}

/// A session's `Endgame Tables Path` = `dir` ([`session_dir`]) kept in its `settings`; the
/// line to report.
pub fn session_tables_dir<T: Member>(
    settings: &mut GameSettings,
    dir: &str,
    access: &Access,
) -> Result<String, TableError> {
    let (hold, line) = session_dir(hold_in::<T>(settings), dir, access)?;
    settings.set(hold);
    Ok(line)
}
