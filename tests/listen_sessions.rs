//! The engine server keeps its clients apart: what one session of `--listen` sets of the
//! game's own (its network, `Use NNUE`, its Syzygy tables) changes that session's searches
//! only, never another's.

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

/// Sets an option and returns the `info string` it answers with.
fn set(c: &mut Client, name: &str, value: &str) -> String {
    c.send(&format!("setoption name {name} value {value}"));
    c.send("isready");
    let lines = c.read_until(|l| l == "readyok");
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
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
    let s = Server::start(&common::binary("kiebitz-chess"), &["--max-sessions", "2"]);
    let mut a = uci(&s.addr);
    let said = set(&mut a, "EvalFile", &network("a.nnue", 16, 4));
    assert!(said.contains("(768→16×2→1)"), "{said}");
    let alone = search(&mut a, MIDDLE_GAME, 5);
    let mut b = uci(&s.addr);
    let built_in = search(&mut b, MIDDLE_GAME, 5);
    assert_ne!(alone, built_in, "the network decides A's search");
    // B's network, then B's switch: A searches with its own network all along.
    let said = set(&mut b, "EvalFile", &network("b.nnue", 32, 9));
    assert!(said.contains("(768→32×2→1)"), "{said}");
    let with_b_net = search(&mut b, MIDDLE_GAME, 5);
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), alone);
    let said = set(&mut b, "Use NNUE", "false");
    assert!(said.contains("NNUE off"), "{said}");
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), alone);
    let hand_made = search(&mut b, MIDDLE_GAME, 5);
    assert_ne!(hand_made, with_b_net, "B's own switch holds");
    set(&mut b, "Use NNUE", "true");
    assert_eq!(
        search(&mut b, MIDDLE_GAME, 5),
        with_b_net,
        "B keeps its network"
    );
    // And A's switch is A's: off, A evaluates by hand while B keeps its network.
    set(&mut a, "Use NNUE", "false");
    assert_eq!(search(&mut a, MIDDLE_GAME, 5), hand_made);
    assert_eq!(search(&mut b, MIDDLE_GAME, 5), with_b_net);
}

/// A position of four pieces: the root is in the test's tables.
const KQ_V_KR: &str = "8/8/8/4k3/8/8/2r5/3QK3 w - - 0 1";

#[test]
fn another_sessions_syzygy_path_leaves_a_sessions_tables_alone() {
    let tables = common::data_path("syzygy");
    let tables = tables.display().to_string();
    let s = Server::start(&common::binary("kiebitz-chess"), &["--max-sessions", "3"]);
    let mut a = uci(&s.addr);
    let said = set(&mut a, "SyzygyPath", &tables);
    assert_eq!(said, "info string Syzygy tables for up to 4 pieces");
    let alone = search(&mut a, KQ_V_KR, 3);
    assert!(!alone.contains("tbhits 0 "), "A probes: {alone}");
    {
        let mut b = uci(&s.addr);
        // A folder without tables (unloaded every session's tables before), a second set of
        // tables (replaced them), no tables (unloaded them): A keeps its own.
        let empty = temp("no-tables");
        std::fs::create_dir_all(&empty).unwrap();
        let said = set(&mut b, "SyzygyPath", &empty.display().to_string());
        assert!(said.contains("in use by another session"), "{said}");
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        let other = temp("other-tables");
        std::fs::create_dir_all(&other).unwrap();
        for name in ["KQvKR.rtbw", "KQvKR.rtbz"] {
            std::fs::copy(common::data_path("syzygy").join(name), other.join(name)).unwrap();
        }
        let said = set(&mut b, "SyzygyPath", &other.display().to_string());
        assert!(said.contains("in use by another session"), "{said}");
        assert!(
            search(&mut b, KQ_V_KR, 3).contains("tbhits 0 "),
            "B probes none"
        );
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        // The same path is shared; B's unloading and leaving leave A's.
        assert_eq!(
            set(&mut b, "SyzygyPath", &tables),
            "info string Syzygy tables for up to 4 pieces"
        );
        assert!(!search(&mut b, KQ_V_KR, 3).contains("tbhits 0 "));
        set(&mut b, "SyzygyPath", "<empty>");
        assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
        set(&mut b, "SyzygyPath", &tables);
        b.send("quit");
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(search(&mut a, KQ_V_KR, 3), alone);
}
