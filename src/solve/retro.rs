//! Retrograde analysis of one slice of a game's positions, given by its forward moves: the
//! exact value of every position and the plies to the game's end (the winner hurrying, the
//! loser holding out), for endgame tables built from a move generator alone, without
//! un-moves.
//!
//! A slice is a numbered set of positions ([`Slice`]); each position's moves lead either to a
//! position of the slice or out of it, to a position whose value is known already (a smaller
//! table, an end of the game). The analysis expands every position once (on several threads),
//! turns the moves inside the slice round into predecessor lists, and then decides positions
//! in order of their distance to the end, with a bucket per distance: a position lost in d
//! plies makes its predecessors won in d + 1; a position whose moves all reach won positions
//! (and whose moves out of the slice are no better) is lost in one more than the longest of
//! them. What is never decided is a draw: its game can go on for ever.
//!
//! Values are `d + 1` for a win in d plies, `-(d + 1)` for a loss in d plies and 0 for a
//! draw (or no position), as [`parent`] and [`better`] read them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where one move of a position leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// To the position with this number of the same slice.
    Inside(u32),
    /// Out of the slice, to a position of this value (for its side to move).
    Outside(i16),
}

/// What a position number stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// No position (an impossible placement, or one counted under another number).
    Absent,
    /// A position whose value is known without its moves (the game is over: a win with no
    /// move, a dead draw).
    Decided(i16),
    /// A position whose value follows from its moves, written to the list handed in.
    Moves,
}

/// A numbered set of positions and their moves.
pub trait Slice: Sync {
    /// How many numbers there are.
    fn size(&self) -> usize;
    /// Position `index`: what it is, and where its moves lead (pushed onto `children`, empty
    /// when called).
    fn expand(&self, index: usize, children: &mut Vec<Child>) -> Node;
}

/// The value of a position for its side to move reached through a move to a position of
/// value `child` (for the side to move there): one ply further from the end, the other way
/// round.
#[inline]
pub fn parent(child: i16) -> i16 {
    match child {
        0 => 0,
        c if c > 0 => -(c + 1),
        c => 1 - c,
    }
}

/// Whether value `a` is better than `b` for the side to move: a faster win, a draw before a
/// loss, a slower loss.
#[inline]
pub fn better(a: i16, b: i16) -> bool {
    rank(a) > rank(b)
}

/// Values ordered from the worst (the fastest loss) to the best (the fastest win).
#[inline]
fn rank(v: i16) -> i32 {
    match v {
        0 => 0,
        v if v > 0 => i32::from(i16::MAX) - i32::from(v),
        v => -(i32::from(i16::MAX) + i32::from(v)),
    }
}

/// The plies to the end of a decided value.
#[inline]
fn plies(v: i16) -> usize {
    usize::from(v.unsigned_abs()) - 1
}

/// No move out of the slice yet.
const NO_EXIT: i16 = i16::MIN;

/// What the expansion learned of the positions, one entry each.
struct Expanded {
    /// The value decided at once, or the best of the moves out of the slice ([`NO_EXIT`]).
    exit: Vec<i16>,
    /// Whether `exit` is the position's final value (decided without its moves).
    decided: Vec<bool>,
    /// The moves inside the slice not yet known to lose for the mover.
    open: Vec<u16>,
    /// The predecessor lists: `from[start[j]..start[j + 1]]` are the positions with a move
    /// to `j` (once per move).
    start: Vec<u32>,
    from: Vec<u32>,
}

/// The values of every position of `slice`, expanded on `threads` threads.
pub fn solve<S: Slice>(slice: &S, threads: usize) -> Vec<i16> {
    let ex = expand_all(slice, threads.max(1));
    decide(&ex)
}

