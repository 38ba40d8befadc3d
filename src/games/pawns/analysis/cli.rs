//! `kiebitz-pawns analyze`: argument parsing, the report as a text table or JSON (docs/rules.md §6),
//! the DOT file, progress on stderr.
//!
//! Depends on the rest of [`super`] and on `games::pawns` for FEN parsing.

use crate::error::CliError;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use clap::Parser;

use super::board::{Pos, Shape};
use super::count::{TreeCounts, count_tree};
use super::dot::{MAX_DOT_POSITIONS, dot};
use super::solve::{Budget, solve_root_reporting};
use crate::game::Game;
use crate::games::pawns::{Pawns, Rules, start_fen_of};
use crate::progress::{self, Progress, Style};

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
    /// The pawn game's rules: pawns start on the second and the next-to-last rank (and step
    /// twice from there), a side without pawns has lost; with --enpassant or without.
    #[arg(long, conflicts_with = "doublestep")]
    pawngame: bool,
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
    /// Board width and height.
    pub width: u8,
    pub height: u8,
    /// `plain`, `doublestep`, `enpassant`, `pawngame` or `pawngame-ep`.
    pub rules: &'static str,
    /// The FEN of the analysed position.
    pub fen: String,
    /// The tree counts; `None` with `--value-only`.
    pub counts: Option<TreeCounts>,
    pub value: i8,
    /// Each first move and the value for White after it.
    pub first_moves: Vec<(String, i8)>,
    pub seconds: f64,
    /// Positions the solver searched.
    pub solver_nodes: u64,
}

impl Report {
    /// The UCI_Variant / XBoard name of these rules on this board: only square boards have
    /// one (`pawns5ep`).
    pub fn variant(&self) -> Option<String> {
        let (family, suffix) = match self.rules {
            "enpassant" => ("pawns", "ep"),
            "doublestep" => ("pawns", "d"),
            "pawngame" => ("pawngame", ""),
            "pawngame-ep" => ("pawngame", "ep"),
            _ => ("pawns", ""),
        };
        (self.width == self.height).then(|| format!("{family}{}{suffix}", self.width))
    }
}

/// The root position described by the arguments.
fn root_of(args: &Args) -> Result<Pawns, CliError> {
    let suffix = if args.enpassant {
        "ep"
    } else if args.doublestep {
        "d"
    } else {
        ""
    };
    let rules = if args.pawngame {
        Rules::pawn_game(args.enpassant)
    } else {
        Rules::seed(args.doublestep, args.enpassant)
    };
    let (fen, n) = match (&args.fen, args.size, args.width, args.height) {
        (Some(fen), ..) => (fen.clone(), 6),
        (None, Some(n), ..) => (start_fen_of(n, n, rules), n),
        (None, None, Some(w), Some(h)) => (start_fen_of(w, h, rules), w),
        _ => return Err("say which board: --size N, --width W --height H, or --fen FEN".into()),
    };
    // The variant name only carries the rules here; the FEN fixes the board.
    let variant = if args.pawngame {
        let suffix = if args.enpassant { "ep" } else { "" };
        format!("pawngame{}{suffix}", n.max(4))
    } else {
        format!("pawns{n}{suffix}")
    };
    Ok(Pawns::from_fen(&variant, &fen)?)
}

/// The rules of `root` as the report names them.
fn rules_name(root: &Pawns) -> &'static str {
    if root.rules.pawn_game {
        return if root.rules.en_passant {
            "pawngame-ep"
        } else {
            "pawngame"
        };
    }
    match (root.rules.double_step, root.rules.en_passant) {
        (_, true) => "enpassant",
        (true, false) => "doublestep",
        _ => "plain",
    }
}

