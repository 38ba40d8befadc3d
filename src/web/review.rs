//! The review of every move (docs/web.md, "A review of every move"): the evaluation of each
//! position of a game kept at the server (from the engine's moves, the analyses of the game's
//! positions and the review's own searches), so that it survives a reload and every viewer
//! sees the same; and each move judged as lichess does: an inaccuracy, a mistake or a blunder
//! by the drop of the mover's winning chances, or, where the game has solved values, by the
//! move's solved value against the best one.
//!
//! Depends on serde_json only; the server runs the searches (`mod.rs`).

use serde_json::{Value, json};

/// The evaluations of a game's positions, by ply (0: the start).
#[derive(Clone, Debug, Default)]
pub struct Evals {
    by_ply: Vec<Option<Value>>,
}

impl Evals {
    /// The evaluation of the position after `ply` plies, if known.
    pub fn get(&self, ply: usize) -> Option<&Value> {
        self.by_ply.get(ply).and_then(Option::as_ref)
    }

    /// All of them, `None` where unknown.
    pub fn all(&self) -> &[Option<Value>] {
        &self.by_ply
    }

    /// Keeps `eval` (`{"white", "depth", "best", "best_san"?, "solved"?}`) for `ply` unless a
    /// deeper search is known there (a solved value is kept either way); true when it changed.
    pub fn record(&mut self, ply: usize, mut eval: Value) -> bool {
        if eval["white"].is_null() && eval["solved"].is_null() {
            return false;
        }
        if self.by_ply.len() <= ply {
            self.by_ply.resize(ply + 1, None);
        }
        let depth = |v: &Value| v["depth"].as_u64().unwrap_or(0);
        if let Some(old) = &self.by_ply[ply] {
            if eval["solved"].is_null() && !old["solved"].is_null() {
                eval["solved"] = old["solved"].clone();
            }
            if depth(old) > depth(&eval) && !old["white"].is_null() {
                let mut kept = old.clone();
                if !eval["solved"].is_null() {
                    kept["solved"] = eval["solved"].clone();
                }
                let changed = kept != *old;
                self.by_ply[ply] = Some(kept);
                return changed;
            }
            if *old == eval {
                return false;
            }
        }
        self.by_ply[ply] = Some(eval);
        true
    }

    /// Forgets the positions beyond `plies` plies (a take-back).
    pub fn truncate(&mut self, plies: usize) {
        self.by_ply.truncate(plies + 1);
    }
}

/// Most centipawns a score counts for in the winning chances (a mate counts as this).
const CP_CAP: f64 = 1000.0;

