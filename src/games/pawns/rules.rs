//! The pawn-chess position on bitboards: board geometry, rules, pawns by colour, side to move,
//! en-passant square and the incremental hash. Its `Game` implementation (FEN, legal moves,
//! play) is in `game.rs`.

use super::Rules;
use crate::board::zobrist;
use crate::board::{Bitboard, Color, Geometry, Square};

/// A pawn-chess position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pawns {
    pub(crate) geometry: Geometry,
    pub(crate) rules: Rules,
    pub(super) variant: &'static str,
    /// Pawns by colour.
    pub(crate) pawns: [Bitboard; 2],
    pub(crate) side: Color,
    /// The square skipped by a double step on the last ply (only with en passant).
    pub(crate) en_passant: Option<Square>,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
}

impl Pawns {
    /// The geometry of the board.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The pawns of `color`.
    pub fn pawns(&self, color: Color) -> Bitboard {
        self.pawns[color.index()]
    }

    /// The rules this position follows.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The rank the pawns of `color` start on and step twice from.
    pub fn start_rank(&self, color: Color) -> Bitboard {
        let h = self.geometry.height;
        self.geometry
            .rank(self.rules.start_rank(color == Color::White, h))
    }

    /// Whether a pawn stands on its goal line (or, in the pawn game, a side has no pawns
    /// left): the game is decided.
    pub fn decided(&self) -> Option<Color> {
        let g = &self.geometry;
        if (self.pawns[0] & g.last_rank(Color::White)).any() {
            Some(Color::White)
        } else if (self.pawns[1] & g.last_rank(Color::Black)).any() {
            Some(Color::Black)
        } else if self.rules.pawn_game && self.pawns[1].is_empty() {
            Some(Color::White)
        } else if self.rules.pawn_game && self.pawns[0].is_empty() {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub(super) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for c in [Color::White, Color::Black] {
            for sq in self.pawns[c.index()] {
                h ^= zobrist::piece(c.index(), sq.index());
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        if let Some(ep) = self.en_passant {
            h ^= zobrist::en_passant(ep.index());
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveList;
    use crate::game::{Game, Terminal};

    fn moves_of(pos: &Pawns) -> Vec<String> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_moves_with_and_without_double_step() {
        let p = Pawns::startpos("pawns4").unwrap();
        assert_eq!(moves_of(&p), ["a1a2", "b1b2", "c1c2", "d1d2"]);
        let p = Pawns::startpos("pawns4d").unwrap();
        assert_eq!(moves_of(&p).len(), 8);
        assert_eq!(p.fen(), "pppp/4/4/PPPP w - - 0 1");
    }

    #[test]
    fn en_passant_only_on_the_next_ply() {
        let p = Pawns::from_fen("pawns5ep", "5/5/1p3/5/P4 w - - 0 1").unwrap();
        let p = p.play(p.parse_move("a1a3").unwrap());
        assert_eq!(p.fen(), "5/5/Pp3/5/5 b - a2 0 1");
        assert!(moves_of(&p).contains(&"b3a2".to_string()));
        let q = p.play(p.parse_move("b3a2").unwrap());
        assert_eq!(q.fen(), "5/5/5/p4/5 w - - 0 2");
        assert_eq!(q.hash(), q.compute_hash());
        // Without the en-passant rule there is no such capture.
        let p = Pawns::from_fen("pawns5d", "5/5/1p3/5/P4 w - - 0 1").unwrap();
        let p = p.play(p.parse_move("a1a3").unwrap());
        assert!(!moves_of(&p).contains(&"b3a2".to_string()));
    }

    #[test]
    fn arrival_ends_the_game() {
        let p = Pawns::from_fen("pawns3", "1p1/P2/3 w - - 0 1").unwrap();
        let p = p.play(p.parse_move("a2b3").unwrap());
        assert!(moves_of(&p).is_empty());
        assert_eq!(p.terminal(), Terminal::Loss);
        let blocked = Pawns::from_fen("pawns3", "3/p2/P2 w - - 0 1").unwrap();
        assert!(moves_of(&blocked).is_empty());
        assert_eq!(blocked.terminal(), Terminal::Draw);
    }

    #[test]
    fn arrival_accepts_a_promotion_letter() {
        let p = Pawns::from_fen("pawns3", "3/P2/3 w - - 0 1").unwrap();
        for text in ["a2a3", "a2a3q", "a2a3."] {
            assert_eq!(p.parse_move(text).unwrap().to_string(), "a2a3");
        }
        let start = Pawns::startpos("pawns4").unwrap();
        assert!(start.parse_move("a1a2q").is_err());
        assert!(start.parse_move("a1a2").is_ok());
    }

    #[test]
    fn the_pawn_game_starts_on_the_second_rank_and_a_side_without_pawns_loses() {
        let p = Pawns::startpos("pawngame5").unwrap();
        assert_eq!(p.fen(), "5/ppppp/5/PPPPP/5 w - - 0 1");
        assert_eq!(moves_of(&p), ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3"]);
        let p = Pawns::startpos("pawngame6ep").unwrap();
        assert_eq!(moves_of(&p).len(), 12);
        let p = p.play(p.parse_move("c2c4").unwrap());
        assert_eq!(p.fen(), "6/pppppp/2P3/6/PP1PPP/6 b - c3 0 1");
        // Capturing the last pawn wins; a blocked side to move draws.
        let p = Pawns::from_fen("pawngame4", "4/1p2/P3/4 w - - 0 1").unwrap();
        let q = p.play(p.parse_move("a2b3").unwrap());
        assert!(moves_of(&q).is_empty());
        assert_eq!(q.terminal(), Terminal::Loss);
        assert!(q.end_reason(Terminal::Loss).contains("no pawns"));
        let blocked = Pawns::from_fen("pawngame4", "4/p3/P3/4 w - - 0 1").unwrap();
        assert_eq!(blocked.terminal(), Terminal::Draw);
        // The seed's rules: a side without pawns is not lost.
        let p = Pawns::from_fen("pawns4", "4/1p2/P3/4 w - - 0 1").unwrap();
        let q = p.play(p.parse_move("a2b3").unwrap());
        assert_eq!(q.terminal(), Terminal::Draw);
        assert!(Pawns::from_fen("pawngame5", "5/5/5/5/5 w - - 0 1").is_err());
        assert!(Pawns::from_fen("pawngame5", "3/ppp/PPP w - - 0 1").is_err());
    }

    #[test]
    fn bad_fens_are_refused() {
        for bad in [
            "ppn/3/PPP w - - 0 1",
            "pp/PP w - - 0 1",
            "ppp/3/PPP w K - 0 1",
        ] {
            assert!(Pawns::from_fen("pawns3", bad).is_err(), "{bad}");
        }
        assert!(Pawns::from_fen("pawns5ep", "5/5/1p3/5/P4 b - a2 0 1").is_err());
    }
}
