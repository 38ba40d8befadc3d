//! Pawn chess (every rule set, the pawn game included) for the acyclic win/draw/loss solver
//! ([`crate::solve::wdl`]): successors with a move order that tries the likely winner first
//! (captures, passed pawns, advanced pawns), an immediate win found while generating, and a
//! key that a position shares with its mirror image.
//!
//! Depends on [`super::board`] (the compact position and its move generator) and on
//! [`crate::solve::wdl`].

use std::sync::atomic::AtomicBool;

use super::board::{Leaf, Pos, Shape, TERNARY};
use crate::games::pawns::Pawns;
use crate::solve::wdl::{self, Acyclic, Children};

/// The solver's view of one board and rule set.
pub struct PawnSolver {
    shape: Shape,
    /// Squares ahead of a pawn on its file and the two beside it, by colour and square.
    front: [[u64; 64]; 2],
    /// A rank's pawns mirrored (file a ↔ the last file).
    mirror: [u8; 256],
    rank_bits: u32,
    /// The bitboard key's layout where it fits ([`Packed`]), else the ternary key.
    packed: Option<Packed>,
}

/// A key of the bitboards themselves: White's pawns from the lowest rank they can stand on
/// in a position still open, Black's above them, then the en-passant file and the side to
/// move; two shifts and an or, where the ternary code needs a table look-up per rank.
#[derive(Clone, Copy, Debug)]
struct Packed {
    /// Where White's lowest possible rank starts in the bitboard, and the bits it spans.
    white_shift: u32,
    white_bits: u32,
    /// The squares each side's part keeps (those above are decided or unreachable).
    white_mask: u64,
    black_mask: u64,
    /// The files a mirror image moves off the board (8 − width).
    mirror_shift: u32,
}

/// Each rank's files reversed (file a ↔ the last file) in a bitboard of 8-square ranks.
#[inline]
fn mirror_ranks(x: u64, shift: u32) -> u64 {
    x.reverse_bits().swap_bytes() >> shift
}

/// Ternary code of a rank with White's pawns `w` and Black's `b`.
#[inline]
fn ternary(w: u8, b: u8) -> u128 {
    TERNARY[w as usize][b as usize] as u128
}

impl PawnSolver {
    pub fn new(shape: Shape) -> PawnSolver {
        let (w, h) = (shape.width as i32, shape.height as i32);
        let mut front = [[0u64; 64]; 2];
        for r in 0..h {
            for f in 0..w {
                for (c, ranks) in [(0, (r + 1)..h), (1, 0..r)] {
                    let mut m = 0u64;
                    for rr in ranks {
                        for ff in (f - 1).max(0)..=(f + 1).min(w - 1) {
                            m |= 1 << (rr * 8 + ff);
                        }
                    }
                    front[c][(r * 8 + f) as usize] = m;
                }
            }
        }
        let shift = 8 - w as u32;
        let mirror = std::array::from_fn(|x| (x as u8).reverse_bits() >> shift);
        let rank_bits = 64 - (3u64.pow(w as u32) - 1).leading_zeros();
        PawnSolver {
            shape,
            front,
            mirror,
            rank_bits,
            packed: Packed::of(&shape),
        }
    }

    /// Whether the key is the bitboards' ([`Packed`]) rather than the ternary code.
    pub fn bitboard_key(&self) -> bool {
        self.packed.is_some()
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The bitboard keys of `p` and of its mirror image.
    #[inline]
    fn packed_keys(&self, k: Packed, p: &Pos) -> (u128, u128) {
        let key = |white: u64, black: u64, ep: u64| {
            let ep = if ep == 0 {
                0
            } else {
                (ep.trailing_zeros() & 7) as u128 + 1
            };
            let black = (black >> 8) & k.black_mask;
            let white = (white >> k.white_shift) & k.white_mask;
            ((black as u128) << k.white_bits | white as u128) << 5
                | ep << 1
                | p.black_to_move as u128
        };
        let m = |x| mirror_ranks(x, k.mirror_shift);
        (
            key(p.white, p.black, p.ep),
            key(m(p.white), m(p.black), m(p.ep)),
        )
    }

    /// The rank codes of `p` and of its mirror image, with the en-passant file of each.
    #[inline]
    fn keys(&self, p: &Pos) -> (u128, u128) {
        let width = self.shape.width as u32;
        let (mut k, mut m) = (0u128, 0u128);
        for r in 0..self.shape.height as u32 {
            let w = (p.white >> (8 * r)) as u8;
            let b = (p.black >> (8 * r)) as u8;
            k = k << self.rank_bits | ternary(w, b);
            m = m << self.rank_bits | ternary(self.mirror[w as usize], self.mirror[b as usize]);
        }
        let (ep, ep_m) = if p.ep == 0 {
            (0, 0)
        } else {
            let f = p.ep.trailing_zeros() & 7;
            (f + 1, width - f)
        };
        let state = |e: u32| (e as u128) << 1 | p.black_to_move as u128;
        (k << 5 | state(ep), m << 5 | state(ep_m))
    }
}

impl Acyclic for PawnSolver {
    type Pos = Pos;

