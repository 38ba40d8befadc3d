//! The pawn-chess analyser: the known results of docs/rules.md §6, its compact rules against the
//! reference rules, the JSON and DOT output, bad arguments, and the engine's solved play.

mod common;

use kiebitz::games::pawns::analysis::board::{Children, Pos, Shape};
use kiebitz::games::pawns::analysis::cli::{analyze, cli, json_count, to_json, to_table};
use kiebitz::games::pawns::analysis::count::TreeCounts;
use kiebitz::games::pawns::analysis::dot::dot;
use kiebitz::games::pawns::analysis::solve::{Budget, distances, solve_root};
use kiebitz::games::pawns::analysis::{engine_solve, engine_solve_limited};

/// A stop flag never set.
static RUN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use kiebitz::search::MATE;
use std::time::Duration;

/// One row of docs/rules.md §6: variant, counts, value, first-move values.
struct Row {
    variant: &'static str,
    counts: TreeCounts,
    value: i8,
    first: &'static [i8],
}

#[allow(clippy::too_many_arguments)]
fn row(
    variant: &'static str,
    unique: u64,
    nodes: u128,
    ww: u128,
    bw: u128,
    dr: u128,
    depth: u32,
    branching: usize,
    value: i8,
    first: &'static [i8],
) -> Row {
    Row {
        variant,
        counts: TreeCounts {
            unique_positions: unique,
            tree_nodes: nodes,
            white_wins: ww,
            black_wins: bw,
            draws: dr,
            max_depth: depth,
            max_branching: branching,
        },
        value,
        first,
    }
}

fn check(r: &Row) {
    let root = Pawns::startpos(r.variant).unwrap();
    let rep = analyze(&root, false, u64::MAX, false).unwrap();
    assert_eq!(rep.counts.as_ref(), Some(&r.counts), "{}", r.variant);
    assert_eq!(rep.value, r.value, "{}", r.variant);
    let firsts: Vec<i8> = rep.first_moves.iter().map(|(_, v)| *v).collect();
    assert_eq!(firsts, r.first, "{}", r.variant);
}

#[test]
fn spec_rows_reproduced() {
    for r in [
        row("pawns3", 135, 252, 58, 50, 26, 7, 4, 0, &[0, 0, 0]),
        row("pawns3d", 153, 276, 72, 60, 26, 7, 5, 1, &[0, 1, 0]),
        row(
            "pawns4",
            20286,
            4197973,
            1365654,
            907164,
            57538,
            17,
            7,
            0,
            &[0, -1, -1, 0],
        ),
        row(
            "pawns4d",
            33817,
            9404797,
            2998208,
            2085122,
            137254,
            17,
            9,
            0,
            &[-1, 0, 0, -1, 0, 0, 0, 0],
        ),
    ] {
        check(&r);
    }
}

#[test]
fn first_moves_are_single_then_double_steps_by_file() {
    let root = Pawns::startpos("pawns4d").unwrap();
    let rep = analyze(&root, true, 0, false).unwrap();
    let names: Vec<&str> = rep.first_moves.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        names,
        [
            "a1a2", "b1b2", "c1c2", "d1d2", "a1a3", "b1b3", "c1c3", "d1d3"
        ]
    );
    assert!(rep.counts.is_none());
}

/// En passant on 3×3: a double step lands on the last rank and wins at once, so nothing can
/// be taken en passant and the results equal the double-step ones. On 4×4 en passant adds
/// positions (the skipped square is part of the position) and changes first-move values.
#[test]
fn en_passant_results() {
    check(&row("pawns3ep", 153, 276, 72, 60, 26, 7, 5, 1, &[0, 1, 0]));
    check(&row(
        "pawns4ep",
        40814,
        12078307,
        3840694,
        2664120,
        201540,
        17,
        9,
        0,
        &[0, -1, -1, 0, -1, 0, 0, -1],
    ));
}

