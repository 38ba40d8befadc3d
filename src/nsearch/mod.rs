//! N-player search over an [`NGame`]: iterative deepening with a clock over five algorithms,
//! one file each, the pruning rule stated beside the code that applies it:
//!
//! - [`maxn`]: MaxN (Luckhardt & Irani 1986), no pruning;
//! - [`maxn_is`]: MaxN with immediate and shallow pruning (Sturtevant & Korf 2000);
//! - [`paranoid`]: the other seats as one coalition, alpha-beta;
//! - [`hypermax`]: Fridenfalk 2014, zero-sum vectors, cut when the α-vector sums to ≥ 0;
//! - [`brs`]: Best-Reply Search (Schadd & Winands 2011).
//!
//! [`alphabeta`] holds the alpha-beta level Paranoid and BRS share.
//!
//! Values: the game's evaluation vector is normalised so that its entries sum to [`SCALE`]
//! (shares of the game; a won game is `SCALE` for the winner, a draw splits it among the
//! seats still in). All five algorithms see the same normalised leaf vectors, so MaxN and
//! MaxN-IS can be compared exactly. [`tt`] is the transposition table; [`game`] the trait.
//!
//! Time: [`Limits::time`] is a deadline kept exactly: iterations go on until
//! `time - MOVE_OVERHEAD` (an unfinished one is dropped), with one legal move too, so
//! `go movetime T` answers between `T - MOVE_OVERHEAD` and `T`, also when the tree ends
//! sooner (the search then waits; a depth or node limit beside the time ends it at once). The time is read from a [`Clock`] (a fake one in the tests).
//! Depends on `board` (moves) and the search's [`Clock`] only; nothing here names a game.

pub mod alphabeta;
pub mod brs;
pub mod hypermax;
pub mod maxn;
pub mod maxn_is;
pub mod paranoid;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::{Move, MoveList};
/// The game trait's module under its former path (it lives in the game room, `crate::ngame`).
pub use crate::ngame as game;
pub use crate::ngame::{MAX_SEATS, NGame, Results, SeatResult, Values};
pub use crate::search::time::Clock;
use tt::Tt;

/// The sum of a normalised value vector.
pub const SCALE: i64 = 1_000_000;

/// Time kept back from [`Limits::time`] for answering (the two-seat engines' default
/// `Move Overhead`).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// The search algorithms, by their protocol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    MaxN,
    MaxNIs,
    Paranoid,
    Hypermax,
    Brs,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] = [
        Algorithm::MaxN,
        Algorithm::MaxNIs,
        Algorithm::Paranoid,
        Algorithm::Hypermax,
        Algorithm::Brs,
    ];

    /// The protocol name: `maxn`, `maxn-is`, `paranoid`, `hypermax`, `brs`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::MaxN => "maxn",
            Algorithm::MaxNIs => "maxn-is",
            Algorithm::Paranoid => "paranoid",
            Algorithm::Hypermax => "hypermax",
            Algorithm::Brs => "brs",
        }
    }

    /// The algorithm named `name` (case-insensitive), or an error listing the names.
    pub fn parse(name: &str) -> Result<Algorithm, crate::Error> {
        Algorithm::ALL
            .iter()
            .copied()
            .find(|a| a.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                crate::Error::Setting(format!(
                    "unknown Algorithm '{}': one of {}",
                    name.trim(),
                    names.join(" ")
                ))
            })
    }
}

/// What bounds one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Time for this move.
    pub time: Option<Duration>,
}

/// The time to spend on one move from a seat's clock: an even share of what is left over
/// the turns this seat can still expect, plus most of the increment, never more than half.
pub fn budget(left: Duration, inc: Duration, own_turns_left: u32) -> Duration {
    let share = left / (own_turns_left.clamp(1, 60) + 2);
    (share + inc.mul_f64(0.8)).min(left / 2)
}

/// The outcome of a search (or of one finished iteration).
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth of the last finished iteration.
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// The root's value vector (normalised shares).
    pub values: Values,
    pub best: Move,
    /// The expected line, from the transposition table.
    pub pv: Vec<Move>,
    /// Subtrees cut by pruning.
    pub cutoffs: u64,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Switches of a searcher.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Use the transposition table (ordering and, where sound, values).
    pub tt: bool,
    /// Apply the algorithm's pruning (off: the same tree walked in full, for the tests).
    pub prune: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Paranoid,
            tt: true,
            prune: true,
        }
    }
}

/// A search engine for game `G`: options, the transposition table and a stop flag another
/// thread may raise.
pub struct Searcher<G: NGame> {
    pub options: Options,
    tt: Tt,
    stop: Arc<AtomicBool>,
    clock: Clock,
    _game: std::marker::PhantomData<G>,
}

