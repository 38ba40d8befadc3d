//! Self-play for tuning the Räuberschach evaluation: two weight sets play each other with a
//! small fixed-depth alpha-beta (captures are forced, so a position with a capture is
//! searched on, never stood pat), from random openings played with both colours.
//!
//! `raeuber_selfplay GAMES DEPTH TERM=VALUE…` — the candidate is the engine's weights with
//! the given changes (`burden.4=40`, `offer.1=30`, `hanging=10`, `deep=0`, `tempo=0`,
//! `to_move=0`, `tempo_pieces=8`); prints the candidate's score and pair counts. `SEED=n` in
//! the environment picks another set of openings.

use kiebitz::board::{Color, MoveList};
use kiebitz::game::Game;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::games::raeuber::eval::{WEIGHTS, Weights, evaluate_with};

const MATE: i32 = 30000;

fn qsearch(pos: &Raeuber, mut alpha: i32, beta: i32, ply: i32, w: &Weights) -> i32 {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return MATE - ply;
    }
    if !pos.forcing() {
        return evaluate_with(pos, w);
    }
    for &mv in &moves {
        let score = -qsearch(&pos.play(mv), -beta, -alpha, ply + 1, w);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn search(pos: &Raeuber, depth: i32, mut alpha: i32, beta: i32, ply: i32, w: &Weights) -> i32 {
    if depth <= 0 {
        return qsearch(pos, alpha, beta, ply, w);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return MATE - ply;
    }
    // A single reply costs no depth.
    let depth = if moves.len() == 1 { depth + 1 } else { depth };
    let mut best = -MATE;
    for &mv in &moves {
        let score = -search(&pos.play(mv), depth - 1, -beta, -alpha, ply + 1, w);
        if score > best {
            best = score;
        }
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    best
}

fn best_move(pos: &Raeuber, depth: i32, w: &Weights, rng: &mut u64) -> kiebitz::board::Move {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut best = (-MATE - 1, moves[0]);
    for &mv in &moves {
        // A tiny random tie-break keeps games apart.
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let score = -search(&pos.play(mv), depth - 1, -MATE, MATE, 1, w) * 4 + (*rng % 3) as i32;
        if score > best.0 {
            best = (score, mv);
        }
    }
    best.1
}

/// The result for White: 1, 0 or -1.
fn play(start: &Raeuber, white: &Weights, black: &Weights, depth: i32, rng: &mut u64) -> i32 {
    let mut pos = start.clone();
    let mut seen = vec![pos.hash()];
    loop {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return if pos.side_to_move() == Color::White {
                1
            } else {
                -1
            };
        }
        if pos.reversible_plies() >= 100
            || seen.iter().filter(|&&h| h == pos.hash()).count() >= 3
            || pos.insufficient_material()
        {
            return 0;
        }
        let w = if pos.side_to_move() == Color::White {
            white
        } else {
            black
        };
        pos = pos.play(best_move(&pos, depth, w, rng));
        seen.push(pos.hash());
    }
}

fn parse(changes: &[String]) -> Result<Weights, String> {
    let mut w = WEIGHTS;
    for c in changes {
        let (k, v) = c
            .split_once('=')
            .ok_or(format!("{c}: TERM=VALUE expected"))?;
        let v: i32 = v.parse().map_err(|_| format!("{c}: not a number"))?;
        match k.split_once('.') {
            Some(("burden", i)) => w.burden[i.parse::<usize>().map_err(|e| e.to_string())?] = v,
            Some(("offer", i)) => w.offer[i.parse::<usize>().map_err(|e| e.to_string())?] = v,
            _ => match k {
                "hanging" => w.hanging = v,
                "deep" => w.deep = v,
                "tempo" => w.tempo = v,
                "tempo_pieces" => w.tempo_pieces = v as u32,
                "to_move" => w.to_move = v,
                _ => return Err(format!("unknown term {k}")),
            },
        }
    }
    Ok(w)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: raeuber_selfplay GAMES DEPTH TERM=VALUE…");
        std::process::exit(2);
    }
    let pairs: u32 = args[0].parse().expect("GAMES");
    let depth: i32 = args[1].parse().expect("DEPTH");
    let cand = parse(&args[2..]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let base = WEIGHTS;
    // SEED in the environment picks another set of openings.
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let mut rng = 0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let (mut score, mut games) = (0.0, 0);
    let mut penta = [0u32; 5];
    for _ in 0..pairs {
        // A random opening of 4 plies.
        let mut pos = Raeuber::startpos("raeuberschach").unwrap();
        for _ in 0..4 {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos = pos.play(moves[rng as usize % moves.len()]);
        }
        let a = play(&pos, &cand, &base, depth, &mut rng);
        let b = -play(&pos, &base, &cand, depth, &mut rng);
        penta[(a + b + 2) as usize] += 1;
        score += (a + b) as f64 / 2.0 + 1.0;
        games += 2;
    }
    println!(
        "candidate {:.1}/{games} ({:.1}%), pairs LL..WW {:?}",
        score,
        100.0 * score / games as f64,
        penta
    );
}
