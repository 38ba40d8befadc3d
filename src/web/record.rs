//! What the server keeps of each move besides the move itself, for the PGN and the page: the
//! mover's clock after it (`[%clk]`), the engine's real think time (`[%emt]`), and the
//! comments and tags that make the PGN of a game ([`notes`]: `TimeControl`, `[%eval]`,
//! `[%clk]`, `[%emt]`, and the variations the page sends).
//!
//! Depends on `session` (the PGN's [`Notes`]) and serde_json.

use serde_json::Value;

use super::session::{Line, Notes};

/// What the server notes of one ply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyNote {
    /// The mover's time left after the move (a timed game), in ms.
    pub clk: Option<u64>,
    /// The engine's think time for the move (an engine move), in ms.
    pub emt: Option<u64>,
}

/// A time as PGN's clock commands write it: `H:MM:SS`, with tenths under a minute.
pub fn clock_text(ms: u64) -> String {
    let (h, m, s) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
    if ms < 60_000 {
        format!("{h}:{m:02}:{s:02}.{}", ms / 100 % 10)
    } else {
        format!("{h}:{m:02}:{s:02}")
    }
}

/// An evaluation from White's view as PGN's `[%eval]` writes it: pawns (`0.35`) or a mate
/// (`#3`, `#-2`).
pub fn eval_text(white: &Value) -> Option<String> {
    if let Some(cp) = white["cp"].as_i64() {
        return Some(format!("{:.2}", cp as f64 / 100.0));
    }
    white["mate"].as_i64().map(|n| format!("#{n}"))
}

/// The PGN tag of a time control: `base+inc` in seconds (`180+2`), `-` for none.
pub fn time_control(clock: Option<(u64, u64)>) -> String {
    match clock {
        None => "-".into(),
        Some((base, inc)) => {
            let secs = |ms: u64| {
                if ms.is_multiple_of(1000) {
                    (ms / 1000).to_string()
                } else {
                    format!("{:.1}", ms as f64 / 1000.0)
                }
            };
            format!("{}+{}", secs(base), secs(inc))
        }
    }
}

/// The notes of a game's PGN: its `TimeControl` tag (`clock`: base and increment in ms), a
/// comment per ply with the evaluation of the position after it (`evals[ply]["white"]`),
/// the mover's clock and the engine's think time, and the variations `lines`.
pub fn notes(
    clock: Option<(u64, u64)>,
    plies: &[PlyNote],
    evals: &[Option<Value>],
    lines: Vec<Line>,
) -> Notes {
    let comments = plies
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut parts = Vec::new();
            let eval = evals.get(i + 1).and_then(|e| e.as_ref());
            if let Some(e) = eval.and_then(|e| eval_text(&e["white"])) {
                parts.push(format!("[%eval {e}]"));
            }
            if let Some(ms) = n.clk {
                parts.push(format!("[%clk {}]", clock_text(ms)));
            }
            if let Some(ms) = n.emt {
                parts.push(format!("[%emt {}]", clock_text(ms)));
            }
            parts.join(" ")
        })
        .collect();
    Notes {
        tags: vec![("TimeControl".into(), time_control(clock))],
        comments,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn clocks_evaluations_and_time_controls_read_as_pgn_writes_them() {
        assert_eq!(clock_text(178_000), "0:02:58");
        assert_eq!(clock_text(3_723_000), "1:02:03");
        assert_eq!(clock_text(9_870), "0:00:09.8");
        assert_eq!(eval_text(&json!({ "cp": -37 })).as_deref(), Some("-0.37"));
        assert_eq!(eval_text(&json!({ "mate": -2 })).as_deref(), Some("#-2"));
        assert_eq!(eval_text(&json!({ "share": 0.5 })), None);
        assert_eq!(time_control(Some((180_000, 2000))), "180+2");
        assert_eq!(time_control(Some((1500, 0))), "1.5+0");
        assert_eq!(time_control(None), "-");
        let plies = [
            PlyNote {
                clk: Some(59_000),
                emt: None,
            },
            PlyNote {
                clk: Some(58_500),
                emt: Some(1200),
            },
        ];
        let n = notes(
            Some((60_000, 0)),
            &plies,
            &[None, Some(json!({ "white": { "cp": 20 } }))],
            vec![],
        );
        assert_eq!(n.comments[0], "[%eval 0.20] [%clk 0:00:59.0]");
        assert_eq!(n.comments[1], "[%clk 0:00:58.5] [%emt 0:00:01.2]");
        assert_eq!(
            n.tags,
            vec![("TimeControl".to_string(), "60+0".to_string())]
        );
    }
}
