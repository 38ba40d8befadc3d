//! The column's statements about CRASH! checked against exhaustive databases
//! (`kiebitz-crash theorems`, also a test on small boards):
//!
//! - 1-vs-1: the side to move wins exactly when the gap L is even;
//! - 2-vs-2 with each side's stones together (one tower or adjacent cells) and L ≥ 2: the side
//!   to move loses when the parity p is even and wins when it is odd; how the same rule fares
//!   when stones are apart; whether keeping stones together is never worse (a winning side
//!   with its stones together always has a winning move that keeps them together), with
//!   counterexamples and their optimal lines;
//! - 3-vs-3: for each gap, the share the 2-vs-2 parity rule predicts, and a search among
//!   simple rules (the exclusive-or of parities of p, L, the side to move, each side's towers)
//!   for one that predicts at least 99 %;
//! - the column's example `W2.W1..B3 w`: lost for White, with its optimal line.
//!
//! Depends on [`super::db`] and the position.

use super::db::{Db, DbError};
use crate::board::{Color, MoveList};
use crate::game::Game;
use crate::games::crash::Crash;

/// Counts for one statement: positions looked at, and how many obey it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub positions: u64,
    pub holds: u64,
}

impl Tally {
    fn add(&mut self, ok: bool) {
        self.positions += 1;
        self.holds += u64::from(ok);
    }

    pub fn share(&self) -> f64 {
        if self.positions == 0 {
            100.0
        } else {
            100.0 * self.holds as f64 / self.positions as f64
        }
    }
}

/// Everything `theorems` finds, and the report it prints.
#[derive(Debug, Default)]
pub struct Findings {
    pub one_vs_one: Tally,
    pub together: Tally,
    pub apart: Tally,
    /// 2-vs-2 positions won by a side to move whose stones are together: how many of them
    /// have a winning move that keeps them together.
    pub keep_together: Tally,
    pub keep_together_counterexamples: Vec<String>,
    /// 3-vs-3 positions by gap: the 2-vs-2 parity rule's record.
    pub three_by_gap: Vec<(usize, Tally)>,
    pub three_parity: Tally,
    /// The best simple rule found for 3-vs-3 (gap ≥ 2) and its record.
    pub best_rule: (String, Tally),
    pub example_lost: bool,
    pub example_distance: u8,
    pub report: Vec<String>,
}

/// Whether `c`'s stones stand together: all on consecutive cells (one tower included).
pub fn together(pos: &Crash, c: Color) -> bool {
    let own = |h: i32| if c == Color::White { h > 0 } else { h < 0 };
    let row = pos.row();
    match (
        row.iter().position(|&h| own(h)),
        row.iter().rposition(|&h| own(h)),
    ) {
        (Some(a), Some(b)) => row[a..=b].iter().all(|&h| own(h)),
        _ => true,
    }
}

fn towers(pos: &Crash, c: Color) -> usize {
    pos.row()
        .iter()
        .filter(|&&h| if c == Color::White { h > 0 } else { h < 0 })
        .count()
}

/// Features of the simple rules: each a parity bit.
const FEATURES: [&str; 5] = [
    "p",
    "L",
    "Black to move",
    "White's towers",
    "Black's towers",
];

fn features(pos: &Crash) -> [bool; 5] {
    [
        pos.parity() == 1,
        pos.gap().unwrap_or(0) % 2 == 1,
        pos.side_to_move() == Color::Black,
        towers(pos, Color::White) % 2 == 1,
        towers(pos, Color::Black) % 2 == 1,
    ]
}

/// The optimal line from `pos` as text: `1:1 6:2 …` with the final position.
pub fn line_text(db: &Db, pos: &Crash) -> String {
    match db.line(pos) {
        Some(line) => {
            let moves: Vec<String> = line.iter().map(|(p, mv)| p.move_text(*mv)).collect();
            let end = line
                .last()
                .map(|(p, mv)| p.play(*mv).text())
                .unwrap_or_else(|| pos.text());
            format!("{} → {end}", moves.join(" "))
        }
        None => "(outside the database)".into(),
    }
}

/// Checks every statement on the databases of 3 stones a side for m = 2..=`max_cells`
/// (`log` gets each database's size as it is solved).
pub fn check(max_cells: usize, log: &mut dyn FnMut(&str)) -> Result<Findings, DbError> {
    check_with(max_cells, log, &mut |_, _| {})
}

