//! The position graph as Graphviz DOT (docs/rules.md §6): grey nodes in play, red White won, blue Black
//! won, green drawn; every edge is labelled with its move, and an edge into a position already
//! reached by another path is pink. The graph carries this legend as a table node.
//!
//! Depends on [`super::board`].

use std::collections::HashMap;
use std::fmt::Write as _;

use super::board::{Children, Leaf, Pos, Shape};
use crate::solve::SolveError;

/// The legend drawn with every graph: what the colours mean.
pub const LEGEND: [(&str, &str); 5] = [
    ("grey", "in play: the side to move has a move"),
    ("red", "White won: a white pawn reached the last rank"),
    ("blue", "Black won: a black pawn reached the first rank"),
    ("green", "drawn: the side to move has no move"),
    (
        "pink",
        "edge into a position already reached by another path",
    ),
];

/// More positions than this are refused: Graphviz cannot lay them out usefully.
pub const MAX_DOT_POSITIONS: usize = 100_000;

/// The DOT text of the graph from `root`, or an error if it has more than `limit` positions.
pub fn dot(shape: Shape, root: &Pos, limit: usize) -> Result<(String, usize), SolveError> {
    let mut ids: HashMap<u128, usize> = HashMap::new();
    let mut nodes = String::new();
    let mut edges = String::new();
    // Depth-first with an explicit stack of (position, id).
    let mut stack = vec![(*root, 0usize)];
    ids.insert(shape.key(root), 0);
    write_node(&mut nodes, &shape, root, 0);
    while let Some((p, id)) = stack.pop() {
        for (mv, c) in shape.moves(&p).iter().rev() {
            let key = shape.key(c);
            if let Some(&cid) = ids.get(&key) {
                let _ = writeln!(edges, "  n{id} -> n{cid} [label=\"{mv}\", color=pink];");
                continue;
            }
            let cid = ids.len();
            if cid >= limit {
                return Err(SolveError::TooLarge { limit });
            }
            ids.insert(key, cid);
            write_node(&mut nodes, &shape, c, cid);
            let _ = writeln!(edges, "  n{id} -> n{cid} [label=\"{mv}\"];");
            stack.push((*c, cid));
        }
    }
    let text = format!(
        "digraph pawns {{\n  node [shape=box, style=filled, fontname=\"monospace\"];\n  \
         edge [fontname=\"monospace\", fontsize=10];\n{}{nodes}{edges}}}\n",
        legend()
    );
    Ok((text, ids.len()))
}

/// The legend as one table node (its cells use `bgcolor`, so it adds no `fillcolor` node).
fn legend() -> String {
    let mut rows = String::new();
    for (colour, meaning) in LEGEND {
        let _ = write!(
            rows,
            "<tr><td bgcolor=\"{colour}\" width=\"24\"></td><td align=\"left\">{meaning}</td></tr>"
        );
    }
    format!(
        "  legend [shape=plaintext, style=\"\", label=<<table border=\"0\" cellborder=\"1\" \
         cellspacing=\"0\" cellpadding=\"4\"><tr><td colspan=\"2\"><b>legend</b></td></tr>\
         {rows}</table>>];\n"
    )
}

fn write_node(out: &mut String, shape: &Shape, p: &Pos, id: usize) {
    let mut label = String::new();
    for rank in (0..shape.height).rev() {
        for file in 0..shape.width {
            let bit = 1u64 << (rank * 8 + file);
            label.push(if p.white & bit != 0 {
                'P'
            } else if p.black & bit != 0 {
                'p'
            } else {
                '.'
            });
        }
        label.push_str("\\n");
    }
    label.push(if p.black_to_move { 'b' } else { 'w' });
    let mut moves = Children::new();
    shape.children(p, &mut moves);
    let color = if !moves.is_empty() {
        "grey"
    } else {
        match shape.leaf(p) {
            Leaf::WhiteWon => "red",
            Leaf::BlackWon => "blue",
            Leaf::Drawn => "green",
        }
    };
    // White text on the dark blue, for legibility.
    let font = if color == "blue" {
        ", fontcolor=white"
    } else {
        ""
    };
    let _ = writeln!(out, "  n{id} [label=\"{label}\", fillcolor={color}{font}];");
}
