//! The alpha-beta search of one node ([`Worker::negamax`]) in numbered steps, as Stockfish's
//! search is laid out, with a helper for each step that stands on its own:
//!
//! 1. draws by the rules, the ply limit, mate-distance pruning ([`Worker::node_ends`]);
//! 2. the transposition table's verdict ([`table_cut`]);
//! 3. tablebases and positions the game knows exactly ([`Worker::known_value`]);
//! 4. the moves, the static evaluation and `improving` ([`Worker::static_eval`]);
//! 5. internal iterative reduction;
//! 6. reverse futility and null-move pruning ([`Worker::prune_node`], [`Worker::null_move`]);
//! 7. extensions and futility for the whole node;
//! 8. the moves in order: pruning ([`Worker::skip_move`]), singular extensions
//!    ([`Worker::singular`]), the child searched with late-move reductions
//!    ([`Worker::reduction`], [`Worker::search_child`]), and a cutoff learnt
//!    ([`Worker::learn_cutoff`]);
//! 9. the result stored, and the correction history taught ([`Worker::store_result`]).
//!
//! Every helper is the code that stood in the one long function before, unchanged: the bench
//! node counts of every game are the same.

use arrayvec::ArrayVec;

use super::{EVAL_NONE, Frame, INF, NULL_VERIFY_DEPTH, Worker, evaluate, solved_score};
use super::{Relaxed, terminal_score};
use crate::board::{Color, Move, MoveList};
use crate::game::Game;
use crate::search::ordering::{CONT_NONE, Hints, Picker, Scored, cont_key};
use crate::search::stats::Prune;
use crate::search::tt::{Bound, Hit};
use crate::search::{MATE, MATE_IN_MAX, MAX_PLY, TB_WIN};

/// What a node's steps share once it is set up.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    side: Color,
    pv_node: bool,
    /// Expected to fail high (see [`Worker::negamax`]).
    cut: bool,
    /// The side to move must answer a threat (a check, an offered capture): no stand pat,
    /// no pruning.
    forcing: bool,
    improving: bool,
    /// The move a singular-extension search leaves out (`Move::NULL`: none).
    excluded: Move,
    /// The corrected static evaluation (`EVAL_NONE` where forcing).
    eval: i32,
    /// What the node's pruning compares with its window: `eval`, or with `tt_eval` the
    /// table's score where its bound says that is nearer the truth.
    bound_eval: i32,
}

/// What a singular-extension search says of the hash move.
enum Singular {
    /// Search it this many plies deeper (−1: shallower); whether it is a double extension.
    Extend(i32, bool),
    /// Multi-cut: the node fails high with this score.
    Cut(i32),
    /// The search was stopped.
    Aborted,
}

/// The table's verdict when it decides the window: deep enough, the right bound, not at a
/// PV node nor in a singular-extension search.
fn table_cut(hit: Option<Hit>, node: &Node, alpha: i32, beta: i32) -> Option<i32> {
    let h = hit?;
    let decides = match h.bound {
        Bound::Exact => true,
        Bound::Lower => h.score >= beta,
        Bound::Upper => h.score <= alpha,
    };
    (!node.pv_node && node.excluded.is_null() && h.depth >= node.depth && decides)
        .then_some(h.score)
}

