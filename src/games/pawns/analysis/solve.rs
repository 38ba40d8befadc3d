//! Solving pawn-chess positions: the game-theoretic value, and the distance to the end.
//!
//! - [`Solver`]: the win/draw/loss value by alpha-beta over the three values with a
//!   transposition table of exact keys holding proven bounds. Pawns never move back, so the
//!   graph is acyclic and every stored bound is a proof; the search needs no depth limit and
//!   scales past full enumeration because cut-offs skip most of the graph.
//! - [`distances`]: the exact distance with best play (the winner hurries, the loser delays)
//!   by a memoised walk over every position reachable from the root, within a budget.
//!
//! Depends on [`super::board`] and [`super::table`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::board::{Leaf, MAX_CHILDREN, Pos, Shape};
use super::table::{Table, TableKey, Wide};

/// Bounds on a value, packed: `(lower + 1) | (upper + 1) << 2`, and in the high four bits
/// the size of the search that proved them (log₂ of its nodes, halved), which decides what a
/// full table forgets first.
type Bounds = u8;

/// Why a solve gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abort {
    /// The deadline passed (or the solve was told to stop).
    Time,
    /// The table reached its size limit.
    Memory,
}

/// Limits of one solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget<'a> {
    pub deadline: Option<Instant>,
    /// Give up (as if out of time) soon after this flag is set: a search's `stop`.
    pub stop: Option<&'a AtomicBool>,
    /// Most positions the table may hold.
    pub max_positions: Option<u64>,
    /// When the table is full, go on with it as a cache that forgets the cheapest proofs
    /// (slower, but the result stays exact) instead of giving up.
    pub forget_when_full: bool,
}

impl Budget<'_> {
    /// Whether the deadline has passed or the stop flag is set.
    fn out_of_time(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Alpha-beta over win/draw/loss with an exact-key transposition table.
pub struct Solver<'a, K> {
    shape: Shape,
    tt: Table<K, Bounds>,
    budget: Budget<'a>,
    aborted: Option<Abort>,
    /// The table reached its limit and is now a cache.
    full: bool,
    /// Positions searched (interior nodes visited).
    pub nodes: u64,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
    next_report: u64,
}

/// The value of `p` for the side to move if it is over: -1 lost, 1 won (only from a FEN), 0 if
/// blocked; `None` while there are moves.
#[inline]
fn result_of(shape: &Shape, p: &Pos) -> i8 {
    let white = match shape.leaf(p) {
        Leaf::WhiteWon => 1,
        Leaf::BlackWon => -1,
        Leaf::Drawn => 0,
    };
    if p.black_to_move { -white } else { white }
}

