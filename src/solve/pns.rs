//! Proof-number search for forced wins: depth-first proof-number search (df-pn) with a
//! transposition table, for any [`Game`].
//!
//! The solver asks one question: can `attacker` force a win from this position? A draw —
//! a repeated position, the move-count rule, insufficient material, a line longer than
//! [`MAX_LINE`] plies — counts as a failure for the attacker, so every proof the solver finds
//! is a real win; a disproof only says "no forced win for the attacker" (a draw or a loss), and
//! may also be wrong where it rests on a draw that holds on one line only (the graph-history
//! interaction; [`Options::ghi_safe`] keeps such disproofs out of the table), so it is never
//! reported as a result. [`solve`] asks the question for both sides, extracts the proof graph
//! from the table, and reports a win or loss only after [`super::proof::check`] accepted that
//! proof.
//!
//! The search is negamax-style: each node has φ (the proof number for "the side to move
//! reaches its goal" — a win for the attacker, anything but a loss for the defender) and δ (the
//! disproof number); φ(n) = min δ(child), δ(n) = Σ φ(child). New positions start at φ = 1,
//! δ = number of legal moves (the disproof of a position needs all its moves), or, with
//! [`Options::eval_init`], numbers leaning by the game's static evaluation. Thresholds follow
//! Nagai's df-pn with Pawlewicz and Lew's 1 + ε trick (ε = 1/4).
//!
//! The table is the search's memory: buckets of four, where a new position takes the slot of
//! the entry with the smallest subtree (the work below it when stored). That is the garbage
//! collection of long runs, done at every store instead of in a pass when the table is full
//! (Nagai's SmallTreeGC removes the smallest subtrees too). A run of hours writes the table to
//! disk now and then ([`Checkpoints`], [`super::checkpoint`]) and resumes from it; with
//! [`Run::parallel`] the two questions (does the side to move win, does the opponent) are
//! searched at once on two threads, each with half the table.
//!
//! Depends on [`crate::game`], [`crate::board`], [`super::proof`] and [`super::checkpoint`].

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use super::SolveError;
use super::checkpoint::{self, Identity};
use super::ghi::{Deps, LineTable, MAX_DEPS};
use super::proof::{self, Proof};
use crate::board::{Color, Move, MoveList};
use crate::game::{Game, Terminal};

/// Proof and disproof numbers saturate here ("infinite"): 64-bit numbers, so that sums over
/// the millions of leaves of a large proof never reach the cap (32-bit numbers capped at 2³⁰
/// ended attempts on Räuberschach's open first moves).
const INF: u64 = 1 << 62;
/// With [`Options::eval_init`], the most a position's evaluation adds to its initial φ or δ
/// (one per 100 centipawns).
const EVAL_STEPS: u64 = 16;
/// How many extraction calls the proof's extraction may make per position its budget lets it
/// expand (see [`prove_with`]).
const EXTRACTION_STEPS_PER_NODE: u64 = 8;
/// Lines longer than this (in plies from the root) count as draws.
pub const MAX_LINE: usize = 400;

/// What the solver found for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move forces a win.
    Win,
    /// The opponent forces a win whatever the side to move does.
    Loss,
    /// Neither side can force a win: each side's hold was collected and checked.
    Draw,
    /// Neither proven within the budget.
    Unknown,
}

/// How the solver counts and what it stores.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Weak disproof numbers (see the solver's `weak`).
    pub weak: bool,
    /// Keep disproofs that rest on a draw depending on the line above the position out of
    /// the table (the graph-history interaction; see the solver's `ghi_safe`).
    pub ghi_safe: bool,
    /// Initial numbers from the game's static evaluation (see the solver's `eval_init`).
    pub eval_init: bool,
}

impl Options {
    /// Weak disproof numbers.
    pub fn weak() -> Options {
        Options {
            weak: true,
            ..Options::default()
        }
    }
}

/// How much the solver may spend.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// The answer of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    pub verdict: Verdict,
    /// The winning move (for [`Verdict::Win`]).
    pub best: Option<Move>,
    /// The proof (for a win or a loss), already checked.
    pub proof: Option<Proof>,
    /// What the check of the proof found: its size and longest line.
    pub checked: Option<proof::Checked>,
    /// Positions the solver expanded.
    pub nodes: u64,
    pub time: Duration,
    /// Each attempt (the win for the side to move, then the win for the opponent) as it
    /// ended: how far the proof got.
    pub attempts: Vec<Attempt>,
    /// The checked holds ([`Proof::hold`]): the side that keeps the other from forcing a win,
    /// for each attempt that was disproven and whose hold was collected. Both: a draw.
    pub holds: Vec<(Proof, proof::Checked)>,
    /// What the checkpoints did (resumed from, or could not be written), for the user.
    pub notes: Vec<String>,
}

/// Where one df-pn attempt stood when it ended: the root's proof number φ (how many more
/// positions, at least, must be proven for the attacker to win; 0 = proven) and disproof
/// number δ (0 = the attacker cannot force a win), both capped at [`INFINITE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub attacker: Color,
    pub phi: u64,
    pub delta: u64,
    /// Positions expanded by this run.
    pub nodes: u64,
    /// Positions expanded by the earlier runs whose checkpoint this one resumed.
    pub earlier_nodes: u64,
    /// The root was proven, but the proof could not be collected from the table within the
    /// extraction's budget (a table too small for the search lost parts of it); φ and δ are
    /// then the root's (0 for the attacker) and the verdict stays unknown.
    pub unextracted: bool,
    /// With [`Options::ghi_safe`]: disproofs stored with the positions above them they rest
    /// on, and found again on a line holding those positions ([`super::ghi`]).
    pub line_results: (u64, u64),
    /// The searches a hold's collection made below the defender's unknown replies (0 when no
    /// hold was collected).
    pub hold_searches: u64,
}

/// The cap of proof and disproof numbers: a proven or disproven value.
pub const INFINITE: u64 = INF;

/// A table entry: the position's key, its φ and δ, and `work`, the positions expanded below
/// it when it was stored (what losing it would cost). All zero is an empty slot (φ = δ = 0
/// never occurs), so a new table is allocated zeroed.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    phi: u64,
    delta: u64,
    work: u64,
}

impl Entry {
    /// Whether the slot holds a position (φ = δ = 0 never occurs).
    fn occupied(&self) -> bool {
        (self.phi | self.delta) != 0
    }
}

/// The transposition table: buckets of four entries, the least-worked entry replaced.
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

const BUCKET: usize = 4;

impl Table {
    /// Entries of a table of at most `mb` MiB (a power of two, at least two buckets).
    fn entries_for(mb: usize) -> usize {
        let want = (mb.clamp(1, usize::MAX >> 21) << 20) / std::mem::size_of::<Entry>();
        want.next_power_of_two().max(BUCKET * 2) / 2
    }

    fn new(mb: usize) -> Table {
        let size = Table::entries_for(mb);
        Table {
            entries: vec![Entry::default(); size],
            mask: (size - 1) & !(BUCKET - 1),
        }
    }

    /// [`Table::new`] that reports an allocation the system refuses instead of aborting the
    /// process (`solve --hash 65536` asks for 40 GB). The memory comes zeroed from the
    /// allocator, so it is touched only as the table fills.
    fn try_new(mb: usize) -> Result<Table, SolveError> {
        let size = Table::entries_for(mb);
        let refused = || SolveError::Table {
            mib: (size * std::mem::size_of::<Entry>()) >> 20,
            hash: mb,
        };
        let layout = std::alloc::Layout::array::<Entry>(size).map_err(|_| refused())?;
        // SAFETY: the layout has a non-zero size (at least two buckets). An all-zero `Entry`
        // (four `u64`) is a valid one, the empty slot. The pointer comes from the global
        // allocator with exactly the layout of `size` entries, so the vector may own and free
        // it with length and capacity `size`.
        let entries = unsafe {
            let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
            if ptr.is_null() {
                return Err(refused());
            }
            Vec::from_raw_parts(ptr, size, size)
        };
        Ok(Table {
            entries,
            mask: (size - 1) & !(BUCKET - 1),
        })
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    fn get(&self, key: u64) -> Option<(u64, u64)> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && e.occupied())
            .map(|e| (e.phi, e.delta))
    }

    /// The occupied entries as (key, φ, δ, work), for a checkpoint.
    fn records(&self) -> impl Iterator<Item = [u64; 4]> + '_ {
        self.entries
            .iter()
            .filter(|e| e.occupied())
            .map(|e| [e.key, e.phi, e.delta, e.work])
    }

    fn count_occupied(&self) -> u64 {
        self.entries.iter().filter(|e| e.occupied()).count() as u64
    }

    fn put(&mut self, key: u64, phi: u64, delta: u64, work: u64) {
        let b = self.bucket(key);
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0),
        };
        bucket[slot] = Entry {
            key,
            phi,
            delta,
            work,
        };
    }
}