/// The 5×5 results (run with `cargo test --release --test analysis -- --ignored`; a few
/// seconds of CPU each, longer on a busy machine).
#[test]
#[ignore]
fn five_by_five() {
    check(&row(
        "pawns5",
        3210411,
        90627857597982,
        29822877361856,
        25695319622490,
        70888237676,
        31,
        9,
        0,
        &[0, 0, 0, 0, 0],
    ));
    check(&row(
        "pawns5d",
        5181470,
        359594600752789,
        118880145796882,
        102433047937666,
        261918177270,
        31,
        12,
        0,
        &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ));
    check(&row(
        "pawns5ep",
        7148541,
        385353132712907,
        127343684967876,
        109967444695092,
        295621421268,
        31,
        12,
        0,
        &[0, -1, -1, -1, 0, 0, 0, 0, 0, 0],
    ));
}

/// A small deterministic generator for random playouts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Random games on every board shape and rule set: the compact rules give the same moves in
/// the same order and the same successors as the reference rules, and keys round-trip.
#[test]
fn compact_rules_match_reference() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for w in 3..=8u8 {
        for h in 3..=8u8 {
            for suffix in ["", "d", "ep"] {
                let variant = format!("pawns{w}{suffix}");
                let fen = kiebitz::games::pawns::start_fen(w, h);
                for _ in 0..20 {
                    let mut pos = Pawns::from_fen(&variant, &fen).unwrap();
                    let shape = Shape::of(&pos);
                    loop {
                        let compact = Pos::of(&pos);
                        // Decided positions drop the en-passant square from their key.
                        let key = shape.key(&compact);
                        assert_eq!(shape.key(&shape.unkey(key)), key, "{}", pos.fen());
                        if shape.decided(&compact).is_none() {
                            assert_eq!(shape.unkey(key), compact, "{}", pos.fen());
                        }
                        let mut list = MoveList::new();
                        pos.legal_moves(&mut list);
                        let mine = shape.moves(&compact);
                        let mine_moves: Vec<_> = mine.iter().map(|(m, _)| *m).collect();
                        assert_eq!(mine_moves, list.to_vec(), "{} {}", variant, pos.fen());
                        for (mv, child) in &mine {
                            assert_eq!(Pos::of(&pos.play(*mv)), *child, "{} {mv}", pos.fen());
                        }
                        checked += 1;
                        if list.is_empty() {
                            break;
                        }
                        pos = pos.play(list[rng.below(list.len())]);
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Perft through the compact successors equals the reference perft.
#[test]
fn compact_perft_matches_reference() {
    fn perft(shape: &Shape, p: &Pos, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        let mut c = Children::new();
        shape.children(p, &mut c);
        c.iter().map(|c| perft(shape, c, d - 1)).sum()
    }
    for (variant, depth) in [
        ("pawns4ep", 8),
        ("pawns5ep", 6),
        ("pawns6d", 5),
        ("pawns8ep", 4),
    ] {
        let pos = Pawns::startpos(variant).unwrap();
        let shape = Shape::of(&pos);
        assert_eq!(
            perft(&shape, &Pos::of(&pos), depth),
            kiebitz::perft::perft(&pos, depth),
            "{variant}"
        );
    }
}

/// Every key of a JSON report, sorted.
fn keys(v: &serde_json::Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
    k.sort();
    k
}

/// No `null` anywhere in a JSON value.
fn assert_no_null(v: &serde_json::Value) {
    match v {
        serde_json::Value::Null => panic!("null in the report"),
        serde_json::Value::Array(a) => a.iter().for_each(assert_no_null),
        serde_json::Value::Object(o) => o.values().for_each(assert_no_null),
        _ => {}
    }
}

#[test]
fn json_report_shape() {
    let root = Pawns::startpos("pawns3d").unwrap();
    let rep = analyze(&root, false, u64::MAX, false).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&rep)).unwrap();
    assert_eq!(
        keys(&v),
        [
            "black_wins",
            "draws",
            "fen",
            "first_move_values",
            "first_moves",
            "height",
            "max_branching",
            "max_depth",
            "rules",
            "seconds",
            "solver_nodes",
            "tree_nodes",
            "unique_positions",
            "value",
            "value_only",
            "variant",
            "white_wins",
            "width"
        ]
    );
    assert_no_null(&v);
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(v["rules"], "doublestep");
    assert_eq!(v["variant"], "pawns3d");
    assert_eq!(v["fen"], "ppp/3/PPP w - - 0 1");
    assert_eq!(v["value_only"], false);
    // Counts are JSON numbers (they fit in u64 here), with the values of docs/rules.md §6.
    assert_eq!(v["unique_positions"].as_u64(), Some(153));
    assert_eq!(v["tree_nodes"].as_u64(), Some(276));
    assert_eq!(v["white_wins"].as_u64(), Some(72));
    assert_eq!(v["black_wins"].as_u64(), Some(60));
    assert_eq!(v["draws"].as_u64(), Some(26));
    assert_eq!(v["max_depth"].as_u64(), Some(7));
    assert_eq!(v["max_branching"].as_u64(), Some(5));
    assert_eq!(v["value"].as_i64(), Some(1));
    assert_eq!(v["first_move_values"], serde_json::json!([0, 1, 0]));
    assert_eq!(
        v["first_moves"],
        serde_json::json!([
            {"move": "a1a2", "value": 0},
            {"move": "b1b2", "value": 1},
            {"move": "c1c2", "value": 0}
        ])
    );
    assert!(v["solver_nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    // The table says the same, with move names.
    let table = to_table(&rep);
    assert!(table.contains("tree nodes         276\n"), "{table}");
    assert!(
        table.contains("first-move values  a1a2 0, b1b2 1, c1c2 0\n"),
        "{table}"
    );
}

#[test]
fn value_only_json_leaves_the_counts_out() {
    let root = Pawns::startpos("pawns4ep").unwrap();
    let rep = analyze(&root, true, u64::MAX, false).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&rep)).unwrap();
    assert_no_null(&v);
    assert_eq!(v["value_only"], true);
    for k in [
        "unique_positions",
        "tree_nodes",
        "white_wins",
        "black_wins",
        "draws",
        "max_depth",
        "max_branching",
    ] {
        assert!(v.get(k).is_none(), "{k} present with --value-only");
    }
    // docs/rules.md §6: 4×4 with en passant, 0 and 0 −1 −1 0 −1 0 0 −1.
    assert_eq!(v["value"], 0);
    assert_eq!(
        v["first_move_values"],
        serde_json::json!([0, -1, -1, 0, -1, 0, 0, -1])
    );
    let names: Vec<&str> = v["first_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "a1a2", "b1b2", "c1c2", "d1d2", "a1a3", "b1b3", "c1c3", "d1d3"
        ]
    );
    assert!(to_table(&rep).contains("tree counts        not computed (--value-only)\n"));
}

#[test]
fn counts_beyond_u64_are_strings() {
    assert_eq!(json_count(0), "0");
    assert_eq!(json_count(u64::MAX as u128), u64::MAX.to_string());
    assert_eq!(json_count(u64::MAX as u128 + 1), "\"18446744073709551616\"");
    let v: serde_json::Value = serde_json::from_str(&json_count(u64::MAX as u128)).unwrap();
    assert_eq!(v.as_u64(), Some(u64::MAX));
}

#[test]
fn non_square_boards_have_no_variant_name() {
    let root = Pawns::from_fen("pawns3", "ppp/3/3/PPP w - - 0 1").unwrap();
    let rep = analyze(&root, false, u64::MAX, false).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&rep)).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(3), Some(4))
    );
    assert!(v.get("variant").is_none());
    assert_eq!(v["rules"], "plain");
}

