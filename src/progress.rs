//! Progress of long shell commands on stderr (perft, `analyze`, kiebitz-match), and what
//! Ctrl-C prints.
//!
//! A [`Progress`] is an `indicatif` bar with percentage, elapsed time and ETA when stderr is a
//! terminal, or a plain line every few seconds otherwise (a log file, a pipe; short runs such
//! as the tests print none). The binaries pass `KIEBITZ_PROGRESS=bar|lines|off` to
//! [`Style::set_forced`], which overrides the choice.
//!
//! [`catch_interrupt`] installs (once per process, with the `ctrlc` crate) a handler for
//! Ctrl-C (SIGINT) that prints the text last given to [`set_known`] on stderr and
//! exits with status 130, so a long run interrupted by hand still says what it has found; a
//! hook set with [`on_interrupt`] runs just before that exit.
//! The work itself is never interrupted half-way: what is printed is what was complete.
//! A command that can stop its own work cleanly (`solve`) asks for [`stop_on_interrupt`]
//! instead: the first Ctrl-C only sets a flag, the command stops and prints its partial
//! result itself; a second Ctrl-C exits at once as above.
//!
//! Depends on nothing else in the crate.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Seconds between two plain progress lines.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Exit status after Ctrl-C (128 + SIGINT, as shells report it).
pub const INTERRUPTED_EXIT: i32 = 130;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// A line every [`PLAIN_EVERY`].
    Lines,
    /// Nothing.
    Off,
}

/// The style set at start-up ([`Style::set_forced`]), if any.
static FORCED: OnceLock<Style> = OnceLock::new();

impl Style {
    /// The style a name says: `bar`, `lines`, `off` (or `0`); `None` for anything else.
    pub fn from_name(name: &str) -> Option<Style> {
        match name {
            "bar" => Some(Style::Bar),
            "lines" => Some(Style::Lines),
            "off" | "0" => Some(Style::Off),
            _ => None,
        }
    }

    /// Makes [`Style::detect`] answer `style` in this process (set once, at start-up; a
    /// later call changes nothing).
    pub fn set_forced(style: Style) {
        let _ = FORCED.set(style);
    }

    /// The style for this process: the one set at start-up (from `KIEBITZ_PROGRESS`), else a
    /// bar on a terminal, else lines.
    pub fn detect() -> Style {
        match FORCED.get() {
            Some(&style) => style,
            None if std::io::stderr().is_terminal() => Style::Bar,
            None => Style::Lines,
        }
    }
}

/// Progress of one job of `len` steps, drawn on stderr.
pub struct Progress {
    what: String,
    style: Style,
    bar: Option<ProgressBar>,
    start: Instant,
    last_line: Instant,
    len: u64,
    done: u64,
    message: String,
    /// Whether the steps are things to count (`5/20`) or thousandths of a fraction.
    steps: bool,
}

impl Progress {
    /// Progress of `what` (e.g. `perft 7`) over `len` steps, in the process's [`Style`].
    pub fn new(what: &str, len: u64) -> Progress {
        Progress::with_style(what, len, Style::detect())
    }

    /// [`Progress::new`] in a given style.
    pub fn with_style(what: &str, len: u64, style: Style) -> Progress {
        Progress::build(what, len, style, true)
    }

    /// Progress measured as a fraction only (in thousandths, set with [`Progress::set`]): the
    /// bar and the lines show the percentage without step counts.
    pub fn fraction(what: &str, style: Style) -> Progress {
        Progress::build(what, 1000, style, false)
    }

    fn build(what: &str, len: u64, style: Style, steps: bool) -> Progress {
        let bar = (style == Style::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            let template = if steps {
                "{prefix} [{bar:30}] {percent:>3}% {pos}/{len} {msg} ({elapsed}, ETA {eta})"
            } else {
                "{prefix} [{bar:30}] {percent:>3}% {msg} ({elapsed}, ETA {eta})"
            };
            if let Ok(s) = ProgressStyle::with_template(template) {
                bar.set_style(s.progress_chars("=> "));
            }
            bar.set_prefix(what.to_string());
            bar.enable_steady_tick(Duration::from_millis(500));
            *lock(&BAR) = Some(bar.clone());
            bar
        });
        let now = Instant::now();
        Progress {
            what: what.to_string(),
            style,
            bar,
            start: now,
            last_line: now,
            len,
            done: 0,
            message: String::new(),
            steps,
        }
    }

    /// `done` of the steps are finished; `message` says what is being done now.
    pub fn set(&mut self, done: u64, message: &str) {
        self.done = done.min(self.len);
        self.message = message.to_string();
        match self.style {
            Style::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_position(self.done);
                    bar.set_message(message.to_string());
                }
            }
            Style::Lines => {
                if self.last_line.elapsed() >= PLAIN_EVERY {
                    self.last_line = Instant::now();
                    eprintln!("{}", self.line());
                }
            }
            Style::Off => {}
        }
    }

    /// Changes the number of steps.
    pub fn set_length(&mut self, len: u64) {
        self.len = len.max(1);
        if let Some(bar) = &self.bar {
            bar.set_length(self.len);
        }
    }

    /// The plain progress line: `WHAT: P % (DONE/LEN) MESSAGE, T s, ETA E s`.
    pub fn line(&self) -> String {
        let elapsed = self.start.elapsed().as_secs_f64();
        let eta = eta(elapsed, self.done, self.len)
            .map_or("unknown".to_string(), |s| format!("{s:.0} s"));
        let steps = if self.steps {
            format!(" ({}/{})", self.done, self.len)
        } else {
            String::new()
        };
        format!(
            "{}: {:.1} %{steps} {}, {elapsed:.1} s, ETA {eta}",
            self.what,
            percent(self.done, self.len),
            self.message
        )
    }

    /// Prints a line on stderr without breaking the bar.
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }

    /// Runs `f` (which writes to stdout or stderr) with the bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(self) {
        drop(self);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            *lock(&BAR) = None;
        }
    }
}

