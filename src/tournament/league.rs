//! Tournaments of more than two engines (`-tournament round-robin|gauntlet`): the pairings,
//! each played as a match of two engines by the one match runner ([`super::run`]), one
//! pairing after the other, and at the end the standings (points, Elo with error bars per
//! engine from its score against the field) and the head-to-head table.
//!
//! A round robin pairs every engine with every other, a gauntlet the first engine with each
//! of the others. Every pairing plays `--games × --rounds` games from the openings (under
//! `policy=round` the same openings for every pairing, under `policy=default` each pairing the
//! next ones of the file), colours swapped within each pair of games as in a match. With
//! `--report` the page of [`super::html::tournament`] is written as the pairings end.

/// A line on stdout that a closed pipe ends quietly ([`crate::limits::print_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        crate::limits::print_line(format_args!($($arg)*))
    };
}

use super::cli::{Config, Tournament};
use super::error::MatchError;
use super::html::tournament::TournamentReport;
use super::report;
use super::stats::Wld;
use crate::game::Game;

/// The pairings of `n` engines, as (first, second) indices, in playing order.
pub fn pairings(kind: Tournament, n: usize) -> Vec<(usize, usize)> {
    match kind {
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    }
}

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    /// Its wins, losses and draws against every opponent.
    pub wld: Wld,
}

/// The results so far: per engine, and per pairing.
#[derive(Clone, Debug, Default)]
pub struct Table {
    pub engines: Vec<Standing>,
    /// (first, second, the first's wins, losses and draws) of every pairing played.
    pub pairs: Vec<(usize, usize, Wld)>,
}

impl Table {
    /// A table of the engines named `names`, nothing played.
    pub fn new(names: Vec<String>) -> Table {
        Table {
            engines: names
                .into_iter()
                .map(|name| Standing {
                    name,
                    wld: Wld::default(),
                })
                .collect(),
            pairs: Vec::new(),
        }
    }

    /// The pairing of engines `a` and `b` ended with `wld` for `a`.
    pub fn add(&mut self, a: usize, b: usize, wld: Wld) {
        let e = &mut self.engines[a].wld;
        e.wins += wld.wins;
        e.losses += wld.losses;
        e.draws += wld.draws;
        let e = &mut self.engines[b].wld;
        e.wins += wld.losses;
        e.losses += wld.wins;
        e.draws += wld.draws;
        self.pairs.push((a, b, wld));
    }

    /// The standings, best first (points, then fewer games, then the order given): `Rank Name
    /// Elo +/- Games Points Score Draw` as cutechess prints them, the Elo of each engine from
    /// its score against its opponents, with its 95 % error bar.
    pub fn standings(&self) -> String {
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        let points = |w: &Wld| w.wins as f64 + w.draws as f64 / 2.0;
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.engines[a].wld, &self.engines[b].wld);
            points(y)
                .total_cmp(&points(x))
                .then(x.games().cmp(&y.games()))
                .then(a.cmp(&b))
        });
        let width = self
            .engines
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>7} {:>7}\n",
            "Rank", "Name", "Elo", "+/-", "Games", "Points", "Score", "Draw"
        );
        for (rank, &i) in order.iter().enumerate() {
            let e = &self.engines[i];
            let w = &e.wld;
            let estimate = w.elo();
            let draw = if w.games() > 0 {
                100.0 * w.draws as f64 / w.games() as f64
            } else {
                0.0
            };
            out.push_str(&format!(
                "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7.1} {:>6.1}% {:>6.1}%\n",
                rank + 1,
                e.name,
                report::elo_text(estimate.elo),
                report::error_text(estimate.error),
                w.games(),
                points(w),
                100.0 * w.score(),
                draw
            ));
        }
        out
    }

    /// Head to head: `A vs B: W - L - D [score]` for every pairing, in playing order.
    pub fn head_to_head(&self) -> String {
        self.pairs
            .iter()
            .map(|&(a, b, w)| {
                format!(
                    "{} vs {}: {} - {} - {}  [{:.3}] {}\n",
                    self.engines[a].name,
                    self.engines[b].name,
                    w.wins,
                    w.losses,
                    w.draws,
                    w.score(),
                    w.games()
                )
            })
            .collect()
    }
}

