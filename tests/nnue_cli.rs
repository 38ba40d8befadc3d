//! `kiebitz-chess datagen`, `train` and the network options as a user runs them: records that decode into legal,
//! quiet, not-in-check positions with scores in range; the same seed gives the same games; a
//! run appends to a file and first cuts a partial record left at its end; `train` writes a
//! network the engine loads and a manifest with the losses.

mod common;

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::nnue::data::{RECORD_BYTES, Record, read_all};

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn datagen(out: &std::path::Path, positions: u32, seed: u32) -> std::process::Output {
    let (positions, seed) = (positions.to_string(), seed.to_string());
    let args = [
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--positions",
        &positions,
        "--seed",
        &seed,
        "--nodes",
        "400",
        "--hard-nodes",
        "4000",
        "--threads",
        "1",
    ];
    let o = common::run_binary("kiebitz-chess", &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The position of a record (castling and en passant are not recorded).
fn position(r: &Record) -> Chess {
    let mut board = [None; 64];
    for (sq, code) in r.squares() {
        board[sq as usize] = Some(b"PNBRQKpnbrqk"[code as usize] as char);
    }
    let geometry = kiebitz::board::Geometry::new(8, 8).expect("8×8");
    let fen = kiebitz::board::fen::placement(&geometry, |sq| board[sq.index()]);
    let side = if r.side == 0 { "w" } else { "b" };
    Chess::parse_fen(&format!("{fen} {side} - - 0 1")).expect("a record is a legal board")
}

#[test]
fn datagen_writes_quiet_legal_positions_and_the_seed_fixes_the_games() {
    let (a, b) = (temp("a.bin"), temp("b.bin"));
    datagen(&a, 40, 5);
    datagen(&b, 40, 5);
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&b).unwrap(),
        "one seed, one thread: the same games"
    );
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    let records = read_all(&bytes[..], &kiebitz::nnue::Layout::CHESS).unwrap();
    assert!(records.len() >= 40, "{} records", records.len());
    let results: std::collections::BTreeSet<u8> = records.iter().map(|r| r.result).collect();
    for r in &records {
        let pos = position(r);
        assert!(
            !pos.in_check(),
            "a position in check was kept: {}",
            pos.fen()
        );
        assert!(r.score.abs() <= 3000, "score {} beyond the cap", r.score);
        assert_eq!(pos.bb(kiebitz::board::Color::White, 5).count_ones(), 1);
    }
    assert!(!results.is_empty());
    let log = std::fs::read_to_string(format!("{}.log", a.display())).unwrap();
    assert!(
        log.contains("--seed 5") && log.contains("records in"),
        "{log}"
    );
}

#[test]
fn a_run_appends_and_first_cuts_a_partial_record() {
    let path = temp("resume.bin");
    datagen(&path, 20, 1);
    let first = std::fs::read(&path).unwrap();
    let mut damaged = first.clone();
    damaged.extend_from_slice(&[7; 11]);
    std::fs::write(&path, &damaged).unwrap();
    let o = datagen(&path, first.len() as u32 / 32 + 20, 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("partial record"));
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after.len() % RECORD_BYTES, 0);
    assert_eq!(&after[..first.len()], &first[..], "what was written stays");
    assert!(after.len() >= first.len() + 20 * RECORD_BYTES);
    // A file that already holds enough is left alone.
    datagen(&path, 1, 3);
    assert_eq!(std::fs::read(&path).unwrap(), after);
}

#[test]
fn train_writes_a_network_the_engine_loads_and_a_manifest() {
    let data = temp("train.bin");
    datagen(&data, 300, 9);
    let net = temp("net.nnue");
    let args = [
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch",
        "64",
        "--threads",
        "2",
    ];
    let o = common::run_binary("kiebitz-chess", &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest = std::fs::read_to_string(format!("{}.txt", net.display())).unwrap();
    assert!(
        manifest.contains("epoch   2: train loss") && manifest.contains("validation loss"),
        "{manifest}"
    );
    let bytes = std::fs::read(&net).unwrap();
    assert!(kiebitz::nnue::net::Network::from_bytes(&bytes, 768).is_ok());
    let bad = common::run_binary(
        "kiebitz-chess",
        &[
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            "x",
            "--hidden",
            "20",
        ],
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("multiple of 16"));
}

/// Runs a UCI session with `commands`; its stdout.
fn uci(commands: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(common::binary("kiebitz-chess"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(commands.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn evalfile_and_use_nnue_over_uci() {
    let net = temp("uci.nnue");
    let float = kiebitz::nnue::train::FloatNet::new(768, 16, 4);
    std::fs::write(&net, float.quantise().to_bytes()).unwrap();
    let bad = temp("bad.nnue");
    std::fs::write(&bad, b"KBZNNUE1 and then nonsense").unwrap();
    // A FIFO nobody writes to would block `open` for ever.
    let fifo = temp("fifo.nnue");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\n\
         setoption name Use NNUE value maybe\nposition startpos\ngo depth 4\n\
         setoption name Use NNUE value false\ngo depth 4\nquit\n",
        net.display(),
        bad.display(),
        fifo.display()
    );
    let out = uci(&script);
    assert!(out.contains("option name EvalFile type string"), "{out}");
    assert!(
        out.contains("option name Use NNUE type check default true"),
        "{out}"
    );
    assert!(out.contains("(768→16×2→1)"), "the good file loads: {out}");
    assert!(
        out.contains("bad.nnue") && out.contains("error"),
        "the bad file is refused: {out}"
    );
    assert!(
        out.contains("fifo.nnue: not a regular file"),
        "the FIFO is refused: {out}"
    );
    assert!(out.contains("option Use NNUE takes true or false"), "{out}");
    assert!(out.contains("NNUE off: the hand-made evaluation"), "{out}");
    assert_eq!(out.matches("bestmove").count(), 2, "{out}");
}
