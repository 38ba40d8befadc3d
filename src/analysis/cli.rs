//! `kiebitz-pawns analyze`: argument parsing, the report as a text table or JSON (SPEC §6),
//! the DOT file, progress on stderr.
//!
//! Depends on the rest of [`super`] and on `games::pawns` for FEN parsing.

use std::time::Instant;

use clap::Parser;

use super::board::{Pos, Shape};
use super::count::{TreeCounts, count_tree};
use super::dot::{MAX_DOT_POSITIONS, dot};
use super::solve::{Budget, solve_root};
use crate::game::Game;
use crate::games::pawns::{Pawns, start_fen};

#[derive(Parser, Debug)]
#[command(
    name = "kiebitz-pawns analyze",
    about = "Explores the whole pawn-chess game graph from a position: tree counts and values"
)]
struct Args {
    /// An N×N board (3..=8) from the start position.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=8), conflicts_with_all = ["width", "height", "fen"])]
    size: Option<u8>,
    /// Board width (3..=8), with --height.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=8), requires = "height", conflicts_with = "fen")]
    width: Option<u8>,
    /// Board height (3..=8), with --width.
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=8), requires = "width", conflicts_with = "fen")]
    height: Option<u8>,
    /// Start from this position (W×H FEN) instead.
    #[arg(long)]
    fen: Option<String>,
    /// Pawns may step twice from their base line.
    #[arg(long)]
    doublestep: bool,
    /// En passant (implies --doublestep).
    #[arg(long)]
    enpassant: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// Write the position graph as Graphviz DOT to FILE.
    #[arg(long, value_name = "FILE")]
    dot: Option<String>,
    /// Only solve (value and first-move values), skip the tree counts: for boards too big to
    /// enumerate, such as 6×6.
    #[arg(long)]
    value_only: bool,
    /// Most positions the tree count (which then stops with an error) or the solver (which
    /// then forgets the cheapest proofs) holds at a time; each takes 16 to 48 bytes.
    #[arg(long, default_value_t = 100_000_000)]
    max_positions: u64,
}

/// What `analyze` found.
#[derive(Clone, Debug)]
pub struct Report {
    pub counts: Option<TreeCounts>,
    pub value: i8,
    /// Each first move and the value for White after it.
    pub first_moves: Vec<(String, i8)>,
    pub seconds: f64,
    /// Positions the solver searched.
    pub solver_nodes: u64,
}

/// The root position described by the arguments.
fn root_of(args: &Args) -> Result<Pawns, String> {
    let suffix = if args.enpassant {
        "ep"
    } else if args.doublestep {
        "d"
    } else {
        ""
    };
    let (fen, n) = match (&args.fen, args.size, args.width, args.height) {
        (Some(fen), ..) => (fen.clone(), 6),
        (None, Some(n), ..) => (start_fen(n, n), n),
        (None, None, Some(w), Some(h)) => (start_fen(w, h), w),
        _ => return Err("say which board: --size N, --width W --height H, or --fen FEN".into()),
    };
    // The variant name only carries the rules here; the FEN fixes the board.
    Pawns::from_fen(&format!("pawns{n}{suffix}"), &fen)
}

/// Analyses `root`: tree counts unless `value_only`, and the values.
pub fn analyze(
    root: &Pawns,
    value_only: bool,
    max_positions: u64,
    verbose: bool,
) -> Result<Report, String> {
    let start = Instant::now();
    let shape = Shape::of(root);
    let pos = Pos::of(root);
    let counts = if value_only {
        None
    } else {
        let mut last = 0.0;
        let mut report = |n: u64| {
            let t = start.elapsed().as_secs_f64();
            if verbose && t > last + 2.0 {
                last = t;
                eprintln!(
                    "analyze: {n} positions counted, {:.1} s",
                    start.elapsed().as_secs_f64()
                );
            }
        };
        Some(
            count_tree(shape, &pos, max_positions, Some(&mut report)).map_err(|n| {
                format!(
                    "the tree count needs more than {n} positions at a time; \
                 raise --max-positions or use --value-only"
                )
            })?,
        )
    };
    let progress: Option<Box<dyn FnMut(u64, u64)>> = if verbose {
        Some(Box::new(move |nodes, entries| {
            eprintln!(
                "analyze: solver {nodes} nodes, {entries} positions stored, {:.1} s",
                start.elapsed().as_secs_f64()
            )
        }))
    } else {
        None
    };
    let budget = Budget {
        deadline: None,
        stop: None,
        max_positions: Some(max_positions),
        forget_when_full: true,
    };
    let (value, firsts, solver_nodes) = solve_root(shape, &pos, budget, progress)
        .map_err(|e| format!("the solver gave up: {e:?}"))?;
    let moves = shape.moves(&pos);
    let first_moves = moves
        .iter()
        .zip(firsts)
        .map(|((mv, _), v)| (mv.to_string(), v))
        .collect();
    Ok(Report {
        counts,
        value,
        first_moves,
        seconds: start.elapsed().as_secs_f64(),
        solver_nodes,
    })
}

