//! Antichess on the web page ([`crate::games::page::Page`]): the defaults (a grid board, the
//! alpha-beta search) and its names.
//!
//! Depends on `game` and `games::page`.

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
}
