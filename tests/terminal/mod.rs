//! A real pseudo-terminal for the `play` tests: tmux with a server of the test's own.
#![allow(dead_code)]

use std::time::Duration;

/// How long the screen may take to show what is expected.
pub const TIMEOUT: Duration = Duration::from_secs(15);

/// `tmux` with a server of our own (`-L`), so the test never touches another tmux session.
pub struct Tmux {
    pub socket: String,
}

impl Tmux {
    pub fn run(&self, args: &[&str]) -> String {
        let out = std::process::Command::new("tmux")
            .arg("-u")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run tmux ({e}): install the tmux package"));
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The whole pane, history included, wrapped lines joined.
    pub fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-S", "-", "-t", "play"])
    }

    /// Polls the screen until `done` holds (15 s at most).
    pub fn wait_for(&self, done: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + TIMEOUT;
        loop {
            let s = self.screen();
            if done(&s) {
                return s;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the terminal did not show what was expected:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = std::process::Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The last line of `screen` that starts with one of the three results.
pub fn result_line(screen: &str) -> Option<&str> {
    screen
        .lines()
        .rev()
        .map(str::trim_end)
        .find(|l| l.starts_with("1-0 {") || l.starts_with("0-1 {") || l.starts_with("1/2-1/2 {"))
}