/// White's winning chances from -1 to 1 for a score from White's view (lichess's curve).
pub fn winning_chances(white: &Value) -> Option<f64> {
    let cp = match (white["cp"].as_f64(), white["mate"].as_i64()) {
        (Some(cp), _) => cp.clamp(-CP_CAP, CP_CAP),
        (None, Some(m)) => CP_CAP.copysign(m as f64),
        _ => return None,
    };
    Some(2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

/// A solved value as White's result: 1 a win for White, 0 a draw, -1 a loss.
fn solved_for_white(solved: &Value) -> Option<i32> {
    let v = match solved["value"].as_str()? {
        "win" => 1,
        "loss" => -1,
        "draw" => 0,
        _ => return None,
    };
    Some(if solved["for"] == "Black" { -v } else { v })
}

/// How a move from the position `before` to `after` made by `mover` (0: White) is judged:
/// `inaccuracy`, `mistake` or `blunder`, or none. With solved values on both sides: a move
/// that throws a win away is a mistake (win to draw) or a blunder (to a loss; a draw to a
/// loss too). Else by the drop of the mover's winning chances (lichess: 0.1, 0.2, 0.3).
pub fn judge(before: &Value, after: &Value, mover: usize) -> Option<&'static str> {
    let sign = if mover == 0 { 1 } else { -1 };
    let solved = (
        solved_for_white(&before["solved"]),
        solved_for_white(&after["solved"]),
    );
    if let (Some(b), Some(a)) = solved {
        let (best, got) = (b * sign, a * sign);
        return match (best, got) {
            _ if got >= best => None,
            (1, 0) => Some("mistake"),
            _ => Some("blunder"),
        };
    }
    let drop =
        (winning_chances(&before["white"])? - winning_chances(&after["white"])?) * f64::from(sign);
    [(0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")]
        .into_iter()
        .find(|&(limit, _)| drop >= limit)
        .map(|(_, word)| word)
}

/// The review for the API: every position's evaluation (`null` where unknown) and the moves
/// judged (`{"ply": the move's number in the game, 1 = the first, "judgement", "best",
/// "best_san"}`); `movers[i]` is the seat that made move i+1.
pub fn json(evals: &Evals, movers: &[Option<usize>], plies: usize) -> Value {
    let mut marks = Vec::new();
    for (i, mover) in movers.iter().enumerate().take(plies) {
        let (Some(before), Some(after), Some(m)) = (evals.get(i), evals.get(i + 1), *mover) else {
            continue;
        };
        if let Some(word) = judge(before, after, m) {
            marks.push(
                json!({ "ply": i + 1, "judgement": word, "best": before["best"],
                               "best_san": before["best_san"] }),
            );
        }
    }
    let all: Vec<Value> = (0..=plies)
        .map(|p| evals.get(p).cloned().unwrap_or(Value::Null))
        .collect();
    json!({ "evals": all, "marks": marks })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(n: i64) -> Value {
        json!({ "white": { "cp": n }, "depth": 10 })
    }

    #[test]
    fn moves_are_judged_by_the_drop_of_their_winning_chances() {
        assert!(winning_chances(&json!({ "cp": 0 })).unwrap().abs() < 1e-9);
        assert_eq!(
            winning_chances(&json!({ "mate": 3 })),
            winning_chances(&json!({ "cp": 5000 }))
        );
        assert_eq!(judge(&cp(20), &cp(0), 0), None, "a small drop");
        assert_eq!(judge(&cp(50), &cp(-20), 0), Some("inaccuracy"));
        assert_eq!(judge(&cp(0), &cp(-120), 0), Some("mistake"));
        assert_eq!(judge(&cp(100), &cp(-400), 0), Some("blunder"));
        assert_eq!(judge(&cp(100), &cp(-400), 1), None, "Black gained");
        assert_eq!(judge(&cp(-100), &cp(400), 1), Some("blunder"));
        assert_eq!(
            judge(&json!({ "white": { "mate": 2 } }), &cp(100), 0),
            Some("blunder")
        );
    }

    #[test]
    fn with_solved_values_a_move_is_judged_by_what_it_throws_away() {
        let solved = |value: &str, side: &str| json!({ "solved": { "value": value, "for": side } });
        // White to move wins; after the move Black (to move) draws: a mistake.
        assert_eq!(
            judge(&solved("win", "White"), &solved("draw", "Black"), 0),
            Some("mistake")
        );
        assert_eq!(
            judge(&solved("win", "White"), &solved("win", "Black"), 0),
            Some("blunder")
        );
        assert_eq!(
            judge(&solved("draw", "White"), &solved("win", "Black"), 0),
            Some("blunder")
        );
        assert_eq!(
            judge(&solved("win", "White"), &solved("loss", "Black"), 0),
            None
        );
        assert_eq!(
            judge(&solved("loss", "Black"), &solved("win", "White"), 1),
            None,
            "lost anyway"
        );
    }

    #[test]
    fn the_deepest_evaluation_is_kept_and_a_take_back_forgets() {
        let mut e = Evals::default();
        assert!(e.record(2, cp(30)));
        assert!(e.get(1).is_none(), "unknown plies stay unknown");
        let shallow = json!({ "white": { "cp": -80 }, "depth": 4 });
        assert!(!e.record(2, shallow));
        assert_eq!(e.get(2).unwrap()["white"]["cp"], 30);
        assert!(e.record(2, json!({ "solved": { "value": "draw" } })));
        assert_eq!(e.get(2).unwrap()["solved"]["value"], "draw");
        assert!(!e.record(3, json!({ "depth": 9 })), "nothing to keep");
        e.truncate(1);
        assert!(e.get(2).is_none());
        let review = json(&e, &[Some(0)], 1);
        assert_eq!(review["evals"], json!([null, null]));
    }
}