/// Analyses `root`: tree counts unless `value_only`, and the values. With `verbose`, progress
/// goes to stderr and Ctrl-C prints the complete part of the result (see [`crate::progress`]).
pub fn analyze(
    root: &Pawns,
    value_only: bool,
    max_positions: u64,
    verbose: bool,
) -> Result<Report, CliError> {
    let start = Instant::now();
    let shape = Shape::of(root);
    let pos = Pos::of(root);
    let style = if verbose { Style::detect() } else { Style::Off };
    let (w, h) = root.size();
    let mut report = Report {
        width: w,
        height: h,
        rules: rules_name(root),
        fen: root.fen(),
        counts: None,
        value: 0,
        first_moves: Vec::new(),
        seconds: 0.0,
        solver_nodes: 0,
    };
    if verbose {
        progress::catch_interrupt();
    }
    if !value_only {
        let mut bar = Progress::fraction("analyze: counting", style);
        let header = known_header(&report);
        let mut on_layer = |c: &TreeCounts, swept: f64| {
            bar.set(
                (swept * 1000.0) as u64,
                &format!("(of the layers) {} positions", c.unique_positions),
            );
            if verbose {
                let mut text = header.clone();
                text.push_str(&format!(
                    "tree counts over the positions swept so far ({:.0} % of the layers):\n",
                    100.0 * swept
                ));
                text.push_str(&rows_text(&count_rows(c)));
                progress::set_known(text);
            }
        };
        let counts = count_tree(shape, &pos, max_positions, Some(&mut on_layer)).map_err(|n| {
            format!(
                "the tree count needs more than {n} positions at a time; \
                 raise --max-positions or use --value-only"
            )
        })?;
        report.counts = Some(counts);
    }
    let moves = shape.moves(&pos);
    let names: Vec<String> = moves.iter().map(|(mv, _)| mv.to_string()).collect();
    let bar = Rc::new(RefCell::new(Progress::with_style(
        "analyze: solving",
        1 + moves.len() as u64,
        style,
    )));
    bar.borrow_mut()
        .set(0, "values proven (the root's value first)");
    if verbose {
        progress::set_known(partial_table(&report, false, moves.len()));
    }
    let solved = Rc::new(RefCell::new(0u64));
    let on_nodes: Option<Box<dyn FnMut(u64, u64)>> = {
        let (bar, solved) = (Rc::clone(&bar), Rc::clone(&solved));
        Some(Box::new(move |nodes, entries| {
            let message = format!("values, solver {nodes} nodes, {entries} positions stored");
            bar.borrow_mut().set(*solved.borrow(), &message);
        }))
    };
    let budget = Budget {
        deadline: None,
        stop: None,
        max_positions: Some(max_positions),
        forget_when_full: true,
    };
    let mut known = report.clone();
    let mut on_value = |k: usize, v: i8| {
        *solved.borrow_mut() = k as u64 + 1;
        bar.borrow_mut().set(k as u64 + 1, "values proven");
        if k == 0 {
            known.value = v;
        } else {
            known.first_moves.push((names[k - 1].clone(), v));
        }
        if verbose {
            progress::set_known(partial_table(&known, true, moves.len()));
        }
    };
    let (value, firsts, solver_nodes) =
        solve_root_reporting(shape, &pos, budget, on_nodes, &mut on_value)
            .map_err(|e| format!("the solver gave up: {e:?}"))?;
    report.value = value;
    report.first_moves = names.into_iter().zip(firsts).collect();
    report.solver_nodes = solver_nodes;
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// A tree count as JSON: a number while it fits in u64 (every JSON reader takes those), else
/// a decimal string (a u128 count beyond 2^64 − 1).
#[derive(Clone, Copy, Debug)]
struct Count(u128);

impl serde::Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            Ok(n) => s.serialize_u64(n),
            Err(_) => s.serialize_str(&self.0.to_string()),
        }
    }
}

/// A count as JSON text ([`Count`]).
pub fn json_count(n: u128) -> String {
    serde_json::to_string(&Count(n)).unwrap_or_else(|_| format!("\"{n}\""))
}

/// The tree counts of the JSON report (absent with `--value-only`).
#[derive(serde::Serialize)]
struct JsonCounts {
    unique_positions: u64,
    tree_nodes: Count,
    white_wins: Count,
    black_wins: Count,
    draws: Count,
    max_depth: u32,
    max_branching: usize,
}

/// One first move and its value for White.
#[derive(serde::Serialize)]
struct JsonMove<'a> {
    #[serde(rename = "move")]
    name: &'a str,
    value: i8,
}

/// The JSON report, its keys in the order written (docs/analysis.md describes each).
#[derive(serde::Serialize)]
struct JsonReport<'a> {
    width: u8,
    height: u8,
    rules: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    fen: &'a str,
    value_only: bool,
    #[serde(flatten)]
    counts: Option<JsonCounts>,
    value: i8,
    first_move_values: Vec<i8>,
    first_moves: Vec<JsonMove<'a>>,
    solver_nodes: u64,
    /// Wall time, rounded to milliseconds.
    seconds: f64,
}

