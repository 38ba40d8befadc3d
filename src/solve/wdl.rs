//! A win/draw/loss solver for acyclic games: games where no position can repeat (every move
//! is irreversible, as a pawn's), so that every value the search stores is a proof, the search
//! needs no depth limit, and a draw is a value like the others — not the endless failure of
//! two questions it is for df-pn ([`super::pns`]).
//!
//! - [`Acyclic`]: what the solver needs of a game: a compact position, its successors with an
//!   ordering score (or its value, where that is known without search), and a key that is the
//!   same for positions of equal value (a mirror image).
//! - [`Table`] ([`super::wdl_table`]): a lock-free transposition table of exact keys with
//!   lower and upper bounds and the size of the search that proved them.
//! - [`Searcher`]: fail-soft alpha-beta over the values −1, 0, 1 (the window −1…1 is already
//!   a null window around the draw), with an enhanced transposition cut-off.
//! - [`solve_root`]: the root's first moves shared by threads over one table; an idle thread
//!   helps with a first move another one is searching (with its own move order).
//! - [`certificates`]: a win as a proof, a draw as two holds ([`super::proof`]), collected
//!   after the search from the table (re-searching what it lost) in the compact format and
//!   checked from its text ([`super::compact`]) before they are reported.
//!
//! A game opts in with [`crate::game::Game::ACYCLIC`] and a registration in
//! [`super::acyclic`]. Depends on [`crate::game`], [`super::proof`] and [`super::compact`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use super::SolveError;
use super::compact::{self, Compact};
use super::proof::Checked;
use super::wdl_checkpoint::{self, Checkpoint};
use super::wdl_table::index_of;
pub use super::wdl_table::{Bounds, Table};
use crate::board::{Color, Move, MoveList};
use crate::game::Game;

/// Most successors a position may have.
pub const MAX_CHILDREN: usize = 48;

/// Successors with their ordering score (higher is tried first).
pub type Children<P> = ArrayVec<(i32, P), MAX_CHILDREN>;

/// An acyclic game as the solver sees it.
pub trait Acyclic: Sync {
    /// A compact position.
    type Pos: Copy + Send + Sync;
    /// The successors of `p` into `out` with their ordering scores; or the value of `p` for its
    /// side to move (−1, 0, 1) where that is known without search: the game is over, or a move
    /// wins at once (then `out` may be incomplete).
    fn expand(&self, p: &Self::Pos, out: &mut Children<Self::Pos>) -> Option<i8>;
    /// A key that only positions of the same value share (a position and its mirror image);
    /// never 0, below 2^110.
    fn key(&self, p: &Self::Pos) -> u128;
}

/// Why a search stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Out of time or nodes, or told to stop.
    Budget,
    /// Another thread finished the value this one was helping with.
    Done,
}

/// One thread's alpha-beta over the shared table.
pub struct Searcher<'a, A: Acyclic> {
    game: &'a A,
    tt: &'a Table,
    /// Interior positions searched by this thread.
    pub nodes: u64,
    /// A helper varies its move order with this (0: the plain order).
    pub vary: u64,
    stop: &'a AtomicBool,
    /// Set when the value this thread helps with is known.
    done: Option<&'a AtomicBool>,
    pub stopped: Option<Stopped>,
}

impl<'a, A: Acyclic> Searcher<'a, A> {
    pub fn new(game: &'a A, tt: &'a Table, stop: &'a AtomicBool) -> Self {
        Searcher {
            game,
            tt,
            nodes: 0,
            vary: 0,
            stop,
            done: None,
            stopped: None,
        }
    }

    /// The value of `p` for its side to move, or `None` if stopped.
    pub fn value(&mut self, p: &A::Pos) -> Option<i8> {
        self.bounded(p, -1, 1)
    }

    /// Fail-soft alpha-beta with the window (`alpha`, `beta`), or `None` if stopped.
    pub fn bounded(&mut self, p: &A::Pos, alpha: i8, beta: i8) -> Option<i8> {
        self.stopped = None;
        let v = self.search(p, alpha, beta);
        self.stopped.is_none().then_some(v)
    }

