//! Exactness of the pruning: on random Chamäleon positions (2–4 players, after the area
//! shrank) and depths, MaxN-IS returns the same root vector and move as plain MaxN, and
//! Paranoid and BRS with alpha-beta the same value and move as without pruning. The nodes
//! saved are printed (`cargo test --release --lib nsearch -- --nocapture`).

use super::*;
use crate::games::chamaeleon::Chamaeleon;
use crate::rng::Rng;

/// Positions reached by random play: `count` of them, `plies` random moves from the start.
pub(crate) fn random_positions(seed: u64, count: usize) -> Vec<Chamaeleon> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let players = 2 + rng.below(3);
        let mut pos = Chamaeleon::startpos(players).unwrap();
        let plies = 4 + rng.below(40);
        let mut moves = MoveList::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if pos.outcome().is_none() {
            out.push(pos);
        }
    }
    out
}

fn searcher(algorithm: Algorithm, prune: bool) -> Searcher<Chamaeleon> {
    Searcher::new(
        Options {
            algorithm,
            tt: false,
            prune,
        },
        1,
    )
}

/// Runs `algorithm` with and without pruning on random positions; returns the nodes of both.
fn compare(algorithm: Algorithm, reference: Algorithm, seed: u64, n: usize) -> (u64, u64) {
    let (mut full, mut pruned) = (0, 0);
    for (i, pos) in random_positions(seed, n).iter().enumerate() {
        let depth = 1 + (i % 4) as u32;
        let a = searcher(reference, false).search_depth(pos, depth);
        let b = searcher(algorithm, true).search_depth(pos, depth);
        let me = pos.to_move();
        match algorithm {
            Algorithm::MaxNIs => assert_eq!(a.values, b.values, "{} depth {depth}", pos.text()),
            _ => assert_eq!(a.values[me], b.values[me], "{} depth {depth}", pos.text()),
        }
        assert_eq!(a.best, b.best, "{} depth {depth}", pos.text());
        full += a.nodes;
        pruned += b.nodes;
    }
    println!(
        "{}: {pruned} nodes with pruning, {full} without ({:.1} % saved)",
        algorithm.name(),
        100.0 * (1.0 - pruned as f64 / full as f64)
    );
    (full, pruned)
}

#[test]
fn maxn_is_equals_maxn() {
    let (full, pruned) = compare(Algorithm::MaxNIs, Algorithm::MaxN, 1, 40);
    assert!(pruned < full, "shallow pruning saved nothing");
}

#[test]
fn paranoid_alpha_beta_equals_paranoid_minimax() {
    let (full, pruned) = compare(Algorithm::Paranoid, Algorithm::Paranoid, 2, 40);
    assert!(pruned < full);
}

#[test]
fn brs_alpha_beta_equals_brs_minimax() {
    let (full, pruned) = compare(Algorithm::Brs, Algorithm::Brs, 3, 15);
    assert!(pruned < full);
}

#[test]
fn hypermax_without_pruning_is_maxn() {
    // Hypermax unpruned is MaxN on a transformed (order-preserving) vector: same move.
    for (i, pos) in random_positions(4, 20).iter().enumerate() {
        let depth = 1 + (i % 3) as u32;
        let a = searcher(Algorithm::MaxN, false).search_depth(pos, depth);
        let b = searcher(Algorithm::Hypermax, false).search_depth(pos, depth);
        assert_eq!(a.best, b.best, "{}", pos.text());
        assert_eq!(a.nodes, b.nodes);
    }
}

#[test]
fn every_algorithm_finds_a_legal_move_in_time() {
    let pos = Chamaeleon::startpos(4).unwrap();
    for algorithm in Algorithm::ALL {
        let mut s = Searcher::<Chamaeleon>::new(
            Options {
                algorithm,
                ..Options::default()
            },
            4,
        );
        let r = s.search(
            &pos,
            Limits {
                time: Some(Duration::from_millis(50)),
                ..Limits::default()
            },
            |_| {},
        );
        assert!(r.depth >= 1);
        assert!(pos.parse_move(&pos.move_text(r.best)).is_ok());
        assert_eq!(r.values.iter().sum::<i64>(), SCALE, "{:?}", r.values);
    }
}

#[test]
fn normalised_vectors_sum_to_scale() {
    for pos in random_positions(5, 30) {
        let v = normalise(pos.evaluate());
        assert_eq!(v.iter().sum::<i64>(), SCALE);
        assert!(v.iter().all(|&x| x >= 0));
        for (s, &x) in v.iter().enumerate().take(4) {
            assert_eq!(x == 0, !pos.in_game(s), "{}", pos.text());
        }
    }
}

#[test]
fn algorithm_names_parse() {
    for a in Algorithm::ALL {
        assert_eq!(Algorithm::parse(a.name()), Ok(a));
    }
    assert!(
        Algorithm::parse("minimax")
            .unwrap_err()
            .to_string()
            .contains("maxn-is")
    );
}

#[test]
#[ignore]
fn print_random_positions() {
    for p in random_positions(99, 12) {
        println!("{} | {}", p.text(), p.area().x1 - p.area().x0);
    }
}
