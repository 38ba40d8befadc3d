//! The typed error of the HTML report ([`super`]): a page that could not be drawn or written,
//! or a PGN that does not make one. Its `Display` is the sentence `kiebitz-match` and the web
//! server's `POST /api/report` have always shown.

use crate::FileError;

/// Why a report page was not made or not written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    /// The page could not be written to `path` (`why`: a folder, no file name, the system's).
    #[error("cannot write the report {path}: {why}")]
    Write { path: String, why: String },
    /// The plotting library refused a plot (its words).
    #[error("cannot draw the plot: {0}")]
    Plot(String),
    /// The PGN file could not be read.
    #[error("PGN file: {0}")]
    PgnFile(FileError),
    /// The tournament's own PGN could not be read.
    #[error("the tournament's PGN: {0}")]
    TournamentPgn(FileError),
    /// The PGN text `pgn` does not parse.
    #[error("{pgn}: {error}")]
    Pgn { pgn: String, error: crate::Error },
    /// The PGN text `pgn` holds no game.
    #[error("{pgn} holds no game")]
    NoGame { pgn: String },
    /// A game's record turned into PGN holds no game.
    #[error("no game")]
    NoRecord,
    /// A game whose start is not a position of the game (its variant or FEN).
    #[error(transparent)]
    Start(#[from] crate::Error),
    /// Game `number` of `pgn` refused (`flag` and `game` make the hint).
    #[error("{pgn}: game {number}: {error} (is {flag}{game} right?)")]
    Game {
        pgn: String,
        number: usize,
        error: Box<ReportError>,
        flag: String,
        game: &'static str,
    },
    /// No game of `pgn` replays a move under the rules of `game` (`why`: the first's).
    #[error(
        "{pgn}: no game replays a single move under the rules of {game} (game 1: {why}; is \
         {flag}{game} right?)"
    )]
    NoReplay {
        pgn: String,
        game: &'static str,
        why: String,
        flag: String,
    },
    /// The web's `game=` names no two-player game (`games`: those it may name).
    #[error("no match report for '{query}': reports are for the two-player games {games}")]
    NoReportFor { query: String, games: String },
    /// The web's PGN names no game and has no `Variant` tag to find it by.
    #[error("the first game has no Variant tag; name the game (game=…) of {games}")]
    NoVariantTag { games: String },
    /// The web's PGN's first `Variant` tag is no variant of the two-player games.
    #[error(
        "the first game's variant '{variant}' is no variant of {games}; name the game (game=…)"
    )]
    UnknownVariant { variant: String, games: String },
    /// `--from-pgn` without `--report`.
    #[error("--from-pgn makes a report: give --report FILE.html")]
    NoReportFile,
}

impl ReportError {
    /// [`ReportError::Plot`] of the plotting library's error.
    pub fn plot(e: impl std::fmt::Display) -> ReportError {
        ReportError::Plot(e.to_string())
    }

    /// [`ReportError::Write`] of `path`.
    pub fn write(path: &str, why: impl std::fmt::Display) -> ReportError {
        ReportError::Write {
            path: path.to_string(),
            why: why.to_string(),
        }
    }
}

crate::error::sentence_error!(ReportError, string only);
