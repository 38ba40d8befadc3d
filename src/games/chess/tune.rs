//! Tuning the evaluation weights on data: quiet positions from played games, labelled by the
//! game's result, fitted by gradient descent (Adam) over every weight at once.
//!
//! - [`positions_from_pgn`]: replays games (PGN as `kiebitz-match` writes it) and keeps the
//!   quiet positions ([`is_quiet`]: not in check, and a quiescence search finds no capture that
//!   changes the static evaluation) with White's result.
//! - [`Sample`]: a position as the evaluation's trace — each weight's count (White minus
//!   Black), the game phase and the drawish-ending scale — so the evaluation is a linear
//!   function of the weights within each phase, and its gradient is exact.
//! - [`fit_k`], [`error`], [`fit`]: the sigmoid's scale K for the starting weights, the mean
//!   squared error of `sigmoid(K·eval)` against the results, and the Adam fit (piece-square
//!   entries tied to their mirror across the d/e line, an L2 pull towards the starting weights).
//! - [`render`]: writes weights as the readable table `weights.rs`.
//!
//! `examples/chess-tune.rs` and `scripts/studies/tune-chess.sh` drive this end to end. Depends on the
//! chess position and evaluation, [`crate::game::Game`] and [`crate::pgn`].

use super::Chess;
#[cfg(test)]
use super::params::parse_weights;
use super::params::{Params, S, Weights, idx};
use crate::board::{Color, MoveList};
use crate::game::Game;
use crate::texel;

/// Node budget of the quiescence search that decides whether a position is quiet.
const QS_NODES: u32 = 20_000;

/// Quiescence search over captures that do not lose material (as the engine's): the score for
/// the side to move. `nodes` counts down; at zero the stand-pat score is returned.
fn qsearch(pos: &Chess, mut alpha: i32, beta: i32, params: &Params, nodes: &mut u32) -> i32 {
    let stand = pos.evaluate_with(params);
    if stand >= beta || *nodes == 0 {
        return stand;
    }
    *nodes -= 1;
    alpha = alpha.max(stand);
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.retain(|m| pos.is_noisy(*m) && pos.see_ge(*m, 0));
    moves.sort_by_key(|&m| -pos.noisy_order(m));
    let mut best = stand;
    for m in moves {
        let v = -qsearch(&pos.play(m), -beta, -alpha, params, nodes);
        if v > best {
            best = v;
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// The quiescence score of `pos` for the side to move (see [`is_quiet`]).
pub fn qsearch_score(pos: &Chess, params: &Params) -> i32 {
    let mut nodes = QS_NODES;
    qsearch(pos, -32_000, 32_000, params, &mut nodes)
}

/// A position is quiet when the side to move is not in check and no capture or promotion
/// changes the static evaluation (the quiescence search's score equals it: its PV is empty).
pub fn is_quiet(pos: &Chess, params: &Params) -> bool {
    if pos.in_check() {
        return false;
    }
    qsearch_score(pos, params) == pos.evaluate_with(params)
}

pub use crate::texel::Labelled;

/// The quiet positions of every finished game of a PGN text, numbered from `first_game`.
/// The first `skip_plies` plies of each game (the opening book) are left out, and so are
/// games without a result. Quietness is judged with `params`.
pub fn positions_from_pgn(
    text: &str,
    first_game: usize,
    skip_plies: usize,
    params: &Params,
) -> Result<Vec<Labelled>, String> {
    texel::labelled_positions::<Chess>(text, "chess", first_game, skip_plies, |pos| {
        is_quiet(pos, params)
    })
}

/// A position as the evaluation's trace: `(weight index, count)` for White minus Black, the
/// phase (24 = opening, 0 = bare kings and pawns), the scale of drawish endings (1 = none)
/// and White's result.
#[derive(Clone, Debug)]
pub struct Sample {
    pub terms: Vec<(u16, i16)>,
    pub phase: f64,
    pub scale: f64,
    pub result: f64,
}

impl Sample {
    /// The trace of `fen` (the drawish-ending scale taken for the side `params` favour).
    pub fn new(fen: &str, result: f64, params: &Params) -> Result<Sample, String> {
        let pos = Chess::from_fen("chess", fen)?;
        let sign = if pos.side_to_move() == Color::White {
            1
        } else {
            -1
        };
        let f = pos.features(pos.evaluate_with(params) * sign > 0);
        Ok(Sample {
            terms: f.terms,
            phase: f.phase as f64,
            scale: f.scale as f64 / 8.0,
            result,
        })
    }

    /// The evaluation for White with weights `w` (`2·index` middlegame, `2·index + 1` endgame).
    pub fn eval(&self, w: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(i, n) in &self.terms {
            mg += w[2 * i as usize] * n as f64;
            eg += w[2 * i as usize + 1] * n as f64;
        }
        (mg * self.phase + eg * (24.0 - self.phase)) / 24.0 * self.scale
    }
}

/// Weights as a flat vector: `2·index` middlegame, `2·index + 1` endgame.
pub fn flatten(p: &Params) -> Vec<f64> {
    p.iter().flat_map(|s| [s.0 as f64, s.1 as f64]).collect()
}

/// A flat vector rounded back to integer weights.
pub fn unflatten(w: &[f64]) -> Params {
    let mut p = [S(0, 0); idx::COUNT];
    for (i, s) in p.iter_mut().enumerate() {
        *s = S(w[2 * i].round() as i32, w[2 * i + 1].round() as i32);
    }
    p
}

pub use crate::texel::sigmoid;

impl texel::Scored for Sample {
    fn white_eval(&self, w: &[f64]) -> f64 {
        self.eval(w)
    }
    fn result(&self) -> f64 {
        self.result
    }
}

/// Mean squared error of the predicted against the actual results.
pub fn error(w: &[f64], k: f64, samples: &[Sample]) -> f64 {
    texel::error(w, k, samples)
}

/// The K that minimises [`error`] for weights `w` (a one-dimensional search).
pub fn fit_k(w: &[f64], samples: &[Sample]) -> f64 {
    texel::fit_k(|k| error(w, k, samples))
}

/// Settings of [`fit`].
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub lr: f64,
    /// L2 pull towards the starting weights: `lambda / N · Σ (w − w₀)²` is added to the mean
    /// squared error of N positions, so its weight against the data falls as the data grows.
    pub lambda: f64,
    /// Report every this many epochs (0: never).
    pub report: usize,
    /// Fit the tuned-only terms (from [`idx::EXTENDED`] on) too; if false they keep their
    /// starting values.
    pub extended: bool,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 2000,
            lr: 1.0,
            lambda: 0.01,
            report: 100,
            extended: true,
        }
    }
}

