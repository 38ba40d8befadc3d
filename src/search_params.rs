//! The search's parameters, declared once in a table (`define_params!`): each switch and
//! margin with its name, type, default and allowed range. From the table come the
//! [`SearchParams`] struct, its [`SearchParams::CONSERVATIVE`] defaults, the parsing of
//! `name=value` overrides ([`SearchParams::with_overrides`]), the list of parameters
//! ([`PARAMS`], named in the error for an unknown name) and the overrides text of a record
//! ([`SearchParams::overrides`]). None of them is a UCI or XBoard option: they change only
//! through overrides given at start-up ([`set_startup_overrides`]; the binaries pass the
//! environment variable [`ENV_OVERRIDES`]) or [`crate::search::Searcher::set_params`].
//!
//! Also here, because games name them in their [`crate::game::Game`] impls: the score scale of
//! forced game ends ([`MATE`]) and the clock's default estimate of moves left
//! ([`DEFAULT_MOVES_TO_GO`]). The module depends on nothing, so `game.rs` and `games/*` import
//! it without depending on the rest of the search.
//!
//! Every pruning, reduction and extension the shared search knows can be switched off here, so a
//! game with a rough evaluation or with zugzwang keeps an exact, conservative search while
//! standard chess turns everything on. A [`crate::search::Searcher`] starts from its game's
//! record ([`crate::game::Tuning::SEARCH`]) and may be given another one for experiments and
//! matches.

use crate::error::setting_error;
use std::sync::OnceLock;

/// Score of a mate (or any forced game end) in 0 plies; mate in n plies is `MATE - n`.
pub const MATE: i32 = 32000;

/// Moves assumed to remain when the clock has no `movestogo` (sudden death) and the game
/// has no better estimate ([`crate::game::Tuning::expected_moves_left`]).
pub const DEFAULT_MOVES_TO_GO: u32 = 35;

/// One parameter of the table, as the overrides parser and the listings see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// The field's name, also its name in overrides.
    pub name: &'static str,
    /// A switch (`0`/`1`/`false`/`true`/`off`/`on`) rather than a number.
    pub switch: bool,
    /// The smallest and largest value accepted (0 and 1 for a switch).
    pub min: i64,
    pub max: i64,
    /// The value in [`SearchParams::CONSERVATIVE`] (0 or 1 for a switch).
    pub default: i64,
    /// The field's documentation.
    pub doc: &'static str,
}

/// The types a parameter may have, seen as whole numbers.
trait ParamValue: Copy {
    const SWITCH: bool;
    fn to_i64(self) -> i64;
    /// Only called with a value inside the parameter's range.
    fn from_i64(v: i64) -> Self;
}

impl ParamValue for bool {
    const SWITCH: bool = true;
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(v: i64) -> Self {
        v != 0
    }
}

impl ParamValue for i32 {
    const SWITCH: bool = false;
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(v: i64) -> Self {
        v as i32
    }
}

impl ParamValue for u32 {
    const SWITCH: bool = false;
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(v: i64) -> Self {
        v as u32
    }
}

