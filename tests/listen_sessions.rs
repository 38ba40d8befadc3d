//! The engine server keeps its clients apart: what one session of `--listen` sets of the
//! game's own (its network, `Use NNUE`, its Syzygy tables, Räuberschach's endgame tables and
//! their folder) changes that session's searches only, never another's; a client names paths
//! only inside `--data-dir`, makes the server write no file, and the memory its tables take
//! is counted against `--max-hash` and given back when it leaves.

mod common;
mod protocol_io;

use protocol_io::{Client, Server};

fn uci(addr: &str) -> Client {
    let mut c = Client::connect(addr);
    c.send("uci");
    c.expect_prefix("uciok");
    c
}

/// A temporary file of this test process.
fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-sessions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A network file of `hidden` neurons drawn with `seed`.
fn network(name: &str, hidden: usize, seed: u64) -> String {
    let path = temp(name);
    let net = kiebitz::nnue::train::FloatNet::new(768, hidden, seed).quantise();
    std::fs::write(&path, net.to_bytes()).unwrap();
    path.display().to_string()
}

/// A fresh search of `fen` to `depth`: the last `info` line's score, nodes, tbhits and pv
/// (the times left out), and the best move.
fn search(c: &mut Client, fen: &str, depth: u32) -> String {
    c.send("ucinewgame");
    c.send(&format!("position fen {fen}"));
    c.send(&format!("go depth {depth}"));
    let lines = c.read_until(|l| l.starts_with("bestmove"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let field = |name: &str| {
        let i = words.iter().position(|w| *w == name);
        i.map_or(String::new(), |i| words[i + 1].to_string())
    };
    let pv = info.split(" pv ").nth(1).unwrap_or("");
    format!(
        "score {} {} nodes {} tbhits {} pv {pv} | {}",
        field("score"),
        words[words.iter().position(|w| *w == "score").unwrap() + 2],
        field("nodes"),
        field("tbhits"),
        lines.last().unwrap()
    )
}

const MIDDLE_GAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn another_sessions_network_and_switch_leave_a_session_alone() {
    let s = Server::start(
        &common::binary("kiebitz-chess"),
        // The test's files lie anywhere: the whole file system is the data folder.
        &["--max-sessions", "2", "--data-dir", "/"],
    );
    let mut a = uci(&s.addr);
    let said = a.set("EvalFile", &network("a.nnue", 16, 4));
    assert!(said.contains("(768→16×2→1)"), "{said}");
    let alone = search(&mut a, MIDDLE_GAME, 5);
    let mut b = uci(&s.addr);
    let built_in = search(&mut b, MIDDLE_GAME, 5);
    assert_ne!(alone, built_in, "the network decides A's search");
    // B's network, then B's switch: A searches with its own network all along.
    let said = b.set("EvalFile", &network("b.nnue", 32, 9));
    assert!(said.contains("(768→32×2→1)"), "{said}");
    let with_b_net = search(&mut b, MIDDLE_GAME, 5);
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), alone);
    let said = b.set("Use NNUE", "false");
    assert!(said.contains("NNUE off"), "{said}");
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), alone);
    let hand_made = search(&mut b, MIDDLE_GAME, 5);
    assert_ne!(hand_made, with_b_net, "B's own switch holds");
    b.set("Use NNUE", "true");
    assert_eq!(
        search(&mut b, MIDDLE_GAME, 5),
        with_b_net,
        "B keeps its network"
    );
    // And A's switch is A's: off, A evaluates by hand while B keeps its network.
    a.set("Use NNUE", "false");
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), hand_made);
    assert_eq!(search(&mut b, MIDDLE_GAME, 5), with_b_net);
}

/// A position of four pieces: the root is in the test's tables.
const KQ_V_KR: &str = "8/8/8/4k3/8/8/2r5/3QK3 w - - 0 1";

