//! Texel tuning, shared by the games: labelled positions from played games, the logistic
//! model `sigmoid(K · eval)` of a game's result, and the pieces of a fit.
//!
//! - [`labelled_positions`]: replays the games of a PGN text (as `kiebitz-match` writes it)
//!   for any [`Game`] and keeps the positions a filter accepts, each with White's result.
//! - [`sigmoid`] and [`fit_k`]: the expected score of an evaluation, and the scale K that
//!   makes the starting weights fit best (a one-dimensional search of any error function).
//! - [`Linear`], [`error`], [`fit`]: an evaluation that is a linear function of its weights
//!   (each position a list of `(weight, count)` terms for White) fitted by full-batch Adam,
//!   with an L2 pull towards the starting weights and weights that may stay fixed ([`Adam`]:
//!   the optimiser's step, shared with the chess tuner).
//!
//! The chess tuner (`games::chess::tune`, whose evaluation is tapered by phase) uses the first
//! two; the Räuberschach tuner (`games::raeuber::tune`) all of them. Depends on [`crate::game`]
//! [`crate::pgn`] and [`crate::san`].

use crate::game::Game;
use crate::pgn;

/// One labelled position: its FEN, White's result (1, 0.5 or 0) and the game it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub fen: String,
    pub result: f64,
    pub game: usize,
}

/// The positions of every finished game of a PGN text that `keep` accepts, the games
/// numbered from `first_game`. The first `skip_plies` plies of each game (the opening) are
/// left out, and so are games without a result and games that ended off the board (see
/// [`decided_by_play`]): their result says nothing about the positions. A move that does not
/// parse is an error naming the game and the move.
pub fn labelled_positions<G: Game>(
    text: &str,
    variant: &str,
    first_game: usize,
    skip_plies: usize,
    mut keep: impl FnMut(&G) -> bool,
) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    for (n, game) in pgn::parse(text)?.iter().enumerate() {
        if !decided_by_play(game.tag("Termination")) {
            continue;
        }
        let result = match game.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        let mut pos = match game.tag("FEN") {
            Some(fen) => G::from_fen(variant, fen)?,
            None => G::startpos(variant)?,
        };
        for (ply, m) in game.moves.iter().enumerate() {
            if ply >= skip_plies && keep(&pos) {
                out.push(Labelled {
                    fen: pos.fen(),
                    result,
                    game: first_game + n,
                });
            }
            let mv = crate::san::read(&pos, m)
                .map_err(|e| format!("game {}, move {} ({m}): {e}", first_game + n, ply + 1))?;
            pos = pos.play(mv);
        }
    }
    Ok(out)
}

/// Whether a game's PGN `Termination` tag says the result came from the play: on the board
/// (`normal`, or no tag) or by adjudication. A time forfeit, an illegal move, an engine that
/// exited or stalled (`abandoned`, `stalled connection`, as when a match is interrupted) give
/// a result that has nothing to do with the position.
pub fn decided_by_play(termination: Option<&str>) -> bool {
    matches!(termination, None | Some("normal") | Some("adjudication"))
}

/// The expected score for a White evaluation `e` in centipawns.
pub fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The K > 0 that minimises `error(K)`, by a search with shrinking steps from K = 1.
pub fn fit_k(error: impl Fn(f64) -> f64) -> f64 {
    let mut k = 1.0;
    let mut best = error(k);
    for step in [0.5, 0.1, 0.02, 0.005] {
        loop {
            let up = error(k + step);
            let down = error(k - step);
            if up < best {
                (k, best) = (k + step, up);
            } else if down < best && k - step > 0.0 {
                (k, best) = (k - step, down);
            } else {
                break;
            }
        }
    }
    k
}

/// A position whose evaluation for White is `Σ weight[index] · count` over its terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    pub terms: Vec<(u16, f64)>,
    /// White's result: 1, 0.5 or 0.
    pub result: f64,
}

impl Linear {
    /// The evaluation for White with weights `w`.
    pub fn eval(&self, w: &[f64]) -> f64 {
        self.terms.iter().map(|&(i, n)| w[i as usize] * n).sum()
    }
}

/// A position of a fit: its evaluation for White under weights `w`, and White's result.
pub trait Scored {
    fn white_eval(&self, w: &[f64]) -> f64;
    fn result(&self) -> f64;
}

impl Scored for Linear {
    fn white_eval(&self, w: &[f64]) -> f64 {
        self.eval(w)
    }
    fn result(&self) -> f64 {
        self.result
    }
}

