//! The shell side of `kiebitz-crash` beyond the shared subcommands: `analyze` (solve and save
//! a database), `theorems` (the column's statements checked), and the options every
//! subcommand takes — `--start H:L` (the start position, the same as `--fen H:L`) and
//! `--db FILE` (a database the engine plays from; the entrance hands it to the search as its
//! oracle). Depends on [`super::db`], [`super::theorems`] and the position.

use crate::error::CliError;
use std::time::Instant;

use clap::Parser;

use super::db::{self, Db};
use super::theorems;
use crate::limits;

/// `println!` for results: returns from the function with the error when stdout fails
/// (`> /dev/full`), see [`limits::out`].
macro_rules! out {
    ($($arg:tt)*) => {
        limits::out(format_args!($($arg)*))?
    };
}

#[derive(Parser, Debug)]
#[command(
    name = "kiebitz-crash analyze",
    about = "Solves every CRASH! position with 1..N stones a side on M cells (value, distance)"
)]
struct AnalyzeArgs {
    /// Most stones a side.
    #[arg(long, default_value_t = 3)]
    n: usize,
    /// Cells on the board (2..=64).
    #[arg(long, default_value_t = 8)]
    cells: usize,
    /// Write the database to FILE (for `--db FILE`).
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Print one JSON object instead of the text summary.
    #[arg(long)]
    json: bool,
    /// Also print the value, distance and optimal line of this position (needs its size).
    #[arg(long)]
    fen: Option<String>,
}

/// `kiebitz-crash analyze …`: returns the exit code.
pub fn analyze(args: &[String]) -> i32 {
    let a: AnalyzeArgs = match crate::limits::parse_args("kiebitz-crash analyze", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    limits::exit_code(run_analyze(&a), "error", 1)
}

fn run_analyze(a: &AnalyzeArgs) -> Result<(), CliError> {
    db::check_size(a.n, a.cells)?;
    let probe = match &a.fen {
        Some(t) => Some(
            crate::games::crash::Crash::parse(t).map_err(|e| format!("bad position '{t}': {e}"))?,
        ),
        None => None,
    };
    let layout = db::Layout::new(a.n, a.cells)?;
    eprintln!(
        "analyze: n = {}, m = {}: {} entries ({:.1} MB)",
        a.n,
        a.cells,
        layout.total,
        layout.total as f64 / 1e6
    );
    crate::progress::catch_interrupt();
    let (db, s) = db::analyze(a.n, a.cells, false)?;
    if let Some(path) = &a.out {
        db.save(path)?;
        eprintln!("analyze: wrote {path}");
    }
    if a.json {
        out!(
            "{{\"n\": {}, \"cells\": {}, \"positions\": {}, \"wins_for_mover\": {}, \"longest_win\": {}, \"longest_win_position\": \"{}\", \"seconds\": {:.3}, \"peak_memory_mb\": {:.1}}}",
            s.n,
            s.m,
            s.positions,
            s.wins_for_mover,
            s.longest_win,
            s.longest_win_position,
            s.seconds,
            s.peak_memory_mb
        );
    } else {
        out!("cells             {}", s.m);
        out!("stones a side     1..{}", s.n);
        out!("positions         {} (either side to move)", s.positions);
        out!(
            "wins for mover    {} ({:.1} %)",
            s.wins_for_mover,
            100.0 * s.wins_for_mover as f64 / s.positions.max(1) as f64
        );
        out!(
            "longest win       {} plies ({})",
            s.longest_win,
            s.longest_win_position
        );
        out!("time              {:.2} s", s.seconds);
        out!("peak memory       {:.1} MB", s.peak_memory_mb);
    }
    if let Some(pos) = probe {
        match db.distance(&pos) {
            Some(d) => out!(
                "{}: {} for the side to move in {d} plies; optimal line: {}",
                pos.text(),
                if d % 2 == 1 { "won" } else { "lost" },
                theorems::line_text(&db, &pos)
            ),
            None => out!("{}: not in this database", pos.text()),
        }
    }
    Ok(())
}

#[derive(Parser, Debug)]
#[command(
    name = "kiebitz-crash theorems",
    about = "Checks the column's parity statements on every position of 1..3 stones a side"
)]
struct TheoremArgs {
    /// Largest board (the databases run over m = 2..=CELLS).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(6..=40))]
    max_cells: u64,
}

/// `kiebitz-crash theorems …`: returns the exit code.
pub fn theorems(args: &[String]) -> i32 {
    let a: TheoremArgs = match crate::limits::parse_args("kiebitz-crash theorems", args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let start = Instant::now();
    let run = || -> Result<(), CliError> {
        // Ctrl-C prints the report of the boards already done and exits with 130.
        crate::progress::catch_interrupt();
        let max = a.max_cells as usize;
        crate::progress::set_known(format!("theorems: no board of 2..{max} done yet"));
        let f = theorems::check_with(
            max,
            &mut |l| eprintln!("theorems: {l}"),
            &mut |m, report| {
                crate::progress::set_known(format!(
                    "theorems: boards m = 2..{m} of 2..{max} done\n{}",
                    report.join("\n")
                ))
            },
        )?;
        for line in &f.report {
            out!("{line}");
        }
        eprintln!("theorems: {:.1} s", start.elapsed().as_secs_f64());
        Ok(())
    };
    limits::exit_code(run(), "error", 1)
}

/// Takes `--db FILE` out of the arguments (loading the database) and turns `--start H:L`
/// into `--fen H:L`, for the shared command line that follows.
pub fn prepare(args: &[String]) -> Result<(Vec<String>, Option<Db>), CliError> {
    let mut out = Vec::new();
    let mut db = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        match flag {
            "--db" | "--start" => {
                let value = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| format!("{flag} needs a value"))?,
                };
                if flag == "--db" {
                    db = Some(Db::load(&value)?);
                } else {
                    crate::games::crash::Crash::parse(&value)
                        .map_err(|e| format!("--start {value}: {e}"))?;
                    out.push("--fen".to_string());
                    out.push(value);
                }
            }
            _ => out.push(a.clone()),
        }
    }
    Ok((out, db))
}
