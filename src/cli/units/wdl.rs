//! `units work` with the win/draw/loss solver ([`crate::solve::wdl`]), the solver `solve`
//! picks for an acyclic game: each unit's exact value for its side to move goes to
//! `unit-N.value`; with `--certificates` its certificates too, checked, without lemmas so that
//! `merge` can join them: a win's proof to `unit-N.proof`, a draw's holds to
//! `unit-N.white-hold` and `unit-N.black-hold` (the holder's colour). A unit whose budget
//! (`--time`) ends first is marked `unit-N.open`; with `--checkpoint-every` its table is kept
//! in `unit-N.ck/wdl.table` and a later run (`--retry-open`) resumes from it.

use crate::error::CliError;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Manifest, UnitEnd, WorkArgs, checkpoint_dir, result_path, write_whole};
use crate::board::Color;
use crate::game::Game;
use crate::solve::{AcyclicSolve, wdl, wdl_checkpoint};

/// A `unit-N.value` file's value (its first line: `value win|draw|loss`).
pub(super) fn parse_value(text: &str) -> Result<i8, CliError> {
    match text.lines().next().map(str::trim) {
        Some("value win") => Ok(1),
        Some("value draw") => Ok(0),
        Some("value loss") => Ok(-1),
        other => Err(format!(
            "expected 'value win', 'value draw' or 'value loss', found '{}'",
            other.unwrap_or("")
        )
        .into()),
    }
}

/// The extension of a unit's certificate held by `side`: a win's proof or that side's hold.
pub(super) fn certificate_ext(side: Color, hold: bool) -> &'static str {
    match (hold, side) {
        (false, _) => "proof",
        (true, Color::White) => "white-hold",
        (true, Color::Black) => "black-hold",
    }
}

/// Solves this worker's units (`mine`) of `manifest` that have no result yet with `solve`, one
/// after the other; Ctrl-C (`interrupt`) ends the unit in hand without a result.
pub(super) fn work<G: Game>(
    w: &WorkArgs,
    manifest: &Manifest,
    mine: &[usize],
    solve: AcyclicSolve<G>,
    interrupt: &AtomicBool,
) -> Result<(u32, u32), CliError> {
    if w.nodes.is_some() {
        return Err(
            "the win/draw/loss solver takes --time (seconds a unit), not --nodes (or use --dfpn)"
                .into(),
        );
    }
    let (mut valued, mut open) = (0, 0);
    for &i in mine {
        if super::has_result(&w.dir, i, w.retry_open) {
            continue;
        }
        if interrupt.load(Ordering::Relaxed) {
            break;
        }
        match work_unit::<G>(w, manifest, i, solve, interrupt)? {
            UnitEnd::Proven => valued += 1,
            UnitEnd::Open => open += 1,
            UnitEnd::Stopped => break,
        }
    }
    Ok((valued, open))
}

/// The solver's options for unit `i`: the root's value only (the first moves best first),
/// certificates without lemmas where asked, the unit's checkpoint where asked.
fn options(w: &WorkArgs, i: usize) -> Result<wdl::Options, CliError> {
    let checkpoint = match w.checkpoint_every {
        Some(every) => {
            let dir = checkpoint_dir(&w.dir, i);
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            Some(wdl_checkpoint::Checkpoint {
                path: dir.join("wdl.table"),
                every: crate::limits::seconds("--checkpoint-every", every)?,
            })
        }
        None => None,
    };
    Ok(wdl::Options {
        hash_mb: w.solver.hash,
        threads: w.solver.threads as usize,
        time: w
            .time
            .map(|t| crate::limits::seconds("--time", t))
            .transpose()?,
        progress: None,
        certificates: w.certificates,
        lemmas: false,
        root_only: true,
        checkpoint,
    })
}

/// Solves unit `i` and writes its result: its value (and certificates), the open mark and
/// the checkpoint then removed; or the open mark where the budget ended first.
fn work_unit<G: Game>(
    w: &WorkArgs,
    manifest: &Manifest,
    i: usize,
    solve: AcyclicSolve<G>,
    interrupt: &AtomicBool,
) -> Result<UnitEnd, CliError> {
    let (pos, _) = manifest.unit::<G>(i)?;
    let options = options(w, i)?;
    let s = solve(&pos, &options, interrupt)?;
    for note in &s.notes {
        eprintln!("units: unit {i}: {note}");
    }
    let (end, said) = match s.value {
        Some(v) => {
            write_certificates(&w.dir, i, &s, w.certificates)?;
            let text = format!(
                "value {}\nnodes {}\nseconds {:.3}\n",
                wdl::value_word(v),
                s.nodes,
                s.time.as_secs_f64()
            );
            write_whole(&result_path(&w.dir, i, "value"), &text)?;
            let _ = std::fs::remove_file(result_path(&w.dir, i, "open"));
            let _ = std::fs::remove_dir_all(checkpoint_dir(&w.dir, i));
            (
                UnitEnd::Proven,
                format!("a {} for the side to move", wdl::value_word(v)),
            )
        }
        None if interrupt.load(Ordering::Relaxed) => {
            (UnitEnd::Stopped, "stopped, no result".to_string())
        }
        None => {
            let text = format!("open after {} nodes\n", s.nodes);
            write_whole(&result_path(&w.dir, i, "open"), &text)?;
            (UnitEnd::Open, "open".to_string())
        }
    };
    eprintln!(
        "units: unit {i} ({}): {said}, {} nodes, {:.1} s",
        manifest.units[i].join(" "),
        s.nodes + s.certificate_nodes,
        (s.time + s.certificate_time).as_secs_f64()
    );
    Ok(end)
}

/// Writes the unit's checked certificates (compact format); an error where they were asked
/// for and are missing, so that a unit never has a value without what `merge` will need.
fn write_certificates(
    dir: &Path,
    i: usize,
    s: &wdl::Solution,
    asked: bool,
) -> Result<(), CliError> {
    if asked && s.certificates.is_empty() {
        return Err(format!("unit {i}: no certificate ({})", s.notes.join("; ")).into());
    }
    for (c, _) in &s.certificates {
        let path = result_path(dir, i, certificate_ext(c.winner, c.hold));
        crate::files::write_whole(&path, |out| c.write_to(out))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
