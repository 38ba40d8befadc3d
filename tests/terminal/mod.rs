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
    /// Starts `cmd` in a session `play` with a pane of `width`×`height` on a tmux server of
    /// its own (socket `kiebitz-NAME-test-PID`); the pane stays when the program exits.
    pub fn start(name: &str, cmd: &str, width: u32, height: u32) -> Tmux {
        let tmux = Tmux {
            socket: format!("kiebitz-{name}-test-{}", std::process::id()),
        };
        let (width, height) = (width.to_string(), height.to_string());
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            &width,
            "-y",
            &height,
            cmd,
        ]);
        tmux.run(&["set-option", "-t", "play", "remain-on-exit", "on"]);
        tmux
    }

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

    /// Types `keys`, then Enter.
    pub fn type_line(&self, keys: &str) {
        self.run(&["send-keys", "-t", "play", keys, "Enter"]);
    }

    /// Waits until the program has left (its pane is dead).
    pub fn wait_exit(&self) {
        let dead = self.wait_for(|_| {
            self.run(&["display-message", "-p", "-t", "play", "#{pane_dead}"])
                .trim()
                == "1"
        });
        assert!(!dead.is_empty());
    }

    /// Plays the person's side of a two-player game to its end: each turn types `wrong` (a move
    /// the program refuses, listing the legal ones), then the first legal move listed, and waits
    /// for the engine's answer or the result line. Returns the moves typed and the last screen;
    /// fails when `max` moves are typed and the game goes on.
    pub fn play_first_legal_moves(&self, wrong: &str, max: usize) -> (Vec<String>, String) {
        let refused = format!("Illegal move: {wrong}");
        let mut typed = Vec::new();
        loop {
            let before = self.screen().matches(&refused).count();
            self.type_line(wrong);
            let s =
                self.wait_for(|s| s.matches(&refused).count() > before || result_line(s).is_some());
            if result_line(&s).is_some() {
                return (typed, s);
            }
            let legal = s
                .lines()
                .rev()
                .find_map(|l| l.split_once("Legal: ").map(|(_, m)| m.to_string()))
                .expect("the legal moves");
            let mv = legal
                .split_whitespace()
                .next()
                .expect("a legal move")
                .to_string();
            let engine_moves = s.matches("Engine plays ").count();
            self.type_line(&mv);
            typed.push(mv);
            // The engine answers (or the game ends with the person's move).
            let s = self.wait_for(|s| {
                s.matches("Engine plays ").count() > engine_moves || result_line(s).is_some()
            });
            assert!(
                typed.len() < max,
                "the game goes on after {max} moves typed:\n{s}"
            );
            if result_line(&s).is_some() {
                return (typed, s);
            }
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
