//! Squares, bitboards, colours and moves shared by every game.
//!
//! Every board from 3×3 to 8×8 is embedded in the lower-left corner of an 8×8 grid: square
//! index = `rank * 8 + file`, so `a1` is 0 on every board size and a `u64` bitboard covers any
//! board. A [`Geometry`] knows the real width and height and the masks that keep moves on the
//! board. This module depends only on [`crate::rng`] (the magic search and the Zobrist keys).

use std::fmt;

pub mod attacks;
pub mod fen;
pub mod geometry;
pub mod magic;
pub mod zobrist;
pub use geometry::Geometry;

/// One of the two sides. White moves first and starts on rank 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side: `w` or `b`.
    /// "White" or "Black".
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A square of the embedding 8×8 grid, `rank * 8 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1u64 << self.0)
    }

    /// Parses `a1` … `h8` (file letter, rank number). The caller checks the board size.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        (file < 8 && rank < 8).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// A set of squares of the 8×8 grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.0 & 1 != 0
    }
    /// The lowest square of a non-empty set.
    #[inline]
    pub const fn lsb(self) -> Square {
        Square(self.0.trailing_zeros() as u8)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bb_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl std::ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bb_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bb_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bb_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// What kind of move a [`Move`] is, beyond its two squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// Any move that is none of the others (captures included: the board knows).
    Normal = 0,
    /// A pawn's two-square step.
    DoubleStep = 1,
    /// An en-passant capture.
    EnPassant = 2,
    /// Castling, written as the king's move.
    Castling = 3,
    PromoteKnight = 4,
    PromoteBishop = 5,
    PromoteRook = 6,
    PromoteQueen = 7,
    /// Promotion to a king, where the king is an ordinary piece (antichess).
    PromoteKing = 8,
}

impl MoveKind {
    /// Every kind by its number; the seven numbers above the last kind read as `Normal` (a
    /// [`Move`] keeps four bits for its kind).
    const ALL: [MoveKind; 16] = [
        MoveKind::Normal,
        MoveKind::DoubleStep,
        MoveKind::EnPassant,
        MoveKind::Castling,
        MoveKind::PromoteKnight,
        MoveKind::PromoteBishop,
        MoveKind::PromoteRook,
        MoveKind::PromoteQueen,
        MoveKind::PromoteKing,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
    ];

    /// The promotion letter of a promotion (`n b r q`, and `k` in antichess), `None`
    /// otherwise.
    pub fn promotion_char(self) -> Option<char> {
        match self {
            MoveKind::PromoteKnight => Some('n'),
            MoveKind::PromoteBishop => Some('b'),
            MoveKind::PromoteRook => Some('r'),
            MoveKind::PromoteQueen => Some('q'),
            MoveKind::PromoteKing => Some('k'),
            _ => None,
        }
    }

    pub fn is_promotion(self) -> bool {
        self as u8 >= MoveKind::PromoteKnight as u8
    }
}

/// A move in 16 bits: from (6 bits), to (6 bits), [`MoveKind`] (4 bits).
/// `Move::NULL` (all zero) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 6 | (kind as u16) << 12)
    }
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 6 & 63) as u8)
    }
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[(self.0 >> 12 & 15) as usize]
    }
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
    /// from·64 + to: an index into 4096-entry history tables.
    #[inline]
    pub const fn from_to(self) -> usize {
        (self.0 & 0xfff) as usize
    }
}

/// A move in the 16 bits of an opening book (the Polyglot layout): to-square in bits 0–5,
/// from-square in bits 6–11 (each `8 * rank + file`, as [`Square`] numbers them on every
/// board) and the promotion in bits 12–14 (knight 1, bishop 2, rook 3, queen 4, and king 5
/// where a pawn may become a king, as in antichess; 0: none).
/// [`crate::game::OpeningBook::book_move`] writes legal moves with it; `crate::book` reads them.
pub fn encode_move(mv: Move) -> u16 {
    use MoveKind::*;
    let promotion = match mv.kind() {
        PromoteKnight => 1,
        PromoteBishop => 2,
        PromoteRook => 3,
        PromoteQueen => 4,
        PromoteKing => 5,
        _ => 0,
    };
    mv.to().0 as u16 | (mv.from().0 as u16) << 6 | promotion << 12
}

impl fmt::Display for Move {
    /// Coordinate notation (`e2e4`, `e7e8q`); the null move is `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(c) = self.kind().promotion_char() {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The board as text for the terminal: ranks from the top, each with its number, one glyph a
/// square from `piece` (empty squares of a1's colour `·`, the others blank), file letters below. White
/// is at the bottom on every board size.
pub fn diagram(geometry: &Geometry, piece: impl Fn(Square) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..geometry.height).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..geometry.width {
            let empty = if (file + rank) % 2 == 0 { '·' } else { ' ' };
            out.push(piece(Square::new(file, rank)).unwrap_or(empty));
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..geometry.width {
        out.push((b'a' + file) as char);
        out.push(' ');
    }
    out.push('\n');
    out
}

/// Unicode glyphs of the chess pieces, White's then Black's, each pawn, knight, bishop, rook,
/// queen, king.
pub const GLYPHS: [char; 12] = ['♙', '♘', '♗', '♖', '♕', '♔', '♟', '♞', '♝', '♜', '♛', '♚'];

/// The most legal moves any position of our games has (chess: 218).
pub const MAX_MOVES: usize = 256;

/// A move list on the stack.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trip() {
        for i in 0..64 {
            let sq = Square(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn move_packs_its_parts() {
        let m = Move::new(Square::new(4, 6), Square::new(4, 7), MoveKind::PromoteQueen);
        assert_eq!(m.from(), Square::new(4, 6));
        assert_eq!(m.to(), Square::new(4, 7));
        assert_eq!(m.kind(), MoveKind::PromoteQueen);
        assert_eq!(m.to_string(), "e7e8q");
        let k = Move::new(Square::new(4, 1), Square::new(3, 0), MoveKind::PromoteKing);
        assert_eq!(
            (k.kind(), k.to_string()),
            (MoveKind::PromoteKing, "e2d1k".to_string())
        );
        assert!(k.kind().is_promotion());
        assert_eq!(encode_move(k) >> 12, 5);
        // A kind number no kind has reads as a normal move.
        assert_eq!(Move(0xf000 | k.0 & 0xfff).kind(), MoveKind::Normal);
    }

    #[test]
    fn bitboard_iterates_in_order() {
        let bb = Square(3).bb() | Square(40).bb() | Square(63).bb();
        assert_eq!(
            bb.collect::<Vec<_>>(),
            vec![Square(3), Square(40), Square(63)]
        );
    }
}
