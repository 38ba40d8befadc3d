//! The antichess position: the bitboards of [`Bits`] plus a mailbox, the side to move, the
//! en-passant square, the clocks and the incremental Zobrist hash, with the queries on them,
//! FEN in and out and copy-make play. The [`Game`](crate::game::Game) implementation is in
//! `game.rs`.

use super::movegen::{Bits, KING_K, PAWN_K, RANK_1, RANK_8};
use crate::board::fen::{Fen, placement};
use crate::board::zobrist;
use crate::board::{Color, Geometry, Move, MoveKind, MoveList, Square};

/// A mailbox entry: `colour * 6 + kind`, or `EMPTY`.
pub const EMPTY: u8 = 12;

/// The FEN letters by mailbox entry.
pub const LETTERS: [char; 12] = ['P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k'];

/// No en-passant square.
pub const NO_EP: u8 = 64;

/// An antichess position (lichess's rules, 8×8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Antichess {
    pub(crate) bits: Bits,
    /// The piece on each square (`colour * 6 + kind`) or [`EMPTY`].
    pub(crate) board: [u8; 64],
    pub(crate) side: Color,
    /// The square a pawn that just stepped twice passed over, kept only while a pawn of the
    /// side to move can take en passant there (as python-chess and lichess write FENs and
    /// key repetitions); [`NO_EP`] otherwise.
    pub(crate) ep: u8,
    /// Plies since the last capture or pawn move.
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

#[inline(always)]
fn key(piece: u8, sq: usize) -> u64 {
    zobrist::piece(piece as usize, sq)
}

impl Antichess {
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

    /// Whether `mv` takes a piece (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.board[mv.to().index()] != EMPTY || mv.kind() == MoveKind::EnPassant
    }

    /// Whether the side to move can capture (and so must).
    pub fn has_capture(&self) -> bool {
        let us = self.side.index();
        self.bits.attacks_by(us) & self.bits.colors[1 - us] != 0
            || self.bits.en_passant_takers(us, self.ep) != 0
    }

    /// Every legal move into `moves` (cleared first).
    pub fn moves(&self, moves: &mut MoveList) {
        moves.clear();
        self.bits.legal_moves(self.side.index(), self.ep, moves);
    }

    /// The number of legal moves, without generating them (bulk counting for perft).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        self.bits.count_moves(self.side.index(), self.ep)
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

    /// Sets the en-passant square `sq` if a pawn of the side to move can take there, and
    /// hashes it in.
    fn set_en_passant(&mut self, sq: u8) {
        if self.bits.en_passant_takers(self.side.index(), sq) != 0 {
            self.ep = sq;
            self.hash ^= zobrist::en_passant(sq as usize);
        }
    }

    /// Reads a FEN (pieces `PNBRQK pnbrqk`, no castling; an en-passant square must be one a
    /// pawn has just passed over). Every error says what is wrong.
    pub fn read_fen(text: &str) -> Result<Antichess, crate::Error> {
        let fen = Fen::parse(text)?;
        Antichess::from_fields(fen).map_err(crate::Error::Position)
    }

    fn from_fields(fen: Fen) -> Result<Antichess, String> {
        let g = fen.geometry;
        if (g.width, g.height) != (8, 8) {
            return Err(format!(
                "antichess is played on 8×8, the FEN has {}×{}",
                g.width, g.height
            ));
        }
        if fen.castling != "-" {
            return Err(format!(
                "antichess has no castling: the castling field must be '-', not '{}'",
                fen.castling
            ));
        }
        let mut pos = Antichess {
            bits: Bits::default(),
            board: [EMPTY; 64],
            side: fen.side,
            ep: NO_EP,
            halfmove: fen.halfmove,
            fullmove: fen.fullmove.max(1),
            hash: 0,
        };
        for &(sq, c) in &fen.pieces {
            let p = LETTERS
                .iter()
                .position(|&l| l == c)
                .ok_or_else(|| format!("'{c}' is not a chess piece (use PNBRQK, pnbrqk)"))?;
            let (color, kind) = (p / 6, p % 6);
            if kind == PAWN_K && (RANK_1 | RANK_8) >> sq.0 & 1 != 0 {
                return Err(format!("a pawn on {sq} stands on the first or last rank"));
            }
            pos.bits.kinds[kind] |= sq.bb().0;
            pos.bits.colors[color] |= sq.bb().0;
            pos.board[sq.index()] = p as u8;
        }
        pos.hash = pos.compute_hash();
        if let Some(ep) = fen.en_passant {
            pos.check_en_passant(ep)?;
            pos.set_en_passant(ep.0);
        }
        Ok(pos)
    }

    /// Whether `ep` is a square a pawn of the side not to move has just passed over: on the
    /// third rank behind a white pawn (Black to move) or the sixth behind a black one, with
    /// the squares it came from and passed over empty.
    fn check_en_passant(&self, ep: Square) -> Result<(), String> {
        let (rank, pawn_rank, from_rank, pawn) = match self.side {
            Color::Black => (2, 3, 1, PAWN_K as u8),
            Color::White => (5, 4, 6, (6 + PAWN_K) as u8),
        };
        let at = |r: u8| self.board[Square::new(ep.file(), r).index()];
        if ep.rank() != rank || at(pawn_rank) != pawn || at(rank) != EMPTY || at(from_rank) != EMPTY
        {
            return Err(format!(
                "the en-passant square {ep} is not one a pawn has just passed over"
            ));
        }
        Ok(())
    }

    /// The position as FEN (the en-passant square only where it can be taken).
    pub fn write_fen(&self) -> String {
        let geometry = Geometry::new(8, 8).expect("8×8 is a board");
        let board = placement(&geometry, |sq| {
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
    pub fn after(&self, mv: Move) -> Antichess {
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
        next.halfmove = if capture || pawn { 0 } else { self.halfmove + 1 };
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
}

impl std::fmt::Display for Antichess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.write_fen())
    }
}
