//! The chess position: bitboards by piece kind and colour, a square-to-piece array, side to
//! move, castling rights, en-passant square, clocks and an incrementally updated Zobrist hash.
//! FEN in and out, copy-make [`Chess::make`], attack queries and static exchange evaluation.
//!
//! The en-passant square is kept (in the position, its FEN and its hash) only when a pawn of
//! the side to move stands next to the pawn that just made a double step, as Stockfish does:
//! two positions that differ only by an en-passant square nobody could use are the same.

use super::attacks;
use crate::board::fen::{Fen, placement};
use crate::error::position_error;
// Chess's Zobrist keys, their own stream of the one key source.
use crate::board::zobrist::CHESS as KEYS;
use crate::board::{Color, Move, MoveKind, Square};

pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;
/// The `board` entry of an empty square; a piece is `color * 6 + kind`.
pub const EMPTY: u8 = 12;
/// `ep` when there is no en-passant square.
pub const NO_EP: u8 = 64;

/// Castling-right bits.
pub const WHITE_OO: u8 = 1;
pub const WHITE_OOO: u8 = 2;
pub const BLACK_OO: u8 = 4;
pub const BLACK_OOO: u8 = 8;

const PIECE_CHARS: &[u8; 12] = b"PNBRQKpnbrqk";

/// The castling rights that survive a move from or to each square.
const fn castle_masks() -> [u8; 64] {
    let mut m = [15u8; 64];
    m[0] = 15 & !WHITE_OOO;
    m[4] = 15 & !(WHITE_OO | WHITE_OOO);
    m[7] = 15 & !WHITE_OO;
    m[56] = 15 & !BLACK_OOO;
    m[60] = 15 & !(BLACK_OO | BLACK_OOO);
    m[63] = 15 & !BLACK_OO;
    m
}
static CASTLE_MASK: [u8; 64] = castle_masks();

/// A chess position (standard chess or Chess960).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    /// Pieces by kind (both colours).
    pub(crate) pieces: [u64; 6],
    /// Pieces by colour.
    pub(crate) colors: [u64; 2],
    /// The piece on each square (`color * 6 + kind`) or [`EMPTY`], two squares a byte
    /// (low nibble: even square), which keeps the whole position within 112 bytes.
    pub(crate) board: [u8; 32],
    pub(crate) side: Color,
    pub(crate) castling: u8,
    /// En-passant target square, or [`NO_EP`].
    pub(crate) ep: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    /// The square of the rook each castling right moves, indexed by the right's bit number
    /// (White O-O, White O-O-O, Black O-O, Black O-O-O): h1, a1, h8, a8 in standard chess.
    pub(crate) castle_rooks: [u8; 4],
    /// Chess960 rules: castling rooks anywhere on the back rank, castling written as the king
    /// taking its rook, X-FEN castling letters.
    pub(crate) chess960: bool,
}

/// The rooks of the castling rights in standard chess.
const STANDARD_ROOKS: [u8; 4] = [7, 0, 63, 56];

/// Squares `a..=b` (or `b..=a`) on one rank, as a bitboard.
#[inline]
pub(crate) fn span(a: usize, b: usize) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

