//! Search: iterative deepening, alpha-beta, transposition table and time control, for any
//! [`Game`].
//!
//! The search knows nothing of a particular game: it asks the [`Game`] trait for legal moves,
//! what an empty move list means, which moves are noisy, whether a position is forcing, and
//! the static evaluation. What it does:
//!
//! - iterative deepening with aspiration windows; negamax alpha-beta with principal-variation
//!   search; quiescence over noisy moves with stand pat, or over every legal move without stand
//!   pat in a forcing position (check in chess, a forced capture in Räuberschach);
//! - forced game ends scored `±(MATE - plies)` and reported as [`Score::Mate`] in moves; draws by
//!   repetition (twofold inside the search, against the game history only as far back as the
//!   last irreversible move), by the move-count rule and by insufficient material;
//! - a shared transposition table ([`tt`]), move ordering ([`ordering`]): table move, noisy moves
//!   by the game's order and SEE, killers, countermove, history;
//! - null move, late-move reductions, (reverse) futility pruning and forcing/single-reply
//!   extensions, each switched by the game's [`SearchParams`] ([`crate::game::Tuning::SEARCH`]);
//! - time management for every [`Limits`] field ([`time`]), pondering and stopping via
//!   [`Control`]; the oracle a searcher is handed ([`oracle`]) answers first when it can. Only a game
//!   clock (`wtime`/`btime`) lets the search end early (a settled move, one legal move, a mate
//!   found); `movetime` is kept to its end, `depth`, `nodes` and `infinite` search on with one
//!   legal move, and only `go mate` stops at a mate. The time comes from a [`time::Clock`]
//!   ([`Searcher::set_clock`]: a fake one in the tests).
//!
//! Lazy SMP: [`Searcher::set_threads`] threads search the same root on one lock-free table
//! (atomic entries checked by key XOR data, [`tt`]). Everything a thread changes while
//! searching — its node count, the path, the ordering tables — lives in its
//! [`worker::Worker`]. The main thread (0) keeps the clock, obeys every limit and reports;
//! helpers skip some depths ([`worker::helper_skips`]) and stop when the main thread is done.
//! Two switches, off by default, follow the depth other threads completed (shared in
//! [`worker::Shared`]): `smp_depth_by_any` ends a depth-limited search when any thread has
//! completed the limit, `smp_skip_done` makes a thread skip iterations another has completed.
//! Reported node counts are those of all threads. The best move is that of the thread with
//! the deepest completed iteration (the main thread on a tie). With one thread a search is
//! deterministic (`bench`).
//!
//! MultiPV ([`Searcher::set_multipv`]): the main thread searches the best move, then the best
//! of the others, and so on, each line a full search of the remaining root moves; lines are
//! reported best first with [`Info::multipv`]. `searchmoves` ([`Limits::searchmoves`])
//! restricts the root moves; `go mate n` ([`Limits::mate`]) ends the search at a mate in n
//! moves or fewer.
//!
//! Strength levels ([`Searcher::set_strength`], [`strength`]): a search cut at the level's node
//! budget with four principal variations, and a weighted random choice among the lines near
//! the best.
//!
//! With `infinite` set, or while `pondering`, a search that runs out of depth waits for `stop`
//! (or, pondering, for `ponderhit`) before it returns, so a protocol may print `bestmove` as
//! soon as [`Searcher::search`] returns.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Move, MoveList};
use crate::game::Game;

pub mod oracle;
pub mod ordering;
pub use crate::search_params as params;
pub mod stats;
pub mod strength;
pub mod time;
pub mod tt;
pub mod worker;

#[cfg(test)]
mod tests;

pub use params::SearchParams;

pub use params::MATE;
/// Scores at least this high (or this low, negated) are forced game ends.
pub const MATE_IN_MAX: i32 = MATE - 1000;
/// The deepest ply the search reaches (iterations go to `MAX_PLY - 1`).
pub const MAX_PLY: usize = 128;

