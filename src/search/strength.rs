//! Strength levels (UCI `UCI_LimitStrength` + `UCI_Elo`, `Skill Level`): a weaker player made
//! the way strong engines make one, by a smaller search and a random choice among the moves
//! that search found nearly best, never by a move the search saw as a blunder.
//!
//! A level is an Elo number. [`Strength::plan`] turns it into
//! - a node budget per move (the search's depth and tactics shrink with it; a node budget
//!   rather than a time keeps the level the same on every machine and at every time control),
//! - several principal variations (four at the weak levels, fewer towards the strong ones,
//!   one at the top: each line costs the search nodes), whose scores the choice weighs,
//! - a temperature: line i is chosen with weight `exp((score_i - best) / T)`,
//! - a margin: lines more than `margin` centipawns below the best are never chosen, nor a line
//!   that walks into a forced loss when the best does not.
//!
//! The plan comes from a table of calibration points ([`CALIBRATION`]) interpolated
//! log-linearly between them; docs/strength.md says how each point was measured against
//! Stockfish 15.1 at the same `UCI_Elo`. At [`FULL_ELO`] and above the search is not limited.
//! `Skill Level` 0–20 is a ladder of its own ([`SKILL_LADDER`], the table before `UCI_Elo`
//! reached above 2000), 20 being full strength: its rungs are calibrated in other units for
//! the games without an Elo anchor, so the Elo scale can grow without moving them.

use crate::board::Move;
use crate::rng::Rng;
use crate::search::{Info, MATE, Score};

/// The most principal variations a limited search weighs (the weak levels').
pub const LINES: usize = 4;
/// The weakest level offered.
pub const MIN_ELO: u32 = 1350;
/// From this level up the search is not limited (full strength).
pub const FULL_ELO: u32 = 2400;
/// `Skill Level`'s range: 0 is [`MIN_ELO`], [`MAX_SKILL`] full strength.
pub const MAX_SKILL: u32 = 20;
/// The top of the `Skill Level` ladder's scale: [`MAX_SKILL`] (full strength).
pub const SKILL_TOP: u32 = 2000;

/// One calibration point: at `elo`, search `nodes` per move with `lines` principal
/// variations and choose among them with this temperature and margin (centipawns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub elo: u32,
    pub nodes: u64,
    pub lines: usize,
    pub temperature: f64,
    pub margin: i32,
}

/// The calibration points of `UCI_Elo`, weakest first (docs/strength.md: the matches that set
/// them). The last is full strength; its node budget only shapes the interpolation below it.
pub const CALIBRATION: [Point; 4] = [
    Point {
        elo: MIN_ELO,
        nodes: 3_000,
        lines: LINES,
        temperature: 40.0,
        margin: 150,
    },
    Point {
        elo: 1800,
        nodes: 40_000,
        lines: LINES,
        temperature: 15.0,
        margin: 60,
    },
    Point {
        elo: 2200,
        nodes: 750_000,
        lines: 1,
        temperature: 0.0,
        margin: 0,
    },
    Point {
        elo: FULL_ELO,
        nodes: 4_000_000,
        lines: 1,
        temperature: 0.0,
        margin: 0,
    },
];

/// The `Skill Level` ladder: the Elo table as it was calibrated up to 2000 (its top then full
/// strength), kept for the rungs that Räuberschach's and pawn chess's matches calibrated.
pub const SKILL_LADDER: [Point; 3] = [
    CALIBRATION[0],
    CALIBRATION[1],
    Point {
        elo: SKILL_TOP,
        nodes: 400_000,
        lines: LINES,
        temperature: 0.0,
        margin: 0,
    },
];

/// A strength level: its place on a scale, the scale, and the random choices it draws.
#[derive(Clone, Debug)]
pub struct Strength {
    elo: u32,
    scale: &'static [Point],
    rng: Rng,
}

