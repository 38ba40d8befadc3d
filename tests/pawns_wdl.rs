//! The acyclic win/draw/loss solver (src/solve/wdl.rs) on pawn chess: every bound it stores
//! while solving the 4×4 and 5×5 starts (every rule set) holds the exhaustive value (plain
//! negamax over the whole game graph), as do its values of a sample of every reachable
//! position; it agrees with the analyser's solver (src/games/pawns/analysis/solve.rs) on positions of
//! seeded random play on 6×6; its
//! certificates (a win's proof, a draw's two holds) check, and one with a wrong move is refused.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::pawns::analysis::acyclic::PawnSolver;
use kiebitz::games::pawns::analysis::board::{Children, Leaf, Pos, Shape};
use kiebitz::games::pawns::analysis::solve::{Budget, Solver};
use kiebitz::games::pawns::analysis::table::Wide;
use kiebitz::solve::compact::{self, Compact};
use kiebitz::solve::proof;
use kiebitz::solve::wdl::{self, Acyclic, Searcher, Table};
use kiebitz::solve::wdl_checkpoint;

const RULES: [&str; 5] = ["", "d", "ep", "game", "gameep"];

fn variant(n: u8, rules: &str) -> String {
    match rules {
        "game" => format!("pawngame{n}"),
        "gameep" => format!("pawngame{n}ep"),
        r => format!("pawns{n}{r}"),
    }
}

/// The value of every position reachable from `p` for its side to move, by plain negamax over
/// the whole game graph (no pruning, no bounds): the exhaustive oracle.
fn exhaustive(shape: &Shape, p: Pos, values: &mut HashMap<Pos, i8>) -> i8 {
    if let Some(&v) = values.get(&p) {
        return v;
    }
    let mut kids = Children::new();
    shape.children(&p, &mut kids);
    let v = if kids.is_empty() {
        let white = match shape.leaf(&p) {
            Leaf::WhiteWon => 1,
            Leaf::BlackWon => -1,
            Leaf::Drawn => 0,
        };
        if p.black_to_move { -white } else { white }
    } else {
        kids.iter()
            .map(|c| -exhaustive(shape, *c, values))
            .max()
            .unwrap_or(0)
    };
    values.insert(p, v);
    v
}

/// Solves the start of `variant` and checks every bound the solver stored for a reachable
/// position against the exhaustive value, and the value of every `sample`-th position searched
/// on its own. Returns the number of positions checked.
fn check_against_exhaustive(variant: &str, sample: usize) -> usize {
    let stop = AtomicBool::new(false);
    let start = Pawns::startpos(variant).unwrap();
    let shape = Shape::of(&start);
    let game = PawnSolver::new(shape);
    let tt = Table::new(64);
    let mut s = Searcher::new(&game, &tt, &stop);
    let root = Pos::of(&start);
    let mut exact = HashMap::new();
    let v = exhaustive(&shape, root, &mut exact);
    assert_eq!(s.value(&root), Some(v), "{variant}");
    let mut met = 0;
    for (p, &v) in &exact {
        if let Some(b) = tt.get(game.key(p)) {
            assert!(b.lo <= v && v <= b.hi, "{variant} {p:?}: {b:?}, exact {v}");
            met += 1;
        }
    }
    assert!(met > 0, "{variant}: no position met");
    for (p, &v) in exact.iter().step_by(sample) {
        assert_eq!(s.value(p), Some(v), "{variant} {p:?}");
        // Null windows below and above the value say the same.
        assert!(s.bounded(p, v - 1, v).unwrap() >= v, "{variant} {p:?}");
        assert!(s.bounded(p, v, v + 1).unwrap() <= v, "{variant} {p:?}");
        met += 1;
    }
    met
}

#[test]
fn agrees_with_the_exhaustive_values_on_4x4_and_5x5() {
    let mut total = 0;
    for rules in RULES {
        total += check_against_exhaustive(&variant(4, rules), 1);
    }
    for rules in ["", "game", "gameep"] {
        total += check_against_exhaustive(&variant(5, rules), 97);
    }
    assert!(total > 50_000, "{total} positions");
}

