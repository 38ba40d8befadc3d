//! The bitboard core of a position of the family ([`Bits`]: pieces by kind and by colour) and
//! everything computed from it and the en-passant square alone, for any [`Board`]: attack
//! sets, legal moves in one pass (the captures, en passant among them, if any exist, else the
//! quiet moves), the number of legal moves without a move list, and — on a board without en
//! passant — a lean make and the bulk-counting perft that counts the last two plies without
//! playing them.

use arrayvec::ArrayVec;

use super::board::Board;
use crate::board::{Move, MoveKind, MoveList, Square};

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
/// set, square, kind. Sixteen pieces a side on 8×8, 36 squares on 6×6: 36 at the most.
pub type Targets = ArrayVec<(u64, u8, u8), 36>;

/// The targets of a piece of `kind` (not a pawn) on `sq` with blockers `occ`.
#[inline(always)]
pub fn piece_attacks<B: Board>(kind: usize, sq: usize, occ: u64) -> u64 {
    match kind {
        KNIGHT_K => B::knight(sq),
        BISHOP_K => B::bishop(sq, occ),
        ROOK_K => B::rook(sq, occ),
        QUEEN_K => B::queen(sq, occ),
        _ => B::king(sq),
    }
}

/// The squares the pawns `pawns` of side `us` (0 White, 1 Black) attack to the left and to
/// the right (from White's view).
#[inline(always)]
fn pawn_attacks<B: Board>(us: usize, pawns: u64) -> (u64, u64) {
    let (left, right) = (pawns & B::NOT_FIRST_FILE, pawns & B::NOT_LAST_FILE);
    if us == 0 {
        (left << 7, right << 9)
    } else {
        (left >> 9, right >> 7)
    }
}

/// The single and double steps of the pawns `pawns` of side `us` onto `empty` squares.
#[inline(always)]
fn pawn_steps<B: Board>(us: usize, pawns: u64, empty: u64) -> (u64, u64) {
    if us == 0 {
        let single = (pawns << 8) & empty;
        (single, ((single & B::SECOND_STEP_FROM[0]) << 8) & empty)
    } else {
        let single = (pawns >> 8) & empty;
        (single, ((single & B::SECOND_STEP_FROM[1]) >> 8) & empty)
    }
}

/// The square offsets of the pawns' left and right captures and of one step, by side.
const PAWN_DELTAS: [(i8, i8, i8); 2] = [(7, 9, 8), (-9, -7, -8)];

/// Pushes a pawn move of side `us` for every target in `targets`, each from `to - delta`:
/// every promotion of the board on its promotion rank, `kind` elsewhere.
#[inline(always)]
fn push_pawn<B: Board>(moves: &mut MoveList, us: usize, targets: u64, delta: i8, kind: MoveKind) {
    let mut t = targets;
    while t != 0 {
        let to = t.trailing_zeros() as u8;
        t &= t - 1;
        let from = Square((to as i8 - delta) as u8);
        if B::PROMOTION_RANK[us] >> to & 1 != 0 {
            for &promotion in B::PROMOTIONS {
                moves.push(Move::new(from, Square(to), promotion));
            }
        } else {
            moves.push(Move::new(from, Square(to), kind));
        }
    }
}

