//! `POST /api/report`: the HTML match report (docs/report.md) of a PGN posted by the page at
//! `/report` or any client. The body is the PGN text (at most [`super::Config::max_report_body`]
//! bytes, 413 beyond); the query may name the game (`game=raeuber`, else the first game's
//! `Variant` tag decides, chess without one) and an SPRT (`elo0=0&elo1=5`). The page is made
//! by [`crate::tournament::html::render_pgn`], the code of `kiebitz-match --report --from-pgn`,
//! on a blocking thread that takes one of the engine threads. The answer is the page
//! (`text/html`) or `{"error"}` with 400 (not UTF-8, not PGN, no game, a game of other rules),
//! 413 or 503.
//!
//! Depends on [`super`] (the server's state and errors), `games` (the registry), `tournament`
//! (the report) and axum.

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;

use super::{ApiError, ApiResult, Shared, session};
use crate::game::Game;
use crate::games::{ForGame, with_game};
use crate::tournament::html::ReportError;
use crate::tournament::stats::Sprt;

/// What names the PGN in the report and its errors.
const SOURCE: &str = "the posted PGN";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReportQuery {
    game: Option<String>,
    elo0: Option<f64>,
    elo1: Option<f64>,
}

/// The report of `text` under the rules of one game of the registry.
struct Render<'a> {
    text: &'a str,
    sprt: Option<Sprt>,
}

impl ForGame for Render<'_> {
    type Output = Result<(String, usize), ReportError>;
    fn run<G: Game>(self) -> Self::Output {
        crate::tournament::html::render_pgn::<G>(self.text, SOURCE, "game=", self.sprt)
    }
}

/// The game whose rules replay the PGN: the query's, else the one whose variants hold the
/// first game's `Variant` tag (chess without one).
fn game_of(query: Option<&str>, text: &str) -> Result<&'static str, ReportError> {
    let two_player: Vec<session::GameInfo> = session::games()
        .into_iter()
        .filter(|g| g.seats == [2])
        .collect();
    let names = || {
        two_player
            .iter()
            .map(|g| g.game)
            .collect::<Vec<_>>()
            .join(" ")
    };
    if let Some(q) = query {
        let q = crate::games::page_of(q).map_or(q, |p| p.id());
        return two_player
            .iter()
            .find(|g| g.game == q)
            .map(|g| g.game)
            .ok_or_else(|| ReportError::NoReportFor {
                query: q.to_string(),
                games: names(),
            });
    }
    let games = crate::tournament::pgn::parse(text).map_err(|error| ReportError::Pgn {
        pgn: SOURCE.to_string(),
        error,
    })?;
    let Some(variant) = games.first().and_then(|g| g.tag("Variant")) else {
        // The PGN standard's game: the one whose PGNs carry no Variant tag.
        let untagged = |g: &&session::GameInfo| {
            let page = crate::games::page_of(g.game);
            g.variants
                .iter()
                .any(|v| page.is_some_and(|p| !p.variant_tag(v)))
        };
        return two_player
            .iter()
            .find(untagged)
            .map(|g| g.game)
            .ok_or_else(|| ReportError::NoVariantTag { games: names() });
    };
    let v = variant.to_ascii_lowercase();
    two_player
        .iter()
        .find(|g| g.variants.iter().any(|w| w.eq_ignore_ascii_case(&v)))
        .map(|g| g.game)
        .ok_or_else(|| ReportError::UnknownVariant {
            variant: variant.to_string(),
            games: names(),
        })
}

/// `POST /api/report[?game=G][&elo0=E0&elo1=E1]`, the body a PGN: the report page.
pub(super) async fn report(
    State(app): State<Shared>,
    query: Result<Query<ReportQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult {
    let Query(q) = query.map_err(|e| ApiError::bad(format!("bad query: {}", e.body_text())))?;
    let bytes = body.map_err(|r| ApiError(r.status(), r.body_text()))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::bad("the PGN is not UTF-8 text"))?
        .to_string();
    if text.trim().is_empty() {
        return Err(ApiError::bad("the request needs a PGN body"));
    }
    let sprt = match (q.elo0, q.elo1) {
        (None, None) => None,
        (Some(e0), Some(e1)) => Some(Sprt::new(e0, e1, 0.05, 0.05).map_err(ApiError::bad)?),
        _ => return Err(ApiError::bad("an SPRT needs both elo0 and elo1")),
    };
    let game = game_of(q.game.as_deref(), &text).map_err(ApiError::bad)?;
    let permit = app.engine_permit().await?;
    let rendered = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        with_game(game, Render { text: &text, sprt })
    })
    .await
    .map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the report failed".into(),
        )
    })?
    .ok_or_else(|| ApiError::bad(format!("no match report for {game}")))?;
    let (html, _) = rendered.map_err(ApiError::bad)?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        html,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::game_of;

    const GAME: &str = "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n*\n";

    #[test]
    fn an_alias_names_its_game() {
        assert_eq!(game_of(Some("raeuberschach"), ""), Ok("raeuber"));
        assert_eq!(game_of(Some("raeuber"), ""), Ok("raeuber"));
        assert!(
            game_of(Some("chamaeleon"), "").is_err(),
            "no report for N seats"
        );
        assert!(game_of(Some("go"), "").is_err());
    }

    #[test]
    fn a_pgn_without_a_variant_tag_is_chess_and_a_tag_names_its_game() {
        assert_eq!(game_of(None, GAME), Ok("chess"));
        let tagged = format!("[Variant \"Antichess\"]\n{GAME}");
        assert_eq!(game_of(None, &tagged), Ok("antichess"));
        let unknown = format!("[Variant \"Go\"]\n{GAME}");
        assert!(game_of(None, &unknown).is_err());
    }
}