/// What limits a search (UCI `go` / XBoard `level st sd time otim`).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Remaining clock time of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increment per move of White and Black.
    pub inc: [Duration; 2],
    pub movestogo: Option<u32>,
    /// Search until stopped (UCI `go infinite`, XBoard `analyze`).
    pub infinite: bool,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
    /// Only these root moves are searched (UCI `go searchmoves`); empty: every legal move.
    /// Moves that are not legal are ignored; if none is legal, every legal move is searched.
    pub searchmoves: Vec<Move>,
    /// Stop as soon as a mate in this many moves or fewer is found (UCI `go mate`); the
    /// other limits still hold, and without them the search goes on until `stop`.
    pub mate: Option<u32>,
    /// Endgame tablebase probing ([`crate::game::Tablebases::TABLEBASES`]); off by default.
    pub tablebase: TbConfig,
    /// The share of the move's time, in percent, the game's solver ([`oracle`]) may take
    /// before the search (UCI option `Solver Share`); `None`: the game's
    /// [`crate::game::EndgameTables::SOLVER_SHARE`], 0: the solver is not asked.
    pub solver_share: Option<u32>,
    /// The session's own game settings (network, evaluation switch, endgame tables' limit):
    /// the search and its helper threads enter them ([`crate::game::Dialect::enter`]) before
    /// their first evaluation. Empty (the default): the process's.
    pub game: crate::engine_option::GameSettings,
}

/// Makes the session's game settings of `limits`, if any, this thread's.
fn enter_settings<G: Game>(limits: &Limits) {
    if limits.game.is_set() {
        G::enter(&limits.game);
    }
}

/// The largest `Solver Share`.
pub const MAX_SOLVER_SHARE: u32 = 50;

/// How the search uses the game's endgame tablebases (UCI `Syzygy…` options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TbConfig {
    /// Probe positions with at most this many pieces (0: no probing).
    pub max_pieces: u32,
    /// Probe inside the search only at this remaining depth or more (the root always).
    pub probe_depth: u32,
    /// Whether wins the move-count rule spoils count as draws.
    pub rule50: bool,
}

/// Tablebase wins are scored `TB_WIN - plies`: below every mate, above every evaluation.
pub const TB_WIN: i32 = MATE_IN_MAX - MAX_PLY as i32 - 1;

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible and return the best move found. Shared (`Arc`) so that a
    /// searcher with a flag of its own (the N-seat search) can watch this one.
    pub stop: Arc<AtomicBool>,
    /// Pondering: ignore the clock until `ponderhit` clears this.
    pub pondering: AtomicBool,
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Forced game end in this many moves: positive the side to move wins, negative it loses.
    Mate(i32),
}

impl Score {
    /// The protocol score of a search score: a game end in n plies (`±(MATE - n)`) is mate in
    /// (n + 1) / 2 moves, negative when the side to move loses (Stockfish's convention; a loss
    /// in an odd number of plies, possible where having no move wins, counts its last move).
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_IN_MAX {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_IN_MAX {
            Score::Mate(-((MATE + value + 1) / 2))
        } else {
            Score::Cp(value)
        }
    }
}

/// One iteration's report.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// Which principal variation this is, 1 the best (MultiPV); always 1 with one line.
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads together.
    pub tbhits: u64,
    pub pv: Vec<Move>,
    /// A line for the user that comes with this report (UCI `info string …`, XBoard `# …`):
    /// which certificate a certified move comes from ([`crate::game::EndgameTables::certified`]).
    pub note: Option<String>,
}

