//! Move ordering: the tables learnt while searching (killers, history, countermoves) and the
//! scored move list a node walks through, best-first by selection.
//!
//! Order: the transposition-table move, noisy moves that do not lose material by their game's
//! `noisy_order` (`see_ge(mv, 0)`; games without SEE say every capture is fine), the two killers
//! of the ply, the countermove of the opponent's last move, the quiet moves by history, and last
//! the noisy moves that lose material. Depends on `board` and `game` only.

use arrayvec::ArrayVec;

use crate::board::{Color, Move, MoveList};
use crate::game::Game;

use super::MAX_PLY;

const TT_MOVE: i32 = 2_000_000_000;
const GOOD_NOISY: i32 = 1_000_000_000;
const KILLER: i32 = 900_000_000;
const COUNTER: i32 = 800_000_000;
const BAD_NOISY: i32 = -1_000_000_000;
/// History values stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;
/// Continuation-history keys: `Tuning::moved_piece` (below 16) · 64 + target square.
pub const CONT_KEYS: usize = 1024;
/// "No move" as a continuation key (the root, a null move).
pub const CONT_NONE: usize = usize::MAX;

/// The continuation-history key of `mv` in `pos` (before it is played).
#[inline]
pub fn cont_key<G: Game>(pos: &G, mv: Move) -> usize {
    (pos.moved_piece(mv) as usize & 15) * 64 + mv.to().index()
}

/// What a search learns about moves, kept from one search to the next (one set per thread).
pub struct Heuristics {
    pub killers: [[Move; 2]; MAX_PLY + 1],
    /// By side to move and from·64+to.
    history: Vec<[i32; 4096]>,
    /// The reply that refuted the opponent's last move, by side to move and that move's from·64+to.
    counters: Vec<[Move; 4096]>,
    /// Capture history: noisy moves that caused cutoffs, by side to move and from·64+to.
    captures: Vec<[i32; 4096]>,
    /// Continuation history, by an earlier move's key and this move's key ([`cont_key`]);
    /// empty until a search with `continuation_history` allocates it (2 MB).
    cont: Vec<[i16; CONT_KEYS]>,
    /// Correction history, by side to move and structure key modulo [`CORRECTION_SIZE`]:
    /// how far the static evaluation fell short of the search's score, in 1/[`CORRECTION_GRAIN`]
    /// centipawns; empty until a search with `correction_history` allocates it.
    correction: Vec<[i32; CORRECTION_SIZE]>,
    /// Correction history by each side's pieces ([`CorrectionKeys::pieces`]): by side to move
    /// and the pieces' colour (`2 · side + colour`), in the same units; empty unless a search
    /// with `correction_pieces` allocates it.
    piece_correction: Vec<[i32; CORRECTION_SIZE]>,
}

/// The keys a position's correction-history entries are found by: its structure
/// (`Game::structure_key`) and each side's other pieces (`Game::piece_keys`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys {
    pub structure: u64,
    pub pieces: [u64; 2],
}

/// Entries of the correction history per side.
pub const CORRECTION_SIZE: usize = 16_384;
/// Fixed-point scale of a correction entry.
const CORRECTION_GRAIN: i32 = 256;
/// Corrections stay within ±this many centipawns.
const CORRECTION_MAX: i32 = 96;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: vec![[0; 4096]; 2],
            counters: vec![[Move::NULL; 4096]; 2],
            captures: vec![[0; 4096]; 2],
            cont: Vec::new(),
            correction: Vec::new(),
            piece_correction: Vec::new(),
        }
    }
}

impl Heuristics {
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    #[inline]
    pub fn history(&self, side: Color, mv: Move) -> i32 {
        self.history[side.index()][mv.from_to()]
    }