struct Child<G> {
    pos: G,
    phi: u64,
    delta: u64,
    /// What its value rests on (see [`Solver::deps`]).
    deps: Deps,
}

/// A progress report of a long solve: whose win the attempt looks for, positions it expanded
/// so far, and the root's (φ, δ) for its side to move as the search last saw them. Called
/// from both threads of a [`Run::parallel`] solve.
pub type Tick<'a> = dyn Fn(Color, u64, (u64, u64)) + Sync + 'a;

/// Where and how often a solve writes its checkpoints: one file per attempt in `dir`
/// (`white.dfpn`, `black.dfpn`: whose win it looks for), rewritten every `every` and when the
/// attempt ends (solved, out of budget or stopped). An attempt whose file is there resumes
/// from it.
#[derive(Clone, Debug)]
pub struct Checkpoints {
    pub dir: PathBuf,
    pub every: Duration,
}

/// How a solve runs, besides its budget and table.
#[derive(Clone, Default)]
pub struct Run<'a> {
    /// Gives up (verdict unknown, the figures as far as they got) as soon as this is set.
    pub stop: Option<&'a AtomicBool>,
    /// Called every [`TICK_NODES`] positions of each attempt.
    pub tick: Option<&'a Tick<'a>>,
    pub options: Options,
    /// Both attempts at once, each on its own thread with half the table and half the node
    /// budget (the time budget whole); the first proof stops the other attempt.
    pub parallel: bool,
    pub checkpoints: Option<Checkpoints>,
}

/// An attempt's checkpoint file, what it is about, and when it was last written.
struct Saver {
    file: PathBuf,
    id: Identity,
    every: Duration,
    last: Instant,
    earlier: u64,
    error: Option<checkpoint::CheckpointError>,
}

/// How often (in expanded positions) a [`Tick`] is called.
pub const TICK_NODES: u64 = 1 << 22;

/// One df-pn search for one attacker over one table.
struct Solver<'s, G: Game> {
    table: Table,
    attacker: Color,
    /// Hashes of the game's positions before the root and of the current line, oldest first.
    line: Vec<u64>,
    /// How many of `line` are the game's history (before the root).
    history_len: usize,
    /// The move-count rule ignored (while a hold is collected: a hold must not rest on it,
    /// see [`proof`]).
    no_clock: bool,
    /// Where the lines [`MAX_LINE`] limits start: the root (`history_len`), or the position a
    /// hold's collection searches again.
    line_base: usize,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// Gives up as soon as this is set (the engine's `stop`).
    stop: Option<&'s AtomicBool>,
    /// Gives up as soon as this is set too (the other attempt of a parallel solve proved
    /// its win).
    sibling: Option<&'s AtomicBool>,
    /// Writes the table to disk now and then.
    saver: Option<Saver>,
    aborted: bool,
    /// The root's (φ, δ) for its side to move: as the search at the root last saw them, and
    /// when the last [`Solver::prove`] ended.
    root_numbers: (u64, u64),
    /// The root was proven but its proof not extracted (see [`Attempt::unextracted`]).
    unextracted: bool,
    /// Called every [`TICK_NODES`] positions with the nodes so far and the root's numbers.
    tick: Option<&'s Tick<'s>>,
    /// Weak disproof numbers: δ = the largest child φ plus the other open children, instead of
    /// the sum, which counts a position reached by several lines once per line and grows
    /// exponentially in a graph full of transpositions (Ueda et al., 2008).
    weak: bool,
    /// The graph-history interaction avoided: a disproof that rests on a draw depending on
    /// the line above the position (a repetition of an ancestor, the move clock, the line's
    /// length) holds only on that line, so it is not stored in the table, where another line
    /// would take it for the position's value; one that rests on repetitions alone goes to
    /// `lines` with the positions it rests on (Kishimoto and Müller's remedy, simplified).
    ghi_safe: bool,
    /// New positions start from the game's static evaluation instead of (1, moves): a
    /// position good for its mover by e centipawns starts with δ higher by e / 100 (at most
    /// [`EVAL_STEPS`]), a bad one with φ higher, so that df-pn tries first what the
    /// evaluation likes (heuristic initialisation, as in Winands' and Saito's work on
    /// proof-number search with evaluation functions).
    eval_init: bool,
    /// What the value the last [`Solver::look`] or [`Solver::mid`] returned rests on: the
    /// positions of `line` whose repetition it counted as a draw, or the whole line.
    deps: Cell<Deps>,
    /// With `ghi_safe`, the disproofs that rest on positions above them, stored with those
    /// positions ([`super::ghi`]).
    lines: Option<LineTable>,
    /// Line-dependent results stored in `lines`, and found there on a line that holds their
    /// positions.
    lines_stored: u64,
    lines_used: Cell<u64>,
    /// Extraction calls so far, and how many the extraction may make: it walks the table
    /// without expanding positions, so the node budget alone does not end it.
    steps: u64,
    max_steps: u64,
    /// A hold's unknown replies are searched in rounds of growing caps (off only to show
    /// what the caps are for, in a test).
    hold_caps: bool,
    /// The searches a hold's collection made below its unknown replies.
    hold_searches: u64,
    _game: std::marker::PhantomData<G>,
}

