//! Proof-number search on Räuberschach positions with known values: small endgames whose
//! value a plain minimax (written here, independent of the solver) finds exhaustively, with and
//! without the move-count rule close, and the forced wins of tests/data/raeuber-*-wins.txt
//! (Fairy-Stockfish announced mate). The solver must never report a wrong value, must find what
//! the minimax finds, and each proof must pass the checker; tampered proofs must not.

use std::collections::HashMap;

use kiebitz::board::{Color, MoveList};
use kiebitz::game::Game;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::solve::pns::{self, Budget, Verdict};
use kiebitz::solve::proof::{self, Proof};

const VARIANT: &str = "raeuberschach";

/// Exhaustive minimax with memo: whether the side to move forces a win within `d` plies
/// (`want_win`), or cannot avoid losing within `d` plies (`!want_win`). The move-count rule
/// is applied (a position with the clock at 100 and a move is a draw); repetitions cannot
/// matter for the shortest wins this finds.
struct Oracle {
    memo: HashMap<(u64, u32, u32, bool), bool>,
}

impl Oracle {
    fn value(&mut self, pos: &Raeuber, d: u32, want_win: bool) -> bool {
        let key = (pos.hash(), pos.halfmove(), d, want_win);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let v = if moves.is_empty() {
            want_win // no move: the side to move wins
        } else if pos.halfmove() >= 100 || d == 0 {
            false
        } else if want_win {
            moves
                .iter()
                .any(|&mv| self.value(&pos.play(mv), d - 1, false))
        } else {
            moves
                .iter()
                .all(|&mv| self.value(&pos.play(mv), d - 1, true))
        };
        self.memo.insert(key, v);
        v
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }
}