    fn poll(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = Some(Stopped::Budget);
        } else if self.done.is_some_and(|d| d.load(Ordering::Relaxed)) {
            self.stopped = Some(Stopped::Done);
        }
    }

    fn search(&mut self, p: &A::Pos, mut alpha: i8, mut beta: i8) -> i8 {
        let mut kids = Children::new();
        if let Some(v) = self.game.expand(p, &mut kids) {
            return v;
        }
        self.nodes += 1;
        if self.nodes & 0x3fff == 0 {
            self.poll();
        }
        if self.stopped.is_some() {
            return 0;
        }
        let key = self.game.key(p);
        let known = self.tt.get(key);
        if let Some(b) = known {
            if b.lo >= beta || b.lo == b.hi {
                return b.lo;
            }
            if b.hi <= alpha {
                return b.hi;
            }
            alpha = alpha.max(b.lo);
            beta = beta.min(b.hi);
        }
        let (alpha0, beta0, nodes0) = (alpha, beta, self.nodes);
        kids.sort_unstable_by_key(|k| -k.0);
        if self.vary != 0 && kids.len() > 1 && (index_of(key) ^ self.vary) & 3 == 0 {
            let j = 1 + (index_of(key) >> 8) as usize % (kids.len() - 1);
            kids.swap(0, j);
        }
        let mut keys = [0u128; MAX_CHILDREN];
        for (i, (_, c)) in kids.iter().enumerate() {
            keys[i] = self.game.key(c);
            self.tt.prefetch(keys[i]);
        }
        // Enhanced transposition cut-off: a child already known bad enough for its mover.
        for &k in &keys[..kids.len()] {
            if let Some(b) = self.tt.get(k)
                && -b.hi >= beta
            {
                self.store(key, known, -b.hi, alpha0, beta0, 0);
                return -b.hi;
            }
        }
        let mut best = -1;
        for (_, c) in kids.iter() {
            let v = -self.search(c, -beta, -alpha);
            if self.stopped.is_some() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.store(key, known, best, alpha0, beta0, self.nodes - nodes0);
        best
    }

    /// Stores what a search with the window (`alpha`, `beta`) that returned `best` proved,
    /// merged with the bounds known before.
    fn store(&self, key: u128, known: Option<Bounds>, best: i8, alpha: i8, beta: i8, nodes: u64) {
        let (mut lo, mut hi) = known.map_or((-1, 1), |b| (b.lo, b.hi));
        if let Some(now) = self.tt.get(key) {
            lo = lo.max(now.lo);
            hi = hi.min(now.hi);
        }
        if best <= alpha {
            hi = hi.min(best);
        } else if best >= beta {
            lo = lo.max(best);
        } else {
            (lo, hi) = (best, best);
        }
        if lo > hi {
            // Another thread's entry and ours cannot both be right: keep what we proved.
            (lo, hi) = if best <= alpha { (-1, best) } else { (best, 1) };
        }
        let work = (64 - nodes.leading_zeros()) as u8;
        self.tt.put(key, Bounds { lo, hi, work });
    }
}

/// How to solve.
#[derive(Clone, Debug)]
pub struct Options {
    /// The table's size in MiB.
    pub hash_mb: u64,
    /// Threads (1 or more).
    pub threads: usize,
    /// Give up after this long.
    pub time: Option<Duration>,
    /// Progress lines on stderr every so many seconds (`None`: silent).
    pub progress: Option<f64>,
    /// Collect and check certificates (a win's proof, a draw's two holds).
    pub certificates: bool,
    /// The certificates' lines end where the game's lemma settles them
    /// ([`Game::lemma_value`]): far smaller, in the compact format only.
    pub lemmas: bool,
    /// Only the root's value: the first moves are tried best first by the game's order, and
    /// once one is known to give the root a value, each later one is searched only until it
    /// is shown no better (a null window), as a plain alpha-beta at the root does. False:
    /// every first move's exact value.
    pub root_only: bool,
    /// Resume from this checkpoint where it exists, and write it now and then and at the end
    /// ([`super::wdl_checkpoint`]).
    pub checkpoint: Option<Checkpoint>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 256,
            threads: 1,
            time: None,
            progress: None,
            certificates: true,
            lemmas: false,
            root_only: false,
            checkpoint: None,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The root's value for its side to move (`None`: not found within the budget).
    pub value: Option<i8>,
    /// Each first move (coordinates) and its value for the side to move at the root (`None`
    /// where it is not known exactly).
    pub first_moves: Vec<(String, Option<i8>)>,
    /// For each first move whose value is not known exactly: the most it is worth to the
    /// side to move at the root, where a root-only search showed that (else `None`).
    pub first_moves_at_most: Vec<Option<i8>>,
    pub nodes: u64,
    pub time: Duration,
    /// Entries written to the table, and its capacity.
    pub stored: u64,
    pub capacity: u64,
    /// The certificates, each checked: a proof of the winner's win, or the two holds of a draw.
    pub certificates: Vec<(Compact, Checked)>,
    /// Nodes and time spent collecting them.
    pub certificate_nodes: u64,
    pub certificate_time: Duration,
    /// Why certificates are missing, where they are.
    pub notes: Vec<String>,
}