#[test]
fn another_sessions_syzygy_path_leaves_a_sessions_tables_alone() {
    let tables = common::data_path("syzygy");
    let tables = tables.display().to_string();
    let s = Server::start(
        &common::binary("kiebitz-chess"),
        // The test's files lie anywhere: the whole file system is the data folder.
        &["--max-sessions", "3", "--data-dir", "/"],
    );
    let mut a = uci(&s.addr);
    let said = a.set("SyzygyPath", &tables);
    assert_eq!(said, "info string Syzygy tables for up to 4 pieces");
    let alone = search(&mut a, KQ_V_KR, 3);
    assert!(!alone.contains("tbhits 0 "), "A probes: {alone}");
    {
        let mut b = uci(&s.addr);
        // A folder without tables (unloaded every session's tables before), a second set of
        // tables (replaced them), no tables (unloaded them): A keeps its own.
        let empty = temp("no-tables");
        std::fs::create_dir_all(&empty).unwrap();
        let said = b.set("SyzygyPath", &empty.display().to_string());
        assert!(said.contains("in use by another session"), "{said}");
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        let other = temp("other-tables");
        std::fs::create_dir_all(&other).unwrap();
        for name in ["KQvKR.rtbw", "KQvKR.rtbz"] {
            std::fs::copy(common::data_path("syzygy").join(name), other.join(name)).unwrap();
        }
        let said = b.set("SyzygyPath", &other.display().to_string());
        assert!(said.contains("in use by another session"), "{said}");
        assert!(
            search(&mut b, KQ_V_KR, 3).contains("tbhits 0 "),
            "B probes none"
        );
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        // The same path is shared; B's unloading and leaving leave A's.
        assert_eq!(
            b.set("SyzygyPath", &tables),
            "info string Syzygy tables for up to 4 pieces"
        );
        assert!(!search(&mut b, KQ_V_KR, 3).contains("tbhits 0 "));
        b.set("SyzygyPath", "<empty>");
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        b.set("SyzygyPath", &tables);
        b.send("quit");
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
}

/// Räuberschach: White's king against a rook and a bishop, lost in 15 plies (three pieces).
const LOST_IN_15: &str = "6/3K2/6/6/1r4/4b1 w - - 0 1";

/// Building the three-piece tables takes seconds (longer on a loaded machine).
const BUILD: std::time::Duration = std::time::Duration::from_secs(300);

/// A's search of `fen` once its tables are there (a probe counted).
fn search_with_tables(c: &mut Client, fen: &str, depth: u32) -> String {
    let started = std::time::Instant::now();
    loop {
        let result = search(c, fen, depth);
        if !result.contains("tbhits 0 ") {
            return result;
        }
        assert!(started.elapsed() < BUILD, "the tables never came: {result}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// A folder of the test's own, empty.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The server's stderr lines so far.
fn log(s: &Server) -> Vec<String> {
    s.log.try_iter().collect()
}

#[test]
fn another_sessions_endgame_tables_leave_a_sessions_alone() {
    let s = Server::start(&common::binary("kiebitz-raeuber"), &["--max-sessions", "3"]);
    let mut a = uci(&s.addr);
    let said = a.set("Endgame Tables", "3");
    assert!(said.contains("being built in the background"), "{said}");
    let alone = search_with_tables(&mut a, LOST_IN_15, 3);
    {
        let mut b = uci(&s.addr);
        assert_eq!(
            b.set("Endgame Tables", "0"),
            "info string endgame tables off"
        );
        assert!(
            search(&mut b, LOST_IN_15, 3).contains("tbhits 0 "),
            "B probes none"
        );
        assert_eq!(search(&mut a, LOST_IN_15, 3), alone, "B's 0 leaves A's on");
        // The same tables are shared, not built again.
        assert_eq!(
            b.set("Endgame Tables", "3"),
            "info string endgame tables of up to 3 pieces"
        );
        assert_eq!(search(&mut b, LOST_IN_15, 3), alone);
        b.set("Endgame Tables", "0");
        b.send("quit");
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(search(&mut a, LOST_IN_15, 3), alone);
}

#[test]
fn another_sessions_damaged_tables_folder_never_reaches_a_session() {
    let data = folder("data-damaged");
    let damaged = data.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    for name in ["KvRB.krt", "KvR.krt", "KvB.krt", "KvK.krt"] {
        std::fs::write(damaged.join(name), b"kiebitz raeuber table 2\nnot a table").unwrap();
    }
    let data_arg = data.display().to_string();
    let s = Server::start(
        &common::binary("kiebitz-raeuber"),
        &["--max-sessions", "2", "--data-dir", &data_arg],
    );
    let mut b = uci(&s.addr);
    let said = b.set("Endgame Tables Path", "damaged");
    assert!(said.contains("never written"), "{said}");
    // A asks for tables after B named its folder: A's are built in memory, B's folder unread.
    let mut a = uci(&s.addr);
    a.set("Endgame Tables", "3");
    let alone = search_with_tables(&mut a, LOST_IN_15, 3);
    let lines = log(&s);
    assert!(
        !lines.iter().any(|l| l.contains("damaged")),
        "A's tables read B's folder: {lines:?}"
    );
    // B's own tables read its folder (and find its files damaged); A's stay A's.
    b.set("Endgame Tables", "3");
    let b_result = search_with_tables(&mut b, LOST_IN_15, 3);
    assert_eq!(b_result, alone, "damaged files are built again, not used");
    assert!(log(&s).iter().any(|l| l.contains("damaged")));
    assert_eq!(search(&mut a, LOST_IN_15, 3), alone);
}

#[test]
fn a_clients_tables_path_makes_the_server_write_nothing() {
    let data = folder("data-fresh");
    let fresh = data.join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    let data_arg = data.display().to_string();
    let s = Server::start(
        &common::binary("kiebitz-raeuber"),
        &["--max-sessions", "2", "--data-dir", &data_arg],
    );
    let mut a = uci(&s.addr);
    // A folder that is not there is not made.
    let said = a.set("Endgame Tables Path", "missing");
    assert!(
        said.starts_with("info string error") && said.contains("refused"),
        "{said}"
    );
    assert!(!data.join("missing").exists(), "a folder was made");
    let said = a.set("Endgame Tables Path", &fresh.display().to_string());
    assert!(said.contains("never written"), "{said}");
    a.set("Endgame Tables", "3");
    search_with_tables(&mut a, LOST_IN_15, 3);
    let written: Vec<_> = std::fs::read_dir(&fresh).unwrap().collect();
    assert!(
        written.is_empty(),
        "the server wrote {} files",
        written.len()
    );
}

#[test]
fn paths_outside_the_data_folder_are_refused() {
    let data = folder("data-confined");
    let outside = folder("outside");
    let inside_net = data.join("inside.nnue");
    std::fs::copy(network("in.nnue", 16, 4), &inside_net).unwrap();
    let outside_net = network("out.nnue", 32, 9);
    let link = data.join("link.nnue");
    std::os::unix::fs::symlink(&outside_net, &link).unwrap();
    std::os::unix::fs::symlink(&outside, data.join("out-dir")).unwrap();
    let data_arg = data.display().to_string();
    let s = Server::start(
        &common::binary("kiebitz-chess"),
        &["--max-sessions", "2", "--data-dir", &data_arg],
    );
    let mut a = uci(&s.addr);
    let said = a.set("EvalFile", "inside.nnue");
    assert!(said.contains("(768→16×2→1)"), "{said}");
    let own = search(&mut a, MIDDLE_GAME, 4);
    for (option, value) in [
        ("EvalFile", outside_net.clone()),
        ("EvalFile", link.display().to_string()),
        ("EvalFile", "../outside/x.nnue".to_string()),
        ("SyzygyPath", outside.display().to_string()),
        ("SyzygyPath", "out-dir".to_string()),
        ("BookFile", outside_net.clone()),
    ] {
        let said = a.set(option, &value);
        assert!(
            said.starts_with("info string error") && said.contains("refused"),
            "{option} {value}: {said}"
        );
    }
    assert_eq!(
        search(&mut a, MIDDLE_GAME, 4),
        own,
        "the old network is kept"
    );
    // Without --data-dir a client names no path at all.
    let bare = Server::start(&common::binary("kiebitz-chess"), &["--max-sessions", "1"]);
    let mut c = uci(&bare.addr);
    let said = c.set("EvalFile", &inside_net.display().to_string());
    assert!(said.contains("no file or folder"), "{said}");
    assert_eq!(
        c.set("SyzygyPath", "<empty>"),
        "info string Syzygy tables for up to 0 pieces"
    );
}

#[test]
fn a_sessions_table_memory_is_counted_and_freed_when_it_leaves() {
    let s = Server::start(
        &common::binary("kiebitz-raeuber"),
        &["--max-sessions", "2", "--max-hash", "200"],
    );
    let mut b = uci(&s.addr);
    {
        let mut a = uci(&s.addr);
        let said = a.set("Endgame Tables", "4");
        assert!(said.contains("up to 4 pieces"), "{said}");
        // A's tables take about 100 MiB of the 200: B's 150 MiB are cut.
        let said = b.set("Hash", "150");
        assert!(
            said.contains("more than the server's memory budget"),
            "{said}"
        );
        let said = a.set("Endgame Tables", "5");
        assert!(
            said.contains("error"),
            "five pieces are refused here: {said}"
        );
        a.send("quit");
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(b.set("Hash", "150"), "", "A's tables' memory came back");
}
