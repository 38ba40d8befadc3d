//! Records of N-seat games (PGN-like: seat tags, the moves by round, a result per seat) and
//! the results table per engine (wins, draws, losses, win rate with a 95 % interval, depth
//! and nodes). Depends on `nsearch::game` (seat results) only.

use crate::nsearch::game::SeatResult;

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub number: usize,
    /// Engine index per seat slot (`None`: the seat does not play).
    pub seating: Vec<Option<usize>>,
    pub seat_names: Vec<&'static str>,
    pub engine_names: Vec<String>,
    pub start: String,
    /// Opening turns played at random before the engines took over.
    pub opening: usize,
    pub moves: Vec<String>,
    pub results: Vec<SeatResult>,
    pub termination: String,
    /// Per seat: depth and nodes of every engine move.
    pub depths: Vec<Vec<u32>>,
    pub nodes: Vec<Vec<u64>>,
}

impl GameRecord {
    /// The record as text: tags, then the moves (a number per round of seats), then a blank
    /// line.
    pub fn text(&self, players: usize) -> String {
        let mut s = String::new();
        s.push_str("[Event \"kiebitz-match chamaeleon\"]\n");
        s.push_str(&format!("[Game \"{}\"]\n", self.number));
        s.push_str(&format!("[Players \"{players}\"]\n"));
        for (seat, e) in self.seating.iter().enumerate() {
            if let Some(e) = e {
                s.push_str(&format!(
                    "[{} \"{}\"]\n",
                    self.seat_names[seat], self.engine_names[*e]
                ));
            }
        }
        s.push_str(&format!("[Start \"{}\"]\n", self.start));
        s.push_str(&format!("[Opening \"{} random turns\"]\n", self.opening));
        for (seat, e) in self.seating.iter().enumerate() {
            if e.is_some() {
                s.push_str(&format!(
                    "[{}Result \"{}\"]\n",
                    self.seat_names[seat],
                    self.results[seat].word()
                ));
            }
        }
        for (seat, e) in self.seating.iter().enumerate() {
            if e.is_some() {
                let d: Vec<String> = self.depths[seat].iter().map(|x| x.to_string()).collect();
                let n: Vec<String> = self.nodes[seat].iter().map(|x| x.to_string()).collect();
                s.push_str(&format!(
                    "[{}Depths \"{}\"]\n",
                    self.seat_names[seat],
                    d.join(" ")
                ));
                s.push_str(&format!(
                    "[{}Nodes \"{}\"]\n",
                    self.seat_names[seat],
                    n.join(" ")
                ));
            }
        }
        s.push_str(&format!("[Termination \"{}\"]\n\n", self.termination));
        let mut line = String::new();
        for (i, m) in self.moves.iter().enumerate() {
            if i % players == 0 {
                line.push_str(&format!("{}. ", i / players + 1));
            }
            line.push_str(m);
            line.push(' ');
            if line.len() > 80 {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
        }
        let result: Vec<String> = self
            .seating
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_some())
            .map(|(seat, _)| {
                format!(
                    "{}:{}",
                    &self.seat_names[seat][..1],
                    self.results[seat].word()
                )
            })
            .collect();
        line.push_str(&format!("{{{}}}", result.join(" ")));
        s.push_str(&line);
        s.push_str("\n\n");
        s
    }
}

/// Totals of one engine.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub depths: Vec<u32>,
    pub nodes: u64,
    pub moves: u64,
}

impl Tally {
    /// The share of games won and its 95 % Wilson interval.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        wilson(self.wins, self.games)
    }

    pub fn mean_depth(&self) -> f64 {
        if self.depths.is_empty() {
            return 0.0;
        }
        self.depths.iter().map(|&d| d as f64).sum::<f64>() / self.depths.len() as f64
    }

    pub fn median_depth(&self) -> f64 {
        median(&self.depths)
    }
}

/// The median of `xs` (the mean of the middle two for an even count).
pub fn median(xs: &[u32]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
    }
}

/// A proportion `k / n` with its 95 % Wilson score interval.
pub fn wilson(k: usize, n: usize) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.959_964);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (p, (c - h).max(0.0), (c + h).min(1.0))
}

/// Adds a game to the tallies (one per engine).
pub fn tally(tallies: &mut [Tally], g: &GameRecord) {
    for (seat, e) in g.seating.iter().enumerate() {
        let Some(e) = *e else { continue };
        let t = &mut tallies[e];
        t.games += 1;
        match g.results[seat] {
            SeatResult::Win => t.wins += 1,
            SeatResult::Draw => t.draws += 1,
            _ => t.losses += 1,
        }
        t.depths.extend(&g.depths[seat]);
        t.nodes += g.nodes[seat].iter().sum::<u64>();
        t.moves += g.nodes[seat].len() as u64;
    }
}

/// The results table: one row per engine.
pub fn table(names: &[String], tallies: &[Tally]) -> String {
    let mut s = format!(
        "{:<12} {:>5} {:>5} {:>5} {:>6}  {:<22} {:>6} {:>6} {:>12}\n",
        "Engine",
        "Games",
        "Wins",
        "Draws",
        "Losses",
        "Win rate (95 % CI)",
        "Depth",
        "Median",
        "Nodes/move"
    );
    for (name, t) in names.iter().zip(tallies) {
        let (p, lo, hi) = t.win_rate();
        s.push_str(&format!(
            "{:<12} {:>5} {:>5} {:>5} {:>6}  {:<22} {:>6.2} {:>6.1} {:>12.0}\n",
            name,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            format!("{:.1} % [{:.1}, {:.1}]", 100.0 * p, 100.0 * lo, 100.0 * hi),
            t.mean_depth(),
            t.median_depth(),
            t.nodes as f64 / t.moves.max(1) as f64
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_and_median() {
        let (p, lo, hi) = wilson(10, 24);
        assert!((p - 0.4167).abs() < 1e-3);
        assert!(
            (lo - 0.245).abs() < 1e-2 && (hi - 0.612).abs() < 1e-2,
            "{lo} {hi}"
        );
        assert_eq!(median(&[4, 1, 3]), 3.0);
        assert_eq!(median(&[4, 1, 3, 5]), 3.5);
    }
}