impl<G: Game> Worker<'_, G> {
    /// `cut`: whether this node is expected to fail high (a cut node: a zero-window child
    /// reduced by LMR, or one whose parent is an expected all node), as Stockfish guesses it.
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(pos, ply, 0, alpha, beta);
        }
        self.nodes += 1;
        self.stats.main_nodes += 1;
        if self.should_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        let mut node = Node {
            depth,
            ply,
            side: pos.side_to_move(),
            pv_node: beta - alpha > 1,
            cut,
            forcing: false,
            improving: false,
            excluded: self.stack[ply].excluded,
            eval: EVAL_NONE,
            bound_eval: EVAL_NONE,
        };

        // Step 1. Draws by the rules, the ply limit, mate distance.
        let mut moves = MoveList::new();
        if let Some(score) = self.node_ends(pos, ply, &mut moves) {
            return score;
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 2. The transposition table. A singular-extension search of this node leaves
        // its hash move out: it neither takes nor stores a table verdict, which speaks of
        // every move.
        let hash = pos.hash();
        let hit = self.tt.probe(hash, ply);
        self.stats.tt_probes += 1;
        self.stats.tt_hits += hit.is_some() as u64;
        if let Some(score) = table_cut(hit, &node, alpha, beta) {
            self.stats.tt_cuts += 1;
            return score;
        }
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);

        // Step 3. Tablebases and positions the game knows exactly.
        if node.excluded.is_null()
            && let Some(score) = self.known_value(pos, &node, hash, alpha, beta)
        {
            return score;
        }

        // Step 4. The moves, the static evaluation, improving.
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return terminal_score(pos, ply);
        }
        node.forcing = pos.forcing_with(&moves);
        self.stats.forcing_nodes += node.forcing as u64;
        let raw_eval = self.static_eval(pos, &mut node, hit);

        // Step 5. Internal iterative reduction: without a hash move this node is probably
        // new, and its ordering poor; search it a ply shallower.
        if self.params.iir && depth >= 4 && tt_move.is_null() {
            node.depth -= 1;
        }

        // Step 6. Reverse futility, null-move pruning and ProbCut.
        if !node.pv_node
            && !node.forcing
            && let Some(score) = self
                .prune_node(pos, &node, beta)
                .or_else(|| self.probcut(pos, &moves, &node, hit, raw_eval, beta))
        {
            return score;
        }

        // Steps 7–9.
        self.search_moves(pos, &moves, &node, hit, raw_eval, alpha, beta)
    }

    /// Step 1: the score of a node the rules end (insufficient material, a repetition, the
    /// move clock) or the ply limit cuts; `moves` is filled where the clock needs them.
    fn node_ends(&mut self, pos: &G, ply: usize, moves: &mut MoveList) -> Option<i32> {
        if pos.insufficient_material() || (G::REPETITION && self.repeated(pos, ply)) {
            return Some(0);
        }
        if let Some(limit) = G::DRAW_PLIES
            && pos.reversible_plies() >= limit
        {
            pos.legal_moves(moves);
            return Some(if moves.is_empty() {
                terminal_score(pos, ply)
            } else {
                0
            });
        }
        (ply >= MAX_PLY).then(|| evaluate(pos, ply))
    }

    /// Step 3: endgame tablebases, right after a capture or pawn move (Stockfish's
    /// conditions), where the verdict decides the window; then positions the game knows
    /// exactly (Räuberschach's endgame tables): a forced end scored at its distance from the
    /// root, or a draw.
    fn known_value(
        &mut self,
        pos: &G,
        node: &Node,
        hash: u64,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let (depth, ply) = (node.depth, node.ply);
        let tb = self.limits.tablebase;
        if tb.max_pieces > 0
            && depth >= tb.probe_depth as i32
            && pos.reversible_plies() == 0
            && let Some(wdl) = pos.tb_wdl(tb.max_pieces)
        {
            self.shared.tbhits.fetch_add(1, Relaxed);
            let draw = tb.rule50 as i32;
            let (value, bound) = if wdl < -draw {
                (-TB_WIN + ply as i32, Bound::Upper)
            } else if wdl > draw {
                (TB_WIN - ply as i32, Bound::Lower)
            } else {
                (2 * draw * wdl, Bound::Exact)
            };
            if match bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            } {
                let depth = (depth + 6).min(MAX_PLY as i32 - 1);
                self.tt
                    .store(hash, ply, Move::NULL, value, EVAL_NONE, depth, bound);
                return Some(value);
            }
        }
        let known = solved_score(pos, ply)?;
        self.shared.tbhits.fetch_add(1, Relaxed);
        Some(known)
    }

    /// Step 4: the static evaluation of a position that is not forcing (the table's where it
    /// has one), corrected into `node.eval`, and `improving`: better than two plies ago (four,
    /// where the position two plies ago was forcing and has none). Returns the raw one.
    fn static_eval(&mut self, pos: &G, node: &mut Node, hit: Option<Hit>) -> i32 {
        let ply = node.ply;
        let raw_eval = match hit {
            _ if node.forcing => EVAL_NONE,
            Some(h) if h.eval != EVAL_NONE => h.eval,
            _ => evaluate(pos, ply),
        };
        let eval = self.corrected(pos, raw_eval);
        self.stack[ply].eval = eval;
        let before = [2, 4]
            .iter()
            .filter(|&&k| ply >= k)
            .map(|&k| self.stack[ply - k].eval)
            .find(|&e| e != EVAL_NONE);
        node.eval = eval;
        node.bound_eval = match hit {
            Some(h) if self.params.tt_eval && eval != EVAL_NONE && h.score.abs() < MATE_IN_MAX => {
                let nearer = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score > eval,
                    Bound::Upper => h.score < eval,
                };
                if nearer { h.score } else { eval }
            }
            _ => eval,
        };
        node.improving = eval != EVAL_NONE && before.is_some_and(|b| eval > b);
        raw_eval
    }

    /// Step 6, at a node neither PV nor forcing: reverse futility (the evaluation so far
    /// above beta that nothing is searched), then the null move.
    fn prune_node(&mut self, pos: &G, node: &Node, beta: i32) -> Option<i32> {
        let p = self.params;
        let eval = node.bound_eval;
        let improving = (p.reverse_futility_improving && node.improving) as i32;
        if p.reverse_futility
            && node.depth <= 6
            && beta.abs() < MATE_IN_MAX
            && eval - p.reverse_futility_margin * (node.depth - improving) >= beta
        {
            self.stats.prune(Prune::ReverseFutility);
            return Some(eval);
        }
        if G::NULL_MOVE
            && p.null_move
            && node.excluded.is_null()
            && node.depth >= 3
            && eval >= beta
            && !self.stack[node.ply].null
            && node.ply >= self.nmp_min_ply
            && beta.abs() < MATE_IN_MAX
            && pos.null_move_allowed()
        {
            return self.null_move(pos, node, beta);
        }
        None
    }

    /// The null move: the opponent moves twice; if that still fails high, so does this node.
    /// Deep cutoffs are verified (zugzwang): the same node searched to the reduced depth
    /// without null moves for the next plies. `Some(0)` when the search was stopped.
    fn null_move(&mut self, pos: &G, node: &Node, beta: i32) -> Option<i32> {
        let (depth, ply) = (node.depth, node.ply);
        let r = 3 + depth / 4 + ((node.bound_eval - beta) / 200).min(3);
        let child = pos.play_null();
        self.stack[ply + 1] = Frame {
            mv: Move::NULL,
            null: true,
            from_null: 0,
            eval: EVAL_NONE,
            key: CONT_NONE,
            excluded: Move::NULL,
            doubles: self.stack[ply].doubles,
        };
        self.path.push(child.hash());
        let score = -self.negamax(&child, depth - 1 - r, ply + 1, -beta, -beta + 1, !node.cut);
        self.path.pop();
        if self.aborted {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if score >= MATE_IN_MAX { beta } else { score };
        if self.nmp_min_ply > 0 || depth < NULL_VERIFY_DEPTH {
            self.stats.prune(Prune::NullMove);
            return Some(score);
        }
        self.nmp_min_ply = ply + (3 * (depth - 1 - r) / 4).max(1) as usize;
        let verified = self.negamax(pos, depth - 1 - r, ply, beta - 1, beta, false);
        self.nmp_min_ply = 0;
        if self.aborted {
            return Some(0);
        }
        if verified >= beta {
            self.stats.prune(Prune::NullMove);
            return Some(score);
        }
        None
    }

    /// Step 6, at a node neither PV nor forcing: ProbCut. A capture that wins enough by
    /// static exchange and holds beta + `probcut_margin`, first in quiescence and then 4
    /// plies shallower, would almost surely hold beta at full depth: the node returns its
    /// score and stores it as a lower bound. Not tried where the table holds a deep enough
    /// score below the raised bound. `Some(0)` when the search was stopped.
    fn probcut(
        &mut self,
        pos: &G,
        moves: &MoveList,
        node: &Node,
        hit: Option<Hit>,
        raw_eval: i32,
        beta: i32,
    ) -> Option<i32> {
        let p = self.params;
        let (depth, ply) = (node.depth, node.ply);
        let raised = beta + p.probcut_margin;
        if !p.probcut
            || !node.excluded.is_null()
            || depth < p.probcut_depth
            || beta.abs() >= MATE_IN_MAX
            || node.bound_eval == EVAL_NONE
            || hit.is_some_and(|h| h.depth >= depth - 3 && h.score < raised)
        {
            return None;
        }
        let hints = self.hints(node, hit.map_or(Move::NULL, |h| h.mv));
        let mut buffer = Scored::new();
        let mut picker = Picker::new(pos, moves, &hints, self.heur, true, &mut buffer);
        let from_null = self.stack[ply].from_null.saturating_add(1);
        while let Some((mv, _)) = picker.next_move() {
            if !pos.is_noisy(mv) || !pos.see_ge(mv, raised - node.bound_eval) {
                continue;
            }
            let child = pos.play(mv);
            self.enter(pos, mv, ply, from_null, false);
            self.path.push(child.hash());
            let mut score = -self.qsearch(&child, ply + 1, 0, -raised, -raised + 1);
            if score >= raised && !self.aborted {
                score = -self.negamax(&child, depth - 4, ply + 1, -raised, -raised + 1, !node.cut);
            }
            self.path.pop();
            if self.aborted {
                return Some(0);
            }
            if score >= raised {
                self.stats.prune(Prune::ProbCut);
                let (hash, bound) = (pos.hash(), Bound::Lower);
                self.tt
                    .store(hash, ply, mv, score, raw_eval, depth - 3, bound);
                return Some(score);
            }
        }
        None
    }

    /// Steps 7–9: extensions and futility for the node, every move in order (pruned,
    /// extended, reduced, searched), the cutoff learnt, the result stored.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &G,
        moves: &MoveList,
        node: &Node,
        hit: Option<Hit>,
        raw_eval: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let p = self.params;
        let ply = node.ply;
        // Step 7. Extensions (forcing nodes, single replies) and futility.
        let extend = ply < 2 * self.root_depth as usize
            && ((p.forcing_extension && node.forcing)
                || (p.single_reply_extension && moves.len() == 1));
        let new_depth = node.depth - 1 + extend as i32;
        self.stats.extensions += extend as u64;
        let futile = p.futility
            && !node.pv_node
            && !node.forcing
            && node.depth <= p.futility_depth
            && alpha.abs() < MATE_IN_MAX
            && node.bound_eval + p.futility_margin * node.depth <= alpha;

        // Step 8. The moves in order.
        let tt_move = hit.map_or(Move::NULL, |h| h.mv);
        let hints = self.hints(node, tt_move);
        let earlier = hints.earlier;
        let mut buffer = Scored::new();
        let mut picker = Picker::new(pos, moves, &hints, self.heur, false, &mut buffer);
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0u32;
        let mut quiets: ArrayVec<Move, 256> = ArrayVec::new();
        let mut noisies: ArrayVec<Move, 256> = ArrayVec::new();
        let from_null = self.stack[ply].from_null.saturating_add(1);

        while let Some((mv, _)) = picker.next_move() {
            if mv == node.excluded {
                continue;
            }
            let noisy = pos.is_noisy(mv);
            let child = pos.play(mv);
            if new_depth > 0 || p.qsearch_tt {
                self.tt.prefetch(child.hash());
            }
            let forces_reply = child.forcing();
            let record = self.record(pos, node.side, mv, noisy, &earlier);
            if self.skip_move(
                pos,
                mv,
                node,
                (noisy, forces_reply, record),
                futile,
                searched,
                best,
                &quiets,
            ) {
                continue;
            }
            let mut move_depth = new_depth;
            let mut doubled = false;
            if searched == 0 && mv == tt_move && !extend {
                match self.singular(pos, node, hit, beta) {
                    Singular::Extend(plies, double) => {
                        move_depth += plies;
                        doubled = double;
                    }
                    Singular::Cut(score) => return score,
                    Singular::Aborted => return 0,
                }
            }
            self.enter(pos, mv, ply, from_null, doubled);
            self.path.push(child.hash());
            let score = if searched == 0 {
                let cut = !node.pv_node && !node.cut;
                -self.negamax(&child, move_depth, ply + 1, -beta, -alpha, cut)
            } else {
                let r = self.reduction(node, (noisy, forces_reply, record), searched, new_depth);
                self.search_child(&child, node, new_depth, r, alpha, beta)
            };
            self.path.pop();
            if self.aborted {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if node.pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.stats.fail_highs += 1;
                        self.stats.first_move_fail_highs += (searched == 1) as u64;
                        self.learn_cutoff(pos, mv, node, noisy, &earlier, &quiets, &noisies);
                        break;
                    }
                    alpha = score;
                }
            }
            if !noisy {
                quiets.push(mv);
            } else if p.capture_history {
                noisies.push(mv);
            }
        }

        if !node.excluded.is_null() {
            // A search without the hash move is no verdict on the position: nothing is stored
            // or learnt. With no other move searched, it fails low.
            return if best == -INF { alpha } else { best };
        }
        // Step 9. The result stored.
        self.store_result(pos, node, raw_eval, best, best_move, beta);
        best
    }

    /// Step 8: the frame of the child that `mv` makes, one ply below `ply`.
    fn enter(&mut self, pos: &G, mv: Move, ply: usize, from_null: usize, doubled: bool) {
        self.stack[ply + 1] = Frame {
            mv,
            null: false,
            from_null,
            eval: EVAL_NONE,
            key: self.key_of(pos, mv),
            excluded: Move::NULL,
            doubles: self.stack[ply].doubles + doubled as u8,
        };
    }

    /// Step 8: what orders the moves: the hash move, killers, the counter to the opponent's
    /// last move, and the keys of the opponent's last move and of ours before it
    /// (continuation history).
    fn hints(&self, node: &Node, tt_move: Move) -> Hints {
        let p = self.params;
        let ply = node.ply;
        Hints {
            tt_move,
            killers: self.heur.killers[ply],
            counter: if p.countermove {
                self.heur.counter(node.side, self.stack[ply].mv)
            } else {
                Move::NULL
            },
            capture_history: p.capture_history,
            quiet_order: p.quiet_order,
            earlier: [
                self.stack[ply].key,
                self.stack[ply - 1].key,
                if p.continuation_history_4 && ply >= 3 {
                    self.stack[ply - 3].key
                } else {
                    CONT_NONE
                },
            ],
        }
    }

    /// Step 8: a move's record, which history pruning and LMR judge it by: for a quiet move
    /// its history plus the continuation histories that are on (`earlier`, [`Hints`]), for a
    /// noisy one its capture history (0 when that is off).
    fn record(&self, pos: &G, side: Color, mv: Move, noisy: bool, earlier: &[usize; 3]) -> i32 {
        let p = self.params;
        if noisy {
            return if p.capture_history {
                self.heur.capture_history(side, mv)
            } else {
                0
            };
        }
        let mut h = self.heur.history(side, mv);
        if p.continuation_history {
            h += self.heur.continuation(earlier, cont_key(pos, mv));
        }
        h
    }

    /// Step 8, before a move is searched: futility, late-move, history and SEE pruning near
    /// the horizon. A quiet move may still be pruned when it only forces the opponent's reply
    /// (a check, an offered capture), where the game allows it. `kind`: whether the move is
    /// noisy, whether it forces the reply, and its [`Worker::record`].
    #[allow(clippy::too_many_arguments)]
    fn skip_move(
        &mut self,
        pos: &G,
        mv: Move,
        node: &Node,
        kind: (bool, bool, i32),
        futile: bool,
        searched: u32,
        best: i32,
        quiets: &[Move],
    ) -> bool {
        let p = self.params;
        let depth = node.depth;
        let (noisy, forces_reply, record) = kind;
        let quiet_move = !noisy && !forces_reply;
        let prunable = quiet_move || (p.prune_forcing_replies && !noisy);
        if futile && searched > 0 && prunable {
            self.stats.prune(Prune::Futility);
            return true;
        }
        let shallow = !node.pv_node && !node.forcing && best > -MATE_IN_MAX;
        // Late-move pruning: after enough quiet moves, the rest are skipped (sooner when the
        // evaluation is not improving).
        if p.late_move_pruning
            && shallow
            && prunable
            && depth <= p.late_move_pruning_depth
            && quiets.len() as i32 >= (3 + depth * depth) / if node.improving { 1 } else { 2 }
        {
            self.stats.prune(Prune::LateMove);
            return true;
        }
        // History pruning: quiet moves that have failed often lately.
        if p.history_pruning
            && shallow
            && quiet_move
            && searched > 0
            && depth <= p.history_pruning_depth
            && record < -p.history_pruning_margin * depth
        {
            self.stats.prune(Prune::History);
            return true;
        }
        // SEE pruning: moves that lose material by static exchange.
        if p.see_pruning
            && shallow
            && depth <= 6
            && if noisy { !forces_reply } else { quiet_move }
            && !pos.see_ge(mv, -self.see_margin(noisy, record, depth))
        {
            self.stats.prune(Prune::See);
            return true;
        }
        false
    }

    /// The loss by static exchange a move may have before SEE pruning skips it: for a capture
    /// the margin per ply, moved by its capture history (`capture_history_see`), for a quiet
    /// move the margin per ply squared.
    fn see_margin(&self, noisy: bool, record: i32, depth: i32) -> i32 {
        let p = self.params;
        if !noisy {
            return p.see_quiet_margin * depth * depth;
        }
        let margin = p.see_noisy_margin * depth;
        if p.capture_history && p.capture_history_see {
            margin + (record / 32).clamp(-margin, margin)
        } else {
            margin
        }
    }

    /// Step 8, for the hash move searched first: singular extensions. Is it the only good
    /// move? Every other move is searched to half the depth against the entry's score less a
    /// margin.
    fn singular(&mut self, pos: &G, node: &Node, hit: Option<Hit>, beta: i32) -> Singular {
        let p = self.params;
        let (depth, ply) = (node.depth, node.ply);
        let mv = hit.map_or(Move::NULL, |h| h.mv);
        let Some(h) = hit.filter(|h| {
            p.singular
                && node.excluded.is_null()
                && depth >= p.singular_depth
                && ply < 2 * self.root_depth as usize
                && h.bound != Bound::Upper
                && h.depth >= depth - 3
                && h.score.abs() < MATE_IN_MAX
        }) else {
            return Singular::Extend(0, false);
        };
        let singular_beta = h.score - p.singular_margin * depth;
        self.stats.singular_searches += 1;
        self.stack[ply].excluded = mv;
        let value = self.negamax(
            pos,
            (depth - 1) / 2,
            ply,
            singular_beta - 1,
            singular_beta,
            node.cut,
        );
        self.stack[ply].excluded = Move::NULL;
        if self.aborted {
            return Singular::Aborted;
        }
        if value < singular_beta {
            self.stats.singular_extensions += 1;
            self.stats.extensions += 1;
            // Far below: the only move by a wide margin, two plies deeper (non-PV, and only a
            // few times on a line, against search explosions).
            if p.singular_double_margin > 0
                && !node.pv_node
                && value < singular_beta - p.singular_double_margin
                && self.stack[ply].doubles < 3
            {
                self.stats.double_extensions += 1;
                self.stats.extensions += 1;
                return Singular::Extend(2, true);
            }
            Singular::Extend(1, false)
        } else if singular_beta >= beta {
            // Multi-cut: more than one move beats beta even at half the depth.
            self.stats.multi_cuts += 1;
            Singular::Cut(singular_beta)
        } else if h.score >= beta {
            self.stats.negative_extensions += 1;
            Singular::Extend(-1, false)
        } else {
            Singular::Extend(0, false)
        }
    }

    /// Step 8, for a move after the first: its late-move reduction in plies. Quiet moves
    /// are reduced, and with `lmr_noisy` late noisy moves that leave the opponent a free
    /// choice (a ply less).
    fn reduction(
        &mut self,
        node: &Node,
        kind: (bool, bool, i32),
        searched: u32,
        new_depth: i32,
    ) -> i32 {
        let p = self.params;
        let depth = node.depth;
        let (noisy, forces_reply, record) = kind;
        let reducible = !noisy && (!forces_reply || p.lmr_forcing_replies);
        let quiet_lmr = reducible && !node.forcing;
        let lmr_start = p.lmr_min_moves + if node.pv_node { 2 } else { 0 };
        let late = depth >= 3 && searched >= lmr_start;
        self.stats.late_moves += late as u64;
        let mut r = 0;
        if p.lmr && late && (quiet_lmr || (p.lmr_noisy && noisy && !forces_reply)) {
            r = self.lmr[depth.min(63) as usize][searched.min(63) as usize];
            if !quiet_lmr {
                r -= 1;
            }
            if node.pv_node {
                r -= 1;
            }
            // Expected cut nodes: the move that refutes them usually comes first, and late
            // moves are searched for little.
            if p.lmr_cut_node && node.cut {
                r += 1 + quiet_lmr as i32;
            }
            if p.lmr_history && quiet_lmr {
                // Moves with a good record are reduced less, a bad one more; improving nodes
                // less too.
                r -= record / p.lmr_history_divisor;
                r -= node.improving as i32;
            }
            r = r.clamp(0, (new_depth - 1).max(0));
        }
        if r > 0 {
            self.stats.reduced += 1;
            self.stats.reduction_plies += r as u64;
        }
        r
    }

    /// Step 8, a move after the first: a zero-window search `r` plies shallower, again at
    /// full depth if it beat alpha reduced, and with the full window at a PV node if it
    /// still lies inside it.
    fn search_child(
        &mut self,
        child: &G,
        node: &Node,
        new_depth: i32,
        r: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (ply, cut) = (node.ply, node.cut);
        let mut s = -self.negamax(
            child,
            new_depth - r,
            ply + 1,
            -alpha - 1,
            -alpha,
            r > 0 || !cut,
        );
        if s > alpha && r > 0 {
            self.stats.re_searches += 1;
            s = -self.negamax(child, new_depth, ply + 1, -alpha - 1, -alpha, !cut);
        }
        if node.pv_node && s > alpha && s < beta {
            s = -self.negamax(child, new_depth, ply + 1, -beta, -alpha, false);
        }
        s
    }

    /// Step 8, a move that failed high: the quiet move's killer, counter, history and
    /// continuation-history records (the quiet moves before it penalised), or the capture's.
    #[allow(clippy::too_many_arguments)]
    fn learn_cutoff(
        &mut self,
        pos: &G,
        mv: Move,
        node: &Node,
        noisy: bool,
        earlier: &[usize; 3],
        quiets: &[Move],
        noisies: &[Move],
    ) {
        let p = self.params;
        let side = node.side;
        if !noisy {
            let previous = self.stack[node.ply].mv;
            self.heur
                .cutoff(side, node.ply, node.depth, mv, previous, quiets);
            if p.continuation_history {
                self.heur.continuation_cutoff(
                    earlier,
                    node.depth,
                    cont_key(pos, mv),
                    quiets.iter().map(|&q| cont_key(pos, q)),
                );
            }
        } else if p.capture_history {
            self.heur.capture_cutoff(side, node.depth, mv, noisies);
        }
    }

    /// Step 9: the node's bound stored with its best move and raw evaluation; the correction
    /// history learns from scores the static evaluation could have seen: not after a noisy
    /// best move, not mates, and only bounds on the right side.
    fn store_result(
        &mut self,
        pos: &G,
        node: &Node,
        raw_eval: i32,
        best: i32,
        best_move: Move,
        beta: i32,
    ) {
        let eval = node.eval;
        let bound = if best >= beta {
            Bound::Lower
        } else if !best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.params.correction_history
            && eval != EVAL_NONE
            && best.abs() < MATE_IN_MAX
            && (best_move.is_null() || !pos.is_noisy(best_move))
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            let keys = self.correction_keys(pos);
            self.heur
                .correction_update(node.side, &keys, best - eval, node.depth);
        }
        self.tt.store(
            pos.hash(),
            node.ply,
            best_move,
            best,
            raw_eval,
            node.depth,
            bound,
        );
    }
}
