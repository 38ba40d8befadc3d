//! The search thread every protocol dialect shares: one job at a time (a search, a perft) on a
//! thread of its own that borrows the session's searcher and gives it back, the options that
//! need the searcher (table size, clearing) applied when it is back, the session's memory
//! budget and job ceiling ([`super::Watchdog`]). Generic over the searcher: the two-seat
//! search ([`crate::search::Searcher`], UCI and XBoard) and the N-seat one
//! ([`crate::nsearch::Searcher`], the N-seat dialect) run on the same [`Engine`].
//! Depends on `search` (the job's [`Control`] flags) and `nsearch`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use super::{HashBudget, SessionConfig, Watchdog};
use crate::board::Move;
use crate::game::Game;
use crate::ngame::NGame;
use crate::search::Control;

/// What a session's search thread owns: a searcher whose table can be resized and cleared.
pub trait Searching: Send + 'static {
    /// Resizes the transposition table to `mb` MiB.
    fn set_hash(&mut self, mb: usize);
    /// Forgets what was learnt (a new game).
    fn clear(&mut self);
}

impl<G: Game> Searching for crate::search::Searcher<G> {
    fn set_hash(&mut self, mb: usize) {
        crate::search::Searcher::set_hash(self, mb);
    }
    fn clear(&mut self) {
        crate::search::Searcher::clear(self);
    }
}

impl<G: NGame> Searching for crate::nsearch::Searcher<G> {
    fn set_hash(&mut self, mb: usize) {
        self.resize(mb);
    }
    fn clear(&mut self) {
        crate::nsearch::Searcher::clear(self);
    }
}

/// Makes a fresh searcher with a table of the given size.
type Maker<S> = Box<dyn Fn(usize) -> S + Send>;

/// The body of a search job: runs on the search thread with the searcher and the job's
/// control flags; returns the move it announced, if any.
pub type JobBody<S> = Box<dyn FnOnce(&mut S, &Control) -> Option<Move> + Send>;

struct Job<S> {
    control: Arc<Control>,
    handle: JoinHandle<(S, Option<Move>)>,
    /// Whether the job ends by itself (a search with a limit), so that it may finish at
    /// the end of input.
    finite: bool,
    /// The ceiling watchdog, dropped (woken and joined) with the job so that no thread
    /// outlives the session.
    watchdog: Option<Watchdog>,
}

/// The search thread and the searcher it borrows. One job at a time; options that need the
/// searcher (hash size, clearing) are applied when it is back.
pub struct Engine<S: Searching> {
    searcher: Option<S>,
    job: Option<Job<S>>,
    hash_mb: usize,
    pending_hash: Option<usize>,
    pending_clear: bool,
    budget: Option<HashBudget>,
    ceiling: Option<Duration>,
    /// Makes a fresh searcher of a given table size (the session's oracle and options in it).
    make: Maker<S>,
    /// Whether the searchers have an oracle (`Solver Share` is offered then).
    has_oracle: bool,
}

impl<S: Searching> Engine<S> {
    /// A job thread under a session's memory budget and job ceiling, its searchers made by
    /// `make` from a table size; `has_oracle` says whether they ask an oracle first.
    pub fn with_config(
        config: &SessionConfig,
        has_oracle: bool,
        make: impl Fn(usize) -> S + Send + 'static,
    ) -> Self {
        let budget = config.hash_budget.clone();
        let hash_mb = match &budget {
            Some(b) => b.exchange(0, config.hash_mb),
            None => config.hash_mb,
        };
        Engine {
            searcher: Some(make(hash_mb)),
            job: None,
            hash_mb,
            pending_hash: None,
            pending_clear: false,
            budget,
            ceiling: config.job_ceiling,
            make: Box::new(make),
            has_oracle,
        }
    }

    /// Whether the session's searches have an oracle (`Solver Share` is offered then).
    pub fn has_oracle(&self) -> bool {
        self.has_oracle
    }