#[test]
fn docs_explain_every_json_key() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/analysis.md"))
        .expect("docs/analysis.md");
    let root = Pawns::startpos("pawns3d").unwrap();
    let rep = analyze(&root, false, u64::MAX, false).unwrap();
    let v: serde_json::Value = serde_json::from_str(&to_json(&rep)).unwrap();
    for k in keys(&v).iter().chain(&["move".to_string()]) {
        assert!(
            doc.contains(&format!("`{k}`")),
            "docs/analysis.md does not explain `{k}`"
        );
    }
    for (colour, _) in kiebitz::games::pawns::analysis::dot::LEGEND {
        assert!(
            doc.contains(colour),
            "the DOT legend in docs/analysis.md lacks {colour}"
        );
    }
}

#[test]
fn the_binary_prints_json_and_help() {
    let bin = common::binary("kiebitz-pawns");
    let o = std::process::Command::new(&bin)
        .args(["analyze", "--size", "3", "--json"])
        .env("KIEBITZ_PROGRESS", "off")
        .output()
        .unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["tree_nodes"].as_u64(), Some(252));
    for args in [&["help", "analyze"][..], &["analyze", "--help"]] {
        let o = std::process::Command::new(&bin)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("--value-only"), "{args:?}: {text}");
    }
    let o = std::process::Command::new(&bin)
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("help <name>"));
}

