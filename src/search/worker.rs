//! One search thread: iterative deepening over a principal-variation alpha-beta (negamax) with
//! aspiration windows, quiescence, draw detection, pruning and reductions.
//!
//! A [`Worker`] borrows what a thread shares (transposition table, control flags, limits, the
//! [`Shared`] node count) and what it owns alone (move-ordering tables). Lazy SMP runs several
//! workers on one table: the main one (thread 0) keeps the clock, reports and may search
//! several principal variations (MultiPV); helpers skip some depths ([`helper_skips`]) so that
//! the threads spread over different iterations, and stop when the main one is done.
//! Scores are centipawns for the side to move; a forced game end in `n` plies from the root is
//! `±(MATE - n)`. Depends on `game`, `board` and the sibling modules.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};

mod negamax;

use crate::board::{Move, MoveList};
use crate::game::{Game, Terminal};

use super::ordering::{CONT_NONE, CorrectionKeys, Heuristics, Hints, Picker, Scored, cont_key};
use super::params::SearchParams;
use super::stats::Stats;
use super::time::TimeManager;
use super::tt::{Bound, Table};
use super::{Control, Info, Limits, MATE, MATE_IN_MAX, MAX_PLY, Score};

/// Above any score.
const INF: i32 = MATE + 1;
/// Static evaluations are kept inside ±EVAL_MAX, clear of mate scores.
const EVAL_MAX: i32 = MATE_IN_MAX - 1000;
/// "No evaluation" in the transposition table (forcing positions are not evaluated).
const EVAL_NONE: i32 = i16::MIN as i32;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Quiescence never goes deeper than this many plies.
const QSEARCH_MAX: u32 = 32;
/// Null-move cutoffs from this depth on are verified by a search without null moves.
const NULL_VERIFY_DEPTH: i32 = 12;

/// What the search knows about a ply of the current path.
#[derive(Clone, Copy)]
struct Frame {
    /// The move that led here (`Move::NULL` at the root and after a null move).
    mv: Move,
    /// Whether that move was a null move.
    null: bool,
    /// Plies since the last null move (repetitions cannot reach across one).
    from_null: usize,
    /// The static evaluation at this ply, `EVAL_NONE` where none was taken.
    eval: i32,
    /// The continuation-history key of `mv` (`CONT_NONE` for none or a null move, and when
    /// continuation history is off).
    key: usize,
    /// The move a singular-extension search leaves out at this ply (`Move::NULL`: none).
    excluded: Move,
    /// Double extensions on the line from the root to here (at most three).
    doubles: u8,
}

/// How the iterations so far went, which stretches or shrinks the soft time limit.
#[derive(Clone, Copy, Debug)]
pub struct Trend {
    /// How often the best move changed lately (each iteration halves the older changes).
    pub instability: f64,
    /// Whether the last iteration's score fell more than 30 cp below the one before.
    pub dropped: bool,
    /// The share of the last iteration's nodes that its best move took.
    pub share: f64,
}

impl Trend {
    /// The factor of the soft limit: 0.7 for a settled best move up to 2 for one that keeps
    /// changing, times 1.4 after a drop; with `node_share`, times (1.5 − share) · 1.35 as
    /// well (0.68 when the best move took every node, 1.35 at half of them), as engines of
    /// Stockfish's line scale by the best move's effort.
    pub fn scale(&self, node_share: bool) -> f64 {
        let mut scale = (0.7 + 0.5 * self.instability).min(2.0);
        if self.dropped {
            scale *= 1.4;
        }
        if node_share {
            scale *= (1.5 - self.share.clamp(0.0, 1.0)) * 1.35;
        }
        scale
    }
}