/// The gradient of [`error`] (plus the L2 pull of [`FitConfig::lambda`]) with respect to
/// every weight.
pub fn gradient(w: &[f64], w0: &[f64], k: f64, lambda: f64, samples: &[Sample]) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let c = k * std::f64::consts::LN_10 / 400.0;
    let mut grad = vec![0.0; w.len()];
    for s in samples {
        let p = sigmoid(k, s.eval(w));
        let d = 2.0 * (p - s.result) * p * (1.0 - p) * c * s.scale / n;
        let (gm, ge) = (d * s.phase / 24.0, d * (24.0 - s.phase) / 24.0);
        for &(i, cnt) in &s.terms {
            grad[2 * i as usize] += gm * cnt as f64;
            grad[2 * i as usize + 1] += ge * cnt as f64;
        }
    }
    for i in 0..w.len() {
        grad[i] += 2.0 * lambda / n * (w[i] - w0[i]);
    }
    grad
}

/// Full-batch Adam from `w0` on `train`; `heldout` is only measured. `log` receives
/// `(epoch, training error, held-out error)` every `cfg.report` epochs.
pub fn fit(
    w0: &[f64],
    k: f64,
    train: &[Sample],
    heldout: &[Sample],
    cfg: &FitConfig,
    mut log: impl FnMut(usize, f64, f64),
) -> Vec<f64> {
    let mut w = w0.to_vec();
    let mut adam = texel::Adam::new(w.len());
    for epoch in 1..=cfg.epochs {
        let mut grad = gradient(&w, w0, k, cfg.lambda, train);
        // Tie each piece-square entry to its mirror across the d/e line.
        for kind in 0..6 {
            for sq in (0..64).filter(|sq| sq & 7 < 4) {
                for part in 0..2 {
                    let a = 2 * (idx::PST + kind * 64 + sq) + part;
                    let b = 2 * (idx::PST + kind * 64 + (sq ^ 7)) + part;
                    let g = (grad[a] + grad[b]) / 2.0;
                    grad[a] = g;
                    grad[b] = g;
                }
            }
        }
        if !cfg.extended {
            grad[2 * idx::EXTENDED..].iter_mut().for_each(|g| *g = 0.0);
        }
        adam.step(&mut w, &grad, cfg.lr, |_| true);
        if cfg.report > 0 && (epoch % cfg.report == 0 || epoch == cfg.epochs) {
            log(epoch, error(&w, k, train), error(&w, k, heldout));
        }
    }
    w
}

