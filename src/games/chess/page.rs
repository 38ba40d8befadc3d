//! Chess on the web page ([`crate::games::page::Page`]): the defaults (a grid board, the
//! alpha-beta search), its names, no `Variant` tag in the PGN of standard chess, and whether a
//! side could still mate when the other's flag falls ([`can_mate`]), the square of a king in
//! check (the page's check mark) and the variants' names.
//!
//! Depends on `game`, `board` and `games::page`.

use std::any::Any;

use super::position::{BISHOP, KING, KNIGHT, PAWN, QUEEN};
use super::{Chess, LIGHT_SQUARES};
use crate::board::{Color, Square};
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
    fn rules(&self) -> &'static str {
        include_str!("rules.md")
    }
    fn variant_tag(&self, variant: &str) -> bool {
        variant != Chess::GAME
    }
    fn check_square(&self, pos: &dyn Any) -> Option<String> {
        let p = pos.downcast_ref::<Chess>()?;
        p.in_check()
            .then(|| Square(p.king(p.side_to_move()) as u8).to_string())
    }
    fn variant_title(&self, variant: &str) -> String {
        match variant {
            "chess960" => "Chess960 (Fischer random)".into(),
            _ => "standard".into(),
        }
    }
    fn can_win(&self, pos: &dyn Any, seat: usize) -> bool {
        let side = if seat == 0 {
            Color::White
        } else {
            Color::Black
        };
        pos.downcast_ref::<Chess>()
            .is_none_or(|p| can_mate(p, side))
    }
}

/// Whether `side` could mate by some series of legal moves (lichess's rule for a flag
/// falling): never with the king alone; with a lone knight only where the other side has
/// something besides king and queens to hem its own king in; with bishops all on squares of
/// one colour only against a pawn, a knight or a bishop of the other colour; with anything
/// more (a pawn, a rook, a queen, two minor pieces of which one is a knight, bishops of both
/// colours) always.
pub fn can_mate(pos: &Chess, side: Color) -> bool {
    let own = pos.colors[side.index()] & !pos.pieces[KING];
    let theirs = pos.colors[side.flip().index()] & !pos.pieces[KING];
    let knights = own & pos.pieces[KNIGHT];
    let bishops = own & pos.pieces[BISHOP];
    if own == 0 {
        return false;
    }
    if own == knights && knights.count_ones() == 1 {
        return theirs & !pos.pieces[QUEEN] != 0;
    }
    if own == bishops && (bishops & LIGHT_SQUARES == 0 || bishops & !LIGHT_SQUARES == 0) {
        let other_colour = if bishops & LIGHT_SQUARES == 0 {
            LIGHT_SQUARES
        } else {
            !LIGHT_SQUARES
        };
        let their_bishops = theirs & pos.pieces[BISHOP];
        let blockers = theirs & (pos.pieces[KNIGHT] | pos.pieces[PAWN]);
        return blockers != 0 || their_bishops & other_colour != 0;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate_possible(fen: &str) -> [bool; 2] {
        let p = Chess::from_fen("chess", fen).unwrap();
        [can_mate(&p, Color::White), can_mate(&p, Color::Black)]
    }

    #[test]
    fn a_king_in_check_is_named_for_the_page() {
        let page: &dyn page::Page = &OnPage;
        let p = Chess::from_fen("chess", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        assert_eq!(page.check_square(&p).as_deref(), Some("e8"));
        let p = Chess::from_fen("chess", "4k3/8/8/8/8/8/8/3R2K1 b - - 0 1").unwrap();
        assert_eq!(page.check_square(&p), None);
    }

    #[test]
    fn a_side_with_too_little_cannot_mate() {
        // A lone king; K+N, K+B against a bare king.
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/4K3 w - - 0 1"),
            [false, false]
        );
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/3NK3 w - - 0 1"),
            [false, false]
        );
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/3BK3 w - - 0 1"),
            [false, false]
        );
        // K+N against K+Q: the queen cannot hem its own king in usefully (lichess: a draw).
        assert_eq!(
            mate_possible("8/8/4k3/8/5q2/8/8/3NK3 w - - 0 1"),
            [false, true]
        );
        // K+N against K+R, K+B against K+P: a helpmate exists.
        assert_eq!(
            mate_possible("8/8/4k3/8/5r2/8/8/3NK3 w - - 0 1"),
            [true, true]
        );
        assert_eq!(
            mate_possible("8/6p1/4k3/8/8/8/8/3BK3 w - - 0 1"),
            [true, true]
        );
        // Two bishops on one colour against a bishop on the same colour: no mate; on the
        // other colour: one exists.
        assert!(!mate_possible("8/8/4k3/8/4b3/8/4B3/3BK3 w - - 0 1")[0]);
        assert!(mate_possible("8/8/4k3/8/3b4/8/4B3/3BK3 w - - 0 1")[0]);
        // ... and against a rook or a queen none (lichess counts only a pawn or a knight).
        assert!(!mate_possible("8/8/4k3/8/3r4/8/4B3/3BK3 w - - 0 1")[0]);
        // Enough: a pawn, a rook, two knights, bishop and knight.
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/4P3/4K3 w - - 0 1"),
            [true, false]
        );
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/R3K3 w - - 0 1"),
            [true, false]
        );
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/1NN1K3 w - - 0 1"),
            [true, false]
        );
        assert_eq!(
            mate_possible("8/8/4k3/8/8/8/8/1NB1K3 w - - 0 1"),
            [true, false]
        );
    }
}