/// The best move found so far and what came with it.
#[derive(Clone, Debug)]
pub struct Best {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// A root move with the nodes its subtree took in the last iteration (for ordering).
#[derive(Clone, Copy)]
struct RootMove {
    mv: Move,
    nodes: u64,
}

/// What the threads of one search share besides the table and the control flags.
#[derive(Debug, Default)]
pub struct Shared {
    /// Nodes of all threads, each adding its own in batches of `CHECK_EVERY`.
    pub nodes: AtomicU64,
    /// Set when the main thread has finished: the helpers stop.
    pub done: AtomicBool,
    /// Tablebase probes that answered.
    pub tbhits: AtomicU64,
    /// The deepest iteration any thread has completed (within the depth limit).
    pub completed: AtomicU32,
}

/// Whether helper `thread` (1, 2, …) skips iteration `depth`. Helpers come in groups: the
/// first two alternate every other depth (one the even, one the odd depths), the next four
/// every other pair of depths with four phases, the next six every other three depths, and so
/// on; the 21st helper starts over. Depth 1 is never skipped, and the main thread (0) never
/// skips: so the threads work on different iterations at once and fill the shared table with
/// what the others will need next.
pub fn helper_skips(thread: usize, depth: u32) -> bool {
    if thread == 0 || depth <= 1 {
        return false;
    }
    let mut i = (thread - 1) % 20;
    let mut size = 1;
    while i >= 2 * size {
        i -= 2 * size;
        size += 1;
    }
    ((depth as usize + i) / size).is_multiple_of(2)
}

/// How old a search must be before the root moves it starts are reported (UCI `currmove`):
/// earlier the lines would flood the output for nothing.
pub const CURRMOVE_AFTER: std::time::Duration = std::time::Duration::from_millis(1000);

/// A search in progress.
pub struct Worker<'a, G: Game> {
    tt: &'a Table,
    heur: &'a mut Heuristics,
    params: SearchParams,
    control: &'a Control,
    limits: &'a Limits,
    shared: &'a Shared,
    /// 0 for the main thread, 1… for helpers.
    thread: usize,
    /// How many principal variations the main thread reports (MultiPV, at least 1).
    multipv: usize,
    /// Told each root move the main thread starts once the search is older than
    /// [`CURRMOVE_AFTER`] (UCI `currmove` / `currmovenumber`).
    currmove: Option<super::CurrMove>,
    pub time: TimeManager,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Of `nodes`, those already added to `shared.nodes`.
    flushed: u64,
    /// The deepest iteration this thread completed.
    pub completed: u32,
    seldepth: usize,
    pub aborted: bool,
    /// Game history, root, then the current path: position hashes for repetitions.
    path: Vec<u64>,
    stack: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: Vec<[i32; 64]>,
    root_depth: i32,
    root_moves: Vec<RootMove>,
    /// The best root move of the running iteration (kept if it is abandoned).
    iter_best: Option<Best>,
    /// Where the root stands on `path`: repetitions of positions after it are draws at
    /// once (twofold), earlier ones only when threefold.
    root_index: usize,
    /// What the search's mechanisms did ([`Stats`]).
    pub stats: Stats,
    /// While a null-move cutoff is being verified: no null move before this ply.
    nmp_min_ply: usize,
    _game: std::marker::PhantomData<G>,
}

/// The score of a position without legal moves, `ply` plies from the root.
fn terminal_score<G: Game>(pos: &G, ply: usize) -> i32 {
    match pos.terminal() {
        Terminal::Loss => -MATE + ply as i32,
        Terminal::Win => MATE - ply as i32,
        Terminal::Draw => 0,
    }
}

/// The score of a position the game knows exactly ([`Game::solved`]) at `ply`: a forced end
/// `plies` further on, as [`terminal_score`] would score it there, or a draw.
#[inline]
fn solved_score<G: Game>(pos: &G, ply: usize) -> Option<i32> {
    let (value, plies) = pos.solved()?;
    let end = (ply as i32).saturating_add(plies as i32);
    Some(match value {
        Terminal::Loss => -MATE + end,
        Terminal::Win => MATE - end,
        Terminal::Draw => 0,
    })
}

/// The late-move reductions in plies by depth and move number (both below 64):
/// `(lmr_base + ln d · ln m · 10000 / lmr_divisor) / 100`, rounded down — `lmr_base` in
/// hundredths of a ply, the logarithmic term scaled so that `lmr_divisor` = 225 makes
/// it ln d · ln m / 2.25 plies.
pub fn lmr_table(params: &SearchParams) -> Vec<[i32; 64]> {
    let mut lmr = vec![[0; 64]; 64];
    for (d, row) in lmr.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let x = (d as f64).ln() * (m as f64).ln() * 10_000.0 / params.lmr_divisor.max(1) as f64;
            *r = ((params.lmr_base as f64 + x) / 100.0).floor().max(0.0) as i32;
        }
    }
    lmr
}

fn evaluate<G: Game>(pos: &G, ply: usize) -> i32 {
    pos.evaluate_at(ply).clamp(-EVAL_MAX, EVAL_MAX)
}

