//! `suite FILE --nodes N`: a test suite scored at a fixed node budget, the screen that shows a
//! search change before any match does (deterministic with one thread, no clock involved).
//!
//! Each line of the file is one position and what counts as solving it:
//! - `FEN;MOVES;N` — the position after the (possibly empty) coordinate moves MOVES is a
//!   forced win for the side to move (N: the announced mate distance, informative only); it
//!   is solved when the search reports a winning mate score;
//! - `FEN bm MOVE…; …` or `FEN;bm MOVE…` — an EPD-style best-move position (SAN or
//!   coordinate moves); solved when the search's move is one of them.
//!
//! Blank lines and lines starting with `#` are skipped. The search is the engine's own with
//! the oracle off (a node-limited search never asks it), a cleared table per position.
//! Depends on `game`, `search`, `san` (best moves in SAN) and `tournament::openings` (the
//! position fields of a line).

use crate::error::CliError;
use crate::game::Game;
use crate::search::stats::Stats;
use crate::search::{Control, Limits, Score, Searcher};
use crate::tournament::openings::position_from_line;

/// What one line of a suite asks.
#[derive(Debug)]
enum Goal {
    /// A forced win for the side to move.
    Win,
    /// One of these moves (as the game writes them, coordinate notation).
    BestMove(Vec<String>),
}

/// One position of a suite.
#[derive(Debug)]
struct Case<G: Game> {
    line: usize,
    pos: G,
    history: Vec<u64>,
    goal: Goal,
}

fn parse_case<G: Game>(variant: &str, number: usize, text: &str) -> Result<Case<G>, CliError> {
    let at = |e: String| CliError::Failed(format!("line {number}: {e}"));
    if let Some(i) = text.find(" bm ").or_else(|| text.find(";bm ")) {
        let pos: G = position_from_line(variant, &text[..i]).map_err(at)?;
        let rest = &text[i + 4..];
        let moves_text = rest.split(';').next().unwrap_or("");
        let mut best = Vec::new();
        for m in moves_text.split_whitespace() {
            let mv =
                crate::san::read(&pos, m).map_err(|_| at(format!("'{m}' is not a legal move")))?;
            best.push(pos.move_text(mv));
        }
        if best.is_empty() {
            return Err(at("bm names no move".to_string()));
        }
        return Ok(Case {
            line: number,
            pos,
            history: Vec::new(),
            goal: Goal::BestMove(best),
        });
    }
    let mut parts = text.split(';');
    let fen = parts.next().unwrap_or("");
    let moves = parts.next().unwrap_or("");
    let mut pos: G = position_from_line(variant, fen).map_err(at)?;
    let mut history = Vec::new();
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_move(m)
            .map_err(|e| at(format!("move '{m}': {e}")))?;
        history.push(pos.hash());
        pos = pos.play(mv);
    }
    Ok(Case {
        line: number,
        pos,
        history,
        goal: Goal::Win,
    })
}

/// What a suite run found.
#[derive(Debug, Default)]
pub struct SuiteResult {
    pub solved: usize,
    pub total: usize,
    pub nodes: u64,
    pub stats: Stats,
}

/// Scores the suite `text` (the file's contents) at `nodes` nodes a position with a table of
/// `hash_mb` MiB; `report` receives one line per position. A line that cannot be read is an
/// error naming it, before anything is searched.
pub fn run<G: Game>(
    variant: &str,
    text: &str,
    nodes: u64,
    hash_mb: usize,
    report: &mut dyn FnMut(&str) -> Result<(), CliError>,
) -> Result<SuiteResult, CliError> {
    let cases: Vec<Case<G>> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_case(variant, i + 1, l.trim()))
        .collect::<Result<_, _>>()?;
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_use_solver(false);
    let limits = Limits {
        nodes: Some(nodes.max(1)),
        ..Limits::default()
    };
    let control = Control::default();
    let mut result = SuiteResult {
        total: cases.len(),
        ..SuiteResult::default()
    };
    for case in &cases {
        searcher.clear();
        let found = searcher.search(&case.pos, &case.history, &limits, &control, &mut |_| {});
        result.nodes += found.nodes;
        result.stats.add(&searcher.last_stats());
        let best = if found.best.is_null() {
            "-".to_string()
        } else {
            case.pos.move_text(found.best)
        };
        let ok = match &case.goal {
            Goal::Win => matches!(found.score, Score::Mate(n) if n > 0),
            Goal::BestMove(moves) => moves.contains(&best),
        };
        result.solved += ok as usize;
        let score = match found.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        report(&format!(
            "line {:>4} {:<8} {best:<6} {score:<9} depth {:>2} nodes {}",
            case.line,
            if ok { "solved" } else { "missed" },
            found.depth,
            found.nodes
        ))?;
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;

    #[test]
    fn reads_both_kinds_of_line_and_scores_them() {
        // A mate in one (win line after a move) and a best-move line in SAN, each solved;
        // a best-move line naming a bad move is missed.
        let text = "\
# comment
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1;g1f1 g8h8;1
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"back rank\"
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm h3;
";
        let mut lines = Vec::new();
        let r = run::<Chess>("chess", text, 20_000, 1, &mut |l| {
            lines.push(l.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!((r.solved, r.total), (2, 3), "{lines:?}");
        assert!(lines[0].contains("solved") && lines[0].contains("mate 1"));
        assert!(lines[2].contains("missed"));
        assert!(r.stats.main_nodes > 0);
    }

    #[test]
    fn a_bad_line_is_named() {
        let e =
            run::<Chess>("chess", "\n8/8/8/8 w - -;;1\n", 1000, 1, &mut |_| Ok(())).unwrap_err();
        let e = e.to_string();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = run::<Chess>(
            "chess",
            "6k1/8/8/8/8/8/8/R5K1 w - - bm Rz9;",
            1000,
            1,
            &mut |_| Ok(()),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("'Rz9' is not a legal move"), "{e}");
    }
}
