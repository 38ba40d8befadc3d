//! kiebitz-crash: CRASH!, towers of stones on a row of cells (docs/rules.md §9), with `analyze`
//! (exhaustive databases), `theorems` (the column's statements checked), `--start H:L`, and
//! `--db FILE`: a database handed to the search as its oracle, so the engine plays perfectly
//! wherever the database covers the position.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use kiebitz::games::crash::Crash;
use kiebitz::games::crash::analysis::cli;
use kiebitz::search::oracle::Oracle;

fn main() {
    let args = match kiebitz::cli::args() {
        Ok(a) => a,
        Err(code) => std::process::exit(code),
    };
    let (args, db) = match cli::prepare(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let oracle = db.map(|db| -> Oracle<Crash> {
        Arc::new(move |pos: &Crash, _: Duration, _: &AtomicBool| db.best(pos))
    });
    std::process::exit(kiebitz::cli::main_with_oracle::<Crash>(
        &args,
        &[("analyze", cli::analyze), ("theorems", cli::theorems)],
        oracle,
    ));
}
