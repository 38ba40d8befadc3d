//! Evaluation of chess positions in centipawns for the side to move: material and
//! piece-square tables for the middlegame and the endgame, blended by the material left
//! (tapered evaluation), plus a few classic terms — mobility, bishop pair, passed, doubled and
//! isolated pawns, rooks on open files, the pawn shield in front of a castled king.
//!
//! The piece-square tables are made from simple formulas (centralisation, advancement,
//! castled-king squares), so they are symmetric between the a- and h-side and between the
//! colours by construction. Every term is a (middlegame, endgame) pair, [`S`]; the weights'
//! vocabulary ([`S`], [`idx`], [`Params`], [`Weights`]) is in `params.rs`, the tuned table in
//! `weights.rs`. The engine evaluates with the tuned table ([`TUNED`], fitted to self-play
//! games by Texel's method, docs/chess.md); the hand-made weights here ([`PARAMS`]) are the
//! tuner's starting point and `KIEBITZ_EVAL=hand`.

use super::attacks;
pub use super::params::{Params, S, Weights, idx, rank8_first};
use super::position::*;
use crate::board::Color;

/// Material by piece kind.
pub const MATERIAL: [S; 6] = [
    S(85, 110),
    S(330, 300),
    S(345, 320),
    S(470, 530),
    S(1000, 960),
    S(0, 0),
];
/// Game phase weight of each piece kind; 24 is the full opening phase.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

const BISHOP_PAIR: S = S(30, 55);
const DOUBLED: S = S(-8, -20);
const ISOLATED: S = S(-10, -12);
const ROOK_OPEN: S = S(25, 10);
const ROOK_HALF_OPEN: S = S(12, 6);
const SHIELD: S = S(12, 0);
const TEMPO: S = S(12, 0);
/// Passed-pawn bonus by rank from the pawn's own side (0 = rank 1).
const PASSED: [S; 8] = [
    S(0, 0),
    S(0, 8),
    S(2, 12),
    S(8, 22),
    S(20, 42),
    S(40, 75),
    S(65, 120),
    S(0, 0),
];
/// Mobility per reachable square, and the square count that scores zero.
const MOBILITY: [(S, i32); 6] = [
    (S(0, 0), 0),
    (S(4, 4), 4),
    (S(5, 5), 6),
    (S(2, 4), 6),
    (S(1, 2), 12),
    (S(0, 0), 0),
];

/// Piece-square value for White (`sq` as seen from White) of `kind`.
const fn pst_value(kind: usize, sq: usize) -> S {
    let f = (sq & 7) as i32;
    let r = (sq >> 3) as i32;
    let fc = if f < 4 { f } else { 7 - f }; // 0 at the edge, 3 in the centre
    let rc = if r < 4 { r } else { 7 - r };
    let centre = fc + rc; // 0 ..= 6
    match kind {
        PAWN => {
            if r == 0 || r == 7 {
                return S(0, 0);
            }
            let adv = [0, 0, 4, 10, 20, 35, 55, 0][r as usize];
            let eg_adv = [0, 0, 4, 12, 25, 45, 70, 0][r as usize];
            // Central pawns are worth more in the middlegame; a pawn left on d2/e2 blocks.
            let central = if fc == 3 {
                [0, -10, 5, 18, 22, 20, 10, 0][r as usize]
            } else if fc == 2 {
                [0, 0, 4, 10, 12, 10, 5, 0][r as usize]
            } else {
                0
            };
            // Rook-side pawns in front of a castled king are better left home in the middlegame.
            let wing = if fc == 0 { -4 } else { 0 };
            S(adv + central + wing, eg_adv)
        }
        KNIGHT => {
            let forward = if r >= 3 && r <= 5 { 8 } else { 0 };
            S(-45 + 11 * centre + forward, -35 + 9 * centre)
        }
        BISHOP => {
            let back = if r == 0 { -8 } else { 0 };
            let long_diag = if f == r || f + r == 7 { 8 } else { 0 };
            S(-14 + 4 * centre + back + long_diag, -14 + 5 * centre)
        }
        ROOK => {
            let seventh = if r == 6 { 18 } else { 0 };
            let central = if fc == 3 && r == 0 { 8 } else { 0 };
            S(seventh + central - if fc == 0 { 3 } else { 0 }, seventh / 2)
        }
        QUEEN => S(
            -8 + 2 * centre - if r == 0 { 0 } else { 2 },
            -25 + 7 * centre,
        ),
        _ => {
            // King: tucked away in the corner in the middlegame, central in the endgame.
            let home = match r {
                0 => [20, 30, 10, 0, 0, 10, 30, 20][f as usize],
                1 => [0, 0, -10, -20, -20, -10, 0, 0][f as usize],
                _ => -30 - 12 * (r - 2) - 4 * fc,
            };
            S(home, -45 + 13 * centre)
        }
    }
}