/// The report of a root move the main thread starts: iteration depth, the move and its number
/// (1 for the first) in this iteration's order (UCI `info depth D currmove M currmovenumber N`).
pub type CurrMove = std::sync::Arc<dyn Fn(u32, Move, usize) + Send + Sync>;

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// A legal move; `Move::NULL` only when the root has no legal move.
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// A searcher for one game, owning its transposition table and ordering tables.
pub struct Searcher<G: Game> {
    tt: tt::Table,
    /// The ordering tables of each thread (the main thread's first).
    heuristics: Vec<ordering::Heuristics>,
    params: SearchParams,
    use_solver: bool,
    multipv: usize,
    oracle: Option<oracle::Oracle<G>>,
    /// What the mechanisms of the last search did, all threads together.
    last_stats: stats::Stats,
    /// Where searches read the time (the real clock unless a test sets a fake one).
    clock: time::Clock,
    /// A strength level below full strength ([`strength`]), if one is set.
    strength: Option<strength::Strength>,
    /// The report of each root move the main thread starts after a while, if one is set.
    currmove: Option<CurrMove>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: tt::Table::new(hash_mb),
            heuristics: vec![ordering::Heuristics::default()],
            params: G::SEARCH.with_startup_overrides(),
            use_solver: true,
            multipv: 1,
            oracle: None,
            last_stats: stats::Stats::default(),
            clock: time::Clock::real(),
            strength: None,
            currmove: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Reads the time from `clock` from the next search on (a fake clock makes time limits
    /// testable without timing anything).
    pub fn set_clock(&mut self, clock: time::Clock) {
        self.clock = clock;
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, hash_mb: usize) {
        self.tt.resize(hash_mb);
    }

    /// The transposition table's size in bytes (less than asked if memory was short).
    pub fn hash_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.heuristics {
            h.clear();
        }
    }

    /// The number of search threads (at least 1; the default).
    pub fn threads(&self) -> usize {
        self.heuristics.len()
    }

    /// Sets the number of search threads (at least 1). Any number is accepted: threads beyond
    /// the processor count share the processors (the protocols cap the option).
    pub fn set_threads(&mut self, threads: usize) {
        self.heuristics
            .resize_with(threads.max(1), ordering::Heuristics::default);
    }

    /// The number of principal variations searched and reported (MultiPV, at least 1).
    /// Reports each root move the main thread starts once a search is older than
    /// [`worker::CURRMOVE_AFTER`] (`None`: no reports).
    pub fn set_currmove_report(&mut self, report: Option<CurrMove>) {
        self.currmove = report;
    }

    /// Plays at `strength` from the next search on (`None`: full strength).
    pub fn set_strength(&mut self, strength: Option<strength::Strength>) {
        self.strength = strength;
    }

    pub fn multipv(&self) -> usize {
        self.multipv
    }

    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// The pruning and extension switches in use (initially the game's [`crate::game::Tuning::SEARCH`]).
    pub fn params(&self) -> SearchParams {
        self.params
    }

    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Whether the oracle ([`Searcher::set_oracle`]) is asked first (default on; off for
    /// benchmarks and for testing the search itself).
    pub fn set_use_solver(&mut self, on: bool) {
        self.use_solver = on;
    }

    /// What the mechanisms of the last search did (nodes by kind, table hits, reductions
    /// and prunings by reason), all threads together.
    pub fn last_stats(&self) -> stats::Stats {
        self.last_stats
    }

    /// Hands this searcher an oracle (or takes it away); a new searcher has none
    /// (`crate::games::page::builtin` gives a game's own).
    pub fn set_oracle(&mut self, oracle: Option<oracle::Oracle<G>>) {
        self.oracle = oracle;
    }

    /// Searches `root`. `history` holds the hashes of the game's earlier positions, oldest
    /// first, not including `root`, for repetition detection. `on_info` receives a report per
    /// iteration (per principal variation with MultiPV). Returns when a limit is reached or
    /// `control.stop` is set; with `limits.infinite`, or while `control.pondering`, not before
    /// `stop` (or `ponderhit`) even if the search has nothing left to do, and with `movetime`
    /// alone not before `movetime - move_overhead`. The best move is legal
    /// whenever the root has one (and one of `limits.searchmoves` when any of them is legal).
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        enter_settings::<G>(limits);
        match self.strength.take() {
            Some(mut strength) if strength.limits() => {
                let result =
                    self.search_limited(&mut strength, root, history, limits, control, on_info);
                self.strength = Some(strength);
                result
            }
            strength => {
                self.strength = strength;
                self.search_full(root, history, limits, control, on_info)
            }
        }
    }