/// The report as one JSON object with the keys of SPEC §6 (counts `null` when skipped).
pub fn to_json(r: &Report) -> String {
    let c = r.counts.as_ref();
    let num = |f: &dyn Fn(&TreeCounts) -> String| c.map_or("null".to_string(), f);
    let firsts: Vec<String> = r.first_moves.iter().map(|(_, v)| v.to_string()).collect();
    format!(
        "{{\"unique_positions\": {}, \"tree_nodes\": {}, \"white_wins\": {}, \"black_wins\": {}, \
         \"draws\": {}, \"max_depth\": {}, \"max_branching\": {}, \"value\": {}, \
         \"first_move_values\": [{}], \"seconds\": {:.3}}}",
        num(&|c| c.unique_positions.to_string()),
        num(&|c| format!("\"{}\"", c.tree_nodes)),
        num(&|c| c.white_wins.to_string()),
        num(&|c| c.black_wins.to_string()),
        num(&|c| c.draws.to_string()),
        num(&|c| c.max_depth.to_string()),
        num(&|c| c.max_branching.to_string()),
        r.value,
        firsts.join(", "),
        r.seconds
    )
}

/// The report as a two-column text table.
pub fn to_table(root: &Pawns, r: &Report) -> String {
    let (w, h) = root.size();
    let rules = match (root.rules.double_step, root.rules.en_passant) {
        (_, true) => "en passant",
        (true, false) => "double step",
        _ => "plain",
    };
    let mut rows: Vec<(&str, String)> = vec![
        ("board", format!("{w}×{h}, {rules}")),
        ("position", root.fen()),
    ];
    if let Some(c) = &r.counts {
        rows.extend([
            ("unique positions", c.unique_positions.to_string()),
            ("tree nodes", c.tree_nodes.to_string()),
            ("white wins", c.white_wins.to_string()),
            ("black wins", c.black_wins.to_string()),
            ("draws", c.draws.to_string()),
            ("max depth", c.max_depth.to_string()),
            ("max branching", c.max_branching.to_string()),
        ]);
    }
    rows.push(("value", r.value.to_string()));
    let firsts: Vec<String> = r
        .first_moves
        .iter()
        .map(|(m, v)| format!("{m} {v}"))
        .collect();
    rows.push(("first-move values", firsts.join(", ")));
    rows.push(("solver nodes", r.solver_nodes.to_string()));
    rows.push(("time", format!("{:.3} s", r.seconds)));
    rows.iter().map(|(k, v)| format!("{k:<18} {v}\n")).collect()
}

/// `kiebitz-pawns analyze …`: returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let argv = std::iter::once("kiebitz-pawns analyze".to_string()).chain(args.iter().cloned());
    let args = match Args::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            // clap writes help to stdout and errors to stderr, never panicking on a closed pipe.
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(&args) {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("analyze: {msg}");
            1
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let root = root_of(args)?;
    if let Some(path) = &args.dot {
        let (text, n) = dot(Shape::of(&root), &Pos::of(&root), MAX_DOT_POSITIONS)?;
        if n > 2000 {
            eprintln!("analyze: warning: {n} positions; Graphviz will be slow on this graph");
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let report = analyze(&root, args.value_only, args.max_positions, true)?;
    // A closed stdout (`| true`, `| head`) ends the command quietly.
    if args.json {
        crate::cli::print_line(format_args!("{}", to_json(&report)));
    } else {
        let table = to_table(&root, &report);
        crate::cli::print_line(format_args!("{}", table.trim_end_matches('\n')));
    }
    Ok(())
}