/// Declares the search parameters once: `name: type = default` for a switch (`bool`),
/// `name: type = default in min..=max` for a number (`i32`, `u32`; the range is required and
/// must fit the type, checked when compiling, as is the default's being in it). Generates
/// the struct [`SearchParams`] with one public field each (documented by the entry's doc
/// comment), its defaults [`SearchParams::CONSERVATIVE`], the table [`PARAMS`], and the
/// setter and getter by name that overrides use.
macro_rules! define_params {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident : $ty:ident = $default:literal $(in $min:literal ..= $max:literal)? ;
    )*) => {
        /// Which pruning, reductions and extensions the search uses, and their margins
        /// (centipawns). Declared once, with their ranges, in the table below.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        /// Every search parameter, in declaration order.
        pub const PARAMS: &[ParamSpec] = &[$(
            ParamSpec {
                name: stringify!($name),
                switch: <$ty as ParamValue>::SWITCH,
                min: define_params!(@range $ty $(, $min, $max)?).0,
                max: define_params!(@range $ty $(, $min, $max)?).1,
                default: $default as i64,
                doc: concat!($($doc, "\n",)*),
            },
        )*];

        // Each range fits its type and holds its default.
        $(
            const _: () = {
                let _: $ty = $default;
                $( let _: $ty = $min; let _: $ty = $max; )?
                let (min, max) = define_params!(@range $ty $(, $min, $max)?);
                assert!(min <= $default as i64 && $default as i64 <= max);
            };
        )*

        impl SearchParams {
            /// Exact-minded search for games whose evaluation is rough: no static pruning,
            /// mild LMR. The defaults of the table.
            pub const CONSERVATIVE: SearchParams = SearchParams { $( $name: $default, )* };

            /// Sets the parameter `name` from the text `value`, checked against its range.
            fn set(&mut self, name: &str, value: &str) -> Result<(), crate::Error> {
                let Some(spec) = PARAMS.iter().find(|p| p.name == name) else {
                    return Err(setting_error!(
                        "unknown search parameter '{name}' (the parameters: {})",
                        PARAMS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
                    ));
                };
                let v = spec.parse(value)?;
                $(
                    if name == stringify!($name) {
                        self.$name = <$ty as ParamValue>::from_i64(v);
                    }
                )*
                Ok(())
            }

            /// The value of the parameter `name` as a number (0 or 1 for a switch).
            pub fn get(&self, name: &str) -> Option<i64> {
                $(
                    if name == stringify!($name) {
                        return Some(ParamValue::to_i64(self.$name));
                    }
                )*
                None
            }
        }
    };
    (@range bool) => { (0i64, 1i64) };
    (@range $ty:ident, $min:literal, $max:literal) => { ($min as i64, $max as i64) };
}