/// Expands every position, in blocks handed out to the threads in turn; the moves inside the
/// slice become predecessor lists.
fn expand_all<S: Slice>(slice: &S, threads: usize) -> Expanded {
    const BLOCK: usize = 4096;
    let n = slice.size();
    let mut exit = vec![NO_EXIT; n];
    let mut decided = vec![false; n];
    let mut open = vec![0u16; n];
    let next = AtomicUsize::new(0);
    let edges: Mutex<Vec<Vec<(u32, u32)>>> = Mutex::new(Vec::new());
    let results: Mutex<Vec<Block>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut children = Vec::new();
                let mut mine = Vec::new();
                loop {
                    let first = next.fetch_add(BLOCK, Ordering::Relaxed);
                    if first >= n {
                        break;
                    }
                    let last = (first + BLOCK).min(n);
                    let block = (first..last)
                        .map(|i| expand_one(slice, i, &mut children, &mut mine))
                        .collect();
                    results.lock().expect("no panic").push((first, block));
                }
                edges.lock().expect("no panic").push(mine);
            });
        }
    });
    for (first, block) in results.into_inner().expect("no panic") {
        for (k, (e, d, o)) in block.into_iter().enumerate() {
            (exit[first + k], decided[first + k], open[first + k]) = (e, d, o);
        }
    }
    let (start, from) = predecessors(n, edges.into_inner().expect("no panic"));
    Expanded {
        exit,
        decided,
        open,
        start,
        from,
    }
}

/// Position `i`: its decided value or best move out, whether it is decided, and the number
/// of its moves inside the slice, whose (target, `i`) pairs go to `edges`.
fn expand_one<S: Slice>(
    slice: &S,
    i: usize,
    children: &mut Vec<Child>,
    edges: &mut Vec<(u32, u32)>,
) -> (i16, bool, u16) {
    children.clear();
    match slice.expand(i, children) {
        Node::Absent => (0, true, 0),
        Node::Decided(v) => (v, true, 0),
        Node::Moves => {
            let (mut exit, mut open) = (NO_EXIT, 0u16);
            for &c in children.iter() {
                match c {
                    Child::Inside(j) => {
                        edges.push((j, i as u32));
                        open += 1;
                    }
                    Child::Outside(v) => {
                        let v = parent(v);
                        if exit == NO_EXIT || better(v, exit) {
                            exit = v;
                        }
                    }
                }
            }
            (exit, false, open)
        }
    }
}

/// The predecessor lists of the (target, source) pairs, by counting sort.
fn predecessors(n: usize, edges: Vec<Vec<(u32, u32)>>) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for &(j, _) in edges.iter().flatten() {
        start[j as usize + 1] += 1;
    }
    for j in 0..n {
        start[j + 1] += start[j];
    }
    let mut fill = start.clone();
    let mut from = vec![0u32; start[n] as usize];
    for (j, i) in edges.into_iter().flatten() {
        from[fill[j as usize] as usize] = i;
        fill[j as usize] += 1;
    }
    (start, from)
}

/// A block of expanded positions: its first number and, for each, what [`expand_one`] says.
type Block = (usize, Vec<(i16, bool, u16)>);

