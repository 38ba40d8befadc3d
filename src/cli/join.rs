//! The `join` subcommand: one proof or hold from parts solved apart. The parts are proofs of
//! one side's win and holds of that side (`solve --proof`, `units work`, text or compact),
//! rooted anywhere below the root; `--line` gives that side's moves above them (the line's
//! other moves are the opponent's, each of whose other answers a part must cover). The
//! joined strategy is the union of the parts' and the lines' choices (the first one given
//! where two name the same position: each part's strategy is closed under the other side's
//! moves, so any choice among them keeps the union closed); it is written only after
//! [`proof::check`] accepted it from the root — a hold where one part is a hold, else a proof.

use crate::error::CliError;
use std::collections::HashSet;

use clap::Parser;

use crate::board::Color;
use crate::game::Game;
use crate::limits;
use crate::solve::proof::{self, Proof, identity};

use super::solve::{MAX_PROOF_BYTES, RootArgs};

#[derive(Parser, Debug)]
#[command(
    about = "Joins proofs and holds of one side, solved apart below a root, into one checked proof or hold"
)]
struct JoinArgs {
    #[command(flatten)]
    root: RootArgs,
    /// A line of moves from the root (coordinates, separated by spaces); the parts' side's
    /// moves on it are its choices there. May be given again.
    #[arg(long = "line", value_name = "MOVES")]
    lines: Vec<String>,
    /// Where to write the joined proof or hold (only once the check accepted it).
    #[arg(long, value_name = "FILE")]
    out: String,
    /// Write it in the compact format.
    #[arg(long)]
    compact: bool,
    /// The parts: proof and hold files of one side.
    #[arg(required = true, value_name = "PART")]
    parts: Vec<String>,
}

/// `join --out F [--line MOVES]… PART…`: 0 when the joined proof or hold is checked and
/// written, 1 (the reason on stderr) when not.
pub fn join<G: Game>(args: &[String]) -> i32 {
    let args: JoinArgs = match limits::parse_args(&format!("kiebitz-{} join", G::GAME), args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    limits::exit_code(run::<G>(&args), "join", 1)
}

fn run<G: Game>(args: &JoinArgs) -> Result<(), CliError> {
    let (root, _) = args.root.root::<G>()?;
    let mut parts = Vec::new();
    for file in &args.parts {
        let text = crate::files::read_text(std::path::Path::new(file), MAX_PROOF_BYTES)?;
        let p = Proof::parse_any::<G>(&text).map_err(|e| format!("{file}: {e}"))?;
        parts.push((file, p));
    }
    let side = parts[0].1.winner;
    if let Some((file, _)) = parts.iter().find(|(_, p)| p.winner != side) {
        return Err(format!(
            "{file} is of {}, the first part of {}: join parts of one side",
            side.flip().name(),
            side.name()
        )
        .into());
    }
    let mut nodes = Vec::new();
    for (i, line) in args.lines.iter().enumerate() {
        nodes.extend(line_choices(&root, line, side).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    nodes.extend(parts.iter().flat_map(|(_, p)| p.nodes.iter().cloned()));
    let mut seen = HashSet::new();
    nodes.retain(|(fen, _)| seen.insert(identity(fen)));
    let joined = Proof {
        variant: root.variant().to_string(),
        root: root.fen(),
        winner: side,
        hold: parts.iter().any(|(_, p)| p.hold),
        nodes,
    };
    let checked = proof::check::<G>(&joined)
        .map_err(|e| format!("the joined strategy does not hold: {e}"))?;
    let text = if args.compact {
        joined.to_compact::<G>()?
    } else {
        joined.to_text()
    };
    crate::files::write_bytes(&args.out, text)?;
    let what = if joined.hold {
        format!(
            "{} keeps {} from forcing a win",
            side.name(),
            side.flip().name()
        )
    } else {
        format!("{} wins", side.name())
    };
    limits::out(format_args!(
        "joined: {what} from {} ({} parts, {} positions, {} of {}'s choices, {} plies at most; checked), written to {}",
        joined.root,
        parts.len(),
        checked.positions,
        joined.nodes.len(),
        side.name(),
        checked.plies,
        args.out
    ))
}

/// The choices of `side` along `line` (moves from `root`).
fn line_choices<G: Game>(
    root: &G,
    line: &str,
    side: Color,
) -> Result<Vec<(String, String)>, String> {
    let mut pos = root.clone();
    let mut choices = Vec::new();
    for (ply, text) in line.split_whitespace().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("ply {}: {e}", ply + 1))?;
        if pos.side_to_move() == side {
            choices.push((pos.fen(), pos.move_text(mv)));
        }
        pos = pos.play(mv);
    }
    Ok(choices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::raeuber::Raeuber;
    use crate::solve::pns::{self, Budget, Verdict};

    fn root(moves: &str) -> RootArgs {
        RootArgs {
            fen: None,
            moves: Some(moves.to_string()),
            variant: None,
        }
    }

    /// After 1. f3 Black wins by 1…e4. The proof from after 1…e4 and the line "e5e4" join
    /// into Black's win from after 1. f3, checked; without the line the root has no move and
    /// nothing is written; a part of the other side is refused.
    #[test]
    fn parts_below_a_line_join_into_a_checked_proof_and_gaps_are_refused() {
        let dir = std::env::temp_dir().join(format!("kiebitz-join-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let (below, history) = root("f2f3 e5e4").root::<Raeuber>().unwrap();
        let budget = Budget {
            time: None,
            nodes: Some(1_000_000),
        };
        let s = pns::solve(&below, &history, budget, 16);
        assert_eq!(s.verdict, Verdict::Loss, "White to move loses");
        let part = s.proof.unwrap();
        std::fs::write(path("part"), part.to_text()).unwrap();
        let args = |lines: &[&str], parts: &[&str], out: &str| JoinArgs {
            root: root("f2f3"),
            lines: lines.iter().map(|l| l.to_string()).collect(),
            out: path(out),
            compact: false,
            parts: parts.iter().map(|p| path(p)).collect(),
        };
        run::<Raeuber>(&args(&["e5e4"], &["part"], "joined")).unwrap();
        let joined = Proof::parse(&std::fs::read_to_string(path("joined")).unwrap()).unwrap();
        let (after_f3, _) = root("f2f3").root::<Raeuber>().unwrap();
        assert_eq!(
            (joined.root.clone(), joined.winner, joined.hold),
            (after_f3.fen(), Color::Black, false)
        );
        let checked = proof::check::<Raeuber>(&joined).unwrap();
        assert_eq!(
            checked.positions,
            proof::check::<Raeuber>(&part).unwrap().positions + 1
        );

        let gap = run::<Raeuber>(&args(&[], &["part"], "gap"))
            .unwrap_err()
            .to_string();
        assert!(gap.contains("does not hold"), "{gap}");
        assert!(!dir.join("gap").exists(), "nothing written");

        let mut other = part.clone();
        other.winner = Color::White;
        std::fs::write(path("other"), other.to_text()).unwrap();
        let mixed = run::<Raeuber>(&args(&["e5e4"], &["part", "other"], "mixed"))
            .unwrap_err()
            .to_string();
        assert!(mixed.contains("join parts of one side"), "{mixed}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