define_params! {
    /// Aspiration windows around the previous iteration's score from depth 4 on.
    aspiration: bool = true;
    /// Half-width of the first aspiration window.
    aspiration_window: i32 = 30 in 1..=1000;
    /// Null-move pruning (also needs `Game::NULL_MOVE`; never in a forcing position).
    null_move: bool = true;
    /// Late-move reductions of quiet moves, re-searched at full depth when they raise alpha.
    lmr: bool = true;
    /// LMR: reduction = (`lmr_base` + ln(depth)·ln(move number)·10000 / `lmr_divisor`) / 100
    /// plies, rounded down: `lmr_base` in hundredths of a ply, and the logarithmic term
    /// ln d · ln m / (`lmr_divisor` / 100) plies (`search::worker::lmr_table`).
    lmr_base: i32 = 0 in -1000..=1000;
    /// LMR: larger means milder reductions (225: ln d · ln m / 2.25 plies).
    lmr_divisor: i32 = 350 in 1..=10000;
    /// Quiet moves tried in a node before LMR starts (PV nodes wait two moves longer).
    lmr_min_moves: u32 = 4 in 0..=255;
    /// Reverse futility (static null move): a non-PV node whose static evaluation beats beta
    /// by `reverse_futility_margin` per ply of depth returns at once, up to depth 6.
    reverse_futility: bool = false;
    /// Reverse futility: the margin per ply of depth.
    reverse_futility_margin: i32 = 90 in 0..=2000;
    /// Reverse futility: a node whose evaluation improves is judged a ply shallower (its
    /// margin one ply smaller), as Stockfish's does.
    reverse_futility_improving: bool = false;
    /// The table's score in place of the static evaluation where its bound says the score is
    /// nearer the truth (a lower bound above the evaluation, an upper bound below it, an
    /// exact score): what reverse futility, the null move, futility and ProbCut compare with
    /// beta and alpha. `improving` and the correction history keep the static evaluation.
    tt_eval: bool = false;
    /// ProbCut: in a non-PV node from `probcut_depth` on, captures that win enough by static
    /// exchange are searched against beta + `probcut_margin`, first by quiescence, then 4
    /// plies shallower; one that holds that raised bound ends the node (Buro's ProbCut as
    /// Stockfish does it).
    probcut: bool = false;
    /// ProbCut: the least depth.
    probcut_depth: i32 = 5 in 2..=64;
    /// ProbCut: how far above beta the shallower search must score.
    probcut_margin: i32 = 200 in 0..=2000;
    /// Futility pruning: near the horizon (depth ≤ 3), quiet moves that cannot bring the static
    /// evaluation plus `futility_margin` per ply up to alpha are skipped.
    futility: bool = false;
    /// Futility pruning: the margin per ply of depth.
    futility_margin: i32 = 120 in 0..=2000;
    /// Futility pruning: the deepest node it acts in.
    futility_depth: i32 = 3 in 1..=64;
    /// Search one ply deeper after a move into a forcing position (check in chess, a forced
    /// capture in Räuberschach), up to twice the iteration depth in plies.
    forcing_extension: bool = true;
    /// Search one ply deeper in a position with a single legal move (same limit).
    single_reply_extension: bool = true;
    /// The countermove heuristic in move ordering.
    countermove: bool = true;
    /// Capture history: noisy moves with equal `Game::noisy_order` ordered by the cutoffs
    /// they caused before.
    capture_history: bool = false;
    /// With `capture_history` and `see_pruning`: a capture's SEE margin grows by its capture
    /// history / 32 (a capture with a good record may lose more before it is skipped), at
    /// most by the margin itself either way.
    capture_history_see: bool = false;
    /// Quiet moves ordered by history plus the game's `Game::quiet_order` bonus.
    quiet_order: bool = false;
    /// With `lmr`, late-move reductions also for noisy moves (one ply milder than for quiet
    /// ones).
    lmr_noisy: bool = false;
    /// LMR also for quiet moves into a forcing position (a check, an offered capture that
    /// must be taken).
    lmr_forcing_replies: bool = false;
    /// LMR adjusted by the move's history and by whether the evaluation improves.
    lmr_history: bool = false;
    /// LMR by history: a ply less for each `lmr_history_divisor` of the move's history (the
    /// main history plus the continuation histories that are on), a ply more for each below 0.
    lmr_history_divisor: i32 = 8192 in 1..=1000000;
    /// LMR a ply more in expected cut nodes (two for quiet moves), Stockfish's guess: the
    /// children of a PV node after its first move, then alternating down the tree.
    lmr_cut_node: bool = false;
    /// Futility and late-move pruning also skip quiet moves into a forcing position (a
    /// check, an offered capture that must be taken), not only the plainly quiet ones.
    prune_forcing_replies: bool = false;
    /// Late-move pruning: at depth ≤ `late_move_pruning_depth`, quiet moves after the first
    /// 3 + depth² (half as many when the static evaluation is not improving) are skipped in
    /// non-PV nodes.
    late_move_pruning: bool = false;
    /// Late-move pruning: the deepest node it acts in.
    late_move_pruning_depth: i32 = 4 in 1..=64;
    /// History pruning: in non-PV nodes up to `history_pruning_depth`, after the first move,
    /// quiet moves whose history (main plus continuation) is below −`history_pruning_margin`
    /// per ply of depth are skipped.
    history_pruning: bool = false;
    /// History pruning: the deepest node it acts in.
    history_pruning_depth: i32 = 3 in 1..=64;
    /// History pruning: the history per ply of depth a quiet move must stay above.
    history_pruning_margin: i32 = 4000 in 0..=1000000;
    /// Internal iterative reduction: a node without a hash move from depth 4 is searched a
    /// ply shallower.
    iir: bool = false;
    /// Continuation history: quiet moves are also ordered by how often a move of this piece
    /// to this square refuted, or failed after, the opponent's last move and our own move
    /// before it (a table by (piece, target) pairs, `Game::moved_piece`).
    continuation_history: bool = false;
    /// With `continuation_history`, quiet moves also ordered (and judged by LMR and history
    /// pruning) by our own move four plies back, as Stockfish does.
    continuation_history_4: bool = false;
    /// SEE pruning in non-PV nodes up to depth 6: after the first move, noisy moves that lose
    /// more than `see_noisy_margin` per ply of depth and quiet moves that lose more than
    /// `see_quiet_margin` per ply squared by static exchange (`Game::see_ge`) are skipped
    /// (neither from nor into a forcing position).
    see_pruning: bool = false;
    /// SEE pruning of noisy moves: the margin per ply of depth.
    see_noisy_margin: i32 = 90 in 0..=2000;
    /// SEE pruning of quiet moves: the margin per ply squared.
    see_quiet_margin: i32 = 25 in 0..=2000;
    /// Singular extensions: from `singular_depth` on, the hash move of a node whose table entry
    /// is a lower bound (or exact) from at most 3 plies shallower is searched a ply deeper
    /// when every other move, searched to half the depth, stays below the entry's score less
    /// `singular_margin` per ply of depth. When even that reduced bound fails high and lies
    /// at or above beta, the node returns it (multi-cut); when only the entry's score reaches
    /// beta, the hash move is searched a ply shallower (negative extension).
    singular: bool = false;
    /// Singular extensions: the least depth (at least 3, so that the search without the
    /// hash move, at half the depth, is a main search and not quiescence, which knows
    /// nothing of an excluded move).
    singular_depth: i32 = 8 in 3..=64;
    /// Singular extensions: the margin below the entry's score, per ply of depth.
    singular_margin: i32 = 2 in 0..=100;
    /// Singular extensions: a hash move whose alternatives stay this far below the singular
    /// bound as well is searched two plies deeper (a double extension) in non-PV nodes, at
    /// most three times on a line; 0: never.
    singular_double_margin: i32 = 0 in 0..=1000;
    /// Correction history: the static evaluation is corrected by how far searches of
    /// positions with the same structure (`Game::structure_key`) found it off lately.
    correction_history: bool = false;
    /// With `correction_history`, also correct by each side's pieces apart from the
    /// structure (`Game::piece_keys`): the structure's entry plus half of each side's.
    correction_pieces: bool = false;
    /// Quiescence plies in which a forcing position is searched with every legal move and no
    /// stand pat; deeper, quiescence stands pat anyway (guards against long forced chains).
    qsearch_forcing_plies: u32 = 8 in 0..=128;
    /// Whether quiescence probes and fills the transposition table. Off, pawn chess runs a
    /// quarter faster for the same tree (the probes miss the cache); chess engines usually
    /// gain from it.
    qsearch_tt: bool = false;
    /// Whether quiescence, past its `qsearch_forcing_plies`, still searches the captures of a
    /// forcing position after standing pat below beta. Off, such a position ends quiescence
    /// with its static evaluation (for games whose evaluation prices the obligation to
    /// capture, Räuberschach).
    qsearch_forced_captures: bool = true;
    /// Time management: the soft limit (no new iteration after it; 60 % of a move's share of
    /// the clock, stretched or shrunk by the best move's stability) scaled to this percentage.
    /// The hard limit stays as it is.
    time_soft_percent: u32 = 100 in 25..=400;
    /// Time management: the soft limit also scaled by the share of the last iteration's nodes
    /// that its best move took, (1.5 − share) · 1.35 (`search::worker::Trend::scale`): a
    /// best move that took nearly every node ends the search sooner, a contested one later.
    time_node_share: bool = false;
    /// Lazy SMP: a depth limit (`go depth N`, `bench`) is reached when any thread has
    /// completed iteration N, whose line is then the answer; off, only the main thread's
    /// iterations count and the helpers' deeper work waits for it.
    smp_depth_by_any: bool = false;
    /// Lazy SMP: a thread about to start an iteration that another thread has already
    /// completed starts the next one instead.
    smp_skip_done: bool = false;
}

