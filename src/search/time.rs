//! Time management: how long one search may run, from the [`Limits`] of a `go` command.
//!
//! Two limits: the *soft* one (no new iteration starts after it: the next would rarely
//! finish) and the *hard* one (the running iteration is abandoned). A clock (`wtime`/`btime`
//! with increments and `movestogo`) gives an average share per move, of which 60% is the soft
//! limit and three times that the hard one, never more than 80% of the clock; such a search
//! may end early ([`TimeManager::is_timed`]: at a settled best move, with one legal move, at a
//! proven mate). `movetime T` alone is exact: the hard limit `T - Move Overhead` is the only
//! one, so the search answers between `T - Move Overhead` and `T` whatever it finds (when it
//! knows its answer sooner, [`super::Searcher::search`] waits). The move overhead is taken off
//! everything. While pondering the clock does not run: it starts when pondering ends
//! (`ponderhit`).
//!
//! The time is read from a [`Clock`]: the real monotonic one, or a fake one that tests advance
//! by hand or by a step at every reading, so that no test depends on the machine's speed.
//! Depends on [`super::Limits`] only.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::Limits;
use crate::board::Color;

pub use crate::search::params::DEFAULT_MOVES_TO_GO;

/// Where a search reads the time: the real monotonic clock (the default), or a fake one.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    fake: Option<Arc<FakeTime>>,
}

/// A fake clock's state: the time now and how far each reading moves it on (nanoseconds).
#[derive(Debug)]
struct FakeTime {
    now: AtomicU64,
    step: u64,
}

impl Clock {
    /// The real monotonic clock.
    pub fn real() -> Clock {
        Clock::default()
    }

    /// A fake clock at zero that moves on by `step` at every reading (zero: only by
    /// [`Clock::advance`]). Clones share the time.
    pub fn fake(step: Duration) -> Clock {
        Clock {
            fake: Some(Arc::new(FakeTime {
                now: AtomicU64::new(0),
                step: step.as_nanos().min(u64::MAX as u128) as u64,
            })),
        }
    }

    /// The time since the clock's origin (the first reading of the real clock in this
    /// process; zero for a fake one).
    pub fn now(&self) -> Duration {
        match &self.fake {
            Some(f) => Duration::from_nanos(f.now.fetch_add(f.step, Ordering::Relaxed)),
            None => {
                static ORIGIN: OnceLock<Instant> = OnceLock::new();
                ORIGIN.get_or_init(Instant::now).elapsed()
            }
        }
    }

    /// Moves a fake clock on by `by` (the real clock cannot be moved: nothing happens).
    pub fn advance(&self, by: Duration) {
        if let Some(f) = &self.fake {
            let ns = by.as_nanos().min(u64::MAX as u128) as u64;
            f.now.fetch_add(ns, Ordering::Relaxed);
        }
    }

    /// The fake clock's time without moving it on; `None` for the real clock.
    pub fn peek(&self) -> Option<Duration> {
        self.fake
            .as_ref()
            .map(|f| Duration::from_nanos(f.now.load(Ordering::Relaxed)))
    }
}

/// A search's time limits and clock.
#[derive(Clone, Debug)]
pub struct TimeManager {
    clock: Clock,
    /// When the search began (what `Info::time` counts from), on `clock`.
    start: Duration,
    /// When the clock began to run; `None` while pondering.
    clock_start: Option<Duration>,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether a game clock (`wtime`/`btime`) limits the search, so that it may end early.
    by_clock: bool,
}

impl TimeManager {
    /// The limits of a search by `side` under `limits`, the clock stopped if `pondering`;
    /// without `movestogo`, the clock is shared as if `moves_left` moves remained.
    pub fn new(limits: &Limits, side: Color, pondering: bool, moves_left: u32) -> TimeManager {
        Self::with_clock(limits, side, pondering, moves_left, Clock::real())
    }

    /// [`TimeManager::new`] reading the time from `clock`.
    pub fn with_clock(
        limits: &Limits,
        side: Color,
        pondering: bool,
        moves_left: u32,
        clock: Clock,
    ) -> TimeManager {
        let now = clock.now();
        let (soft, hard) = Self::budget(limits, side, moves_left);
        TimeManager {
            clock,
            start: now,
            clock_start: (!pondering).then_some(now),
            soft,
            hard,
            by_clock: !limits.infinite && limits.time[side.index()].is_some(),
        }
    }

