//! `Endgame Tables` with the real kiebitz-raeuber binary: offered by UCI (spin 0 to 4) and
//! XBoard, refused out of range with the state kept, built in the background on demand (the
//! protocol never waits for a build), and probed by alpha-beta:
//! a depth-1 search of an ending lost in 15 plies reports the exact `mate -8` with the tables
//! (their distances scored at the root's children) and no mate without them. With 4 a search
//! never waits for a four-piece table: it goes on without it while a thread builds it, and
//! the searches after the build see it. Antichess's three-piece tables are built, written to
//! the folder of `Endgame Tables Path` and read from it by the next process. Chess has no
//! such option.

mod common;
mod protocol_io;

use std::time::Duration;

use protocol_io::Client;

/// Building the three-piece tables takes seconds (longer on a loaded machine).
const BUILD: Duration = Duration::from_secs(300);

const LOST_IN_15: &str = "6/3K2/6/6/1r4/4b1 w - - 0 1";

/// Four pieces: White's king against rook, bishop and knight, won in 13 plies.
const WON_IN_13: &str = "6/3K2/6/6/1r4/4bn w - - 0 1";

/// The score of `go` ([`Client::score`]).
fn score(e: &mut Client, go: &str) -> String {
    e.score(go)
}

#[test]
fn uci_builds_and_probes_the_tables() {
    let mut e = Client::uci_offering(
        &common::binary("kiebitz-raeuber"),
        &[
            "option name Endgame Tables type spin default 0 min 0 max 4",
            "option name Endgame Tables Path type string default <empty>",
        ],
    );
    e.send(&format!("position fen {LOST_IN_15}"));
    let without = score(&mut e, "go depth 1");
    assert!(without.starts_with("cp "), "{without}");
    e.send("setoption name Endgame Tables value 9");
    let refused = e.next_line(protocol_io::TIMEOUT).unwrap();
    assert!(
        refused.starts_with("info string error") && refused.contains("from 0 to 4"),
        "{refused}"
    );
    assert_eq!(
        score(&mut e, "go depth 1"),
        without,
        "a refused value changes nothing"
    );
    // Their files go to a directory of the test's own (one a signature).
    let dir = std::env::temp_dir().join(format!("kiebitz-uci-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    e.send(&format!(
        "setoption name Endgame Tables Path value {}",
        dir.display()
    ));
    let said = e.next_line(protocol_io::TIMEOUT).unwrap();
    assert!(
        said.starts_with("info string endgame tables read from"),
        "{said}"
    );
    // The build runs beside the protocol (a GUI's `readyok` does not wait for it): the
    // searches see the tables once they are there.
    e.send("setoption name Endgame Tables value 3");
    e.send("isready");
    let said = e.read_until(|l| l == "readyok");
    assert_eq!(
        said,
        [
            "info string endgame tables of up to 3 pieces: those of up to 3 being built in the \
             background (seconds), probed once they are there",
            "readyok"
        ]
    );
    let started = std::time::Instant::now();
    while score(&mut e, "go depth 1") != "mate -8" {
        assert!(started.elapsed() < BUILD, "the tables never came");
        std::thread::sleep(Duration::from_millis(100));
    }
    let files = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(files, 454, "every signature of up to three pieces written");
    // Off again (a new game, so that the hash table forgets the scores): the search no
    // longer sees them; on again up to two pieces without building, still not these.
    for (value, said) in [
        ("0", "endgame tables off"),
        ("2", "endgame tables of up to 2 pieces"),
    ] {
        e.send(&format!("setoption name Endgame Tables value {value}"));
        let line = e.next_line(protocol_io::TIMEOUT).unwrap();
        assert_eq!(line, format!("info string {said}"));
        e.send("ucinewgame");
        e.send(&format!("position fen {LOST_IN_15}"));
        assert_eq!(score(&mut e, "go depth 1"), without, "with {value}");
    }
    // Four pieces, without a new build of the others: the first search does not wait for
    // the table of K against R+B+N, a later one finds the win in 13 plies in it.
    e.send("setoption name Endgame Tables value 4");
    let line = e.next_line(protocol_io::TIMEOUT).unwrap();
    assert!(
        line.starts_with("info string endgame tables of up to 4 pieces;")
            && line.contains("background"),
        "{line}"
    );
    e.send(&format!("position fen {WON_IN_13}"));
    let first = score(&mut e, "go depth 1");
    assert!(
        first.starts_with("cp "),
        "a search waited for the build: {first}"
    );
    let started = std::time::Instant::now();
    while score(&mut e, "go depth 1") != "mate 7" {
        assert!(started.elapsed() < BUILD, "the four-piece table never came");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Antichess: three pieces, a knight against a rook, lost in 17 plies for White to move.
const ANTICHESS_LOST_IN_17: &str = "8/8/8/8/3N4/8/8/k6r w - - 0 1";

#[test]
fn antichess_builds_writes_and_reads_its_tables() {
    let dir = std::env::temp_dir().join(format!("kiebitz-uci-antichess-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for round in ["built", "read"] {
        let mut e = Client::uci_offering(
            &common::binary("kiebitz-antichess"),
            &["option name Endgame Tables type spin default 0 min 0 max 4"],
        );
        e.send(&format!("position fen {ANTICHESS_LOST_IN_17}"));
        let without = score(&mut e, "go depth 1");
        assert!(without.starts_with("cp "), "{round}: {without}");
        e.send(&format!(
            "setoption name Endgame Tables Path value {}",
            dir.display()
        ));
        let said = e.next_line(protocol_io::TIMEOUT).unwrap();
        assert!(
            said.starts_with("info string endgame tables read from"),
            "{said}"
        );
        e.send("setoption name Endgame Tables value 5");
        let refused = e.next_line(protocol_io::TIMEOUT).unwrap();
        assert!(refused.starts_with("info string error"), "{refused}");
        e.send("setoption name Endgame Tables value 3");
        let said = e.next_line(protocol_io::TIMEOUT).unwrap();
        assert!(said.contains("in the background"), "{said}");
        let started = std::time::Instant::now();
        while score(&mut e, "go depth 1") != "mate -9" {
            assert!(started.elapsed() < BUILD, "{round}: the tables never came");
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(
            dir.join("antichess-3.tables").is_file(),
            "{round}: the file is there"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xboard_offers_the_option_and_chess_has_none() {
    let mut e = Client::spawn(&common::binary("kiebitz-raeuber"), &[]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l.contains("option=\"Endgame Tables -spin 0 0 4\"")),
        "{features:?}"
    );
    e.send("option Endgame Tables=7");
    let refused = e.next_line(protocol_io::TIMEOUT).unwrap();
    assert!(refused.contains("from 0 to 4"), "{refused}");
    let mut chess = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    chess.send("uci");
    let lines = chess.read_until(|l| l.starts_with("uciok"));
    assert!(
        !lines.iter().any(|l| l.contains("Endgame Tables")),
        "{lines:?}"
    );
}
