//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority (LOS),
//! pentanomial pair counts and the sequential probability ratio test (SPRT).
//!
//! Formulas, all in the logistic Elo model `score = 1 / (1 + 10^(-elo/400))`:
//! - Trinomial (per game) estimates as cutechess-cli prints them: mean score, per-game variance,
//!   95% interval `score ± 1.959964·σ/√n` mapped through the Elo formula and halved; LOS
//!   `½·(1 + erf((W − L) / √(2(W + L))))`.
//! - Pentanomial (per pair of games with colours swapped) estimates as fastchess prints them:
//!   the same, with the pair score (0, ¼, ½, ¾, 1) as the sample.
//! - SPRT: the generalized SPRT on the pentanomial pair counts as fishtest and fastchess compute
//!   it (M. Van den Bergh, "Comments on Normalized Elo"): the log-likelihood ratio of the
//!   maximum-likelihood distributions with mean score `s0` and `s1` (the scores of `elo0` and
//!   `elo1`), empty buckets regularized to 0.001; Wald's bounds `ln(β/(1−α))`, `ln((1−β)/α)`.
//!
//! This module depends on nothing else in the crate.

/// 1.959964…: the two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that gives an expected score `score` (0 < score < 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a side `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The complementary error function (Numerical Recipes `erfcc`, fractional error < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The error function.
pub fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// The standard normal cumulative distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Wld {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Points per game of the first engine (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// Likelihood of superiority from wins and losses (draws carry no information here).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Elo difference and its 95% error bar from the per-game scores.
    pub fn elo(&self) -> Estimate {
        let samples = [
            (1.0, self.wins as f64),
            (0.5, self.draws as f64),
            (0.0, self.losses as f64),
        ];
        Estimate::from_samples(&samples)
    }
}

/// Pair counts of the first engine by pair score in half points:
/// `[LL, LD+DL, DD+WL+LW, WD+DW, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    /// Records a pair whose two game scores (0, ½ or 1 each) add up to `half_points / 2`.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The (pair score, count) samples, pair score in 0…1.
    fn samples(&self) -> [(f64, f64); 5] {
        std::array::from_fn(|i| (i as f64 / 4.0, self.0[i] as f64))
    }

    /// Elo difference and its 95% error bar from the per-pair scores.
    pub fn elo(&self) -> Estimate {
        Estimate::from_samples(&self.samples())
    }
}

/// An Elo estimate with its 95% error bar and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per sample, 0…1.
    pub score: f64,
    /// Variance of one sample's score.
    pub variance: f64,
    /// Number of samples.
    pub n: f64,
    /// Elo difference (±infinite when one side scored everything).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo (NaN with fewer than two samples).
    pub error: f64,
    /// Probability that the first engine is the stronger one, from the normal approximation.
    pub los: f64,
}

impl Estimate {
    /// From (score, count) pairs.
    pub fn from_samples(samples: &[(f64, f64)]) -> Estimate {
        let n: f64 = samples.iter().map(|s| s.1).sum();
        if n == 0.0 {
            return Estimate {
                score: 0.5,
                variance: 0.0,
                n,
                elo: 0.0,
                error: f64::NAN,
                los: 0.5,
            };
        }
        let mean = samples.iter().map(|(x, c)| x * c).sum::<f64>() / n;
        let variance = samples
            .iter()
            .map(|(x, c)| c * (x - mean) * (x - mean))
            .sum::<f64>()
            / n;
        let stderr = (variance / n).sqrt();
        let error = if n < 2.0 || mean <= 0.0 || mean >= 1.0 {
            f64::NAN
        } else {
            let lo = (mean - Z95 * stderr).max(1e-12);
            let hi = (mean + Z95 * stderr).min(1.0 - 1e-12);
            (elo_from_score(hi) - elo_from_score(lo)) / 2.0
        };
        let los = if stderr > 0.0 {
            phi((mean - 0.5) / stderr)
        } else if mean > 0.5 {
            1.0
        } else if mean < 0.5 {
            0.0
        } else {
            0.5
        };
        Estimate {
            score: mean,
            variance,
            n,
            // `+ 0.0` turns −0.0 into 0.0 for printing.
            elo: elo_from_score(mean) + 0.0,
            error,
            los,
        }
    }
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H0 accepted: the difference is at most `elo0`.
    H0,
    /// H1 accepted: the difference is at least `elo1`.
    H1,
}

