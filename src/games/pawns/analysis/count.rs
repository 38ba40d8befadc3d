//! Exact statistics of the unfolded game tree (docs/rules.md §6) without unfolding it.
//!
//! Every move makes progress: a pawn steps forward or a pawn leaves the board. So the
//! potential `φ = Σ advancement + H · (pawns missing)` grows with every ply, and sweeping the
//! unique positions in order of φ visits every position after all of its parents. The sweep
//! carries, for each position, the number of paths from the root (its copies in the unfolded
//! tree) and the longest such path: the tree's node count is the sum of the path counts, its
//! leaves by outcome the sums over terminal positions. Only the layers a move can still reach
//! (φ+1 … φ+H+1) are held, each in its own hash table. From a root that is its own mirror
//! image, a position and its mirror image share one entry (they have the same paths and the
//! same future), which halves the work.
//!
//! The game-theoretic values come from [`super::solve`]. Depends on [`super::board`] and
//! [`super::table`].

use super::board::{Children, Leaf, Pos, Shape};
use super::table::{Table, TableKey, Wide};

/// What the sweep found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeCounts {
    /// Distinct positions, terminal ones included.
    pub unique_positions: u64,
    /// Nodes of the unfolded tree.
    pub tree_nodes: u128,
    /// Leaves won by White, won by Black, drawn.
    pub white_wins: u128,
    pub black_wins: u128,
    pub draws: u128,
    /// Longest game in plies.
    pub max_depth: u32,
    /// Most legal moves in any position.
    pub max_branching: usize,
}

/// Per position: paths from the root (as two 64-bit halves, to keep the slot at 32 bytes),
/// longest path from the root.
#[derive(Clone, Copy, Default)]
struct Paths {
    count: [u64; 2],
    longest: u32,
}

impl Paths {
    #[inline]
    fn count(&self) -> u128 {
        self.count[0] as u128 | (self.count[1] as u128) << 64
    }

    #[inline]
    fn add(&mut self, n: u128) {
        let sum = self.count() + n;
        self.count = [sum as u64, (sum >> 64) as u64];
    }
}

/// The potential of a position: grows by at least one with every move.
#[inline]
fn potential(shape: &Shape, p: &Pos) -> usize {
    let h = shape.height as u32;
    let mut phi = 0u32;
    let mut w = p.white;
    while w != 0 {
        phi += w.trailing_zeros() / 8;
        w &= w - 1;
    }
    let mut b = p.black;
    while b != 0 {
        phi += h - 1 - b.trailing_zeros() / 8;
        b &= b - 1;
    }
    let missing = 32 - (p.white.count_ones() + p.black.count_ones());
    (phi + h * missing) as usize
}

/// What [`count_tree`]'s progress callback hears after each layer: the counts over the
/// positions swept so far (lower bounds of the final counts) and the fraction of the potential
/// range swept, a rough estimate (the last layer is known only at the end, and the middle
/// layers are the biggest).
pub type CountProgress<'a> = &'a mut dyn FnMut(&TreeCounts, f64);

/// Sweeps the whole game graph from `root`. `progress` hears the counts so far after each
/// layer. Gives up with `Err(max_open)` if the layers held at one time grow past `max_open`
/// positions.
pub fn count_tree(
    shape: Shape,
    root: &Pos,
    max_open: u64,
    progress: Option<CountProgress>,
) -> Result<TreeCounts, u64> {
    if shape.key_fits_u64() {
        sweep::<u64>(shape, root, max_open, progress)
    } else {
        sweep::<Wide>(shape, root, max_open, progress)
    }
}

fn sweep<K: TableKey>(
    shape: Shape,
    root: &Pos,
    max_open: u64,
    mut progress: Option<CountProgress>,
) -> Result<TreeCounts, u64> {
    let mut layers: Vec<Option<Table<K, Paths>>> = Vec::new();
    let mut out = TreeCounts::default();
    let start = potential(&shape, root);
    layers.resize_with(start + 1, || None);
    let mut first = Table::new(1);
    first.insert(
        K::from_u128(shape.key(root)),
        Paths {
            count: [1, 0],
            longest: 0,
        },
    );
    layers[start] = Some(first);
    // A root equal to its mirror image makes every position and its mirror equivalent: they
    // have the same number of paths from the root and the same future. Then one entry stands
    // for both (under the smaller key), counted twice unless it is its own mirror image.
    let sym = shape.key(&shape.mirror(root)) == shape.key(root);
    let mut children = Children::new();
    let mut targets = [(0usize, K::EMPTY, 0u128); super::board::MAX_CHILDREN];
    let mut phi = start;
    while phi < layers.len() {
        let Some(layer) = layers[phi].take() else {
            phi += 1;
            continue;
        };
        for (key, paths) in layer.iter() {
            let key = key.to_u128();
            let p = shape.unkey(key);
            let count = paths.count();
            let self_mirror = sym && shape.key(&shape.mirror(&p)) == key;
            let copies = if sym && !self_mirror { 2 } else { 1 };
            out.unique_positions += copies as u64;
            out.tree_nodes += count * copies;
            shape.children(&p, &mut children);
            if children.is_empty() {
                out.max_depth = out.max_depth.max(paths.longest);
                match shape.leaf(&p) {
                    Leaf::WhiteWon => out.white_wins += count * copies,
                    Leaf::BlackWon => out.black_wins += count * copies,
                    Leaf::Drawn => out.draws += count * copies,
                }
                continue;
            }
            out.max_branching = out.max_branching.max(children.len());
            // Find every child's table and slot first, so the cache misses overlap.
            let mut n = 0;
            for c in &children {
                let (ck, add) = if sym {
                    let (k, m) = (shape.key(c), shape.key(&shape.mirror(c)));
                    if self_mirror {
                        // Children come in mirror pairs: each entry gets the edge into itself.
                        if k > m {
                            continue;
                        }
                        (k, count)
                    } else if k == m {
                        // Reached from this position and from its mirror image.
                        (k, 2 * count)
                    } else {
                        (k.min(m), count)
                    }
                } else {
                    (shape.key(c), count)
                };
                let cphi = potential(&shape, c);
                if cphi >= layers.len() {
                    layers.resize_with(cphi + 1, || None);
                }
                let table = layers[cphi].get_or_insert_with(|| Table::new(layer.len() as usize));
                let ck = K::from_u128(ck);
                table.prefetch(ck);
                targets[n] = (cphi, ck, add);
                n += 1;
            }
            for &(cphi, ck, add) in &targets[..n] {
                let table = layers[cphi].as_mut().expect("table made above");
                let entry = table.entry(ck);
                entry.add(add);
                entry.longest = entry.longest.max(paths.longest + 1);
            }
        }
        if let Some(report) = progress.as_mut() {
            // No potential exceeds that of a board without pawns, 32·H: the fraction of the
            // layers up to there is a low estimate of the progress.
            let last = (32 * shape.height as usize).max(layers.len());
            let swept = (phi + 1 - start) as f64 / (last - start) as f64;
            report(&out, swept.min(1.0));
        }
        let open: u64 = layers.iter().flatten().map(Table::len).sum();
        if open > max_open {
            return Err(max_open);
        }
        phi += 1;
    }
    Ok(out)
}
