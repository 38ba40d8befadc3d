//! The bitboard core of a Räuberschach position ([`Bits`]: pieces by kind and by colour) and
//! everything computed from it alone: attack sets, legal move generation in one pass over the
//! pieces (captures if any exist, else quiet moves), move counting without a move list, and
//! a lean make for the bulk-counting perft. Depends on [`super::attacks`] and `crate::board`.

use super::attacks::{self, BOARD, KING, KNIGHT, RANK_1, RANK_6};
use crate::board::{Move, MoveKind, MoveList, Square};
use arrayvec::ArrayVec;

/// The kinds of piece, as indices into [`Bits::kinds`].
pub const PAWN_K: usize = 0;
pub const KNIGHT_K: usize = 1;
pub const BISHOP_K: usize = 2;
pub const ROOK_K: usize = 3;
pub const QUEEN_K: usize = 4;
pub const KING_K: usize = 5;

/// The pieces of a position: by kind (both colours together) and by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Bits {
    pub kinds: [u64; 6],
    pub colors: [u64; 2],
}

/// The non-pawn pieces of one side with their target sets (own pieces excluded): target
/// set, square, kind.
pub type Targets = ArrayVec<(u64, u8, u8), 36>;

/// The targets of a piece of `kind` (not a pawn) on `sq` with blockers `occ`.
#[inline(always)]
fn piece_attacks(s: &attacks::Sliders, kind: usize, sq: usize, occ: u64) -> u64 {
    match kind {
        KNIGHT_K => KNIGHT[sq],
        BISHOP_K => s.bishop(sq, occ),
        ROOK_K => s.rook(sq, occ),
        QUEEN_K => s.queen(sq, occ),
        _ => KING[sq],
    }
}

/// Pawn captures to the left and right, and pushes, of the pawns `pawns` of side `us`
/// (0 White, 1 Black), as target sets; `empty` and `theirs` restrict them.
#[inline(always)]
fn pawn_sets(us: usize, pawns: u64, theirs: u64, empty: u64) -> (u64, u64, u64) {
    if us == 0 {
        (
            (pawns << 7) & theirs & BOARD,
            (pawns << 9) & theirs & BOARD,
            (pawns << 8) & empty,
        )
    } else {
        (
            (pawns >> 9) & theirs & BOARD,
            (pawns >> 7) & theirs & BOARD,
            (pawns >> 8) & empty,
        )
    }
}

/// The square offsets of the pawn sets of [`pawn_sets`], and the promotion rank, by side.
const PAWN_DELTAS: [(i8, i8, i8, u64); 2] = [(7, 9, 8, RANK_6), (-9, -7, -8, RANK_1)];

/// Pushes pawn moves to `targets`, each from `to - delta`; promotions on `last`.
#[inline(always)]
fn push_pawn(moves: &mut MoveList, targets: u64, delta: i8, last: u64) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        let kind = if last >> to & 1 != 0 {
            MoveKind::PromoteQueen
        } else {
            MoveKind::Normal
        };
        let from = (to as i8 - delta) as u8;
        moves.push(Move::new(Square(from), Square(to), kind));
    }
}

/// Pushes a move for every target, from `from`.
#[inline(always)]
fn push_targets(moves: &mut MoveList, from: u8, targets: u64) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        moves.push(Move::new(Square(from), Square(to), MoveKind::Normal));
    }
}