impl Strength {
    /// The level of `elo` (clamped to [`MIN_ELO`]…[`FULL_ELO`]), choices drawn from `rng`.
    pub fn from_elo(elo: u32, rng: Rng) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, FULL_ELO),
            scale: &CALIBRATION,
            rng,
        }
    }

    /// The level of `Skill Level` `skill` (0…[`MAX_SKILL`]), on the ladder's scale.
    pub fn from_skill(skill: u32, rng: Rng) -> Strength {
        Strength {
            elo: skill_elo(skill),
            scale: &SKILL_LADDER,
            rng,
        }
    }

    /// The level's number on its scale (a `Skill Level`'s on [`SKILL_LADDER`]'s).
    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// Whether this level limits anything (below its scale's top, full strength).
    pub fn limits(&self) -> bool {
        self.elo < top(self.scale).elo
    }

    /// The node budget, lines, temperature and margin of this level.
    pub fn plan(&self) -> Point {
        interpolate(self.scale, self.elo)
    }

    /// Chooses among the lines a search reported (`infos`, in the order they came): those of
    /// the deepest iteration that reported all its lines (a search cut short by the node
    /// budget leaves its last iteration unfinished, with bounds rather than scores). `None`
    /// at temperature 0: there is nothing to choose, and the search's own move stands (its
    /// last, unfinished iteration may have changed it after the last complete set of lines).
    pub fn choose(&mut self, infos: &[Info]) -> Option<(Move, Info)> {
        let plan = self.plan();
        if plan.temperature <= 0.0 {
            return None;
        }
        let lines_at = |depth: u32| {
            let mut lines: Vec<&Info> = Vec::new();
            for info in infos
                .iter()
                .filter(|i| i.depth == depth && !i.pv.is_empty())
            {
                match lines.iter_mut().find(|l| l.multipv == info.multipv) {
                    Some(line) => *line = info,
                    None => lines.push(info),
                }
            }
            lines
        };
        let most = infos.iter().map(|i| i.multipv).max()?;
        let depth = infos
            .iter()
            .map(|i| i.depth)
            .filter(|&d| lines_at(d).len() == most as usize)
            .max()?;
        let lines = lines_at(depth);
        let values: Vec<i32> = lines.iter().map(|l| value(l.score)).collect();
        let pick = pick(&values, plan.temperature, plan.margin, &mut self.rng)?;
        Some((lines[pick].pv[0], lines[pick].clone()))
    }
}

/// The place of `Skill Level` `skill` on [`SKILL_LADDER`]'s scale: linear from [`MIN_ELO`]
/// (0) to [`SKILL_TOP`] (20).
pub fn skill_elo(skill: u32) -> u32 {
    MIN_ELO + (SKILL_TOP - MIN_ELO) * skill.min(MAX_SKILL) / MAX_SKILL
}

/// The plan of `UCI_Elo` `elo`: [`CALIBRATION`] interpolated, node budgets log-linearly.
pub fn plan(elo: u32) -> Point {
    interpolate(&CALIBRATION, elo)
}

/// The plan of `Skill Level` `skill`: [`SKILL_LADDER`] interpolated.
pub fn skill_plan(skill: u32) -> Point {
    interpolate(&SKILL_LADDER, skill_elo(skill))
}

fn top(scale: &[Point]) -> Point {
    scale[scale.len() - 1]
}

/// The point at `elo` of `scale` (clamped to its ends), node budgets log-linearly.
fn interpolate(scale: &[Point], elo: u32) -> Point {
    let elo = elo.clamp(scale[0].elo, top(scale).elo);
    let i = scale
        .windows(2)
        .position(|w| elo <= w[1].elo)
        .unwrap_or(scale.len() - 2);
    let (a, b) = (scale[i], scale[i + 1]);
    let t = f64::from(elo - a.elo) / f64::from(b.elo - a.elo);
    let nodes = ((a.nodes as f64).ln() * (1.0 - t) + (b.nodes as f64).ln() * t).exp();
    Point {
        elo,
        nodes: nodes.round() as u64,
        lines: (a.lines as f64 * (1.0 - t) + b.lines as f64 * t).round() as usize,
        temperature: a.temperature * (1.0 - t) + b.temperature * t,
        margin: (f64::from(a.margin) * (1.0 - t) + f64::from(b.margin) * t).round() as i32,
    }
}

/// A score as a number that orders like the score: mates beyond every evaluation, the
/// nearer the better.
fn value(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(m) if m > 0 => MATE - m,
        Score::Mate(m) => -MATE - m,
    }
}

