//! Exact statistics of the unfolded game tree (SPEC §6) without unfolding it: a depth-first
//! walk over the graph of unique positions, memoising each position's subtree summary.
//!
//! Depends on [`super::board`] and [`super::table`].

use super::board::{Children, Leaf, Pos, Shape};
use super::table::Table;

/// The summary of the game tree below one position (the position included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Subtree {
    /// Nodes of the unfolded tree.
    pub nodes: u128,
    /// Leaves won by White, won by Black, drawn.
    pub white_wins: u128,
    pub black_wins: u128,
    pub draws: u128,
    /// Longest game from here, in plies.
    pub depth: u32,
    /// Game-theoretic value for White: 1, 0, -1.
    pub value: i8,
}

/// What the whole walk found.
#[derive(Clone, Debug)]
pub struct Census {
    pub root: Subtree,
    pub unique_positions: u64,
    pub max_branching: usize,
    /// Value for White after each first move, in move-generation order.
    pub first_move_values: Vec<i8>,
}

/// The memo entry: numbers that fit in 64 bits are kept there; the rest go to an overflow list.
#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    nodes: u64,
    white_wins: u64,
    black_wins: u64,
    draws: u64,
    /// Longest game in plies (bits 0..8), value + 1 (bits 8..10), index into the overflow
    /// list + 1 (bits 10..64, 0: none).
    meta: u64,
}

struct Walker<'a> {
    shape: Shape,
    memo: Table<Entry>,
    overflow: Vec<Subtree>,
    max_branching: usize,
    progress: Option<&'a mut dyn FnMut(u64)>,
    next_report: u64,
}

impl Walker<'_> {
    fn store(&mut self, key: u128, s: &Subtree) {
        let small = u64::try_from(s.nodes).is_ok();
        let mut meta = s.depth as u64 | ((s.value + 1) as u64) << 8;
        let mut e = Entry::default();
        if small {
            e.nodes = s.nodes as u64;
            e.white_wins = s.white_wins as u64;
            e.black_wins = s.black_wins as u64;
            e.draws = s.draws as u64;
        } else {
            self.overflow.push(*s);
            meta |= (self.overflow.len() as u64) << 10;
        }
        e.meta = meta;
        self.memo.insert(key, e);
        if let Some(report) = self.progress.as_mut() {
            if self.memo.len() >= self.next_report {
                report(self.memo.len());
                self.next_report += 1 << 20;
            }
        }
    }

    fn load(&self, e: &Entry) -> Subtree {
        let over = e.meta >> 10;
        if over != 0 {
            return self.overflow[over as usize - 1];
        }
        Subtree {
            nodes: e.nodes as u128,
            white_wins: e.white_wins as u128,
            black_wins: e.black_wins as u128,
            draws: e.draws as u128,
            depth: (e.meta & 0xff) as u32,
            value: ((e.meta >> 8) & 3) as i8 - 1,
        }
    }

    fn walk(&mut self, p: &Pos) -> Subtree {
        let key = self.shape.key(p);
        if let Some(e) = self.memo.get(key) {
            return self.load(&e);
        }
        let mut children = Children::new();
        self.shape.children(p, &mut children);
        let s = if children.is_empty() {
            let mut s = Subtree {
                nodes: 1,
                ..Subtree::default()
            };
            match self.shape.leaf(p) {
                Leaf::WhiteWon => {
                    s.white_wins = 1;
                    s.value = 1;
                }
                Leaf::BlackWon => {
                    s.black_wins = 1;
                    s.value = -1;
                }
                Leaf::Drawn => s.draws = 1,
            }
            s
        } else {
            self.max_branching = self.max_branching.max(children.len());
            let mut s = Subtree {
                nodes: 1,
                value: if p.black_to_move { 1 } else { -1 },
                ..Subtree::default()
            };
            for c in &children {
                let t = self.walk(c);
                s.nodes += t.nodes;
                s.white_wins += t.white_wins;
                s.black_wins += t.black_wins;
                s.draws += t.draws;
                s.depth = s.depth.max(t.depth + 1);
                s.value = if p.black_to_move {
                    s.value.min(t.value)
                } else {
                    s.value.max(t.value)
                };
            }
            s
        };
        self.store(key, &s);
        s
    }
}

/// Walks the whole game graph from `root`. `capacity` is the expected number of unique
/// positions (the table grows if needed); `progress` hears the count every 2^20 positions.
pub fn census(
    shape: Shape,
    root: &Pos,
    capacity: usize,
    progress: Option<&mut dyn FnMut(u64)>,
) -> Census {
    let mut w = Walker {
        shape,
        memo: Table::new(capacity, !shape.key_fits_u64()),
        overflow: Vec::new(),
        max_branching: 0,
        progress,
        next_report: 1 << 20,
    };
    let mut children = Children::new();
    shape.children(root, &mut children);
    let first_move_values = children.iter().map(|c| w.walk(c).value).collect();
    let root_summary = w.walk(root);
    Census {
        root: root_summary,
        unique_positions: w.memo.len(),
        max_branching: w.max_branching,
        first_move_values,
    }
}