#[test]
fn dot_colours_and_pink_edges() {
    let root = Pawns::startpos("pawns3").unwrap();
    let (text, n) = dot(Shape::of(&root), &Pos::of(&root), 1000).unwrap();
    assert_eq!(n, 135);
    assert!(text.starts_with("digraph"));
    let nodes = text.lines().filter(|l| l.contains("fillcolor")).count();
    assert_eq!(nodes, 135);
    // Leaves by colour: unique terminal positions, not tree leaves.
    let count = |c: &str| text.lines().filter(|l| l.contains(c)).count();
    assert_eq!(
        count("fillcolor=grey"),
        135 - count("fillcolor=red") - count("fillcolor=blue") - count("fillcolor=green")
    );
    assert!(
        count("fillcolor=red") > 0 && count("fillcolor=blue") > 0 && count("fillcolor=green") > 0
    );
    // Every position but the root is entered once by a black edge; the rest are pink.
    let edges = text.lines().filter(|l| l.contains("->")).count();
    assert_eq!(edges - count("color=pink"), 134);
    assert!(count("color=pink") > 0);
    // Every edge carries its move; the first moves of the start are there.
    let labelled = text
        .lines()
        .filter(|l| l.contains("->") && l.contains(" [label=\""))
        .count();
    assert_eq!(labelled, edges);
    for mv in ["a1a2", "b1b2", "c1c2"] {
        let label = format!("[label=\"{mv}\"]");
        assert!(
            text.lines()
                .any(|l| l.starts_with("  n0 -> ") && l.contains(&label)),
            "{mv}"
        );
    }
    // The legend is a table node: every colour with its meaning.
    let legend = text
        .lines()
        .find(|l| l.trim_start().starts_with("legend "))
        .unwrap();
    for (colour, meaning) in kiebitz::games::pawns::analysis::dot::LEGEND {
        assert!(
            legend.contains(&format!("bgcolor=\"{colour}\"")),
            "{colour}"
        );
        assert!(legend.contains(meaning), "{meaning}");
    }
    assert!(dot(Shape::of(&root), &Pos::of(&root), 100).is_err());
}