impl<'a, K: TableKey> Solver<'a, K> {
    /// A solver whose table starts with room for `capacity` positions.
    pub fn new(shape: Shape, capacity: usize, budget: Budget<'a>) -> Solver<'a, K> {
        Solver {
            shape,
            tt: Table::new(capacity),
            budget,
            aborted: None,
            full: false,
            nodes: 0,
            progress: None,
            next_report: 1 << 22,
        }
    }

    /// Reports `(nodes, table entries)` every 4M nodes.
    pub fn on_progress(&mut self, f: Box<dyn FnMut(u64, u64)>) {
        self.progress = Some(f);
    }

    /// Positions in the table.
    pub fn table_len(&self) -> u64 {
        self.tt.len()
    }

    /// The value of `p` for the side to move (1 win, 0 draw, -1 loss), or why it gave up.
    pub fn value(&mut self, p: &Pos) -> Result<i8, Abort> {
        let v = self.search(p, -1, 1);
        match self.aborted {
            Some(a) => Err(a),
            None => Ok(v),
        }
    }

    /// Whether the side to move in `p` can reach at least `v`.
    pub fn at_least(&mut self, p: &Pos, v: i8) -> Result<bool, Abort> {
        let r = self.search(p, v - 1, v);
        match self.aborted {
            Some(a) => Err(a),
            None => Ok(r >= v),
        }
    }

    fn check_budget(&mut self) {
        if let Some(report) = self.progress.as_mut()
            && self.nodes >= self.next_report
        {
            report(self.nodes, self.tt.len());
            self.next_report += 1 << 22;
        }
        if self.nodes & 0xfff == 0 && self.budget.out_of_time() {
            self.aborted = Some(Abort::Time);
        }
        if let Some(m) = self.budget.max_positions
            && self.tt.len() >= m
            && !self.full
        {
            if self.budget.forget_when_full {
                self.full = true;
                log::info!("solver table full at {m} positions: it now forgets");
            } else {
                self.aborted = Some(Abort::Memory);
            }
        }
    }

    /// Fail-soft alpha-beta on values in -1..=1 for the side to move.
    fn search(&mut self, p: &Pos, mut alpha: i8, mut beta: i8) -> i8 {
        if self.shape.decided(p).is_some() {
            return result_of(&self.shape, p);
        }
        // Children with an ordering score; an immediate arrival wins at once.
        let mut kids = [(0i32, Pos::default()); MAX_CHILDREN];
        let mut n = 0;
        let mut wins_now = false;
        let shape = self.shape;
        let mover_white = !p.black_to_move;
        shape.for_each_move(p, |from, to, c| {
            let (to_rank, from_rank) = (to / 8, from / 8);
            let progress = if mover_white {
                to_rank as i32
            } else {
                shape.height as i32 - 1 - to_rank as i32
            };
            if progress == shape.height as i32 - 1 {
                wins_now = true;
            }
            let capture = (from % 8) != (to % 8);
            let double = from_rank.abs_diff(to_rank) == 2;
            let score = progress * 4 + if capture { 64 } else { 0 } - if double { 2 } else { 0 };
            kids[n] = (score, c);
            n += 1;
        });
        if wins_now {
            return 1;
        }
        if n == 0 {
            return 0;
        }
        self.nodes += 1;
        let nodes_before = self.nodes;
        self.check_budget();
        if self.aborted.is_some() {
            return 0;
        }
        let key = K::from_u128(self.shape.symmetric_key(p));
        if let Some(b) = self.tt.get(key) {
            let (lo, hi) = ((b & 3) as i8 - 1, (b >> 2 & 3) as i8 - 1);
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let (alpha0, beta0) = (alpha, beta);
        let kids = &mut kids[..n];
        kids.sort_unstable_by_key(|k| -k.0);
        let mut child_keys = [K::EMPTY; MAX_CHILDREN];
        for ((_, c), k) in kids.iter().zip(child_keys.iter_mut()) {
            *k = K::from_u128(self.shape.symmetric_key(c));
            self.tt.prefetch(*k);
        }
        // Enhanced transposition cut-off: a child already proven good enough ends the search.
        for k in &child_keys[..n] {
            if let Some(b) = self.tt.get(*k) {
                let child_hi = (b >> 2 & 3) as i8 - 1;
                if -child_hi >= beta {
                    return -child_hi;
                }
            }
        }
        let mut best = -1;
        for (_, c) in kids.iter() {
            let v = -self.search(c, -beta, -alpha);
            if self.aborted.is_some() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Merge with what was known: fail-low gives an upper bound, fail-high a lower one.
        let (mut lo, mut hi) = (-1i8, 1i8);
        if let Some(b) = self.tt.get(key) {
            lo = (b & 3) as i8 - 1;
            hi = (b >> 2 & 3) as i8 - 1;
        }
        if best <= alpha0 {
            hi = hi.min(best);
        } else if best >= beta0 {
            lo = lo.max(best);
        } else {
            lo = best;
            hi = best;
        }
        let work = ((64 - (self.nodes - nodes_before).leading_zeros()) / 2).min(15) as u8;
        let entry = (lo + 1) as u8 | ((hi + 1) as u8) << 2 | work << 4;
        if self.full {
            self.tt.insert_lossy(key, entry, |b| b >> 4);
        } else {
            self.tt.insert(key, entry);
        }
        best
    }
}

/// The value for White of `root` and of each of its successors (in move-generation order),
/// with the number of positions searched.
pub fn solve_root(
    shape: Shape,
    root: &Pos,
    budget: Budget<'_>,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
) -> Result<(i8, Vec<i8>, u64), Abort> {
    solve_root_reporting(shape, root, budget, progress, &mut |_, _| {})
}

/// [`solve_root`] that tells `on_value(k, v)` each value as soon as it is proven: `k = 0` for
/// the root, `k = i + 1` for the i-th first move.
pub fn solve_root_reporting(
    shape: Shape,
    root: &Pos,
    budget: Budget,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
    on_value: &mut dyn FnMut(usize, i8),
) -> Result<(i8, Vec<i8>, u64), Abort> {
    if shape.key_fits_u64() {
        solve_root_with::<u64>(shape, root, budget, progress, on_value)
    } else {
        solve_root_with::<Wide>(shape, root, budget, progress, on_value)
    }
}

fn solve_root_with<K: TableKey>(
    shape: Shape,
    root: &Pos,
    budget: Budget<'_>,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
    on_value: &mut dyn FnMut(usize, i8),
) -> Result<(i8, Vec<i8>, u64), Abort> {
    let mut s = Solver::<K>::new(shape, 1 << 12, budget);
    if let Some(f) = progress {
        s.on_progress(f);
    }
    let white = |p: &Pos, v: i8| if p.black_to_move { -v } else { v };
    let value = white(root, s.value(root)?);
    on_value(0, value);
    let mut firsts = Vec::new();
    for (i, (_, c)) in shape.moves(root).iter().enumerate() {
        let v = white(c, s.value(c)?);
        on_value(i + 1, v);
        firsts.push(v);
    }
    Ok((value, firsts, s.nodes))
}

/// Scores with best play for the side to move: `WIN - n` for a win in n plies, `-(WIN - n)`
/// for a loss in n plies, 0 for a draw (the winner hurries, the loser delays).
pub const WIN: i32 = 1000;

/// The score of a parent whose child (the opponent to move) scores `s`.
#[inline]
pub fn parent_score(s: i32) -> i32 {
    match s.signum() {
        1 => -s + 1,
        -1 => -s - 1,
        _ => 0,
    }
}

/// Scores of the root and of every root move (in generation order, each seen from the
/// root's side to move) by a memoised walk over all reachable positions, or why the budget
/// ran out.
pub fn distances(shape: Shape, root: &Pos, budget: Budget<'_>) -> Result<(i32, Vec<i32>), Abort> {
    if shape.key_fits_u64() {
        distances_with::<u64>(shape, root, budget)
    } else {
        distances_with::<Wide>(shape, root, budget)
    }
}

struct Dist<'a, K> {
    shape: Shape,
    memo: Table<K, i16>,
    budget: Budget<'a>,
    aborted: Option<Abort>,
    count: u64,
}

impl<K: TableKey> Dist<'_, K> {
    fn score(&mut self, p: &Pos) -> i32 {
        if self.shape.decided(p).is_some() {
            return result_of(&self.shape, p) as i32 * WIN;
        }
        let key = K::from_u128(self.shape.key(p));
        if let Some(s) = self.memo.get(key) {
            return s as i32;
        }
        self.count += 1;
        if self.count & 0xfff == 0 && self.budget.out_of_time() {
            self.aborted = Some(Abort::Time);
        }
        if let Some(m) = self.budget.max_positions
            && self.memo.len() >= m
        {
            self.aborted = Some(Abort::Memory);
        }
        if self.aborted.is_some() {
            return 0;
        }
        let mut kids = super::board::Children::new();
        self.shape.children(p, &mut kids);
        let mut best = if kids.is_empty() { 0 } else { -2 * WIN };
        for c in &kids {
            let s = parent_score(self.score(c));
            if self.aborted.is_some() {
                return 0;
            }
            best = best.max(s);
        }
        self.memo.insert(key, best as i16);
        best
    }
}

fn distances_with<K: TableKey>(
    shape: Shape,
    root: &Pos,
    budget: Budget<'_>,
) -> Result<(i32, Vec<i32>), Abort> {
    let mut d = Dist::<K> {
        shape,
        memo: Table::new(1 << 16),
        budget,
        aborted: None,
        count: 0,
    };
    let mut kids = Vec::new();
    for (_, c) in shape.moves(root) {
        let s = parent_score(d.score(&c));
        if let Some(a) = d.aborted {
            return Err(a);
        }
        kids.push(s);
    }
    let root_score = if shape.decided(root).is_some() {
        result_of(&shape, root) as i32 * WIN
    } else {
        kids.iter().copied().max().unwrap_or(0)
    };
    Ok((root_score, kids))
}