/// The static rules ([`Shape::wins_at_once`], [`Shape::loses_next`], [`Shape::race_won`],
/// [`Shape::settled`]) give the exhaustive value on
/// every reachable 4×4 and 5×5 position of every rule set (5×5 with the double step: the
/// pawn game's), and decide a good share of them.
#[test]
fn static_values_agree_with_the_exhaustive_values() {
    let boards = RULES.iter().map(|r| variant(4, r));
    let boards = boards.chain(["pawns5", "pawngame5", "pawngame5ep"].map(String::from));
    for v in boards {
        let start = Pawns::startpos(&v).unwrap();
        let shape = Shape::of(&start);
        let mut exact = HashMap::new();
        exhaustive(&shape, Pos::of(&start), &mut exact);
        let mut decided = 0;
        for (p, &value) in &exact {
            if shape.decided(p).is_some() {
                continue;
            }
            let mut kids = Children::new();
            shape.children(p, &mut kids);
            let at_once = kids.iter().any(|c| shape.decided(c).is_some());
            assert_eq!(shape.wins_at_once(p), at_once, "{v} wins at once {p:?}");
            if !at_once && shape.loses_next(p) {
                assert_eq!(value, -1, "{v} loses next {p:?}");
            }
            if shape.race_won(p) {
                assert_eq!(value, 1, "{v} race {p:?}");
            }
            if let Some(s) = shape.settled(p) {
                assert_eq!(s, value, "{v} settled {p:?}");
                decided += 1;
            }
        }
        eprintln!("{v}: {decided} of {} decided statically", exact.len());
        assert!(
            decided * 25 > exact.len(),
            "{v}: {decided} of {}",
            exact.len()
        );
    }
}

/// The static rules on bigger boards, where captures and stalemates combine in ways 5×5 has
/// no room for: along seeded random games of every 6×6 and 7×7 rule set, each position a rule
/// decides is solved by the analyser's solver (which uses no such rule) and must agree.
#[test]
fn static_values_agree_with_the_analyser_on_random_6x6_and_7x7_positions() {
    let mut rng = kiebitz::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut kids = Children::new();
    let mut checked = 0;
    for n in [6, 7] {
        for rules in RULES {
            let start = Pawns::startpos(&variant(n, rules)).unwrap();
            let shape = Shape::of(&start);
            let mut old = Solver::<Wide>::new(shape, 1 << 20, Budget::default());
            for _ in 0..1000 {
                let mut p = Pos::of(&start);
                loop {
                    shape.children(&p, &mut kids);
                    if kids.is_empty() {
                        break;
                    }
                    p = kids[rng.below(kids.len())];
                    if shape.decided(&p).is_some() {
                        break;
                    }
                    let race = shape.race_won(&p).then_some(1);
                    let next = (!shape.wins_at_once(&p) && shape.loses_next(&p)).then_some(-1);
                    if let Some(v) = race.or(next).or(shape.settled(&p)) {
                        let exact = old.value(&p).unwrap();
                        assert_eq!(v, exact, "{} {p:?}", variant(n, rules));
                        checked += 1;
                    }
                }
            }
        }
    }
    eprintln!("{checked} positions checked");
    assert!(checked > 1000, "{checked} positions checked");
}

