//! Proof trees of forced wins, certificates of holds, and their checker, for any [`Game`].
//!
//! A [`Proof`] says that `winner` wins from `root` however the other side plays. It lists
//! every position in which the winner is to move and has to choose (`node` lines: the
//! position's FEN and the move the winner plays there); the loser's positions are not listed,
//! since every one of their moves must be answered. The positions form a graph, not a tree:
//! a position reached by several lines is listed once.
//!
//! The checker ([`check`]) trusts nothing but the game's move generator ([`Game::legal_moves`],
//! [`Game::play`], [`Game::terminal`]) and its draw rules: from the root, every move of the
//! loser must lead to a listed position or to one where the game is over and won by the winner;
//! every listed move must be legal; no line may repeat a position (the graph of positions must
//! be acyclic, so no repetition draw is ever reached); no position may be drawn by the
//! move-count rule ([`Game::DRAW_PLIES`], with the clocks of every line played out exactly) or
//! by insufficient material. It depends on [`crate::game`] and [`crate::board`] only — not on
//! the solver that wrote the proof ([`super::pns`]).
//!
//! A *hold* ([`Proof::hold`]) says less: that the other side cannot force a win against
//! `winner` (here the holder) — a draw or better for the holder. It lists the holder's move in
//! each of its positions the same way, and the checker ([`check`]) accepts it when, from the
//! root, every move of the other side and every listed move lead to a listed position, to one
//! the walk already met, or to a game end the other side has not won. The graph may have
//! cycles: the holder's strategy keeps every game inside it, where no game end is the other
//! side's win, so a game either ends without that win or goes on until a repetition or the
//! move-count rule draws it (both rules only help the holder, so the checker needs neither).
//! Two holds, one for each side, prove a draw. The header's fourth line says `holder` instead
//! of `winner`.
//!
//! The text format, one item a line (`#` starts a comment):
//!
//! ```text
//! kiebitz-proof 1
//! variant raeuberschach
//! root <FEN>
//! winner white|black          (or: holder white|black)
//! node <FEN>;<move>
//! ```
//!
//! Positions are identified by their FEN without the two clock fields.
//!
//! Large proofs are stored compactly ([`Proof::to_compact`], about a tenth of the size):
//! version 2 lists only the winner's moves, in the order a fixed walk of the proof graph meets
//! the winner's positions, and the reader unfolds it into the nodes above with the move
//! generator alone ([`Proof::parse_any`]). The walk goes depth first from the root, visits
//! each position (by its FEN without clocks) once, plays the winner's move where the winner is
//! to move (the next one of the list) and every move of the loser in the order of their text
//! (so that the order does not depend on how a move generator lists them); that walk, and the
//! check of a compact certificate without a FEN per position, are [`super::compact`]'s (which
//! also defines [`Proof::to_compact`] and [`Proof::parse_any`] on top of this module):
//!
//! ```text
//! kiebitz-proof 2
//! variant raeuberschach
//! root <FEN>
//! winner white|black
//! moves <move> <move> …        (any number of such lines)
//! ```

use std::collections::{HashMap, HashSet};

use crate::board::{Color, MoveList};
use crate::game::{Game, Terminal};

/// Why a proof or a certificate is refused: its text cannot be read, or it does not prove what
/// it claims. `Display` is the sentence the engines print (the same words as before the type);
/// the public edges ([`Proof::parse`], [`check`]) hand it on as [`crate::Error::Proof`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// The text ends before a header line.
    #[error("the proof ends before its '{0}' line")]
    Ends(String),
    /// A line is not what the format has there.
    #[error("line {line}: expected '{expected}', found '{found}'")]
    Expected {
        line: usize,
        expected: String,
        found: String,
    },
    /// A `node` line without the `;` between the FEN and the move.
    #[error("line {0}: expected 'node FEN;MOVE' (no ';')")]
    NoMove(usize),
    /// A format version this reader does not know.
    #[error("unknown proof format version '{0}'")]
    Version(String),
    /// A side that is neither `white` nor `black`.
    #[error("winner must be white or black, not '{0}'")]
    Side(String),
    /// The root is not a position of the game.
    #[error("the root FEN is not valid: {0}")]
    Root(crate::Error),
    /// The proof fails at a position: its FEN and why.
    #[error("{fen}: {reason}")]
    At { fen: String, reason: String },
    /// Any other way the proof does not prove what it claims.
    #[error("{0}")]
    Fails(String),
}