    #[inline]
    fn expand(&self, p: &Pos, out: &mut Children<Pos>) -> Option<i8> {
        let shape = &self.shape;
        if let Some(leaf) = shape.decided(p) {
            let white = match leaf {
                Leaf::WhiteWon => 1,
                Leaf::BlackWon => -1,
                Leaf::Drawn => 0,
            };
            return Some(if p.black_to_move { -white } else { white });
        }
        if shape.wins_at_once(p) {
            return Some(1);
        }
        if shape.loses_next(p) {
            return Some(-1);
        }
        if shape.race_won(p) {
            return Some(1);
        }
        if let Some(v) = shape.settled(p) {
            return Some(v);
        }
        let white = !p.black_to_move;
        let (c, last) = if white {
            (0, shape.height as u32 - 1)
        } else {
            (1, 0)
        };
        // Parent's enemy pawns serve for the squares they take and block: a captured pawn
        // neither attacks nor blocks the square it is taken on.
        let theirs_now = if white { p.black } else { p.white };
        let attacked = shape.attacks(theirs_now, !white);
        let blocking = if white {
            theirs_now >> 8
        } else {
            theirs_now << 8
        };
        shape.for_each_move(p, |from, to, child| {
            debug_assert!(shape.decided(&child).is_none(), "wins_at_once missed it");
            let theirs = if white { child.black } else { child.white };
            let at = 1u64 << to;
            let o = Order {
                capture: from % 8 != to % 8,
                passed: self.front[c][to as usize] & theirs == 0,
                to_go: (to / 8).abs_diff(last),
                blocks: blocking & at != 0,
                attacked: attacked & at != 0,
                double: from.abs_diff(to) == 16,
            };
            out.push((o.score(from, to), child));
        });
        if out.is_empty() {
            return Some(0);
        }
        None
    }

    #[inline]
    fn key(&self, p: &Pos) -> u128 {
        let (k, m) = match self.packed {
            Some(packed) => self.packed_keys(packed, p),
            None => self.keys(p),
        };
        k.min(m) | 1 << 109
    }
}

/// What the move order looks at in a move (the likely winner first; for a side that only
/// holds, the blocking and the safe moves first).
struct Order {
    capture: bool,
    /// No enemy pawn ahead of it on its file or the files beside it, after the move.
    passed: bool,
    /// Ranks still to go to its goal.
    to_go: u32,
    /// Ends straight in front of an enemy pawn.
    blocks: bool,
    /// Ends where an enemy pawn can take it.
    attacked: bool,
    double: bool,
}

impl Order {
    /// The weights: set by the nodes of root-only solves of the pawn game 7×7 (with and
    /// without en passant) and the seed's 6×6 (en passant, double step); docs/solved.md,
    /// "Move order". Ties: the move from the lower square first (a consistent choice makes
    /// lines transpose into each other more often).
    fn score(&self, from: u32, to: u32) -> i32 {
        let s = 150 * self.capture as i32 + 200 * self.passed as i32 - 12 * self.to_go as i32
            + 15 * self.blocks as i32
            - 30 * self.attacked as i32
            + 20 * self.double as i32;
        s * 4096 + (4095 - (from * 64 + to) as i32)
    }
}

impl Packed {
    /// The layout for `shape`, if White's and Black's pawns of a position still open fit in
    /// 104 bits (every board but the seed's 8×8 rules).
    fn of(shape: &Shape) -> Option<Packed> {
        let (w, h) = (shape.width as u32, shape.height as u32);
        let white_low = shape.rules.start_rank(true, shape.height) as u32;
        let black_high = shape.rules.start_rank(false, shape.height) as u32;
        // White stands on ranks white_low ..= h − 2, Black on 1 ..= black_high.
        let white_bits = 8 * (h - 2 - white_low) + w;
        let black_bits = 8 * (black_high - 1) + w;
        (white_bits + black_bits + 5 <= 109).then_some(Packed {
            white_shift: 8 * white_low,
            white_bits,
            white_mask: (1 << white_bits) - 1,
            black_mask: (1 << black_bits) - 1,
            mirror_shift: 8 - w,
        })
    }
}

/// Solves a pawn-chess position with the acyclic solver ([`wdl::solve_game`]).
pub fn solve(
    root: &Pawns,
    options: &wdl::Options,
    stop: &AtomicBool,
) -> Result<wdl::Solution, crate::solve::SolveError> {
    let solver = PawnSolver::new(Shape::of(root));
    wdl::solve_game(root, &solver, &Pos::of, options, stop)
}