    /// Plays at a strength level ([`strength`]): searches at most the level's nodes with
    /// the level's principal variations (those beyond the asked MultiPV are not
    /// reported) and chooses among them.
    fn search_limited(
        &mut self,
        strength: &mut strength::Strength,
        root: &G,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut plan = strength.plan();
        plan.nodes = (plan.nodes * G::LEVEL_NODES_PERCENT / 100).max(1);
        let mut limited = limits.clone();
        limited.nodes = Some(limits.nodes.map_or(plan.nodes, |n| n.min(plan.nodes)));
        let asked = self.multipv;
        self.multipv = asked.max(plan.lines);
        let mut lines = Vec::new();
        let mut result = self.search_full(root, history, &limited, control, &mut |info| {
            lines.push(info.clone());
            if info.multipv as usize <= asked {
                on_info(info);
            }
        });
        self.multipv = asked;
        if let Some((mv, line)) = strength.choose(&lines)
            && mv != result.best
        {
            result.best = mv;
            result.ponder = line.pv.get(1).copied();
            result.score = line.score;
        }
        result
    }

    /// A search at full strength.
    fn search_full(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut time = time::TimeManager::with_clock(
            limits,
            root.side_to_move(),
            control.pondering.load(Ordering::Relaxed),
            root.expected_moves_left(),
            self.clock.clone(),
        );
        self.tt.new_search();
        self.last_stats = stats::Stats::default();
        for h in &mut self.heuristics {
            h.age();
        }
        let mut moves = MoveList::new();
        root.legal_moves(&mut moves);
        let restricted = restrict(&mut moves, &limits.searchmoves);

        let result = if moves.is_empty() {
            // The game is over: nothing to search, but a score to tell.
            let score = Score::from_value(match root.terminal() {
                crate::game::Terminal::Loss => -MATE,
                crate::game::Terminal::Win => MATE,
                crate::game::Terminal::Draw => 0,
            });
            on_info(&Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                nodes: 0,
                time: time.elapsed(),
                hashfull: self.tt.hashfull(),
                tbhits: 0,
                pv: Vec::new(),
                note: None,
            });
            SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
            }
        } else if let Some(result) = (limits.depth.is_none() && limits.nodes.is_none())
            .then(|| self.certified(root, &moves, &time, on_info))
            .flatten()
        {
            result
        } else if let Some(result) = (!restricted && self.multipv == 1)
            .then(|| self.solved(root, &moves, limits, &time, control, on_info))
            .flatten()
        {
            result
        } else {
            self.run_threads(
                root,
                history,
                &moves,
                limits,
                control,
                time.clone(),
                on_info,
            )
        };

        // `go infinite` and pondering never answer before they are told to; `go movetime`
        // (no clock, depth, nodes or mate limit) not before its time, even when the answer
        // was known earlier (a solver's proof, the deepest iteration done).
        let exact = !moves.is_empty()
            && limits.movetime.is_some()
            && !time.is_timed()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none();
        loop {
            let pondering = control.pondering.load(Ordering::Relaxed);
            time.pondering(pondering);
            if control.stop.load(Ordering::Relaxed)
                || !(limits.infinite || pondering || (exact && !time.hard_exceeded()))
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        result
    }

    /// The search proper over the root moves `moves` (not empty): the main worker on this
    /// thread, the helpers on their own, all on the shared table.
    #[allow(clippy::too_many_arguments)]
    fn run_threads(
        &mut self,
        root: &G,
        history: &[u64],
        moves: &MoveList,
        limits: &Limits,
        control: &Control,
        time: time::TimeManager,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let shared = worker::Shared::default();
        let (kept, verdict) = tablebase_root(root, moves, limits, &shared);
        let moves = &kept;
        // With the root in the tables, the reported score is the tables' verdict (as
        // Stockfish's): the search below may see only an evaluation of a won ending.
        let rule50 = limits.tablebase.rule50;
        // The last first line reported: repeated at the end with the final count when the
        // threads searched on after it (an unfinished iteration, helpers finishing), so that
        // the last `info` a GUI sees has the search's exact nodes and time.
        let last_line: std::cell::RefCell<Option<Info>> = std::cell::RefCell::new(None);
        let on_info = &mut |info: &Info| {
            if info.multipv == 1 {
                *last_line.borrow_mut() = Some(info.clone());
            }
            match verdict {
                Some(v) => on_info(&Info {
                    score: tb_root_score(v, rule50, info.score),
                    ..info.clone()
                }),
                None => on_info(info),
            }
        };
        let tt = &self.tt;
        let params = self.params;
        let (main_heuristics, helper_heuristics) = self.heuristics.split_at_mut(1);
        let mut worker = worker::Worker::new(
            tt,
            &mut main_heuristics[0],
            params,
            control,
            limits,
            &shared,
            0,
            time.clone(),
            history,
            root,
        );
        worker.set_multipv(self.multipv);
        worker.set_currmove(self.currmove.clone());
        let (found, helpers_found) = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            for (i, heur) in helper_heuristics.iter_mut().enumerate() {
                let (shared, time) = (&shared, time.clone());
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {}", i + 1))
                    .spawn_scoped(scope, move || {
                        enter_settings::<G>(limits);
                        let mut helper = worker::Worker::new(
                            tt,
                            heur,
                            params,
                            control,
                            limits,
                            shared,
                            i + 1,
                            time,
                            history,
                            root,
                        );
                        let found = helper.iterate(root, moves, &mut |_| {});
                        (found.map(|f| (f, helper.completed)), helper.stats)
                    });
                match spawned {
                    Ok(handle) => helpers.push(handle),
                    Err(e) => {
                        log::warn!("cannot start search helper {}: {e}", i + 1);
                        break;
                    }
                }
            }
            let found = if control.stop.load(Ordering::Relaxed) {
                None
            } else {
                worker.iterate(root, moves, on_info)
            };
            shared.done.store(true, Ordering::Relaxed);
            (found, join_helpers(helpers))
        });
        let (helpers_found, helper_stats) = helpers_found;
        self.last_stats = worker.stats;
        self.last_stats.add(&helper_stats);
        worker.flush_nodes();
        let nodes = shared.nodes.load(Ordering::Relaxed);
        // The deepest completed iteration of any thread gives the move (the main thread's
        // with MultiPV, whose lines it alone reported).
        let main_completed = worker.completed;
        let mut found = found.map(|f| (f, main_completed));
        if self.multipv == 1 {
            found = deepest(found, helpers_found);
        }
        // Read the clock only for a report that is made (a fake clock counts the readings).
        let now = || self.report_at(nodes, &time, &shared);
        let last = last_line.borrow_mut().take();
        Self::report_last(&found, main_completed, last, nodes, &now, on_info);
        match found {
            Some(((best, depth), _)) => SearchResult {
                best: best.mv,
                ponder: best.pv.get(1).copied(),
                score: verdict.map_or(Score::from_value(best.score), |v| {
                    tb_root_score(v, rule50, Score::from_value(best.score))
                }),
                depth,
                nodes,
            },
            None => self.unfinished(root, moves, verdict.map(|v| (v, rule50)), now(), on_info),
        }
    }

    /// The last `info` of a search that found a move, so that it shows the move played and
    /// the search's final count: a helper's line when it completed a deeper iteration than
    /// the main thread (`main_completed`), else the main thread's `last` line again with
    /// `now`'s nodes, time, hashfull and tbhits if the threads searched on after it.
    fn report_last(
        found: &Option<((worker::Best, u32), u32)>,
        main_completed: u32,
        last: Option<Info>,
        nodes: u64,
        now: &dyn Fn() -> Info,
        on_info: &mut dyn FnMut(&Info),
    ) {
        let Some(((best, depth), completed)) = found else {
            return;
        };
        if *completed > main_completed {
            on_info(&Info {
                depth: *depth,
                seldepth: *depth,
                score: Score::from_value(best.score),
                pv: best.pv.clone(),
                ..now()
            });
        } else if let Some(line) = last
            && line.nodes != nodes
        {
            let now = now();
            on_info(&Info {
                nodes,
                time: now.time,
                hashfull: now.hashfull,
                tbhits: now.tbhits,
                ..line
            });
        }
    }

    /// A depth-0 report at this moment: the nodes, the time, the table's fill and the
    /// tablebase hits; the caller fills in the score and the line.
    fn report_at(&self, nodes: u64, time: &time::TimeManager, shared: &worker::Shared) -> Info {
        Info {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::Cp(0),
            nodes,
            time: time.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: shared.tbhits.load(Ordering::Relaxed),
            pv: Vec::new(),
            note: None,
        }
    }

    /// The result of a search stopped before depth 1 was done: the table's move or the first
    /// one, with the static evaluation (or the tables' verdict, with its rule50 flag), reported
    /// as a depth-0 `report`.
    fn unfinished(
        &self,
        root: &G,
        moves: &MoveList,
        verdict: Option<(i32, bool)>,
        report: Info,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let best = self
            .tt
            .probe(root.hash(), 0)
            .map(|hit| hit.mv)
            .filter(|mv| moves.contains(mv))
            .unwrap_or(moves[0]);
        let score = Score::Cp(root.evaluate());
        let score = verdict.map_or(score, |(v, rule50)| tb_root_score(v, rule50, score));
        let nodes = report.nodes;
        on_info(&Info {
            score,
            pv: vec![best],
            ..report
        });
        SearchResult {
            best,
            ponder: None,
            score,
            depth: 0,
            nodes,
        }
    }

    /// The move of a checked certificate the game has for `root`
    /// ([`crate::game::EndgameTables::certified`]), played at once and reported with the
    /// certificate's note; `None` when none covers it or its move is not among `moves` (a
    /// `searchmoves` list without it). Searches limited by depth or nodes do not ask (`bench`
    /// and `go depth N` search).
    fn certified(
        &self,
        root: &G,
        moves: &MoveList,
        time: &time::TimeManager,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let certified = root.certified()?;
        if !moves.contains(&certified.mv) {
            return None;
        }
        let (mv, value) = (certified.mv, certified.value);
        Some(self.answer_known(mv, value, Some(certified.note), time, on_info))
    }

    /// A move whose value is known without a search (a certificate's, the oracle's): one
    /// report of depth 1 with `note`, and the result.
    fn answer_known(
        &self,
        mv: Move,
        value: i32,
        note: Option<String>,
        time: &time::TimeManager,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let score = Score::from_value(value);
        on_info(&Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score,
            nodes: 1,
            time: time.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: 0,
            pv: vec![mv],
            note,
        });
        SearchResult {
            best: mv,
            ponder: None,
            score,
            depth: 1,
            nodes: 1,
        }
    }

    /// The oracle's perfect answer, if it has one within a fraction of the time. A search
    /// limited by depth or nodes never asks (the solver must not delay `go depth N`), and the
    /// oracle gives up when the search is stopped.
    fn solved(
        &self,
        root: &G,
        moves: &MoveList,
        limits: &Limits,
        time: &time::TimeManager,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let share = limits.solver_share.unwrap_or(G::SOLVER_SHARE);
        if !self.use_solver || share == 0 || limits.depth.is_some() || limits.nodes.is_some() {
            return None;
        }
        let budget = time.solver_budget(share);
        let (mv, value) = (self.oracle.as_ref()?)(root, budget, &control.stop)?;
        if !moves.contains(&mv) {
            log::warn!("the solver's move {mv} is not legal here; searching instead");
            return None;
        }
        Some(self.answer_known(mv, value, None, time, on_info))
    }
}