impl Chess {
    pub const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// The pieces of `kind` belonging to `color`.
    #[inline]
    pub fn bb(&self, color: Color, kind: usize) -> u64 {
        self.pieces[kind] & self.colors[color.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> usize {
        self.bb(color, KING).trailing_zeros() as usize
    }

    /// The piece on `sq` (`color * 6 + kind`) or [`EMPTY`].
    #[inline]
    pub fn piece_on(&self, sq: usize) -> u8 {
        self.board[sq >> 1] >> ((sq & 1) * 4) & 15
    }

    #[inline]
    fn set_square(&mut self, sq: usize, piece: u8) {
        let shift = (sq & 1) * 4;
        let b = &mut self.board[sq >> 1];
        *b = (*b & !(15 << shift)) | piece << shift;
    }

    /// The piece kind on `sq`, if any.
    #[inline]
    pub fn kind_on(&self, sq: usize) -> Option<usize> {
        let p = self.piece_on(sq);
        (p != EMPTY).then_some(p as usize % 6)
    }

    /// Every piece of either colour that attacks `sq` when `occ` is occupied.
    #[inline]
    pub fn attackers_to(&self, sq: usize, occ: u64) -> u64 {
        let p = &self.pieces;
        (attacks::PAWN[1][sq] & p[PAWN] & self.colors[0])
            | (attacks::PAWN[0][sq] & p[PAWN] & self.colors[1])
            | (attacks::KNIGHT[sq] & p[KNIGHT])
            | (attacks::KING[sq] & p[KING])
            | (attacks::rook(sq, occ) & (p[ROOK] | p[QUEEN]))
            | (attacks::bishop(sq, occ) & (p[BISHOP] | p[QUEEN]))
    }

    /// Whether any piece of `by` attacks `sq` when `occ` is occupied.
    #[inline]
    pub fn attacked(&self, sq: usize, by: Color, occ: u64) -> bool {
        let p = &self.pieces;
        let them = self.colors[by.index()];
        (attacks::PAWN[by.flip().index()][sq] & p[PAWN] & them) != 0
            || (attacks::KNIGHT[sq] & p[KNIGHT] & them) != 0
            || (attacks::KING[sq] & p[KING] & them) != 0
            || (attacks::rook(sq, occ) & (p[ROOK] | p[QUEEN]) & them) != 0
            || (attacks::bishop(sq, occ) & (p[BISHOP] | p[QUEEN]) & them) != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> u64 {
        let us = self.side;
        self.attackers_to(self.king(us), self.occupied()) & self.colors[us.flip().index()]
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.attacked(self.king(us), us.flip(), self.occupied())
    }

    #[inline]
    fn put(&mut self, sq: usize, piece: u8) {
        let bit = 1u64 << sq;
        self.pieces[piece as usize % 6] |= bit;
        self.colors[piece as usize / 6] |= bit;
        self.set_square(sq, piece);
        self.hash ^= KEYS.piece[piece as usize][sq];
    }

    #[inline]
    fn remove(&mut self, sq: usize) {
        let piece = self.piece_on(sq);
        let bit = 1u64 << sq;
        self.pieces[piece as usize % 6] ^= bit;
        self.colors[piece as usize / 6] ^= bit;
        self.set_square(sq, EMPTY);
        self.hash ^= KEYS.piece[piece as usize][sq];
    }

    #[inline]
    fn shift(&mut self, from: usize, to: usize) {
        let piece = self.piece_on(from);
        let bits = 1u64 << from | 1u64 << to;
        self.pieces[piece as usize % 6] ^= bits;
        self.colors[piece as usize / 6] ^= bits;
        self.set_square(from, EMPTY);
        self.set_square(to, piece);
        let k = &KEYS.piece[piece as usize];
        self.hash ^= k[from] ^ k[to];
    }

    /// Whether a pawn of `color` could capture en passant on `ep` (ignoring pins).
    #[inline]
    fn ep_usable(&self, ep: usize, color: Color) -> bool {
        attacks::PAWN[color.flip().index()][ep] & self.bb(color, PAWN) != 0
    }

    /// The position after `mv`, which must be legal here (copy-make).
    #[inline]
    pub fn make(&self, mv: Move) -> Chess {
        let mut p = self.clone();
        let us = self.side;
        let from = mv.from().index();
        let to = mv.to().index();
        let moving = self.piece_on(from);
        p.halfmove = p.halfmove.saturating_add(1);
        if us == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        if p.ep != NO_EP {
            p.hash ^= KEYS.ep_file[p.ep as usize & 7];
            p.ep = NO_EP;
        }
        if mv.kind() != MoveKind::Castling && self.piece_on(to) != EMPTY {
            p.remove(to);
            p.halfmove = 0;
        }
        match mv.kind() {
            MoveKind::Normal => p.shift(from, to),
            MoveKind::DoubleStep => {
                p.shift(from, to);
                let ep = (from + to) / 2;
                if p.ep_usable(ep, us.flip()) {
                    p.ep = ep as u8;
                    p.hash ^= KEYS.ep_file[ep & 7];
                }
            }
            MoveKind::EnPassant => {
                p.remove(to ^ 8);
                p.shift(from, to);
            }
            MoveKind::Castling => {
                // The king goes to the g- or c-file, its rook next to it on the inside; in
                // Chess960 either may start on the other's target square, so lift both first.
                let rook_from = self.castling_rook(mv).index();
                let rook_to = if to & 7 == 6 { to - 1 } else { to + 1 };
                let king = self.piece_on(from);
                let rook = self.piece_on(rook_from);
                p.remove(from);
                p.remove(rook_from);
                p.put(to, king);
                p.put(rook_to, rook);
            }
            kind => {
                let promoted = match kind {
                    MoveKind::PromoteKnight => KNIGHT,
                    MoveKind::PromoteBishop => BISHOP,
                    MoveKind::PromoteRook => ROOK,
                    _ => QUEEN,
                };
                p.remove(from);
                p.put(to, (us.index() * 6 + promoted) as u8);
            }
        }
        if moving as usize % 6 == PAWN {
            p.halfmove = 0;
        }
        let rights = if self.chess960 {
            p.castling & self.rights_kept_960(from, to, moving)
        } else {
            p.castling & CASTLE_MASK[from] & CASTLE_MASK[to]
        };
        if rights != p.castling {
            p.hash ^= KEYS.castling[p.castling as usize] ^ KEYS.castling[rights as usize];
            p.castling = rights;
        }
        p.side = us.flip();
        p.hash ^= KEYS.black;
        p
    }

    /// The castling rights a Chess960 move from `from` to `to` by `moving` keeps: a king move
    /// loses both of its side's, a move from or onto a castling rook's square that one.
    #[cold]
    fn rights_kept_960(&self, from: usize, to: usize, moving: u8) -> u8 {
        let mut keep = 15u8;
        if moving as usize % 6 == KING {
            keep &= if moving < 6 {
                !(WHITE_OO | WHITE_OOO)
            } else {
                !(BLACK_OO | BLACK_OOO)
            };
        }
        for (i, &rook) in self.castle_rooks.iter().enumerate() {
            if self.castling >> i & 1 != 0 && (rook as usize == from || rook as usize == to) {
                keep &= !(1 << i);
            }
        }
        keep
    }

    /// The position after passing: the other side moves, any en-passant right lapses. The
    /// halfmove clock restarts so that no repetition is ever found across a null move.
    pub fn make_null(&self) -> Chess {
        let mut p = self.clone();
        if p.ep != NO_EP {
            p.hash ^= KEYS.ep_file[p.ep as usize & 7];
            p.ep = NO_EP;
        }
        p.side = p.side.flip();
        p.hash ^= KEYS.black;
        p.halfmove = 0;
        p
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in 0..64 {
            let p = self.piece_on(sq);
            if p != EMPTY {
                h ^= KEYS.piece[p as usize][sq];
            }
        }
        h ^= KEYS.castling[self.castling as usize];
        if self.ep != NO_EP {
            h ^= KEYS.ep_file[self.ep as usize & 7];
        }
        if self.side == Color::Black {
            h ^= KEYS.black;
        }
        h
    }

    /// Reads a standard-chess FEN with `KQkq` castling letters. Rights whose king or rook is
    /// not at home, and an en-passant square no pawn can use, are dropped.
    pub fn parse_fen(text: &str) -> Result<Chess, crate::Error> {
        Chess::parse_fen_with(text, false)
    }

    /// Reads a FEN under standard rules or (`chess960`) Chess960 rules. Castling letters may be
    /// `KQkq` (in Chess960: the outermost rook on that side of the king), or Shredder-FEN /
    /// X-FEN file letters (`HAha`, `Kq`, `Gb`…) naming the rook's file. Standard chess takes
    /// file letters only for rooks in the corners and the king on the e-file.
    /// Errors are [`crate::Error::Position`]s that say what is wrong.
    pub fn parse_fen_with(text: &str, chess960: bool) -> Result<Chess, crate::Error> {
        let fen = Fen::parse(text)?;
        Chess::from_fields(fen, chess960)
    }

    fn from_fields(fen: Fen, chess960: bool) -> Result<Chess, crate::Error> {
        if (fen.geometry.width, fen.geometry.height) != (8, 8) {
            return Err(position_error!(
                "a chess FEN needs an 8×8 board, this one is {}×{}",
                fen.geometry.width,
                fen.geometry.height
            ));
        }
        let mut p = Chess {
            pieces: [0; 6],
            colors: [0; 2],
            board: [EMPTY << 4 | EMPTY; 32],
            side: fen.side,
            castling: 0,
            ep: NO_EP,
            halfmove: fen.halfmove.min(u16::MAX as u32) as u16,
            fullmove: fen.fullmove.clamp(1, u16::MAX as u32) as u16,
            hash: 0,
            castle_rooks: STANDARD_ROOKS,
            chess960,
        };
        for &(sq, c) in &fen.pieces {
            let code = PIECE_CHARS
                .iter()
                .position(|&x| x as char == c)
                .ok_or_else(|| {
                    position_error!("'{c}' is not a chess piece letter (PNBRQK, pnbrqk)")
                })?;
            p.put(sq.index(), code as u8);
        }
        for color in [Color::White, Color::Black] {
            let kings = p.bb(color, KING).count_ones();
            if kings != 1 {
                return Err(position_error!(
                    "{color:?} has {kings} kings, exactly one expected"
                ));
            }
        }
        if p.pieces[PAWN] & 0xFF00_0000_0000_00FF != 0 {
            return Err(position_error!("a pawn stands on rank 1 or 8"));
        }
        for color in [Color::White, Color::Black] {
            let men = p.colors[color.index()].count_ones();
            let pawns = p.bb(color, PAWN).count_ones();
            if men > 16 || pawns > 8 {
                return Err(position_error!(
                    "{color:?} has {men} pieces and {pawns} pawns, at most 16 and 8 possible"
                ));
            }
        }
        if fen.castling != "-" {
            for c in fen.castling.chars() {
                p.add_castling_right(c)?;
            }
        }
        if let Some(ep) = fen.en_passant {
            let (rank, pusher) = match p.side {
                Color::White => (5, 1),
                Color::Black => (2, 0),
            };
            if ep.rank() != rank {
                return Err(position_error!(
                    "en-passant square {ep} is not on rank {} for the side to move",
                    rank + 1
                ));
            }
            // As python-chess's `Board.status()`: the square skipped must be empty, the pawn
            // that double-stepped beyond it, its origin square empty. An en-passant square
            // that passes and that no pawn can use is dropped (as python-chess's FEN does).
            let (pawn_sq, origin) = if pusher == 1 {
                (ep.index() - 8, ep.index() + 8)
            } else {
                (ep.index() + 8, ep.index() - 8)
            };
            let pawn_there = p.piece_on(pawn_sq) == (pusher * 6 + PAWN) as u8;
            if p.piece_on(ep.index()) != EMPTY || p.piece_on(origin) != EMPTY || !pawn_there {
                return Err(position_error!(
                    "en-passant square {ep} does not follow a double step (it and the pawn's \
                     origin must be empty, the pawn beyond it)"
                ));
            }
            if p.ep_usable(ep.index(), p.side) {
                p.ep = ep.index() as u8;
            }
        }
        let them = p.side.flip();
        if p.attacked(p.king(them), p.side, p.occupied()) {
            return Err(position_error!("the side not to move is in check"));
        }
        let checkers = p.attackers_to(p.king(p.side), p.occupied()) & p.colors[them.index()];
        if checkers.count_ones() > 2 {
            return Err(position_error!(
                "{} pieces give check, at most 2 can",
                checkers.count_ones()
            ));
        }
        p.hash = p.compute_hash();
        Ok(p)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let geometry = crate::board::Geometry::new(8, 8).expect("8×8 is a valid board");
        let board = placement(&geometry, |sq| {
            let p = self.piece_on(sq.index());
            (p != EMPTY).then(|| PIECE_CHARS[p as usize] as char)
        });
        let castling = self.castling_field();
        let ep = if self.ep == NO_EP {
            "-".to_string()
        } else {
            Square(self.ep).to_string()
        };
        format!(
            "{board} {} {castling} {ep} {} {}",
            self.side.fen_char(),
            self.halfmove,
            self.fullmove
        )
    }

    /// Adds the castling right that FEN letter `c` names, if its king and rook stand where
    /// it needs them (otherwise the letter is dropped, as for `KQkq` in standard chess).
    fn add_castling_right(&mut self, c: char) -> Result<(), crate::Error> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let base = color.index() * 56;
        let rook_code = (color.index() * 6 + ROOK) as u8;
        let king = self.king(color);
        let lower = c.to_ascii_lowercase();
        let rook = match lower {
            'k' | 'q' if !self.chess960 => base + if lower == 'k' { 7 } else { 0 },
            'k' | 'q' => {
                // The outermost rook on that side of the king.
                if king < base || king > base + 7 {
                    return Ok(());
                }
                let side = if lower == 'k' {
                    span(king, base + 7)
                } else {
                    span(base, king)
                };
                let rooks = side & self.bb(color, ROOK);
                if rooks == 0 {
                    return Ok(());
                }
                if lower == 'k' {
                    63 - rooks.leading_zeros() as usize
                } else {
                    rooks.trailing_zeros() as usize
                }
            }
            'a'..='h' => {
                let file = lower as usize - 'a' as usize;
                if !(self.chess960 || file == 0 || file == 7) {
                    return Err(position_error!(
                        "castling letter '{c}' names a rook on the {lower}-file, which needs \
                         Chess960 rules (UCI_Chess960)"
                    ));
                }
                base + file
            }
            _ => {
                return Err(position_error!(
                    "castling letter '{c}' is not one of K, Q, k, q or a file letter A-H, a-h"
                ));
            }
        };
        let home_rank = |sq: usize| sq >= base && sq <= base + 7;
        let king_ok = if self.chess960 {
            home_rank(king) && king != rook
        } else {
            king == base + 4
        };
        if !king_ok || self.piece_on(rook) != rook_code {
            return Ok(());
        }
        let kingside = rook > king;
        let index = color.index() * 2 + usize::from(!kingside);
        if self.castling >> index & 1 != 0 && self.castle_rooks[index] as usize != rook {
            return Err(position_error!(
                "castling letter '{c}': {color:?} has two castling rights on one side"
            ));
        }
        self.castling |= 1 << index;
        self.castle_rooks[index] = rook as u8;
        Ok(())
    }

    /// The FEN castling field: `KQkq` letters, or in Chess960 X-FEN (a file letter where
    /// another rook stands further out on the same side).
    pub fn castling_field(&self) -> String {
        let mut castling = String::new();
        for (index, c) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.castling >> index & 1 == 0 {
                continue;
            }
            let rook = self.castle_rooks[index] as usize;
            let color = if index < 2 {
                Color::White
            } else {
                Color::Black
            };
            let base = color.index() * 56;
            let outside = if index % 2 == 0 {
                span(rook, base + 7)
            } else {
                span(base, rook)
            } & !(1u64 << rook);
            if self.chess960 && outside & self.bb(color, ROOK) != 0 {
                let file = (b'a' + (rook & 7) as u8) as char;
                castling.push(if index < 2 {
                    file.to_ascii_uppercase()
                } else {
                    file
                });
            } else {
                castling.push(c);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        castling
    }

    /// The square of the rook that castles with right number `index` (see `castle_rooks`).
    #[inline]
    pub fn castle_rook(&self, index: usize) -> usize {
        self.castle_rooks[index] as usize
    }

    /// The square of the rook that castling move `mv` (the king to the g- or c-file) takes
    /// along.
    #[inline]
    pub fn castling_rook(&self, mv: Move) -> Square {
        let queenside = mv.to().index() & 7 != 6;
        Square(self.castle_rooks[self.side.index() * 2 + usize::from(queenside)])
    }

    /// Whether this position follows Chess960 rules.
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The board with Unicode pieces, White at the bottom, files and ranks around it.
    pub fn pretty_board(&self) -> String {
        let geometry = crate::board::Geometry::new(8, 8).expect("8×8 is a board size");
        crate::board::diagram(&geometry, |sq| {
            let p = self.piece_on(sq.index());
            (p != EMPTY).then(|| crate::board::GLYPHS[p as usize])
        })
    }
}

/// Piece values for exchange evaluation and capture ordering, by kind.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

impl Chess {
    /// Static exchange evaluation: whether `mv` gains at least `threshold` centipawns once
    /// both sides have captured on its target square with their least valuable attackers
    /// for as long as it pays (x-rays through moved sliders included). Castling is 0.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let from = mv.from().index();
        let to = mv.to().index();
        let kind = mv.kind();
        if kind == MoveKind::Castling {
            return threshold <= 0;
        }
        let mut gain = match kind {
            MoveKind::EnPassant => SEE_VALUE[PAWN],
            _ => self.kind_on(to).map_or(0, |k| SEE_VALUE[k]),
        };
        // The piece standing on the target square after our move, exposed to recapture.
        let mut on_square = self.kind_on(from).unwrap_or(PAWN);
        if kind.is_promotion() {
            let promoted = match kind {
                MoveKind::PromoteKnight => KNIGHT,
                MoveKind::PromoteBishop => BISHOP,
                MoveKind::PromoteRook => ROOK,
                _ => QUEEN,
            };
            gain += SEE_VALUE[promoted] - SEE_VALUE[PAWN];
            on_square = promoted;
        }
        // `swap`: what the side that just captured stands to lose if the exchange goes on.
        let mut swap = gain - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUE[on_square] - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occupied() ^ (1u64 << from) ^ (1u64 << to);
        if kind == MoveKind::EnPassant {
            occ ^= 1u64 << (to ^ 8);
        }
        let diag = self.pieces[BISHOP] | self.pieces[QUEEN];
        let straight = self.pieces[ROOK] | self.pieces[QUEEN];
        let mut attackers = self.attackers_to(to, occ);
        let mut stm = self.side;
        // `res`: whether the side that made the move reaches the threshold so far.
        let mut res = true;
        loop {
            stm = stm.flip();
            attackers &= occ;
            let ours = attackers & self.colors[stm.index()];
            if ours == 0 {
                break;
            }
            res = !res;
            // Capture with the least valuable attacker.
            let mut kind = PAWN;
            while kind < KING && ours & self.pieces[kind] == 0 {
                kind += 1;
            }
            if kind == KING {
                // The king may recapture only if nothing defends the square any more.
                let defended = attackers & !self.colors[stm.index()] != 0;
                return if defended { !res } else { res };
            }
            swap = SEE_VALUE[kind] - swap;
            if swap < res as i32 {
                break;
            }
            let bit = ours & self.pieces[kind];
            occ ^= bit & bit.wrapping_neg();
            if kind == PAWN || kind == BISHOP || kind == QUEEN {
                attackers |= attacks::bishop(to, occ) & diag;
            }
            if kind == ROOK || kind == QUEEN {
                attackers |= attacks::rook(to, occ) & straight;
            }
        }
        res
    }
}
