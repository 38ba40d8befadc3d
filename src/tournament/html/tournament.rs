//! The report of a tournament (`--tournament round-robin|gauntlet --report FILE.html`): the
//! same page as a match's, made from the tournament's games as its PGN holds them, with the
//! standings ranked by points and a head-to-head cross table.
//!
//! Each pairing is played as a match of two engines that writes its games to the tournament's
//! PGN (`--pgn FILE`, or a hidden file beside the report, removed at the end); the page is
//! written at the start (an unwritable path stops the tournament before its first game), after
//! each pairing, at the end, and on Ctrl-C (the pairings finished so far). Games of an earlier
//! run in the same `--pgn` file are not counted: the page reads the file from where it ended
//! when the tournament began.

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::game::Game;

use super::super::cli::Config;
use super::super::pgn::{self, PgnGame};
use super::{MAX_PGN_BYTES, Meta, Played, ReportError, Status, page, played, write_file};

/// What the page needs to be written again, shared with the Ctrl-C hook.
struct Source {
    path: String,
    pgn: String,
    /// The PGN file's length when the tournament began.
    offset: usize,
    meta: Meta,
    planned: usize,
    replay: fn(&PgnGame, String, usize, Option<String>) -> Result<Played, ReportError>,
}

impl Source {
    /// The tournament's games so far, numbered in the order they were written.
    fn games(&self) -> Result<Vec<Played>, ReportError> {
        if !Path::new(&self.pgn).exists() {
            return Ok(Vec::new());
        }
        let text = crate::files::read_input_text(&self.pgn, MAX_PGN_BYTES)
            .map_err(ReportError::TournamentPgn)?;
        let ours = text.get(self.offset..).unwrap_or(&text);
        if ours.trim().is_empty() {
            return Ok(Vec::new());
        }
        let parsed = pgn::parse(ours).map_err(|error| ReportError::Pgn {
            pgn: self.pgn.clone(),
            error,
        })?;
        let mut games = Vec::with_capacity(parsed.len());
        for (i, g) in parsed.iter().enumerate() {
            let mut game = (self.replay)(g, super::pgn_text(g), i + 1, None)?;
            game.scored.number = i + 1;
            games.push(game);
        }
        Ok(games)
    }

    fn write(&self, status: &Status) -> Result<(), ReportError> {
        let html = page::render(&self.meta, &[], None, &self.games()?, status)?;
        write_file(&self.path, &html)
    }
}

/// A running tournament's report.
pub struct TournamentReport {
    source: Arc<Mutex<Source>>,
    /// The PGN is a hidden file of the report's, removed at the end.
    temporary: bool,
}

fn lock(source: &Mutex<Source>) -> std::sync::MutexGuard<'_, Source> {
    source.lock().unwrap_or_else(|p| p.into_inner())
}

/// The hidden PGN file beside the report `path` (`dir/.NAME.games.pgn`).
fn hidden_pgn(path: &str) -> String {
    let p = Path::new(path);
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    p.with_file_name(format!(".{name}.games.pgn"))
        .to_string_lossy()
        .into_owned()
}

/// The engines' time controls in words: one if they agree, else each.
fn time_control(cfg: &Config) -> String {
    let mut all: Vec<String> = cfg.engines.iter().map(|e| e.tc.describe()).collect();
    all.dedup();
    all.join(" / ")
}

impl TournamentReport {
    /// The report of the tournament `cfg` (`kind`: its name in words, `planned` games), written
    /// once now; `None` without `--report`.
    pub fn start<G: Game>(
        cfg: &Config,
        kind: &str,
        planned: usize,
    ) -> Result<Option<TournamentReport>, ReportError> {
        let Some(path) = &cfg.report else {
            return Ok(None);
        };
        let temporary = cfg.pgn.is_none();
        let pgn = cfg.pgn.clone().unwrap_or_else(|| hidden_pgn(path));
        if temporary {
            let _ = std::fs::remove_file(&pgn);
        }
        let offset = std::fs::metadata(&pgn).map_or(0, |m| m.len() as usize);
        let source = Source {
            path: path.clone(),
            pgn,
            offset,
            meta: Meta {
                event: format!("{} ({kind})", cfg.event),
                game: G::GAME,
                variant: cfg
                    .variant
                    .clone()
                    .unwrap_or_else(|| G::variants()[0].to_string()),
                time_control: Some(time_control(cfg)),
                date: pgn::today(),
            },
            planned,
            replay: played::<G>,
        };
        source.write(&Status::Running(planned))?;
        let report = TournamentReport {
            source: Arc::new(Mutex::new(source)),
            temporary,
        };
        report.arm();
        Ok(Some(report))
    }

    /// Where the pairings write their games.
    pub fn pgn_path(&self) -> String {
        lock(&self.source).pgn.clone()
    }

    /// Ctrl-C writes the page of the games finished so far (set again after every pairing,
    /// since a pairing's own match may take the hook over).
    fn arm(&self) {
        let hook = Arc::clone(&self.source);
        crate::progress::on_interrupt(Some(Box::new(move || {
            let source = lock(&hook);
            match source.write(&Status::Interrupted(source.planned)) {
                Ok(()) => eprintln!("kiebitz-match: report written to {}", source.path),
                Err(e) => eprintln!("kiebitz-match: {e}"),
            }
        })));
    }

    /// A pairing ended: the page again, with its games.
    pub fn pairing_done(&self) -> Result<(), ReportError> {
        let source = lock(&self.source);
        source.write(&Status::Running(source.planned))?;
        drop(source);
        self.arm();
        Ok(())
    }

    /// The final page; the hidden PGN removed.
    pub fn finish(self) -> Result<(), ReportError> {
        crate::progress::on_interrupt(None);
        let source = lock(&self.source);
        source.write(&Status::Finished(source.planned))?;
        if self.temporary {
            let _ = std::fs::remove_file(&source.pgn);
        }
        eprintln!("kiebitz-match: report written to {}", source.path);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hidden_pgn_sits_beside_the_report() {
        assert_eq!(hidden_pgn("out/t.html"), "out/.t.html.games.pgn");
        assert_eq!(hidden_pgn("t.html"), ".t.html.games.pgn");
    }
}
