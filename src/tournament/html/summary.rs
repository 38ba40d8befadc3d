//! The numbers of a match report, from its games alone: standings per engine (games, wins,
//! losses, draws, points, score, Elo ± 95 %), the first engine's pentanomial pair counts when
//! the games came in colour-swapped pairs, the terminations, and the series the plots draw
//! (the first engine's Elo after each game, the SPRT's log-likelihood ratio after each game).
//!
//! The same numbers as the text report of [`super::super::report`]: games are counted in the
//! order they finished, unfinished games (`*`) are left out, and pairs are formed as
//! kiebitz-match plays them (games `2k+1` and `2k+2`, by their `Round`, share an opening with
//! colours swapped). Depends on [`super::super::stats`] only.

use std::collections::{BTreeMap, HashMap};

use crate::tournament::stats::{Estimate, Penta, Sprt, Verdict, Wld};

/// What the summary needs of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The game's number in the match (the PGN `Round`), 1-based.
    pub number: usize,
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The PGN `Termination` (`normal`, `time forfeit`, …; `?` when absent).
    pub termination: String,
}

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    pub wld: Wld,
}

impl Standing {
    /// Points as half points (a win 2, a draw 1).
    pub fn half_points(&self) -> u64 {
        2 * self.wld.wins + self.wld.draws
    }

    /// Elo against its opponents, with the 95 % error bar.
    pub fn elo(&self) -> Estimate {
        self.wld.elo()
    }
}

/// One point of the plots: after `games` counted games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub games: u64,
    pub elo: Estimate,
    /// The SPRT's log-likelihood ratio (0 without `--sprt`).
    pub llr: f64,
}

/// Everything the report shows in numbers.
#[derive(Clone, Debug)]
pub struct Summary {
    /// In the order of the match (the first engine first), or of first appearance.
    pub standings: Vec<Standing>,
    /// Games with a result (`*` left out).
    pub counted: u64,
    /// Games without a result (`*`).
    pub unfinished: u64,
    /// The first engine's pair counts; `None` when games did not come in colour-swapped pairs
    /// of the same two engines.
    pub penta: Option<Penta>,
    /// Games by termination.
    pub terminations: BTreeMap<String, u64>,
    /// The first engine's Elo and the LLR after each counted game.
    pub series: Vec<Point>,
    pub sprt: Option<Sprt>,
    /// The SPRT's verdict after the last game (the first bound crossed stays crossed).
    pub verdict: Verdict,
}

/// The first engine's half points in a game (2 a win, 1 a draw, 0 a loss); `None` for `*`
/// or a game it did not play.
fn half_points(game: &Scored, engine: &str) -> Option<u64> {
    let white = game.white == engine;
    if !white && game.black != engine {
        return None;
    }
    match (game.result.as_str(), white) {
        ("1/2-1/2", _) => Some(1),
        ("1-0", true) | ("0-1", false) => Some(2),
        ("1-0", false) | ("0-1", true) => Some(0),
        _ => None,
    }
}