/// What is known of a first move, for the side to move at the root: its value lies in
/// `lo..=hi` (equal: exact).
pub type RootBounds = (i8, i8);

/// Shared state of one root solve.
struct RootWork<'a, P> {
    children: &'a [P],
    next: AtomicUsize,
    values: Mutex<Vec<Option<RootBounds>>>,
    done: Vec<AtomicBool>,
    nodes: AtomicU64,
    /// With `root_only`: the best exact value a first move has given the root so far (−1 at
    /// first); later first moves are searched only to show they are no better.
    best: Option<AtomicI8>,
}

/// Solves every position of `children` (the root's successors, in the order to try them) over
/// `threads` threads sharing `tt`: each thread takes the next unsearched one; when none is
/// left it helps with one that another thread is still searching. Returns what is known of
/// each for the side to move at the root: exact values, or with `root_only` an upper bound
/// for those shown no better than a first move before them ([`Options::root_only`]).
pub fn solve_children<A: Acyclic>(
    game: &A,
    children: &[A::Pos],
    tt: &Table,
    (threads, root_only): (usize, bool),
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, RootBounds, u64) + Sync),
) -> (Vec<Option<RootBounds>>, u64) {
    let work = RootWork {
        children,
        next: AtomicUsize::new(0),
        values: Mutex::new(vec![None; children.len()]),
        done: (0..children.len())
            .map(|_| AtomicBool::new(false))
            .collect(),
        nodes: AtomicU64::new(0),
        best: root_only.then(|| AtomicI8::new(-1)),
    };
    std::thread::scope(|s| {
        for t in 0..threads.max(1) {
            let work = &work;
            s.spawn(move || root_worker(game, tt, work, t, stop, on_done));
        }
    });
    let values = work.values.into_inner().unwrap_or_else(|e| e.into_inner());
    (values, work.nodes.load(Ordering::Relaxed))
}

fn root_worker<A: Acyclic>(
    game: &A,
    tt: &Table,
    work: &RootWork<'_, A::Pos>,
    thread: usize,
    stop: &AtomicBool,
    on_done: &(dyn Fn(usize, RootBounds, u64) + Sync),
) {
    let n = work.children.len();
    let mut helped = 0usize;
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let mut i = work.next.fetch_add(1, Ordering::Relaxed);
        let helping = i >= n;
        if helping {
            // Help with an open one, taking them in turn.
            let open: Vec<usize> = (0..n)
                .filter(|&j| !work.done[j].load(Ordering::Relaxed))
                .collect();
            if open.is_empty() {
                return;
            }
            i = open[helped % open.len()];
            helped += 1;
        }
        let mut s = Searcher::new(game, tt, stop);
        s.done = Some(&work.done[i]);
        if helping {
            s.vary = 0x9e37_79b9 ^ (thread as u64 * 7 + helped as u64);
        }
        // The root's best so far: the child needs searching only to show it is no better.
        let alpha = work.best.as_ref().map_or(-1, |b| b.load(Ordering::Relaxed));
        if alpha == 1 {
            continue; // the root is won already: nothing to learn from this move
        }
        let v = s.bounded(&work.children[i], -1, -alpha);
        work.nodes.fetch_add(s.nodes, Ordering::Relaxed);
        if let Some(v) = v {
            // Fail-soft with the window (−1, −alpha): below −alpha the value is exact.
            let known = if v < -alpha { (-v, -v) } else { (-1, -v) };
            record(work, i, known, on_done);
        }
    }
}