/// A random position with `pieces` pieces (each side at least one), the clock at `clock`.
fn random_position(rng: &mut Rng, pieces: usize, clock: u32) -> Raeuber {
    loop {
        let mut board = [[' '; 6]; 6];
        let mut colors = [false; 2];
        for _ in 0..pieces {
            let white = rng.next(2) == 0;
            let kind = b"pnbrqk"[rng.next(6) as usize] as char;
            let (file, rank) = (rng.next(6) as usize, rng.next(6) as usize);
            if board[rank][file] != ' ' || (kind == 'p' && (rank == 0 || rank == 5)) {
                continue;
            }
            board[rank][file] = if white {
                kind.to_ascii_uppercase()
            } else {
                kind
            };
            colors[usize::from(!white)] = true;
        }
        if !(colors[0] && colors[1]) {
            continue;
        }
        let rows: Vec<String> = (0..6)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for &c in &board[r] {
                    if c == ' ' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        let side = if rng.next(2) == 0 { 'w' } else { 'b' };
        let fen = format!("{} {side} - - {clock} 1", rows.join("/"));
        if let Ok(pos) = Raeuber::from_fen(VARIANT, &fen) {
            return pos;
        }
    }
}

fn budget(nodes: u64) -> Budget {
    Budget {
        time: None,
        nodes: Some(nodes),
    }
}

/// Every verdict agrees with the exhaustive minimax on small endgames, every position the
/// minimax decides within 9 plies is solved, and every proof checks.
#[test]
fn small_endgames_agree_with_exhaustive_minimax() {
    const DEPTH: u32 = 9;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut oracle = Oracle {
        memo: HashMap::new(),
    };
    let (mut wins, mut losses, mut open, mut clocked) = (0, 0, 0, 0);
    for i in 0..400 {
        // Every third position starts close to the move-count rule.
        let clock = if i % 3 == 2 {
            92 + rng.next(8) as u32
        } else {
            0
        };
        let pos = random_position(&mut rng, 2 + (i % 3), clock);
        let win = oracle.value(&pos, DEPTH, true);
        let loss = oracle.value(&pos, DEPTH, false);
        assert!(!(win && loss), "oracle contradicts itself on {}", pos.fen());
        let solution = pns::solve(&pos, &[], budget(400_000), 4);
        let fen = pos.fen();
        match solution.verdict {
            Verdict::Win => assert!(!loss, "{fen}: solver says win, minimax a loss"),
            Verdict::Loss => assert!(!win, "{fen}: solver says loss, minimax a win"),
            Verdict::Draw => assert!(!win && !loss, "{fen}: solver says draw, minimax not"),
            Verdict::Unknown => {}
        }
        // A hold never meets a forced win of the side it holds against.
        for (hold, _) in &solution.holds {
            let holder_to_move = hold.winner == pos.side_to_move();
            assert!(
                !(holder_to_move && loss || !holder_to_move && win),
                "{fen}: {hold:?}"
            );
        }
        // The progress report agrees with the verdict: a proven attempt has proof number 0,
        // an unproven one not, unless its root was proven and the proof not collected from
        // the table (4 MiB here); the win for the side to move is tried first.
        let us = pos.side_to_move();
        let proven: Vec<bool> = solution
            .attempts
            .iter()
            .map(|a| a.phi == 0 && !a.unextracted)
            .collect();
        for a in &solution.attempts {
            assert!(!a.unextracted || a.phi == 0, "{fen}: {a:?}");
        }
        assert_eq!(solution.attempts[0].attacker, us, "{fen}");
        match solution.verdict {
            Verdict::Win => assert_eq!(proven, [true], "{fen}"),
            Verdict::Loss => assert_eq!(proven, [false, true], "{fen}"),
            Verdict::Unknown | Verdict::Draw => assert_eq!(proven, [false, false], "{fen}"),
        }
        if win {
            assert_eq!(
                solution.verdict,
                Verdict::Win,
                "{fen}: a win in {DEPTH} plies missed"
            );
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if let Some(mv) = solution.best {
                // The move is legal and does not leave the opponent without a move (a win).
                assert!(moves.contains(&mv), "{fen}: {mv} is not legal");
                let mut replies = MoveList::new();
                pos.play(mv).legal_moves(&mut replies);
                assert!(
                    !replies.is_empty(),
                    "{fen}: {mv} leaves the opponent without a move"
                );
            } else {
                assert!(moves.is_empty(), "{fen}: a win without a move");
            }
            wins += 1;
        } else if loss {
            assert_eq!(
                solution.verdict,
                Verdict::Loss,
                "{fen}: a loss in {DEPTH} plies missed"
            );
            losses += 1;
        } else {
            open += 1;
        }
        if clock > 0 && (win || loss) {
            clocked += 1;
        }
        if let Some(p) = &solution.proof {
            let checked = proof::check::<Raeuber>(p).expect("the solver's proof checks");
            let text = Proof::parse(&p.to_text()).expect("the proof's text parses");
            assert_eq!(&text, p);
            // The compact format unfolds to the same choices and the same check.
            let compact = p.to_compact::<Raeuber>().expect("the proof has every move");
            let unfolded = Proof::parse_any::<Raeuber>(&compact).expect("it unfolds");
            assert_eq!(proof::check::<Raeuber>(&unfolded).unwrap(), checked);
            let choices = |q: &Proof| -> HashMap<String, String> {
                q.nodes
                    .iter()
                    .map(|(fen, mv)| (proof::identity(fen), mv.clone()))
                    .collect()
            };
            let all = choices(p);
            assert!(
                choices(&unfolded)
                    .iter()
                    .all(|(k, v)| all.get(k) == Some(v))
            );
            assert_eq!(
                p.winner == pos.side_to_move(),
                solution.verdict == Verdict::Win
            );
            // A proof of a game not yet over has at least one ply.
            if win || loss {
                assert!(checked.plies >= 1 || solution.best.is_none());
            }
        }
    }
    eprintln!("wins {wins}, losses {losses}, open {open}, decided near the clock limit {clocked}");
    // The sample must exercise all outcomes, the clock rule included.
    assert!(
        wins >= 40 && losses >= 40 && open >= 10 && clocked >= 10,
        "wins {wins}, losses {losses}, open {open}, decided near the clock limit {clocked}"
    );
}

/// Positions of the forced-win suites, after their moves.
fn suite(name: &str) -> Vec<(Raeuber, Vec<u64>)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .expect("suite file")
        .lines()
        .map(|line| {
            let mut fields = line.split(';');
            let fen = fields.next().expect("FEN");
            let mut pos = Raeuber::from_fen(VARIANT, fen).expect("suite FEN");
            let mut history = Vec::new();
            for text in fields.next().expect("moves").split_whitespace() {
                let mv = pos.parse_move(text).expect("suite move");
                history.push(pos.hash());
                pos = pos.play(mv);
            }
            (pos, history)
        })
        .collect()
}

