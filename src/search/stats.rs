//! Search statistics: what each mechanism of the search did, counted as it runs, so that a
//! switch that silently does nothing shows up as a zero (`bench --stats`, UCI `debug on`).
//!
//! Every [`super::worker::Worker`] counts into its own [`Stats`]; a search adds the threads'
//! counts together ([`Stats::add`]). The counters cost an increment each, in nodes that are
//! far more expensive. Depends on nothing.

use std::fmt;

/// Why a move or a node was cut short without a full search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prune {
    /// Reverse futility (static null move): the node returned its static evaluation.
    ReverseFutility,
    /// Null-move pruning: the null-move search failed high.
    NullMove,
    /// Futility pruning of a move near the horizon.
    Futility,
    /// Late-move pruning of a move near the horizon.
    LateMove,
    /// SEE pruning of a move losing material.
    See,
    /// History pruning of a quiet move with a bad record near the horizon.
    History,
    /// ProbCut: a capture held beta + margin at a shallower depth, the node returned.
    ProbCut,
}

impl Prune {
    pub const ALL: [Prune; 7] = [
        Prune::ReverseFutility,
        Prune::NullMove,
        Prune::Futility,
        Prune::LateMove,
        Prune::See,
        Prune::History,
        Prune::ProbCut,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Prune::ReverseFutility => "reverse_futility",
            Prune::NullMove => "null_move",
            Prune::Futility => "futility",
            Prune::LateMove => "late_move",
            Prune::See => "see",
            Prune::History => "history",
            Prune::ProbCut => "probcut",
        }
    }
}

/// Counts of one search (or several added together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes of the main search (depth > 0, the root included).
    pub main_nodes: u64,
    /// Of the main nodes, those in a forcing position (in check; a capture forced).
    pub forcing_nodes: u64,
    /// Quiescence nodes.
    pub qnodes: u64,
    /// Of the quiescence nodes, those in a forcing position searched without stand pat.
    pub qforcing_nodes: u64,
    /// Quiescence nodes that stood pat at or above beta.
    pub stand_pat_cuts: u64,
    /// Quiescence nodes past the forced plies that ended at their evaluation in a forcing
    /// position, below beta (`qsearch_forced_captures` off).
    pub forced_stand_pats: u64,
    /// Transposition-table probes in the main search and in quiescence.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Hits whose bound ended the node at once.
    pub tt_cuts: u64,
    /// Main-search nodes that failed high after searching at least one move.
    pub fail_highs: u64,
    /// Of those, the ones whose first move failed high.
    pub first_move_fail_highs: u64,
    /// Moves searched at a reduced depth by late-move reductions.
    pub reduced: u64,
    /// The plies of all those reductions.
    pub reduction_plies: u64,
    /// Reduced moves that beat alpha and were searched again at full depth.
    pub re_searches: u64,
    /// Moves searched after the first one in main-search nodes of depth ≥ 3 (the moves LMR
    /// could reduce).
    pub late_moves: u64,
    /// Moves and nodes cut short, by [`Prune`] in [`Prune::ALL`] order.
    pub pruned: [u64; 7],
    /// Plies added by extensions.
    pub extensions: u64,
    /// Singular-extension searches (every move but the hash move, at half the depth).
    pub singular_searches: u64,
    /// Of those, the ones that found the hash move singular: it was searched a ply deeper.
    pub singular_extensions: u64,
    /// Of the extended, the ones searched two plies deeper (`singular_double_margin`).
    pub double_extensions: u64,
    /// Of those, the ones whose reduced bound failed high at or above beta: the node
    /// returned it (multi-cut).
    pub multi_cuts: u64,
    /// Of those, the ones where the hash move was searched a ply shallower (the entry's
    /// score reached beta, the reduced bound did not).
    pub negative_extensions: u64,
    /// Iterations a thread skipped because another thread had completed them
    /// (`smp_skip_done`).
    pub iterations_skipped: u64,
}

impl Stats {
    /// Adds another count to this one.
    pub fn add(&mut self, other: &Stats) {
        self.main_nodes += other.main_nodes;
        self.forcing_nodes += other.forcing_nodes;
        self.qnodes += other.qnodes;
        self.qforcing_nodes += other.qforcing_nodes;
        self.stand_pat_cuts += other.stand_pat_cuts;
        self.forced_stand_pats += other.forced_stand_pats;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cuts += other.tt_cuts;
        self.fail_highs += other.fail_highs;
        self.first_move_fail_highs += other.first_move_fail_highs;
        self.reduced += other.reduced;
        self.reduction_plies += other.reduction_plies;
        self.re_searches += other.re_searches;
        self.late_moves += other.late_moves;
        for (a, b) in self.pruned.iter_mut().zip(other.pruned) {
            *a += b;
        }
        self.extensions += other.extensions;
        self.singular_searches += other.singular_searches;
        self.singular_extensions += other.singular_extensions;
        self.double_extensions += other.double_extensions;
        self.multi_cuts += other.multi_cuts;
        self.negative_extensions += other.negative_extensions;
        self.iterations_skipped += other.iterations_skipped;
    }

    #[inline]
    pub fn prune(&mut self, why: Prune) {
        self.pruned[why as usize] += 1;
    }

    /// How often `why` cut something short.
    pub fn pruned_by(&self, why: Prune) -> u64 {
        self.pruned[why as usize]
    }

    /// All nodes, main and quiescence.
    pub fn nodes(&self) -> u64 {
        self.main_nodes + self.qnodes
    }

    /// The share of quiescence nodes among all nodes.
    pub fn qsearch_share(&self) -> f64 {
        ratio(self.qnodes, self.nodes())
    }