/// The hand-made starting values: formula piece-square tables plus the constants above.
pub const fn default_params() -> Params {
    let mut p = [S(0, 0); idx::COUNT];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            let v = pst_value(kind, sq);
            let m = MATERIAL[kind];
            p[idx::PST + kind * 64 + sq] = S(v.0 + m.0, v.1 + m.1);
            sq += 1;
        }
        kind += 1;
    }
    p[idx::BISHOP_PAIR] = BISHOP_PAIR;
    p[idx::DOUBLED] = DOUBLED;
    p[idx::ISOLATED] = ISOLATED;
    p[idx::ROOK_OPEN] = ROOK_OPEN;
    p[idx::ROOK_HALF_OPEN] = ROOK_HALF_OPEN;
    p[idx::SHIELD] = SHIELD;
    p[idx::TEMPO] = TEMPO;
    let mut r = 0;
    while r < 8 {
        p[idx::PASSED + r] = PASSED[r];
        r += 1;
    }
    let mut k = 0;
    while k < 6 {
        p[idx::MOBILITY + k] = MOBILITY[k].0;
        k += 1;
    }
    p
}

/// The hand-made weights (the default evaluation until the tuned table passed its SPRT;
/// `KIEBITZ_EVAL=hand`), and the tuner's starting point.
pub static PARAMS: Params = default_params();

/// The tuned weights of `weights.rs` as a parameter vector: the engine's default evaluation.
pub static TUNED: Params = super::weights::TUNED.to_params();

/// The largest weights table `KIEBITZ_EVAL` may name (1 MiB; the tuner writes a few KiB).
pub const MAX_WEIGHTS_BYTES: u64 = 1 << 20;

/// The weights table chosen at start-up ([`choose_weights`]).
static CHOSEN_WEIGHTS: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Chooses the weights [`active_params`] gives: `hand`, `tuned` or a table file (the binaries
/// pass the environment variable `KIEBITZ_EVAL`). Set once, at start-up, before the first
/// evaluation; a later call changes nothing.
pub fn choose_weights(choice: &str) {
    let _ = CHOSEN_WEIGHTS.set(choice.to_string());
}

/// The weights the engine evaluates with: the tuned [`TUNED`] (from `weights.rs`) unless
/// [`choose_weights`] said `hand` ([`PARAMS`]) or named a table file written by the tuner
/// (read at the first evaluation, for trying a table without rebuilding). Read once; a bad
/// value or file is reported on stderr and the hand-made weights are taken.
pub fn active_params() -> &'static Params {
    static ACTIVE: std::sync::OnceLock<&'static Params> = std::sync::OnceLock::new();
    ACTIVE.get_or_init(|| match CHOSEN_WEIGHTS.get().map(String::as_str) {
        None | Some("") | Some("tuned") => &TUNED,
        Some("hand") => &PARAMS,
        Some(path) => match crate::files::read_text(std::path::Path::new(path), MAX_WEIGHTS_BYTES)
            .map_err(String::from)
            .and_then(|text| super::params::parse_weights(&text))
        {
            Ok(w) => Box::leak(Box::new(w.to_params())),
            Err(e) => {
                eprintln!(
                    "KIEBITZ_EVAL: '{path}' is neither hand, tuned nor a weights table ({e}); using hand"
                );
                &PARAMS
            }
        },
    })
}