/// The suites' positions are forced wins for the side to move (Fairy-Stockfish announced mate
/// in 7–22): the solver proves each one within a node budget and never claims a loss; the
/// proofs check.
#[test]
fn forced_win_suites_are_proven() {
    for name in ["raeuber-early-wins.txt", "raeuber-late-wins.txt"] {
        let positions = suite(name);
        for (i, (pos, history)) in positions.iter().enumerate() {
            let solution = pns::solve(pos, history, budget(300_000), 16);
            let fen = pos.fen();
            assert_eq!(
                solution.verdict,
                Verdict::Win,
                "{name}:{}: {fen} not proven",
                i + 1
            );
            let p = solution.proof.expect("a proof");
            proof::check::<Raeuber>(&p).expect("the proof checks");
            assert_eq!(p.winner, pos.side_to_move());
        }
    }
}

/// A proof with a position left out, a wrong winner or a wrong move is rejected.
#[test]
fn tampered_proofs_are_rejected() {
    let (pos, history) = suite("raeuber-early-wins.txt").remove(10);
    let solution = pns::solve(&pos, &history, budget(300_000), 16);
    let good = solution.proof.expect("suite position 11 is proven");
    assert!(proof::check::<Raeuber>(&good).is_ok());

    // Removing the root's move, or any node on the loser's first replies, is fatal.
    let mut no_root = good.clone();
    no_root.nodes.retain(|(fen, _)| fen != &good.root);
    assert!(proof::check::<Raeuber>(&no_root).is_err());

    let mut wrong_winner = good.clone();
    wrong_winner.winner = match good.winner {
        Color::White => Color::Black,
        Color::Black => Color::White,
    };
    assert!(proof::check::<Raeuber>(&wrong_winner).is_err());

    // Every other root move is not covered by the proof (or loses).
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let best = solution.best.expect("a winning move");
    for &mv in moves.iter().filter(|&&mv| mv != best) {
        let mut other = good.clone();
        for node in other.nodes.iter_mut().filter(|(fen, _)| fen == &good.root) {
            node.1 = mv.to_string();
        }
        if let Ok(c) = proof::check::<Raeuber>(&other) {
            // Possible only if the other move transposes into the proof: then it also wins.
            let s = pns::solve(&pos.play(mv), &[], budget(300_000), 16);
            assert_eq!(
                s.verdict,
                Verdict::Loss,
                "{mv} accepted ({c:?}) but does not win"
            );
        }
    }

    // Clocks: the same proof from a root whose clock is near the limit must not hold when a
    // line has enough quiet plies.
    let mut late = good.clone();
    let mut fields: Vec<&str> = good.root.split_whitespace().collect();
    fields[4] = "99";
    late.root = fields.join(" ");
    if proof::check::<Raeuber>(&late).is_ok() {
        // Then every line resets the clock at once; the solver agrees there is a win.
        let p = Raeuber::from_fen(VARIANT, &late.root).unwrap();
        assert_eq!(
            pns::solve(&p, &[], budget(300_000), 16).verdict,
            Verdict::Win
        );
    }

    // The compact format: a move changed, one missing or one too many is rejected.
    let compact = good.to_compact::<Raeuber>().unwrap();
    assert!(proof::check::<Raeuber>(&Proof::parse_any::<Raeuber>(&compact).unwrap()).is_ok());
    let mut words: Vec<String> = compact.lines().map(str::to_string).collect();
    let last = words.len() - 1;
    let cut = words[last].rsplit_once(' ').map(|(a, _)| a.to_string());
    let mut short = words.clone();
    match cut {
        Some(rest) if rest != "moves" => short[last] = rest,
        _ => {
            short.pop();
        }
    }
    let err = Proof::parse_any::<Raeuber>(&short.join("\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("end before"), "{err}");
    let err = Proof::parse_any::<Raeuber>(&format!("{compact}moves a1a1\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("left over"), "{err}");
    // The root's move replaced by every other legal move: it unfolds differently and then
    // fails, or it is a win too.
    let root_move = pos.move_text(best);
    let first = words.iter().position(|l| l.starts_with("moves")).unwrap();
    for &mv in moves.iter().filter(|&&mv| mv != best) {
        let line = words[first].replacen(&root_move, &pos.move_text(mv), 1);
        let mut other = words.clone();
        other[first] = line;
        let verdict = Proof::parse_any::<Raeuber>(&other.join("\n"))
            .map_err(|e| e.to_string())
            .and_then(|q| proof::check::<Raeuber>(&q).map_err(|e| e.to_string()));
        if verdict.is_ok() {
            let s = pns::solve(&pos.play(mv), &[], budget(300_000), 16);
            assert_eq!(s.verdict, Verdict::Loss, "{mv} accepted but does not win");
        }
    }
    words[first] = words[first].replacen("moves ", "moves zz9 ", 1);
    assert!(Proof::parse_any::<Raeuber>(&words.join("\n")).is_err());

    assert!(Proof::parse("kiebitz-proof 2\n").is_err());
    assert!(Proof::parse("kiebitz-proof 1\nvariant raeuberschach\nroot x\nwinner red\n").is_err());
}

/// After 1. c3 Black wins: df-pn with weak disproof numbers proves it within 2 M positions
/// (with summed disproof numbers the attempt ends with the root's numbers at 21 and infinite
/// after 0.3 M positions: transpositions counted once per line), and the proof found is the
/// one shipped in src/games/raeuber/data/proofs, which the checker accepts.
#[test]
fn after_1_c3_black_wins_by_weak_dfpn_and_the_kept_proof_holds() {
    let start = Raeuber::startpos(VARIANT).unwrap();
    let pos = start.play(start.parse_move("c2c3").unwrap());
    let s = pns::try_solve_with(
        &pos,
        &[start.hash()],
        budget(2_000_000),
        64,
        None,
        None,
        pns::Options::weak(),
    )
    .unwrap();
    assert_eq!(s.verdict, Verdict::Win, "{:?}", s.attempts);
    assert!(s.checked.is_some());
    proof::check::<Raeuber>(s.proof.as_ref().unwrap()).unwrap();

    let text = include_str!("../src/games/raeuber/data/proofs/raeuber-1c3-black-wins.proof");
    let kept = Proof::parse(text).unwrap();
    assert_eq!(kept.root, pos.fen());
    assert_eq!(kept.winner, Color::Black);
    let checked = proof::check::<Raeuber>(&kept).unwrap();
    assert_eq!((checked.positions, checked.plies), (16_316, 70));
}

/// The proofs shipped in src/games/raeuber/data/proofs for White's first moves that lose
/// (docs/solved.md):
/// each from the position after the move, Black the winner, accepted by the checker; all
/// but 1. c3's in the compact format.
#[test]
fn the_kept_first_move_proofs_hold() {
    let start = Raeuber::startpos(VARIANT).unwrap();
    let kept = [
        (
            "a2a3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1a3-black-wins.proof"),
        ),
        (
            "b2b3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1b3-black-wins.proof"),
        ),
        (
            "c2c3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1c3-black-wins.proof"),
        ),
        (
            "d2d3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1d3-black-wins.proof"),
        ),
        (
            "f2f3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1f3-black-wins.proof"),
        ),
        (
            "e1d3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1Nd3-black-wins.proof"),
        ),
        (
            "e1f3",
            include_str!("../src/games/raeuber/data/proofs/raeuber-1Nf3-black-wins.proof"),
        ),
    ];
    for (mv, text) in kept {
        let pos = start.play(start.parse_move(mv).unwrap());
        let p = Proof::parse_any::<Raeuber>(text).unwrap();
        assert_eq!(
            (p.root.as_str(), p.winner),
            (pos.fen().as_str(), Color::Black),
            "{mv}"
        );
        let checked = proof::check::<Raeuber>(&p).unwrap_or_else(|e| panic!("1. {mv}: {e}"));
        assert!(checked.positions > 100, "1. {mv}: {checked:?}");
    }
}