    #[inline]
    pub fn counter(&self, side: Color, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.counters[side.index()][previous.from_to()]
        }
    }

    /// A quiet move caused a beta cutoff at `ply` and `depth`; `tried` are the quiet moves
    /// searched before it in vain.
    pub fn cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        mv: Move,
        previous: Move,
        tried: &[Move],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        if !previous.is_null() {
            self.counters[side.index()][previous.from_to()] = mv;
        }
        reward(&mut self.history[side.index()], depth, mv, tried);
    }

    #[inline]
    pub fn capture_history(&self, side: Color, mv: Move) -> i32 {
        self.captures[side.index()][mv.from_to()]
    }

    /// A noisy move caused a beta cutoff at `depth`; `tried` are the noisy moves searched
    /// before it in vain.
    pub fn capture_cutoff(&mut self, side: Color, depth: i32, mv: Move, tried: &[Move]) {
        reward(&mut self.captures[side.index()], depth, mv, tried);
    }

    /// Allocates the continuation history (once; kept from one search to the next).
    pub fn enable_continuation(&mut self) {
        if self.cont.is_empty() {
            self.cont = vec![[0; CONT_KEYS]; CONT_KEYS];
        }
    }

    /// Allocates the correction history (once); with `pieces`, the tables by each side's
    /// pieces too.
    pub fn enable_correction(&mut self, pieces: bool) {
        if self.correction.is_empty() {
            self.correction = vec![[0; CORRECTION_SIZE]; 2];
        }
        if pieces && self.piece_correction.is_empty() {
            self.piece_correction = vec![[0; CORRECTION_SIZE]; 4];
        }
    }

    /// The correction, in centipawns, of a static evaluation for `side` to move in a position
    /// with the keys `keys`: the structure's entry plus half of each side's pieces' entry
    /// (those where allocated; 0 when nothing is).
    #[inline]
    pub fn correction(&self, side: Color, keys: &CorrectionKeys) -> i32 {
        let Some(t) = self.correction.get(side.index()) else {
            return 0;
        };
        let mut sum = 2 * t[slot(keys.structure)];
        if !self.piece_correction.is_empty() {
            for (colour, &key) in keys.pieces.iter().enumerate() {
                sum += self.piece_correction[2 * side.index() + colour][slot(key)];
            }
        }
        sum / (2 * CORRECTION_GRAIN)
    }

    /// A search to `depth` scored a position `error` centipawns above its corrected static
    /// evaluation: each of its entries moves towards the error, the faster the deeper the
    /// search.
    pub fn correction_update(
        &mut self,
        side: Color,
        keys: &CorrectionKeys,
        error: i32,
        depth: i32,
    ) {
        let weight = (depth + 1).min(16);
        let error = error.clamp(-2 * CORRECTION_MAX, 2 * CORRECTION_MAX) * CORRECTION_GRAIN;
        if let Some(t) = self.correction.get_mut(side.index()) {
            learn(&mut t[slot(keys.structure)], error, weight);
        }
        if !self.piece_correction.is_empty() {
            for (colour, &key) in keys.pieces.iter().enumerate() {
                learn(
                    &mut self.piece_correction[2 * side.index() + colour][slot(key)],
                    error,
                    weight,
                );
            }
        }
    }

    /// The continuation history of a move with key `key` after the earlier moves `earlier`
    /// (the opponent's last move, our move before it, our move two before it; [`CONT_NONE`]
    /// where there is none or it is not used).
    #[inline]
    pub fn continuation(&self, earlier: &[usize], key: usize) -> i32 {
        if self.cont.is_empty() {
            return 0;
        }
        earlier
            .iter()
            .filter(|&&k| k != CONT_NONE)
            .map(|&k| self.cont[k][key] as i32)
            .sum()
    }

    /// A quiet move with key `key` caused a cutoff at `depth` after the moves `earlier`;
    /// `tried` are the keys of the quiet moves searched before it in vain.
    pub fn continuation_cutoff(
        &mut self,
        earlier: &[usize],
        depth: i32,
        key: usize,
        tried: impl Iterator<Item = usize> + Clone,
    ) {
        if self.cont.is_empty() {
            return;
        }
        let bonus = history_bonus(depth);
        for &k in earlier.iter().filter(|&&k| k != CONT_NONE) {
            let row = &mut self.cont[k];
            gravity16(&mut row[key], bonus);
            for bad in tried.clone() {
                gravity16(&mut row[bad], -bonus);
            }
        }
    }

    /// Halves the history between searches, so that old lessons fade.
    pub fn age(&mut self) {
        for side in self.history.iter_mut().chain(self.captures.iter_mut()) {
            for h in side.iter_mut() {
                *h /= 2;
            }
        }
        for row in self.cont.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
    }
}

