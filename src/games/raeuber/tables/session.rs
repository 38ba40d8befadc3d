//! A protocol session's endgame tables (`Endgame Tables`, `Endgame Tables Path`): the limit
//! and the folder it set and the tables it probes, held in its own game settings and entered
//! by its search threads, never the process's — the family's plumbing
//! ([`crate::games::losing::tables::session`]) instantiated with Räuberschach's tables and its
//! session's proof files; what is Räuberschach's own is here: the options' effects (its
//! [`Member`] impl: `use_in_process`, `use_in_session`, `retake`, as antichess's tables have
//! them), a set's key and build. Sessions asking for the same
//! tables (the same pieces from the same folder) share one read-only set, built once and
//! freed with its last holder; under an engine server the set's memory is taken from the
//! server's pool ([`Access::memory`]) and given back with it, and its files are read, never
//! written ([`Access::writes`]).

use std::path::PathBuf;
use std::sync::{Arc, Weak};

use super::{Tables, multisets};
use crate::engine_option::{Access, SharedSets};
use crate::game::TableBuilds;
use crate::games::losing::Six;
use crate::games::losing::tables::session::{self as family, Hold, Member};
use crate::games::raeuber::certificates::Store;
use crate::games::raeuber::position::Raeuber;
use crate::table_error::TableError;

/// The signatures built on demand that a set under a memory pool may keep, in MiB (about
/// three four-piece signatures); the least recently probed go first.
pub const POOLED_ON_DEMAND_MB: usize = 32;

/// One set of tables as the sessions holding it share it.
pub type Shared = crate::games::losing::tables::session::Shared<Tables>;

/// A session's endgame table settings: probe positions of at most `limit` pieces in `set`
/// (`None`: the process's, [`super::installed`]), read from `dir`; and (`extra`) the
/// session's own checked proof files (option `ProofFiles`,
/// [`crate::games::raeuber::certificates`]).
pub type TableSettings = Hold<Tables>;

/// The process's settings: its limit, its tables.
pub fn process_settings() -> TableSettings {
    TableSettings {
        limit: Tables::process().limit(),
        ..TableSettings::default()
    }
}

impl Member for Tables {
    type Board = Six;
    type Extra = Option<Arc<Store>>;
    const IN_FOLDER: &'static str = "their files are";
    const OFFERED: u32 = 4;

    fn probe_in(&self, pos: &Raeuber) -> Option<i16> {
        self.probe(pos)
    }

    // The process's tables, their limit and their folder; the settings this thread entered
    // (`None`: the process's).
    family::member_holds!(Tables);

    fn folder_changed(&self, dir: &Option<PathBuf>) {
        self.set_dir(dir.clone());
    }

