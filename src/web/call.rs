//! One extractor for the API's requests about a game (`/api/game/{id}/…` with a JSON body):
//! the server, the game's id and the body read whole ([`GameCall`]); then, in the order every
//! handler checked them by hand before, the game (404 when there is none, 403 where a
//! spectator's link asks to change it) and the body parsed (`None` when blank, 400 when
//! malformed, 413 beyond the size limit), as a [`Call`].
//!
//! Depends on the web server's own types (`super`).

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use serde::Deserialize;

use super::{ApiError, Entry, Shared, parse_body};

/// A request about game `id`, its body read but not yet parsed.
pub(super) struct GameCall {
    app: Shared,
    id: String,
    body: Result<Bytes, BytesRejection>,
}

/// A request about a game, checked: the server, the id, the game's entry and the body.
pub(super) struct Call<T> {
    pub app: Shared,
    pub id: String,
    pub entry: Arc<Mutex<Entry>>,
    pub req: Option<T>,
}

impl FromRequest<Shared> for GameCall {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &Shared) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        let Path(id) = Path::<String>::from_request_parts(&mut parts, app)
            .await
            .map_err(|r| ApiError(r.status(), r.body_text()))?;
        let body = Bytes::from_request(Request::from_parts(parts, body), app).await;
        Ok(GameCall {
            app: Arc::clone(app),
            id,
            body,
        })
    }
}

impl GameCall {
    /// The game this request changes (not through a spectator's link) and the body.
    pub fn changes<T: for<'de> Deserialize<'de>>(self) -> Result<Call<T>, ApiError> {
        let entry = self.app.entry(&self.id)?;
        self.with(entry)
    }

    /// The game this request only reads (a spectator's link too) and the body.
    pub fn reads<T: for<'de> Deserialize<'de>>(self) -> Result<Call<T>, ApiError> {
        let (entry, _) = self.app.view_entry(&self.id)?;
        self.with(entry)
    }

    fn with<T: for<'de> Deserialize<'de>>(
        self,
        entry: Arc<Mutex<Entry>>,
    ) -> Result<Call<T>, ApiError> {
        let req = parse_body(self.body, true)?;
        Ok(Call {
            app: self.app,
            id: self.id,
            entry,
            req,
        })
    }
}

impl<T> Call<T> {
    /// The body, where the request needs one: 400 when it was blank.
    pub fn required(&mut self) -> Result<T, ApiError> {
        self.req
            .take()
            .ok_or_else(|| ApiError::bad("the request needs a JSON body"))
    }
}
