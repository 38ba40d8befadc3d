//! What kiebitz-match prints about a match, in the manner of fastchess and cutechess: the
//! match line, `Started game N of M`, and at the end a results table (per engine: games,
//! wins/losses/draws, points, Elo ± 95 % error, and the same by colour) with the games'
//! terminations by kind. Numbers stay clean in degenerate cases: `+inf` / `-inf` for a score of
//! 100 % / 0 %, `n/a` for an error bar that does not exist (never `NaN`).
//!
//! Depends on [`super::stats`] and [`super::referee`]'s game records.

use std::collections::BTreeMap;

use crate::board::Color;
use crate::game::Outcome;

use super::referee::GameRecord;
use super::stats::Wld;

/// An Elo difference for printing: `+12.3`, `-4.0`, `0.0`, `+inf`, `-inf`.
pub fn elo_text(elo: f64) -> String {
    if elo.is_nan() {
        "n/a".into()
    } else if elo == f64::INFINITY {
        "+inf".into()
    } else if elo == f64::NEG_INFINITY {
        "-inf".into()
    } else if elo.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{elo:+.1}")
    }
}

/// An error bar for printing: `45.2`, or `n/a` when there is none (too few games, or a score
/// of 0 % or 100 %).
pub fn error_text(error: f64) -> String {
    if error.is_finite() {
        format!("{error:.1}")
    } else {
        "n/a".into()
    }
}

/// `Elo ± error` of a tally, e.g. `+35.2 +/- 60.1` or `+inf +/- n/a`.
pub fn elo_pm(wld: &Wld) -> String {
    let e = wld.elo();
    format!("{} +/- {}", elo_text(e.elo), error_text(e.error))
}

/// Everything the final table needs, collected game by game.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// `by_colour[engine][colour]`: the engine's results when it had that colour.
    pub by_colour: [[Wld; 2]; 2],
    /// Games by termination (`normal`, `adjudication`, `time forfeit`, …).
    pub terminations: BTreeMap<&'static str, u64>,
}

impl Results {
    /// Adds one finished game; `first_white`: the first engine had White.
    pub fn add(&mut self, record: &GameRecord, first_white: bool) {
        for engine in 0..2 {
            let white = (engine == 0) == first_white;
            let colour = if white { Color::White } else { Color::Black };
            let wld = &mut self.by_colour[engine][colour.index()];
            match record.outcome {
                Outcome::Draw => wld.draws += 1,
                Outcome::Win(c) if c == colour => wld.wins += 1,
                Outcome::Win(_) => wld.losses += 1,
            }
        }
        *self
            .terminations
            .entry(record.termination.tag())
            .or_default() += 1;
    }

    /// One engine's results over both colours.
    pub fn total(&self, engine: usize) -> Wld {
        let [w, b] = self.by_colour[engine];
        Wld {
            wins: w.wins + b.wins,
            losses: w.losses + b.losses,
            draws: w.draws + b.draws,
        }
    }

    /// The results table, one line per engine, then one per colour, then the terminations.
    pub fn table(&self, names: &[String]) -> String {
        let width = names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let mut out = format!(
            "{:<width$}  {:>5} {:>5} {:>5} {:>5} {:>7} {:>7}  {:<20}  {:<14}  {:<14}\n",
            "Engine",
            "Games",
            "Wins",
            "Loss",
            "Draw",
            "Points",
            "Score",
            "Elo (95 %)",
            "As White",
            "As Black"
        );
        for (engine, name) in names.iter().enumerate().take(2) {
            let t = self.total(engine);
            let colour = |c: Color| {
                let w = self.by_colour[engine][c.index()];
                format!("{}-{}-{} ({})", w.wins, w.losses, w.draws, points(&w))
            };
            out.push_str(&format!(
                "{:<width$}  {:>5} {:>5} {:>5} {:>5} {:>7} {:>6.1}%  {:<20}  {:<14}  {:<14}\n",
                name,
                t.games(),
                t.wins,
                t.losses,
                t.draws,
                points(&t),
                100.0 * t.score(),
                elo_pm(&t),
                colour(Color::White),
                colour(Color::Black),
            ));
        }
        let kinds: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let kinds = if kinds.is_empty() {
            "none".to_string()
        } else {
            kinds.join(", ")
        };
        out.push_str(&format!("Terminations: {kinds}\n"));
        out.lines().map(|l| format!("{}\n", l.trim_end())).collect()
    }
}

/// Points of a tally as `3.5`.
fn points(w: &Wld) -> String {
    let halves = 2 * w.wins + w.draws;
    if halves.is_multiple_of(2) {
        format!("{}", halves / 2)
    } else {
        format!("{}.5", halves / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::referee::Termination;

    fn record(outcome: Outcome, termination: Termination) -> GameRecord {
        GameRecord {
            number: 1,
            pair: 0,
            white: "A".into(),
            black: "B".into(),
            variant: "chess",
            fen: String::new(),
            startpos: true,
            moves: Vec::new(),
            outcome,
            termination,
            reason: String::new(),
            time_controls: ["1+0.01".into(), "1+0.01".into()],
            faulty: [false, false],
            ponder: Default::default(),
        }
    }

    #[test]
    fn degenerate_numbers_are_clean() {
        let all = Wld {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert_eq!(elo_pm(&all), "+inf +/- n/a");
        let none = Wld {
            wins: 0,
            losses: 4,
            draws: 0,
        };
        assert_eq!(elo_pm(&none), "-inf +/- n/a");
        assert_eq!(elo_pm(&Wld::default()), "0.0 +/- n/a");
        let even = Wld {
            wins: 3,
            losses: 3,
            draws: 2,
        };
        let text = elo_pm(&even);
        assert!(text.starts_with("0.0 +/- "), "{text}");
        assert!(!text.contains("NaN") && !text.contains("n/a"), "{text}");
        let one = Wld {
            wins: 1,
            losses: 0,
            draws: 1,
        };
        assert!(elo_pm(&one).starts_with("+190.8 +/- "), "{}", elo_pm(&one));
    }

    #[test]
    fn table_by_engine_colour_and_termination() {
        let mut r = Results::default();
        // Game 1: A (White) wins; game 2: B (White) and A draw on adjudication; game 3: A
        // (White) loses on time; game 4: A (Black) wins.
        r.add(
            &record(Outcome::Win(Color::White), Termination::Normal),
            true,
        );
        r.add(&record(Outcome::Draw, Termination::Adjudication), false);
        r.add(
            &record(Outcome::Win(Color::Black), Termination::TimeForfeit),
            true,
        );
        r.add(
            &record(Outcome::Win(Color::Black), Termination::Normal),
            false,
        );
        let a = r.total(0);
        assert_eq!((a.wins, a.losses, a.draws), (2, 1, 1));
        let b = r.total(1);
        assert_eq!((b.wins, b.losses, b.draws), (1, 2, 1));
        let table = r.table(&["A".into(), "B".into()]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        let a_line: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(
            &a_line[..8],
            ["A", "4", "2", "1", "1", "2.5", "62.5%", "+88.7"]
        );
        assert!(
            lines[1].contains("1-1-0 (1)") && lines[1].contains("1-0-1 (1.5)"),
            "{table}"
        );
        let b_line: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(
            &b_line[..8],
            ["B", "4", "1", "2", "1", "1.5", "37.5%", "-88.7"]
        );
        assert_eq!(
            lines[3],
            "Terminations: adjudication 1, normal 2, time forfeit 1"
        );
        assert!(!table.contains("NaN"));
    }
}