/// The state one search carries down the tree.
pub struct Ctx<'a, G: NGame> {
    pub options: Options,
    pub root_seat: usize,
    /// Seats that play the game (the zero-sum transform of Hypermax spreads over them).
    pub players: usize,
    /// Whether each seat plays the game.
    pub plays: [bool; MAX_SEATS],
    pub nodes: u64,
    pub cutoffs: u64,
    pub aborted: bool,
    tt: &'a mut Tt,
    stop: &'a AtomicBool,
    clock: Clock,
    /// When the search must end, on `clock`.
    deadline: Option<Duration>,
    node_limit: Option<u64>,
    _game: std::marker::PhantomData<G>,
}

impl<G: NGame> Ctx<'_, G> {
    /// Counts a node; every 1024 nodes looks at the clock, the node limit and the stop flag.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| self.clock.now() >= d);
            let full = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || full || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Counts the node and tells whether the search ends here: stopped, no depth left, or the
    /// game over.
    #[inline]
    pub fn is_leaf(&mut self, pos: &G, depth: u32) -> bool {
        self.tick() || depth == 0 || pos.outcome().is_some()
    }

    /// The normalised value of a leaf: the result of a finished game, else the evaluation.
    pub fn leaf(&self, pos: &G) -> Values {
        match pos.outcome() {
            Some(r) => terminal(&r),
            None => normalise(pos.evaluate()),
        }
    }

    /// The moves of `pos`, best-looking first: the table's move, then by the game's order.
    pub fn ordered(&self, pos: &G, key: u64) -> MoveList {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| -pos.order(m));
        if self.options.tt
            && let Some(m) = self.tt.best_move(key)
            && let Some(i) = moves.iter().position(|&x| x == m)
        {
            moves[..=i].rotate_right(1);
        }
        moves
    }

    pub fn tt_probe(&self, key: u64) -> Option<tt::Entry> {
        if self.options.tt {
            self.tt.probe(key)
        } else {
            None
        }
    }

    pub fn tt_store(&mut self, entry: tt::Entry) {
        if self.options.tt {
            self.tt.store(entry);
        }
    }

    /// The table's exact vector and move for `key`, if searched at least `depth` plies deep.
    pub fn tt_exact(&self, key: u64, depth: u32) -> Option<(Values, Move)> {
        self.tt_probe(key)
            .filter(|e| e.bound == tt::Bound::Exact && e.depth >= depth)
            .map(|e| (e.values, e.best))
    }

    /// Stores what a node found, unless the search was stopped (its vector is then unfinished).
    pub fn tt_record(
        &mut self,
        key: u64,
        depth: u32,
        bound: tt::Bound,
        values: Values,
        best: Move,
    ) {
        if !self.aborted {
            self.tt_store(tt::Entry {
                key,
                depth,
                bound,
                values,
                best,
            });
        }
    }
}

/// Scales `v` so that its entries sum to exactly [`SCALE`]; the rounding remainder goes to the
/// first largest entry.
pub fn normalise(v: Values) -> Values {
    let sum: i64 = v.iter().sum();
    let mut out = [0i64; MAX_SEATS];
    if sum <= 0 {
        out[0] = SCALE;
        return out;
    }
    for (o, x) in out.iter_mut().zip(v) {
        *o = x * SCALE / sum;
    }
    let rest = SCALE - out.iter().sum::<i64>();
    let top = (0..MAX_SEATS).fold(0, |b, i| if v[i] > v[b] { i } else { b });
    out[top] += rest;
    out
}

/// The value of a finished game: `SCALE` to the winner, or split evenly among the drawn seats
/// (remainder to the first of them).
pub fn terminal(r: &Results) -> Values {
    let mut v = [0i64; MAX_SEATS];
    let win = r.iter().position(|&x| x == SeatResult::Win);
    if let Some(w) = win {
        v[w] = SCALE;
        return v;
    }
    let drawn: Vec<usize> = (0..MAX_SEATS)
        .filter(|&i| r[i] == SeatResult::Draw)
        .collect();
    if drawn.is_empty() {
        return v;
    }
    for &i in &drawn {
        v[i] = SCALE / drawn.len() as i64;
    }
    v[drawn[0]] += SCALE - v.iter().sum::<i64>();
    v
}

