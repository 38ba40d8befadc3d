//! Antichess on the web page ([`crate::games::page::Page`]): the defaults (a grid board, the
//! alpha-beta search), its names and why a move is refused (a capture is forced).
//!
//! Depends on `game` and `games::page`.

use std::any::Any;

use super::Antichess;
use crate::game::Game;
use crate::games::page;

/// Antichess as the page shows it.
pub struct OnPage;

impl page::Page for OnPage {
    fn id(&self) -> &'static str {
        Antichess::GAME
    }
    fn title(&self) -> &'static str {
        "Antichess"
    }
    fn about(&self) -> &'static str {
        "Losing chess on 8×8 as lichess plays it: captures are forced, lose everything to win."
    }
    fn legal_note(&self, pos: &dyn Any) -> Option<String> {
        let p = pos.downcast_ref::<Antichess>()?;
        p.has_capture().then(|| "a capture is forced".to_string())
    }
    fn variant_title(&self, _variant: &str) -> String {
        "lichess rules".into()
    }
}
