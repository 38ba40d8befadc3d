//! Board geometry: the real width and height of a board embedded in the 8×8 grid, its masks,
//! and the shifts that move a whole bitboard one step without wrapping around an edge.

use super::{Bitboard, Color, Square};

/// The shape of a W×H board, 1 ≤ W,H ≤ 8, embedded at the lower-left of the 8×8 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
    /// Every square of the board.
    pub board: Bitboard,
    /// The board without its file `a` (targets of a step to the right land here).
    pub not_file_a: Bitboard,
    /// The board without its last file (targets of a step to the left land here).
    pub not_last_file: Bitboard,
}

impl Geometry {
    /// The geometry of a `width`×`height` board; `None` outside 1..=8.
    pub const fn new(width: u8, height: u8) -> Option<Geometry> {
        if width == 0 || width > 8 || height == 0 || height > 8 {
            return None;
        }
        let row: u64 = (1u64 << width) - 1;
        let mut board = 0u64;
        let mut r = 0;
        while r < height {
            board |= row << (8 * r);
            r += 1;
        }
        let file_a = 0x0101_0101_0101_0101u64 & board;
        let last = (0x0101_0101_0101_0101u64 << (width - 1)) & board;
        Some(Geometry {
            width,
            height,
            board: Bitboard(board),
            not_file_a: Bitboard(board & !file_a),
            not_last_file: Bitboard(board & !last),
        })
    }

    /// Whether `sq` lies on this board.
    #[inline]
    pub const fn contains(&self, sq: Square) -> bool {
        self.board.contains(sq)
    }

    /// Rank `rank` (0-based) of this board.
    #[inline]
    pub const fn rank(&self, rank: u8) -> Bitboard {
        Bitboard(self.board.0 & (0xffu64 << (8 * rank)))
    }

    /// File `file` (0-based) of this board.
    #[inline]
    pub const fn file(&self, file: u8) -> Bitboard {
        Bitboard(self.board.0 & (0x0101_0101_0101_0101u64 << file))
    }

    /// The base line of `color`: rank 1 for White, the top rank for Black.
    #[inline]
    pub const fn home_rank(&self, color: Color) -> Bitboard {
        match color {
            Color::White => self.rank(0),
            Color::Black => self.rank(self.height - 1),
        }
    }

    /// The rank a pawn of `color` promotes (or wins) on: the opponent's base line.
    #[inline]
    pub const fn last_rank(&self, color: Color) -> Bitboard {
        self.home_rank(color.flip())
    }

    /// Every square of `bb` one step forward for `color`, kept on the board.
    #[inline]
    pub const fn forward(&self, bb: Bitboard, color: Color) -> Bitboard {
        Bitboard(
            match color {
                Color::White => bb.0 << 8,
                Color::Black => bb.0 >> 8,
            } & self.board.0,
        )
    }

    /// One step forward and one to the left (towards file a), kept on the board.
    #[inline]
    pub const fn forward_left(&self, bb: Bitboard, color: Color) -> Bitboard {
        Bitboard(
            match color {
                Color::White => bb.0 << 7,
                Color::Black => bb.0 >> 9,
            } & self.not_last_file.0,
        )
    }

    /// One step forward and one to the right (away from file a), kept on the board.
    #[inline]
    pub const fn forward_right(&self, bb: Bitboard, color: Color) -> Bitboard {
        Bitboard(
            match color {
                Color::White => bb.0 << 9,
                Color::Black => bb.0 >> 7,
            } & self.not_file_a.0,
        )
    }

    /// The square `df` files and `dr` ranks away from `sq`, if it is on the board.
    #[inline]
    pub fn offset(&self, sq: Square, df: i8, dr: i8) -> Option<Square> {
        let f = sq.file() as i8 + df;
        let r = sq.rank() as i8 + dr;
        (f >= 0 && r >= 0 && f < self.width as i8 && r < self.height as i8)
            .then(|| Square::new(f as u8, r as u8))
    }

    /// Whether a square name like `e4` is on this board.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        Square::parse(text).filter(|&sq| self.contains(sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_of_a_3x3_board() {
        let g = Geometry::new(3, 3).unwrap();
        assert_eq!(g.board.count(), 9);
        assert_eq!(g.rank(2).count(), 3);
        assert!(g.contains(Square::new(2, 2)));
        assert!(!g.contains(Square::new(3, 0)));
        // A white pawn on c1 cannot step right off the board.
        let c1 = Square::new(2, 0).bb();
        assert!(g.forward_right(c1, Color::White).is_empty());
        assert_eq!(g.forward_left(c1, Color::White), Square::new(1, 1).bb());
        // A black pawn on a3 steps to a2 and captures only on b2.
        let a3 = Square::new(0, 2).bb();
        assert_eq!(g.forward(a3, Color::Black), Square::new(0, 1).bb());
        assert!(g.forward_left(a3, Color::Black).is_empty());
        assert_eq!(g.forward_right(a3, Color::Black), Square::new(1, 1).bb());
    }

    #[test]
    fn sizes_outside_the_grid_are_refused() {
        assert!(Geometry::new(0, 3).is_none());
        assert!(Geometry::new(9, 3).is_none());
        assert!(Geometry::new(8, 8).is_some());
    }
}