/// Percentage of `done` of `len` steps.
pub fn percent(done: u64, len: u64) -> f64 {
    100.0 * done as f64 / len.max(1) as f64
}

/// Seconds left if the remaining steps go at the rate of the finished ones.
pub fn eta(elapsed: f64, done: u64, len: u64) -> Option<f64> {
    (done > 0).then(|| elapsed * (len.saturating_sub(done)) as f64 / done as f64)
}

/// The bar being drawn, cleared before the interrupt handler prints.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);
/// What an interrupted run prints.
static KNOWN: Mutex<String> = Mutex::new(String::new());

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sets what Ctrl-C prints: the complete part of the result so far.
pub fn set_known(text: String) {
    *lock(&KNOWN) = text;
}

/// What Ctrl-C runs before it exits (see [`on_interrupt`]).
type Hook = Box<dyn FnOnce() + Send>;
static ON_INTERRUPT: Mutex<Option<Hook>> = Mutex::new(None);

/// Sets (or with `None` forgets) what Ctrl-C runs after printing the known result and before
/// exiting: e.g. writing a report of the part played. Runs on the handler's thread, once.
pub fn on_interrupt(hook: Option<Hook>) {
    *lock(&ON_INTERRUPT) = hook;
}

/// Whether the first Ctrl-C only sets [`INTERRUPTED`] (see [`stop_on_interrupt`]).
static SOFT: AtomicBool = AtomicBool::new(false);
/// Set by the first Ctrl-C after [`stop_on_interrupt`].
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler so that the first Ctrl-C sets the returned flag (the command
/// polls it, stops and reports what it has) and a second one exits as [`catch_interrupt`]'s.
pub fn stop_on_interrupt() -> &'static AtomicBool {
    SOFT.store(true, Ordering::SeqCst);
    catch_interrupt();
    &INTERRUPTED
}

/// Whether Ctrl-C has asked a command of [`stop_on_interrupt`] to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Installs the Ctrl-C handler (see the module comment); later calls do nothing.
pub fn catch_interrupt() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let installed = ctrlc::set_handler(|| {
            if SOFT.load(Ordering::SeqCst) && !INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!("interrupted: stopping (Ctrl-C again to quit at once)");
                return;
            }
            if let Some(bar) = lock(&BAR).take() {
                bar.disable_steady_tick();
                bar.finish_and_clear();
                // The bar may have been drawn again since: erase its line for sure.
                if std::io::stderr().is_terminal() {
                    eprint!("\r\x1b[2K");
                }
            }
            let known = lock(&KNOWN).clone();
            if known.is_empty() {
                eprintln!("interrupted before any result");
            } else {
                eprintln!("interrupted; known so far:\n{}", known.trim_end());
            }
            let hook = lock(&ON_INTERRUPT).take();
            if let Some(hook) = hook {
                hook();
            }
            std::process::exit(INTERRUPTED_EXIT);
        });
        if let Err(e) = installed {
            log::warn!("cannot catch Ctrl-C: {e}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentage_and_eta() {
        assert_eq!(percent(1, 4), 25.0);
        assert_eq!(percent(0, 0), 0.0);
        assert_eq!(eta(10.0, 0, 4), None);
        assert_eq!(eta(10.0, 1, 4), Some(30.0));
        assert_eq!(eta(10.0, 4, 4), Some(0.0));
        let mut p = Progress::with_style("perft 7", 20, Style::Off);
        p.set(5, "e2e4");
        let line = p.line();
        assert!(line.starts_with("perft 7: 25.0 % (5/20) e2e4, "), "{line}");
        assert!(line.contains("ETA "), "{line}");
        let mut p = Progress::fraction("analyze", Style::Off);
        p.set(250, "positions");
        assert!(p.line().starts_with("analyze: 25.0 % positions, "));
    }
}