/// The root moves that keep the tablebases' verdict (DTZ at the root, [`crate::game::Tablebases::tb_root_moves`])
/// and that verdict (as [`crate::game::Tablebases::tb_wdl`]), or all of `moves` and `None` when the tables cannot
/// answer; an answer counts in `shared.tbhits`.
/// What the helper threads found (their finished iterations) and their statistics added up;
/// a helper that panicked is logged and left out.
#[allow(clippy::type_complexity)]
fn join_helpers(
    helpers: Vec<
        std::thread::ScopedJoinHandle<'_, (Option<((worker::Best, u32), u32)>, stats::Stats)>,
    >,
) -> (Vec<((worker::Best, u32), u32)>, stats::Stats) {
    let mut helper_stats = stats::Stats::default();
    let helpers_found: Vec<_> = helpers
        .into_iter()
        .filter_map(|h| match h.join() {
            Ok((found, stats)) => {
                helper_stats.add(&stats);
                found
            }
            Err(_) => {
                log::error!("a search helper panicked");
                None
            }
        })
        .collect();
    (helpers_found, helper_stats)
}

/// The thread result with the deepest completed iteration: the main thread's `found` unless
/// a helper completed more (the first such helper on a tie).
#[allow(clippy::type_complexity)]
fn deepest(
    found: Option<((worker::Best, u32), u32)>,
    helpers: Vec<((worker::Best, u32), u32)>,
) -> Option<((worker::Best, u32), u32)> {
    let mut found = found;
    for (f, completed) in helpers {
        if found.as_ref().is_none_or(|(_, c)| completed > *c) {
            found = Some((f, completed));
        }
    }
    found
}