impl ProofError {
    /// The proof fails at `fen` because of `reason`.
    pub fn at(fen: impl Into<String>, reason: impl std::fmt::Display) -> ProofError {
        ProofError::At {
            fen: fen.into(),
            reason: reason.to_string(),
        }
    }
}

impl From<String> for ProofError {
    fn from(reason: String) -> ProofError {
        ProofError::Fails(reason)
    }
}

impl From<&str> for ProofError {
    fn from(reason: &str) -> ProofError {
        ProofError::Fails(reason.to_string())
    }
}

impl From<ProofError> for crate::Error {
    fn from(e: ProofError) -> crate::Error {
        crate::Error::Proof(e.to_string())
    }
}

crate::error::sentence_error!(ProofError);

/// A claimed forced win: the root, the winner, and the winner's move in each position where
/// it is to move and has a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub variant: String,
    pub root: String,
    pub winner: Color,
    /// A hold, not a win: `winner` (the holder) keeps the other side from forcing a win.
    pub hold: bool,
    /// (FEN, move in coordinate notation) for every position of the proof where the winner
    /// is to move and the game is not over.
    pub nodes: Vec<(String, String)>,
}

/// What a successful check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Distinct positions of the proof (both sides to move, game ends included).
    pub positions: usize,
    /// The longest line of the proof in plies: the loser, resisting within the proof, loses
    /// after at most this many plies. For a hold, whose lines may go round for ever: the
    /// farthest position from the root (the fewest plies that reach it).
    pub plies: u32,
}

impl Proof {
    /// The proof in its text format.
    pub fn to_text(&self) -> String {
        let mut out = self.header(1);
        for (fen, mv) in &self.nodes {
            out.push_str(&format!("node {fen};{mv}\n"));
        }
        out
    }

    /// Reads the text format. Errors ([`crate::Error::Proof`]) name the line.
    pub fn parse(text: &str) -> Result<Proof, crate::Error> {
        Self::read(text).map_err(crate::Error::from)
    }

    pub(super) fn header(&self, version: u8) -> String {
        let winner = match self.winner {
            Color::White => "white",
            Color::Black => "black",
        };
        let role = if self.hold { "holder" } else { "winner" };
        format!(
            "kiebitz-proof {version}\nvariant {}\nroot {}\n{role} {winner}\n",
            self.variant, self.root
        )
    }

    pub(super) fn read(text: &str) -> Result<Proof, ProofError> {
        let (mut proof, lines) = Self::read_header(text, "1")?;
        for (n, line) in lines {
            let body = line
                .strip_prefix("node ")
                .ok_or_else(|| ProofError::Expected {
                    line: n,
                    expected: "node FEN;MOVE".into(),
                    found: line.into(),
                })?;
            let (fen, mv) = body.rsplit_once(';').ok_or(ProofError::NoMove(n))?;
            proof
                .nodes
                .push((fen.trim().to_string(), mv.trim().to_string()));
        }
        Ok(proof)
    }