/// The report as one JSON object on one line, written by serde_json (docs/analysis.md
/// describes every key). With `--value-only` the tree counts are absent and `value_only` is
/// true.
pub fn to_json(r: &Report) -> String {
    let report = JsonReport {
        width: r.width,
        height: r.height,
        rules: r.rules,
        variant: r.variant(),
        fen: &r.fen,
        value_only: r.counts.is_none(),
        counts: r.counts.as_ref().map(|c| JsonCounts {
            unique_positions: c.unique_positions,
            tree_nodes: Count(c.tree_nodes),
            white_wins: Count(c.white_wins),
            black_wins: Count(c.black_wins),
            draws: Count(c.draws),
            max_depth: c.max_depth,
            max_branching: c.max_branching,
        }),
        value: r.value,
        first_move_values: r.first_moves.iter().map(|(_, v)| *v).collect(),
        first_moves: r
            .first_moves
            .iter()
            .map(|(m, v)| JsonMove { name: m, value: *v })
            .collect(),
        solver_nodes: r.solver_nodes,
        seconds: (r.seconds * 1000.0).round() / 1000.0,
    };
    // Serialising plain numbers, strings and lists cannot fail; an error would be a bug.
    serde_json::to_string(&report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The rows of the tree counts.
fn count_rows(c: &TreeCounts) -> Vec<(&'static str, String)> {
    vec![
        ("unique positions", c.unique_positions.to_string()),
        ("tree nodes", c.tree_nodes.to_string()),
        ("white wins", c.white_wins.to_string()),
        ("black wins", c.black_wins.to_string()),
        ("draws", c.draws.to_string()),
        ("max depth", c.max_depth.to_string()),
        ("max branching", c.max_branching.to_string()),
    ]
}

/// Rows as a two-column text table.
fn rows_text(rows: &[(&str, String)]) -> String {
    rows.iter().map(|(k, v)| format!("{k:<18} {v}\n")).collect()
}

/// The first rows: board and position.
fn header_rows(r: &Report) -> Vec<(&'static str, String)> {
    let rules = match r.rules {
        "enpassant" => "en passant",
        "doublestep" => "double step",
        _ => "plain",
    };
    vec![
        ("board", format!("{}×{}, {rules}", r.width, r.height)),
        ("position", r.fen.clone()),
    ]
}

fn known_header(r: &Report) -> String {
    rows_text(&header_rows(r))
}

fn first_move_text(r: &Report) -> String {
    let firsts: Vec<String> = r
        .first_moves
        .iter()
        .map(|(m, v)| format!("{m} {v}"))
        .collect();
    firsts.join(", ")
}

/// What is known while the values are being solved (for Ctrl-C): counts, the value once
/// proven (`value_known`), the first-move values proven so far.
fn partial_table(r: &Report, value_known: bool, first_moves: usize) -> String {
    let mut rows = header_rows(r);
    if let Some(c) = &r.counts {
        rows.extend(count_rows(c));
    }
    let value = match value_known {
        true => r.value.to_string(),
        false => "not proven yet".to_string(),
    };
    rows.push(("value", value));
    rows.push((
        "first-move values",
        format!(
            "{} ({} of {first_moves} proven)",
            first_move_text(r),
            r.first_moves.len()
        ),
    ));
    rows_text(&rows)
}

/// The report as a two-column text table.
pub fn to_table(r: &Report) -> String {
    let mut rows = header_rows(r);
    match &r.counts {
        Some(c) => rows.extend(count_rows(c)),
        None => rows.push(("tree counts", "not computed (--value-only)".to_string())),
    }
    rows.push(("value", r.value.to_string()));
    rows.push(("first-move values", first_move_text(r)));
    rows.push(("solver nodes", r.solver_nodes.to_string()));
    rows.push(("time", format!("{:.3} s", r.seconds)));
    rows_text(&rows)
}

/// `kiebitz-pawns analyze …`: returns the exit code.
pub fn cli(args: &[String]) -> i32 {
    let args: Args = match crate::limits::parse_args("kiebitz-pawns analyze", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    crate::limits::exit_code(run(&args), "analyze", 1)
}

fn run(args: &Args) -> Result<(), CliError> {
    let root = root_of(args)?;
    if let Some(path) = &args.dot {
        let (text, n) = dot(Shape::of(&root), &Pos::of(&root), MAX_DOT_POSITIONS)?;
        if n > 2000 {
            eprintln!("analyze: warning: {n} positions; Graphviz will be slow on this graph");
        }
        crate::files::write_bytes(path, text)?;
    }
    let report = analyze(&root, args.value_only, args.max_positions, true)?;
    // A closed stdout (`| true`, `| head`) ends the command quietly; a failing one
    // (`> /dev/full`) is an error.
    if args.json {
        crate::limits::out(format_args!("{}", to_json(&report)))
    } else {
        let table = to_table(&report);
        crate::limits::out(format_args!("{}", table.trim_end_matches('\n')))
    }
}