impl ParamSpec {
    /// The value of `text` for this parameter, or why it is none.
    fn parse(&self, text: &str) -> Result<i64, crate::Error> {
        let name = self.name;
        if self.switch {
            return match text {
                "1" | "true" | "on" => Ok(1),
                "0" | "false" | "off" => Ok(0),
                _ => Err(setting_error!("'{name}': expected 0 or 1, got '{text}'")),
            };
        }
        let (min, max) = (self.min, self.max);
        match text.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            Ok(_) => Err(setting_error!(
                "'{name}': expected a number from {min} to {max}, got '{text}'"
            )),
            Err(_) => Err(setting_error!("'{name}': expected a number, got '{text}'")),
        }
    }
}

impl SearchParams {
    /// Everything on, with margins fit for a tuned chess evaluation.
    pub const FULL: SearchParams = SearchParams {
        aspiration: true,
        aspiration_window: 25,
        null_move: true,
        lmr: true,
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_min_moves: 3,
        reverse_futility: true,
        reverse_futility_margin: 80,
        reverse_futility_improving: false,
        tt_eval: false,
        probcut: false,
        probcut_depth: 5,
        probcut_margin: 200,
        futility: true,
        futility_margin: 110,
        futility_depth: 3,
        forcing_extension: true,
        single_reply_extension: false,
        countermove: true,
        capture_history: false,
        capture_history_see: false,
        quiet_order: false,
        lmr_noisy: false,
        lmr_forcing_replies: false,
        lmr_history: false,
        lmr_history_divisor: 8192,
        lmr_cut_node: false,
        prune_forcing_replies: false,
        late_move_pruning: true,
        late_move_pruning_depth: 4,
        history_pruning: false,
        history_pruning_depth: 3,
        history_pruning_margin: 4000,
        iir: true,
        continuation_history: false,
        continuation_history_4: false,
        see_pruning: true,
        see_noisy_margin: 90,
        see_quiet_margin: 25,
        correction_history: false,
        correction_pieces: false,
        singular: false,
        singular_depth: 8,
        singular_margin: 2,
        singular_double_margin: 0,
        qsearch_forcing_plies: 8,
        qsearch_tt: true,
        qsearch_forced_captures: true,
        time_soft_percent: 100,
        time_node_share: false,
        smp_depth_by_any: false,
        smp_skip_done: false,
    };

