//! The retrograde analysis of one signature without stored moves: the moves inside the
//! signature are counted in a forward pass and never kept; the predecessors of a decided
//! position are generated again by un-moves when it is decided.
//!
//! Inside a signature only quiet, non-promoting moves stay (a capture takes a piece off, a
//! promotion turns a pawn into a queen), so the predecessors of a position p with one side to
//! move are the positions q with the other side to move in which one of its pieces stands on a
//! square from which such a move reaches p: a knight or king one of its steps away on an
//! empty square, a bishop, rook or queen along its lines through empty squares, a pawn one
//! square behind (no double step, no en passant). Capture is compulsory, so the quiet move is
//! legal in q only when the side to move in q has no capture at all there: each q is tested.
//!
//! Per index the analysis keeps 3 bytes: the value (`i16`; while undecided, a state marked by
//! [`PENDING`]: a winning exit's distance, or a drawing exit and the longest losing exit) and
//! the moves inside the signature not yet known to lose (`u8`). The positions are decided
//! distance by distance: the pass for distance d goes over every index and takes those
//! decided at d; a position lost at d makes its predecessors won at d + 1, one won at d takes
//! a move off each predecessor's count, and a predecessor whose count reaches 0 (with no
//! drawing or winning exit) is lost at the larger of d + 1 and its longest losing exit.

use std::collections::HashMap;
use std::sync::Arc;

use super::super::movegen::{Bits, PAWN_K};
use super::super::position::EMPTY;
use super::{Table, Tables, counts_of, decode, key_of, locate, position, to_grid};
use crate::board::{MoveKind, MoveList};
use crate::game::Game;
use crate::games::losing::movegen::piece_attacks;
use crate::games::losing::{Board, Six};

/// The most pieces a signature may have (the squares of an index).
pub(super) const MAX_PIECES: usize = 5;

/// An undecided position's working value: at least `PENDING` (a decided one is at most
/// [`DIST`] in size either way, 0 a draw or no position).
const PENDING: i16 = 0x4000;
/// With [`PENDING`]: a move leaving the signature wins, in the plies of [`DIST`].
const WIN_EXIT: i16 = 0x2000;
/// With [`PENDING`] and without [`WIN_EXIT`]: a move leaving the signature draws.
const DRAW_EXIT: i16 = 0x1000;
/// The plies of a pending state: the winning exit's, else the longest losing exit's.
const DIST: i16 = 0x0fff;

/// The table square (0…35) of an 8×8-grid square.
#[inline]
fn to_table(sq: usize) -> usize {
    (sq / 8) * 6 + sq % 8
}

/// The retrograde analysis of signature `codes` (at most [`MAX_PIECES`]), every signature it
/// moves into among `tables`' own or in `exits`.
pub(super) fn analyse(tables: &Tables, codes: Vec<u8>, exits: &HashMap<u64, Arc<Table>>) -> Table {
    assert!(codes.len() <= MAX_PIECES, "at most {MAX_PIECES} pieces");
    let size = 2 * 36usize.pow(codes.len() as u32);
    let mut values = vec![0i16; size];
    let mut remaining = vec![0u8; size];
    let mut last = forward(tables, &codes, exits, &mut values, &mut remaining);
    let mut d = 0usize;
    while d <= last {
        let dist = (d + 1) as i16;
        for i in 0..size {
            let v = values[i];
            let won = if v == dist {
                true
            } else if v == -dist {
                false
            } else if v >= PENDING && v & WIN_EXIT != 0 && usize::from((v & DIST) as u16) == d {
                values[i] = dist;
                true
            } else {
                continue;
            };
            unmoves(&codes, i, |q, before| {
                let w = values[q];
                // Decided already (the test first: it is cheaper than the capture test).
                if w < PENDING || !quiet_move_legal(&before) {
                    return;
                }
                if !won {
                    values[q] = dist + 1;
                    last = last.max(d + 1);
                } else if w & WIN_EXIT == 0 {
                    remaining[q] -= 1;
                    if remaining[q] == 0 && w & DRAW_EXIT == 0 {
                        let plies = (d + 1).max(usize::from((w & DIST) as u16));
                        values[q] = -final_value(plies);
                        last = last.max(plies);
                    }
                }
            });
        }
        d += 1;
    }
    for v in &mut values {
        if *v >= PENDING {
            *v = 0;
        }
    }
    Table { codes, values }
}

/// The value `plies + 1`, checked to stay below the pending states.
fn final_value(plies: usize) -> i16 {
    assert!(plies < DIST as usize, "a distance of {plies} plies");
    plies as i16 + 1
}

/// `plies` as the distance of a pending state, checked to fit.
fn pending_plies(plies: usize) -> i16 {
    assert!(plies <= DIST as usize, "a distance of {plies} plies");
    plies as i16
}

