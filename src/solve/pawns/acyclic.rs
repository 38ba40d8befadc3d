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
        }
    }

    pub fn shape(&self) -> &Shape {
        &self.shape
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
        let mut wins = false;
        let white = !p.black_to_move;
        let (c, last) = if white {
            (0, shape.height as u32 - 1)
        } else {
            (1, 0)
        };
        shape.for_each_move(p, |from, to, child| {
            if wins {
                return;
            }
            if shape.decided(&child).is_some() {
                wins = true;
                return;
            }
            let theirs = if white { child.black } else { child.white };
            let progress = (to / 8).abs_diff(last);
            let capture = from % 8 != to % 8;
            let passed = self.front[c][to as usize] & theirs == 0;
            let score = 100 * capture as i32 + 50 * passed as i32 - 8 * progress as i32;
            out.push((score, child));
        });
        if wins {
            return Some(1);
        }
        if out.is_empty() {
            return Some(0);
        }
        None
    }

    #[inline]
    fn key(&self, p: &Pos) -> u128 {
        let (k, m) = self.keys(p);
        k.min(m) | 1 << 109
    }
}

/// Solves a pawn-chess position with the acyclic solver ([`wdl::solve_game`]).
pub fn solve(root: &Pawns, options: &wdl::Options, stop: &AtomicBool) -> wdl::Solution {
    let solver = PawnSolver::new(Shape::of(root));
    wdl::solve_game(root, &solver, &Pos::of, options, stop)
}