/// Receives the evaluation's terms: parameter `index` counted `n` times for White (negative
/// for Black). The engine sums weights; the tuner records the counts.
pub trait Trace {
    fn add(&mut self, index: usize, n: i32);
    /// Whether the terms from [`idx::EXTENDED`] on are wanted (they cost time).
    fn extended(&self) -> bool {
        true
    }
}

/// Sums the weights of a parameter vector.
struct Sum<'a> {
    params: &'a Params,
    score: S,
    extended: bool,
}

impl Trace for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, n: i32) {
        self.score += self.params[index] * n;
    }
    fn extended(&self) -> bool {
        self.extended
    }
}

/// The evaluation as data for tuning: the term counts (White minus Black), the game phase
/// (0 ..= 24) and the factor (out of 8) that scales drawish endings.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub terms: Vec<(u16, i16)>,
    pub phase: i32,
    pub scale: i32,
}

impl Trace for Vec<(u16, i16)> {
    fn add(&mut self, index: usize, n: i32) {
        if n == 0 {
            return;
        }
        match self.iter_mut().find(|t| t.0 as usize == index) {
            Some(t) => t.1 += n as i16,
            None => self.push((index as u16, n as i16)),
        }
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Squares in front of a pawn of each colour on its own and the neighbouring files.
const fn passed_masks() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq & 7;
        let r = sq >> 3;
        let mut files = FILE_A << f;
        if f > 0 {
            files |= FILE_A << (f - 1);
        }
        if f < 7 {
            files |= FILE_A << (f + 1);
        }
        let above = if r == 7 { 0 } else { u64::MAX << ((r + 1) * 8) };
        let below = if r == 0 { 0 } else { u64::MAX >> ((8 - r) * 8) };
        t[0][sq] = files & above;
        t[1][sq] = files & below;
        sq += 1;
    }
    t
}
static PASSED_MASK: [[u64; 64]; 2] = passed_masks();

const fn adjacent_files() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= FILE_A << (f - 1);
        }
        if f < 7 {
            t[f] |= FILE_A << (f + 1);
        }
        f += 1;
    }
    t
}
static ADJACENT_FILES: [u64; 8] = adjacent_files();

impl Chess {
    /// The hand-made static evaluation in centipawns, positive when the side to move stands
    /// better (the network's teacher; [`crate::game::Game::evaluate`] answers with the network
    /// when one is in use).
    pub fn evaluate_hce(&self) -> i32 {
        self.evaluate_with(active_params())
    }