fn tablebase_root<G: Game>(
    root: &G,
    moves: &MoveList,
    limits: &Limits,
    shared: &worker::Shared,
) -> (MoveList, Option<i32>) {
    let tb = limits.tablebase;
    let mut kept = moves.clone();
    if tb.max_pieces > 0
        && let Some((keep, verdict)) = root.tb_root_moves(tb.max_pieces, tb.rule50)
    {
        shared.tbhits.fetch_add(1, Ordering::Relaxed);
        kept.retain(|m| keep.contains(m));
        if kept.is_empty() {
            return (moves.clone(), None);
        }
        return (kept, Some(verdict));
    }
    (kept, None)
}

/// The score to report for a root the tables decide (`verdict` as [`crate::game::Tablebases::tb_wdl`]): a mate the
/// search found stays; a win or loss is `±TB_WIN` unless the search already saw a tablebase
/// score of that sign (`TB_WIN − ply`, closer); a draw is 0, and with the 50-move rule a
/// cursed win or blessed loss ±2, as the search scores them.
fn tb_root_score(verdict: i32, rule50: bool, searched: Score) -> Score {
    let draw = rule50 as i32;
    let tb_range = TB_WIN - MAX_PLY as i32;
    match searched {
        Score::Mate(_) => searched,
        Score::Cp(v) if verdict > draw => Score::Cp(if v >= tb_range { v } else { TB_WIN }),
        Score::Cp(v) if verdict < -draw => Score::Cp(if v <= -tb_range { v } else { -TB_WIN }),
        Score::Cp(_) => Score::Cp(2 * draw * verdict),
    }
}

