//! End-to-end test of `kiebitz-web` in a real headless Chromium: starts the server in-process
//! on an ephemeral loopback port and runs scripts/gui/web-e2e.py against it (lobby, each of the
//! five games started, moves clicked, the engine answering, a finished game's result; clocks,
//! takeback, resign, a draw offer and the rules panel; three players' flags falling in turn;
//! issue 73: the page following moves made elsewhere, also after Back/Forward, the spectator
//! link, double clicks, stale lines, the check mark, no clock before the first move, the move
//! tree, the review of every move, premoves, strips, the game-over dialog, the board's size).
//! Skips
//! with a printed reason when chromium, chromedriver or Python selenium is missing
//! (`apt-get install -y chromium chromium-driver`, `pip install selenium`). Screenshots go to
//! target/web-e2e/ (scripts/gui/web-e2e.py --shots docs/img renews the README's pictures).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use kiebitz::web::{Background, Config};

#[test]
fn five_games_in_headless_chromium() {
    if let Some(why) = common::browser::missing() {
        eprintln!("SKIPPED web e2e: {why}");
        return;
    }
    let srv = Background::start(
        "127.0.0.1:0",
        Config {
            max_movetime: Duration::from_secs(2),
            ..Config::default()
        },
    )
    .expect("server starts");
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-e2e");
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gui/web-e2e.py"))
        .args(["--url", &srv.url(), "--shots"])
        .arg(&shots)
        .output()
        .expect("python3 runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stderr}{stdout}");
    assert!(out.status.success(), "web-e2e.py failed");
    assert!(stdout.contains("5 passed, 0 failed"), "{stdout}");
    for shot in ["web-analysis", "web-phone", "web-crash-rules", "web-clock"] {
        assert!(shots.join(format!("{shot}.png")).exists(), "no {shot}.png");
    }
    for game in ["chess", "raeuber", "pawns", "crash", "chamaeleon"] {
        assert!(
            shots.join(format!("web-{game}.png")).exists(),
            "no screenshot of {game}"
        );
    }
}