/// The correction-history entry of `key`.
#[inline]
fn slot(key: u64) -> usize {
    key as usize % CORRECTION_SIZE
}

/// Moves a correction entry `e` by `weight`/256 of the way towards `e + error`, within
/// ±[`CORRECTION_MAX`] centipawns.
fn learn(e: &mut i32, error: i32, weight: i32) {
    let target = e.saturating_add(error);
    *e = ((*e as i64 * (256 - weight) as i64 + target as i64 * weight as i64) / 256) as i32;
    *e = (*e).clamp(
        -CORRECTION_MAX * CORRECTION_GRAIN,
        CORRECTION_MAX * CORRECTION_GRAIN,
    );
}

/// Rewards `mv`, which caused a cutoff at `depth`, in a history `table` and punishes the
/// moves `tried` before it.
fn reward(table: &mut [i32; 4096], depth: i32, mv: Move, tried: &[Move]) {
    let bonus = history_bonus(depth);
    gravity(&mut table[mv.from_to()], bonus);
    for &bad in tried {
        gravity(&mut table[bad.from_to()], -bonus);
    }
}

/// The history bonus (and malus) of a cutoff at `depth`, on Stockfish's scale: a deep cutoff
/// moves an entry by up to a tenth of [`HISTORY_MAX`] at once.
pub fn history_bonus(depth: i32) -> i32 {
    (300 * depth - 250).clamp(50, 1600)
}

/// Moves `h` towards ±HISTORY_MAX by `bonus`, less the nearer it is already.
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// [`gravity`] for a 16-bit entry (±HISTORY_MAX fits).
fn gravity16(h: &mut i16, bonus: i32) {
    let mut v = *h as i32;
    gravity(&mut v, bonus);
    *h = v as i16;
}

/// Moves with their ordering scores.
pub type Scored = ArrayVec<(Move, i32), 256>;

/// The moves of one node with their ordering scores, handed out best first. The list lives in
/// the caller's frame: moving a full list would copy all its capacity.
pub struct Picker<'a> {
    moves: &'a mut Scored,
    next: usize,
}

/// What the picker needs to know besides the position.
pub struct Hints {
    pub tt_move: Move,
    pub killers: [Move; 2],
    pub counter: Move,
    /// Whether noisy moves of equal `noisy_order` are told apart by capture history.
    pub capture_history: bool,
    /// Whether quiet moves get the game's `quiet_order` bonus on top of their history.
    pub quiet_order: bool,
    /// The continuation keys of the opponent's last move, of ours before it and of ours two
    /// moves before ([`CONT_NONE`] where there is none, or all when continuation history is
    /// off; the third unless `continuation_history_4`).
    pub earlier: [usize; 3],
}