/// Mean squared error of the predicted against the actual results.
pub fn error<S: Scored>(w: &[f64], k: f64, samples: &[S]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| (s.result() - sigmoid(k, s.white_eval(w))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The gradient of [`error`] plus the pull `lambda / N · Σ (w − w₀)²` with respect to every
/// weight.
pub fn gradient(w: &[f64], w0: &[f64], k: f64, lambda: f64, samples: &[Linear]) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let c = k * std::f64::consts::LN_10 / 400.0;
    let mut grad = vec![0.0; w.len()];
    for s in samples {
        let p = sigmoid(k, s.eval(w));
        let d = 2.0 * (p - s.result) * p * (1.0 - p) * c / n;
        for &(i, cnt) in &s.terms {
            grad[i as usize] += d * cnt;
        }
    }
    for i in 0..w.len() {
        grad[i] += 2.0 * lambda / n * (w[i] - w0[i]);
    }
    grad
}

/// Settings of [`fit`].
#[derive(Clone, Debug)]
pub struct Fit {
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub lr: f64,
    /// The L2 pull towards the starting weights (see [`gradient`]).
    pub lambda: f64,
    /// Report every this many epochs (0: never).
    pub report: usize,
    /// Weights that keep their starting values.
    pub frozen: Vec<bool>,
}

/// Adam's state over a weight vector (β₁ = 0.9, β₂ = 0.999): the moving averages of the
/// gradient and of its square, and the step count.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step of size `lr` along `grad` for every weight that `moves` allows.
    pub fn step(&mut self, w: &mut [f64], grad: &[f64], lr: f64, moves: impl Fn(usize) -> bool) {
        let (b1, b2) = (0.9f64, 0.999f64);
        self.t += 1;
        for i in (0..w.len()).filter(|&i| moves(i)) {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * grad[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * grad[i] * grad[i];
            let mh = self.m[i] / (1.0 - b1.powi(self.t));
            let vh = self.v[i] / (1.0 - b2.powi(self.t));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
}

/// Full-batch Adam from `w0` on `train`; `heldout` is only measured. `log` receives
/// `(epoch, training error, held-out error)` every `cfg.report` epochs and at the end.
pub fn fit(
    w0: &[f64],
    k: f64,
    train: &[Linear],
    heldout: &[Linear],
    cfg: &Fit,
    mut log: impl FnMut(usize, f64, f64),
) -> Vec<f64> {
    let mut w = w0.to_vec();
    let mut adam = Adam::new(w.len());
    let moves = |i: usize| !cfg.frozen.get(i).copied().unwrap_or(false);
    for epoch in 1..=cfg.epochs {
        let grad = gradient(&w, w0, k, cfg.lambda, train);
        adam.step(&mut w, &grad, cfg.lr, moves);
        if cfg.report > 0 && (epoch % cfg.report == 0 || epoch == cfg.epochs) {
            log(epoch, error(&w, k, train), error(&w, k, heldout));
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Of three games with the same moves, the one an engine left (`abandoned`, as when a
    /// match is interrupted) gives no positions; the played and the adjudicated ones do.
    #[test]
    fn games_ended_off_the_board_give_no_positions() {
        let game = |n: usize, result: &str, termination: &str| {
            format!(
                "[Event \"t\"]\n[Round \"{n}\"]\n[Result \"{result}\"]\n\
                 [Termination \"{termination}\"]\n\n1. e4 e5 2. Nf3 {result}\n\n"
            )
        };
        let text = game(1, "1-0", "normal")
            + &game(2, "0-1", "abandoned")
            + &game(3, "1/2-1/2", "adjudication")
            + &game(4, "1-0", "time forfeit");
        let kept = labelled_positions::<crate::games::chess::Chess>(&text, "chess", 0, 0, |_| true)
            .unwrap();
        let games: Vec<(usize, f64)> = kept.iter().map(|l| (l.game, l.result)).collect();
        assert_eq!(
            games,
            [(0, 1.0), (0, 1.0), (0, 1.0), (2, 0.5), (2, 0.5), (2, 0.5)]
        );
        assert!(decided_by_play(None));
        assert!(!decided_by_play(Some("stalled connection")));
    }

    /// Results drawn from a known linear model: the fit finds its weights back, and the
    /// frozen weight stays where it started.
    #[test]
    fn fit_recovers_a_known_model() {
        let truth = [120.0, -60.0, 30.0];
        let mut rng = crate::rng::Rng::new(7);
        let samples: Vec<Linear> = (0..4000)
            .map(|_| {
                let terms: Vec<(u16, f64)> = (0..3)
                    .map(|i| (i as u16, rng.below(7) as f64 - 3.0))
                    .collect();
                let e: f64 = terms.iter().map(|&(i, n)| truth[i as usize] * n).sum();
                let p = sigmoid(1.0, e);
                Linear {
                    terms,
                    result: if rng.unit() < p { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let w0 = [50.0, 0.0, 30.0];
        let cfg = Fit {
            epochs: 3000,
            lr: 2.0,
            lambda: 0.0,
            report: 0,
            frozen: vec![false, false, true],
        };
        let w = fit(&w0, 1.0, &samples, &[], &cfg, |_, _, _| {});
        assert!((w[0] - 120.0).abs() < 25.0, "{w:?}");
        assert!((w[1] + 60.0).abs() < 15.0, "{w:?}");
        assert_eq!(w[2], 30.0);
        assert!(error(&w, 1.0, &samples) < error(&w0, 1.0, &samples));
        // K fitted to the true weights is near 1.
        let k = fit_k(|k| error(&truth, k, &samples));
        assert!((k - 1.0).abs() < 0.2, "{k}");
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let samples = vec![
            Linear {
                terms: vec![(0, 2.0), (1, -1.0)],
                result: 1.0,
            },
            Linear {
                terms: vec![(1, 3.0)],
                result: 0.0,
            },
        ];
        let (w, w0) = ([40.0, 25.0], [0.0, 10.0]);
        let g = gradient(&w, &w0, 1.3, 0.5, &samples);
        for i in 0..2 {
            let h = 1e-4;
            let (mut up, mut down) = (w, w);
            up[i] += h;
            down[i] -= h;
            let f = |x: &[f64; 2]| {
                error(x, 1.3, &samples)
                    + 0.5 / 2.0 * ((x[0] - w0[0]).powi(2) + (x[1] - w0[1]).powi(2))
            };
            let numeric = (f(&up) - f(&down)) / (2.0 * h);
            assert!((numeric - g[i]).abs() < 1e-7, "{i}: {numeric} vs {}", g[i]);
        }
    }
}