/// The budget ends every attempt, also in the proof's extraction: after 1. c3 f4 2. Qc2 the
/// weak solver proves Black's win, then cannot collect the proof (the table lost parts) and
/// walks the graph's transpositions again and again without expanding a node, so the node
/// budget alone never ended it (a `units work` hung for ten minutes on this position; the
/// engine's oracle, in 19 of 200 games at 10+0.1, lost on time the same way). The extraction
/// now counts its calls (8 per position its budget lets it expand) and watches the deadline
/// and the stop. A hang detector (120 s), not a timing: it ends in seconds.
#[test]
fn the_budget_ends_the_extraction_too() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut pos = Raeuber::startpos("raeuberschach").unwrap();
        let mut history = Vec::new();
        for mv in ["c2c3", "f5f4", "b1c2"] {
            history.push(pos.hash());
            pos = pos.play(pos.parse_move(mv).unwrap());
        }
        let s = pns::try_solve_with(
            &pos,
            &history,
            budget(2_000_000),
            512,
            None,
            None,
            pns::Options::weak(),
        )
        .expect("the table fits");
        let _ = tx.send(s.nodes);
    });
    let nodes = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the solver ends within its budget");
    assert!(nodes <= 2_000_000 + 2 * 100_000 + 2_000_000, "{nodes}");
}