impl<'a> Picker<'a> {
    /// Scores `moves` of `pos` (all of them, or only the noisy ones when `noisy_only`) into
    /// `buffer`.
    pub fn new<G: Game>(
        pos: &G,
        moves: &MoveList,
        hints: &Hints,
        heur: &Heuristics,
        noisy_only: bool,
        buffer: &'a mut Scored,
    ) -> Picker<'a> {
        let side = pos.side_to_move();
        buffer.clear();
        let picker = Picker {
            moves: buffer,
            next: 0,
        };
        for &mv in moves {
            let noisy = pos.is_noisy(mv);
            if noisy_only && !noisy && mv != hints.tt_move {
                continue;
            }
            let score = if mv == hints.tt_move {
                TT_MOVE
            } else if noisy {
                let mut order = pos.noisy_order(mv).clamp(-100_000_000, 100_000_000);
                if hints.capture_history {
                    order += heur.capture_history(side, mv) / 32;
                }
                if pos.see_ge(mv, 0) {
                    GOOD_NOISY + order
                } else {
                    BAD_NOISY + order
                }
            } else if mv == hints.killers[0] {
                KILLER + 1
            } else if mv == hints.killers[1] {
                KILLER
            } else if mv == hints.counter {
                COUNTER
            } else {
                let mut h = heur.history(side, mv);
                if hints.quiet_order {
                    h += pos.quiet_order(mv);
                }
                if hints.earlier != [CONT_NONE; 3] {
                    h += heur.continuation(&hints.earlier, cont_key(pos, mv));
                }
                h
            };
            picker.moves.push((mv, score));
        }
        picker
    }

    /// The best move not handed out yet, with whether it is ordered as a losing capture.
    pub fn next_move(&mut self) -> Option<(Move, bool)> {
        let rest = &mut self.moves[self.next..];
        let (best, _) = rest
            .iter()
            .enumerate()
            .max_by_key(|&(i, &(_, s))| (s, std::cmp::Reverse(i)))?;
        rest.swap(0, best);
        let (mv, score) = self.moves[self.next];
        self.next += 1;
        Some((mv, score < BAD_NOISY / 2))
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    /// The moves of `pos` in the order a picker gives them (noisy ones alone if `noisy`).
    fn picked(pos: &Pawns, hints: &Hints, heur: &Heuristics, noisy: bool) -> Vec<String> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut buffer = Scored::new();
        let mut picker = Picker::new(pos, &moves, hints, heur, noisy, &mut buffer);
        let mut order = Vec::new();
        while let Some((mv, _)) = picker.next_move() {
            order.push(pos.move_text(mv));
        }
        order
    }

    /// Hints with nothing but the two switches and the continuation keys.
    fn bare_hints(capture_history: bool, earlier: [usize; 3]) -> Hints {
        Hints {
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            capture_history,
            quiet_order: false,
            earlier,
        }
    }

    #[test]
    fn order_tt_noisy_killer_history() {
        // White: b3 can take a4 or c4, and every pawn can step.
        let pos = Pawns::from_fen("pawns6", "6/6/p1p3/1P4/6/P4P w - - 0 1").unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let find = |t: &str| pos.parse_move(t).unwrap();
        let mut heur = Heuristics::default();
        heur.cutoff(
            Color::White,
            0,
            5,
            find("f1f2"),
            Move::NULL,
            &[find("a1a2")],
        );
        assert_eq!(history_bonus(5), 1250);
        assert_eq!(heur.history(Color::White, find("f1f2")), 1250);
        assert_eq!(heur.history(Color::White, find("a1a2")), -1250);
        let hints = Hints {
            tt_move: find("a1a2"),
            killers: [find("b3b4"), Move::NULL],
            counter: Move::NULL,
            capture_history: false,
            quiet_order: false,
            earlier: [CONT_NONE; 3],
        };
        let mut order = picked(&pos, &hints, &heur, false);
        order[1..3].sort();
        assert_eq!(order, ["a1a2", "b3a4", "b3c4", "b3b4", "f1f2"]);
        let no_tt = Hints {
            tt_move: Move::NULL,
            ..hints
        };
        let mut buffer = Scored::new();
        let mut noisy = Picker::new(&pos, &moves, &no_tt, &heur, true, &mut buffer);
        assert_eq!(noisy.len(), 2);
        assert!(
            noisy
                .next_move()
                .is_some_and(|(m, bad)| pos.is_noisy(m) && !bad)
        );
    }

    #[test]
    fn capture_history_orders_equal_captures() {
        // b3 takes a4 or c4: the same pawn takes a pawn, equal by noisy order and exchange.
        let pos = Pawns::from_fen("pawns6", "6/6/p1p3/1P4/6/P4P w - - 0 1").unwrap();
        let find = |t: &str| pos.parse_move(t).unwrap();
        let order =
            |heur: &Heuristics, on: bool| picked(&pos, &bare_hints(on, [CONT_NONE; 3]), heur, true);
        let mut heur = Heuristics::default();
        let plain = order(&heur, true);
        assert_eq!(plain.len(), 2);
        // The one that comes second cuts off, over the other one tried before it.
        let (first, second) = (find(&plain[0]), find(&plain[1]));
        heur.capture_cutoff(Color::White, 5, second, &[first]);
        assert!(heur.capture_history(Color::White, second) > 0);
        assert!(heur.capture_history(Color::White, first) < 0);
        assert_eq!(order(&heur, true), [plain[1].clone(), plain[0].clone()]);
        // Switched off, the record is not looked at.
        assert_eq!(order(&heur, false), plain);
    }

    #[test]
    fn continuation_history_orders_quiet_moves() {
        let pos = Pawns::from_fen("pawns6", "6/6/p1p3/1P4/6/P4P w - - 0 1").unwrap();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let find = |t: &str| pos.parse_move(t).unwrap();
        let mut heur = Heuristics::default();
        let earlier = [3, CONT_NONE, CONT_NONE];
        let (good, bad) = (cont_key(&pos, find("a1a2")), cont_key(&pos, find("f1f2")));
        // Not allocated yet: nothing is learnt.
        heur.continuation_cutoff(&earlier, 5, good, [bad].into_iter());
        assert_eq!(heur.continuation(&earlier, good), 0);
        heur.enable_continuation();
        heur.continuation_cutoff(&earlier, 5, good, [bad].into_iter());
        assert_eq!(heur.continuation(&earlier, good), 1250);
        assert_eq!(heur.continuation(&earlier, bad), -1250);
        // Another earlier move has its own row; both rows add up.
        assert_eq!(heur.continuation(&[4, CONT_NONE], good), 0);
        assert_eq!(heur.continuation(&[3, 3], good), 2500);
        assert_eq!(heur.continuation(&[3, 5, 3], good), 2500);
        let order = picked(&pos, &bare_hints(false, earlier), &heur, false);
        // The two captures, then a1a2 (rewarded) first of the quiet moves, f1f2 last.
        assert_eq!(order[2], "a1a2");
        assert_eq!(order.last().map(String::as_str), Some("f1f2"));
    }

    #[test]
    fn correction_history_follows_the_error_and_stays_bounded() {
        let keys = |structure| CorrectionKeys {
            structure,
            pieces: [0; 2],
        };
        let mut heur = Heuristics::default();
        heur.correction_update(Color::White, &keys(7), 50, 10);
        assert_eq!(
            heur.correction(Color::White, &keys(7)),
            0,
            "not allocated yet"
        );
        heur.enable_correction(false);
        // The corrected evaluation is 50 cp short each time: the correction approaches 50.
        for _ in 0..200 {
            let error = 50 - heur.correction(Color::White, &keys(7));
            heur.correction_update(Color::White, &keys(7), error, 10);
        }
        assert!((48..=50).contains(&heur.correction(Color::White, &keys(7))));
        assert_eq!(heur.correction(Color::Black, &keys(7)), 0);
        assert_eq!(heur.correction(Color::White, &keys(8)), 0);
        for _ in 0..200 {
            heur.correction_update(Color::Black, &keys(7), -10_000, 20);
        }
        assert_eq!(heur.correction(Color::Black, &keys(7)), -CORRECTION_MAX);
    }

    /// With the tables by pieces, an error learnt in one position is also applied, by half,
    /// to another with the same pieces of one side but another structure.
    #[test]
    fn piece_correction_history_carries_over_to_the_same_pieces() {
        let learnt = CorrectionKeys {
            structure: 1,
            pieces: [10, 20],
        };
        let same_white = CorrectionKeys {
            structure: 2,
            pieces: [10, 21],
        };
        for pieces in [false, true] {
            let mut heur = Heuristics::default();
            heur.enable_correction(pieces);
            for _ in 0..300 {
                let error = 40 - heur.correction(Color::White, &learnt);
                heur.correction_update(Color::White, &learnt, error, 12);
            }
            assert!((38..=40).contains(&heur.correction(Color::White, &learnt)));
            let carried = heur.correction(Color::White, &same_white);
            if pieces {
                assert!(carried > 5, "{carried}");
            } else {
                assert_eq!(carried, 0);
            }
        }
    }

    #[test]
    fn history_saturates() {
        let mut h = 0;
        for _ in 0..10_000 {
            gravity(&mut h, 1200);
        }
        assert!(h <= HISTORY_MAX && h > HISTORY_MAX - 1200);
    }
}