/// Records what a thread found of first move `i` (the first finding wins) and raises the
/// root's best by an exact value.
fn record<P>(
    work: &RootWork<'_, P>,
    i: usize,
    known: RootBounds,
    on_done: &(dyn Fn(usize, RootBounds, u64) + Sync),
) {
    let mut values = work.values.lock().unwrap_or_else(|e| e.into_inner());
    if values[i].is_none() {
        values[i] = Some(known);
        if let (Some(best), (lo, hi)) = (&work.best, known)
            && lo == hi
        {
            best.fetch_max(lo, Ordering::Relaxed);
            if lo == 1 {
                // A won root needs nothing more: the searches still running may stop.
                work.done
                    .iter()
                    .for_each(|d| d.store(true, Ordering::Relaxed));
            }
        }
        work.done[i].store(true, Ordering::Relaxed);
        on_done(i, known, work.nodes.load(Ordering::Relaxed));
    }
}

/// The root's value from what is known of its first moves (each for the side to move at the
/// root): a won first move wins; else the best exact value once every first move is known
/// to be no better; `None` while one that could matter is unknown.
fn root_value(values: &[Option<RootBounds>]) -> Option<i8> {
    if values.contains(&Some((1, 1))) {
        return Some(1);
    }
    let known = values
        .iter()
        .copied()
        .collect::<Option<Vec<RootBounds>>>()?;
    let best = known
        .iter()
        .filter(|(lo, hi)| lo == hi)
        .map(|b| b.0)
        .max()?;
    known.iter().all(|&(_, hi)| hi <= best).then_some(best)
}

/// Solves `root` of game `G` with the acyclic solver `game` (`compact` maps a position of `G`
/// to the solver's): the value of every first move and of the root, then the certificates.
/// Fails only on a checkpoint that cannot be read or written (a run is not begun over a
/// checkpoint it would not resume).
pub fn solve_game<G: Game, A: Acyclic>(
    root: &G,
    game: &A,
    compact: &(dyn Fn(&G) -> A::Pos + Sync),
    options: &Options,
    stop: &AtomicBool,
) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let tt = Table::new(options.hash_mb);
    let identity = format!("{} {}", root.variant(), root.fen());
    let mut notes = resume(options, &identity, &tt)?;
    let mut moves = MoveList::new();
    root.legal_moves(&mut moves);
    let mut moves: Vec<_> = moves.iter().copied().collect();
    if options.root_only {
        order_first_moves(root, game, compact, &mut moves);
    }
    let names: Vec<String> = moves.iter().map(|m| root.move_text(*m)).collect();
    let children: Vec<A::Pos> = moves.iter().map(|m| compact(&root.play(*m))).collect();
    let finished = AtomicBool::new(false);
    let first_done = AtomicUsize::new(0);
    let known: Vec<AtomicBool> = children.iter().map(|_| AtomicBool::new(false)).collect();
    let (values, nodes) = std::thread::scope(|s| {
        let reporter = options.progress.map(|every| {
            let (tt, finished) = (&tt, &finished);
            let first = (&first_done, children.len());
            let in_hand = || in_hand(game, (&names, &children, &known), tt);
            s.spawn(move || report_loop(tt, finished, started, every, first, &in_hand))
        });
        let writer = options.checkpoint.as_ref().map(|c| {
            let (tt, finished, identity) = (&tt, &finished, &identity);
            s.spawn(move || checkpoint_loop(tt, finished, c, identity))
        });
        let on_done = |i: usize, bounds: RootBounds, nodes: u64| {
            first_done.fetch_add(1, Ordering::Relaxed);
            known[i].store(true, Ordering::Relaxed);
            if options.progress.is_some() {
                announce(&names[i], bounds, nodes, started);
            }
        };
        // The search stops on its own flag, raised when the budget ends or the caller's `stop`
        // is: the budget must not raise the caller's flag (an interrupt to the program, and
        // the next solve's stop where one program runs many).
        let (watchdog_stop, search_stop) = (AtomicBool::new(false), AtomicBool::new(false));
        let budget = options.time;
        let result = std::thread::scope(|inner| {
            let (watchdog, halt) = (&watchdog_stop, &search_stop);
            inner.spawn(move || {
                while !watchdog.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed)
                        || budget.is_some_and(|t| started.elapsed() >= t)
                    {
                        halt.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
            let how = (options.threads, options.root_only);
            let r = solve_children(game, &children, &tt, how, &search_stop, &on_done);
            watchdog_stop.store(true, Ordering::Relaxed);
            r
        });
        finished.store(true, Ordering::Relaxed);
        if let Some(h) = reporter {
            let _ = h.join();
        }
        if let Some(h) = writer {
            notes.extend(
                h.join()
                    .unwrap_or_else(|_| Some("the checkpoint writer failed".into())),
            );
        }
        result
    });
    if let Some(c) = &options.checkpoint {
        let n = wdl_checkpoint::write(&c.path, &identity, &tt)?;
        notes.push(format!("checkpoint {}: {n} entries", c.path.display()));
    }
    let value = if children.is_empty() {
        let mut kids = Children::new();
        game.expand(&compact(root), &mut kids)
    } else {
        root_value(&values)
    };
    let mut solution = Solution {
        value,
        first_moves: names
            .into_iter()
            .zip(values.iter().map(|v| v.filter(|b| b.0 == b.1).map(|b| b.0)))
            .collect(),
        first_moves_at_most: values
            .iter()
            .map(|v| v.filter(|b| b.0 != b.1).map(|b| b.1))
            .collect(),
        nodes,
        time: started.elapsed(),
        stored: tt.filled.load(Ordering::Relaxed),
        capacity: tt.capacity(),
        certificates: Vec::new(),
        certificate_nodes: 0,
        certificate_time: Duration::ZERO,
        notes,
    };
    if options.certificates
        && let Some(v) = value
        && !stop.load(Ordering::Relaxed)
    {
        let t = Instant::now();
        let mut s = Searcher::new(game, &tt, stop);
        let how = (options.lemmas, options.progress.is_some());
        match certificates(root, v, &mut s, compact, how) {
            Ok(c) => solution.certificates = c,
            Err(e) => solution.notes.push(e),
        }
        solution.certificate_nodes = s.nodes;
        solution.certificate_time = t.elapsed();
    }
    Ok(solution)
}

/// Reads the checkpoint of `options` (if any) into `tt`; a note saying so where it held entries.
fn resume(options: &Options, identity: &str, tt: &Table) -> Result<Vec<String>, SolveError> {
    let Some(c) = &options.checkpoint else {
        return Ok(Vec::new());
    };
    let n = wdl_checkpoint::resume(&c.path, identity, tt)?;
    Ok((n > 0)
        .then(|| {
            format!(
                "resumed {n} entries from the checkpoint {}",
                c.path.display()
            )
        })
        .into_iter()
        .collect())
}

/// The word for a value for the side to move (−1, 0, 1): loss, draw, win.
pub fn value_word(v: i8) -> &'static str {
    ["loss", "draw", "win"][(v.clamp(-1, 1) + 1) as usize]
}