/// [`check`] that hands `partial` the report of the boards done so far (m = 2..=its first
/// argument) after each board: what an interrupted run can still say.
pub fn check_with(
    max_cells: usize,
    log: &mut dyn FnMut(&str),
    partial: &mut dyn FnMut(usize, &[String]),
) -> Result<Findings, DbError> {
    let mut f = Findings::default();
    let mut by_gap: std::collections::BTreeMap<usize, Tally> = Default::default();
    let mut rules = vec![Tally::default(); 2 << FEATURES.len()];
    // The example's line, once its board (m = 6) is done.
    let mut example = Vec::new();
    for m in 2..=max_cells {
        let (db, s) = super::db::analyze(3, m, true)?;
        log(&format!("m = {m}: {} positions solved", s.positions));
        for i in 0..db.layout.total {
            let pos = db.layout.position(i);
            let d = db.dist[i as usize];
            let wins = d % 2 == 1;
            let (w, b) = (pos.stones(Color::White), pos.stones(Color::Black));
            let gap = pos.gap().expect("both sides on the board");
            let parity_rule = wins == (pos.parity() == 1);
            match (w, b) {
                (1, 1) => f.one_vs_one.add(wins == gap.is_multiple_of(2)),
                (2, 2) if gap >= 2 => {
                    let us = pos.side_to_move();
                    if together(&pos, Color::White) && together(&pos, Color::Black) {
                        f.together.add(parity_rule);
                    } else {
                        f.apart.add(parity_rule);
                    }
                    if together(&pos, us) && wins {
                        let mut moves = MoveList::new();
                        pos.legal_moves(&mut moves);
                        let keeps = moves.iter().any(|&mv| {
                            let next = pos.play(mv);
                            db.distance(&next).is_some_and(|e| e.is_multiple_of(2))
                                && together(&next, us)
                        });
                        f.keep_together.add(keeps);
                        if !keeps && f.keep_together_counterexamples.len() < 3 {
                            f.keep_together_counterexamples.push(format!(
                                "{} (win in {d}): {}",
                                pos.text(),
                                line_text(&db, &pos)
                            ));
                        }
                    }
                }
                (3, 3) => {
                    by_gap.entry(gap).or_default().add(parity_rule);
                    if gap >= 2 {
                        f.three_parity.add(parity_rule);
                        let x = features(&pos);
                        for (r, tally) in rules.iter_mut().enumerate() {
                            let mut predict = r & 1 == 1;
                            for (k, &bit) in x.iter().enumerate() {
                                if r >> (k + 1) & 1 == 1 {
                                    predict ^= bit;
                                }
                            }
                            tally.add(predict == wins);
                        }
                    }
                }
                _ => {}
            }
        }
        if m == 6 {
            let ex = Crash::parse("W2.W1..B3 w").expect("the column's example");
            let d = db.distance(&ex).expect("covered");
            f.example_lost = d.is_multiple_of(2);
            f.example_distance = d;
            example.push(format!(
                "Example W2.W1..B3 w: {} for White in {d} plies; optimal line: {}",
                if d.is_multiple_of(2) { "lost" } else { "won" },
                line_text(&db, &ex)
            ));
        }
        f.three_by_gap = by_gap.iter().map(|(g, t)| (*g, *t)).collect();
        f.best_rule = best_rule(&rules);
        f.report = report(&f, m, rules.len(), &example);
        partial(m, &f.report);
    }
    Ok(f)
}

/// The best of the simple `rules` (indexed by their feature bits) and its record.
fn best_rule(rules: &[Tally]) -> (String, Tally) {
    let name = |r: usize| {
        let mut parts: Vec<&str> = (0..FEATURES.len())
            .filter(|k| r >> (k + 1) & 1 == 1)
            .map(|k| FEATURES[k])
            .collect();
        if parts.is_empty() {
            parts.push("nothing");
        }
        format!(
            "the mover wins iff parity({}) is {}",
            parts.join(" + "),
            if r & 1 == 1 { "even" } else { "odd" }
        )
    };
    let (best, tally) = rules
        .iter()
        .enumerate()
        .max_by_key(|(_, t)| t.holds)
        .map(|(r, t)| (r, *t))
        .expect("rules");
    (name(best), tally)
}

/// The report of findings `f` over the boards m = 2..=`max_cells` (`rules` simple rules
/// tried), the `example` line last.
fn report(f: &Findings, max_cells: usize, rules: usize, example: &[String]) -> Vec<String> {
    let mut r = vec![format!(
        "Databases: 1 to 3 stones a side, m = 2..{max_cells} cells, either side to move."
    )];
    let t = |t: &Tally| format!("{} of {} ({:.2} %)", t.holds, t.positions, t.share());
    r.push(format!(
        "1-vs-1: the side to move wins exactly when the gap L is even: {}",
        t(&f.one_vs_one)
    ));
    r.push(format!(
        "2-vs-2, stones together, L ≥ 2: the mover loses when p is even, wins when odd: {}",
        t(&f.together)
    ));
    r.push(format!(
        "2-vs-2, some stones apart, L ≥ 2: the same rule holds in {}",
        t(&f.apart)
    ));
    r.push(format!(
        "2-vs-2, a won position with the mover's stones together has a winning move keeping them together: {}",
        t(&f.keep_together)
    ));
    for c in &f.keep_together_counterexamples {
        r.push(format!("  counterexample: {c}"));
    }
    r.push(format!(
        "3-vs-3, L ≥ 2: the 2-vs-2 parity rule predicts {}",
        t(&f.three_parity)
    ));
    for (gap, tally) in &f.three_by_gap {
        r.push(format!("  gap {gap:>2}: {}", t(tally)));
    }
    r.push(format!(
        "3-vs-3, L ≥ 2, best simple rule ({rules} tried): {}: {}{}",
        f.best_rule.0,
        t(&f.best_rule.1),
        if f.best_rule.1.share() >= 99.0 {
            " — at least 99 %"
        } else {
            " — none reaches 99 %"
        }
    ));
    // The example line goes last.
    r.extend(example.iter().cloned());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_column_on_small_boards() {
        let f = check(9, &mut |_| {}).unwrap();
        // 1-vs-1 on m cells: (m−1)·m/2 placements… both sides to move; all obey the rule.
        assert!(f.one_vs_one.positions > 0);
        assert_eq!(f.one_vs_one.holds, f.one_vs_one.positions);
        assert!(f.together.positions > 0);
        assert!(f.example_lost, "W2.W1..B3 w must be lost for White");
        assert_eq!(f.example_distance % 2, 0);
        assert!(f.three_parity.positions > 0);
        assert!(
            f.report
                .iter()
                .any(|l| l.starts_with("Example W2.W1..B3 w: lost"))
        );
    }

    #[test]
    fn together_means_consecutive_cells() {
        let p = |t: &str| Crash::parse(t).unwrap();
        assert!(together(&p("W2...B1B1 w"), Color::White));
        assert!(together(&p("W2...B1B1 w"), Color::Black));
        assert!(!together(&p("W1.W1..B2 w"), Color::White));
        assert!(together(&p("W1W1..B2 w"), Color::White));
    }
}