/// Plays the tournament of `cfg`'s engines in game `G`: each pairing as a match, then the
/// standings and the head-to-head table.
pub fn run<G: Game>(cfg: &Config, kind: Tournament) -> Result<(), MatchError> {
    let pairs = pairings(kind, cfg.engines.len());
    let label = match kind {
        Tournament::RoundRobin => "round robin",
        Tournament::Gauntlet => "gauntlet",
    };
    say!(
        "Tournament ({label}) of {} engines: {} pairings of {} games",
        cfg.engines.len(),
        pairs.len(),
        cfg.total_games()
    );
    let page = TournamentReport::start::<G>(cfg, label, pairs.len() * cfg.total_games())?;
    let mut names: Vec<Option<String>> = vec![None; cfg.engines.len()];
    let mut played = Vec::new();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let mut pairing = cfg.clone();
        pairing.engines = vec![cfg.engines[a].clone(), cfg.engines[b].clone()];
        if let Some(page) = &page {
            pairing.report = None;
            pairing.pgn = Some(page.pgn_path());
        }
        if let Some(f) = pairing.openings.as_mut()
            && !f.same_per_round
        {
            f.offset = k * cfg.total_games().div_ceil(2);
        }
        let (pair_names, wld) = super::run::<G>(&pairing)?;
        for (i, name) in [(a, &pair_names[0]), (b, &pair_names[1])] {
            names[i].get_or_insert_with(|| name.trim_end_matches(" (2)").to_string());
        }
        played.push((a, b, wld));
        if let Some(page) = &page {
            page.pairing_done()?;
        }
    }
    let names = distinct(names.into_iter().flatten().collect());
    let mut table = Table::new(names);
    for (a, b, wld) in played {
        table.add(a, b, wld);
    }
    say!(
        "Standings ({label}, {} games each pairing):",
        cfg.total_games()
    );
    say!("{}", table.standings().trim_end_matches('\n'));
    say!("Head to head:");
    say!("{}", table.head_to_head().trim_end_matches('\n'));
    say!("Finished tournament");
    Ok(page.map_or(Ok(()), TournamentReport::finish)?)
}

/// `names` with a repeated name numbered (`kiebitz (2)`), so the table tells them apart.
fn distinct(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let same = out
            .iter()
            .filter(|n| **n == name || n.starts_with(&format!("{name} (")))
            .count();
        out.push(if same == 0 {
            name
        } else {
            format!("{name} ({})", same + 1)
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wld(wins: u64, losses: u64, draws: u64) -> Wld {
        Wld {
            wins,
            losses,
            draws,
        }
    }

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        assert_eq!(
            pairings(Tournament::RoundRobin, 4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(Tournament::Gauntlet, 4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(Tournament::RoundRobin, 2), [(0, 1)]);
    }

    #[test]
    fn standings_add_up_both_sides_and_rank_by_points() {
        let mut t = Table::new(vec!["A".into(), "B".into(), "C".into()]);
        t.add(0, 1, wld(1, 2, 1));
        t.add(0, 2, wld(3, 0, 1));
        t.add(1, 2, wld(2, 2, 0));
        assert_eq!(t.engines[0].wld, wld(4, 2, 2));
        assert_eq!(t.engines[1].wld, wld(4, 3, 1));
        assert_eq!(t.engines[2].wld, wld(2, 5, 1));
        let s = t.standings();
        let lines: Vec<&str> = s.lines().collect();
        assert!(lines[0].starts_with("Rank Name"), "{s}");
        // A and B both have 5 points in 8 games; A was named first.
        assert!(lines[1].starts_with("   1 A "), "{s}");
        assert!(lines[2].starts_with("   2 B "), "{s}");
        assert!(lines[3].starts_with("   3 C "), "{s}");
        assert!(
            lines[3].contains("2.5") && lines[3].contains("31.2%"),
            "{s}"
        );
        assert_eq!(
            t.head_to_head().lines().next(),
            Some("A vs B: 1 - 2 - 1  [0.375] 4")
        );
    }

    #[test]
    fn repeated_names_are_numbered() {
        assert_eq!(
            distinct(vec!["k".into(), "s".into(), "k".into()]),
            ["k", "s", "k (2)"]
        );
    }
}