/// The progress line of a first move whose value (or bound) is known.
fn announce(name: &str, (lo, hi): RootBounds, nodes: u64, started: Instant) {
    let what = if lo == hi {
        format!("a {}", value_word(lo))
    } else {
        format!("no better than a {}", value_word(hi))
    };
    eprintln!(
        "solve: {name} is {what} for the side to move at the root ({nodes} nodes, {:.1} s)",
        started.elapsed().as_secs_f64()
    );
}

/// Writes the checkpoint every `c.every` until the search has finished (the last one is
/// written after it); returns why one failed, if one did (the search goes on).
fn checkpoint_loop(
    tt: &Table,
    finished: &AtomicBool,
    c: &Checkpoint,
    identity: &str,
) -> Option<String> {
    let mut last = Instant::now();
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if last.elapsed() >= c.every {
            if let Err(e) = wdl_checkpoint::write(&c.path, identity, tt) {
                return Some(e.into());
            }
            last = Instant::now();
        }
    }
    None
}

/// Sorts the root's moves as the solver's own order would try them (the game's scores of the
/// successors, matched by key; ties keep the move generator's order).
fn order_first_moves<G: Game, A: Acyclic>(
    root: &G,
    game: &A,
    compact: &(dyn Fn(&G) -> A::Pos + Sync),
    moves: &mut [crate::board::Move],
) {
    let mut kids = Children::new();
    if game.expand(&compact(root), &mut kids).is_some() {
        return;
    }
    let scores: std::collections::HashMap<u128, i32> = kids
        .iter()
        .map(|(score, c)| (game.key(c), *score))
        .collect();
    moves.sort_by_cached_key(|m| {
        -scores
            .get(&game.key(&compact(&root.play(*m))))
            .copied()
            .unwrap_or(0)
    });
}