/// King against king is a draw: each side's hold checks, in both formats; a hold with a
/// position of the holder's left out, with the other colour as holder, or claimed from a
/// position the other side wins, does not. Bishops apart (no capture can ever happen) end a
/// hold's line at once, also in the compact format.
#[test]
fn holds_are_checked_and_tampered_holds_are_rejected() {
    let pos = Raeuber::from_fen(VARIANT, "5k/6/6/6/6/K5 w - - 0 1").unwrap();
    let solution = pns::solve(&pos, &[], budget(2_000_000), 16);
    assert_eq!(solution.verdict, Verdict::Draw);
    for (hold, checked) in &solution.holds {
        assert!(hold.hold);
        let text = Proof::parse(&hold.to_text()).unwrap();
        assert_eq!(proof::check::<Raeuber>(&text).unwrap(), *checked);
        let compact = hold.to_compact::<Raeuber>().unwrap();
        let unfolded = Proof::parse_any::<Raeuber>(&compact).unwrap();
        assert!(compact.contains("holder"));
        assert_eq!(proof::check::<Raeuber>(&unfolded).unwrap(), *checked);

        let mut missing = hold.clone();
        missing.nodes.remove(missing.nodes.len() / 2);
        assert!(proof::check::<Raeuber>(&missing).is_err());
        let mut other = hold.clone();
        other.winner = other.winner.flip();
        assert!(proof::check::<Raeuber>(&other).is_err());
    }
    let (black, _) = &solution.holds[0];
    let mut lost = black.clone();
    lost.root = "5n/6/6/6/6/N5 w - - 0 1".to_string();
    assert!(proof::check::<Raeuber>(&lost).is_err(), "White wins there");

    let apart = Proof {
        variant: VARIANT.to_string(),
        root: "6/6/6/6/6/B4b w - - 0 1".to_string(),
        winner: Color::Black,
        hold: true,
        nodes: Vec::new(),
    };
    let checked = proof::check::<Raeuber>(&apart).unwrap();
    assert_eq!(checked.positions, 1);
    let compact = apart.to_compact::<Raeuber>().unwrap();
    assert_eq!(Proof::parse_any::<Raeuber>(&compact).unwrap(), apart);
}

/// Räuberschach 6×6 is a draw: both holds from the start check. Black's (the compact
/// format, 600,755 of Black's moves; `solve --weak --ghi-safe --tables 4 --nodes 20000000
/// --compact`): 993,024 positions, among them the seven first moves that lose and 1. e3 Nf4.
/// White's (joined by `join` from 50 parts along 1. e3 f4 2. exf4 exf4 3. f3 c4 4. b3 …;
/// scripts/studies/raeuber-start-draw.sh): 320,535 positions.
#[test]
fn the_start_position_is_a_draw() {
    let start = Raeuber::startpos(VARIANT).unwrap();
    let holds = [
        (
            include_str!("../src/games/raeuber/data/proofs/raeuber-start-black-holds.proof"),
            Color::Black,
            993_024,
        ),
        (
            include_str!("../src/games/raeuber/data/proofs/raeuber-start-white-holds.proof"),
            Color::White,
            320_535,
        ),
    ];
    assert_holds(&start, holds);
}