/// Summarises `games` (in the order they finished). `names`: the engines in their match order
/// (listed even without games); engines met only in the games follow in order of appearance.
pub fn summarize(names: &[String], games: &[Scored], sprt: Option<Sprt>) -> Summary {
    let mut order: Vec<String> = names.to_vec();
    for g in games {
        for n in [&g.white, &g.black] {
            if !order.contains(n) {
                order.push(n.clone());
            }
        }
    }
    let mut standings: Vec<Standing> = order
        .iter()
        .map(|n| Standing {
            name: n.clone(),
            wld: Wld::default(),
        })
        .collect();
    let two = standings.len() == 2;
    let first = order.first().cloned().unwrap_or_default();
    let mut terminations = BTreeMap::new();
    let mut penta = Penta::default();
    let mut paired = two;
    // Pair index -> (White of its first finished game, the first engine's half points).
    let mut pending: HashMap<usize, (String, u64)> = HashMap::new();
    let mut series = Vec::new();
    let mut verdict = Verdict::Continue;
    let (mut counted, mut unfinished) = (0, 0);
    for g in games {
        if !matches!(g.result.as_str(), "1-0" | "0-1" | "1/2-1/2") {
            unfinished += 1;
            continue;
        }
        counted += 1;
        *terminations.entry(g.termination.clone()).or_default() += 1;
        for s in standings.iter_mut() {
            match half_points(g, &s.name) {
                Some(2) => s.wld.wins += 1,
                Some(1) => s.wld.draws += 1,
                Some(_) => s.wld.losses += 1,
                None => {}
            }
        }
        if paired {
            match half_points(g, &first) {
                Some(half) => {
                    let pair = (g.number.max(1) - 1) / 2;
                    match pending.remove(&pair) {
                        Some((white, other)) if white == g.black && white != g.white => {
                            penta.add((other + half) as usize)
                        }
                        Some(_) => paired = false,
                        None => {
                            pending.insert(pair, (g.white.clone(), half));
                        }
                    }
                }
                None => paired = false,
            }
        }
        let llr = match (&sprt, paired) {
            (Some(s), true) => s.llr(&penta),
            _ => 0.0,
        };
        if let Some(s) = &sprt
            && paired
            && verdict == Verdict::Continue
        {
            verdict = s.verdict(llr);
        }
        series.push(Point {
            games: counted,
            elo: standings
                .first()
                .map(|s| s.wld.elo())
                .unwrap_or_else(|| Wld::default().elo()),
            llr,
        });
    }
    Summary {
        standings,
        counted,
        unfinished,
        penta: paired.then_some(penta),
        terminations,
        series,
        sprt,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(number: usize, white: &str, black: &str, result: &str) -> Scored {
        Scored {
            number,
            white: white.into(),
            black: black.into(),
            result: result.into(),
            termination: "normal".into(),
        }
    }

    #[test]
    fn standings_pairs_and_series() {
        let names = ["A".to_string(), "B".to_string()];
        // Pair 0: A wins as White, draws as Black (3 half points); pair 1: finished out of
        // order, A loses both (0); game 5 alone, unfinished game 6.
        let games = [
            game(1, "A", "B", "1-0"),
            game(2, "B", "A", "1/2-1/2"),
            game(4, "B", "A", "1-0"),
            game(3, "A", "B", "0-1"),
            game(5, "A", "B", "1/2-1/2"),
            game(6, "B", "A", "*"),
        ];
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let s = summarize(&names, &games, Some(sprt));
        assert_eq!(s.counted, 5);
        assert_eq!(s.unfinished, 1);
        let a = s.standings[0].wld;
        assert_eq!((a.wins, a.losses, a.draws), (1, 2, 2));
        let b = s.standings[1].wld;
        assert_eq!((b.wins, b.losses, b.draws), (2, 1, 2));
        assert_eq!(s.standings[0].half_points(), 4);
        assert_eq!(s.penta, Some(Penta([1, 0, 0, 1, 0])));
        assert_eq!(s.series.len(), 5);
        assert_eq!(s.series[0].llr, 0.0);
        assert_eq!(s.series[1].llr, sprt.llr(&Penta([0, 0, 0, 1, 0])));
        assert_eq!(s.series[4].llr, sprt.llr(&Penta([1, 0, 0, 1, 0])));
        assert_eq!(s.series[4].elo, a.elo());
        assert_eq!(s.terminations.get("normal"), Some(&5));
    }

    #[test]
    fn games_without_swapped_colours_have_no_pairs() {
        let names = ["A".to_string(), "B".to_string()];
        let games = [game(1, "A", "B", "1-0"), game(2, "A", "B", "1-0")];
        let s = summarize(&names, &games, None);
        assert_eq!(s.penta, None);
        assert_eq!(s.standings[0].wld.wins, 2);
        // Three engines: standings for each, no pairs.
        let games = [game(1, "A", "B", "1-0"), game(2, "C", "A", "0-1")];
        let s = summarize(&[], &games, None);
        let names: Vec<&str> = s.standings.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "C"]);
        assert_eq!(s.standings[0].wld.wins, 2);
        assert_eq!(s.standings[2].wld.losses, 1);
        assert_eq!(s.penta, None);
    }
}
