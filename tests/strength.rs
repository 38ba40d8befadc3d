//! Strength levels through the protocols (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`;
//! docs/strength.md), and the options XBoard shares with UCI (strength, Syzygy).

mod common;
mod protocol_io;

use std::collections::HashSet;

use kiebitz::search::strength::{self, FULL_ELO, MIN_ELO};
use protocol_io::Client;

fn uci(binary: &str) -> (Client, Vec<String>) {
    let mut e = Client::spawn(&common::binary(binary), &[]);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    (e, lines)
}

/// The last `info` line's node count before `bestmove`, and the move.
fn search(e: &mut Client, go: &str) -> (u64, String) {
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    let nodes = lines
        .iter()
        .rev()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|&w| w == "nodes")?;
            words.next()?.parse::<u64>().ok()
        })
        .next()
        .unwrap_or(0);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    (nodes, best.to_string())
}

#[test]
fn uci_elo_where_calibrated_skill_level_everywhere() {
    let (_, chess) = uci("kiebitz-chess");
    assert!(chess.contains(&"option name UCI_LimitStrength type check default false".into()));
    assert!(chess.contains(&format!(
        "option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {FULL_ELO}"
    )));
    assert!(chess.contains(&"option name Skill Level type spin default 20 min 0 max 20".into()));
    // Every other two-seat engine of the registry (the N-seat dialect has no strength options).
    let others = common::two_seat_engines()
        .into_iter()
        .filter(|&b| b != "kiebitz-chess");
    for binary in others {
        let (_, lines) = uci(binary);
        assert!(!lines.iter().any(|l| l.contains("UCI_Elo")), "{binary}");
        assert!(lines.iter().any(|l| l.contains("Skill Level")), "{binary}");
    }
}

/// A level keeps its node budget whatever the time given, plays several moves from one
/// position over several games, and the options' errors are said and change nothing.
#[test]
fn a_uci_level_keeps_its_budget_and_varies() {
    let (mut e, _) = uci("kiebitz-chess");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1400");
    let budget = strength::plan(1400).nodes;
    let mut played = HashSet::new();
    for _ in 0..12 {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4");
        let (nodes, best) = search(&mut e, "go wtime 60000 btime 60000");
        assert!(
            nodes <= budget + 64,
            "{nodes} nodes at a budget of {budget}"
        );
        played.insert(best);
    }
    assert!(played.len() >= 2, "{played:?}");
    // Out of range: an error, and the level stays.
    let said = e.ask("setoption name UCI_Elo value 99999");
    assert!(said.contains("UCI_Elo") && said.contains("1350"), "{said}");
    e.send("position startpos");
    let (nodes, _) = search(&mut e, "go depth 30");
    assert!(nodes <= budget + 64, "{nodes}");
    // Full strength again: `go nodes` searches well past the level's budget.
    e.send("setoption name UCI_LimitStrength value false");
    let (nodes, _) = search(&mut e, &format!("go nodes {}", 10 * budget));
    assert!(nodes > 2 * budget, "{nodes}");
    // Skill Level alone also limits.
    e.send("setoption name Skill Level value 0");
    let (nodes, _) = search(&mut e, "go depth 30");
    assert!(nodes <= strength::skill_plan(0).nodes + 64, "{nodes}");
}

fn xboard(binary: &str) -> (Client, Vec<String>) {
    let mut e = Client::spawn(&common::binary(binary), &[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until(|l| l == "feature done=1");
    (e, lines)
}

/// XBoard offers and obeys the same strength options, for the engine's own moves.
#[test]
fn xboard_sets_the_strength_level() {
    let (mut e, features) = xboard("kiebitz-chess");
    assert!(features.contains(&format!(
        "feature option=\"UCI_Elo -spin {MIN_ELO} {MIN_ELO} {FULL_ELO}\""
    )));
    assert!(features.contains(&"feature option=\"Skill Level -spin 20 0 20\"".into()));
    e.send("option UCI_LimitStrength=1");
    e.send("option UCI_Elo=1350");
    e.send("new");
    e.send("post");
    e.send("sd 30");
    e.send("usermove e2e4");
    let lines = e.read_until(|l| l.starts_with("move "));
    // Thinking lines: `depth score centiseconds nodes pv`.
    let nodes: u64 = lines
        .iter()
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .max()
        .unwrap();
    assert!(nodes <= strength::plan(MIN_ELO).nodes + 64, "{lines:?}");
    let said = e.ask("option UCI_Elo=5");
    assert!(
        said.starts_with("Error") && said.contains("UCI_Elo"),
        "{said}"
    );
}

/// XBoard's Syzygy options (advertised with the UCI list) load the tables and probe.
#[test]
fn xboard_loads_syzygy_tables() {
    let dir = common::data_path("syzygy");
    if !dir.join("KQvK.rtbw").exists() {
        eprintln!("skipped: no tables; run scripts/build/build-syzygy-tables.sh");
        return;
    }
    let (mut e, features) = xboard("kiebitz-chess");
    assert!(
        features
            .iter()
            .any(|l| l.contains("SyzygyPath -path") || l.contains("SyzygyPath -string"))
    );
    let said = e.ask(&format!("option SyzygyPath={}", dir.display()));
    assert_eq!(said, "# Syzygy tables for up to 4 pieces");
    e.send("new");
    e.send("force");
    e.send("setboard 8/8/8/4k3/8/8/8/3QK3 w - - 0 1");
    e.send("post");
    e.send("sd 3");
    e.send("go");
    let played = e.expect_prefix("move ")["move ".len()..].to_string();
    // The move keeps the tables' verdict by DTZ, as the library's root filter says (a strict
    // subset of the legal moves here, so a search without the tables could miss it).
    use kiebitz::game::{Game, Tablebases};
    use kiebitz::games::chess::Chess;
    // The hold keeps the tables loaded while this test probes them.
    let _hold = Chess::tb_load(dir.to_str().unwrap()).unwrap();
    let pos = Chess::from_fen("chess", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1").unwrap();
    let (keep, _) = pos.tb_root_moves(4, true).unwrap();
    let mut legal = kiebitz::board::MoveList::new();
    pos.legal_moves(&mut legal);
    assert!(
        keep.len() < legal.len(),
        "{} of {}",
        keep.len(),
        legal.len()
    );
    assert!(keep.iter().any(|&m| pos.move_text(m) == played), "{played}");
    let said = e.ask("option SyzygyProbeLimit=9");
    assert!(said.starts_with("Error"), "{said}");
}
