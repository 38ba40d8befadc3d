//! Large hash tables cost memory only as they fill (hardening row F4/F16): after
//! `setoption name Hash value 4096` (XBoard `memory 16000`, N-seat `Hash 4096`) every engine
//! answers `isready`/`ping` with a small resident set, and a new game does not write the table
//! again. Resident memory is read from `/proc/PID/status`; where there is no `/proc` the test
//! says so and checks only the answers.

mod common;
mod protocol_io;

use protocol_io::Client;

/// The engine's resident set in MiB, if the system says.
fn rss_mib(e: &Client) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid()?)).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

/// Far below the 4 GiB asked: the program, its small tables and the pages a short search wrote.
const SMALL_MIB: u64 = 400;

fn assert_small(e: &Client, what: &str) {
    match rss_mib(e) {
        Some(mib) => assert!(mib < SMALL_MIB, "{what}: {mib} MiB resident"),
        None => eprintln!("{what}: no /proc here, resident memory not checked"),
    }
}

/// `binary` over UCI with `Hash 4096` set, checked small.
fn with_hash_4096(binary: &str) -> Client {
    let mut e = Client::spawn(&common::binary(binary), &[]);
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("setoption name Hash value 4096");
    e.send("isready");
    e.expect_prefix("readyok");
    assert_small(&e, &format!("{binary} after Hash 4096"));
    e
}

fn uci_engine(binary: &str) {
    let mut e = with_hash_4096(binary);
    e.send("position startpos");
    e.send("go depth 6");
    e.expect_prefix("bestmove");
    e.send("isready");
    e.expect_prefix("readyok");
    assert_small(&e, &format!("{binary} after a search"));
    e.send("ucinewgame");
    e.send("isready");
    e.expect_prefix("readyok");
    assert_small(&e, &format!("{binary} after ucinewgame"));
    e.send("go depth 4");
    e.expect_prefix("bestmove");
}

/// Every engine of the registry (`common::engines`): UCI for the two-seat games, the N-seat
/// dialect's `Hash` for the others.
#[test]
fn hash_4096_is_not_resident_in_any_engine() {
    for (binary, two) in common::engines() {
        if two {
            uci_engine(binary);
        } else {
            nseat_engine(binary);
        }
    }
}

#[test]
fn xboard_memory_16000_is_not_resident() {
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l.contains("done=1"));
    e.send("memory 16000");
    e.send("ping 1");
    e.expect_prefix("pong 1");
    assert_small(&e, "memory 16000");
    e.send("new");
    e.send("sd 6");
    e.send("go");
    e.expect_prefix("move ");
    e.send("new");
    e.send("ping 2");
    e.expect_prefix("pong 2");
    assert_small(&e, "memory 16000, a search and new");
}

fn nseat_engine(binary: &str) {
    let mut e = with_hash_4096(binary);
    e.send("ucinewgame");
    e.send("isready");
    e.expect_prefix("readyok");
    assert_small(&e, &format!("{binary} after ucinewgame"));
}
