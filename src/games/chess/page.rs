//! Chess on the web page ([`crate::games::page::Page`]): the defaults (a grid board, the
//! alpha-beta search), its names, and no `Variant` tag in the PGN of standard chess.
//!
//! Depends on `game` and `games::page`.

use super::Chess;
use crate::game::Game;
use crate::games::page;

/// Chess as the page shows it.
pub struct OnPage;

impl page::Page for OnPage {
    fn id(&self) -> &'static str {
        Chess::GAME
    }
    fn title(&self) -> &'static str {
        "Chess"
    }
    fn about(&self) -> &'static str {
        "Standard chess and Chess960."
    }
    fn variant_tag(&self, variant: &str) -> bool {
        variant != Chess::GAME
    }
}