/// The number of pawn moves of side `us` onto `targets`: one for each promotion on the
/// promotion rank.
#[inline(always)]
fn count_pawn<B: Board>(us: usize, targets: u64) -> u32 {
    let promoting = (targets & B::PROMOTION_RANK[us]).count_ones();
    targets.count_ones() + (B::PROMOTIONS.len() as u32 - 1) * promoting
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
    pub fn attacks_by<B: Board>(&self, us: usize) -> u64 {
        let own = self.colors[us];
        let occ = self.occupied();
        let (left, right) = pawn_attacks::<B>(us, self.kinds[PAWN_K] & own);
        let mut att = left | right;
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                att |= piece_attacks::<B>(kind, bb.trailing_zeros() as usize, occ);
                bb &= bb - 1;
            }
        }
        att
    }

    /// Whether a piece of side `by` attacks `sq` when the board's occupancy is `occ`.
    #[inline]
    pub fn attacked<B: Board>(&self, sq: usize, by: usize, occ: u64) -> bool {
        let theirs = self.colors[by] & occ;
        let k = &self.kinds;
        // A pawn of `by` attacks `sq` if a pawn of the other side on `sq` would attack it.
        (B::pawn(1 - by, sq) & k[PAWN_K] & theirs) != 0
            || (B::knight(sq) & k[KNIGHT_K] & theirs) != 0
            || (B::king(sq) & k[KING_K] & theirs) != 0
            || (B::bishop(sq, occ) & (k[BISHOP_K] | k[QUEEN_K]) & theirs) != 0
            || (B::rook(sq, occ) & (k[ROOK_K] | k[QUEEN_K]) & theirs) != 0
    }

    /// The pawns of side `us` that can take en passant on `ep` (64 and up: no such square).
    #[inline(always)]
    pub fn en_passant_takers<B: Board>(&self, us: usize, ep: u8) -> u64 {
        if !B::EN_PASSANT || ep >= 64 {
            return 0;
        }
        B::pawn(1 - us, ep as usize) & self.kinds[PAWN_K] & self.colors[us]
    }

    /// The non-pawn pieces of side `us` and their targets (own squares excluded), into `t`
    /// (which must be empty), by kind from the knight to the king, each kind's squares in
    /// ascending order.
    #[inline]
    pub fn targets<B: Board>(&self, us: usize, t: &mut Targets) {
        let own = self.colors[us];
        let occ = self.occupied();
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                t.push((
                    piece_attacks::<B>(kind, sq, occ) & !own,
                    sq as u8,
                    kind as u8,
                ));
            }
        }
    }

    /// Every legal move of side `us` into `moves` (not cleared), with `ep` the en-passant
    /// square (64: none): the captures (pawns to the left, to the right, en passant, then the
    /// pieces), or when there is none, the quiet moves (single steps, double steps, pieces).
    #[inline]
    pub fn legal_moves<B: Board>(&self, us: usize, ep: u8, moves: &mut MoveList) {
        let theirs = self.colors[1 - us];
        let empty = B::SQUARES & !self.occupied();
        let pawns = self.kinds[PAWN_K] & self.colors[us];
        let (left, right) = pawn_attacks::<B>(us, pawns);
        let (left, right) = (left & theirs, right & theirs);
        let takers = self.en_passant_takers::<B>(us, ep);
        let mut t = Targets::new();
        self.targets::<B>(us, &mut t);
        let (dl, dr, dp) = PAWN_DELTAS[us];
        let mut any = left | right | takers;
        for &(att, _, _) in &t {
            any |= att & theirs;
        }
        if any != 0 {
            push_pawn::<B>(moves, us, left, dl, MoveKind::Normal);
            push_pawn::<B>(moves, us, right, dr, MoveKind::Normal);
            let mut e = takers;
            while e != 0 {
                let from = Square(e.trailing_zeros() as u8);
                e &= e - 1;
                moves.push(Move::new(from, Square(ep), MoveKind::EnPassant));
            }
            for &(att, from, _) in &t {
                push_targets(moves, from, att & theirs);
            }
        } else {
            let (single, double) = pawn_steps::<B>(us, pawns, empty);
            push_pawn::<B>(moves, us, single, dp, MoveKind::Normal);
            push_pawn::<B>(moves, us, double, 2 * dp, MoveKind::DoubleStep);
            for &(att, from, _) in &t {
                push_targets(moves, from, att);
            }
        }
    }

    /// The number of legal moves of side `us` with en-passant square `ep`, without
    /// generating them.
    #[inline]
    pub fn count_moves<B: Board>(&self, us: usize, ep: u8) -> u32 {
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let occ = own | theirs;
        let empty = B::SQUARES & !occ;
        let pawns = self.kinds[PAWN_K] & own;
        let (left, right) = pawn_attacks::<B>(us, pawns);
        let (single, double) = pawn_steps::<B>(us, pawns, empty);
        let mut caps = count_pawn::<B>(us, left & theirs) + count_pawn::<B>(us, right & theirs);
        caps += self.en_passant_takers::<B>(us, ep).count_ones();
        let mut quiet = count_pawn::<B>(us, single) + double.count_ones();
        for kind in KNIGHT_K..=KING_K {
            let mut bb = self.kinds[kind] & own;
            while bb != 0 {
                let att = piece_attacks::<B>(kind, bb.trailing_zeros() as usize, occ);
                bb &= bb - 1;
                caps += (att & theirs).count_ones();
                quiet += (att & empty).count_ones();
            }
        }
        if caps > 0 { caps } else { quiet }
    }

    /// The pieces of side `us` other than pawns, as (kind, square), by kind from the knight
    /// to the king, each kind's squares in ascending order.
    #[inline(always)]
    pub fn pieces_of(&self, us: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let own = self.colors[us];
        (KNIGHT_K..=KING_K).flat_map(move |kind| {
            let mut bb = self.kinds[kind] & own;
            std::iter::from_fn(move || {
                (bb != 0).then(|| {
                    let sq = bb.trailing_zeros() as usize;
                    bb &= bb - 1;
                    (kind, sq)
                })
            })
        })
    }

    /// The pieces after side `us` moves its piece of `kind` from `from` to `to`, becoming a
    /// piece of kind `new` (a queen on promotion), taking whatever stands on `to`. For the
    /// bulk perft of a board without en passant.
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

    /// The bulk-counting perft of side `us` to move on a board whose pawns step once, take no
    /// en passant and promote to a queen alone (Räuberschach's): the last two plies are
    /// counted, not played.
    pub fn perft<B: Board>(&self, us: usize, depth: u32) -> u64 {
        debug_assert!(!B::EN_PASSANT && B::PROMOTIONS.len() == 1);
        if depth <= 2 {
            return match depth {
                0 => 1,
                1 => self.count_moves::<B>(us, 64) as u64,
                _ => self.perft2::<B>(us),
            };
        }
        let own = self.colors[us];
        let theirs = self.colors[1 - us];
        let empty = B::SQUARES & !(own | theirs);
        let pawns = self.kinds[PAWN_K] & own;
        let (left, right) = pawn_attacks::<B>(us, pawns);
        let (left, right) = (left & theirs, right & theirs);
        let (push, _) = pawn_steps::<B>(us, pawns, empty);
        let mut t = Targets::new();
        self.targets::<B>(us, &mut t);
        let (dl, dr, dp) = PAWN_DELTAS[us];
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
                let promotes = B::PROMOTION_RANK[us] >> to & 1 != 0;
                let new = if promotes { QUEEN_K } else { PAWN_K };
                let from = (to as i8 - delta) as u8;
                nodes += self
                    .make(us, PAWN_K, new, from, to)
                    .perft::<B>(1 - us, depth - 1);
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
                nodes += self
                    .make(us, kind, kind, from, to)
                    .perft::<B>(1 - us, depth - 1);
            }
        }
        nodes
    }

    /// The sum over every legal move of side `us` of the opponent's number of legal moves
    /// after it: perft to depth 2, without making a single move (boards as [`Bits::perft`]).
    ///
    /// The opponent's capture and quiet-move counts are taken once for this position; a move
    /// from `f` to `t` then changes them only through (1) the two squares themselves, for
    /// every opponent piece attacking them (for leapers a reverse table lookup), (2) the
    /// opponent's sliders whose attack sets contain `f` or `t` — only those see a different
    /// occupancy and are looked up again — (3) the captured piece, whose share is removed,
    /// and (4) the opponent's pawns, recounted set-wise.
    pub fn perft2<B: Board>(&self, us: usize) -> u64 {
        let them = 1 - us;
        let ours = self.colors[us];
        let theirs = self.colors[them];
        let occ = ours | theirs;
        let empty = B::SQUARES & !occ;
        let pawns = self.kinds[PAWN_K] & ours;
        let (left, right) = pawn_attacks::<B>(us, pawns);
        let (left, right) = (left & theirs, right & theirs);
        let (push, _) = pawn_steps::<B>(us, pawns, empty);
        let mut t = Targets::new();
        self.targets::<B>(us, &mut t);
        let mut any = left | right;
        for &(att, _, _) in &t {
            any |= att & theirs;
        }
        let leaf = Leaf::of::<B>(self, them);
        let mut nodes = 0;
        let (dl, dr, dp) = PAWN_DELTAS[us];
        let mut pawn_moves = |targets: u64, delta: i8| {
            let mut bb = targets;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                nodes += leaf.count::<B>((to as i8 - delta) as u8, to);
            }
        };
        if any != 0 {
            pawn_moves(left, dl);
            pawn_moves(right, dr);
        } else {
            pawn_moves(push, dp);
        }
        let mask = if any != 0 { theirs } else { empty };
        for &(att, from, _) in &t {
            let mut bb = att & mask;
            while bb != 0 {
                let to = bb.trailing_zeros() as u8;
                bb &= bb - 1;
                nodes += leaf.count::<B>(from, to);
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
    /// The opponent `them`'s counts in `bits` before any move of ours.
    #[inline(always)]
    fn of<B: Board>(bits: &Bits, them: usize) -> Leaf {
        let (ours, theirs) = (bits.colors[1 - them], bits.colors[them]);
        let occ = ours | theirs;
        let empty = B::SQUARES & !occ;
        let knights = bits.kinds[KNIGHT_K] & theirs;
        let kings = bits.kinds[KING_K] & theirs;
        let mut leaf = Leaf {
            them,
            ours,
            theirs,
            occ,
            empty,
            knights,
            kings,
            their_pawns: bits.kinds[PAWN_K] & theirs,
            caps0: 0,
            quiet0: 0,
            sliders: ArrayVec::new(),
        };
        for (bb, leaper) in [(knights, B::knight as fn(usize) -> u64), (kings, B::king)] {
            let mut bb = bb;
            while bb != 0 {
                let att = leaper(bb.trailing_zeros() as usize);
                bb &= bb - 1;
                leaf.caps0 += (att & ours).count_ones() as i32;
                leaf.quiet0 += (att & empty).count_ones() as i32;
            }
        }
        // Filled in place: moving a full ArrayVec into the struct costs a copy.
        for kind in [BISHOP_K, ROOK_K, QUEEN_K] {
            let mut bb = bits.kinds[kind] & theirs;
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let att = piece_attacks::<B>(kind, sq, occ);
                leaf.caps0 += (att & ours).count_ones() as i32;
                leaf.quiet0 += (att & empty).count_ones() as i32;
                leaf.sliders.push((att, sq as u8, kind as u8));
            }
        }
        leaf
    }

    /// The opponent's number of legal moves after our move from `f` to `to`.
    #[inline(always)]
    fn count<B: Board>(&self, f: u8, to: u8) -> u64 {
        let (fb, tb) = (1u64 << f, 1u64 << to);
        let ours2 = self.ours ^ fb ^ tb;
        let capture = self.theirs & tb != 0;
        let (occ2, empty2) = if capture {
            (self.occ ^ fb, self.empty ^ fb)
        } else {
            (self.occ ^ fb ^ tb, self.empty ^ fb ^ tb)
        };
        let (kn, kg) = (self.knights & !tb, self.kings & !tb);
        let at = |sq: u8| {
            (B::knight(sq as usize) & kn).count_ones() as i32
                + (B::king(sq as usize) & kg).count_ones() as i32
        };
        let (at_f, at_t) = (at(f), at(to));
        let mut caps = self.caps0 + at_t - at_f;
        let mut quiet = self.quiet0 + at_f - if capture { 0 } else { at_t };
        if capture && (self.knights | self.kings) & tb != 0 {
            let att = if self.knights & tb != 0 {
                B::knight(to as usize)
            } else {
                B::king(to as usize)
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
                let att2 = piece_attacks::<B>(kind as usize, sq as usize, occ2);
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
        let (l, r) = pawn_attacks::<B>(self.them, pawns);
        let (push, _) = pawn_steps::<B>(self.them, pawns, empty2);
        caps += ((l & ours2).count_ones() + (r & ours2).count_ones()) as i32;
        quiet += push.count_ones() as i32;
        if caps > 0 { caps as u64 } else { quiet as u64 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{Eight, Six};
    use super::*;

    #[test]
    fn pawn_captures_do_not_wrap_around_the_board() {
        // White pawns on a2 and h2 attack b3 and g3 only.
        let pawns = (1u64 << 8) | (1u64 << 15);
        let (left, right) = pawn_attacks::<Eight>(0, pawns);
        assert_eq!(left | right, (1 << 17) | (1 << 22));
        // Black pawns on a7 and h7 attack b6 and g6 only.
        let pawns = (1u64 << 48) | (1u64 << 55);
        let (left, right) = pawn_attacks::<Eight>(1, pawns);
        assert_eq!(left | right, (1 << 41) | (1 << 46));
        // On 6×6, White pawns on a2 and f2 attack b3 and e3 only.
        let (left, right) = pawn_attacks::<Six>(0, (1 << 8) | (1 << 13));
        assert_eq!(left | right, (1 << 17) | (1 << 20));
    }

    #[test]
    fn a_promotion_counts_one_move_per_piece_it_may_become() {
        assert_eq!(count_pawn::<Eight>(0, 1 << 60), 5);
        assert_eq!(count_pawn::<Eight>(0, 1 << 20), 1);
        assert_eq!(count_pawn::<Six>(0, 1 << 41), 1);
    }
}