    /// The three-piece tables built now (`builds` waits) or in the background, larger
    /// signatures built as met.
    fn use_in_process(max_pieces: u32, builds: TableBuilds) -> Result<String, TableError> {
        if max_pieces == 0 {
            super::set_limit(0);
            return Ok("endgame tables off".to_string());
        }
        if max_pieces > 5 {
            return Err(TableError::OverFive { asked: max_pieces });
        }
        // Four and five pieces: the three-piece tables now, each larger signature when met.
        let on_demand = match (max_pieces, builds) {
            (4, TableBuilds::Wait) => "; those of 4 pieces built signature by signature as met",
            (5, TableBuilds::Wait) => {
                "; those of 4 and 5 pieces built signature by signature as met (a five-piece \
                 one in about a minute)"
            }
            (4 | 5, TableBuilds::Background) => {
                "; those of more than 3 pieces built signature by signature as met, in the \
                 background (a search never waits for one)"
            }
            _ => "",
        };
        if let Some(built) = super::installed() {
            if built.max_pieces() < max_pieces {
                return Err(TableError::ProcessHolds {
                    held: built.max_pieces(),
                });
            }
            if builds == TableBuilds::Background {
                built.build_in_background();
            }
            super::set_limit(max_pieces);
            return Ok(format!(
                "endgame tables of up to {max_pieces} pieces{on_demand}"
            ));
        }
        if builds == TableBuilds::Background {
            // A search at a clock, and a GUI waiting for `readyok`: nothing here waits for
            // the build; the probes answer once the tables are there.
            super::install_in_background()?;
            super::set_limit(max_pieces);
            return Ok(format!(
                "endgame tables of up to {max_pieces} pieces: those of up to 3 being built in \
                 the background (seconds), probed once they are there{on_demand}"
            ));
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let line = super::build_and_install(max_pieces.min(3), threads);
        super::set_limit(max_pieces);
        Ok(format!("{line}{on_demand}"))
    }

    /// Kept when the tables go off.
    fn use_in_session(
        mut own: TableSettings,
        max_pieces: u32,
        access: &Access,
    ) -> Result<(TableSettings, String), TableError> {
        if max_pieces == 0 {
            // The session keeps its hold (counted, freed with the session): on again, it
            // probes them at once.
            return Ok((
                TableSettings { limit: 0, ..own },
                "endgame tables off".to_string(),
            ));
        }
        let most = most_pieces(access);
        if max_pieces > most {
            return Err(TableError::OverHere {
                asked: max_pieces,
                most,
            });
        }
        let (set, new) = match own.set.take() {
            Some(set) => (set, false),
            None => obtain(own.dir.clone(), access)?,
        };
        own.limit = max_pieces;
        own.set = Some(set);
        let on_demand = if max_pieces > 3 {
            "; those of more than 3 pieces built signature by signature as met, in the \
             background (a search never waits for one)"
        } else {
            ""
        };
        let line = if new {
            format!(
                "endgame tables of up to {max_pieces} pieces: those of up to 3 being built in \
                 the background (seconds), probed once they are there{on_demand}"
            )
        } else {
            format!("endgame tables of up to {max_pieces} pieces{on_demand}")
        };
        Ok((own, line))
    }

    /// A set held from the old folder is let go for the new folder's.
    fn retake(
        mut own: TableSettings,
        held: bool,
        access: &Access,
    ) -> Result<(TableSettings, Option<String>), TableError> {
        if held {
            // The session's tables come from the new folder from now on.
            own.set = Some(obtain(own.dir.clone(), access)?.0);
        }
        Ok((own, None))
    }

    /// The process's limit ([`process_settings`]).
    fn first_hold() -> TableSettings {
        process_settings()
    }
}

/// The proof files of the settings this thread entered, if any.
pub fn proofs() -> Option<Arc<Store>> {
    crate::games::losing::tables::session::entered_extra::<Tables>().flatten()
}

/// What a set is: the most pieces it answers for, the folder, whether it writes.
type Key = (u32, Option<PathBuf>, bool);

/// The pieces of the signatures a set builds at once (more are built as met).
const AT_ONCE: u32 = 3;

/// The sets held by some session.
static SETS: SharedSets<Key, Shared> = SharedSets::new();

/// The bytes the tables of every signature of up to `pieces` pieces take.
pub fn bytes_of(pieces: u32) -> usize {
    (1..=pieces as usize)
        .map(|n| multisets(n).len() * 2 * 36usize.pow(n as u32) * std::mem::size_of::<i16>())
        .sum()
}

/// The most pieces a set answers for under `access`: five, four under a memory pool (a
/// five-piece signature alone takes 242 MB).
pub fn most_pieces(access: &Access) -> u32 {
    if access.memory.is_some() { 4 } else { 5 }
}

/// The set of tables from `dir` under `access`: one a session holds already, or a new one
/// built in the background (the three-piece tables in seconds; larger signatures one by one
/// as met, up to [`most_pieces`]). Its memory is taken from `access`'s pool; a refusal when
/// that has too little left. Returns the set and whether it is new.
pub fn obtain(dir: Option<PathBuf>, access: &Access) -> Result<(Arc<Shared>, bool), TableError> {
    let key: Key = (most_pieces(access), dir, access.writes);
    SETS.obtain(key.clone(), || new_set(&key, access))
}

/// A new set for `key`, its memory taken from `access`'s pool, its build started.
fn new_set(key: &Key, access: &Access) -> Result<Arc<Shared>, TableError> {
    let mb = bytes_of(AT_ONCE).div_ceil(1 << 20) + POOLED_ON_DEMAND_MB;
    let (key, pooled) = (key.clone(), access.memory.is_some());
    Shared::building(access, mb, move |weak| build(&weak, key, pooled))
}

/// Builds the tables of the set `weak` points to (`pooled`: its memory lent by a pool) and
/// publishes them, while a session holds it; with more pieces than three, first starts the
/// thread that builds their larger signatures as probes meet them.
fn build(weak: &Weak<Shared>, (most, dir, writes): Key, pooled: bool) {
    let tables = Tables::build_from(AT_ONCE, 1, dir, writes).on_demand_up_to(most);
    if pooled {
        tables.set_on_demand_budget(POOLED_ON_DEMAND_MB << 20);
    }
    let Some(set) = weak.upgrade() else {
        return;
    };
    let [won, lost, drawn, _] = tables.census();
    eprintln!(
        "endgame tables of up to {AT_ONCE} pieces: {} positions",
        won + lost + drawn
    );
    // Before the probes see them, so that none waits for a larger signature.
    let later = Weak::clone(weak);
    tables.start_background(move |key| {
        family::while_held(&later, |t| {
            t.lazy_table(key);
        })
    });
    set.publish(tables);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_option::MemoryPool;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A pool of MiB as a server's `--max-hash` is.
    struct Pool(AtomicUsize);

    impl MemoryPool for Pool {
        fn take(&self, mb: usize) -> bool {
            self.0
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |f| f.checked_sub(mb))
                .is_ok()
        }

        fn give_back(&self, mb: usize) {
            self.0.fetch_add(mb, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_set_is_shared_counted_and_given_back_with_its_last_holder() {
        let pool = Arc::new(Pool(AtomicUsize::new(150)));
        let access = Access {
            writes: false,
            memory: Some(Arc::clone(&pool) as Arc<dyn MemoryPool>),
        };
        let free = || pool.0.load(Ordering::SeqCst);
        let dir = Some(PathBuf::from("/kiebitz-test-no-folder/a"));
        let (a, new_a) = obtain(dir.clone(), &access).unwrap();
        let (b, new_b) = obtain(dir.clone(), &access).unwrap();
        assert!(
            new_a && !new_b && Arc::ptr_eq(&a, &b),
            "one set for one folder"
        );
        let taken = bytes_of(AT_ONCE).div_ceil(1 << 20) + POOLED_ON_DEMAND_MB;
        assert_eq!((taken, free()), (98, 150 - 98), "counted once");
        // Another folder's set does not fit in what is left: refused, nothing taken.
        let other = obtain(Some(PathBuf::from("/kiebitz-test-no-folder/b")), &access);
        assert!(other.is_err_and(|e| e == TableError::Memory { mb: 98 }));
        assert_eq!(free(), 150 - 98);
        drop(a);
        assert_eq!(free(), 150 - 98, "B still holds the set");
        drop(b);
        assert_eq!(free(), 150, "given back with the last holder");
        let (_, again) = obtain(dir, &access).unwrap();
        assert!(again, "a set no one holds is gone");
    }
}