    /// Plain alpha-beta (PVS, quiescence, ordering): no pruning, reduction or extension.
    pub const PLAIN: SearchParams = SearchParams {
        aspiration: false,
        null_move: false,
        lmr: false,
        reverse_futility: false,
        futility: false,
        forcing_extension: false,
        single_reply_extension: false,
        ..SearchParams::CONSERVATIVE
    };

    /// These parameters with `overrides` applied: comma-separated `name=value` pairs, e.g.
    /// `lmr=0,lmr_divisor=300` (switches take `0`/`1`/`false`/`true`/`off`/`on`, numbers must
    /// lie in the parameter's range, [`PARAMS`]). An unknown name or a bad value is an error
    /// and nothing is changed ([`crate::Error::Setting`]).
    pub fn with_overrides(self, overrides: &str) -> Result<SearchParams, crate::Error> {
        self.apply_overrides(overrides)
    }

    fn apply_overrides(self, overrides: &str) -> Result<SearchParams, crate::Error> {
        let mut p = self;
        for (name, value) in crate::text::assignments(overrides)? {
            p.set(name, value)?;
        }
        Ok(p)
    }

    /// Every parameter as overrides text (`aspiration=1,aspiration_window=30,…`), which
    /// [`SearchParams::with_overrides`] turns back into these parameters.
    pub fn overrides(&self) -> String {
        PARAMS
            .iter()
            .map(|p| format!("{}={}", p.name, self.get(p.name).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `defaults` with the overrides given at start-up ([`set_startup_overrides`]) applied.
    pub fn with_startup_overrides(self) -> SearchParams {
        match STARTUP_OVERRIDES.get() {
            // Checked when they were set, and the check does not depend on the record.
            Some(text) => self.with_overrides(text).unwrap_or(self),
            None => self,
        }
    }
}

/// The environment variable with search-parameter overrides, which the binaries pass to
/// [`set_startup_overrides`] (for experiments: one binary, several settings in a match).
pub const ENV_OVERRIDES: &str = "KIEBITZ_SEARCH";

static STARTUP_OVERRIDES: OnceLock<String> = OnceLock::new();

/// Overrides (as [`SearchParams::with_overrides`] takes them) applied to the game's record by
/// every [`crate::search::Searcher`] created from now on. Set once per process, at start-up;
/// a bad text, or a second call, is an error and nothing changes.
pub fn set_startup_overrides(text: &str) -> Result<(), crate::Error> {
    SearchParams::CONSERVATIVE.with_overrides(text)?;
    STARTUP_OVERRIDES
        .set(text.to_string())
        .map_err(|_| crate::Error::Setting("the search overrides are already set".into()))
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::CONSERVATIVE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_apply_or_fail_whole() {
        let p = SearchParams::FULL
            .with_overrides("lmr=0, lmr_divisor=300,qsearch_forcing_plies=12,futility=true")
            .unwrap();
        assert!(!p.lmr && p.futility);
        assert_eq!((p.lmr_divisor, p.qsearch_forcing_plies), (300, 12));
        assert_eq!(
            SearchParams::FULL.with_overrides("").unwrap(),
            SearchParams::FULL
        );
        for bad in ["lmr", "lmr=2", "nope=1", "lmr_base=x", "lmr_min_moves=-1"] {
            assert!(SearchParams::FULL.with_overrides(bad).is_err(), "{bad}");
        }
        let e = SearchParams::FULL
            .with_overrides("lmr=0,bogus=1")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("unknown search parameter 'bogus'"), "{e}");
        assert!(e.contains("aspiration, aspiration_window,"), "{e}");
    }

    /// The table's names are the struct's fields: an exhaustive destructuring (which stops
    /// compiling when a field is added or removed) names each field once more, and each must
    /// be in [`PARAMS`] in the same order, with [`SearchParams::get`] reading that field.
    #[test]
    fn the_table_lists_every_field() {
        /// Destructures `SearchParams::FULL` field by field into (name, value) pairs.
        macro_rules! fields {
            ($($field:ident),* $(,)?) => {{
                let SearchParams { $($field),* } = SearchParams::FULL;
                vec![$((stringify!($field), i64::from($field))),*]
            }};
        }
        let fields: Vec<(&str, i64)> = fields!(
            aspiration,
            aspiration_window,
            null_move,
            lmr,
            lmr_base,
            lmr_divisor,
            lmr_min_moves,
            reverse_futility,
            reverse_futility_margin,
            reverse_futility_improving,
            tt_eval,
            probcut,
            probcut_depth,
            probcut_margin,
            futility,
            futility_margin,
            futility_depth,
            forcing_extension,
            single_reply_extension,
            countermove,
            capture_history,
            capture_history_see,
            quiet_order,
            lmr_noisy,
            lmr_forcing_replies,
            lmr_history,
            lmr_history_divisor,
            lmr_cut_node,
            prune_forcing_replies,
            late_move_pruning,
            late_move_pruning_depth,
            history_pruning,
            history_pruning_depth,
            history_pruning_margin,
            iir,
            continuation_history,
            continuation_history_4,
            see_pruning,
            see_noisy_margin,
            see_quiet_margin,
            singular,
            singular_depth,
            singular_margin,
            singular_double_margin,
            correction_history,
            correction_pieces,
            qsearch_forcing_plies,
            qsearch_tt,
            qsearch_forced_captures,
            time_soft_percent,
            time_node_share,
            smp_depth_by_any,
            smp_skip_done,
        );
        let table: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
        assert_eq!(table, names);
        for (name, value) in fields {
            assert_eq!(SearchParams::FULL.get(name), Some(value), "{name}");
            let spec = PARAMS.iter().find(|p| p.name == name).unwrap();
            assert_eq!(SearchParams::CONSERVATIVE.get(name), Some(spec.default));
        }
        assert_eq!(SearchParams::FULL.get("bogus"), None);
    }

    /// Every parameter reads back what was written, at both ends of its range and from the
    /// overrides text of a whole record; one step outside the range is refused.
    #[test]
    fn every_parameter_round_trips_and_its_range_is_kept() {
        for preset in [
            SearchParams::CONSERVATIVE,
            SearchParams::FULL,
            SearchParams::PLAIN,
        ] {
            let text = preset.overrides();
            assert_eq!(
                SearchParams::default().with_overrides(&text),
                Ok(preset),
                "{text}"
            );
        }
        for spec in PARAMS {
            for v in [spec.min, spec.max] {
                let text = format!("{}={v}", spec.name);
                let p = SearchParams::PLAIN.with_overrides(&text).unwrap();
                assert_eq!(p.get(spec.name), Some(v), "{text}");
                let others = PARAMS.iter().filter(|o| o.name != spec.name);
                for o in others {
                    assert_eq!(p.get(o.name), SearchParams::PLAIN.get(o.name), "{text}");
                }
            }
            for v in [spec.min - 1, spec.max + 1] {
                let text = format!("{}={v}", spec.name);
                let e = SearchParams::PLAIN
                    .with_overrides(&text)
                    .unwrap_err()
                    .to_string();
                assert!(e.starts_with(&format!("'{}': expected ", spec.name)), "{e}");
            }
        }
        let e = SearchParams::FULL
            .with_overrides("lmr_divisor=0")
            .unwrap_err();
        assert_eq!(
            e,
            crate::Error::Setting(
                "'lmr_divisor': expected a number from 1 to 10000, got '0'".into()
            )
        );
    }

    #[test]
    fn bad_startup_overrides_are_refused() {
        // No test sets good ones: they would hold for every searcher of the test process.
        let e = set_startup_overrides("null_move=0,lmr=2").unwrap_err();
        assert_eq!(
            e,
            crate::Error::Setting("'lmr': expected 0 or 1, got '2'".into())
        );
        assert_eq!(STARTUP_OVERRIDES.get(), None, "a bad text changes nothing");
        assert_eq!(
            SearchParams::FULL.with_startup_overrides(),
            SearchParams::FULL
        );
    }
}