    /// [`Chess::evaluate_hce`] with another parameter vector (for tuning and testing).
    pub fn evaluate_with(&self, params: &Params) -> i32 {
        let mut sum = Sum {
            params,
            score: S(0, 0),
            extended: params[idx::EXTENDED..].iter().any(|&s| s != S(0, 0)),
        };
        let phase = self.terms(&mut sum);
        let score = sum.score;
        let mut value = (score.0 * phase + score.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        value = value * self.scale(value > 0) / 8;
        if self.side == Color::White {
            value
        } else {
            -value
        }
    }

    /// The evaluation's terms for the tuner (White's point of view).
    pub fn features(&self, white_ahead: bool) -> Features {
        let mut terms = Vec::new();
        let phase = self.terms(&mut terms);
        Features {
            terms,
            phase,
            scale: self.scale(white_ahead),
        }
    }

    /// Feeds every term to `t`; returns the game phase.
    fn terms<T: Trace>(&self, t: &mut T) -> i32 {
        let mut phase = 0;
        for color in [Color::White, Color::Black] {
            let (sign, flip) = if color == Color::White {
                (1, 0)
            } else {
                (-1, 56)
            };
            for (kind, &weight) in PHASE.iter().enumerate() {
                let mut b = self.bb(color, kind);
                while b != 0 {
                    let sq = b.trailing_zeros() as usize;
                    b &= b - 1;
                    t.add(idx::PST + kind * 64 + (sq ^ flip), sign);
                    phase += weight;
                }
            }
        }
        let white = self.side_terms(Color::White, 1, t);
        let black = self.side_terms(Color::Black, -1, t);
        if t.extended() {
            // Hanging pieces: attacked and not defended.
            let hanging = |c: Color, attacked: u64, defended: u64| {
                let pieces = self.colors[c.index()] & !self.bb(c, PAWN) & !self.bb(c, KING);
                (pieces & attacked & !defended).count_ones() as i32
            };
            t.add(
                idx::HANGING,
                hanging(Color::Black, white, black) - hanging(Color::White, black, white),
            );
        }
        t.add(idx::TEMPO, if self.side == Color::White { 1 } else { -1 });
        phase.min(MAX_PHASE)
    }

    /// Out of 8: a side without pawns and at most a minor piece more cannot usually win.
    fn scale(&self, white_ahead: bool) -> i32 {
        let strong = if white_ahead {
            Color::White
        } else {
            Color::Black
        };
        if self.bb(strong, PAWN) != 0 {
            return 8;
        }
        let weak = strong.flip();
        let minors = |c: Color| (self.bb(c, KNIGHT) | self.bb(c, BISHOP)).count_ones() as i32;
        let heavy = |c: Color| {
            5 * self.bb(c, ROOK).count_ones() as i32 + 9 * self.bb(c, QUEEN).count_ones() as i32
        };
        let edge = 3 * minors(strong) + heavy(strong) - 3 * minors(weak) - heavy(weak);
        if edge <= 3 { 1 } else { 8 }
    }

    /// The terms beyond material and piece squares for one side; returns the squares the
    /// side attacks (all of them when the trace wants the extended terms, else 0).
    fn side_terms<T: Trace>(&self, us: Color, sign: i32, t: &mut T) -> u64 {
        let them = us.flip();
        let own = self.colors[us.index()];
        let occ = self.occupied();
        let pawns = self.bb(us, PAWN);
        let their_pawns = self.bb(them, PAWN);

        // Squares attacked by enemy pawns are poor for mobility.
        let enemy_pawn_attacks = if them == Color::White {
            ((their_pawns & !FILE_A) << 7) | ((their_pawns & !(FILE_A << 7)) << 9)
        } else {
            ((their_pawns & !FILE_A) >> 9) | ((their_pawns & !(FILE_A << 7)) >> 7)
        };
        let safe = !own & !enemy_pawn_attacks;
        let ext = t.extended();
        let their_king = self.king(them);
        let zone = attacks::KING[their_king] | (1u64 << their_king);
        let mut attacked = 0u64;

        if self.bb(us, BISHOP).count_ones() >= 2 {
            t.add(idx::BISHOP_PAIR, sign);
        }
        for (kind, &(_, zero)) in MOBILITY.iter().enumerate().take(KING).skip(KNIGHT) {
            let mut b = self.bb(us, kind);
            while b != 0 {
                let sq = b.trailing_zeros() as usize;
                b &= b - 1;
                let att = match kind {
                    KNIGHT => attacks::KNIGHT[sq],
                    BISHOP => attacks::bishop(sq, occ),
                    ROOK => attacks::rook(sq, occ),
                    _ => attacks::queen(sq, occ),
                };
                t.add(
                    idx::MOBILITY + kind,
                    sign * ((att & safe).count_ones() as i32 - zero),
                );
                if ext {
                    attacked |= att;
                    t.add(
                        idx::KING_ATTACK + kind,
                        sign * (att & zone).count_ones() as i32,
                    );
                }
                if kind == ROOK {
                    let file = FILE_A << (sq & 7);
                    if file & pawns == 0 {
                        let open = file & their_pawns == 0;
                        let i = if open {
                            idx::ROOK_OPEN
                        } else {
                            idx::ROOK_HALF_OPEN
                        };
                        t.add(i, sign);
                    }
                }
            }
        }

        self.pawn_terms(us, sign, t);
        self.shield_term(us, sign, t);

        if !ext {
            return 0;
        }
        let ksq = self.king(us);
        let pawn_attacks = if us == Color::White {
            ((pawns & !FILE_A) << 7) | ((pawns & !(FILE_A << 7)) << 9)
        } else {
            ((pawns & !FILE_A) >> 9) | ((pawns & !(FILE_A << 7)) >> 7)
        };
        let their_pieces = self.colors[them.index()] & !their_pawns & !self.bb(them, KING);
        t.add(
            idx::PAWN_THREAT,
            sign * (pawn_attacks & their_pieces).count_ones() as i32,
        );
        let beside = ((pawns & !(FILE_A << 7)) << 1) | ((pawns & !FILE_A) >> 1);
        t.add(
            idx::CONNECTED,
            sign * (pawns & (pawn_attacks | beside)).count_ones() as i32,
        );
        if (FILE_A << (ksq & 7)) & pawns == 0 {
            t.add(idx::KING_OPEN_FILE, sign);
        }
        attacked | pawn_attacks | attacks::KING[ksq]
    }

    /// The pawn-structure terms of one side: passed pawns (with the kings' distances to the
    /// stop square when the trace wants the extended terms), isolated and doubled pawns.
    #[inline]
    fn pawn_terms<T: Trace>(&self, us: Color, sign: i32, t: &mut T) {
        let ext = t.extended();
        let pawns = self.bb(us, PAWN);
        let their_pawns = self.bb(us.flip(), PAWN);
        let their_king = self.king(us.flip());
        let mut b = pawns;
        while b != 0 {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            let file = sq & 7;
            if PASSED_MASK[us.index()][sq] & their_pawns == 0 {
                let rel_rank = if us == Color::White {
                    sq >> 3
                } else {
                    7 - (sq >> 3)
                };
                t.add(idx::PASSED + rel_rank, sign);
                if ext {
                    let stop = if us == Color::White { sq + 8 } else { sq - 8 };
                    let dist = |k: usize| {
                        let df = ((k & 7) as i32 - (stop & 7) as i32).abs();
                        let dr = ((k >> 3) as i32 - (stop >> 3) as i32).abs();
                        df.max(dr)
                    };
                    t.add(idx::PASSED_KING_OWN, sign * dist(self.king(us)));
                    t.add(idx::PASSED_KING_THEIR, sign * dist(their_king));
                }
            }
            if ADJACENT_FILES[file] & pawns == 0 {
                t.add(idx::ISOLATED, sign);
            }
        }
        for file in 0..8 {
            let n = (pawns & (FILE_A << file)).count_ones() as i32;
            if n > 1 {
                t.add(idx::DOUBLED, sign * (n - 1));
            }
        }
    }

    /// The pawn shield of one side: own pawns on the three files around a king on its first
    /// two ranks.
    #[inline]
    fn shield_term<T: Trace>(&self, us: Color, sign: i32, t: &mut T) {
        let pawns = self.bb(us, PAWN);
        let ksq = self.king(us);
        let rel_rank = if us == Color::White {
            ksq >> 3
        } else {
            7 - (ksq >> 3)
        };
        if rel_rank <= 1 {
            let f = ksq & 7;
            let files = (FILE_A << f) | ADJACENT_FILES[f];
            let r = ksq >> 3;
            let ranks = if us == Color::White {
                0xFFFFu64 << ((r + 1) * 8)
            } else {
                0xFFFFu64 << ((r - 2) * 8)
            };
            let n = (files & ranks & pawns).count_ones().min(3) as i32;
            t.add(idx::SHIELD, sign * n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric() {
        for kind in 0..6 {
            for sq in 0..64 {
                let at = |sq: usize| PARAMS[idx::PST + kind * 64 + sq];
                assert_eq!(at(sq), at(sq ^ 7), "files mirror");
            }
        }
    }

    /// White's evaluation summed from the position's features under weights `p`.
    fn from_features(pos: &Chess, p: &Params, white_ahead: bool) -> i32 {
        let f = pos.features(white_ahead);
        let s = f
            .terms
            .iter()
            .fold(S(0, 0), |acc, &(i, n)| acc + p[i as usize] * n as i32);
        (s.0 * f.phase + s.1 * (MAX_PHASE - f.phase)) / MAX_PHASE * f.scale / 8
    }

    #[test]
    fn features_reproduce_the_evaluation() {
        for fen in [
            "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
            "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
            "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        ] {
            let pos = Chess::parse_fen(fen).unwrap();
            for p in [&PARAMS, &TUNED] {
                let white = pos.evaluate_with(p) * if pos.side == Color::White { 1 } else { -1 };
                assert_eq!(from_features(&pos, p, white > 0), white, "{fen}");
            }
        }
        // The default evaluation is the tuned table's.
        let pos = Chess::parse_fen("r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20");
        let pos = pos.unwrap();
        assert_eq!(pos.evaluate_hce(), pos.evaluate_with(&TUNED));
        assert_ne!(pos.evaluate_hce(), pos.evaluate_with(&PARAMS));
    }

    /// The hand-made weights with every tuned-only term switched on.
    fn extended_params() -> Params {
        let mut p = PARAMS;
        for (i, s) in p[idx::EXTENDED..].iter_mut().enumerate() {
            *s = S(3 + i as i32, 7 - 2 * i as i32);
        }
        p
    }

    #[test]
    fn extended_terms_trace_and_mirror() {
        let p = extended_params();
        let mut differs = false;
        for fen in [
            "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
            "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
            "r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 8",
            "2r3k1/5pp1/p3p2p/1p1qP3/3Q4/P5P1/1P3P1P/2R3K1 b - - 1 28",
        ] {
            let pos = Chess::parse_fen(fen).unwrap();
            let sign = if pos.side == Color::White { 1 } else { -1 };
            let white = pos.evaluate_with(&p) * sign;
            differs |= white != pos.evaluate_with(&PARAMS) * sign;
            assert_eq!(from_features(&pos, &p, white > 0), white, "{fen}");
            let flipped = Chess::parse_fen(&mirror(fen)).unwrap();
            assert_eq!(pos.evaluate_with(&p), flipped.evaluate_with(&p), "{fen}");
        }
        assert!(differs, "the tuned-only terms change some evaluation");
        // Counted by hand: the pawn on d5 attacks the undefended knight on c6.
        let pos = Chess::parse_fen("4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1").unwrap();
        let f = pos.features(true);
        let count = |i: usize| {
            f.terms
                .iter()
                .find(|t| t.0 as usize == i)
                .map_or(0, |t| t.1)
        };
        assert_eq!(count(idx::PAWN_THREAT), 1);
        assert_eq!(count(idx::HANGING), 1);
        assert_eq!(count(idx::CONNECTED), 0);
        // Passed d5 pawn, stop square d6: white king e1 is 5 away, black king e8 2 away.
        assert_eq!(count(idx::PASSED_KING_OWN), 5);
        assert_eq!(count(idx::PASSED_KING_THEIR), 2);
        // Both kings are on files without own pawns: they cancel.
        assert_eq!(count(idx::KING_OPEN_FILE), 0);
        assert_eq!(count(idx::KING_ATTACK + KNIGHT), 0);
        // A black knight on f3 hits e1 and d2 of the white king's zone.
        let pos = Chess::parse_fen("4k3/8/8/8/8/5n2/8/4K3 w - - 0 1").unwrap();
        let f = pos.features(false);
        let count = |i: usize| {
            f.terms
                .iter()
                .find(|t| t.0 as usize == i)
                .map_or(0, |t| t.1)
        };
        assert_eq!(count(idx::KING_ATTACK + KNIGHT), -2);
    }

    #[test]
    fn start_position_is_level_and_mirrors_agree() {
        let start = Chess::parse_fen(Chess::START_FEN).unwrap();
        assert_eq!(start.evaluate_with(&PARAMS), TEMPO.0);
        assert_eq!(start.evaluate_hce(), TUNED[idx::TEMPO].0);
        for fen in [
            "r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 8",
            "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
            "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
        ] {
            let pos = Chess::parse_fen(fen).unwrap();
            let flipped = Chess::parse_fen(&mirror(fen)).unwrap();
            assert_eq!(pos.evaluate_hce(), flipped.evaluate_hce(), "{fen}");
        }
    }

    /// The same position with the colours swapped (board turned upside down).
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| r.chars().map(swap).collect())
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let castling: String = if f[2] == "-" {
            "-".into()
        } else {
            f[2].chars().map(swap).collect()
        };
        format!("{} {side} {castling} - {} {}", board.join("/"), f[4], f[5])
    }

    #[test]
    fn extra_queen_is_winning() {
        let pos = Chess::parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(pos.evaluate_hce() > 800);
        let pos = Chess::parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(pos.evaluate_hce() < -800);
    }
}