#[test]
fn bad_arguments_fail_cleanly() {
    let run = |args: &[&str]| cli(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_ne!(run(&[]), 0);
    assert_ne!(run(&["--size", "9"]), 0);
    assert_ne!(run(&["--size", "x"]), 0);
    assert_ne!(run(&["--width", "4"]), 0);
    assert_ne!(run(&["--fen", "ppp/3/PPN w - - 0 1"]), 0);
    assert_ne!(run(&["--size", "3", "--fen", "ppp/3/PPP w - - 0 1"]), 0);
    assert_ne!(run(&["--bogus"]), 0);
    assert_ne!(run(&["--size", "3", "--dot", "/nonexistent-dir/x.dot"]), 0);
    assert_eq!(run(&["--size", "3", "--json"]), 0);
    assert_eq!(run(&["--width", "3", "--height", "4", "--doublestep"]), 0);
    assert_eq!(run(&["--fen", "1p1/3/P1P w - - 0 1", "--enpassant"]), 0);
}

/// Width and height differ, and a position from a FEN.
#[test]
fn other_boards_and_fens() {
    let root = Pawns::from_fen("pawns4", "ppp/3/3/PPP w - - 0 1").unwrap();
    let rep = analyze(&root, false, u64::MAX, false).unwrap();
    let c = rep.counts.unwrap();
    assert_eq!(
        c.tree_nodes,
        c.white_wins + c.black_wins + c.draws + internal(&root)
    );
    // A decided position is one leaf.
    let won = Pawns::from_fen("pawns3", "P2/3/1p1 b - - 0 1").unwrap();
    let rep = analyze(&won, false, u64::MAX, false).unwrap();
    let c = rep.counts.unwrap();
    assert_eq!((c.unique_positions, c.tree_nodes, c.white_wins), (1, 1, 1));
    assert_eq!((c.max_depth, c.max_branching, rep.value), (0, 0, 1));
}

/// The tree counts by unfolding the tree: (nodes, White wins, Black wins, draws, depth) and
/// the distinct positions (by FEN without the move counters).
fn unfold(
    p: &Pawns,
    seen: &mut std::collections::HashSet<String>,
) -> (u128, u128, u128, u128, u32) {
    let fen = p.fen();
    let key: Vec<&str> = fen.split(' ').take(4).collect();
    seen.insert(key.join(" "));
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.is_empty() {
        return match p.decided() {
            Some(kiebitz::board::Color::White) => (1, 1, 0, 0, 0),
            Some(kiebitz::board::Color::Black) => (1, 0, 1, 0, 0),
            None => (1, 0, 0, 1, 0),
        };
    }
    let mut t = (1, 0, 0, 0, 0);
    for &m in &list {
        let c = unfold(&p.play(m), seen);
        t = (t.0 + c.0, t.1 + c.1, t.2 + c.2, t.3 + c.3, t.4.max(c.4 + 1));
    }
    t
}

/// The sweep (with and without the mirror shortcut) against the unfolded tree, from
/// symmetric and lopsided positions under every rule set.
#[test]
fn census_matches_unfolding() {
    for (variant, fen) in [
        ("pawns4", "ppp/3/3/PPP w - - 0 1"),
        ("pawns4ep", "ppp/3/3/PPP w - - 0 1"),
        ("pawns4ep", "pppp/4/4/PP1P w - - 0 1"),
        ("pawns4d", "1ppp/p3/4/PPPP b - - 0 1"),
        ("pawns5ep", "p1p1p/5/5/5/P1P1P w - - 0 1"),
        ("pawns5ep", "p3p/5/2p2/P4/1P2P w - - 0 1"),
    ] {
        let root = Pawns::from_fen(variant, fen).unwrap();
        let mut seen = std::collections::HashSet::new();
        let (nodes, ww, bw, dr, depth) = unfold(&root, &mut seen);
        let c = analyze(&root, false, u64::MAX, false)
            .unwrap()
            .counts
            .unwrap();
        assert_eq!(
            (
                c.tree_nodes,
                c.white_wins,
                c.black_wins,
                c.draws,
                c.max_depth
            ),
            (nodes, ww, bw, dr, depth),
            "{variant} {fen}"
        );
        // FENs name the en-passant square after every double step, as the key does.
        assert_eq!(c.unique_positions, seen.len() as u64, "{variant} {fen}");
    }
}

/// Interior nodes of the unfolded tree, by brute force.
fn internal(p: &Pawns) -> u128 {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.is_empty() {
        0
    } else {
        1 + list.iter().map(|&m| internal(&p.play(m))).sum::<u128>()
    }
}

/// From positions of random 4×4 games the engine's solved move keeps the position's value,
/// and its score agrees with the value and with the score after the move.
#[test]
fn engine_never_spoils_a_solved_position() {
    let mut rng = Rng(0xfeed_beef_1234_5678);
    let mut seen = [0usize; 3];
    for variant in ["pawns4", "pawns4d", "pawns4ep"] {
        for _ in 0..12 {
            let mut pos = Pawns::startpos(variant).unwrap();
            loop {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let shape = Shape::of(&pos);
                let (value, _, _) =
                    solve_root(shape, &Pos::of(&pos), Budget::default(), None).unwrap();
                let value = if pos.side_to_move() == kiebitz::board::Color::White {
                    value
                } else {
                    -value
                };
                let (mv, score) = engine_solve(&pos, Duration::from_secs(60), &RUN).unwrap();
                assert!(list.contains(&mv));
                let next = pos.play(mv);
                let (after, _, _) =
                    solve_root(shape, &Pos::of(&next), Budget::default(), None).unwrap();
                let after = if next.side_to_move() == kiebitz::board::Color::White {
                    -after
                } else {
                    after
                };
                assert_eq!(after, value, "{} {mv}", pos.fen());
                assert_eq!(score.signum() as i8, value, "{}", pos.fen());
                seen[(value + 1) as usize] += 1;
                if score != 0 {
                    let plies = MATE - score.abs();
                    assert!(plies >= 1);
                    match engine_solve(&next, Duration::from_secs(60), &RUN) {
                        None => assert_eq!(plies, 1, "{}", pos.fen()),
                        Some((_, s)) => {
                            assert_eq!(s.signum(), -score.signum());
                            assert_eq!(MATE - s.abs(), plies - 1, "{}", pos.fen());
                        }
                    }
                }
                // Wander: a random move, or the solved one.
                pos = if rng.below(2) == 0 {
                    next
                } else {
                    pos.play(list[rng.below(list.len())])
                };
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

/// Distances on a tiny position worked by hand: White to move wins in one ply.
#[test]
fn distance_by_hand() {
    let pos = Pawns::from_fen("pawns3", "2p/P2/3 w - - 0 1").unwrap();
    let (best, scores) = distances(Shape::of(&pos), &Pos::of(&pos), Budget::default()).unwrap();
    assert_eq!(best, kiebitz::games::pawns::analysis::solve::WIN - 1);
    assert_eq!(scores.len(), 1);
    let (mv, score) = engine_solve(&pos, Duration::from_secs(1), &RUN).unwrap();
    assert_eq!((mv.to_string(), score), ("a2a3".to_string(), MATE - 1));
    // White has no move: nothing to solve.
    let pos = Pawns::from_fen("pawns3", "3/p2/3 w - - 0 1").unwrap();
    assert!(engine_solve(&pos, Duration::from_secs(1), &RUN).is_none());
}

/// Too big for the exact-distance walk, the drawn 5×5 start is settled by the value solver:
/// score 0 and a move after which the game is still drawn.
#[test]
fn engine_keeps_a_draw_it_cannot_walk() {
    for variant in ["pawns5", "pawns5ep"] {
        let pos = Pawns::startpos(variant).unwrap();
        let (mv, score) = engine_solve_limited(&pos, Duration::from_secs(120), 1000, &RUN).unwrap();
        assert_eq!(score, 0);
        let next = pos.play(mv);
        let (after, _, _) =
            solve_root(Shape::of(&next), &Pos::of(&next), Budget::default(), None).unwrap();
        assert_eq!(after, 0, "{variant} {mv}");
    }
    // A won position that cannot be walked gets no exact score: nothing is claimed.
    let pos = Pawns::startpos("pawns3d").unwrap();
    assert!(engine_solve_limited(&pos, Duration::from_secs(10), 1, &RUN).is_none());
}

/// The solver gives up when told to stop (issue 16: `stop` was ignored for up to 5 s).
#[test]
fn the_engine_solver_obeys_stop() {
    let pos = Pawns::startpos("pawns4d").unwrap();
    assert!(engine_solve(&pos, Duration::from_secs(60), &RUN).is_some());
    let stop = std::sync::atomic::AtomicBool::new(true);
    assert!(engine_solve(&pos, Duration::from_secs(60), &stop).is_none());
}