/// Decides the positions distance by distance from the end; the rest are draws.
fn decide(ex: &Expanded) -> Vec<i16> {
    let n = ex.exit.len();
    let mut value = vec![0i16; n];
    let mut done = ex.decided.clone();
    let mut open = ex.open.clone();
    let mut buckets: Vec<Vec<(u32, i16)>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<(u32, i16)>>, i: usize, v: i16| {
        let d = plies(v);
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((i as u32, v));
    };
    for i in 0..n {
        let e = ex.exit[i];
        if ex.decided[i] {
            value[i] = e;
            if e != 0 {
                done[i] = false; // decided, but its predecessors learn of it in its bucket
                push(&mut buckets, i, e);
            }
        } else if open[i] == 0 || (e != NO_EXIT && e > 0) {
            // All moves lead out (its value is the best of them), or a win out of the slice
            // (a win inside may still be faster).
            match e {
                0 if open[i] == 0 => done[i] = true,
                e if e != 0 && e != NO_EXIT => push(&mut buckets, i, e),
                _ => {}
            }
        }
    }
    let mut d = 0;
    while d < buckets.len() {
        let bucket = std::mem::take(&mut buckets[d]);
        for (i, v) in bucket {
            let i = i as usize;
            if done[i] {
                continue;
            }
            done[i] = true;
            value[i] = v;
            let preds = &ex.from[ex.start[i] as usize..ex.start[i + 1] as usize];
            for &p in preds {
                let p = p as usize;
                if done[p] {
                    continue;
                }
                if v < 0 {
                    push(&mut buckets, p, parent(v));
                    continue;
                }
                open[p] -= 1;
                if open[p] == 0 {
                    // Every move inside loses, the longest in d + 1 plies: the best move out
                    // decides if it is better.
                    let lost = parent(v);
                    match ex.exit[p] {
                        NO_EXIT => push(&mut buckets, p, lost),
                        e if better(e, lost) && e <= 0 => {
                            if e == 0 {
                                done[p] = true;
                            } else {
                                push(&mut buckets, p, e);
                            }
                        }
                        e if e <= 0 => push(&mut buckets, p, lost),
                        _ => {} // a win out of the slice, already in its bucket
                    }
                }
            }
        }
        d += 1;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subtraction game on a chain of positions, checked against plain recursion: from `i`
    /// a move to `i - 1` or `i - 2` (inside, skipping the absent number), position 0 has no
    /// move (its mover wins), and position 1 also has a move out of the slice.
    struct Chain {
        n: usize,
        absent: usize,
    }

    impl Slice for Chain {
        fn size(&self) -> usize {
            self.n
        }
        fn expand(&self, i: usize, children: &mut Vec<Child>) -> Node {
            if i == self.absent {
                return Node::Absent;
            }
            if i == 0 {
                return Node::Decided(1);
            }
            for k in 1..=2 {
                if i >= k && i - k != self.absent {
                    children.push(Child::Inside((i - k) as u32));
                }
            }
            if i == 1 {
                // A move out to a position won for its mover in 3 plies: a slower loss than
                // the move to 0 (won at once for its mover), so the better move.
                children.push(Child::Outside(4));
            }
            Node::Moves
        }
    }

    /// The same values by plain recursion (no cycles in the chain).
    fn by_recursion(c: &Chain, i: usize) -> i16 {
        let mut kids = Vec::new();
        match c.expand(i, &mut kids) {
            Node::Absent => 0,
            Node::Decided(v) => v,
            Node::Moves => kids
                .iter()
                .map(|&k| match k {
                    Child::Inside(j) => parent(by_recursion(c, j as usize)),
                    Child::Outside(v) => parent(v),
                })
                .fold(None, |b: Option<i16>, v| match b {
                    Some(b) if !better(v, b) => Some(b),
                    _ => Some(v),
                })
                .unwrap_or(0),
        }
    }

    #[test]
    fn a_chain_is_solved_as_recursion_solves_it() {
        for absent in [usize::MAX, 4, 7] {
            let c = Chain { n: 20, absent };
            let solved = solve(&c, 2);
            for (i, &v) in solved.iter().enumerate() {
                assert_eq!(v, by_recursion(&c, i), "position {i}, absent {absent}");
            }
        }
    }

    /// Two positions moving to each other, one of them also out to a loss: a draw by the
    /// cycle, and a win through the move out when the position out loses.
    struct Cycle(i16);

    impl Slice for Cycle {
        fn size(&self) -> usize {
            2
        }
        fn expand(&self, i: usize, children: &mut Vec<Child>) -> Node {
            children.push(Child::Inside(1 - i as u32));
            if i == 0 {
                children.push(Child::Outside(self.0));
            }
            Node::Moves
        }
    }

    #[test]
    fn a_cycle_draws_unless_a_move_out_wins() {
        // Out to a position won for its mover: both draw by going round.
        assert_eq!(solve(&Cycle(3), 1), vec![0, 0]);
        // Out to a position lost in 2: 0 wins in 3, and 1, whose only move reaches 0, loses
        // in 4.
        assert_eq!(solve(&Cycle(-3), 1), vec![4, -5]);
    }

    #[test]
    fn values_are_ordered_and_turned_round_one_ply_at_a_time() {
        assert!(better(1, 5) && better(5, 0) && better(0, -9) && better(-9, -2));
        assert_eq!(parent(1), -2);
        assert_eq!(parent(-1), 2);
        assert_eq!(parent(0), 0);
    }
}