impl Bits {
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// Squares attacked by the pieces of side `us` (0 White, 1 Black).
    #[inline]
    pub fn attacks_by(&self, us: usize) -> u64 {
        let own = self.colors[us];
        let occ = self.occupied();
        let s = attacks::sliders();
        let pawns = self.kinds[PAWN_K] & own;
        let mut att = if us == 0 {
            ((pawns << 7) | (pawns << 9)) & BOARD
        } else {
            ((pawns >> 9) | (pawns >> 7)) & BOARD
        };
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                att |= piece_attacks(s, kind, bb.trailing_zeros() as usize, occ);
                bb &= bb - 1;
            }
        }
        att
    }

    /// Whether a piece of side `by` attacks `sq` when the board's occupancy is `occ`.
    #[inline]
    pub fn attacked(&self, sq: usize, by: usize, occ: u64) -> bool {
        let theirs = self.colors[by] & occ;
        let s = attacks::sliders();
        let k = &self.kinds;
        // A pawn of `by` attacks `sq` if a pawn of the other side on `sq` would attack it.
        (attacks::PAWN[1 - by][sq] & k[PAWN_K] & theirs) != 0
            || (KNIGHT[sq] & k[KNIGHT_K] & theirs) != 0
            || (KING[sq] & k[KING_K] & theirs) != 0
            || (s.bishop(sq, occ) & (k[BISHOP_K] | k[QUEEN_K]) & theirs) != 0
            || (s.rook(sq, occ) & (k[ROOK_K] | k[QUEEN_K]) & theirs) != 0
    }

    /// The non-pawn pieces of side `us` and their targets (own squares excluded), into `t`
    /// (which must be empty).
    #[inline]
    pub fn targets(&self, us: usize, t: &mut Targets) {
        let own = self.colors[us];
        let occ = self.occupied();
        let s = attacks::sliders();
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                // At most 36 pieces fit on the board.
                t.push((piece_attacks(s, kind, sq, occ) & !own, sq as u8, kind as u8));
            }
        }
    }

    /// Every legal move of side `us` into `moves` (not cleared): the captures, or when there
    /// is none, the quiet moves.
    #[inline]
    pub fn legal_moves(&self, us: usize, moves: &mut MoveList) {
        let theirs = self.colors[1 - us];
        let empty = BOARD & !self.occupied();
        let pawns = self.kinds[PAWN_K] & self.colors[us];
        let (left, right, push) = pawn_sets(us, pawns, theirs, empty);
        let mut t = Targets::new();
        self.targets(us, &mut t);
        let (dl, dr, dp, last) = PAWN_DELTAS[us];
        let mut any = left | right;
        for &(att, _, _) in &t {
            any |= att & theirs;
        }
        if any != 0 {
            push_pawn(moves, left, dl, last);
            push_pawn(moves, right, dr, last);
            for &(att, from, _) in &t {
                push_targets(moves, from, att & theirs);
            }
        } else {
            push_pawn(moves, push, dp, last);
            for &(att, from, _) in &t {
                push_targets(moves, from, att);
            }
        }
    }

    /// The number of legal moves of side `us`, without generating them.
    #[inline]
    pub fn count_moves(&self, us: usize) -> u32 {
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let occ = own | theirs;
        let empty = BOARD & !occ;
        let (left, right, push) = pawn_sets(us, self.kinds[PAWN_K] & own, theirs, empty);
        let s = attacks::sliders();
        let mut caps = left.count_ones() + right.count_ones();
        let mut quiet = push.count_ones();
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                let att = piece_attacks(s, kind, bb.trailing_zeros() as usize, occ);
                bb &= bb - 1;
                caps += (att & theirs).count_ones();
                quiet += (att & empty).count_ones();
            }
        }
        if caps > 0 { caps } else { quiet }
    }

    /// The pieces after side `us` moves its piece of `kind` from `from` to `to`, becoming a
    /// piece of kind `new` (a queen on promotion), taking whatever stands on `to`.
    #[inline(always)]
    pub fn make(&self, us: usize, kind: usize, new: usize, from: u8, to: u8) -> Bits {
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let mut n = *self;
        if self.colors[1 - us] & tb != 0 {
            n.colors[1 - us] ^= tb;
            for k in &mut n.kinds {
                *k &= !tb;
            }
        }
        n.colors[us] ^= fb | tb;
        n.kinds[kind] ^= fb;
        n.kinds[new] |= tb;
        n
    }

    /// The sum over every legal move of side `us` of the opponent's number of legal moves
    /// after it: perft to depth 2, without making a single move.
    ///
    /// The opponent's capture and quiet-move counts are taken once for this position; a move
    /// from `f` to `t` then changes them only through (1) the two squares themselves, for
    /// every opponent piece attacking them (for leapers a reverse table lookup), (2) the
    /// opponent's sliders whose attack sets contain `f` or `t` — only those see a different
    /// occupancy and are looked up again — (3) the captured piece, whose share is removed,
    /// and (4) the opponent's pawns, recounted set-wise.
    pub fn perft2(&self, us: usize) -> u64 {
        let them = 1 - us;
        let ours = self.colors[us];
        let theirs = self.colors[them];
        let occ = ours | theirs;
        let empty = BOARD & !occ;
        let s = attacks::sliders();

        // Our moves, as in `legal_moves`.
        let (left, right, push) = pawn_sets(us, self.kinds[PAWN_K] & ours, theirs, empty);
        let mut t = Targets::new();
        self.targets(us, &mut t);
        let mut any = left | right;
        for &(att, _, _) in &t {
            any |= att & theirs;
        }
        let capturing = any != 0;

        // The opponent's counts here, without pawns; their sliders with attack sets.
        let knights = self.kinds[KNIGHT_K] & theirs;
        let kings = self.kinds[KING_K] & theirs;
        let (mut caps0, mut quiet0) = (0i32, 0i32);
        for (bb, table) in [(knights, &KNIGHT), (kings, &KING)] {
            let mut bb = bb;
            while bb != 0 {
                let att = table[bb.trailing_zeros() as usize];
                bb &= bb - 1;
                caps0 += (att & ours).count_ones() as i32;
                quiet0 += (att & empty).count_ones() as i32;
            }
        }
        let mut leaf = Leaf {
            them,
            ours,
            theirs,
            occ,
            empty,
            knights,
            kings,
            their_pawns: self.kinds[PAWN_K] & theirs,
            caps0,
            quiet0,
            sliders: ArrayVec::new(),
        };
        // Filled in place: moving a full ArrayVec into the struct costs a copy.
        for kind in [BISHOP_K, ROOK_K, QUEEN_K] {
            let mut bb = self.kinds[kind] & theirs;
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let att = piece_attacks(s, kind, sq, occ);
                leaf.caps0 += (att & ours).count_ones() as i32;
                leaf.quiet0 += (att & empty).count_ones() as i32;
                leaf.sliders.push((att, sq as u8, kind as u8));
            }
        }
        let leaf = &leaf;
        let count = |f: u8, to: u8| leaf.count(s, f, to);
        let mut nodes = 0;
        let (dl, dr, dp, _) = PAWN_DELTAS[us];
        let mut pawn_moves = |targets: u64, delta: i8| {
            let mut bb = targets;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                nodes += count((to as i8 - delta) as u8, to);
            }
        };
        if capturing {
            pawn_moves(left, dl);
            pawn_moves(right, dr);
        } else {
            pawn_moves(push, dp);
        }
        let mask = if capturing { theirs } else { empty };
        for &(att, from, _) in &t {
            let mut bb = att & mask;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                nodes += count(from, to);
            }
        }
        nodes
    }

    /// The bulk-counting perft of side `us` to move: the last two plies are counted, not
    /// played.
    pub fn perft(&self, us: usize, depth: u32) -> u64 {
        if depth <= 2 {
            return match depth {
                0 => 1,
                1 => self.count_moves(us) as u64,
                _ => self.perft2(us),
            };
        }
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let empty = BOARD & !(own | theirs);
        let (left, right, push) = pawn_sets(us, self.kinds[PAWN_K] & own, theirs, empty);
        let mut t = Targets::new();
        self.targets(us, &mut t);
        let (dl, dr, dp, last) = PAWN_DELTAS[us];
        let mut any = left | right;
        for &(att, _, _) in &t {
            any |= att & theirs;
        }
        let mask = if any != 0 { theirs } else { empty };
        let mut nodes = 0;
        let mut pawn_moves = |targets: u64, delta: i8| {
            let mut bb = targets;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                let new = if last >> to & 1 != 0 { QUEEN_K } else { PAWN_K };
                let from = (to as i8 - delta) as u8;
                nodes += self
                    .make(us, PAWN_K, new, from, to)
                    .perft(1 - us, depth - 1);
            }
        };
        if any != 0 {
            pawn_moves(left, dl);
            pawn_moves(right, dr);
        } else {
            pawn_moves(push, dp);
        }
        for &(att, from, kind) in &t {
            let kind = kind as usize;
            let mut bb = att & mask;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                nodes += self.make(us, kind, kind, from, to).perft(1 - us, depth - 1);
            }
        }
        nodes
    }
}