fn fmt_s(s: S) -> String {
    format!("S({}, {})", s.0, s.1)
}

fn fmt_list(list: &[S]) -> String {
    list.iter()
        .map(|&s| fmt_s(s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tuned-weights file `weights.rs`: `header` (comment lines) and the table, piece-square
/// tables drawn as boards with rank 8 on top.
pub fn render(w: &Weights, header: &str) -> String {
    let mut t = String::new();
    t.push_str(
        "//! The tuned evaluation weights, one table (see eval.rs for what each term counts): the\n",
    );
    t.push_str(
        "//! engine's default. Written by `chess-tune fit` (scripts/studies/tune-chess.sh);\n",
    );
    t.push_str("//! `KIEBITZ_EVAL=hand` selects the hand-made weights of eval.rs instead.\n");
    t.push_str("//!\n");
    for line in header.lines() {
        t.push_str(format!("//! {line}").trim_end());
        t.push('\n');
    }
    t.push_str("\nuse super::params::{S, Weights, rank8_first};\n\n");
    t.push_str(
        "/// The tuned weights; piece-square rows run a..h, rank 8 first, as seen from White.\n",
    );
    t.push_str("#[rustfmt::skip]\npub const TUNED: Weights = Weights {\n");
    t.push_str(
        "    //          pawn        knight      bishop      rook        queen       king\n",
    );
    t.push_str(&format!("    material: [{}],\n", fmt_list(&w.material)));
    t.push_str("    pst: rank8_first([\n");
    for (kind, name) in ["pawn", "knight", "bishop", "rook", "queen", "king"]
        .iter()
        .enumerate()
    {
        t.push_str(&format!("        // {name}\n        [\n"));
        for rank in (0..8).rev() {
            let row = &w.pst[kind][rank * 8..rank * 8 + 8];
            t.push_str(&format!("            {},\n", fmt_list(row)));
        }
        t.push_str("        ],\n");
    }
    t.push_str("    ]),\n");
    for (name, s) in [
        ("bishop_pair", w.bishop_pair),
        ("doubled", w.doubled),
        ("isolated", w.isolated),
        ("rook_open", w.rook_open),
        ("rook_half_open", w.rook_half_open),
        ("shield", w.shield),
        ("tempo", w.tempo),
    ] {
        t.push_str(&format!("    {name}: {},\n", fmt_s(s)));
    }
    t.push_str("    //       rank 1      2           3           4           5           6           7           8\n");
    t.push_str(&format!("    passed: [{}],\n", fmt_list(&w.passed)));
    t.push_str("    //         -           knight      bishop      rook        queen       -\n");
    t.push_str(&format!("    mobility: [{}],\n", fmt_list(&w.mobility)));
    t.push_str(&format!(
        "    king_attack: [{}],\n",
        fmt_list(&w.king_attack)
    ));
    for (name, s) in [
        ("pawn_threat", w.pawn_threat),
        ("connected", w.connected),
        ("king_open_file", w.king_open_file),
        ("passed_king_own", w.passed_king_own),
        ("passed_king_their", w.passed_king_their),
        ("hanging", w.hanging),
    ] {
        t.push_str(&format!("    {name}: {},\n", fmt_s(s)));
    }
    t.push_str("};\n");
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::eval::{PARAMS, default_params};

    #[test]
    fn quiet_filter() {
        // A knight hangs to a pawn: not quiet.
        let p = Chess::parse_fen("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&p, &PARAMS));
        // The same with the pawn out of reach: quiet.
        let p = Chess::parse_fen("4k3/8/8/3n4/8/7P/8/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&p, &PARAMS));
        // In check: never quiet.
        let p = Chess::parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&p, &PARAMS));
        // Defended piece, capture loses material: quiet (SEE < 0 is not searched).
        let p = Chess::parse_fen("4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&p, &PARAMS));
    }

    #[test]
    fn sample_reproduces_the_evaluation() {
        let w = flatten(&PARAMS);
        for fen in [
            "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
            "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
            "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        ] {
            let pos = Chess::parse_fen(fen).unwrap();
            let white = pos.evaluate_with(&PARAMS) * if pos.side == Color::White { 1 } else { -1 };
            let s = Sample::new(fen, 0.5, &PARAMS).unwrap();
            // The engine rounds down twice (phase blend, scale); the trace does not.
            assert!((s.eval(&w) - white as f64).abs() < 2.0, "{fen}");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let fens = [
            (
                "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
                1.0,
            ),
            ("8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40", 0.0),
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                0.5,
            ),
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .map(|&(f, r)| Sample::new(f, r, &PARAMS).unwrap())
            .collect();
        let w0 = flatten(&PARAMS);
        let mut w = w0.clone();
        w[2 * idx::BISHOP_PAIR] += 7.0; // away from w0, so that the L2 term counts
        let (k, lambda) = (1.3, 1e-4);
        let loss = |w: &[f64]| {
            error(w, k, &samples)
                + lambda / samples.len() as f64
                    * w.iter().zip(&w0).map(|(a, b)| (a - b).powi(2)).sum::<f64>()
        };
        let g = gradient(&w, &w0, k, lambda, &samples);
        for i in [
            2 * idx::BISHOP_PAIR,
            2 * (idx::PST + 64 + 28) + 1,
            2 * idx::TEMPO,
            2 * (idx::MOBILITY + 3),
        ] {
            let mut a = w.clone();
            let mut b = w.clone();
            a[i] += 0.01;
            b[i] -= 0.01;
            let fd = (loss(&a) - loss(&b)) / 0.02;
            assert!(
                (fd - g[i]).abs() <= 1e-6 + 1e-3 * fd.abs(),
                "{i}: {fd} vs {}",
                g[i]
            );
        }
    }

    #[test]
    fn weights_round_trip() {
        let p = default_params();
        assert_eq!(Weights::from_params(&p).to_params()[64..], p[64..]);
        // Pawn entries on ranks 1 and 8 are unused; the others come back exactly.
        assert_eq!(Weights::from_params(&p).to_params()[8..56], p[8..56]);
    }

    #[test]
    fn weights_file_is_what_render_writes() {
        let text = include_str!("weights.rs");
        let header: String = text
            .lines()
            .skip(4)
            .take_while(|l| l.starts_with("//!"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        assert_eq!(render(&super::super::weights::TUNED, &header), text);
        assert_eq!(parse_weights(text), Ok(super::super::weights::TUNED));
        assert!(parse_weights(&text.replace("S(0, 0)", "S(0 0)")).is_err());
        assert!(parse_weights("pub const TUNED = S(1, 2);").is_err());
    }

    /// The whole pipeline at small scale: 40 games (20 kiebitz self-play, 20 against
    /// stockfish, written by scripts/studies/tune-chess.sh, comments stripped) → quiet positions →
    /// traces → K → Adam → the table; the held-out games' error must fall.
    #[test]
    fn pipeline_on_forty_games() {
        let text = include_str!("../../../tests/data/chess-tune-games.pgn");
        let positions = positions_from_pgn(text, 0, 4, &PARAMS).unwrap();
        assert!(
            positions.len() > 2000,
            "{} quiet positions",
            positions.len()
        );
        for p in &positions {
            let pos = Chess::parse_fen(&p.fen).unwrap();
            assert!(!pos.in_check(), "{}", p.fen);
        }
        let (mut train, mut heldout) = (Vec::new(), Vec::new());
        for p in &positions {
            let s = Sample::new(&p.fen, p.result, &PARAMS).unwrap();
            if p.game % 5 == 0 {
                heldout.push(s)
            } else {
                train.push(s)
            }
        }
        let w0 = flatten(&PARAMS);
        let k = fit_k(&w0, &train);
        assert!(k > 0.1 && k < 3.0, "K = {k}");
        let cfg = FitConfig {
            epochs: 300,
            lambda: 0.003,
            report: 0,
            ..FitConfig::default()
        };
        let w = fit(&w0, k, &train, &heldout, &cfg, |_, _, _| {});
        let tuned = flatten(&unflatten(&w));
        let (t0, t1) = (error(&w0, k, &train), error(&tuned, k, &train));
        let (h0, h1) = (error(&w0, k, &heldout), error(&tuned, k, &heldout));
        assert!(t1 < t0 - 0.001, "training error {t0} -> {t1}");
        assert!(h1 < h0, "held-out error {h0} -> {h1}");
        let table = render(&Weights::from_params(&unflatten(&w)), "test");
        assert!(table.contains("pub const TUNED: Weights"));
    }
}
