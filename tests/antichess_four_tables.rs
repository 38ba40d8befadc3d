//! Antichess's four-piece endgame tables with the real binary, in one folder built once:
//! `tables --four` builds a pawnless signature and a one-pawn one with the five signatures
//! its promotions lead to, one file each; 200 random positions of them agree with
//! python-chess's rules (scripts/oracles/antichess_tables_check.py: the legal moves, each
//! value the best of its moves one ply on, the tables' line ending after exactly the plies
//! the value says with python-chess's winner). With the pawnless table alone in a folder:
//! `--check` refuses a file with one byte changed (its checksum) and one with a false value
//! under a checksum made anew (its moves contradict it); a UCI session with `Endgame Tables`
//! 4 scores a four-piece ending as the mate its table says, a centipawn score before.

mod common;
mod protocol_io;

use std::path::{Path, PathBuf};
use std::time::Duration;

use protocol_io::Client;

/// Reading and checking the tables takes a minute or two on a loaded machine.
const LOAD: Duration = Duration::from_secs(600);

fn tables(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["tables", "--dir", dir.to_str().expect("a path")];
    all.extend_from_slice(args);
    common::run_binary("kiebitz-antichess", &all)
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A table file's bytes with the checksum at their end made anew (FNV-1a, as the engine's).
fn with_checksum(magic_len: usize, mut bytes: Vec<u8>) -> Vec<u8> {
    let end = bytes.len() - 8;
    let sum = kiebitz::checksum::fnv1a(&bytes[magic_len..end]);
    bytes[end..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn four_piece_tables_are_built_checked_by_python_chess_refused_when_false_and_probed() {
    let dir = std::env::temp_dir().join(format!("kiebitz-antichess-four-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let built = tables(
        &dir,
        &["--four", "KRvKN,KKPvK", "--sample", "200", "--seed", "7"],
    );
    assert!(built.status.success(), "{}", stderr(&built));
    for name in [
        "RKvNK", "PKKvK", "NKKvK", "BKKvK", "RKKvK", "QKKvK", "KKKvK",
    ] {
        assert!(
            dir.join(format!("antichess-4-{name}.table")).is_file(),
            "{name}"
        );
    }
    let sample = common::stdout(&built);
    let lines: Vec<&str> = sample.lines().filter(|l| l.contains(';')).collect();
    assert_eq!(lines.len(), 200, "{sample}");
    let file = dir.join("sample.txt");
    std::fs::write(&file, lines.join("\n")).expect("written");
    let said = common::python_script("oracles/antichess_tables_check.py", &[&file]);
    assert!(said.contains("200 positions agree"), "{said}");
    // The rest with the base file and the pawnless table alone (each read checks them all).
    let one = dir.join("one");
    std::fs::create_dir_all(&one).expect("a folder");
    for name in ["antichess-3.tables", "antichess-4-RKvNK.table"] {
        std::fs::copy(dir.join(name), one.join(name)).expect("copied");
    }
    refuses_damaged_and_false_files(&one);
    let lost = lines
        .iter()
        .map(|l| l.split(';').collect::<Vec<_>>())
        .find(|f| f[1].parse::<i16>().expect("a value") < -4 && pieces(f[0]) == "KRkn")
        .expect("a lost position of RKvNK in 200");
    probes_in_a_session(&one, lost[0], lost[1].parse().expect("a value"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The pieces of a FEN's board, sorted (`KRkn`).
fn pieces(fen: &str) -> String {
    let board = fen.split(' ').next().expect("a board");
    let mut letters: Vec<char> = board.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    letters.sort_unstable();
    letters.into_iter().collect()
}

/// `--check` refuses a changed byte and a false value.
fn refuses_damaged_and_false_files(dir: &Path) {
    let path: PathBuf = dir.join("antichess-4-RKvNK.table");
    let good = std::fs::read(&path).expect("the file");
    let magic_len = good.iter().position(|&b| b == b'\n').expect("a first line") + 1;
    let mut damaged = good.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(&path, &damaged).expect("damaged");
    let e = stderr(&tables(dir, &["--check"]));
    assert!(e.contains("checksum"), "{e}");
    // A lost position claimed won at once, the checksum made anew: its moves refuse it.
    let mut forged = good.clone();
    let at = (magic_len..forged.len() - 8)
        .find(|&i| forged[i] >= 128)
        .expect("a lost position");
    forged[at] = 1;
    std::fs::write(&path, with_checksum(magic_len, forged)).expect("forged");
    let refused = tables(dir, &["--check"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("contradict"),
        "{}",
        stderr(&refused)
    );
    std::fs::write(&path, &good).expect("restored");
}

/// A depth-1 search of `fen` (of table value `value`: lost in −value − 1 plies) says a
/// centipawn score without the tables and the table's mate with `Endgame Tables` 4 and the
/// folder.
fn probes_in_a_session(dir: &Path, fen: &str, value: i16) {
    let plies = -value - 1;
    let want = format!("mate -{}", (plies + 1) / 2);
    let mut e = Client::uci_offering(
        &common::binary("kiebitz-antichess"),
        &["option name Endgame Tables type spin default 0 min 0 max 4"],
    );
    e.send(&format!("position fen {fen}"));
    let without = score(&mut e);
    assert!(without.starts_with("cp "), "{fen}: {without}");
    e.send(&format!(
        "setoption name Endgame Tables Path value {}",
        dir.display()
    ));
    e.next_line(protocol_io::TIMEOUT).expect("a line");
    e.send("setoption name Endgame Tables value 4");
    let said = e.next_line(protocol_io::TIMEOUT).expect("a line");
    assert!(said.contains("in the background"), "{said}");
    let started = std::time::Instant::now();
    while score(&mut e) != want {
        assert!(started.elapsed() < LOAD, "{fen}: never {want}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The score of `go depth 1`.
fn score(e: &mut Client) -> String {
    e.score("go depth 1")
}