impl<'s, G: Game> Solver<'s, G> {
    fn new(attacker: Color, history: &[u64], table: Table) -> Self {
        Solver {
            table,
            attacker,
            line: history.to_vec(),
            history_len: history.len(),
            line_base: history.len(),
            no_clock: false,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            sibling: None,
            saver: None,
            aborted: false,
            root_numbers: (1, 1),
            unextracted: false,
            tick: None,
            weak: false,
            ghi_safe: false,
            eval_init: false,
            deps: Cell::new(Deps::default()),
            lines: None,
            lines_stored: 0,
            lines_used: Cell::new(0),
            steps: 0,
            max_steps: u64::MAX,
            hold_caps: true,
            hold_searches: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// (φ, δ) of a position that is drawn, for its side to move.
    fn draw(&self, pos: &G) -> (u64, u64) {
        if pos.side_to_move() == self.attacker {
            (INF, 0)
        } else {
            (0, INF)
        }
    }

    fn set(&mut self, options: Options) {
        self.weak = options.weak;
        self.ghi_safe = options.ghi_safe;
        self.eval_init = options.eval_init;
    }

    /// Writes the table to the checkpoint file when one is due (or `now`); a failure is
    /// kept for the report and ends the checkpoints, not the search.
    fn checkpoint(&mut self, now: bool) {
        let Some(saver) = self.saver.as_mut() else {
            return;
        };
        if saver.error.is_some() || !(now || saver.last.elapsed() >= saver.every) {
            return;
        }
        let count = self.table.count_occupied();
        let nodes = saver.earlier + self.nodes;
        if let Err(e) = checkpoint::save(&saver.file, &saver.id, nodes, count, self.table.records())
        {
            saver.error = Some(e);
        }
        saver.last = Instant::now();
    }

    /// Where the line's position hashed `key` is, among those `pos` (about to be played after
    /// the end of the line) could repeat.
    fn on_line(&self, pos: &G, key: u64) -> Option<usize> {
        let start = self.line.len() - (pos.reversible_plies() as usize).min(self.line.len());
        let last = self.line[start..].iter().rposition(|&k| k == key);
        last.map(|i| start + i)
    }

    /// Whether `pos` (about to be played after the end of the line) repeats a position; the
    /// draw then rests on that position.
    fn repeats(&self, pos: &G) -> bool {
        if !G::REPETITION {
            return false;
        }
        let at = self.on_line(pos, pos.hash());
        if let Some(i) = at {
            self.rests_on(|d| d.add(i));
        }
        at.is_some()
    }

    /// Notes what the value being looked up rests on.
    fn rests_on(&self, change: impl FnOnce(&mut Deps)) {
        let mut deps = self.deps.get();
        change(&mut deps);
        self.deps.set(deps);
    }

    /// Whether the line has reached [`MAX_LINE`] (a draw that rests on the whole line).
    fn too_long(&self) -> bool {
        let long = self.line.len() - self.line_base >= MAX_LINE;
        if long {
            self.deps.set(Deps::whole());
        }
        long
    }

    /// `pos`'s line-dependent result, if one is stored and each position it rests on is on
    /// the line (then it holds here, and rests on those positions).
    fn line_result(&self, pos: &G) -> Option<(u64, u64)> {
        let (phi, delta, on) = self.lines.as_ref()?.get(pos.hash())?;
        let mut deps = self.deps.get();
        for &key in on {
            deps.add(self.on_line(pos, key)?);
        }
        self.deps.set(deps);
        self.lines_used.set(self.lines_used.get() + 1);
        Some((phi, delta))
    }

    /// A position's numbers by the rules (game end, draws) or the tables, without searching;
    /// [`Solver::deps`] says what they rest on.
    fn look(&self, pos: &G) -> (u64, u64) {
        self.deps.set(Deps::default());
        if pos.insufficient_material() || self.repeats(pos) || self.too_long() {
            return self.draw(pos);
        }
        let clock_ran_out =
            !self.no_clock && G::DRAW_PLIES.is_some_and(|limit| pos.reversible_plies() >= limit);
        if !clock_ran_out {
            let hit = self.table.get(pos.hash());
            if let Some((phi, delta)) = hit
                && (phi == 0 || delta == 0)
            {
                return (phi, delta);
            }
            if let Some(found) = self.line_result(pos) {
                return found;
            }
            if let Some(hit) = hit {
                return hit;
            }
        }
        if let Some((value, _)) = pos.solved() {
            return match value {
                Terminal::Win => (0, INF),
                Terminal::Loss => (INF, 0),
                Terminal::Draw => self.draw(pos),
            };
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return match pos.terminal() {
                Terminal::Win => (0, INF),
                Terminal::Loss => (INF, 0),
                Terminal::Draw => self.draw(pos),
            };
        }
        if clock_ran_out {
            self.deps.set(Deps::whole());
            return self.draw(pos);
        }
        let n = moves.len() as u64;
        if self.eval_init {
            let steps = |e: i32| u64::from(e.clamp(0, 100 * EVAL_STEPS as i32) as u32 / 100);
            let e = pos.evaluate();
            return (1 + steps(-e), n + steps(e));
        }
        (1, n)
    }

    /// The df-pn step: searches `pos` (which has legal moves and is not drawn) until its φ
    /// reaches `phi_t` or its δ reaches `delta_t`, stores and returns (φ, δ).
    fn mid(&mut self, pos: &G, phi_t: u64, delta_t: u64) -> (u64, u64) {
        let start = self.nodes;
        self.nodes += 1;
        if self.nodes >= self.max_nodes || (self.nodes & 1023 == 0 && self.interrupted()) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(TICK_NODES) {
            if let Some(tick) = self.tick {
                tick(self.attacker, self.nodes, self.root_numbers);
            }
            self.checkpoint(false);
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let index = self.line.len();
        self.line.push(pos.hash());
        let at_root = self.line.len() == self.history_len + 1;
        let mut children: Vec<Child<G>> = moves
            .iter()
            .map(|&mv| {
                let next = pos.play(mv);
                let (phi, delta) = self.look(&next);
                Child {
                    pos: next,
                    phi,
                    delta,
                    deps: self.deps.get(),
                }
            })
            .collect();
        let (phi, delta) = loop {
            let (mut phi, mut delta, mut best, mut second) = (INF, 0u64, 0, INF);
            let (mut largest, mut open) = (0u64, 0u64);
            for (i, c) in children.iter().enumerate() {
                delta = delta.saturating_add(c.phi);
                largest = largest.max(c.phi);
                open += u64::from(c.phi > 0);
                if c.delta < phi {
                    second = phi;
                    phi = c.delta;
                    best = i;
                } else if c.delta < second {
                    second = c.delta;
                }
            }
            // A sum (or the weak number) stops below INF: INF means proven, and only a child
            // disproven for its mover (φ = 0 here) proves this position. Summed up to INF
            // by transpositions counted again and again, it once read as a proof one level up
            // (a false disproof there, found against the endgame tables).
            delta = if self.weak {
                largest.saturating_add(open.saturating_sub(1))
            } else {
                delta
            }
            .min(INF - 1);
            if phi == 0 {
                delta = INF;
            }
            if at_root {
                self.root_numbers = (phi, delta);
            }
            if phi >= phi_t || delta >= delta_t || self.aborted {
                break (phi, delta);
            }
            let c = &children[best];
            let child_phi_t = (delta_t - delta + c.phi).min(INF);
            let eps = second.saturating_add(second / 4).saturating_add(1).min(INF);
            let child_delta_t = phi_t.min(eps).min(INF);
            let next = c.pos.clone();
            let (p, d) = self.mid(&next, child_phi_t, child_delta_t);
            children[best].phi = p;
            children[best].delta = d;
            children[best].deps = self.deps.get();
        };
        self.line.pop();
        self.store(pos, (phi, delta), &children, index, self.nodes - start);
        (phi, delta)
    }

    /// Stores the (φ, δ) `mid` found for `pos` at `index` of the line, after `work` positions,
    /// and sets [`Solver::deps`] to what they rest on: nothing for a proof (a repetition is
    /// never the attacker's win) or for numbers not final; for a disproof, what the children
    /// that decide it rest on — all of them where the attacker is to move, the cheapest of
    /// those that refute it where the defender is — of the positions above `pos`. With
    /// `ghi_safe`, a disproof that rests on something above goes to `lines` (or nowhere, if
    /// it rests on the whole line), every other result to the table.
    fn store(
        &mut self,
        pos: &G,
        (phi, delta): (u64, u64),
        children: &[Child<G>],
        index: usize,
        work: u64,
    ) {
        let attacker_moves = pos.side_to_move() == self.attacker;
        let deps = match (
            attacker_moves,
            attacker_moves && delta == 0 || !attacker_moves && phi == 0,
        ) {
            (_, false) => Deps::default(),
            (true, true) => children
                .iter()
                .fold(Deps::default(), |d, c| d.union(c.deps)),
            (false, true) => children
                .iter()
                .filter(|c| c.delta == 0)
                .map(|c| c.deps)
                .min_by_key(Deps::weight)
                .unwrap_or_else(Deps::whole),
        }
        .above(index);
        self.deps.set(deps);
        let key = pos.hash();
        if !self.ghi_safe || deps.is_empty() {
            if !self.aborted || phi == 0 || delta == 0 {
                self.table.put(key, phi, delta, work);
            }
            return;
        }
        if let (Some(lines), Some(at)) = (self.lines.as_mut(), deps.indices()) {
            let mut on = [0u64; MAX_DEPS];
            for (h, &i) in on.iter_mut().zip(at) {
                *h = self.line[i as usize];
            }
            lines.put(key, phi, delta, work, &on[..at.len()]);
            self.lines_stored += 1;
        }
    }

    /// Whether the attacker's goal is proven at `pos` according to the table (or the rules).
    fn proven(&self, pos: &G) -> bool {
        let (phi, delta) = self.look(pos);
        if pos.side_to_move() == self.attacker {
            phi == 0
        } else {
            delta == 0
        }
    }

    /// Searches `pos` until solved or out of budget; true if the attacker's win is proven.
    fn prove(&mut self, pos: &G) -> bool {
        if self.aborted {
            return false;
        }
        let (phi, delta) = self.look(pos);
        self.root_numbers = if phi != 0 && delta != 0 {
            self.mid(pos, INF, INF)
        } else {
            (phi, delta)
        };
        self.proven(pos)
    }

    /// Whether the deadline passed or the search was stopped (looked at every 1,024 steps).
    fn interrupted(&self) -> bool {
        let set = |flag: Option<&AtomicBool>| flag.is_some_and(|s| s.load(AtomicOrdering::Relaxed));
        self.deadline.is_some_and(|d| Instant::now() >= d) || set(self.stop) || set(self.sibling)
    }

    /// The budget of a proof's or hold's collection after the search: the positions it may
    /// expand (as many again as the search and the runs a checkpoint resumed, and 100 k more,
    /// or `at_least`), eight calls for each, and half the time budget past the deadline.
    fn extraction_budget(&mut self, budget: Budget, at_least: u64) {
        let earlier = self.saver.as_ref().map_or(0, |s| s.earlier);
        let work = self.nodes.saturating_add(earlier).saturating_add(100_000);
        self.aborted = false;
        self.max_nodes = self.nodes.saturating_add(work).max(at_least);
        self.steps = 0;
        self.max_steps = self.max_nodes.saturating_mul(EXTRACTION_STEPS_PER_NODE);
        self.deadline = self
            .deadline
            .map(|d| d.max(Instant::now()) + budget.time.unwrap_or_default() / 2);
    }

    /// Counts one extraction call; false once the extraction's steps, the deadline or the
    /// stop ran out (and from then on).
    fn extraction_step(&mut self) -> bool {
        self.steps += 1;
        if self.steps > self.max_steps || (self.steps & 1023 == 0 && self.interrupted()) {
            self.max_steps = 0;
        }
        self.steps <= self.max_steps
    }

    /// Collects the proof below an attacker-to-move position into `out`; returns false if it
    /// cannot (the table lost a part and the budget ran out re-proving it, or a cycle).
    fn extract_attacker(&mut self, pos: &G, out: &mut Extracted) -> bool {
        let key = pos.hash();
        if out.done.contains_key(&key) {
            return true;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return pos.terminal() == Terminal::Win;
        }
        if self.line[self.history_len..].contains(&key) || !self.extraction_step() {
            return false;
        }
        if let Some((Terminal::Win, _)) = pos.solved() {
            // A won position of the game's tables: the moves that hurry first, so that the
            // proof follows the shortest win down to the game's end.
            moves.sort_by_key(|&mv| match pos.play(mv).solved() {
                Some((Terminal::Loss, plies)) => plies,
                _ => u32::MAX,
            });
        }
        // First the moves the table shows proven; then, as the table may have replaced the
        // proof of the winning move's position (small proofs go first) while keeping this
        // position's, each move proven again in turn.
        for attempt in 0..2 {
            self.line.push(key);
            for &mv in &moves {
                let next = pos.play(mv);
                let proven = self.proven(&next) || (attempt == 1 && self.prove(&next));
                if proven && self.extract_defender(&next, out) {
                    self.line.pop();
                    out.done.insert(key, mv);
                    out.nodes.push((pos.fen(), pos.move_text(mv)));
                    return true;
                }
            }
            self.line.pop();
        }
        false
    }

    /// Collects the proof below a defender-to-move position: every reply must be proven.
    fn extract_defender(&mut self, pos: &G, out: &mut Extracted) -> bool {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return pos.terminal() == Terminal::Loss;
        }
        if self.repeats(pos) || !self.extraction_step() {
            return false;
        }
        self.line.push(pos.hash());
        let ok = moves.iter().all(|&mv| {
            let next = pos.play(mv);
            !self.repeats(&next) && (self.proven(&next) || self.prove(&next)) && {
                self.extract_attacker(&next, out)
            }
        });
        self.line.pop();
        ok
    }

    /// Collects the defender's strategy against the attacker's win from `pos` into `out`
    /// (positions already taken close a cycle: the defender repeats); false if it cannot —
    /// no reply holds within the budget, or the line grew past [`HOLD_MAX_LINE`].
    fn hold(&mut self, pos: &G, out: &mut Holding) -> bool {
        let key = pos.hash();
        if out.taken.contains(&key) {
            return true;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let attacker_moves = pos.side_to_move() == self.attacker;
        if moves.is_empty() {
            let won = matches!(
                (pos.terminal(), attacker_moves),
                (Terminal::Win, true) | (Terminal::Loss, false)
            );
            return !won;
        }
        if pos.insufficient_material() {
            return true;
        }
        if self.line.len() - self.history_len >= HOLD_MAX_LINE || !self.extraction_step() {
            return false;
        }
        let mark = out.order.len();
        out.taken.insert(key);
        out.order.push((key, None));
        self.line.push(key);
        let ok = if attacker_moves {
            moves.iter().all(|&mv| self.hold(&pos.play(mv), out))
        } else {
            self.hold_reply(pos, &moves, out, mark)
        };
        self.line.pop();
        if !ok {
            out.roll_back(mark);
        }
        ok
    }

    /// The defender's reply at `pos` (the last of the line, taken at `mark`) that holds:
    /// first those the game's tables or this search show holding (a win by the tables, the
    /// fastest first; a draw by them; a disproof), then the others, searched in rounds
    /// ([`Solver::hold_rounds`]).
    fn hold_reply(&mut self, pos: &G, moves: &MoveList, out: &mut Holding, mark: usize) -> bool {
        // 0: back to a position taken (a cycle closes, or the strategy joins one collected);
        // 1: the attacker loses by the tables (in `plies`); 2: holds by them or the table;
        // 3: unknown; 4: the attacker wins by the tables.
        let mut replies: Vec<((u8, u32), Move)> = moves
            .iter()
            .map(|&mv| {
                let next = pos.play(mv);
                if out.taken.contains(&next.hash()) {
                    return ((0, 0), mv);
                }
                let class = match next.solved() {
                    Some((Terminal::Loss, plies)) => (1, plies),
                    Some((Terminal::Draw, _)) => (2, 0),
                    Some((Terminal::Win, _)) => (4, 0),
                    None if self.look(&next).1 == 0 && !self.deps.get().is_whole() => (2, 0),
                    None => (3, 0),
                };
                (class, mv)
            })
            .collect();
        replies.sort_by_key(|&(class, _)| class);
        let mut chosen = None;
        for &(_, mv) in replies.iter().filter(|(c, _)| c.0 <= 2) {
            if self.hold(&pos.play(mv), out) {
                chosen = Some(mv);
                break;
            }
            if self.max_steps == 0 {
                return false;
            }
        }
        if chosen.is_none() {
            let open = replies.iter().filter(|(c, _)| c.0 == 3).map(|r| r.1);
            chosen = self.hold_rounds(pos, open.collect(), out);
        }
        let Some(mv) = chosen else {
            return false;
        };
        out.order[mark].1 = Some((pos.fen(), pos.move_text(mv)));
        true
    }

    /// The first of the defender's replies `open` (at `pos`) whose position the search
    /// disproves and whose hold is then collected. Each reply is searched with a cap of
    /// positions, [`HOLD_FIRST_CAP`] and eight times more each round, so that a reply whose
    /// search would not end within the budget does not take it from one that holds at
    /// once (before, the first unknown reply was searched until the budget ran out). Each
    /// search runs from here with a fresh horizon of [`MAX_LINE`] plies; a disproof by the
    /// line's length or the clock is no hold.
    fn hold_rounds(&mut self, pos: &G, mut open: Vec<Move>, out: &mut Holding) -> Option<Move> {
        let mut cap = if self.hold_caps {
            HOLD_FIRST_CAP
        } else {
            u64::MAX
        };
        while !open.is_empty() && !self.aborted {
            let mut i = 0;
            while i < open.len() {
                let next = pos.play(open[i]);
                let base = std::mem::replace(&mut self.line_base, self.line.len());
                self.prove_capped(&next, cap);
                self.line_base = base;
                self.hold_searches += 1;
                let (phi, delta) = self.root_numbers;
                let disproven = delta == 0 && !self.deps.get().is_whole();
                if disproven && self.hold(&next, out) {
                    return Some(open[i]);
                }
                if self.max_steps == 0 || self.aborted {
                    return None;
                }
                if phi == 0 || delta == 0 {
                    // The attacker wins there, or the hold failed: not tried again.
                    open.remove(i);
                } else {
                    i += 1;
                }
            }
            cap = cap.saturating_mul(8);
        }
        None
    }

    /// [`Solver::prove`] with at most `cap` more positions (and the budget's limits): a
    /// search stopped by the cap alone leaves the solver able to search on.
    fn prove_capped(&mut self, pos: &G, cap: u64) -> bool {
        let limit = self.max_nodes;
        self.max_nodes = limit.min(self.nodes.saturating_add(cap));
        let proven = self.prove(pos);
        if self.aborted && self.nodes < limit && !self.interrupted() {
            self.aborted = false;
        }
        self.max_nodes = limit;
        proven
    }
}

/// A hold being collected (the defender's strategy against the attacker's win, see
/// [`proof`]): every position taken so far, in the order taken, each of the defender's with
/// its move once chosen — so that a branch that fails is rolled back.
#[derive(Default)]
struct Holding {
    taken: HashSet<u64>,
    order: Vec<(u64, Option<(String, String)>)>,
}

impl Holding {
    /// Forgets every position taken after the first `mark`.
    fn roll_back(&mut self, mark: usize) {
        for (key, _) in self.order.drain(mark..) {
            self.taken.remove(&key);
        }
    }
}

/// The longest line a hold's collection follows (its positions are taken depth first; it
/// runs on a thread with [`HOLD_STACK`] bytes of stack).
const HOLD_MAX_LINE: usize = 4000;
const HOLD_STACK: usize = 256 << 20;
/// The positions a hold's first round may search below each unknown reply.
const HOLD_FIRST_CAP: u64 = 1 << 14;

/// A proof being collected: the attacker's move in each position, and the node lines.
#[derive(Default)]
struct Extracted {
    done: HashMap<u64, Move>,
    nodes: Vec<(String, String)>,
}

/// What one attempt found: the checked proof and the root's winning move (when the attacker
/// is to move), if it proved the attacker's win.
type Found = Option<(Proof, proof::Checked, Option<Move>)>;

/// Tries to prove a forced win for the solver's attacker from `root`, then writes the
/// solver's checkpoint (when it keeps one): what it found, how far it got, and what went
/// wrong with the checkpoint.
fn prove_for<G: Game>(
    root: &G,
    mut solver: Solver<'_, G>,
    budget: Budget,
) -> (Found, Attempt, Option<String>) {
    let attacker = solver.attacker;
    let mut result = prove_with(&mut solver, root, budget);
    solver.checkpoint(true);
    let (mover_phi, mover_delta) = solver.root_numbers;
    let disproven = if root.side_to_move() == attacker {
        mover_delta == 0
    } else {
        mover_phi == 0
    };
    if result.is_none() && disproven && !solver.aborted {
        result = extract_hold(&mut solver, root, budget);
    }
    // The attacker's proof and disproof numbers at the root (φ, δ are the mover's).
    let (phi, delta) = match (&result, root.side_to_move() == attacker) {
        (Some((proof, ..)), _) if proof.hold => (INF, 0),
        (Some(_), _) => (0, INF),
        (None, true) => solver.root_numbers,
        (None, false) => (solver.root_numbers.1, solver.root_numbers.0),
    };
    let saver = solver.saver.take();
    let attempt = Attempt {
        attacker,
        phi,
        delta,
        nodes: solver.nodes,
        earlier_nodes: saver.as_ref().map_or(0, |s| s.earlier),
        unextracted: solver.unextracted,
        line_results: (solver.lines_stored, solver.lines_used.get()),
        hold_searches: solver.hold_searches,
    };
    (
        result,
        attempt,
        saver.and_then(|s| s.error).map(String::from),
    )
}

/// The solver of one attempt, its table resumed from the attempt's checkpoint if the run
/// keeps checkpoints and one is there (a note says so).
fn attempt_solver<'s, G: Game>(
    root: &G,
    history: &[u64],
    attacker: Color,
    table_mb: usize,
    run: &Run<'s>,
    notes: &mut Vec<String>,
) -> Result<Solver<'s, G>, SolveError> {
    // With `ghi_safe`, half the memory holds the line-dependent results (in a position
    // where nearly every disproof rests on a repetition, nearly all there is to keep).
    let ghi_mb = if run.options.ghi_safe {
        table_mb / 2
    } else {
        0
    };
    let mut solver = Solver::<G>::new(attacker, history, Table::try_new(table_mb - ghi_mb)?);
    if ghi_mb > 0 {
        let lines = LineTable::try_new(ghi_mb).ok_or(SolveError::Lines {
            mib: ghi_mb,
            hash: table_mb,
        })?;
        solver.lines = Some(lines);
    }
    solver.stop = run.stop;
    solver.tick = run.tick;
    solver.set(run.options);
    if let Some(c) = &run.checkpoints {
        let side = attacker.name().to_ascii_lowercase();
        std::fs::create_dir_all(&c.dir).map_err(|e| SolveError::CheckpointDir {
            dir: c.dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let file = checkpoint::path(&c.dir, &side);
        let id = Identity {
            variant: root.variant().to_string(),
            root: root.fen(),
            history: Identity::history_hash(history),
            attacker: side.clone(),
            weak: run.options.weak,
            ghi_safe: run.options.ghi_safe,
            eval_init: run.options.eval_init,
        };
        let table = &mut solver.table;
        let mut count = 0u64;
        let earlier = checkpoint::load(&file, &id, INF, |[key, phi, delta, work]| {
            table.put(key, phi, delta, work);
            count += 1;
        })?;
        if let Some(n) = earlier {
            notes.push(format!(
                "resumed {side}'s attempt from {}: {count} entries, {n} positions searched before",
                file.display()
            ));
        }
        solver.saver = Some(Saver {
            file,
            id,
            every: c.every,
            last: Instant::now(),
            earlier: earlier.unwrap_or(0),
            error: None,
        });
    }
    Ok(solver)
}

/// [`prove_for`] with a given solver (and its table, which may hold earlier work).
fn prove_with<G: Game>(
    solver: &mut Solver<'_, G>,
    root: &G,
    budget: Budget,
) -> Option<(Proof, proof::Checked, Option<Move>)> {
    let attacker = solver.attacker;
    solver.deadline = budget.time.map(|t| Instant::now() + t);
    solver.max_nodes = budget.nodes.unwrap_or(u64::MAX);
    let mut moves = MoveList::new();
    root.legal_moves(&mut moves);
    let proven = if moves.is_empty() {
        // The game is over: won by the attacker if it is to move and that means a win.
        matches!(
            (root.terminal(), root.side_to_move() == attacker),
            (Terminal::Win, true) | (Terminal::Loss, false)
        )
    } else {
        solver.prove(root)
    };
    if !proven {
        return None;
    }
    // The extraction proves lost parts again, which moves the root's numbers: kept here for
    // the report if it fails.
    let root_numbers = solver.root_numbers;
    let found = extract(solver, root, budget);
    if found.is_none() {
        solver.root_numbers = root_numbers;
        solver.unextracted = true;
    }
    found
}

/// The proof of the attacker's win at `root`, proven by `solver`, collected from its table
/// and checked.
fn extract<G: Game>(solver: &mut Solver<'_, G>, root: &G, budget: Budget) -> Found {
    let attacker = solver.attacker;
    // Extraction may re-prove parts the table lost: give it half the budget again at most.
    // It walks the table's proven positions without expanding any, and around cycles (lines
    // it must leave because they repeat) it may walk the same positions many times: on
    // raeuber-late-wins.txt line 67 it makes 725,484 calls for a search of 123,400 nodes
    // (5.9×). Eight calls per position it may expand, and the deadline and the stop, end it.
    // The work behind the proof counts that of the runs a checkpoint resumed: a run that
    // resumes a root proven (but not collected) before searches nothing, and with a budget
    // of its own nodes alone it could re-prove no lost part of the proof.
    solver.extraction_budget(budget, 0);
    // What the extraction proves again is checked with the whole proof; kept out of the
    // table, the same line draws were searched again and again there (1. c3 was proven
    // but not extracted within the budget).
    solver.ghi_safe = false;
    let mut out = Extracted::default();
    let ok = if root.side_to_move() == attacker {
        solver.extract_attacker(root, &mut out)
    } else {
        solver.extract_defender(root, &mut out)
    };
    if !ok {
        return None;
    }
    let proof = Proof {
        variant: root.variant().to_string(),
        root: root.fen(),
        winner: attacker,
        hold: false,
        nodes: out.nodes,
    };
    match proof::check::<G>(&proof) {
        Ok(checked) => Some((proof, checked, out.done.get(&root.hash()).copied())),
        Err(e) => {
            log::warn!("df-pn proof rejected by the checker: {e}");
            None
        }
    }
}

/// The defender's hold against the attacker's win at `root`, which `solver` disproved:
/// collected from its tables (what they lost searched again, within the extraction's budget as
/// for a proof) and checked. The search's disproofs are only its guide — one that rests on a
/// draw by the move clock or the line's length, or a repetition seen on another line, gives no
/// hold — so every hold is the checker's.
fn extract_hold<G: Game>(solver: &mut Solver<'_, G>, root: &G, budget: Budget) -> Found {
    // At least the attempt's node budget: a hold searches again what the clock or the line's
    // length decided in the search.
    solver.extraction_budget(budget, budget.nodes.unwrap_or(0));
    let root_numbers = solver.root_numbers;
    solver.no_clock = true;
    let mut out = Holding::default();
    // Depth first along lines of up to HOLD_MAX_LINE plies: on a thread of its own stack.
    let held = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(HOLD_STACK)
            .spawn_scoped(s, || solver.hold(root, &mut out))
            .map(|t| t.join().unwrap_or(false))
            .unwrap_or(false)
    });
    solver.root_numbers = root_numbers;
    if !held {
        return None;
    }
    let proof = Proof {
        variant: root.variant().to_string(),
        root: root.fen(),
        winner: solver.attacker.flip(),
        hold: true,
        nodes: out.order.into_iter().filter_map(|(_, node)| node).collect(),
    };
    match proof::check::<G>(&proof) {
        Ok(checked) => Some((proof, checked, None)),
        Err(e) => {
            log::warn!("df-pn hold rejected by the checker: {e}");
            None
        }
    }
}

/// Solves `root` for its side to move within `budget`: first whether it wins (half the
/// budget), then whether it loses (the rest). `history` holds the game's earlier positions'
/// hashes (oldest first, root excluded) so that repetitions count as draws. A win or a loss is
/// reported only with a proof that [`proof::check`] accepted. Panics when the table cannot
/// be allocated; [`try_solve`] reports that instead.
pub fn solve<G: Game>(root: &G, history: &[u64], budget: Budget, table_mb: usize) -> Solution {
    try_solve(root, history, budget, table_mb, None).unwrap_or_else(|e| panic!("{e}"))
}

/// [`solve`], with an error when the table of `table_mb` MiB cannot be allocated, and giving
/// up (verdict unknown, the attempts' figures as far as they got) as soon as `stop` is set.
pub fn try_solve<G: Game>(
    root: &G,
    history: &[u64],
    budget: Budget,
    table_mb: usize,
    stop: Option<&AtomicBool>,
) -> Result<Solution, SolveError> {
    try_solve_with(
        root,
        history,
        budget,
        table_mb,
        stop,
        None,
        Options::default(),
    )
}

/// [`try_solve`] that reports its progress to `tick` every [`TICK_NODES`] positions, with
/// the given [`Options`].
pub fn try_solve_with<G: Game>(
    root: &G,
    history: &[u64],
    budget: Budget,
    table_mb: usize,
    stop: Option<&AtomicBool>,
    tick: Option<&Tick<'_>>,
    options: Options,
) -> Result<Solution, SolveError> {
    let run = Run {
        stop,
        tick,
        options,
        ..Run::default()
    };
    try_solve_run(root, history, budget, table_mb, &run)
}

/// [`try_solve`] as `run` says: with progress reports, options, both attempts at once, and
/// checkpoints. A checkpoint that cannot be read (another question's, damaged) is an error
/// before any search; one that cannot be written is a note in the solution.
pub fn try_solve_run<G: Game>(
    root: &G,
    history: &[u64],
    budget: Budget,
    table_mb: usize,
    run: &Run<'_>,
) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let half = Budget {
        time: budget.time.map(|t| t / 2),
        nodes: budget.nodes.map(|n| n / 2),
    };
    let us = root.side_to_move();
    let mut notes = Vec::new();
    let (mine, theirs) = if run.parallel {
        let table_mb = (table_mb / 2).max(1);
        let both = Budget {
            time: budget.time,
            ..half
        };
        let solved = AtomicBool::new(false);
        let mut a = attempt_solver::<G>(root, history, us, table_mb, run, &mut notes)?;
        let mut b = attempt_solver::<G>(root, history, us.flip(), table_mb, run, &mut notes)?;
        a.sibling = Some(&solved);
        b.sibling = Some(&solved);
        let finish = |found: (Found, Attempt, Option<String>)| {
            if found.0.as_ref().is_some_and(|(proof, ..)| !proof.hold) {
                solved.store(true, AtomicOrdering::Relaxed);
            }
            found
        };
        std::thread::scope(|s| {
            let other = s.spawn(|| finish(prove_for(root, b, both)));
            let mine = finish(prove_for(root, a, both));
            let theirs = other.join().map_err(|_| SolveError::Thread)?;
            Ok::<_, SolveError>((mine, Some(theirs)))
        })?
    } else {
        let a = attempt_solver::<G>(root, history, us, table_mb, run, &mut notes)?;
        let mine = prove_for(root, a, half);
        let theirs = if mine.0.as_ref().is_none_or(|(proof, ..)| proof.hold) {
            let rest = Budget {
                time: budget.time.map(|t| t.saturating_sub(start.elapsed())),
                nodes: budget.nodes.map(|n| n.saturating_sub(mine.1.nodes)),
            };
            let b = attempt_solver::<G>(root, history, us.flip(), table_mb, run, &mut notes)?;
            Some(prove_for(root, b, rest))
        } else {
            None
        };
        (mine, theirs)
    };
    let mut solution = Solution {
        verdict: Verdict::Unknown,
        best: None,
        proof: None,
        checked: None,
        nodes: 0,
        time: Duration::ZERO,
        attempts: Vec::new(),
        holds: Vec::new(),
        notes,
    };
    for (found, attempt, error) in std::iter::once(mine).chain(theirs) {
        solution.nodes += attempt.nodes;
        solution.attempts.push(attempt);
        solution.notes.extend(error);
        if let Some((proof, checked, _)) = &found
            && proof.hold
        {
            solution.holds.push((proof.clone(), *checked));
        } else if let Some((proof, checked, best)) = found
            && solution.proof.is_none()
        {
            solution.verdict = if attempt.attacker == us {
                Verdict::Win
            } else {
                Verdict::Loss
            };
            solution.best = best.filter(|_| attempt.attacker == us);
            solution.proof = Some(proof);
            solution.checked = Some(checked);
        }
    }
    if solution.verdict == Verdict::Unknown && solution.holds.len() == 2 {
        solution.verdict = Verdict::Draw;
    }
    solution.time = start.elapsed();
    Ok(solution)
}