/// After 1. e3 Nf4 2. exf4 exf4 3. f3 each side holds, so the position is a draw: both
/// holds (compact; `solve --moves "e2e3 e6f4 e3f4 e5f4 f2f3" --weak --ghi-safe --tables 4
/// --nodes 600000000 --compact`, whose hold searches White's unknown replies in rounds of
/// growing caps) check from it, each for its side. White's eight other third moves lose
/// (docs/solved.md), so the position after 1…Nf4 is a draw too.
#[test]
fn after_1_e3_nf4_2_exf4_exf4_3_f3_each_side_holds() {
    let mut root = Raeuber::startpos(VARIANT).unwrap();
    for mv in ["e2e3", "e6f4", "e3f4", "e5f4", "f2f3"] {
        root = root.play(root.parse_move(mv).unwrap());
    }
    let holds = [
        (
            include_str!("data/proofs/raeuber-e3-nf4-f3-white-holds.proof"),
            Color::White,
            144_055,
        ),
        (
            include_str!("data/proofs/raeuber-e3-nf4-f3-black-holds.proof"),
            Color::Black,
            147_217,
        ),
    ];
    assert_holds(&root, holds);
}

/// Each hold (its text, the holder, its positions) is rooted at `root`, of `holder`, and
/// checks with that many positions.
fn assert_holds(root: &Raeuber, holds: [(&str, Color, usize); 2]) {
    for (text, holder, positions) in holds {
        let p = Proof::parse_any::<Raeuber>(text).unwrap();
        assert_eq!(
            (p.root.as_str(), p.winner, p.hold),
            (root.fen().as_str(), holder, true)
        );
        assert_eq!(proof::check::<Raeuber>(&p).unwrap().positions, positions);
    }
}

/// Fairy-Stockfish's provable errors in the 10+0.1 games against kiebitz (session 10's
/// match; `scripts/studies/raeuber-provable-errors.py PGN --nodes 1000000`): in round 72 it
/// played 4. Bxe2 and in round 199 4…Nxd4, each from a drawn position (both holds check
/// from it) into one its opponent wins (the proof checks).
#[test]
fn fairy_stockfishs_errors_turn_a_proven_draw_into_a_proven_loss() {
    let errors = [
        (
            "r1kbn1/p1pppr/6/2P2P/PP2qR/R1KBN1 w - - 0 4",
            "d1e2",
            [
                include_str!("data/proofs/raeuber-fsf-error-r72-draw-white-holds.proof"),
                include_str!("data/proofs/raeuber-fsf-error-r72-draw-black-holds.proof"),
                include_str!("data/proofs/raeuber-fsf-error-r72-after-lost.proof"),
            ],
        ),
        (
            "r3nr/qkpp1p/p2P2/6/P1P1PP/R1KB1R b - - 0 4",
            "e6d4",
            [
                include_str!("data/proofs/raeuber-fsf-error-r199-draw-white-holds.proof"),
                include_str!("data/proofs/raeuber-fsf-error-r199-draw-black-holds.proof"),
                include_str!("data/proofs/raeuber-fsf-error-r199-after-lost.proof"),
            ],
        ),
    ];
    for (fen, mv, [white, black, after]) in errors {
        let before = Raeuber::from_fen(VARIANT, fen).unwrap();
        let mover = before.side_to_move();
        let played = before.play(before.parse_move(mv).unwrap());
        let holds = [(white, Color::White), (black, Color::Black)];
        for (text, holder) in holds {
            let p = Proof::parse_any::<Raeuber>(text).unwrap();
            assert_eq!((p.root.as_str(), p.winner, p.hold), (fen, holder, true));
            proof::check::<Raeuber>(&p).unwrap();
        }
        let p = Proof::parse_any::<Raeuber>(after).unwrap();
        assert_eq!(
            (p.root.clone(), p.winner, p.hold),
            (played.fen(), mover.flip(), false)
        );
        proof::check::<Raeuber>(&p).unwrap();
    }
}
