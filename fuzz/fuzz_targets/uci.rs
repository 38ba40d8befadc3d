//! A UCI session of every game on any input (commands parsed, positions set, searches and
//! perft started and stopped): no panic, and `isready` at the end is answered.
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::protocol::{SessionConfig, run_session_config};
use libfuzzer_sys::fuzz_target;

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn run<G: Game>(first: &str, data: &[u8], last: &str, answer: &str) {
    // `quit` would end the session before the check.
    let body = String::from_utf8_lossy(data).replace("quit", "");
    let input = format!("{first}\n{body}\n{last}\n");
    let sink = Sink::default();
    let config = SessionConfig {
        hash_mb: 1,
        finish_at_eof: false,
        job_ceiling: Some(Duration::from_millis(200)),
        hash_budget: None,
    };
    run_session_config::<G, _, _>(input.as_bytes(), sink.clone(), &config).unwrap();
    let out = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
    assert!(out.lines().any(|l| l == answer), "no {answer}");
}

fuzz_target!(|data: &[u8]| {
    run::<Chess>("uci", data, "isready", "readyok");
    run::<Raeuber>("uci", data, "isready", "readyok");
    run::<Pawns>("uci", data, "isready", "readyok");
});
