//! `kiebitz-match --report FILE.html`: one self-contained HTML page about a match, for a person
//! to look at. It holds the standings (per engine: games, wins, losses, draws, points, score,
//! Elo ± 95 %), the pentanomial pair Elo when the games came in colour-swapped pairs, the
//! SPRT's log-likelihood ratio against its bounds (with `--sprt`), plots of the Elo and the LLR
//! over the games (SVG, [`plot`]), and every game to replay: its PGN and the position after
//! each move (FENs computed here, under kiebitz's rules), which the page's small script draws
//! as an SVG board. Nothing is fetched when the page is opened.
//!
//! A match writes the file when it starts (so a bad path stops it before the first game), at
//! most every [`REWRITE_EVERY`] while it runs, when it ends, and when it is interrupted with
//! Ctrl-C (the games finished so far; [`crate::progress::on_interrupt`]).
//! `kiebitz-match --game G --report FILE.html --from-pgn GAMES.pgn [--sprt …]` writes the same
//! page from the PGN of a finished run: a match's report and the report of its PGN hold the
//! same numbers, because the match's games go through their own PGN text on the way in.
//!
//! - [`summary`]: the numbers (standings, pairs, series for the plots).
//! - [`plot`]: the plots.
//! - [`tournament`]: the report of a tournament of more than two engines.
//! - [`page`]: the HTML, with `report.css` and `report.js` (the board viewer) inlined.
//! - [`pieces`]: the chess piece set (SVG) that the viewer and the web page draw.
//!
//! Two-player games only (N-seat games have their own runner and records).

pub mod error;
pub mod page;
pub mod pieces;
pub mod plot;
pub mod summary;
pub mod tournament;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::san;

use super::cli::Config;
use super::pgn::{self, Header, PgnGame};
use super::referee::GameRecord;
use super::stats::Sprt;
pub use error::ReportError;
use summary::Scored;

/// How often a running match rewrites its report at most.
pub const REWRITE_EVERY: Duration = Duration::from_secs(10);

/// One game as the report shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub scored: Scored,
    /// The referee's sentence (`Black has no legal move and loses`); a PGN read back has none.
    pub reason: Option<String>,
    /// The moves as the PGN writes them.
    pub sans: Vec<String>,
    /// The start position and the position after each move that replays.
    pub fens: Vec<String>,
    /// Why the moves stop replaying before their end, if they do.
    pub error: Option<String>,
    /// The game's PGN text.
    pub pgn: String,
}

/// What the page says about the run.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// The match is being played: the games planned.
    Running(usize),
    Finished(usize),
    /// Ctrl-C stopped the match: the games planned.
    Interrupted(usize),
    /// Read from this PGN file.
    FromPgn(String),
}

/// The page's heading facts.
#[derive(Clone, Debug, PartialEq)]
pub struct Meta {
    pub event: String,
    /// The game's registry name (`pawns`, `chess`, …): the page draws its boards by it.
    pub game: &'static str,
    pub variant: String,
    /// The time control in words (`movetime 20 ms`), when known.
    pub time_control: Option<String>,
    pub date: String,
}

/// Replays a PGN game under the rules of `G`: the start position's FEN and the FEN after each
/// move; stops at the first move that does not replay (with why). An unknown variant or a bad
/// start position is an error.
pub fn replay<G: Game>(game: &PgnGame) -> Result<(Vec<String>, Option<String>), crate::Error> {
    let mut pos = super::pgn::start_position::<G>(game)?;
    let mut fens = vec![pos.fen()];
    for (i, m) in game.moves.iter().enumerate() {
        match san::read(&pos, m) {
            Ok(mv) => {
                pos = pos.play(mv);
                fens.push(pos.fen());
            }
            Err(e) => return Ok((fens, Some(format!("move {} ({m}): {e}", i + 1)))),
        }
    }
    Ok((fens, None))
}