/// Where the search is, read from the table, for the progress line: below the first first
/// move not known yet (in the order tried), level by level down to [`IN_HAND_PLIES`], the
/// replies in the search's order that already have a bound in the table before the first that
/// has none (`k/n`: the search is in reply k + 1 of n there), like an odometer's wheels; empty
/// where every first move is known.
fn in_hand<A: Acyclic>(
    game: &A,
    (names, children, known): (&[String], &[A::Pos], &[AtomicBool]),
    tt: &Table,
) -> String {
    let Some(i) = known.iter().position(|k| !k.load(Ordering::Relaxed)) else {
        return String::new();
    };
    let mut line = format!("; in hand: {}", names[i]);
    let mut p = children[i];
    for _ in 0..IN_HAND_PLIES {
        let mut kids = Children::new();
        if game.expand(&p, &mut kids).is_some() {
            break;
        }
        kids.sort_unstable_by_key(|k| -k.0);
        let unbounded = kids
            .iter()
            .position(|(_, c)| tt.get(game.key(c)).is_none_or(|b| b.lo == -1 && b.hi == 1));
        let Some(k) = unbounded else { break };
        line.push_str(&format!(" {k}/{}", kids.len()));
        p = kids[k].1;
    }
    line
}

/// How deep [`in_hand`] reads.
const IN_HAND_PLIES: usize = 8;

/// A progress line every `every` seconds: the table's fill, the first moves known and the
/// search's place below the first move in hand ([`in_hand`]). No time
/// to go: what is left of an alpha-beta proof cannot be foreseen (the first moves known are
/// the only measure, and they differ in size by orders of magnitude).
fn report_loop(
    tt: &Table,
    finished: &AtomicBool,
    started: Instant,
    every: f64,
    (first_done, first_moves): (&AtomicUsize, usize),
    in_hand: &dyn Fn() -> String,
) {
    let mut next = every;
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let secs = started.elapsed().as_secs_f64();
        if secs >= next {
            next += every;
            let filled = tt.filled.load(Ordering::Relaxed);
            eprintln!(
                "solve: {secs:.0} s, table {filled} of {} entries ({:.0} %), first moves known {} of {first_moves}{}",
                tt.capacity(),
                100.0 * filled as f64 / tt.capacity() as f64,
                first_done.load(Ordering::Relaxed),
                in_hand()
            );
        }
    }
}