    /// The four header lines of format `version` (an empty proof), and the numbered lines
    /// after them.
    pub(super) fn read_header<'t>(
        text: &'t str,
        version: &str,
    ) -> Result<(Proof, impl Iterator<Item = (usize, &'t str)>), ProofError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        // The first of `names` the next line starts with, and the rest of the line.
        let mut field_of = |names: &[&str]| -> Result<(usize, String), ProofError> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| ProofError::Ends(names[0].into()))?;
            names
                .iter()
                .enumerate()
                .find_map(|(k, name)| {
                    let rest = line.strip_prefix(name)?.strip_prefix(' ')?;
                    Some((k, rest.trim().to_string()))
                })
                .ok_or_else(|| ProofError::Expected {
                    line: n,
                    expected: format!("{} …", names.join(" …' or '")),
                    found: line.into(),
                })
        };
        let mut field = |name: &str| field_of(&[name]).map(|(_, rest)| rest);
        let found = field("kiebitz-proof")?;
        if found != version {
            return Err(ProofError::Version(found));
        }
        let variant = field("variant")?;
        let root = field("root")?;
        let (role, side) = field_of(&["winner", "holder"])?;
        let winner = match side.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            other => return Err(ProofError::Side(other.into())),
        };
        let proof = Proof {
            variant,
            root,
            winner,
            hold: role == 1,
            nodes: Vec::new(),
        };
        Ok((proof, lines))
    }
}

/// The largest proof file read in the text format (256 MiB, millions of positions).
pub const MAX_PROOF_BYTES: u64 = 256 << 20;

/// The largest one in the compact format, whose file starts `kiebitz-proof 2` (1 GiB: some
/// 200 million choices, a certificate of hundreds of millions of positions).
pub const MAX_COMPACT_PROOF_BYTES: u64 = 1 << 30;

/// A position's identity in a proof: its FEN without the clock fields.
pub fn identity(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let keep = fields.len().saturating_sub(2).max(1);
    fields[..keep.min(fields.len())].join(" ")
}

/// One position of the proof graph, with its edges once the first phase has built them.
struct Node<G> {
    pos: G,
    /// The winner's chosen move (winner to move), or every move (loser to move): the index of
    /// the position reached and whether the move reset the clock, or `None` when the game is
    /// over there, won by the winner.
    children: Vec<Option<(usize, bool)>>,
}

/// Checks `proof` under the rules of `G`; `Ok` only if the winner wins from the root against
/// every defence. Errors ([`crate::Error::Proof`]) say which position fails and why.
pub fn check<G: Game>(proof: &Proof) -> Result<Checked, crate::Error> {
    if proof.hold {
        check_hold::<G>(proof).map_err(crate::Error::from)
    } else {
        check_tree::<G>(proof).map_err(crate::Error::from)
    }
}

/// Checks a hold (see the module's documentation): the graph of the holder's listed moves
/// and every move of the other side, walked breadth first from the root, has no game end the
/// other side has won; every position of the holder's it meets (not over, not drawn by
/// insufficient material) has a listed legal move.
fn check_hold<G: Game>(proof: &Proof) -> Result<Checked, ProofError> {
    let root = G::from_fen(&proof.variant, &proof.root).map_err(ProofError::Root)?;
    let chosen = chosen_moves::<G>(proof)?;
    let holder = proof.winner;
    let mut seen: HashSet<String> = HashSet::from([identity(&root.fen())]);
    let (mut level, mut plies) = (vec![root], 0u32);
    let mut moves = MoveList::new();
    while !level.is_empty() {
        let mut next_level = Vec::new();
        for pos in level {
            let fen = pos.fen();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                let holder_to_move = pos.side_to_move() == holder;
                if matches!(
                    (pos.terminal(), holder_to_move),
                    (Terminal::Loss, true) | (Terminal::Win, false)
                ) {
                    return Err(
                        format!("{fen}: the game is over here, won by the other side").into(),
                    );
                }
                continue;
            }
            if pos.insufficient_material() {
                continue;
            }
            let played: Vec<_> = if pos.side_to_move() == holder {
                let mv = chosen.get(&identity(&fen)).ok_or_else(|| {
                    ProofError::at(
                        fen.clone(),
                        "the holder is to move but the proof has no move",
                    )
                })?;
                vec![
                    pos.parse_move(mv)
                        .map_err(|e| ProofError::at(fen.clone(), e))?,
                ]
            } else {
                moves.to_vec()
            };
            for mv in played {
                let next = pos.play(mv);
                if seen.insert(identity(&next.fen())) {
                    next_level.push(next);
                }
            }
        }
        plies += u32::from(!next_level.is_empty());
        level = next_level;
    }
    Ok(Checked {
        positions: seen.len(),
        plies,
    })
}