/// The index of the chosen value: the best with temperature 0, otherwise drawn with weight
/// `exp((v - best) / temperature)` among the values within `margin` of the best; a forced
/// loss is chosen only when the best is one too. `None` for no values.
pub fn pick(values: &[i32], temperature: f64, margin: i32, rng: &mut Rng) -> Option<usize> {
    let (best_index, &best) = values
        .iter()
        .enumerate()
        .max_by_key(|&(i, v)| (*v, -(i as i64)))?;
    if temperature <= 0.0 {
        return Some(best_index);
    }
    let lost = |v: i32| v <= -MATE_LIMIT;
    let allowed = |v: i32| v >= best.saturating_sub(margin) && (!lost(v) || lost(best));
    let weights: Vec<f64> = values
        .iter()
        .map(|&v| {
            if allowed(v) {
                (f64::from(v - best) / temperature).exp()
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if *w > 0.0 && x < *w {
            return Some(i);
        }
        x -= w;
    }
    Some(best_index)
}

/// Scores at or beyond this are forced game ends.
const MATE_LIMIT: i32 = MATE - 1000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_interpolate_between_calibration_points() {
        assert_eq!(plan(0), CALIBRATION[0]);
        assert_eq!(plan(CALIBRATION[1].elo), CALIBRATION[1]);
        assert_eq!(plan(99_999), CALIBRATION[CALIBRATION.len() - 1]);
        let (a, b) = (CALIBRATION[0], CALIBRATION[1]);
        let mid = plan((a.elo + b.elo) / 2);
        // Log-linear: the geometric mean of the neighbours halfway.
        let mean = (a.nodes as f64 * b.nodes as f64).sqrt();
        assert!((mid.nodes as f64 - mean).abs() < 2.0, "{mid:?}");
        assert_eq!(mid.temperature, (a.temperature + b.temperature) / 2.0);
        // The strong levels weigh fewer lines, the top ones none but the best.
        assert_eq!(
            (plan(1800).lines, plan(2000).lines, plan(2200).lines),
            (4, 3, 1)
        );
        assert_eq!(plan(2200).temperature, 0.0);
        for w in CALIBRATION.windows(2) {
            assert!(w[0].elo < w[1].elo && w[0].nodes < w[1].nodes);
        }
        assert_eq!(skill_elo(0), MIN_ELO);
        assert_eq!(skill_elo(20), SKILL_TOP);
        assert_eq!(skill_elo(99), SKILL_TOP);
        // The ladder is the Elo table below 2000 as it was: its rungs keep their budgets.
        assert_eq!(skill_plan(0), CALIBRATION[0]);
        assert_eq!(skill_plan(10).nodes, 19_479);
        assert_eq!(skill_plan(18).nodes, 189_261);
        assert!(!Strength::from_skill(20, Rng::new(1)).limits());
        assert!(Strength::from_skill(19, Rng::new(1)).limits());
        assert!(Strength::from_elo(2399, Rng::new(1)).limits());
        assert!(!Strength::from_elo(FULL_ELO, Rng::new(1)).limits());
    }

    /// The searcher at a level: within its node budget, several different moves over many
    /// searches of one position (one at full strength), and never a move into a mate in one
    /// that the budget sees.
    #[test]
    fn a_level_searches_its_budget_and_varies_its_moves() {
        use crate::game::Game;
        use crate::games::chess::Chess;
        use crate::search::{Control, Limits, Searcher};
        let start = Chess::startpos("chess").unwrap();
        let control = Control::default();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut searcher = Searcher::<Chess>::new(1);
        let mut played = std::collections::HashSet::new();
        for seed in 0..24 {
            searcher.clear();
            searcher.set_strength(Some(Strength::from_elo(MIN_ELO, Rng::new(seed))));
            let r = searcher.search(&start, &[], &limits, &control, &mut |_| {});
            // Chess plays its levels with its share of the budget (`LEVEL_NODES_PERCENT`).
            let budget = plan(MIN_ELO).nodes * Chess::LEVEL_NODES_PERCENT / 100;
            assert!(r.nodes <= budget + 64, "{} nodes of {budget}", r.nodes);
            played.insert(r.best);
        }
        assert!(played.len() >= 3, "{played:?}");
        let full = |searcher: &mut Searcher<Chess>| {
            searcher.clear();
            searcher.search(&start, &[], &limits, &control, &mut |_| {})
        };
        searcher.set_strength(Some(Strength::from_elo(FULL_ELO, Rng::new(1))));
        let (a, b) = (full(&mut searcher), full(&mut searcher));
        assert_eq!(
            (a.best, a.depth),
            (b.best, 6),
            "full strength searches to the limit"
        );
        // Black threatens Re1 mate (the queen behind the rook): White must make room for the
        // king or meet the threat. At 1800 a level never walks into it (the weakest one, with
        // 1 % of the nodes, may: it often ends at depth 1, where the mate is out of sight).
        let pos = Chess::from_fen("chess", "4r1k1/4qppp/8/8/Q7/8/5PPP/6K1 w - - 0 1").unwrap();
        for seed in 0..40 {
            searcher.clear();
            searcher.set_strength(Some(Strength::from_elo(1800, Rng::new(seed))));
            let r = searcher.search(&pos, &[], &Limits::default(), &control, &mut |_| {});
            let after = pos.play(r.best);
            let mut replies = crate::board::MoveList::new();
            after.legal_moves(&mut replies);
            let mated = replies.iter().any(|&m| {
                let p = after.play(m);
                let mut none = crate::board::MoveList::new();
                p.legal_moves(&mut none);
                none.is_empty() && p.terminal() == crate::game::Terminal::Loss
            });
            assert!(
                !mated,
                "seed {seed}: {} walks into mate",
                pos.move_text(r.best)
            );
        }
    }

    /// At 2200 a level is a plain search of its node budget: one line and its move, the same
    /// as a full-strength search told that many nodes.
    #[test]
    fn the_top_levels_search_one_line_and_play_its_move() {
        use crate::game::Game;
        use crate::games::chess::Chess;
        use crate::search::{Control, Limits, Searcher};
        let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8";
        let pos = Chess::from_fen("chess", fen).unwrap();
        let control = Control::default();
        let budget = plan(2200).nodes * Chess::LEVEL_NODES_PERCENT / 100;
        let mut level = Searcher::<Chess>::new(1);
        level.set_strength(Some(Strength::from_elo(2200, Rng::new(3))));
        let mut infos = Vec::new();
        let a = level.search(&pos, &[], &Limits::default(), &control, &mut |i| {
            infos.push(i.clone())
        });
        let seen: Vec<_> = infos
            .iter()
            .map(|i| (i.depth, i.score, i.pv.clone()))
            .collect();
        let limits = Limits {
            nodes: Some(budget),
            ..Limits::default()
        };
        let mut plain = Vec::new();
        let b = Searcher::<Chess>::new(1).search(&pos, &[], &limits, &control, &mut |i| {
            plain.push((i.depth, i.score, i.pv.clone()))
        });
        assert_eq!(a.best, b.best);
        assert_eq!(seen, plain, "the same iterations, depths and lines");
        // Nothing to choose at temperature 0: the search's move stands. Below, a choice.
        assert!(
            Strength::from_elo(2200, Rng::new(3))
                .choose(&infos)
                .is_none()
        );
        assert!(
            Strength::from_elo(2100, Rng::new(3))
                .choose(&infos)
                .is_some()
        );
    }

    #[test]
    fn the_choice_follows_the_weights_and_never_leaves_the_margin() {
        let mut rng = Rng::new(5);
        let values = [50, 40, -200, -MATE + 3];
        let mut counts = [0; 4];
        for _ in 0..10_000 {
            counts[pick(&values, 10.0, 100, &mut rng).unwrap()] += 1;
        }
        // exp(-1) ≈ 0.368: the second line about 27 % of the time, the others never.
        assert_eq!(counts[2] + counts[3], 0, "{counts:?}");
        let share = f64::from(counts[1]) / 10_000.0;
        assert!((share - 0.269).abs() < 0.02, "{counts:?}");
        // Temperature 0: always the best (the first of equals).
        assert_eq!(pick(&[3, 7, 7], 0.0, 100, &mut rng), Some(1));
        assert_eq!(pick(&[], 10.0, 100, &mut rng), None);
        // A forced loss is chosen only when everything loses.
        let lost = [-MATE + 5, -MATE + 9];
        for _ in 0..100 {
            assert!(pick(&lost, 50.0, 100_000, &mut rng).is_some());
        }
        let wide = [0, -MATE + 9];
        for _ in 0..100 {
            assert_eq!(pick(&wide, 1e9, i32::MAX / 2, &mut rng), Some(0));
        }
    }
}