impl<'a, G: Game> Worker<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a Table,
        heur: &'a mut Heuristics,
        params: SearchParams,
        control: &'a Control,
        limits: &'a Limits,
        shared: &'a Shared,
        thread: usize,
        time: TimeManager,
        history: &[u64],
        root: &G,
    ) -> Self {
        let lmr = lmr_table(&params);
        if params.continuation_history {
            heur.enable_continuation();
        }
        if params.correction_history {
            heur.enable_correction(params.correction_pieces);
        }
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        path.extend_from_slice(history);
        let root_index = path.len();
        path.push(root.hash());
        Worker {
            tt,
            heur,
            params,
            control,
            limits,
            shared,
            thread,
            multipv: 1,
            currmove: None,
            time,
            nodes: 0,
            flushed: 0,
            completed: 0,
            seldepth: 0,
            aborted: false,
            path,
            stack: vec![
                Frame {
                    mv: Move::NULL,
                    null: false,
                    from_null: usize::MAX,
                    eval: EVAL_NONE,
                    key: CONT_NONE,
                    excluded: Move::NULL,
                    doubles: 0,
                };
                MAX_PLY + 2
            ],
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
            root_depth: 0,
            root_moves: Vec::new(),
            iter_best: None,
            root_index,
            stats: Stats::default(),
            nmp_min_ply: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// Sets how many principal variations the main thread searches and reports (at least 1).
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// Sets the report of each root move searched (`None`: none).
    pub fn set_currmove(&mut self, report: Option<super::CurrMove>) {
        self.currmove = report;
    }

    /// Nodes of all threads: the shared count plus this thread's not yet added.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed) + (self.nodes - self.flushed)
    }

    /// Adds this thread's new nodes to the shared count.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Relaxed);
        self.flushed = self.nodes;
    }

    /// Whether the search must end now: the stop flag, the main thread's end (helpers), the
    /// hard time limit (main thread), the node limit over all threads. Every iteration obeys
    /// them, the first one too: a search stopped before depth 1 is done still has a legal
    /// move to answer (the best root move so far, or the first one).
    #[inline]
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.flush_nodes();
            if self.control.stop.load(Relaxed)
                || self.shared.done.load(Relaxed)
                || self.depth_limit_reached_elsewhere()
            {
                self.aborted = true;
            } else if self.thread == 0 {
                self.time.pondering(self.control.pondering.load(Relaxed));
                self.aborted = self.time.hard_exceeded();
            }
        }
        if let Some(limit) = self.limits.nodes
            && self.total_nodes() >= limit
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether another thread has completed the depth limit's iteration while this one has
    /// not (with `smp_depth_by_any`): the search to that depth is done.
    fn depth_limit_reached_elsewhere(&self) -> bool {
        self.params.smp_depth_by_any
            && self.limits.depth.is_some_and(|d| {
                let done = self.shared.completed.load(Relaxed);
                done >= d.clamp(1, MAX_PLY as u32 - 1) && self.completed < done
            })
    }

    /// A static evaluation `raw` of `pos` with the correction history's correction (when on;
    /// `EVAL_NONE` stays).
    #[inline]
    fn corrected(&self, pos: &G, raw: i32) -> i32 {
        if raw == EVAL_NONE || !self.params.correction_history {
            raw
        } else {
            (raw + self
                .heur
                .correction(pos.side_to_move(), &self.correction_keys(pos)))
            .clamp(-EVAL_MAX, EVAL_MAX)
        }
    }

    /// The keys of `pos`'s correction-history entries (the pieces' only when they are used).
    #[inline]
    fn correction_keys(&self, pos: &G) -> CorrectionKeys {
        CorrectionKeys {
            structure: pos.structure_key(),
            pieces: if self.params.correction_pieces {
                pos.piece_keys()
            } else {
                [0; 2]
            },
        }
    }

    /// The continuation-history key of `mv` in `pos`, or `CONT_NONE` when that is off.
    #[inline]
    fn key_of(&self, pos: &G, mv: Move) -> usize {
        if self.params.continuation_history {
            cont_key(pos, mv)
        } else {
            CONT_NONE
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        row[ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        row[ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// Whether the current position (last on the path) is a draw by repetition: it repeats
    /// a position after the root (twofold, inside the search tree), or it occurs for the
    /// third time counting the game's history. Only positions since the last irreversible
    /// move (and since the last null move) can repeat.
    fn repeated(&self, pos: &G, ply: usize) -> bool {
        let i = self.path.len() - 1;
        let limit = (pos.reversible_plies() as usize)
            .min(self.stack[ply].from_null)
            .min(i);
        let hash = self.path[i];
        let mut earlier = 0;
        for k in (2..=limit).step_by(2) {
            if self.path[i - k] == hash {
                if i - k > self.root_index {
                    return true;
                }
                earlier += 1;
                if earlier == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Iterative deepening from `root` over the root moves `moves` (not empty: the legal moves,
    /// or those `searchmoves` allows). The main thread calls `on_info` once per completed
    /// iteration and principal variation; returns the best move found, if an iteration got that
    /// far, and the depth it comes from.
    pub fn iterate(
        &mut self,
        root: &G,
        moves: &MoveList,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<(Best, u32)> {
        self.root_moves = moves.iter().map(|&mv| RootMove { mv, nodes: 0 }).collect();
        if let Some(hit) = self.tt.probe(root.hash(), 0)
            && let Some(i) = self.root_moves.iter().position(|r| r.mv == hit.mv)
        {
            self.root_moves[..=i].rotate_right(1);
        }
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        // Helpers go on past a depth limit until the main thread is done (an idle helper
        // would waste its core and leave the table to the main thread); what they find
        // deeper than the limit is not their answer.
        let last_depth = if self.thread == 0 {
            max_depth
        } else {
            MAX_PLY as u32 - 1
        };
        // Principal variations searched: one per root move at most; helpers search one.
        let lines = if self.thread == 0 {
            self.multipv.min(self.root_moves.len())
        } else {
            1
        };
        let mut result: Option<(Best, u32)> = None;
        // The scores of the last completed iteration's lines (for their aspiration windows).
        let mut line_scores: Vec<i32> = Vec::new();
        let mut instability = 0.0f64;
        for depth in 1..=last_depth {
            if helper_skips(self.thread, depth) {
                continue;
            }
            if self.thread > 0 && self.shared.done.load(Relaxed) {
                break;
            }
            if self.depth_limit_reached_elsewhere() {
                break;
            }
            if self.params.smp_skip_done
                && depth > 1
                && depth <= self.shared.completed.load(Relaxed)
            {
                self.stats.iterations_skipped += 1;
                continue; // another thread has done it
            }
            self.root_depth = depth as i32;
            self.seldepth = 0;
            let previous = result.as_ref().map(|(b, _)| b.score);
            let mut found: Vec<Best> = Vec::with_capacity(lines);
            for line in 0..lines {
                let before = if line == 0 {
                    previous
                } else {
                    line_scores.get(line).copied()
                };
                match self.search_line(root, depth, line, before) {
                    Some(best) => found.push(best),
                    None => break, // aborted (a full window always finds a line)
                }
            }
            if self.aborted {
                if depth <= max_depth {
                    self.keep_unfinished(depth, found, &mut result, on_info);
                }
                break;
            }
            if found.len() < lines {
                break; // cannot happen with a full window
            }
            let found = self.sort_lines(found);
            for (k, best) in found.iter().enumerate() {
                self.report(depth, k + 1, best, on_info);
            }
            line_scores = found.iter().map(|b| b.score).collect();
            let best = found.into_iter().next().expect("at least one line");
            if depth > max_depth {
                continue; // a helper beyond the depth limit
            }
            self.completed = depth;
            self.shared.completed.fetch_max(depth, Relaxed);
            let changed = result.as_ref().is_some_and(|(b, _)| b.mv != best.mv);
            instability = instability / 2.0 + if changed { 1.0 } else { 0.0 };
            let trend = Trend {
                instability,
                dropped: previous.is_some_and(|p| best.score < p - 30),
                share: self.best_move_share(),
            };
            let score = best.score;
            // Later root moves by the effort they took: the lines' moves first.
            self.root_moves[lines..].sort_by_key(|r| std::cmp::Reverse(r.nodes));
            for r in &mut self.root_moves {
                r.nodes = 0;
            }
            result = Some((best, depth));
            if self.iteration_ends_search(moves.len(), depth, score, trend) {
                break;
            }
        }
        self.flush_nodes();
        result
    }

    /// Searches principal variation `line` of iteration `depth` inside aspiration windows
    /// around `before` (the line's score of the last iteration), widened until the score
    /// falls inside; the line's root move goes to its place. `None` if the search was
    /// aborted (then `iter_best` keeps what the unfinished line found).
    fn search_line(
        &mut self,
        root: &G,
        depth: u32,
        line: usize,
        before: Option<i32>,
    ) -> Option<Best> {
        self.iter_best = None;
        let mut delta = self.params.aspiration_window.max(1);
        let (mut alpha, mut beta) = match before {
            Some(s) if self.params.aspiration && depth >= 4 && s.abs() < MATE_IN_MAX => {
                ((s - delta).max(-INF), (s + delta).min(INF))
            }
            _ => (-INF, INF),
        };
        loop {
            let score = self.root(root, depth as i32, alpha, beta, line);
            if self.aborted {
                return None;
            }
            if let Some(best) = &self.iter_best {
                let mv = best.mv;
                let i = self
                    .root_moves
                    .iter()
                    .position(|r| r.mv == mv)
                    .unwrap_or(line);
                self.root_moves[line..=i].rotate_right(1);
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                return self.iter_best.take();
            }
            delta += delta;
            if delta > 1000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }

    /// After an aborted iteration `depth`: its complete lines are reported and the first one
    /// is the answer; with none complete, the unfinished first line counts if it found
    /// another move than the last iteration.
    fn keep_unfinished(
        &mut self,
        depth: u32,
        mut found: Vec<Best>,
        result: &mut Option<(Best, u32)>,
        on_info: &mut dyn FnMut(&Info),
    ) {
        if found.is_empty() {
            if let Some(best) = self.iter_best.take()
                && result.as_ref().is_none_or(|(b, _)| b.mv != best.mv)
            {
                self.report(depth, 1, &best, on_info);
                *result = Some((best, depth));
            }
        } else {
            for (k, best) in found.iter().enumerate() {
                self.report(depth, k + 1, best, on_info);
            }
            *result = Some((found.swap_remove(0), depth));
        }
    }

    /// The lines of an iteration by score, best first (a later line may score above an
    /// earlier one when the search is unstable); the root moves follow their lines.
    fn sort_lines(&mut self, found: Vec<Best>) -> Vec<Best> {
        let lines = found.len();
        if lines <= 1 {
            return found;
        }
        let mut order: Vec<usize> = (0..lines).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(found[k].score));
        let heads: Vec<RootMove> = order.iter().map(|&k| self.root_moves[k]).collect();
        self.root_moves[..lines].copy_from_slice(&heads);
        let mut slots: Vec<Option<Best>> = found.into_iter().map(Some).collect();
        order.iter().filter_map(|&k| slots[k].take()).collect()
    }

    /// The share of the last iteration's nodes that the best root move took (1 when none
    /// were counted).
    fn best_move_share(&self) -> f64 {
        let total: u64 = self.root_moves.iter().map(|r| r.nodes).sum();
        if total == 0 {
            1.0
        } else {
            self.root_moves[0].nodes as f64 / total as f64
        }
    }

    /// Whether the search ends after a completed iteration `depth` whose best score is
    /// `score`: stopped, out of nodes, `go mate` satisfied, or (main thread, timed search)
    /// a single legal move, a mate seen through, or the soft time limit scaled by the
    /// iterations' [`Trend`].
    fn iteration_ends_search(
        &mut self,
        root_moves: usize,
        depth: u32,
        score: i32,
        trend: Trend,
    ) -> bool {
        if self.control.stop.load(Relaxed)
            || self.limits.nodes.is_some_and(|n| self.total_nodes() >= n)
        {
            return true;
        }
        // `go mate n`: a mate in n moves or fewer ends the search.
        if let Some(n) = self.limits.mate
            && score >= MATE_IN_MAX
            && MATE - score <= 2 * n as i32
        {
            return true;
        }
        if self.thread > 0 {
            return false; // the main thread keeps the clock
        }
        self.time.pondering(self.control.pondering.load(Relaxed));
        if !self.time.is_timed() {
            return false;
        }
        let mate_plies = MATE - score.abs();
        if root_moves == 1 || (score.abs() >= MATE_IN_MAX && depth as i32 >= mate_plies) {
            return true;
        }
        let scale = trend.scale(self.params.time_node_share);
        self.time
            .soft_exceeded(scale * f64::from(self.params.time_soft_percent) / 100.0)
    }

    fn report(&self, depth: u32, multipv: usize, best: &Best, on_info: &mut dyn FnMut(&Info)) {
        on_info(&Info {
            depth,
            seldepth: self.seldepth.max(1) as u32,
            multipv: multipv as u32,
            score: Score::from_value(best.score),
            nodes: self.total_nodes(),
            time: self.time.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.shared.tbhits.load(Relaxed),
            pv: best.pv.clone(),
            note: None,
        });
    }

    /// Searches the root moves from the `first` on (the earlier ones belong to earlier
    /// principal variations); the best one that raised alpha goes to `iter_best`.
    fn root(&mut self, root: &G, depth: i32, mut alpha: i32, beta: i32, first: usize) -> i32 {
        self.nodes += 1;
        self.stats.main_nodes += 1;
        self.pv_len[0] = 0;
        let mut best = -INF;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if let Some(report) = &self.currmove
                && self.time.elapsed() >= CURRMOVE_AFTER
            {
                report(depth as u32, mv, i + 1);
            }
            let child = root.play(mv);
            let before = self.nodes;
            self.stack[1] = Frame {
                mv,
                null: false,
                from_null: usize::MAX,
                eval: EVAL_NONE,
                key: self.key_of(root, mv),
                excluded: Move::NULL,
                doubles: 0,
            };
            self.path.push(child.hash());
            let score = if i == first {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha, false)
            } else {
                let s = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha, true);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha, false)
                } else {
                    s
                }
            };
            self.path.pop();
            if self.aborted {
                return best;
            }
            self.root_moves[i].nodes += self.nodes - before;
            best = best.max(score);
            if score > alpha {
                self.update_pv(0, mv);
                self.iter_best = Some(Best {
                    mv,
                    score,
                    pv: self.pv[0][..self.pv_len[0]].to_vec(),
                });
                if score >= beta {
                    break;
                }
                alpha = score;
            }
        }
        best
    }

    /// Quiescence: noisy moves only, with stand pat, until the position is quiet; in a forcing
    /// position every legal move and no stand pat (for the first `qsearch_forcing_plies`).
    fn qsearch(&mut self, pos: &G, ply: usize, qply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        let original_alpha = alpha;
        self.nodes += 1;
        self.stats.qnodes += 1;
        if self.should_abort() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply + 1);
        if pos.insufficient_material() {
            return 0;
        }
        if let Some(known) = solved_score(pos, ply) {
            self.shared.tbhits.fetch_add(1, Relaxed);
            return known;
        }
        if ply >= MAX_PLY || qply >= QSEARCH_MAX {
            return evaluate(pos, ply);
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return terminal_score(pos, ply);
        }
        let hash = pos.hash();
        let hit = if self.params.qsearch_tt {
            self.stats.tt_probes += 1;
            self.tt.probe(hash, ply)
        } else {
            None
        };
        self.stats.tt_hits += hit.is_some() as u64;
        if beta - alpha == 1
            && let Some(h) = hit
            && match h.bound {
                Bound::Exact => true,
                Bound::Lower => h.score >= beta,
                Bound::Upper => h.score <= alpha,
            }
        {
            self.stats.tt_cuts += 1;
            return h.score;
        }
        let forcing = qply < self.params.qsearch_forcing_plies && pos.forcing();
        self.stats.qforcing_nodes += forcing as u64;
        let mut best = -INF;
        let mut eval = EVAL_NONE;
        if !forcing {
            eval = match hit {
                Some(h) if h.eval != EVAL_NONE => h.eval,
                _ => evaluate(pos, ply),
            };
            let stand_pat = self.corrected(pos, eval);
            if stand_pat >= beta {
                self.stats.stand_pat_cuts += 1;
                return stand_pat;
            }
            // Past the forced plies, a forcing position may end quiescence at its evaluation.
            if !self.params.qsearch_forced_captures && pos.forcing() {
                self.stats.forced_stand_pats += 1;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let tt_move = hit
            .map(|h| h.mv)
            .filter(|&mv| forcing || (!mv.is_null() && pos.is_noisy(mv)))
            .unwrap_or(Move::NULL);
        let hints = Hints {
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            capture_history: self.params.capture_history,
            quiet_order: false,
            earlier: [CONT_NONE; 3],
        };
        let mut buffer = Scored::new();
        let mut picker = Picker::new(pos, &moves, &hints, self.heur, !forcing, &mut buffer);
        let mut best_move = Move::NULL;
        while let Some((mv, losing)) = picker.next_move() {
            if !forcing && losing {
                continue;
            }
            let child = pos.play(mv);
            if self.params.qsearch_tt {
                self.tt.prefetch(child.hash());
            }
            let score = -self.qsearch(&child, ply + 1, qply + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.params.qsearch_tt {
            self.tt.store(hash, ply, best_move, best, eval, 0, bound);
        }
        best
    }
}