/// A sequential probability ratio test of `elo0` against `elo1` (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `0 < alpha, beta < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        for (name, v) in [("elo0", elo0), ("elo1", elo1)] {
            if !(v.is_finite() && v.abs() <= 2000.0) {
                return Err(format!(
                    "SPRT {name} must be a number from -2000 to 2000, not {v}"
                ));
            }
        }
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!(
                "SPRT needs elo0 < elo1, got elo0={elo0} elo1={elo1}"
            ));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return Err(format!(
                    "SPRT {name} must lie strictly between 0 and 1, got {v}"
                ));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these pair counts: the generalized SPRT
    /// with maximum-likelihood pentanomial distributions of mean score `s0` and `s1` (as
    /// fishtest and fastchess compute it). Empty buckets count as 0.001 pairs (fishtest's
    /// `regularize`), so that one-sided results still give a finite ratio.
    pub fn llr(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let counts: [f64; 5] = std::array::from_fn(|i| match penta.0[i] {
            0 => 1e-3,
            c => c as f64,
        });
        let n: f64 = counts.iter().sum();
        let probs: [f64; 5] = std::array::from_fn(|i| counts[i] / n);
        let scores: [f64; 5] = std::array::from_fn(|i| i as f64 / 4.0);
        let p0 = mle(&scores, &probs, score_from_elo(self.elo0));
        let p1 = mle(&scores, &probs, score_from_elo(self.elo1));
        n * (0..5)
            .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
            .sum::<f64>()
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The distribution over `scores` closest to the empirical `probs` (maximum likelihood) whose
/// mean is `s` (M. Van den Bergh, "Comments on Normalized Elo", proposition 1.1):
/// `p_i = p̂_i / (1 + θ(a_i − s))` with θ the root of `Σ p̂_i (a_i − s) / (1 + θ(a_i − s))`,
/// which falls as θ grows; found by bisection. `scores` ascend and `s` lies strictly between
/// the first and the last.
fn mle<const N: usize>(scores: &[f64; N], probs: &[f64; N], s: f64) -> [f64; N] {
    let f = |t: f64| -> f64 {
        (0..N)
            .map(|i| probs[i] * (scores[i] - s) / (1.0 + t * (scores[i] - s)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (scores[N - 1] - s), -1.0 / (scores[0] - s));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    std::array::from_fn(|i| probs[i] / (1.0 + theta * (scores[i] - s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!(
            (a - b).abs() <= tol,
            "{a} differs from {b} by more than {tol}"
        );
    }

    #[test]
    fn elo_of_known_scores() {
        // 400·log10(3): a 3:1 score ratio.
        close(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9);
        close(elo_from_score(0.5), 0.0, 1e-12);
        close(score_from_elo(190.848_501_887_864_98), 0.75, 1e-12);
        close(score_from_elo(-400.0), 1.0 / 11.0, 1e-12);
    }

    #[test]
    fn erf_against_tables() {
        // Abramowitz & Stegun table 7.1.
        close(erf(0.5), 0.520_499_877_8, 2e-7);
        close(erf(1.0), 0.842_700_792_9, 2e-7);
        close(erf(-1.0), -0.842_700_792_9, 2e-7);
        close(erf(2.0), 0.995_322_265_0, 2e-7);
        close(phi(Z95), 0.975, 2e-7);
    }

    #[test]
    fn trinomial_estimate() {
        // W=30 L=20 D=50, by hand: mean 0.55, variance (30·0.45² + 50·0.05² + 20·0.55²)/100
        // = 0.1225, σ/√n = 0.035, interval 0.55 ± 0.068599 → Elo 34.860 ± 48.470 (checked with Python's math module).
        let wld = Wld {
            wins: 30,
            losses: 20,
            draws: 50,
        };
        let e = wld.elo();
        close(e.score, 0.55, 1e-12);
        close(e.variance, 0.1225, 1e-12);
        close(e.elo, 34.860_070_287_560_08, 1e-9);
        let lo = elo_from_score(0.55 - Z95 * 0.035);
        let hi = elo_from_score(0.55 + Z95 * 0.035);
        close(e.error, (hi - lo) / 2.0, 1e-9);
        close(e.error, 48.470_228, 1e-6);
        // cutechess LOS: ½(1 + erf(10/√100)) = ½(1 + erf(1)).
        close(wld.los(), 0.921_350_396_5, 2e-7);
    }

    #[test]
    fn pentanomial_estimate() {
        // Pairs [LL, LD, DD, WD, WW] = [1, 2, 3, 2, 2]: pair scores 0, ¼, ½, ¾, 1.
        // mean = (0 + 0.5 + 1.5 + 1.5 + 2) / 10 = 0.55;
        // variance = (0.3025 + 2·0.09 + 3·0.0025 + 2·0.04 + 2·0.2025) / 10 = 0.0975.
        let p = Penta([1, 2, 3, 2, 2]);
        let e = p.elo();
        close(e.score, 0.55, 1e-12);
        close(e.variance, 0.0975, 1e-12);
        close(e.n, 10.0, 0.0);
        // LOS = Φ(0.05 / √0.00975).
        close(e.los, phi(0.05 / 0.00975f64.sqrt()), 1e-12);
        close(e.los, 0.693_701_4, 1e-6);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let (lo, hi) = sprt.bounds();
        // ln(0.05/0.95) and ln(0.95/0.05) = ±2.944438979.
        close(lo, -2.944_438_979_166_44, 1e-12);
        close(hi, 2.944_438_979_166_44, 1e-12);
        // 1000 pairs [100, 200, 400, 200, 100]: mean 0.5, variance
        // (100·0.25 + 200·0.0625 + 0 + 200·0.0625 + 100·0.25)/1000 = 0.075 (by hand);
        // s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.5071951;
        // LLR = 1000·(s1−0.5)·(1 − 0.5 − s1)/(2·0.075) = −(20000/3)·(s1−0.5)².
        let p = Penta([100, 200, 400, 200, 100]);
        let e = p.elo();
        close(e.variance, 0.075, 1e-12);
        let s1 = score_from_elo(5.0);
        close(s1, 0.507_195_081_709_051_4, 1e-12);
        // For many pairs the GSPRT approaches its normal approximation
        // n·(s1−s0)·(2·mean − s0 − s1)/(2σ²) = −(20000/3)·(s1−0.5)² = −0.345128.
        let approx = -20000.0 / 3.0 * (s1 - 0.5) * (s1 - 0.5);
        close(approx, -0.345_128_005, 1e-8);
        close(sprt.llr(&p), approx, 1e-3);
        // Exact values from an independent Python implementation of the same MLE (bisection
        // on θ, 200 steps), as fastchess computes them.
        close(sprt.llr(&p), -0.345_068_509_517, 1e-9);
        assert_eq!(sprt.verdict(sprt.llr(&p)), Verdict::Continue);
        close(sprt.llr(&Penta([1, 2, 3, 2, 2])), 0.033_833_795_287, 1e-9);
        // One-sided results, regularized: ten pairs won twice are not yet proof of +5 Elo.
        close(sprt.llr(&Penta([0, 0, 0, 0, 10])), 0.142_904_432_544, 1e-9);
        let wide = Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap();
        // Against elo1 = 200, seven won pairs are not enough and eight are.
        close(wide.llr(&Penta([0, 0, 0, 0, 7])), 2.929_161_894_893, 1e-9);
        close(wide.llr(&Penta([0, 0, 0, 0, 8])), 3.347_539_350_416, 1e-9);
        assert_eq!(wide.verdict(wide.llr(&Penta([0, 0, 0, 0, 8]))), Verdict::H1);
        let twenty = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        close(
            twenty.llr(&Penta([0, 0, 3, 0, 0])),
            -0.172_094_102_540,
            1e-9,
        );
        assert_eq!(sprt.verdict(3.0), Verdict::H1);
        assert_eq!(sprt.verdict(-3.0), Verdict::H0);
        assert_eq!(sprt.llr(&Penta::default()), 0.0);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        // Bounds that are no numbers or far beyond any match: refused, not NaN LLRs.
        assert!(Sprt::new(f64::NEG_INFINITY, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 1e9, 0.05, 0.05).is_err());
    }
}