    /// The share of late moves that LMR reduced.
    pub fn reduced_share(&self) -> f64 {
        ratio(self.reduced, self.late_moves)
    }

    /// The counts on one line of `name value` pairs (UCI `debug on`: `info string stats …`).
    pub fn summary(&self) -> String {
        let mut s = format!(
            "main {} forcing {} qnodes {} qforcing {} standpat_cuts {} tt_probes {} tt_hits {} \
             tt_cuts {} fail_highs {} first_move_fail_highs {} late_moves {} reduced {} \
             reduction_plies {} re_searches {} extensions {}",
            self.main_nodes,
            self.forcing_nodes,
            self.qnodes,
            self.qforcing_nodes,
            self.stand_pat_cuts,
            self.tt_probes,
            self.tt_hits,
            self.tt_cuts,
            self.fail_highs,
            self.first_move_fail_highs,
            self.late_moves,
            self.reduced,
            self.reduction_plies,
            self.re_searches,
            self.extensions
        );
        for why in Prune::ALL {
            s += &format!(" pruned_{} {}", why.name(), self.pruned_by(why));
        }
        s += &format!(
            " forced_stand_pats {} iterations_skipped {} singular_searches {} \
             singular_extensions {} double_extensions {} multi_cuts {} negative_extensions {}",
            self.forced_stand_pats,
            self.iterations_skipped,
            self.singular_searches,
            self.singular_extensions,
            self.double_extensions,
            self.multi_cuts,
            self.negative_extensions
        );
        s
    }

    /// The mean reduction of a reduced move, in plies.
    pub fn mean_reduction(&self) -> f64 {
        ratio(self.reduction_plies, self.reduced)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

fn percent(a: u64, b: u64) -> String {
    format!("{:.1} %", 100.0 * ratio(a, b))
}

/// One `name value` pair per line, as `bench --stats` prints them.
impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.nodes();
        writeln!(
            f,
            "main nodes        : {} ({} of all)",
            self.main_nodes,
            percent(self.main_nodes, n)
        )?;
        writeln!(
            f,
            "  forcing         : {} ({} of main)",
            self.forcing_nodes,
            percent(self.forcing_nodes, self.main_nodes)
        )?;
        writeln!(
            f,
            "quiescence nodes  : {} ({} of all)",
            self.qnodes,
            percent(self.qnodes, n)
        )?;
        writeln!(
            f,
            "  forcing         : {} ({} of quiescence)",
            self.qforcing_nodes,
            percent(self.qforcing_nodes, self.qnodes)
        )?;
        writeln!(
            f,
            "  stand-pat cuts  : {} ({} of quiescence)",
            self.stand_pat_cuts,
            percent(self.stand_pat_cuts, self.qnodes)
        )?;
        writeln!(
            f,
            "  forced stand pat: {} ({} of quiescence)",
            self.forced_stand_pats,
            percent(self.forced_stand_pats, self.qnodes)
        )?;
        writeln!(
            f,
            "tt hits / cuts    : {} / {} of {} probes ({} / {})",
            self.tt_hits,
            self.tt_cuts,
            self.tt_probes,
            percent(self.tt_hits, self.tt_probes),
            percent(self.tt_cuts, self.tt_probes)
        )?;
        writeln!(
            f,
            "fail highs        : {} ({} on the first move)",
            self.fail_highs,
            percent(self.first_move_fail_highs, self.fail_highs)
        )?;
        writeln!(
            f,
            "lmr reduced       : {} of {} late moves ({}), mean {:.2} plies, {} re-searched",
            self.reduced,
            self.late_moves,
            percent(self.reduced, self.late_moves),
            self.mean_reduction(),
            self.re_searches
        )?;
        for why in Prune::ALL {
            writeln!(f, "pruned {:<11}: {}", why.name(), self.pruned_by(why))?;
        }
        writeln!(f, "extensions        : {}", self.extensions)?;
        writeln!(
            f,
            "singular          : {} searches, {} extended ({} doubly), {} multi-cuts, {} \
             shortened",
            self.singular_searches,
            self.singular_extensions,
            self.double_extensions,
            self.multi_cuts,
            self.negative_extensions
        )?;
        write!(f, "iterations skipped: {}", self.iterations_skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_and_reports_shares() {
        let mut a = Stats {
            main_nodes: 10,
            qnodes: 30,
            reduced: 2,
            reduction_plies: 5,
            late_moves: 8,
            forced_stand_pats: 3,
            multi_cuts: 4,
            ..Stats::default()
        };
        a.prune(Prune::LateMove);
        let mut b = a;
        b.add(&a);
        assert_eq!(
            (b.main_nodes, b.qnodes, b.pruned_by(Prune::LateMove)),
            (20, 60, 2)
        );
        assert_eq!(b.qsearch_share(), 0.75);
        assert_eq!(b.reduced_share(), 0.25);
        assert_eq!(b.mean_reduction(), 2.5);
        assert!(b.to_string().contains("pruned late_move  : 2"));
        assert!(b.summary().starts_with("main 20 forcing 0 qnodes 60 "));
        assert!(b.summary().ends_with(
            "pruned_late_move 2 pruned_see 0 pruned_history 0 pruned_probcut 0 forced_stand_pats 6 iterations_skipped 0 \
                 singular_searches 0 singular_extensions 0 double_extensions 0 multi_cuts 8 \
                 negative_extensions 0"
        ));
        assert!(
            b.to_string()
                .contains("forced stand pat: 6 (10.0 % of quiescence)")
        );
        assert_eq!(Stats::default().mean_reduction(), 0.0);
    }
}