/// A PGN game read back as PGN text again (tags, numbered moves, result).
pub fn pgn_text(game: &PgnGame) -> String {
    let mut out = String::new();
    for (k, v) in &game.tags {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push('\n');
    let mut fields = game.tag("FEN").unwrap_or("").split_whitespace().skip(1);
    let black_first = fields.next() == Some("b");
    let mut number: u64 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (ply, m) in game.moves.iter().enumerate() {
        let white_move = (ply % 2 == 0) != black_first;
        if white_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
        if !white_move {
            number += 1;
        }
    }
    tokens.push(game.result.clone());
    pgn::wrap_movetext(&tokens, &mut out);
    out
}

/// A PGN game as the report shows it, its number `fallback` when it has no `Round`.
fn played<G: Game>(
    game: &PgnGame,
    text: String,
    fallback: usize,
    reason: Option<String>,
) -> Result<Played, ReportError> {
    let (fens, error) = replay::<G>(game)?;
    let number = game
        .tag("Round")
        .and_then(|r| r.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(fallback);
    Ok(Played {
        scored: Scored {
            number,
            white: game.tag("White").unwrap_or("?").to_string(),
            black: game.tag("Black").unwrap_or("?").to_string(),
            result: game.result.clone(),
            termination: game.tag("Termination").unwrap_or("?").to_string(),
        },
        reason,
        sans: game.moves.clone(),
        fens,
        error,
        pgn: text,
    })
}

/// Writes `text` to `path` through a temporary file beside it, so that a reader never sees half
/// a page and a failed write leaves the old page.
pub fn write_file(path: &str, text: &str) -> Result<(), ReportError> {
    let target = std::path::Path::new(path);
    if target.is_dir() {
        return Err(ReportError::write(path, "it is a directory"));
    }
    if target.file_name().is_none() {
        return Err(ReportError::write(path, "no file name"));
    }
    crate::files::write_whole(target, |out| {
        std::io::Write::write_all(out, text.as_bytes())
    })
    .map_err(|e| ReportError::write(path, e))
}

/// Everything a match's report holds, shared with the Ctrl-C hook.
struct Inner {
    path: String,
    meta: Meta,
    names: Vec<String>,
    sprt: Option<Sprt>,
    planned: usize,
    games: Vec<Played>,
    header: Header,
    write_pgn: fn(&GameRecord, &Header) -> String,
    replay: fn(&PgnGame, String, usize, Option<String>) -> Result<Played, ReportError>,
    last_write: Instant,
}

impl Inner {
    fn write(&mut self, status: &Status) -> Result<(), ReportError> {
        let html = page::render(&self.meta, &self.names, self.sprt, &self.games, status)?;
        write_file(&self.path, &html)?;
        self.last_write = Instant::now();
        Ok(())
    }
}

fn lock(inner: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    inner.lock().unwrap_or_else(|p| p.into_inner())
}

/// A running match's report: does nothing without `--report`.
pub struct Report {
    inner: Option<Arc<Mutex<Inner>>>,
}

impl Report {
    /// The report of the match `cfg` between `names` (`total` games planned), written once
    /// now (an unwritable path is an error before the first game) and on Ctrl-C.
    pub fn for_match<G: Game>(
        cfg: &Config,
        names: &[String],
        header: &Header,
        total: usize,
    ) -> Result<Report, ReportError> {
        let Some(path) = &cfg.report else {
            return Ok(Report { inner: None });
        };
        let variant = match &cfg.variant {
            Some(v) => v.clone(),
            None => G::variants()[0].to_string(),
        };
        let (tc0, tc1) = (cfg.engines[0].tc.describe(), cfg.engines[1].tc.describe());
        let time_control = if tc0 == tc1 {
            tc0
        } else {
            format!("{tc0} vs {tc1}")
        };
        let mut inner = Inner {
            path: path.clone(),
            meta: Meta {
                event: header.event.clone(),
                game: G::GAME,
                variant,
                time_control: Some(time_control),
                date: header.date.clone(),
            },
            names: names.to_vec(),
            sprt: cfg.sprt,
            planned: total,
            games: Vec::new(),
            header: header.clone(),
            write_pgn: pgn::write::<G>,
            replay: played::<G>,
            last_write: Instant::now(),
        };
        inner.write(&Status::Running(total))?;
        let inner = Arc::new(Mutex::new(inner));
        let hook = Arc::clone(&inner);
        crate::progress::on_interrupt(Some(Box::new(move || {
            let mut inner = lock(&hook);
            let status = Status::Interrupted(inner.planned);
            match inner.write(&status) {
                Ok(()) => eprintln!(
                    "kiebitz-match: report of the {} games played written to {}",
                    inner.games.len(),
                    inner.path
                ),
                Err(e) => eprintln!("kiebitz-match: {e}"),
            }
        })));
        Ok(Report { inner: Some(inner) })
    }

    /// Adds a finished game; rewrites the page if the last write is [`REWRITE_EVERY`] old.
    pub fn add(&mut self, record: &GameRecord) {
        let Some(inner) = &self.inner else { return };
        let mut inner = lock(inner);
        let text = (inner.write_pgn)(record, &inner.header);
        let number = inner.games.len() + 1;
        let game = pgn::parse(&text)
            .map_err(ReportError::from)
            .and_then(|games| {
                let g = games.first().ok_or(ReportError::NoRecord)?;
                (inner.replay)(g, text.clone(), number, Some(record.reason.clone()))
            });
        match game {
            Ok(g) => inner.games.push(g),
            Err(e) => log::warn!("report: game {} left out: {e}", record.number),
        }
        if inner.last_write.elapsed() >= REWRITE_EVERY {
            let status = Status::Running(inner.planned);
            if let Err(e) = inner.write(&status) {
                log::warn!("{e}");
            }
        }
    }

    /// Writes the final page (and forgets the Ctrl-C hook).
    pub fn finish(self) -> Result<(), ReportError> {
        let Some(inner) = self.inner else {
            return Ok(());
        };
        crate::progress::on_interrupt(None);
        let mut inner = lock(&inner);
        let status = Status::Finished(inner.planned);
        inner.write(&status)?;
        eprintln!(
            "kiebitz-match: report of {} games written to {}",
            inner.games.len(),
            inner.path
        );
        Ok(())
    }
}

/// The largest PGN file `--from-pgn` reads.
pub const MAX_PGN_BYTES: u64 = super::MAX_PGN_BYTES;

/// `--report FILE --from-pgn GAMES.pgn`: the report of a finished run's PGN, under the rules of
/// `G`. A file that does not read, does not parse as PGN, or holds a game whose start is not a
/// position of `G` is refused and nothing is written.
pub fn from_pgn<G: Game>(cfg: &Config, pgn_path: &str) -> Result<(), ReportError> {
    let report = cfg.report.as_deref().ok_or(ReportError::NoReportFile)?;
    let text =
        crate::files::read_input_text(pgn_path, MAX_PGN_BYTES).map_err(ReportError::PgnFile)?;
    let (html, games) = render_pgn::<G>(&text, pgn_path, "--game ", cfg.sprt)?;
    write_file(report, &html)?;
    eprintln!("kiebitz-match: report of {games} games from {pgn_path} written to {report}");
    Ok(())
}

/// The report page of the games in the PGN `text` under the rules of `G` and the number of
/// games (also for the web server's `POST /api/report`). `source` names the PGN in the page and
/// in errors; `flag` is how the caller chooses the game (`"--game "`, `"game="`), for the hint when
/// the games do not replay. A text that does not parse as PGN, holds no game, or a game whose
/// start is not a position of `G` is refused.
pub fn render_pgn<G: Game>(
    text: &str,
    source: &str,
    flag: &str,
    sprt: Option<Sprt>,
) -> Result<(String, usize), ReportError> {
    let parsed = pgn::parse(text).map_err(|error| ReportError::Pgn {
        pgn: source.to_string(),
        error,
    })?;
    if parsed.is_empty() {
        return Err(ReportError::NoGame {
            pgn: source.to_string(),
        });
    }
    let mut games = Vec::with_capacity(parsed.len());
    for (i, g) in parsed.iter().enumerate() {
        let game = played::<G>(g, pgn_text(g), i + 1, None).map_err(|e| ReportError::Game {
            pgn: source.to_string(),
            number: i + 1,
            error: Box::new(e),
            flag: flag.to_string(),
            game: G::GAME,
        })?;
        games.push(game);
    }
    // Games of another game replay no move at all: say so rather than draw empty boards.
    let with_moves = games.iter().filter(|g| !g.sans.is_empty());
    if with_moves.clone().count() > 0 && with_moves.clone().all(|g| g.fens.len() == 1) {
        let why = with_moves
            .filter_map(|g| g.error.clone())
            .next()
            .unwrap_or_default();
        return Err(ReportError::NoReplay {
            pgn: source.to_string(),
            game: G::GAME,
            why,
            flag: flag.to_string(),
        });
    }
    let first = &parsed[0];
    let meta = Meta {
        event: first.tag("Event").unwrap_or("kiebitz-match").to_string(),
        game: G::GAME,
        variant: first.tag("Variant").unwrap_or(G::variants()[0]).to_string(),
        time_control: first.tag("TimeControl").map(str::to_string),
        date: first.tag("Date").unwrap_or("?").to_string(),
    };
    let html = page::render(
        &meta,
        &[],
        sprt,
        &games,
        &Status::FromPgn(source.to_string()),
    )?;
    Ok((html, games.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    #[test]
    fn replay_gives_a_fen_per_move_and_stops_at_a_bad_one() {
        let g = &pgn::parse(
            "[Variant \"pawns3\"]\n[FEN \"ppp/3/PPP w - - 0 1\"]\n\n1. b2 a2 2. bxc3 1-0\n",
        )
        .unwrap()[0];
        let (fens, error) = replay::<Pawns>(g).unwrap();
        assert_eq!(fens.len(), 4, "{fens:?}");
        assert_eq!(fens[0], "ppp/3/PPP w - - 0 1");
        assert_eq!(error, None);
        let bad = &pgn::parse("[Variant \"pawns3\"]\n\n1. a2 a2 1-0\n").unwrap()[0];
        let (fens, error) = replay::<Pawns>(bad).unwrap();
        assert_eq!(fens.len(), 2);
        assert!(error.unwrap().starts_with("move 2 (a2)"));
        let unknown = &pgn::parse("[Variant \"nope\"]\n\n1. a2 1-0\n").unwrap()[0];
        assert!(replay::<Pawns>(unknown).is_err());
    }

    #[test]
    fn pgn_text_reads_back_the_same() {
        let text = "[Event \"E\"]\n[White \"A \\\"x\\\"\"]\n[FEN \"ppp/3/PPP b - - 0 7\"]\n\n\
                    7... a2 8. bxa2 c2 9. a3 1-0\n\n";
        let g = &pgn::parse(text).unwrap()[0];
        let again = pgn_text(g);
        assert_eq!(again, text);
        assert_eq!(&pgn::parse(&again).unwrap()[0], g);
    }

    #[test]
    fn bad_report_paths_are_refused() {
        let dir = std::env::temp_dir();
        let err = write_file(dir.to_str().unwrap(), "x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a directory"), "{err}");
        let err = write_file("/nonexistent-kiebitz-dir/r.html", "x")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("cannot write the report /nonexistent-kiebitz-dir/r.html"),
            "{err}"
        );
    }
}
