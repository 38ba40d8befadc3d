//! Tunes the chess evaluation (kiebitz::games::chess::tune); scripts/studies/tune-chess.sh runs it.
//!
//! - `extract TRAIN HELDOUT PGN…`: the quiet positions of the games, labelled with their result,
//!   as `FEN;RESULT` lines; every tenth game goes to the held-out file, the rest to training
//!   (split by game, so no game has positions on both sides). A position met twice is kept once.
//! - `fit TRAIN HELDOUT EPOCHS OUT [LR] [LAMBDA] [classic]`: fits K to the hand-made weights, then every
//!   weight by Adam; prints the held-out error before and after and writes the table OUT
//!   (src/games/chess/weights.rs); with `classic` the tuned-only terms stay at zero.
//! - `filters PGN…`: how the quiescence filter differs from the earlier one (move played not a
//!   capture).
//! - `hand OUT`: writes the hand-made weights as such a table.

use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::chess::eval::{PARAMS, Weights};
use kiebitz::games::chess::tune::{self, FitConfig, Sample};
use std::collections::HashSet;
use std::io::Write;

/// Plies at the start of each game left out: the random plies played after the book position.
const SKIP_PLIES: usize = 4;

fn extract(train: &str, heldout: &str, pgns: &[String]) -> Result<(), String> {
    let create = |p: &str| std::fs::File::create(p).map_err(|e| format!("{p}: {e}"));
    let (mut t, mut h) = (create(train)?, create(heldout)?);
    let mut seen = HashSet::new();
    let (mut games, mut nt, mut nh, mut dup) = (0, 0, 0, 0);
    for path in pgns {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let positions = tune::positions_from_pgn(&text, games, SKIP_PLIES, &PARAMS)
            .map_err(|e| format!("{path}: {e}"))?;
        games += kiebitz::pgn::parse(&text)?.len();
        for p in positions {
            // Side, board, castling and en passant: the move counters do not matter.
            let key: String = p.fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
            if !seen.insert(key) {
                dup += 1;
                continue;
            }
            let out = if p.game % 10 == 0 { &mut h } else { &mut t };
            writeln!(out, "{};{}", p.fen, p.result).map_err(|e| e.to_string())?;
            if p.game % 10 == 0 {
                nh += 1;
            } else {
                nt += 1;
            }
        }
    }
    eprintln!(
        "{games} games: {nt} training and {nh} held-out quiet positions ({dup} repeated ones left out)"
    );
    Ok(())
}

/// Compares the quiet filter with the one of the earlier Texel attempt (side to move not in
/// check and the move played neither a capture nor a promotion) on the games' positions.
fn filters(pgns: &[String]) -> Result<(), String> {
    let (mut old, mut new, mut both, mut gap) = (0u64, 0u64, 0u64, 0i64);
    for path in pgns {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for game in kiebitz::pgn::parse(&text)? {
            let mut pos = match game.tag("FEN") {
                Some(fen) => Chess::from_fen("chess", fen)?,
                None => Chess::startpos("chess")?,
            };
            for (ply, m) in game.moves.iter().enumerate() {
                let mv = pos.parse_move(m)?;
                if ply >= SKIP_PLIES {
                    let o = !pos.in_check() && !pos.is_noisy(mv);
                    let n = tune::is_quiet(&pos, &PARAMS);
                    old += o as u64;
                    new += n as u64;
                    both += (o && n) as u64;
                    if o && !n {
                        gap += (tune::qsearch_score(&pos, &PARAMS) - pos.evaluate_with(&PARAMS))
                            as i64;
                    }
                }
                pos = pos.play(mv);
            }
        }
    }
    println!(
        "old filter keeps {old}, quiescence filter {new}, both {both}; kept only by the old one: {} ({:.1} % of its positions), where quiescence gains {:.0} cp on average",
        old - both,
        100.0 * (old - both) as f64 / old.max(1) as f64,
        gap as f64 / (old - both).max(1) as f64
    );
    Ok(())
}

fn load(path: &str) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (fen, r) = l
                .rsplit_once(';')
                .ok_or_else(|| format!("{path}: not FEN;RESULT: {l}"))?;
            let r: f64 = r
                .trim()
                .parse()
                .map_err(|_| format!("{path}: bad result: {l}"))?;
            Sample::new(fen, r, &PARAMS)
        })
        .collect()
}

fn fit(
    train: &str,
    heldout: &str,
    epochs: usize,
    out: &str,
    lr: f64,
    lambda: f64,
    extended: bool,
) -> Result<(), String> {
    let (train_set, held_set) = (load(train)?, load(heldout)?);
    let w0 = tune::flatten(&PARAMS);
    let k = tune::fit_k(&w0, &train_set);
    let before = (
        tune::error(&w0, k, &train_set),
        tune::error(&w0, k, &held_set),
    );
    eprintln!(
        "{} training, {} held-out positions; K = {k:.3}; hand-made weights: training error {:.6}, held-out {:.6}",
        train_set.len(),
        held_set.len(),
        before.0,
        before.1
    );
    let cfg = FitConfig {
        epochs,
        lr,
        lambda,
        extended,
        ..FitConfig::default()
    };
    let w = tune::fit(&w0, k, &train_set, &held_set, &cfg, |e, t, h| {
        eprintln!("epoch {e}: training error {t:.6}, held-out {h:.6}")
    });
    let tuned = tune::unflatten(&w);
    let wr = tune::flatten(&tuned);
    let after = (
        tune::error(&wr, k, &train_set),
        tune::error(&wr, k, &held_set),
    );
    eprintln!(
        "tuned (rounded) weights: training error {:.6}, held-out {:.6}",
        after.0, after.1
    );
    let header = format!(
        "Fitted to {} quiet positions ({} held out) with K = {k:.3}, {epochs} epochs of Adam\n\
         (step {lr}, L2 pull {lambda} / N towards the hand-made weights).\n\
         Mean squared error, hand-made → tuned: training {:.6} → {:.6}, held-out {:.6} → {:.6}.",
        train_set.len(),
        held_set.len(),
        before.0,
        after.0,
        before.1,
        after.1
    );
    std::fs::write(out, tune::render(&Weights::from_params(&tuned), &header))
        .map_err(|e| format!("{out}: {e}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: &str| -> f64 {
        args.get(i)
            .map_or(default, String::as_str)
            .parse()
            .unwrap_or_else(|_| {
                eprintln!("not a number: {}", args[i]);
                std::process::exit(2)
            })
    };
    let result = match args.first().map(String::as_str) {
        Some("extract") if args.len() >= 4 => extract(&args[1], &args[2], &args[3..]),
        Some("fit") if args.len() >= 5 => fit(
            &args[1],
            &args[2],
            num(3, "500") as usize,
            &args[4],
            num(5, "1.0"),
            num(6, "0.002"),
            args.get(7).is_none_or(|a| a != "classic"),
        ),
        Some("filters") if args.len() >= 2 => filters(&args[1..]),
        Some("hand") if args.len() == 2 => std::fs::write(
            &args[1],
            tune::render(
                &Weights::from_params(&PARAMS),
                "The hand-made weights of eval.rs (not tuned yet).",
            ),
        )
        .map_err(|e| e.to_string()),
        _ => Err("usage: chess-tune extract TRAIN HELDOUT PGN… | fit TRAIN HELDOUT EPOCHS OUT [LR] [LAMBDA] [classic] | filters PGN… | hand OUT".into()),
    };
    if let Err(e) = result {
        eprintln!("chess-tune: {e}");
        std::process::exit(1);
    }
}