    /// The transposition-table size in MiB (as last requested).
    pub fn hash_mb(&self) -> usize {
        self.pending_hash.unwrap_or(self.hash_mb)
    }

    /// Resizes the transposition table, now or when the running search ends. Returns the
    /// size granted: less than `mb` when the shared memory budget is short.
    pub fn set_hash(&mut self, mb: usize) -> usize {
        let granted = match &self.budget {
            Some(b) => b.exchange(self.hash_mb(), mb),
            None => mb,
        };
        self.pending_hash = Some(granted);
        self.apply_pending();
        granted
    }

    /// Clears what the searcher has learnt, now or when the running search ends.
    pub fn clear(&mut self) {
        self.pending_clear = true;
        self.apply_pending();
    }

    fn apply_pending(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            if let Some(mb) = self.pending_hash.take() {
                self.hash_mb = mb;
                s.set_hash(mb);
                self.pending_clear = false;
            }
            if std::mem::take(&mut self.pending_clear) {
                s.clear();
            }
        }
    }

    /// Whether a job is running (or finished but not yet collected).
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Whether the running job has finished by itself.
    pub fn finished(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.handle.is_finished())
    }

    /// The running job's control flags.
    pub fn control(&self) -> Option<&Control> {
        self.job.as_ref().map(|j| &*j.control)
    }

    /// Asks the running job to stop.
    pub fn stop(&self) {
        if let Some(c) = self.control() {
            c.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Starts a job on a new thread (after collecting any previous one); it does not end by
    /// itself (see [`Engine::spawn_with`]).
    pub fn spawn(&mut self, pondering: bool, body: JobBody<S>) {
        self.spawn_with(pondering, false, body);
    }

    /// Whether the running job ends by itself (a search with a limit).
    pub fn finite(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.finite)
    }

    /// At the end of input: a finite job (if `finish`) runs to its end, any other is stopped;
    /// returns the move it announced.
    pub fn finish(&mut self, finish: bool) -> Option<Move> {
        if !(finish && self.finite()) {
            self.stop();
        }
        self.wait()
    }

    /// Starts a job on a new thread (after collecting any previous one); `finite` tells
    /// whether it ends by itself. Under a ceiling, a watchdog stops the job when it is up.
    pub fn spawn_with(&mut self, pondering: bool, finite: bool, body: JobBody<S>) {
        self.wait();
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| (self.make)(self.hash_mb));
        let control = Arc::new(Control::default());
        control.pondering.store(pondering, Ordering::SeqCst);
        let ctl = Arc::clone(&control);
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let announced = body(&mut searcher, &ctl);
                (searcher, announced)
            });
        let watchdog = self
            .ceiling
            .map(|ceiling| Watchdog::start(ceiling, Arc::clone(&control), |c| &c.stop));
        match handle {
            Ok(handle) => {
                self.job = Some(Job {
                    control,
                    handle,
                    finite,
                    watchdog,
                })
            }
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                self.searcher = Some((self.make)(self.hash_mb));
            }
        }
    }

    /// Waits for the running job to end (it must be stopping or finite) and takes the
    /// searcher back. Returns the move the job announced.
    pub fn wait(&mut self) -> Option<Move> {
        let job = self.job.take()?;
        let joined = job.handle.join();
        drop(job.watchdog);
        let announced = match joined {
            Ok((searcher, announced)) => {
                self.searcher = Some(searcher);
                announced
            }
            Err(_) => {
                log::error!("the search thread panicked; starting a fresh searcher");
                self.searcher = Some((self.make)(self.hash_mb));
                None
            }
        };
        self.apply_pending();
        announced
    }

    /// Stops the running job and waits for it.
    pub fn stop_and_wait(&mut self) -> Option<Move> {
        self.stop();
        self.wait()
    }
}

impl<S: Searching> Drop for Engine<S> {
    fn drop(&mut self) {
        self.stop_and_wait();
        if let Some(b) = &self.budget {
            b.release(self.hash_mb());
        }
    }
}