/// The move order (src/games/pawns/analysis/acyclic.rs, `Order`) and the static rules keep one-thread
/// root-only searches at the sizes docs/solved.md reports; the order before them needed
/// 118,592 (pawngame6ep), 6,703,337 (pawns6) and 37,220 (pawns5d) nodes.
#[test]
fn the_move_order_keeps_the_searches_small() {
    for (variant, value, most) in [
        ("pawngame6ep", 0, 90_000),
        ("pawns6", 0, 2_400_000),
        ("pawns5d", 0, 12_000),
    ] {
        let root = Pawns::startpos(variant).unwrap();
        let options = wdl::Options {
            hash_mb: 64,
            threads: 1,
            certificates: false,
            root_only: true,
            ..wdl::Options::default()
        };
        let s = kiebitz::games::pawns::analysis::acyclic::solve(
            &root,
            &options,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(s.value, Some(value), "{variant}");
        assert!(s.nodes <= most, "{variant}: {} nodes", s.nodes);
    }
}

/// The two largest 5×5 graphs (5 M and 7 M positions, 15 s):
/// `cargo test --release --test pawns_wdl -- --ignored`.
#[test]
#[ignore]
fn agrees_with_the_exhaustive_values_on_5x5_with_the_double_step() {
    let total = check_against_exhaustive("pawns5d", 97) + check_against_exhaustive("pawns5ep", 97);
    assert!(total > 100_000, "{total} positions");
}

#[test]
fn agrees_with_the_analyser_on_random_6x6_positions() {
    let stop = AtomicBool::new(false);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut kids = Children::new();
    let mut compared = 0;
    for rules in RULES {
        let start = Pawns::startpos(&variant(6, rules)).unwrap();
        let shape = Shape::of(&start);
        let game = PawnSolver::new(shape);
        let tt = Table::new(64);
        let mut new = Searcher::new(&game, &tt, &stop);
        for _ in 0..8 {
            let mut p = Pos::of(&start);
            for _ in 0..6 + next() % 8 {
                shape.children(&p, &mut kids);
                if kids.is_empty() {
                    break;
                }
                p = kids[(next() % kids.len() as u64) as usize];
            }
            let mut old = Solver::<Wide>::new(shape, 1 << 16, Budget::default());
            assert_eq!(
                new.value(&p).unwrap(),
                old.value(&p).unwrap(),
                "{} {p:?}",
                variant(6, rules)
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 40);
}

fn solve(v: &str, fen: Option<&str>) -> (Pawns, wdl::Solution) {
    let root = match fen {
        Some(f) => Pawns::from_fen(v, f).unwrap(),
        None => Pawns::startpos(v).unwrap(),
    };
    let options = wdl::Options {
        hash_mb: 64,
        threads: 2,
        ..wdl::Options::default()
    };
    let s =
        kiebitz::games::pawns::analysis::acyclic::solve(&root, &options, &AtomicBool::new(false));
    (root, s.unwrap())
}

#[test]
fn a_win_comes_with_a_checked_proof_and_a_draw_with_two_checked_holds() {
    // The pawn game 5×5 is a win for White (b3, c3, d3), with en passant a draw.
    let (_, s) = solve("pawngame5", None);
    assert_eq!(s.value, Some(1));
    assert_eq!(s.certificates.len(), 1);
    let (p, c) = &s.certificates[0];
    assert!(!p.hold && c.positions > 10);
    let wins: Vec<&str> = s
        .first_moves
        .iter()
        .filter(|m| m.1 == Some(1))
        .map(|m| m.0.as_str())
        .collect();
    assert_eq!(wins, ["b2b3", "c2c3", "d2d3"]);
    let (_, s) = solve("pawngame5ep", None);
    assert_eq!(s.value, Some(0));
    assert_eq!(s.certificates.len(), 2);
    assert!(s.certificates.iter().all(|(p, _)| p.hold));
    // A loss for the side to move: the proof is the opponent's.
    let (root, s) = solve("pawngame4", None);
    assert_eq!(s.value, Some(-1));
    assert_eq!(s.certificates[0].0.winner, root.side_to_move().flip());
}

#[test]
fn a_proof_whose_first_move_is_changed_to_a_draw_is_refused() {
    // The pawn game 5×5: 1. b3 wins, 1. a3 only draws.
    let (root, s) = solve("pawngame5", None);
    let mut bad = s.certificates[0].0.unfold::<Pawns>().unwrap();
    let i = bad
        .nodes
        .iter()
        .position(|(f, _)| proof::identity(f) == proof::identity(&root.fen()))
        .unwrap();
    assert!(proof::check::<Pawns>(&bad).is_ok());
    bad.nodes[i].1 = "a2a3".into();
    assert!(proof::check::<Pawns>(&bad).is_err());
}

#[test]
fn a_certificate_with_one_wrong_move_is_refused() {
    for v in ["pawngame5", "pawngame5ep", "pawns5d"] {
        let (root, s) = solve(v, None);
        for (compact, _) in &s.certificates {
            let good = &compact.unfold::<Pawns>().unwrap();
            // Change the first listed move that has a legal alternative keeping the proof's
            // shape (another move of the same position) into that alternative.
            let mut refused = 0;
            for i in 0..good.nodes.len().min(8) {
                let (fen, mv) = &good.nodes[i];
                let pos = Pawns::from_fen(v, fen).unwrap();
                let mut moves = kiebitz::board::MoveList::new();
                pos.legal_moves(&mut moves);
                for m in moves.iter() {
                    let text = pos.move_text(*m);
                    if &text == mv {
                        continue;
                    }
                    let mut bad = good.clone();
                    bad.nodes[i].1 = text;
                    if proof::check::<Pawns>(&bad).is_err() {
                        refused += 1;
                    }
                }
            }
            assert!(refused > 0, "{v}: no wrong move refused");
            // An illegal move is refused wherever it stands.
            let mut bad = good.clone();
            bad.nodes[0].1 = "a1a8".into();
            assert!(
                proof::check::<Pawns>(&bad).is_err(),
                "{v} from {}",
                root.fen()
            );
        }
    }
}

/// The compact certificates are checked by their own walk ([`compact::check`]), without a FEN
/// per position: each is accepted as collected, and refused with any one of its first moves
/// changed into another legal move where that breaks it (some must), with an illegal move, with
/// a move missing or one too many; the text format unfolded from it checks too.
#[test]
fn a_compact_certificate_with_one_wrong_move_is_refused() {
    for v in ["pawngame5", "pawngame5ep", "pawns5d", "pawngame6ep"] {
        let (_, s) = solve(v, None);
        assert!(!s.certificates.is_empty(), "{v}");
        for (good, checked) in &s.certificates {
            assert_eq!(compact::check::<Pawns>(good).as_ref(), Ok(checked), "{v}");
            let text = good.to_text();
            assert_eq!(Compact::parse(&text).as_ref(), Ok(good), "{v}");
            assert!(proof::check::<Pawns>(&good.unfold::<Pawns>().unwrap()).is_ok());
            let words: Vec<&str> = good.moves.split(' ').collect();
            assert_eq!(words.len(), good.count);
            let with = |i: usize, w: &str| {
                let mut changed = words.clone();
                changed[i] = w;
                Compact {
                    moves: changed.join(" "),
                    ..good.clone()
                }
            };
            // The position where each move is played: the text format's nodes, in walk order.
            let nodes = good.unfold::<Pawns>().unwrap().nodes;
            let mut refused = 0;
            for (i, (fen, mv)) in nodes.iter().enumerate().take(8) {
                assert_eq!(words[i], mv);
                let pos = Pawns::from_fen(v, fen).unwrap();
                let mut moves = kiebitz::board::MoveList::new();
                pos.legal_moves(&mut moves);
                for m in moves.iter().map(|m| pos.move_text(*m)) {
                    if m != *mv && compact::check::<Pawns>(&with(i, &m)).is_err() {
                        refused += 1;
                    }
                }
            }
            assert!(refused > 0, "{v}: no wrong move refused");
            assert!(compact::check::<Pawns>(&with(0, "a1a8")).is_err(), "{v}");
            let short = Compact {
                moves: words[..words.len() - 1].join(" "),
                count: good.count - 1,
                ..good.clone()
            };
            assert!(compact::check::<Pawns>(&short).is_err(), "{v}");
            let long = Compact {
                moves: format!("{} {}", good.moves, words[0]),
                count: good.count + 1,
                ..good.clone()
            };
            assert!(compact::check::<Pawns>(&long).is_err(), "{v}");
        }
    }
}

/// A position's exact key ([`Game::exact_key`]) is equal for two positions exactly when their
/// FENs without clocks are: over every position of a walk from the starts of 4×4 and 5×5 rule
/// sets and the first 200,000 of 8×8's (en passant included).
#[test]
fn exact_keys_tell_positions_apart_as_their_fens_do() {
    for v in [
        "pawns4ep",
        "pawngame5ep",
        "pawns5d",
        "pawns8ep",
        "pawngame8ep",
    ] {
        let start = Pawns::startpos(v).unwrap();
        let mut by_key: HashMap<u128, String> = HashMap::new();
        let mut by_fen: HashMap<String, u128> = HashMap::new();
        let mut todo = vec![start];
        let mut moves = kiebitz::board::MoveList::new();
        while let Some(p) = todo.pop() {
            let fen = proof::identity(&p.fen());
            let key = p.exact_key().expect("pawn positions have exact keys");
            if let Some(k) = by_fen.get(&fen) {
                assert_eq!(*k, key, "{v} {fen}");
                continue;
            }
            assert_eq!(by_key.insert(key, fen.clone()), None, "{v} {fen}");
            by_fen.insert(fen, key);
            if by_fen.len() < 200_000 {
                p.legal_moves(&mut moves);
                todo.extend(moves.iter().map(|m| p.play(*m)));
            }
        }
        assert!(by_fen.len() > 1000, "{v}");
    }
}

/// The solver's key is one for a position and its mirror image and tells apart any two
/// positions that are not mirror images: as the analyser's key does, on the first 300,000
/// positions of a walk from the start of 4×4 and 5×5 rule sets (the bitboard key) and of
/// 8×8's seed rules (the ternary one).
#[test]
fn keys_are_one_for_mirror_images_and_distinct_otherwise() {
    for v in [
        "pawns4ep",
        "pawns5ep",
        "pawngame5ep",
        "pawns5",
        "pawngame4",
        "pawns8ep",
    ] {
        let start = Pawns::startpos(v).unwrap();
        let shape = Shape::of(&start);
        let solver = PawnSolver::new(shape);
        assert_eq!(solver.bitboard_key(), v != "pawns8ep", "{v}");
        let mut seen: HashMap<u128, u128> = HashMap::new();
        let mut todo = vec![Pos::of(&start)];
        let mut done = HashSet::new();
        let mut kids = Children::new();
        while let Some(p) = todo.pop() {
            if !done.insert(p) || done.len() > 300_000 {
                continue;
            }
            let ours = solver.key(&p);
            assert_eq!(ours, solver.key(&shape.mirror(&p)), "{v} {p:?}");
            let theirs = shape.symmetric_key(&p);
            assert_eq!(*seen.entry(theirs).or_insert(ours), ours, "{v} {p:?}");
            shape.children(&p, &mut kids);
            todo.extend(kids.iter().filter(|c| shape.decided(c).is_none()));
        }
        let distinct: HashSet<u128> = seen.values().copied().collect();
        assert_eq!(distinct.len(), seen.len(), "{v}: two positions share a key");
    }
}

/// `root_only` gives the root's value with fewer nodes: the first moves after the best known
/// are searched only until shown no better, and say so (one thread, so the counts repeat).
#[test]
fn root_only_gives_the_same_value_with_fewer_nodes() {
    for (variant, value) in [
        ("pawngame5", 1),
        ("pawngame6", 0),
        ("pawns5", 0),
        ("pawngame6ep", 0),
    ] {
        let root = Pawns::startpos(variant).unwrap();
        let run = |root_only| {
            let options = wdl::Options {
                hash_mb: 64,
                threads: 1,
                certificates: false,
                root_only,
                ..wdl::Options::default()
            };
            kiebitz::games::pawns::analysis::acyclic::solve(
                &root,
                &options,
                &AtomicBool::new(false),
            )
            .unwrap()
        };
        let (all, only) = (run(false), run(true));
        assert_eq!(all.value, Some(value), "{variant}");
        assert_eq!(only.value, Some(value), "{variant}");
        assert!(
            only.nodes < all.nodes,
            "{variant}: {} against {}",
            only.nodes,
            all.nodes
        );
        assert!(all.first_moves_at_most.iter().all(Option::is_none));
        // Each first move is exact (and as the full run says) or shown no better than the root.
        for ((mv, v), hi) in only.first_moves.iter().zip(&only.first_moves_at_most) {
            let full = all.first_moves.iter().find(|(m, _)| m == mv).unwrap().1;
            match (v, hi) {
                (Some(v), None) => assert_eq!(Some(*v), full, "{variant} {mv}"),
                (None, Some(hi)) => assert!(*hi <= value && full.unwrap() <= *hi, "{variant} {mv}"),
                // Not searched: a first move before it wins.
                (None, None) => assert_eq!(value, 1, "{variant} {mv}"),
                _ => panic!("{variant} {mv}: both exact and bounded"),
            }
        }
    }
}

/// `solve --root-only` prints the root's value and, for the first moves searched only to show
/// they are no better, says so; df-pn refuses the flag.
#[test]
fn solve_root_only_says_which_moves_are_only_bounded() {
    let args = [
        "solve",
        "--variant",
        "pawngame6",
        "--root-only",
        "--hash",
        "64",
    ];
    let o = common::run_binary("kiebitz-pawns", &args);
    let out = common::stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("result    draw (for the side to move)"),
        "{out}"
    );
    assert!(out.contains(": no better than a draw"), "{out}");
    let o = common::run_binary(
        "kiebitz-pawns",
        &["solve", "--variant", "pawngame5", "--root-only"],
    );
    let out = common::stdout(&o);
    assert!(
        out.contains("result    win") && out.contains("not searched (a move before it wins)"),
        "{out}"
    );
    let o = common::run_binary(
        "kiebitz-pawns",
        &["solve", "--variant", "pawns4", "--dfpn", "--root-only"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--root-only is for the win/draw/loss solver")
    );
}

/// A fresh checkpoint path of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-wdl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("wdl.table")
}

/// A solve of `variant`'s start with a checkpoint at `path`, stopped after `stop_after` if given.
fn solve_with_checkpoint(
    variant: &str,
    path: &std::path::Path,
    stop_after: Option<std::time::Duration>,
) -> Result<wdl::Solution, kiebitz::solve::SolveError> {
    let root = Pawns::startpos(variant).unwrap();
    let options = wdl::Options {
        hash_mb: 64,
        threads: 1,
        certificates: false,
        time: stop_after,
        checkpoint: Some(wdl_checkpoint::Checkpoint {
            path: path.to_path_buf(),
            every: std::time::Duration::from_secs(3600),
        }),
        ..wdl::Options::default()
    };
    kiebitz::games::pawns::analysis::acyclic::solve(&root, &options, &AtomicBool::new(false))
}

#[test]
fn a_run_resumed_from_its_checkpoint_goes_on_where_it_was() {
    let path = scratch("resume");
    // Stopped at once: nothing known, but what it stored is kept.
    let stopped = solve_with_checkpoint("pawngame6ep", &path, Some(Default::default())).unwrap();
    assert!(path.exists());
    let whole = solve_with_checkpoint("pawngame6ep", &path, None).unwrap();
    assert_eq!(whole.value, Some(0));
    assert!(whole.nodes > 1000, "{} nodes", whole.nodes);
    assert_eq!(stopped.value, None);
    // The finished run's table answers the next run at its first moves.
    let again = solve_with_checkpoint("pawngame6ep", &path, None).unwrap();
    assert_eq!(again.value, Some(0));
    assert_eq!(again.first_moves, whole.first_moves);
    assert!(
        again.nodes <= again.first_moves.len() as u64,
        "{} nodes after resuming",
        again.nodes
    );
    assert!(
        again.notes.iter().any(|n| n.starts_with("resumed")),
        "{:?}",
        again.notes
    );
}

#[test]
fn a_checkpoint_of_another_position_or_damaged_is_refused_and_kept() {
    let path = scratch("refused");
    solve_with_checkpoint("pawngame5", &path, None).unwrap();
    let good = std::fs::read(&path).unwrap();
    let other = solve_with_checkpoint("pawngame5ep", &path, None)
        .unwrap_err()
        .to_string();
    assert!(other.contains("another position"), "{other}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        good,
        "the refused file is left as it was"
    );
    let mut damaged = good.clone();
    let last = damaged.len() - 9;
    damaged[last] ^= 0x40;
    std::fs::write(&path, &damaged).unwrap();
    let e = solve_with_checkpoint("pawngame5", &path, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("checksum"), "{e}");
    std::fs::write(&path, &good[..good.len() - 5]).unwrap();
    let e = solve_with_checkpoint("pawngame5", &path, None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("cut short"), "{e}");
    std::fs::write(&path, &good).unwrap();
    assert_eq!(
        solve_with_checkpoint("pawngame5", &path, None)
            .unwrap()
            .value,
        Some(1)
    );
}

/// Every position reachable from `pos` with its value for the side to move, by plain negamax
/// over the game's own moves (no solver code): keyed by the exact key.
fn game_values(pos: &Pawns, values: &mut HashMap<u128, (Pawns, i8)>) -> i8 {
    let key = pos.exact_key().unwrap();
    if let Some((_, v)) = values.get(&key) {
        return *v;
    }
    let mut moves = kiebitz::board::MoveList::new();
    pos.legal_moves(&mut moves);
    let v = if moves.is_empty() {
        match pos.terminal() {
            kiebitz::game::Terminal::Win => 1,
            kiebitz::game::Terminal::Loss => -1,
            kiebitz::game::Terminal::Draw => 0,
        }
    } else {
        let kids: Vec<Pawns> = moves.iter().map(|&m| pos.play(m)).collect();
        kids.iter().map(|k| -game_values(k, values)).max().unwrap()
    };
    values.insert(key, (pos.clone(), v));
    v
}

/// The certificates' lemmas (src/games/pawns/lemma.rs) give the exact value wherever they give
/// one: on every reachable position of every 4×4 rule set and of 5×5 plain, with the double
/// step and the pawn game with and without en passant, and they decide a good share.
#[test]
fn the_lemmas_give_the_exhaustive_values() {
    let boards = RULES.iter().map(|r| variant(4, r));
    let boards = boards.chain(["pawns5", "pawns5d", "pawngame5", "pawngame5ep"].map(String::from));
    for v in boards {
        let mut values = HashMap::new();
        game_values(&Pawns::startpos(&v).unwrap(), &mut values);
        let mut decided = 0;
        for (pos, exact) in values.values() {
            if let Some(l) = pos.lemma_value() {
                assert_eq!(l, *exact, "{v} {}", pos.fen());
                decided += 1;
            }
        }
        eprintln!("{v}: {decided} of {} decided by a lemma", values.len());
        assert!(
            decided * 4 > values.len(),
            "{v}: {decided} of {}",
            values.len()
        );
    }
}

/// The lemmas on bigger boards: along seeded random games of every 6×6 and 7×7 rule set, each
/// position a lemma decides is solved by the analyser's solver and must agree.
#[test]
fn the_lemmas_agree_with_the_analyser_on_random_6x6_and_7x7_positions() {
    let mut rng = kiebitz::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut moves = kiebitz::board::MoveList::new();
    let mut checked = [0; 3];
    for n in [6, 7] {
        for rules in RULES {
            let start = Pawns::startpos(&variant(n, rules)).unwrap();
            let mut old = Solver::<Wide>::new(Shape::of(&start), 1 << 20, Budget::default());
            for _ in 0..400 {
                let mut pos = start.clone();
                loop {
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves[rng.below(moves.len())]);
                    if let Some(l) = pos.lemma_value() {
                        let exact = old.value(&Pos::of(&pos)).unwrap();
                        assert_eq!(l, exact, "{} {}", variant(n, rules), pos.fen());
                        checked[(l + 1) as usize] += 1;
                    }
                }
            }
        }
    }
    // Random games rarely stop where no pawn has a free file: draws are few.
    eprintln!("lemma values checked (loss, draw, win): {checked:?}");
    assert!(checked[0] > 1000 && checked[2] > 1000, "{checked:?}");
}

fn solve_with_lemmas(v: &str, lemmas: bool) -> wdl::Solution {
    let options = wdl::Options {
        hash_mb: 64,
        threads: 2,
        lemmas,
        ..wdl::Options::default()
    };
    let root = Pawns::startpos(v).unwrap();
    kiebitz::games::pawns::analysis::acyclic::solve(&root, &options, &AtomicBool::new(false))
        .unwrap()
}

/// Certificates whose lines end at the lemmas: accepted as collected and as read back from
/// their text, smaller than those walked to the games' ends, and refused when read without the
/// lemmas (their lines end early), with a wrong move where that breaks them (some must), and
/// where a lemma says the other side wins.
#[test]
fn certificates_ending_at_lemmas_check_and_wrong_ones_are_refused() {
    for v in ["pawngame5", "pawngame5ep", "pawns5d", "pawngame6ep"] {
        let full = solve_with_lemmas(v, false);
        let s = solve_with_lemmas(v, true);
        assert_eq!(s.certificates.len(), full.certificates.len(), "{v}");
        for ((good, checked), (_, whole)) in s.certificates.iter().zip(&full.certificates) {
            assert!(good.lemmas);
            assert_eq!(compact::check::<Pawns>(good).as_ref(), Ok(checked), "{v}");
            assert_eq!(Compact::parse(&good.to_text()).as_ref(), Ok(good), "{v}");
            assert!(
                checked.positions < whole.positions,
                "{v}: {checked:?} {whole:?}"
            );
            let without = Compact {
                lemmas: false,
                ..good.clone()
            };
            assert!(compact::check::<Pawns>(&without).is_err(), "{v}");
            assert!(good.unfold::<Pawns>().is_err(), "{v}: no text-format form");
            assert!(
                refused_with_a_changed_move(good) > 0,
                "{v}: no wrong move refused"
            );
        }
    }
    // White to move wins the race (c4 arrives first): no hold of Black's.
    let lost = Compact {
        variant: "pawngame6".into(),
        root: "6/6/2P2p/6/6/6 w - - 0 1".into(),
        winner: kiebitz::board::Color::Black,
        hold: true,
        moves: String::new(),
        count: 0,
        lemmas: true,
    };
    // The error is typed: the position where the certificate fails, and why.
    match compact::check::<Pawns>(&lost).unwrap_err() {
        kiebitz::solve::proof::ProofError::At { fen, reason } => {
            assert_eq!(reason, "won by the other side by the game's lemma", "{fen}");
        }
        e => panic!("{e}"),
    }
}

/// How many of the certificate's first eight moves, each changed into another legal move of
/// its position, make the certificate fail.
fn refused_with_a_changed_move(good: &Compact) -> usize {
    let words: Vec<&str> = good.moves.split(' ').collect();
    let root = Pawns::from_fen(&good.variant, &good.root).unwrap();
    let mut at = Vec::new();
    let mut next = words.iter();
    let how = (good.winner, good.hold, true);
    compact::walk(&root, how, |pos, _| {
        at.push(pos.clone());
        Ok(pos.parse_move(next.next().unwrap()).unwrap())
    })
    .unwrap();
    let mut refused = 0;
    let mut moves = kiebitz::board::MoveList::new();
    for (i, pos) in at.iter().enumerate().take(8) {
        pos.legal_moves(&mut moves);
        for m in moves.iter().map(|m| pos.move_text(*m)) {
            let mut changed = words.clone();
            changed[i] = &m;
            let bad = Compact {
                moves: changed.join(" "),
                ..good.clone()
            };
            if m != words[i] && compact::check::<Pawns>(&bad).is_err() {
                refused += 1;
            }
        }
    }
    refused
}

/// A budget that ends the search stops that solve only: the caller's stop flag (Ctrl-C, or the
/// next unit's) stays down, and the same flag serves the next solve, which finishes.
#[test]
fn a_solves_budget_does_not_raise_the_callers_stop() {
    let stop = AtomicBool::new(false);
    let big = Pawns::startpos(&variant(6, "ep")).unwrap();
    let options = wdl::Options {
        hash_mb: 16,
        time: Some(std::time::Duration::from_millis(1)),
        certificates: false,
        ..wdl::Options::default()
    };
    let cut = kiebitz::games::pawns::analysis::acyclic::solve(&big, &options, &stop).unwrap();
    assert_eq!(cut.value, None, "6×6 is not solved in a millisecond");
    assert!(!stop.load(std::sync::atomic::Ordering::Relaxed));
    let small = Pawns::startpos(&variant(4, "ep")).unwrap();
    let whole = wdl::Options {
        time: None,
        ..options
    };
    let solved = kiebitz::games::pawns::analysis::acyclic::solve(&small, &whole, &stop).unwrap();
    assert!(solved.value.is_some());
}

/// A random position of `variant` (`width`×`height`) that a FEN may give but a game need not
/// reach: one to three pawns a side on any rank short of its goal (behind the start rank
/// too), either side to move, and half the time one random move played on, which opens
/// en-passant captures. `None` where the FEN is refused or the game is over.
fn random_fen_position(
    rng: &mut kiebitz::rng::Rng,
    variant: &str,
    width: u8,
    height: u8,
) -> Option<Pawns> {
    let (w, h) = (usize::from(width), usize::from(height));
    let mut board = vec![vec!['.'; w]; h];
    for (piece, ranks) in [('P', 0..h - 1), ('p', 1..h)] {
        for _ in 0..1 + rng.below(3) {
            let rank = ranks.start + rng.below(ranks.len());
            board[rank][rng.below(w)] = piece;
        }
    }
    let rows: Vec<String> = board
        .iter()
        .rev()
        .map(|row| {
            let mut text = String::new();
            let mut gap = 0;
            for &c in row {
                if c == '.' {
                    gap += 1;
                    continue;
                }
                if gap > 0 {
                    text += &gap.to_string();
                    gap = 0;
                }
                text.push(c);
            }
            if gap > 0 {
                text += &gap.to_string();
            }
            text
        })
        .collect();
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let fen = format!("{} {side} - - 0 1", rows.join("/"));
    let mut pos = Pawns::from_fen(variant, &fen).ok()?;
    let mut moves = kiebitz::board::MoveList::new();
    if rng.below(2) == 0 {
        pos.legal_moves(&mut moves);
        if !moves.is_empty() {
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    pos.legal_moves(&mut moves);
    (!moves.is_empty()).then_some(pos)
}

/// The lemmas, the solvers' static rules and both solvers against plain negamax over the
/// game's own moves, on random positions no game need reach (pawns behind their start rank,
/// en-passant squares, blocked files) of every rule set on boards 3 and 4 wide, 4 to 7 high.
/// Before the fix the pawn game's settled lemma and the solvers' counts missed the double
/// step of a pawn behind its start rank: `p2/3/3/3/P1P/3/3 w` (pawngame7) was a White win
/// for both, and a draw.
#[test]
fn lemmas_static_rules_and_solvers_agree_with_negamax_on_random_fen_positions() {
    let mut rng = kiebitz::rng::Rng::new(0x5eed_1e44a);
    let mut checked = [0usize; 4];
    let found = Pawns::from_fen("pawngame7", "p2/3/3/3/P1P/3/3 w - - 0 1").unwrap();
    check_one_position("pawngame7", &found, &mut checked);
    for rules in RULES {
        for width in [3u8, 4] {
            for height in 4u8..=7 {
                // The variant gives the rules, the FEN the board.
                let v = variant(7, rules);
                for _ in 0..100 {
                    let Some(pos) = random_fen_position(&mut rng, &v, width, height) else {
                        continue;
                    };
                    check_one_position(&v, &pos, &mut checked);
                }
            }
        }
    }
    eprintln!("positions, lemma values, static values, solved: {checked:?}");
    assert!(
        checked[0] > 2000 && checked[1] > 300 && checked[2] > 300,
        "{checked:?}"
    );
}

/// Checks `pos` of `v` as [`lemmas_static_rules_and_solvers_agree_with_negamax_on_random_fen_positions`]
/// says; counts into `checked` (positions, lemma values, static values, solver values).
fn check_one_position(v: &str, pos: &Pawns, checked: &mut [usize; 4]) {
    let exact = game_values(pos, &mut HashMap::new());
    let fen = pos.fen();
    checked[0] += 1;
    if let Some(l) = pos.lemma_value() {
        assert_eq!(l, exact, "{v} {fen}: lemma");
        checked[1] += 1;
    }
    let shape = Shape::of(pos);
    let p = Pos::of(pos);
    if shape.race_won(&p) {
        assert_eq!(exact, 1, "{v} {fen}: the solver's race rule");
        checked[2] += 1;
    }
    if let Some(s) = shape.settled(&p) {
        assert_eq!(s, exact, "{v} {fen}: the solver's settled rule");
        checked[2] += 1;
    }
    let mut old = Solver::<Wide>::new(shape, 1 << 12, Budget::default());
    assert_eq!(
        old.value(&p).unwrap(),
        exact,
        "{v} {fen}: the analyser's solver"
    );
    let game = PawnSolver::new(shape);
    let (tt, stop) = (Table::new(1), AtomicBool::new(false));
    let mut s = Searcher::new(&game, &tt, &stop);
    assert_eq!(
        s.value(&p),
        Some(exact),
        "{v} {fen}: the win/draw/loss solver"
    );
    checked[3] += 1;
}

/// A certificate that ends at once in a lemma the lemma cannot justify is refused: the false
/// win found by the abuse campaign (the pawn game's settled lemma missed the double step of a
/// pawn behind its start rank) is a draw: no lemma decides it now, so the certificate's line
/// must go on, and it has no move.
#[test]
fn a_false_win_by_a_lemma_is_refused() {
    let false_win = Compact {
        variant: "pawngame7".into(),
        root: "p2/3/3/3/P1P/3/3 w - - 0 1".into(),
        winner: kiebitz::board::Color::White,
        hold: false,
        moves: String::new(),
        count: 0,
        lemmas: true,
    };
    let e = compact::check::<Pawns>(&false_win).unwrap_err();
    eprintln!("refused: {e}");
    assert_eq!(
        Pawns::from_fen("pawngame7", &false_win.root)
            .unwrap()
            .lemma_value(),
        None
    );
}
