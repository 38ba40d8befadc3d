//! A position of the family on board `B` ([`Position`]): the bitboards of [`Bits`] plus a
//! mailbox, the side to move, the en-passant square, the clocks and the incremental Zobrist
//! hash, with the queries on them, FEN in and out and copy-make play. The games' own names
//! are `Raeuber` (`Position<Six>`) and `Antichess` (`Position<Eight>`).

use std::marker::PhantomData;

use super::board::Board;
use super::movegen::{Bits, KING_K, PAWN_K};
use crate::board::fen::{Fen, placement};
use crate::board::zobrist;
use crate::board::{Color, Geometry, Move, MoveKind, MoveList, Square};
use crate::error::position_error;

/// A mailbox entry: `colour * 6 + kind`, or `EMPTY`.
pub const EMPTY: u8 = 12;

/// The FEN letters by mailbox entry.
pub const LETTERS: [char; 12] = ['P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k'];

/// No en-passant square.
pub const NO_EP: u8 = 64;

/// A position of losing chess on board `B`. Squares are those of the 8×8 grid
/// (`rank * 8 + file`); a smaller board uses its lower left corner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<B: Board> {
    pub(crate) bits: Bits,
    /// The piece on each square (`colour * 6 + kind`) or [`EMPTY`].
    pub(crate) board: [u8; 64],
    pub(crate) side: Color,
    /// The square a pawn that just stepped twice passed over, kept only while a pawn of the
    /// side to move can take en passant there (as python-chess and lichess write FENs and key
    /// repetitions); [`NO_EP`] otherwise, and always on a board without en passant.
    pub(crate) ep: u8,
    /// Plies since the last capture or pawn move.
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    board_kind: PhantomData<B>,
}

#[inline(always)]
pub(crate) fn key(piece: u8, sq: usize) -> u64 {
    zobrist::piece(piece as usize, sq)
}

impl<B: Board> Position<B> {
    /// An empty board with `side` to move, no en-passant square, the clocks at their start.
    pub(crate) fn empty(side: Color) -> Self {
        Position {
            bits: Bits::default(),
            board: [EMPTY; 64],
            side,
            ep: NO_EP,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            board_kind: PhantomData,
        }
    }

    /// The position with `pieces` (code `colour * 6 + kind`, square) and `side` to move, no
    /// en-passant square, the clocks at their start.
    pub(crate) fn from_pieces(side: Color, pieces: &[(u8, usize)]) -> Self {
        let mut pos = Self::empty(side);
        for &(code, sq) in pieces {
            pos.bits.kinds[code as usize % 6] |= 1 << sq;
            pos.bits.colors[code as usize / 6] |= 1 << sq;
            pos.board[sq] = code;
        }
        pos.hash = pos.compute_hash();
        pos
    }

