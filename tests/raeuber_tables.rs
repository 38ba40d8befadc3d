//! Räuberschach's endgame tables as df-pn's proof leaves (`solve --tables N`): on endings of
//! four and five pieces, whose captures lead into the three-piece tables, df-pn with the
//! tables decides at least what it decides without them, never the opposite, in fewer
//! positions, and its proofs still pass the checker (the extraction walks the tables' shortest
//! wins down to the game's end). The tables are installed for the whole process, so this file
//! holds one test: first without them, then with three pieces, then with four (each
//! four-piece signature built the first time df-pn meets it); and one study, run alone, with
//! five pieces against four.

use kiebitz::board::MoveList;
use kiebitz::game::{EndgameTables, Game, TableBuilds};
use kiebitz::games::raeuber::Raeuber;
use kiebitz::rng::Rng;
use kiebitz::solve::pns::{self, Budget, Solution, Verdict};
use kiebitz::solve::proof;

/// A random position of `pieces` (FEN letters) on distinct squares, pawns off their
/// promotion ranks, with a move for the side to move; `None` if the draw fails.
fn random_position(rng: &mut Rng, pieces: &[char]) -> Option<Raeuber> {
    let mut board = [None; 36];
    for &p in pieces {
        let t = rng.below(36);
        let rank = t / 6; // 0 is rank 1
        if board[t].is_some() || (p == 'P' && rank == 5) || (p == 'p' && rank == 0) {
            return None;
        }
        board[t] = Some(p);
    }
    let rows: Vec<String> = (0..6)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..6 {
                match board[rank * 6 + file] {
                    Some(p) => {
                        if empty > 0 {
                            row += &empty.to_string();
                            empty = 0;
                        }
                        row.push(p);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            row
        })
        .collect();
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let fen = format!("{} {side} - - 0 1", rows.join("/"));
    let pos = Raeuber::from_fen("raeuberschach", &fen).ok()?;
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    (!moves.is_empty()).then_some(pos)
}

fn solve(pos: &Raeuber) -> Solution {
    let budget = Budget {
        time: None,
        nodes: Some(100_000),
    };
    let weak = pns::Options::weak();
    pns::try_solve_with(pos, &[], budget, 16, None, None, weak).unwrap()
}

/// The 40 endings of four and five pieces (seeded), ten of each material.
fn endings() -> Vec<Raeuber> {
    let mut rng = Rng::new(29);
    let materials: [&[char]; 4] = [
        &['Q', 'R', 'r', 'b'],
        &['N', 'B', 'k', 'p'],
        &['R', 'P', 'q', 'n'],
        &['K', 'B', 'N', 'r', 'p'],
    ];
    let mut positions = Vec::new();
    while positions.len() < 40 {
        let material = materials[positions.len() % materials.len()];
        if let Some(pos) = random_position(&mut rng, material) {
            positions.push(pos);
        }
    }
    positions
}

/// How many of `solutions` are decided, and the positions they expanded.
fn tally(solutions: &[Solution]) -> (usize, u64) {
    let decided = solutions.iter().filter(|s| s.verdict != Verdict::Unknown);
    (decided.count(), solutions.iter().map(|s| s.nodes).sum())
}

/// Every decided solution of `more` (with more tables) says what `less` says where `less`
/// is decided, and its proof passes the checker.
fn assert_agree(positions: &[Raeuber], less: &[Solution], more: &[Solution]) {
    for ((pos, less), more) in positions.iter().zip(less).zip(more) {
        let fen = pos.fen();
        if less.verdict != Verdict::Unknown {
            assert_eq!(more.verdict, less.verdict, "{fen}: with more tables");
        }
        match more.verdict {
            Verdict::Unknown => {}
            Verdict::Draw => {
                assert_eq!(more.holds.len(), 2, "{fen}: a draw by two holds");
                for (hold, _) in &more.holds {
                    proof::check::<Raeuber>(hold).unwrap_or_else(|e| panic!("{fen}: {e}"));
                }
            }
            Verdict::Win | Verdict::Loss => {
                let p = more.proof.as_ref().expect("a proof");
                proof::check::<Raeuber>(p).unwrap_or_else(|e| panic!("{fen}: {e}"));
            }
        }
    }
}

#[test]
fn df_pn_takes_the_tables_as_leaves_and_proves_to_the_game_end() {
    let positions = endings();
    let before: Vec<Solution> = positions.iter().map(solve).collect();
    let built = Raeuber::use_tables(4, TableBuilds::Wait).expect("the tables");
    assert!(
        built.starts_with("endgame tables of up to 3 pieces") && built.contains("4 pieces built"),
        "{built}"
    );
    // First the three-piece tables alone, then the four-piece ones too (built as met).
    assert_eq!(
        Raeuber::use_tables(3, TableBuilds::Wait),
        Ok("endgame tables of up to 3 pieces".into())
    );
    let three: Vec<Solution> = positions.iter().map(solve).collect();
    assert_eq!(
        Raeuber::use_tables(4, TableBuilds::Wait),
        Ok("endgame tables of up to 4 pieces; those of 4 pieces built signature by signature as met".into())
    );
    let four: Vec<Solution> = positions.iter().map(solve).collect();
    assert_agree(&positions, &before, &three);
    assert_agree(&positions, &three, &four);
    let ((db, nb), (d3, n3), (d4, n4)) = (tally(&before), tally(&three), tally(&four));
    eprintln!("decided {db} -> {d3} -> {d4} of 40, nodes {nb} -> {n3} -> {n4}");
    assert!(d3 >= db && d3 > 20, "decided {db} -> {d3}");
    assert!(d4 >= d3, "decided {d3} -> {d4}");
    assert!(n3 < nb && n4 < n3, "nodes {nb} -> {n3} -> {n4}");
}

/// The same endings with the tables of four pieces and then five (each five-piece signature
/// built the first time df-pn meets it: about a minute each): what five pieces add. A study, alone
/// in its process: `cargo test --release --test raeuber_tables five -- --ignored --nocapture`.
#[test]
#[ignore = "a study: builds five-piece signatures (about a minute each)"]
fn five_piece_tables_on_the_same_endings() {
    let positions = endings();
    Raeuber::use_tables(4, TableBuilds::Wait).expect("the tables");
    let four: Vec<Solution> = positions.iter().map(solve).collect();
    let started = std::time::Instant::now();
    assert_eq!(
        Raeuber::use_tables(5, TableBuilds::Wait),
        Ok(
            "endgame tables of up to 5 pieces; those of 4 and 5 pieces built signature by \
            signature as met (a five-piece one in about a minute)"
                .into()
        )
    );
    let five: Vec<Solution> = positions.iter().map(solve).collect();
    assert_agree(&positions, &four, &five);
    let ((d4, n4), (d5, n5)) = (tally(&four), tally(&five));
    eprintln!(
        "decided {d4} -> {d5} of 40, nodes {n4} -> {n5} (five pieces: {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    assert!(
        d5 >= d4 && n5 <= n4,
        "decided {d4} -> {d5}, nodes {n4} -> {n5}"
    );
}