fn check_tree<G: Game>(proof: &Proof) -> Result<Checked, ProofError> {
    let root = G::from_fen(&proof.variant, &proof.root).map_err(ProofError::Root)?;
    let chosen = chosen_moves::<G>(proof)?;
    if let Some(over) = root_over(&root, proof.winner) {
        return over;
    }
    // Phase 1: the graph from the root; every leaf a game end won by the winner.
    let nodes = build_graph(root, proof.winner, &chosen)?;

    // Phase 2: the graph must be acyclic (no line repeats a position); its depth-first
    // post-order is then a topological order, which gives the longest line too.
    let order = topological_order(&nodes)?;
    let mut longest = vec![0u32; nodes.len()];
    for &i in &order {
        longest[i] = nodes[i]
            .children
            .iter()
            .map(|c| 1 + c.map_or(0, |(j, _)| longest[j]))
            .max()
            .unwrap_or(0);
    }

    // Phase 3: the move-count rule with the clocks each line really has, from the root's.
    check_move_count(&nodes, &order)?;
    let leaves: usize = nodes
        .iter()
        .map(|n| n.children.iter().filter(|c| c.is_none()).count())
        .sum();
    Ok(Checked {
        positions: nodes.len() + leaves,
        plies: longest[0],
    })
}

/// The winner's move in each listed node, by the node's identity; an error for a node that is
/// not the winner's to move, an illegal move, or a node listed twice with different moves.
pub(super) fn chosen_moves<G: Game>(proof: &Proof) -> Result<HashMap<String, String>, ProofError> {
    let mut chosen: HashMap<String, String> = HashMap::new();
    for (fen, mv) in &proof.nodes {
        let pos = G::from_fen(&proof.variant, fen).map_err(|e| format!("node {fen}: {e}"))?;
        if pos.side_to_move() != proof.winner {
            return Err(format!("node {fen}: the winner is not to move there").into());
        }
        pos.parse_move(mv)
            .map_err(|e| format!("node {fen}: move {mv}: {e}"))?;
        if let Some(other) = chosen.insert(identity(fen), mv.clone())
            && other != *mv
        {
            return Err(format!("node {fen} is listed twice with different moves").into());
        }
    }
    Ok(chosen)
}

/// The verdict when the game is already over at the root; `None` when it goes on.
fn root_over<G: Game>(root: &G, winner: Color) -> Option<Result<Checked, ProofError>> {
    let mut moves = MoveList::new();
    root.legal_moves(&mut moves);
    if !moves.is_empty() {
        return None;
    }
    let winner_to_move = root.side_to_move() == winner;
    Some(match (root.terminal(), winner_to_move) {
        (Terminal::Win, true) | (Terminal::Loss, false) => Ok(Checked {
            positions: 1,
            plies: 0,
        }),
        _ => Err(format!("{}: the game is over, not won by the winner", root.fen()).into()),
    })
}