/// Keeps only the moves of `allowed` in `moves` (none: all), unless that leaves none (then a
/// warning). Returns whether the list was restricted.
fn restrict(moves: &mut MoveList, allowed: &[Move]) -> bool {
    if allowed.is_empty() || moves.is_empty() {
        return false;
    }
    if !moves.iter().any(|m| allowed.contains(m)) {
        log::warn!("searchmoves: none of the moves is legal; searching every move");
        return false;
    }
    let before = moves.len();
    moves.retain(|m| allowed.contains(m));
    moves.len() < before
}

/// Searches each of `G::bench_positions()` to `depth` with a cleared `hash_mb` MiB table and no
/// solver: the total node count is the search's signature (deterministic: one thread, no
/// time limit). Returns the nodes and the time taken.
pub fn bench<G: Game>(depth: u32, hash_mb: usize) -> (u64, Duration) {
    let (nodes, elapsed, _) = bench_threads::<G>(depth, hash_mb, 1);
    (nodes, elapsed)
}

/// [`bench`] with `threads` search threads: the time to depth, the nodes of all threads (with
/// more than one thread the count varies from run to run) and the search statistics.
pub fn bench_threads<G: Game>(
    depth: u32,
    hash_mb: usize,
    threads: usize,
) -> (u64, Duration, stats::Stats) {
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_use_solver(false);
    searcher.set_threads(threads);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let control = Control::default();
    let start = Instant::now();
    let mut nodes = 0;
    let mut all = stats::Stats::default();
    for pos in G::bench_positions() {
        searcher.clear();
        nodes += searcher
            .search(&pos, &[], &limits, &control, &mut |_| {})
            .nodes;
        all.add(&searcher.last_stats());
    }
    (nodes, start.elapsed(), all)
}