/// Mixes a small number into a hash key (the root seat, a node kind).
#[inline]
pub fn salt(key: u64, x: u64) -> u64 {
    key ^ (x + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

impl<G: NGame> Searcher<G> {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(options: Options, hash_mb: usize) -> Searcher<G> {
        Searcher {
            options,
            tt: Tt::new(hash_mb),
            stop: Arc::new(AtomicBool::new(false)),
            clock: Clock::real(),
            _game: std::marker::PhantomData,
        }
    }

    /// Reads the time from `clock` from the next search on (tests set a fake one).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The flag that stops a running search; [`Searcher::search`] does not lower it, the caller
    /// does before a search (so that a `stop` sent at once is not lost).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Makes `flag` the one that stops the searches from now on (a job's own flag, which a
    /// protocol session's `stop` and ceiling raise).
    pub fn watch(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Resizes the transposition table.
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = Tt::new(hash_mb);
    }

    fn ctx(&mut self, pos: &G, deadline: Option<Duration>, nodes: Option<u64>) -> Ctx<'_, G> {
        Ctx {
            options: self.options,
            root_seat: pos.to_move(),
            players: (0..pos.seats()).filter(|&s| pos.plays(s)).count(),
            plays: std::array::from_fn(|s| s < pos.seats() && pos.plays(s)),
            nodes: 0,
            cutoffs: 0,
            aborted: false,
            tt: &mut self.tt,
            stop: &self.stop,
            clock: self.clock.clone(),
            deadline,
            node_limit: nodes,
            _game: std::marker::PhantomData,
        }
    }

    /// One search of exactly `depth` plies (no iterative deepening, no clock).
    pub fn search_depth(&mut self, pos: &G, depth: u32) -> Report {
        let start = self.clock.now();
        let mut ctx = self.ctx(pos, None, None);
        let (values, best) = root(&mut ctx, pos, depth);
        let (nodes, cutoffs) = (ctx.nodes, ctx.cutoffs);
        Report {
            depth,
            nodes,
            time: self.clock.now().saturating_sub(start),
            values,
            best,
            pv: vec![best],
            cutoffs,
        }
    }

    /// Iterative deepening within `limits`; `on_iteration` hears of every finished depth.
    /// Depth 1 always finishes, so a legal move comes back whenever the game is not over.
    /// A time limit is kept exactly (less [`MOVE_OVERHEAD`]), one legal move or not, and
    /// without a depth or node limit the search returns no sooner.
    pub fn search(
        &mut self,
        pos: &G,
        limits: Limits,
        mut on_iteration: impl FnMut(&Report),
    ) -> Report {
        let start = self.clock.now();
        let deadline = limits.time.map(|t| start + t.saturating_sub(MOVE_OVERHEAD));
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut best = Report {
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            values: normalise(pos.evaluate()),
            best: moves.first().copied().unwrap_or(Move::NULL),
            pv: Vec::new(),
            cutoffs: 0,
        };
        if moves.is_empty() {
            return best;
        }
        // Beyond the game's last turn the tree stops growing.
        let max_depth = limits
            .depth
            .unwrap_or(64)
            .min(pos.turns_left().unwrap_or(64))
            .max(1);
        let (mut nodes, mut cutoffs) = (0u64, 0u64);
        for depth in 1..=max_depth {
            let mut ctx = self.ctx(
                pos,
                if depth == 1 { None } else { deadline },
                if depth == 1 {
                    None
                } else {
                    limits.nodes.map(|n| n.saturating_sub(nodes).max(1))
                },
            );
            let (values, mv) = root(&mut ctx, pos, depth);
            let aborted = ctx.aborted;
            nodes += ctx.nodes;
            cutoffs += ctx.cutoffs;
            if aborted {
                break;
            }
            best = Report {
                depth,
                nodes,
                time: self.clock.now().saturating_sub(start),
                values,
                best: mv,
                pv: self.pv(pos, mv, depth),
                cutoffs,
            };
            on_iteration(&best);
            // Time ends the search at the deadline only (`movetime` is exact), one legal
            // move or many: the next iteration runs until then.
            if self.stop.load(Ordering::Relaxed) || limits.nodes.is_some_and(|n| nodes >= n) {
                break;
            }
        }
        // `movetime` alone: not before its time, even when the game's end was in sight.
        if let Some(deadline) = deadline
            && limits.depth.is_none()
            && limits.nodes.is_none()
        {
            while !self.stop.load(Ordering::Relaxed) && self.clock.now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        best.nodes = nodes;
        best.cutoffs = cutoffs;
        best.time = self.clock.now().saturating_sub(start);
        best
    }

    /// The principal line: the root's best move, then the table's moves (MaxN family).
    fn pv(&self, pos: &G, first: Move, depth: u32) -> Vec<Move> {
        let mut pv = vec![first];
        let mut p = pos.play(first);
        while (pv.len() as u32) < depth {
            let key = match self.options.algorithm {
                Algorithm::MaxN | Algorithm::MaxNIs | Algorithm::Hypermax => p.hash(),
                _ => break,
            };
            let Some(m) = self.tt.best_move(key) else {
                break;
            };
            if p.parse_move(&p.move_text(m)) != Ok(m) {
                break;
            }
            pv.push(m);
            p = p.play(m);
        }
        pv
    }
}

/// The root of one iteration under the context's algorithm.
fn root<G: NGame>(ctx: &mut Ctx<G>, pos: &G, depth: u32) -> (Values, Move) {
    match ctx.options.algorithm {
        Algorithm::MaxN => maxn::search(ctx, pos, depth),
        Algorithm::MaxNIs => {
            let (v, m, _) = maxn_is::search(ctx, pos, depth, SCALE);
            (v, m)
        }
        Algorithm::Paranoid => paranoid::root(ctx, pos, depth),
        Algorithm::Hypermax => {
            let alpha = hypermax::initial_alpha(&ctx.plays);
            let (v, m) = hypermax::search(ctx, pos, depth, alpha);
            (hypermax::untransform(ctx, &v), m)
        }
        Algorithm::Brs => brs::root(ctx, pos, depth),
    }
}

#[cfg(test)]
mod tests;