/// The graph from the root, positions identified by their FEN without clocks: the winner's
/// chosen move where the winner is to move, every move elsewhere; every leaf must be a game
/// end won by the winner.
fn build_graph<G: Game>(
    root: G,
    winner: Color,
    chosen: &HashMap<String, String>,
) -> Result<Vec<Node<G>>, ProofError> {
    let mut nodes: Vec<Node<G>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut todo = vec![0usize];
    index.insert(identity(&root.fen()), 0);
    nodes.push(Node {
        pos: root,
        children: Vec::new(),
    });
    let mut moves = MoveList::new();
    while let Some(i) = todo.pop() {
        let pos = nodes[i].pos.clone();
        let fen = pos.fen();
        if pos.insufficient_material() {
            return Err(ProofError::at(
                fen.clone(),
                "drawn by insufficient material",
            ));
        }
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(format!("{fen}: the game is over here but not won by the winner").into());
        }
        let played: Vec<_> = if pos.side_to_move() == winner {
            let mv = chosen.get(&identity(&fen)).ok_or_else(|| {
                ProofError::at(
                    fen.clone(),
                    "the winner is to move but the proof has no move",
                )
            })?;
            vec![
                pos.parse_move(mv)
                    .map_err(|e| ProofError::at(fen.clone(), e))?,
            ]
        } else {
            moves.to_vec()
        };
        let mut children = Vec::with_capacity(played.len());
        for mv in played {
            let next = pos.play(mv);
            if won_here(&next, winner).map_err(|()| {
                format!(
                    "{fen}: after {} the game ends without the winner winning",
                    pos.move_text(mv)
                )
            })? {
                children.push(None);
                continue;
            }
            let id = identity(&next.fen());
            let resets = next.reversible_plies() == 0;
            let j = match index.get(&id) {
                Some(&j) => j,
                None => {
                    let j = nodes.len();
                    index.insert(id, j);
                    nodes.push(Node {
                        pos: next,
                        children: Vec::new(),
                    });
                    todo.push(j);
                    j
                }
            };
            // A move that does not reset the clock leaves it at 1 or more.
            children.push(Some((j, resets)));
        }
        nodes[i].children = children;
    }
    Ok(nodes)
}

/// Whether the game is over at `pos`, won by `winner` (`Ok(true)`), goes on (`Ok(false)`),
/// or is over without the winner winning (`Err`).
fn won_here<G: Game>(pos: &G, winner: Color) -> Result<bool, ()> {
    let mut replies = MoveList::new();
    pos.legal_moves(&mut replies);
    if !replies.is_empty() {
        return Ok(false);
    }
    let winner_to_move = pos.side_to_move() == winner;
    match (pos.terminal(), winner_to_move) {
        (Terminal::Win, true) | (Terminal::Loss, false) => Ok(true),
        _ => Err(()),
    }
}

/// The move-count rule (`G::DRAW_PLIES`) along every line, with the clock each line really
/// has from the root's, in topological `order`.
fn check_move_count<G: Game>(nodes: &[Node<G>], order: &[usize]) -> Result<(), ProofError> {
    let Some(limit) = G::DRAW_PLIES else {
        return Ok(());
    };
    let mut clock: Vec<Option<u32>> = vec![None; nodes.len()];
    clock[0] = Some(nodes[0].pos.reversible_plies());
    for &i in order.iter().rev() {
        let Some(c) = clock[i] else { continue };
        if c >= limit {
            return Err(format!(
                "{}: reached with {c} plies without capture or pawn move: a draw",
                nodes[i].pos.fen()
            )
            .into());
        }
        for &(j, resets) in nodes[i].children.iter().flatten() {
            let next = if resets { 0 } else { c + 1 };
            clock[j] = Some(clock[j].map_or(next, |old| old.max(next)));
        }
    }
    Ok(())
}

/// A depth-first post-order of the graph from node 0 (children before parents), or the cycle
/// it found.
fn topological_order<G: Game>(nodes: &[Node<G>]) -> Result<Vec<usize>, ProofError> {
    // 0 unseen, 1 on the current line, 2 done.
    let mut state = vec![0u8; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    state[0] = 1;
    while let Some(&mut (i, ref mut next)) = stack.last_mut() {
        let children = &nodes[i].children;
        if let Some(&child) = children.get(*next) {
            *next += 1;
            if let Some((j, _)) = child {
                match state[j] {
                    0 => {
                        state[j] = 1;
                        stack.push((j, 0));
                    }
                    1 => {
                        return Err(format!(
                            "{}: a line of the proof repeats this position",
                            nodes[j].pos.fen()
                        )
                        .into());
                    }
                    _ => {}
                }
            }
        } else {
            state[i] = 2;
            order.push(i);
            stack.pop();
        }
    }
    Ok(order)
}