    /// (soft, hard) limits, `None` when time does not limit the search.
    fn budget(
        limits: &Limits,
        side: Color,
        moves_left: u32,
    ) -> (Option<Duration>, Option<Duration>) {
        if limits.infinite {
            return (None, None);
        }
        let overhead = limits.move_overhead;
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(clock) = limits.time[side.index()] {
            let avail = clock.saturating_sub(overhead);
            let mtg = limits.movestogo.unwrap_or(moves_left).clamp(1, 50);
            let inc = limits.inc[side.index()];
            let share = (avail / mtg + inc * 3 / 4).min(avail);
            let cap = if mtg == 1 {
                avail * 9 / 10
            } else {
                avail * 4 / 5
            };
            let h = (share * 3).min(cap);
            soft = Some((share * 3 / 5).min(h));
            hard = Some(h);
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead);
            soft = Some(soft.map_or(t, |s| s.min(t)));
            hard = Some(hard.map_or(t, |h| h.min(t)));
        }
        (soft, hard)
    }

    /// Whether time management may end the search between iterations (at the soft limit,
    /// with one legal move, at a proven mate): only when a game clock (`wtime`/`btime`)
    /// limits it. `movetime` alone is exact and ends the search at its hard limit only.
    pub fn is_timed(&self) -> bool {
        self.by_clock && self.hard.is_some()
    }

    /// Time since the search began.
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }

    /// Tells whether pondering still goes on; the clock starts when it stops.
    pub fn pondering(&mut self, pondering: bool) {
        if !pondering && self.clock_start.is_none() {
            self.clock_start = Some(self.clock.now());
        }
    }

    /// Time on the clock since it began to run (zero while pondering).
    fn used(&self) -> Option<Duration> {
        self.clock_start.map(|s| self.clock.now().saturating_sub(s))
    }

    /// Whether the running iteration must be abandoned.
    pub fn hard_exceeded(&self) -> bool {
        match (self.hard, self.used()) {
            (Some(h), Some(used)) => used >= h,
            _ => false,
        }
    }

    /// Whether no new iteration should start; `scale` (0.5 … 2.8, times the search's
    /// `time_soft_percent`) stretches the soft limit when the best move is unstable and
    /// shrinks it when it is settled. Never before the hard limit when no game clock limits
    /// the search (`movetime` is exact).
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        match (self.soft, self.hard, self.used()) {
            (Some(s), Some(h), Some(used)) if self.by_clock => used >= s.mul_f64(scale).min(h),
            (_, Some(h), Some(used)) => used >= h,
            _ => false,
        }
    }

    /// The time a game's solver may take before the search: `share_percent` of the soft
    /// limit (at most 5 s), and a quarter second when time does not limit the search (scaled
    /// the same way from the default share of 10 %).
    pub fn solver_budget(&self, share_percent: u32) -> Duration {
        let share = share_percent.min(100);
        self.soft
            .map_or(Duration::from_millis(25) * share, |s| s * share / 100)
            .min(Duration::from_secs(5))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clock_shares() {
        // 35 s, no increment, sudden death: 1 s per move, soft 0.6 s, hard 3 s.
        let limits = Limits {
            time: [Some(ms(35_000)), Some(ms(1000))],
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, DEFAULT_MOVES_TO_GO),
            (Some(ms(600)), Some(ms(3000)))
        );
        // Black: 1 s left: share 1000/35 = 28.57 ms.
        let (soft, hard) = TimeManager::budget(&limits, Color::Black, DEFAULT_MOVES_TO_GO);
        assert_eq!(hard, Some(Duration::from_nanos(28_571_428 * 3)));
        assert_eq!(soft, Some(Duration::from_nanos(28_571_428 * 3 / 5)));
        // One move to go with 1 s and 100 ms overhead: share 900 ms, hard 810 ms (90%).
        let limits = Limits {
            time: [Some(ms(1000)), None],
            movestogo: Some(1),
            move_overhead: ms(100),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, DEFAULT_MOVES_TO_GO),
            (Some(ms(540)), Some(ms(810)))
        );
        // Increment: 10 s / 10 + 3/4 of 2 s.
        let limits = Limits {
            time: [Some(ms(10_000)), None],
            inc: [ms(2000), ms(0)],
            movestogo: Some(10),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, DEFAULT_MOVES_TO_GO),
            (Some(ms(1500)), Some(ms(7500)))
        );
    }

    #[test]
    fn game_estimate_of_moves_left() {
        // 10 s sudden death, a game expecting 10 more moves: 1 s a move, soft 0.6 s, hard 3 s;
        // `movestogo` from the GUI wins over the estimate.
        let mut limits = Limits {
            time: [Some(ms(10_000)), None],
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, 10),
            (Some(ms(600)), Some(ms(3000)))
        );
        limits.movestogo = Some(20);
        assert_eq!(
            TimeManager::budget(&limits, Color::White, 10),
            (Some(ms(300)), Some(ms(1500)))
        );
    }

    #[test]
    fn movetime_infinite_and_none() {
        let limits = Limits {
            movetime: Some(ms(500)),
            move_overhead: ms(20),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::Black, DEFAULT_MOVES_TO_GO),
            (Some(ms(480)), Some(ms(480)))
        );
        let limits = Limits {
            movetime: Some(ms(5)),
            move_overhead: ms(20),
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, DEFAULT_MOVES_TO_GO),
            (Some(ms(0)), Some(ms(0)))
        );
        let limits = Limits {
            movetime: Some(ms(500)),
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::budget(&limits, Color::White, DEFAULT_MOVES_TO_GO),
            (None, None)
        );
        assert_eq!(
            TimeManager::budget(&Limits::default(), Color::White, DEFAULT_MOVES_TO_GO),
            (None, None)
        );
    }

    #[test]
    fn pondering_stops_the_clock() {
        let limits = Limits {
            movetime: Some(ms(0)),
            ..Limits::default()
        };
        let mut tm = TimeManager::new(&limits, Color::White, true, DEFAULT_MOVES_TO_GO);
        assert!(!tm.hard_exceeded() && !tm.soft_exceeded(1.0));
        tm.pondering(false);
        assert!(tm.hard_exceeded() && tm.soft_exceeded(1.0));
    }

    #[test]
    fn movetime_is_exact_and_a_clock_is_not() {
        // movetime 2000, overhead 10: nothing ends the search before 1990 ms, whatever the
        // scale; it may not stop early (is_timed false), only at the hard limit.
        let limits = Limits {
            movetime: Some(ms(2000)),
            move_overhead: ms(10),
            ..Limits::default()
        };
        let clock = Clock::fake(Duration::ZERO);
        let tm = TimeManager::with_clock(&limits, Color::White, false, 40, clock.clone());
        assert!(!tm.is_timed());
        clock.advance(ms(1400));
        assert!(!tm.soft_exceeded(0.5) && !tm.hard_exceeded());
        clock.advance(ms(589));
        assert!(!tm.soft_exceeded(0.5) && !tm.hard_exceeded());
        clock.advance(ms(1));
        assert!(tm.soft_exceeded(2.0) && tm.hard_exceeded());
        assert_eq!(tm.elapsed(), ms(1990));
        // A clock share may end early: soft 600 ms of a 3 s hard limit.
        let limits = Limits {
            time: [Some(ms(35_000)), None],
            ..Limits::default()
        };
        let clock = Clock::fake(Duration::ZERO);
        let tm = TimeManager::with_clock(&limits, Color::White, false, 35, clock.clone());
        assert!(tm.is_timed());
        clock.advance(ms(600));
        assert!(tm.soft_exceeded(1.0) && !tm.hard_exceeded());
        // No clock for the side to move: the other side's clock does not limit it.
        let tm = TimeManager::with_clock(&limits, Color::Black, false, 35, Clock::fake(ms(1)));
        assert!(!tm.is_timed() && !tm.hard_exceeded());
    }

    #[test]
    fn a_fake_clock_steps_at_every_reading() {
        let clock = Clock::fake(ms(5));
        assert_eq!(clock.now(), ms(0));
        assert_eq!(clock.now(), ms(5));
        clock.advance(ms(100));
        assert_eq!(clock.peek(), Some(ms(110)));
        assert_eq!(Clock::real().peek(), None);
        let a = Clock::real().now();
        assert!(Clock::real().now() >= a);
    }
}