/// The table [`find_win`] keeps from one move to the next (with its attacker and size): a
/// game's positions two plies on are mostly in it already. Shared by every search of the
/// process; a search that finds it in use takes a fresh table.
type KeptTable = Option<(Color, usize, Table)>;
static KEPT: std::sync::Mutex<KeptTable> = std::sync::Mutex::new(None);

/// Only the win for the side to move, within `budget` (for the engine, beside alpha-beta):
/// the winning move and the proof's longest line in plies. The table is kept for the next
/// call with the same attacker and size (its entries are only hints: every proof is checked).
pub fn find_win<G: Game>(
    root: &G,
    history: &[u64],
    budget: Budget,
    table_mb: usize,
    stop: Option<&AtomicBool>,
) -> Option<(Move, u32)> {
    let attacker = root.side_to_move();
    let kept = KEPT.try_lock().ok().and_then(|mut slot| slot.take());
    let table = match kept {
        Some((a, mb, table)) if a == attacker && mb == table_mb => table,
        _ => Table::new(table_mb),
    };
    let mut solver = Solver::<G>::new(attacker, history, table);
    solver.stop = stop;
    let found = prove_with(&mut solver, root, budget);
    if let Ok(mut slot) = KEPT.try_lock() {
        *slot = Some((attacker, table_mb, solver.table));
    }
    let (_, checked, best) = found?;
    best.map(|mv| (mv, checked.plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};
    use crate::game::{Dialect, EndgameTables, OpeningBook, Tablebases, Tuning};

    /// A toy game for the graph-history interaction: four positions in a ring, 0 → 1 → 2 →
    /// 3 → 0, White to move at the even ones; nothing ever ends it but a repetition.
    #[derive(Clone, Debug)]
    struct Ring {
        at: u8,
    }

    impl Game for Ring {
        const GAME: &'static str = "ring";

        const DRAW_PLIES: Option<u32> = None;

        const REPETITION: bool = true;

        const NULL_MOVE: bool = false;

        fn variants() -> &'static [&'static str] {
            &["ring"]
        }

        fn startpos(_: &str) -> Result<Self, crate::Error> {
            Ok(Ring { at: 0 })
        }

        fn from_fen(v: &str, _: &str) -> Result<Self, crate::Error> {
            Self::startpos(v)
        }

        fn fen(&self) -> String {
            self.at.to_string()
        }

        fn variant(&self) -> &'static str {
            "ring"
        }

        fn size(&self) -> (u8, u8) {
            (4, 1)
        }

        fn side_to_move(&self) -> Color {
            if self.at.is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        }

        fn legal_moves(&self, moves: &mut MoveList) {
            moves.clear();
            let to = Square((self.at + 1) % 4);
            moves.push(Move::new(Square(self.at), to, MoveKind::Normal));
        }

        fn play(&self, mv: Move) -> Self {
            Ring { at: mv.to().0 }
        }

        fn terminal(&self) -> Terminal {
            Terminal::Draw
        }

        fn hash(&self) -> u64 {
            u64::from(self.at) + 1
        }

        fn reversible_plies(&self) -> u32 {
            1000
        }

        crate::game::toy_game_quiet_methods!();
    }

    impl Tuning for Ring {}

    impl Dialect for Ring {}

    impl OpeningBook for Ring {}

    impl Tablebases for Ring {}

    impl EndgameTables for Ring {}

    /// Searched from 0, position 3's only move repeats 0: a draw that holds on this line only
    /// (from elsewhere 3 → 0 → 1 → 2 → 3 repeats 3 instead, at another distance). The safe
    /// solver keeps 1, 2 and 3 out of the table and stores only 0, whose draw rests on nothing
    /// above it; without it all four are stored as disproven.
    #[test]
    fn a_draw_that_rests_on_the_line_above_is_not_stored() {
        let stored = |options: Options| {
            let mut solver = Solver::<Ring>::new(Color::White, &[], Table::new(1));
            solver.set(options);
            assert!(!solver.prove(&Ring { at: 0 }), "the ring is a draw");
            (0..4u8)
                .map(|at| solver.table.get(Ring { at }.hash()).is_some())
                .collect::<Vec<_>>()
        };
        let safe = Options {
            ghi_safe: true,
            ..Options::default()
        };
        assert_eq!(stored(safe), [true, false, false, false]);
        assert_eq!(stored(Options::default()), [true, true, true, true]);
    }

    /// With the table of line-dependent results, the ring's 2 (disproven on the line 0, 1, 2,
    /// where 3's only move repeats 0) is stored resting on 0: read again on a line through 0,
    /// and not on a line without it, where its numbers are a new position's.
    #[test]
    fn a_line_dependent_disproof_is_used_where_its_positions_are_on_the_line() {
        let mut solver = Solver::<Ring>::new(Color::White, &[], Table::new(1));
        solver.set(Options {
            ghi_safe: true,
            ..Options::default()
        });
        solver.lines = LineTable::try_new(1);
        assert!(!solver.prove(&Ring { at: 0 }), "the ring is a draw");
        assert_eq!(solver.lines_stored, 3, "1, 2 and 3 rest on 0");
        let two = Ring { at: 2 };
        solver.line = vec![Ring { at: 0 }.hash(), Ring { at: 1 }.hash()];
        assert_eq!(
            solver.look(&two),
            (INF, 0),
            "White (to move at 2) cannot win"
        );
        assert_eq!(solver.deps.get().indices(), Some(&[0u32][..]));
        solver.line = vec![Ring { at: 1 }.hash()];
        assert_eq!(solver.look(&two), (1, 1), "without 0 above, 2 is unknown");
        assert_eq!(solver.lines_used.get(), 1);
    }

    /// King against king is a draw (the tables say so): each side's search is disproven and
    /// each hold collected and checked, also where the move clock is about to end the game (the
    /// hold must not rest on it). Knight against knight is White's win in 8 plies: with the
    /// clock at 97 the game is drawn, both searches are disproven, but only White's hold is
    /// real — Black's, without the clock, would not hold, and none is claimed.
    #[test]
    fn a_draw_is_proven_by_two_checked_holds_that_never_rest_on_the_move_clock() {
        use crate::games::raeuber::{Raeuber, tables::Tables};
        let tables = Tables::build(2, 1);
        let solve_fen = |fen: &str| {
            let pos = Raeuber::from_fen("raeuberschach", fen).unwrap();
            (solve(&pos, &[], nodes(2_000_000), 16), pos)
        };
        for clock in [0, 97] {
            let (s, pos) = solve_fen(&format!("5k/6/6/6/6/K5 w - - {clock} 1"));
            assert_eq!(tables.probe(&pos), Some(0), "the tables' draw");
            assert_eq!(s.verdict, Verdict::Draw, "clock {clock}");
            let holders: Vec<Color> = s.holds.iter().map(|(p, _)| p.winner).collect();
            assert_eq!(holders, [Color::Black, Color::White]);
            for (hold, checked) in &s.holds {
                assert!(hold.hold);
                assert_eq!(proof::check::<Raeuber>(hold).unwrap(), *checked);
            }
        }
        let (s, _) = solve_fen("5n/6/6/6/6/N5 w - - 97 1");
        assert_eq!(s.verdict, Verdict::Unknown);
        assert_eq!(
            s.attempts.iter().map(|a| a.delta).collect::<Vec<_>>(),
            [0, 0]
        );
        let holders: Vec<Color> = s.holds.iter().map(|(p, _)| p.winner).collect();
        assert_eq!(
            holders,
            [Color::White],
            "Black's hold would rest on the clock"
        );
    }

    /// A toy game for a hold's rounds: at the root Black (to move) chooses between a binary
    /// tree [`FORK_DEPTH`] plies deep whose every leaf is a draw, and a chain of three plies
    /// to a draw. White's win is disproven in both, but in the tree only after a search of
    /// about 2^(depth / 2) positions (every White choice must be refuted).
    #[derive(Clone, Debug)]
    struct Fork {
        /// 0 the root, 1 the tree, 2 the chain.
        kind: u8,
        depth: u8,
        index: u64,
    }

    const FORK_DEPTH: u8 = 41;

    impl Fork {
        fn children(&self) -> Vec<Fork> {
            let child = |kind, index| Fork {
                kind,
                depth: self.depth + 1,
                index,
            };
            match (self.kind, self.depth) {
                (0, _) => vec![child(1, 0), child(2, 0)],
                (1, d) if d < FORK_DEPTH => {
                    vec![child(1, 2 * self.index), child(1, 2 * self.index + 1)]
                }
                (2, d) if d < 3 => vec![child(2, 0)],
                _ => Vec::new(),
            }
        }
    }

    impl Game for Fork {
        const GAME: &'static str = "fork";

        const DRAW_PLIES: Option<u32> = None;

        const REPETITION: bool = false;

        const NULL_MOVE: bool = false;

        fn variants() -> &'static [&'static str] {
            &["fork"]
        }

        fn startpos(_: &str) -> Result<Self, crate::Error> {
            Ok(Fork {
                kind: 0,
                depth: 0,
                index: 0,
            })
        }

        fn from_fen(v: &str, _: &str) -> Result<Self, crate::Error> {
            Self::startpos(v)
        }

        fn fen(&self) -> String {
            format!("{} {} {}", self.kind, self.depth, self.index)
        }

        fn variant(&self) -> &'static str {
            "fork"
        }

        fn size(&self) -> (u8, u8) {
            (2, 1)
        }

        fn side_to_move(&self) -> Color {
            if self.depth.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            }
        }

        fn legal_moves(&self, moves: &mut MoveList) {
            moves.clear();
            for (i, _) in self.children().iter().enumerate() {
                moves.push(Move::new(Square(0), Square(i as u8), MoveKind::Normal));
            }
        }

        fn play(&self, mv: Move) -> Self {
            self.children()[mv.to().0 as usize].clone()
        }

        fn terminal(&self) -> Terminal {
            Terminal::Draw
        }

        fn hash(&self) -> u64 {
            (u64::from(self.kind) << 56) + (1 << self.depth) + self.index
        }

        fn reversible_plies(&self) -> u32 {
            0
        }

        crate::game::toy_game_quiet_methods!();
    }

    impl Tuning for Fork {}

    impl Dialect for Fork {}

    impl OpeningBook for Fork {}

    impl Tablebases for Fork {}

    impl EndgameTables for Fork {}

    /// Black's hold at the fork's root: the tree is the first reply and unknown, as the
    /// chain is. In rounds the tree's search stops at the first cap, the chain's ends in a
    /// disproof, and the hold is collected by the chain; with the caps off the tree's search
    /// takes the whole budget (200 k positions) and no hold is collected.
    #[test]
    fn a_hold_searches_its_unknown_replies_in_rounds_of_growing_caps() {
        let collect = |caps: bool| {
            let mut solver = Solver::<Fork>::new(Color::White, &[], Table::new(16));
            solver.hold_caps = caps;
            solver.max_nodes = 200_000;
            let mut out = Holding::default();
            let held = solver.hold(&Fork::startpos("fork").unwrap(), &mut out);
            let root_move = out.order.first().and_then(|(_, m)| m.clone()).map(|m| m.1);
            (held, root_move, solver.hold_searches, solver.nodes)
        };
        let (held, root_move, searches, nodes) = collect(true);
        assert!(held);
        assert_eq!(root_move.as_deref(), Some("a1b1"), "the chain's move");
        assert_eq!(searches, 2, "the tree's, capped, then the chain's");
        assert!(nodes <= HOLD_FIRST_CAP + 10, "{nodes}");
        let (held, _, searches, nodes) = collect(false);
        assert!(!held, "the tree's search takes the budget");
        assert_eq!((searches, nodes), (1, 200_000));
    }

    /// Räuberschach after 1. f3 and the start (the history `solve --moves f2f3` gives).
    fn after(moves: &[&str]) -> (crate::games::raeuber::Raeuber, Vec<u64>) {
        let mut pos = crate::games::raeuber::Raeuber::startpos("raeuberschach").unwrap();
        let mut history = Vec::new();
        for text in moves {
            let mv = pos.parse_move(text).unwrap();
            history.push(pos.hash());
            pos = pos.play(mv);
        }
        (pos, history)
    }

    fn nodes(n: u64) -> Budget {
        Budget {
            time: None,
            nodes: Some(n),
        }
    }

    /// A fresh checkpoint folder in the temporary directory (`name` and the process), and a
    /// run with `options` that keeps its checkpoints there.
    fn checkpointed(name: &str, options: Options) -> (PathBuf, Run<'static>) {
        let dir = std::env::temp_dir().join(format!("kiebitz-pns-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let run = Run {
            checkpoints: Some(Checkpoints {
                dir: dir.clone(),
                every: Duration::from_secs(600),
            }),
            options,
            ..Run::default()
        };
        (dir, run)
    }

    /// After 1. f3 Black wins (…e4; 2,703 positions searched). With 2,000 positions an
    /// attempt, neither a first run nor a fresh second one proves it; a second run that
    /// resumes from the first run's checkpoint does, in the ~700 positions the first lacked.
    /// A checkpoint of another position is refused and left as it is.
    #[test]
    fn a_solve_resumes_from_its_checkpoint() {
        let (root, history) = after(&["f2f3"]);
        let (dir, run) = checkpointed("ckpt", Options::default());
        let first = try_solve_run(&root, &history, nodes(4000), 16, &run).unwrap();
        assert_eq!(first.verdict, Verdict::Unknown, "{first:?}");
        assert!(
            checkpoint::path(&dir, "black").exists() && checkpoint::path(&dir, "white").exists()
        );
        let fresh = try_solve_run(&root, &history, nodes(4000), 16, &Run::default()).unwrap();
        assert_eq!(fresh.verdict, Verdict::Unknown, "{fresh:?}");
        let second = try_solve_run(&root, &history, nodes(4000), 16, &run).unwrap();
        assert_eq!(second.verdict, Verdict::Win, "{second:?}");
        assert!(second.checked.is_some());
        let black = second.attempts[0];
        assert_eq!(black.earlier_nodes, 2000, "{second:?}");
        assert!(black.nodes < 1000, "{second:?}");
        assert!(
            second.notes[0].contains("resumed black's attempt"),
            "{second:?}"
        );
        let before = std::fs::read(checkpoint::path(&dir, "black")).unwrap();
        let (other, other_history) = after(&["a2a3"]);
        let err = try_solve_run(&other, &other_history, nodes(4000), 16, &run)
            .unwrap_err()
            .to_string();
        assert!(err.contains("another search"), "{err}");
        assert_eq!(
            std::fs::read(checkpoint::path(&dir, "black")).unwrap(),
            before
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run that resumes a root proven but not collected before (the first run's table was
    /// too small to keep the proof) collects the proof with a budget that counts the earlier
    /// runs' work: after 1. Nf3 (Black wins), with weak numbers and `ghi_safe`, a 1 MiB table
    /// proves the win and loses parts of the proof; the second run, from the checkpoint with
    /// 64 MiB, needs about 335 k positions to collect it, where a budget of its own nodes
    /// gave it 100 k (so 1. e3 f4 2. exf4 exf4 3. f3 d4 stayed "proven, not collected").
    #[test]
    fn a_resumed_proven_root_is_collected_with_the_earlier_runs_budget() {
        let (root, history) = after(&["e1f3"]);
        let options = Options {
            weak: true,
            ghi_safe: true,
            eval_init: false,
        };
        let (dir, run) = checkpointed("collect", options);
        let first = try_solve_run(&root, &history, nodes(30_000_000), 1, &run).unwrap();
        assert_eq!(first.verdict, Verdict::Unknown, "{first:?}");
        assert!(first.attempts[0].unextracted, "{first:?}");
        let second = try_solve_run(&root, &history, nodes(30_000_000), 64, &run).unwrap();
        assert_eq!(second.verdict, Verdict::Win, "{second:?}");
        assert!(second.checked.is_some());
        assert!(second.attempts[0].earlier_nodes > 0, "{second:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Both attempts at once find what one after the other finds, with checked proofs: a win
    /// for the side to move (1. f3) and a loss (1. f3 e4). Always two attempts, where one
    /// after the other stops after a proven win.
    #[test]
    fn both_attempts_at_once_agree_with_one_after_the_other() {
        let parallel = Run {
            parallel: true,
            ..Run::default()
        };
        for (moves, verdict) in [
            (&["f2f3"][..], Verdict::Win),
            (&["f2f3", "e5e4"][..], Verdict::Loss),
        ] {
            let (root, history) = after(moves);
            let one = try_solve_run(&root, &history, nodes(400_000), 16, &Run::default()).unwrap();
            let two = try_solve_run(&root, &history, nodes(400_000), 16, &parallel).unwrap();
            assert_eq!((one.verdict, two.verdict), (verdict, verdict), "{moves:?}");
            assert_eq!(one.best, two.best);
            assert!(two.checked.is_some() && two.attempts.len() == 2, "{two:?}");
            assert_eq!(one.attempts.len(), 1 + (verdict == Verdict::Loss) as usize);
        }
    }

    /// With `eval_init`, a new position's numbers lean by its evaluation, one step per 100
    /// centipawns; without, they are (1, moves).
    #[test]
    fn initial_numbers_follow_the_evaluation_when_asked() {
        use crate::games::raeuber::Raeuber;
        let fens = [
            "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1",
            "6/3K2/6/6/1r4/4b1 w - - 0 1",
            "6/3K2/6/6/1r4/4b1 b - - 0 1",
            "r1kbnr/pp1ppQ/2p3/2P3/PP1PPq/R1KBNR w - - 0 1",
        ];
        let mut leaned = 0;
        for fen in fens {
            let pos = Raeuber::from_fen("raeuberschach", fen).unwrap();
            let n = {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                moves.len() as u64
            };
            let numbers = |eval_init: bool| {
                let mut solver = Solver::<Raeuber>::new(Color::White, &[], Table::new(1));
                solver.set(Options {
                    eval_init,
                    ..Options::default()
                });
                solver.look(&pos)
            };
            let e = pos.evaluate();
            let step = |x: i32| (x.clamp(0, 1600) / 100) as u64;
            assert_eq!(numbers(false), (1, n), "{fen}");
            assert_eq!(
                numbers(true),
                (1 + step(-e), n + step(e)),
                "{fen} (eval {e})"
            );
            leaned += usize::from(e.abs() >= 100);
        }
        assert!(
            leaned >= 2,
            "the positions should include clear evaluations"
        );
    }
}