/// The forward pass: every position of `codes` gets its value where its moves decide it
/// (none: won; only moves leaving the signature: their best), else its pending state, and
/// its count of moves inside the signature. Returns the largest distance set.
fn forward(
    tables: &Tables,
    codes: &[u8],
    exits: &HashMap<u64, Arc<Table>>,
    values: &mut [i16],
    remaining: &mut [u8],
) -> usize {
    let n = codes.len();
    let own = key_of(&counts_of(codes));
    let mut squares = [0usize; MAX_PIECES];
    let mut moves = MoveList::new();
    let mut last = 0;
    for i in 0..values.len() {
        let side = decode(i, n, &mut squares);
        let Some(pos) = position(codes, &squares[..n], side) else {
            continue;
        };
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            values[i] = 1;
            continue;
        }
        let (mut inside, mut best_win, mut max_loss, mut draw) = (0u8, usize::MAX, 0usize, false);
        for &mv in &moves {
            if mv.kind() != MoveKind::PromoteQueen && pos.board[mv.to().index()] == EMPTY {
                inside += 1;
                continue;
            }
            let (key, index) = locate(&pos.play(mv), n as u32).expect("no piece appears");
            debug_assert_ne!(key, own);
            let table = match tables.ids.get(&key) {
                Some(&id) => &tables.tables[id],
                None => exits.get(&key).expect("every exit is built first").as_ref(),
            };
            match table.values[index] {
                0 => draw = true,
                v if v > 0 => max_loss = max_loss.max(usize::from(v as u16)),
                v => best_win = best_win.min(usize::from((-v) as u16)),
            }
        }
        remaining[i] = inside;
        if best_win != usize::MAX {
            last = last.max(best_win);
            values[i] = if inside == 0 {
                final_value(best_win)
            } else {
                PENDING | WIN_EXIT | pending_plies(best_win)
            };
        } else if inside > 0 {
            let draw = if draw { DRAW_EXIT } else { 0 };
            values[i] = PENDING | draw | pending_plies(max_loss);
        } else if !draw {
            last = last.max(max_loss);
            values[i] = -final_value(max_loss);
        }
    }
    last
}

/// Whether the side to move in `before` (bitboards and the side's index) has no capture
/// there, so that its quiet moves are legal: capture is compulsory.
#[inline]
fn quiet_move_legal(&(ref bits, mover): &(Bits, usize)) -> bool {
    bits.attacks_by::<Six>(mover) & bits.colors[1 - mover] == 0
}

/// Calls `visit` with the index and the pieces (with the side to move) of every position
/// with the other side to move from which a quiet, non-promoting move of one piece reaches
/// position `index` of `codes`; the move is legal there, and the position a predecessor,
/// only where [`quiet_move_legal`] says so (a capture is compulsory), which the caller tests.
pub(super) fn unmoves(codes: &[u8], index: usize, mut visit: impl FnMut(usize, (Bits, usize))) {
    let n = codes.len();
    let mut squares = [0usize; MAX_PIECES];
    let mover = decode(index, n, &mut squares).flip().index();
    let mut bits = Bits::default();
    for (&code, &t) in codes.iter().zip(&squares[..n]) {
        let g = 1u64 << to_grid(t);
        bits.kinds[usize::from(code) % 6] |= g;
        bits.colors[usize::from(code) / 6] |= g;
    }
    let occ = bits.occupied();
    for j in 0..n {
        let code = usize::from(codes[j]);
        if code / 6 != mover {
            continue;
        }
        let (kind, t) = (code % 6, to_grid(squares[j]));
        let from = match kind {
            PAWN_K if mover == 0 && t >= 8 => 1u64 << (t - 8),
            PAWN_K if mover == 1 && t / 8 < 5 => 1u64 << (t + 8),
            PAWN_K => 0,
            kind => piece_attacks::<Six>(kind, t, occ),
        };
        let mut from = from & Six::SQUARES & !occ;
        while from != 0 {
            let f = from.trailing_zeros() as usize;
            from &= from - 1;
            let mut q = bits;
            let moved = (1u64 << t) | (1u64 << f);
            q.kinds[kind] ^= moved;
            q.colors[mover] ^= moved;
            visit(
                index_after(codes, &squares[..n], j, to_table(f), mover),
                (q, mover),
            );
        }
    }
}

/// The index of the position of `codes` on `squares` but piece `j` on `f`, with side `side`
/// to move (0 White); pieces of one code kept in ascending order.
fn index_after(codes: &[u8], squares: &[usize], j: usize, f: usize, side: usize) -> usize {
    let mut s = [0usize; MAX_PIECES];
    let n = squares.len();
    s[..n].copy_from_slice(squares);
    s[j] = f;
    let mut k = j;
    while k > 0 && codes[k - 1] == codes[k] && s[k - 1] > s[k] {
        s.swap(k - 1, k);
        k -= 1;
    }
    while k + 1 < n && codes[k + 1] == codes[k] && s[k + 1] < s[k] {
        s.swap(k, k + 1);
        k += 1;
    }
    s[..n].iter().rev().fold(0usize, |acc, &t| acc * 36 + t) * 2 + side
}

/// The predecessors of position `index` of `codes` inside its signature ([`unmoves`] where
/// the move is legal), ascending.
#[cfg(test)]
pub(super) fn predecessors(codes: &[u8], index: usize) -> Vec<usize> {
    let mut out = Vec::new();
    unmoves(codes, index, |q, before| {
        if quiet_move_legal(&before) {
            out.push(q);
        }
    });
    out.sort_unstable();
    out
}