    /// Pieces of `color` of kind `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: usize) -> u64 {
        self.bits.kinds[kind] & self.bits.colors[color.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn occupied_by(&self, color: Color) -> u64 {
        self.bits.colors[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.bits.occupied()
    }

    /// The pieces by kind and colour.
    pub fn bits(&self) -> &Bits {
        &self.bits
    }

    /// The piece on `sq` as `(colour, kind)`.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, usize)> {
        let p = *self.board.get(sq.index())?;
        (p != EMPTY).then(|| {
            let color = if p < 6 { Color::White } else { Color::Black };
            (color, p as usize % 6)
        })
    }

    /// The en-passant square, if a pawn of the side to move can take there.
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep < NO_EP).then_some(Square(self.ep))
    }

    /// Squares attacked by the pieces of `color` (with the current blockers).
    #[inline]
    pub fn attacks_by(&self, color: Color) -> u64 {
        self.bits.attacks_by::<B>(color.index())
    }

    /// Whether `mv` takes a piece (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to().index()] != EMPTY || mv.kind() == MoveKind::EnPassant
    }

    /// Whether the side to move can capture (and so must).
    #[inline]
    pub fn has_capture(&self) -> bool {
        let us = self.side.index();
        self.bits.attacks_by::<B>(us) & self.bits.colors[1 - us] != 0
            || self.bits.en_passant_takers::<B>(us, self.ep) != 0
    }

    /// Every legal move into `moves` (cleared first).
    #[inline]
    pub fn moves(&self, moves: &mut MoveList) {
        moves.clear();
        self.bits
            .legal_moves::<B>(self.side.index(), self.ep, moves);
    }

    /// The number of legal moves, without generating them (bulk counting for perft).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        self.bits.count_moves::<B>(self.side.index(), self.ep)
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, &p) in self.board.iter().enumerate() {
            if p != EMPTY {
                h ^= key(p, sq);
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        if self.ep < NO_EP {
            h ^= zobrist::en_passant(self.ep as usize);
        }
        h
    }

    /// Plies since the last capture or pawn move (the FEN halfmove clock).
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }

    /// The board's geometry.
    pub fn geometry() -> Geometry {
        Geometry::new(B::WIDTH, B::HEIGHT).expect("the family's boards are boards")
    }

    /// Sets the en-passant square `sq` if a pawn of the side to move can take there, and
    /// hashes it in.
    fn set_en_passant(&mut self, sq: u8) {
        if self.bits.en_passant_takers::<B>(self.side.index(), sq) != 0 {
            self.ep = sq;
            self.hash ^= zobrist::en_passant(sq as usize);
        }
    }

    /// The position of a FEN's fields (pieces `PNBRQK pnbrqk`, no castling; an en-passant
    /// square only where the board has en passant, and then one a pawn has just passed
    /// over); `name` names the game in errors. Every error says what is wrong.
    pub(crate) fn from_fields(fen: Fen, name: &str) -> Result<Self, crate::Error> {
        let g = fen.geometry;
        if (g.width, g.height) != (B::WIDTH, B::HEIGHT) {
            return Err(position_error!(
                "{name} is played on {}×{}, the FEN has {}×{}",
                B::WIDTH,
                B::HEIGHT,
                g.width,
                g.height
            ));
        }
        if fen.castling != "-" {
            return Err(position_error!(
                "{name} has no castling: the castling field must be '-', not '{}'",
                fen.castling
            ));
        }
        let mut pos = Self::empty(fen.side);
        pos.halfmove = fen.halfmove;
        pos.fullmove = fen.fullmove.max(1);
        for &(sq, c) in &fen.pieces {
            let p = LETTERS.iter().position(|&l| l == c).ok_or_else(|| {
                position_error!("'{c}' is not a piece of {name} (use PNBRQK, pnbrqk)")
            })?;
            let (color, kind) = (p / 6, p % 6);
            if kind == PAWN_K && B::NO_PAWN[color] >> sq.0 & 1 != 0 {
                return Err(position_error!(
                    "a pawn on {sq} stands where no pawn can stand"
                ));
            }
            pos.bits.kinds[kind] |= sq.bb().0;
            pos.bits.colors[color] |= sq.bb().0;
            pos.board[sq.index()] = p as u8;
        }
        pos.hash = pos.compute_hash();
        if let Some(ep) = fen.en_passant {
            if !B::EN_PASSANT {
                return Err(position_error!(
                    "{name} has no en passant: the FEN's en-passant square {ep} must be '-'"
                ));
            }
            pos.check_en_passant(ep)?;
            pos.set_en_passant(ep.0);
        }
        Ok(pos)
    }

    /// Whether `ep` is a square a pawn of the side not to move has just passed over: on the
    /// third rank behind a white pawn (Black to move) or the sixth behind a black one, with
    /// the squares it came from and passed over empty.
    fn check_en_passant(&self, ep: Square) -> Result<(), crate::Error> {
        let (rank, pawn_rank, from_rank, pawn) = match self.side {
            Color::Black => (2, 3, 1, PAWN_K as u8),
            Color::White => (
                B::HEIGHT - 3,
                B::HEIGHT - 4,
                B::HEIGHT - 2,
                (6 + PAWN_K) as u8,
            ),
        };
        let at = |r: u8| self.board[Square::new(ep.file(), r).index()];
        if ep.rank() != rank || at(pawn_rank) != pawn || at(rank) != EMPTY || at(from_rank) != EMPTY
        {
            return Err(position_error!(
                "the en-passant square {ep} is not one a pawn has just passed over"
            ));
        }
        Ok(())
    }

    /// The position as FEN (the en-passant square only where it can be taken).
    pub fn write_fen(&self) -> String {
        let board = placement(&Self::geometry(), |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| LETTERS[p as usize])
        });
        let ep = self.en_passant().map_or("-".to_string(), |s| s.to_string());
        format!(
            "{board} {} - {ep} {} {}",
            self.side.fen_char(),
            self.halfmove,
            self.fullmove
        )
    }

    /// Removes the piece on `sq` (there must be one).
    #[inline(always)]
    fn take(&mut self, sq: usize) {
        let p = self.board[sq];
        let bb = 1u64 << sq;
        self.bits.kinds[p as usize % 6] ^= bb;
        self.bits.colors[p as usize / 6] ^= bb;
        self.board[sq] = EMPTY;
        self.hash ^= key(p, sq);
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline(always)]
    fn put(&mut self, piece: u8, sq: usize) {
        let bb = 1u64 << sq;
        self.bits.kinds[piece as usize % 6] |= bb;
        self.bits.colors[piece as usize / 6] |= bb;
        self.board[sq] = piece;
        self.hash ^= key(piece, sq);
    }

    /// The position after the legal move `mv` (copy-make).
    #[inline]
    pub fn after(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let (from, to) = (mv.from().index(), mv.to().index());
        let piece = self.board[from];
        let us = self.side.index() as u8;
        let pawn = piece % 6 == PAWN_K as u8;
        if self.ep < NO_EP {
            next.hash ^= zobrist::en_passant(self.ep as usize);
            next.ep = NO_EP;
        }
        let capture = self.board[to] != EMPTY;
        if capture {
            next.take(to);
        }
        if mv.kind() == MoveKind::EnPassant {
            next.take(if us == 0 { to - 8 } else { to + 8 });
        }
        next.take(from);
        let placed = match mv.kind() {
            MoveKind::PromoteKnight => 6 * us + 1,
            MoveKind::PromoteBishop => 6 * us + 2,
            MoveKind::PromoteRook => 6 * us + 3,
            MoveKind::PromoteQueen => 6 * us + 4,
            MoveKind::PromoteKing => 6 * us + KING_K as u8,
            _ => piece,
        };
        next.put(placed, to);
        next.halfmove = if capture || pawn {
            0
        } else {
            self.halfmove + 1
        };
        next.side = self.side.flip();
        next.hash ^= zobrist::side();
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        if mv.kind() == MoveKind::DoubleStep {
            next.set_en_passant(((from + to) / 2) as u8);
        }
        next
    }

    /// The position after passing the turn (the search's null move).
    pub fn after_null(&self) -> Self {
        let mut next = self.clone();
        if self.ep < NO_EP {
            next.hash ^= zobrist::en_passant(self.ep as usize);
            next.ep = NO_EP;
        }
        next.hash ^= zobrist::side();
        next.side = self.side.flip();
        next.halfmove = self.halfmove + 1;
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next
    }

    /// Only bishops on the board, each side's on one colour complex and the two sides' on
    /// different ones: no capture can ever happen and both always have a move (fewer bishops
    /// than a whole complex), so the game can only end in a draw.
    pub fn opposite_bishops_alone(&self) -> bool {
        let bishops = self.bits.kinds[super::movegen::BISHOP_K];
        if self.occupied() != bishops {
            return false;
        }
        let (w, b) = (self.bits.colors[0], self.bits.colors[1]);
        let (light, dark) = (B::LIGHT, B::SQUARES & !B::LIGHT);
        w != 0 && b != 0 && ((w & dark == 0 && b & light == 0) || (w & light == 0 && b & dark == 0))
    }

    /// The number of legal move sequences of length `depth`: on a board without en passant
    /// the bitboards' bulk count (the last two plies counted, not played), else the last ply
    /// counted from attack sets and the others played.
    pub fn perft(&self, depth: u32) -> u64 {
        if !B::EN_PASSANT && B::PROMOTIONS.len() == 1 {
            return self.bits.perft::<B>(self.side.index(), depth);
        }
        match depth {
            0 => 1,
            1 => u64::from(self.count_moves()),
            _ => {
                let mut moves = MoveList::new();
                self.moves(&mut moves);
                moves.iter().map(|&m| self.after(m).perft(depth - 1)).sum()
            }
        }
    }
}