/// The certificates of a root of value `v` for its side to move: a proof of the winner's win,
/// or for a draw one hold of each side; collected by the compact format's walk
/// ([`super::compact::collect`]) and checked from their text ([`super::compact::check`]);
/// with `lemmas`, lines end where the game's lemma settles them ([`Game::lemma_value`]); with
/// `progress`, a line on stderr every 4,194,304 choices.
pub fn certificates<G: Game, A: Acyclic>(
    root: &G,
    v: i8,
    s: &mut Searcher<'_, A>,
    to_pos: &(dyn Fn(&G) -> A::Pos + Sync),
    (lemmas, progress): (bool, bool),
) -> Result<Vec<(Compact, Checked)>, String> {
    let us = root.side_to_move();
    let sides: Vec<(Color, bool)> = match v {
        1 => vec![(us, false)],
        -1 => vec![(us.flip(), false)],
        _ => vec![(Color::White, true), (Color::Black, true)],
    };
    let mut out = Vec::new();
    for (side, hold) in sides {
        let mut chooser = Chooser {
            s: &mut *s,
            to_pos,
            hold,
            lemmas,
            moves: MoveList::new(),
        };
        let started = Instant::now();
        let mut choices = 0u64;
        let certificate = compact::collect(root, (side, hold, lemmas), |pos, met| {
            choices += 1;
            if progress && choices.is_multiple_of(1 << 22) {
                eprintln!(
                    "solve: {side:?}'s certificate: {choices} choices so far, {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
            chooser
                .choose(pos, met)
                .map_err(super::proof::ProofError::from)
        })?;
        let checked = compact::check::<G>(&certificate).map_err(SolveError::Unchecked)?;
        out.push((certificate, checked));
    }
    Ok(out)
}

/// Chooses the winner's (holder's) moves of a certificate from the table, searching where the
/// table has lost what it knew.
struct Chooser<'s, 'a, G, A: Acyclic> {
    s: &'s mut Searcher<'a, A>,
    to_pos: &'s (dyn Fn(&G) -> A::Pos + Sync),
    hold: bool,
    lemmas: bool,
    moves: MoveList,
}

impl<G: Game, A: Acyclic> Chooser<'_, '_, G, A> {
    /// Whether the side to move in `pos` (the opponent of the chooser's side) is held to at
    /// most `limit` (−1 for a win of ours, 0 for a hold), by the table or a search.
    fn held(&mut self, pos: &G, limit: i8, search: bool) -> Result<bool, SolveError> {
        let p = (self.to_pos)(pos);
        let mut kids = Children::new();
        if let Some(v) = self.s.game.expand(&p, &mut kids) {
            return Ok(v <= limit);
        }
        if let Some(b) = self.s.tt.get(self.s.game.key(&p)) {
            if b.hi <= limit {
                return Ok(true);
            }
            if b.lo > limit {
                return Ok(false);
            }
        }
        if !search {
            return Ok(false);
        }
        let v = self
            .s
            .bounded(&p, limit, limit + 1)
            .ok_or(SolveError::Stopped)?;
        Ok(v <= limit)
    }

    /// Whether `child` adds nothing to the certificate: walked already, or (with lemmas) a
    /// position the game's lemma settles within `limit` for its side to move.
    fn free(&self, child: &G, met: &compact::Met, limit: i8) -> bool {
        met.finished(child) || (self.lemmas && child.lemma_value().is_some_and(|v| v <= limit))
    }

    /// The move to play in `pos`: one into a position the certificate has already or the
    /// lemma settles (it adds at most that position), one the table shows winning, then one it shows keeping the limit, then the
    /// first one a search shows keeping it. (Of those the table shows, the one of the
    /// smallest stored search was tried: no smaller certificates, docs/solved.md.)
    fn choose(&mut self, pos: &G, met: &compact::Met) -> Result<Move, SolveError> {
        pos.legal_moves(&mut self.moves);
        let moves = self.moves.clone();
        let limit = if self.hold { 0 } else { -1 };
        if let Some(m) = moves.iter().find(|m| self.free(&pos.play(**m), met, limit)) {
            return Ok(*m);
        }
        let tries: &[(i8, bool)] = if self.hold {
            &[(-1, false), (0, false), (0, true)]
        } else {
            &[(-1, false), (-1, true)]
        };
        for &(want, search) in tries {
            for m in moves.iter() {
                if self.held(&pos.play(*m), want, search)? {
                    return Ok(*m);
                }
            }
        }
        Err(SolveError::NoMove { fen: pos.fen() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::wdl_table::Bounds;

    /// Take one or two from a pile; who cannot take loses. A position is the pile and a tag
    /// that keeps the two ways to a pile apart in the table.
    struct Nim;

    impl Acyclic for Nim {
        type Pos = (u32, u32);
        fn expand(&self, p: &(u32, u32), out: &mut Children<(u32, u32)>) -> Option<i8> {
            if p.0 == 0 {
                return Some(-1);
            }
            for take in 1..=p.0.min(2) {
                out.push((take as i32, (p.0 - take, p.1 * 2 + take)));
            }
            None
        }
        fn key(&self, p: &(u32, u32)) -> u128 {
            (u128::from(p.0) << 64) | u128::from(p.1) | 1 << 100
        }
    }

    #[test]
    fn the_progress_line_reads_the_search_place_from_the_table() {
        let tt = Table::new(1);
        let names = ["take1".to_string(), "take2".to_string()];
        let children = [(30, 1), (29, 2)];
        let known = [AtomicBool::new(false), AtomicBool::new(false)];
        let line = |tt: &Table| in_hand(&Nim, (&names, &children, &known), tt);
        assert_eq!(
            line(&tt),
            "; in hand: take1 0/2 0/2 0/2 0/2 0/2 0/2 0/2 0/2"
        );
        // The first reply (take two, by the order's scores) bounded: the search is in the second.
        let bound = Bounds {
            lo: 0,
            hi: 1,
            work: 1,
        };
        tt.put(Nim.key(&(28, 4)), bound);
        assert_eq!(
            line(&tt),
            "; in hand: take1 1/2 0/2 0/2 0/2 0/2 0/2 0/2 0/2"
        );
        tt.put(Nim.key(&(29, 3)), bound);
        assert_eq!(line(&tt), "; in hand: take1");
        known[0].store(true, Ordering::Relaxed);
        assert!(line(&tt).starts_with("; in hand: take2 0/2"));
        known[1].store(true, Ordering::Relaxed);
        assert_eq!(line(&tt), "");
    }
}