/// What [`Bits::perft2`] knows of the opponent before any move: see there.
struct Leaf {
    them: usize,
    ours: u64,
    theirs: u64,
    occ: u64,
    empty: u64,
    knights: u64,
    kings: u64,
    their_pawns: u64,
    caps0: i32,
    quiet0: i32,
    sliders: ArrayVec<(u64, u8, u8), 36>,
}

impl Leaf {
    /// The opponent's number of legal moves after our move from `f` to `to`.
    #[inline(always)]
    fn count(&self, s: &attacks::Sliders, f: u8, to: u8) -> u64 {
        let (fb, tb) = (1u64 << f, 1u64 << to);
        let ours2 = self.ours ^ fb ^ tb;
        let capture = self.theirs & tb != 0;
        let (occ2, empty2) = if capture {
            (self.occ ^ fb, self.empty ^ fb)
        } else {
            (self.occ ^ fb ^ tb, self.empty ^ fb ^ tb)
        };
        let (kn, kg) = (self.knights & !tb, self.kings & !tb);
        let at_f = (KNIGHT[f as usize] & kn).count_ones() as i32
            + (KING[f as usize] & kg).count_ones() as i32;
        let at_t = (KNIGHT[to as usize] & kn).count_ones() as i32
            + (KING[to as usize] & kg).count_ones() as i32;
        let mut caps = self.caps0 + at_t - at_f;
        let mut quiet = self.quiet0 + at_f - if capture { 0 } else { at_t };
        if capture && (self.knights | self.kings) & tb != 0 {
            let att = if self.knights & tb != 0 {
                KNIGHT[to as usize]
            } else {
                KING[to as usize]
            };
            caps -= (att & self.ours).count_ones() as i32;
            quiet -= (att & self.empty).count_ones() as i32;
        }
        for &(att, sq, kind) in &self.sliders {
            if att & (fb | tb) == 0 {
                continue;
            }
            caps -= (att & self.ours).count_ones() as i32;
            quiet -= (att & self.empty).count_ones() as i32;
            if sq != to {
                let att2 = piece_attacks(s, kind as usize, sq as usize, occ2);
                caps += (att2 & ours2).count_ones() as i32;
                quiet += (att2 & empty2).count_ones() as i32;
            }
        }
        // A captured slider that neither sees f nor t still leaves.
        if capture {
            for &(att, sq, _) in &self.sliders {
                if sq == to && att & fb == 0 {
                    caps -= (att & self.ours).count_ones() as i32;
                    quiet -= (att & self.empty).count_ones() as i32;
                }
            }
        }
        let pawns = self.their_pawns & !tb;
        let (l, r, p) = pawn_sets(self.them, pawns, ours2, empty2);
        caps += (l.count_ones() + r.count_ones()) as i32;
        quiet += p.count_ones() as i32;
        if caps > 0 { caps as u64 } else { quiet as u64 }
    }
}