impl<B: Board> std::fmt::Display for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.write_fen())
    }
}

#[cfg(test)]
mod tests {
    use crate::board::MoveList;
    use crate::game::{Game, Tuning};
    use crate::games::antichess::Antichess;
    use crate::games::raeuber::Raeuber;

    /// The family's perft (bulk counting on 6×6, the last ply counted on 8×8) gives the
    /// numbers of the generic recursion over played moves, at every bench position, and along
    /// random games the counted depth 2 equals the played one.
    fn perft_agrees<G: Game + Tuning>(seed: u64) {
        for pos in G::bench_positions() {
            for depth in 0..4 {
                assert_eq!(
                    pos.perft(depth),
                    crate::perft::generic(&pos, depth),
                    "{}",
                    pos.fen()
                );
            }
        }
        let mut rng = crate::rng::Rng::new(seed);
        for _ in 0..100 {
            let mut pos = G::startpos(G::variants()[0]).unwrap();
            for _ in 0..100 {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                let played: u64 = moves.iter().map(|&m| pos.play(m).perft(1)).sum();
                assert_eq!(pos.perft(2), played, "{}", pos.fen());
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn perft_agrees_with_the_played_recursion_on_both_boards() {
        perft_agrees::<Raeuber>(0x9e37_79b9_7f4a_7c15);
        perft_agrees::<Antichess>(0x5151_0101);
        let start = Raeuber::startpos("raeuberschach").unwrap();
        let split = crate::perft::divide(&start, 4);
        assert_eq!(split.len(), 8);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1551);
    }
}
