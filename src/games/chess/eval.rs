//! Evaluation of chess positions in centipawns for the side to move: material and
//! piece-square tables for the middlegame and the endgame, blended by the material left
//! (tapered evaluation), plus a few classic terms — mobility, bishop pair, passed, doubled and
//! isolated pawns, rooks on open files, the pawn shield in front of a castled king.
//!
//! The piece-square tables are made from simple formulas (centralisation, advancement,
//! castled-king squares), so they are symmetric between the a- and h-side and between the
//! colours by construction. Every term is a (middlegame, endgame) pair, [`S`].

use super::attacks;
use super::position::*;
use crate::board::Color;

/// A (middlegame, endgame) score pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

impl std::ops::Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

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

/// `PST[piece][sq]` with material included, for `piece = color * 6 + kind` (Black's values
/// negated and mirrored), so that the White-minus-Black sum is just an addition.
const fn make_pst() -> [[S; 64]; 12] {
    let mut t = [[S(0, 0); 64]; 12];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            let v = pst_value(kind, sq);
            let m = MATERIAL[kind];
            t[kind][sq] = S(v.0 + m.0, v.1 + m.1);
            t[6 + kind][sq ^ 56] = S(-v.0 - m.0, -v.1 - m.1);
            sq += 1;
        }
        kind += 1;
    }
    t
}
static PST: [[S; 64]; 12] = make_pst();

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
    /// Static evaluation in centipawns, positive when the side to move stands better.
    pub fn evaluate(&self) -> i32 {
        let mut score = S(0, 0);
        let mut phase = 0;
        let mut occ = self.occupied();
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let piece = self.piece_on(sq) as usize;
            score += PST[piece][sq];
            phase += PHASE[piece % 6];
        }
        score += self.side_terms(Color::White) - self.side_terms(Color::Black);
        score += if self.side == Color::White {
            TEMPO
        } else {
            S(0, 0) - TEMPO
        };
        let phase = phase.min(MAX_PHASE);
        let mut value = (score.0 * phase + score.1 * (MAX_PHASE - phase)) / MAX_PHASE;
        // A side without pawns and at most a minor piece more cannot usually win.
        let strong = if value > 0 {
            Color::White
        } else {
            Color::Black
        };
        if self.bb(strong, PAWN) == 0 {
            let weak = strong.flip();
            let minors = |c: Color| (self.bb(c, KNIGHT) | self.bb(c, BISHOP)).count_ones() as i32;
            let heavy = |c: Color| {
                5 * self.bb(c, ROOK).count_ones() as i32 + 9 * self.bb(c, QUEEN).count_ones() as i32
            };
            let edge = 3 * minors(strong) + heavy(strong) - 3 * minors(weak) - heavy(weak);
            if edge <= 3 {
                value /= 8;
            }
        }
        if self.side == Color::White {
            value
        } else {
            -value
        }
    }

    /// The terms beyond material and piece squares for one side.
    fn side_terms(&self, us: Color) -> S {
        let them = us.flip();
        let mut s = S(0, 0);
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

        if self.bb(us, BISHOP).count_ones() >= 2 {
            s += BISHOP_PAIR;
        }
        for (kind, &(per, zero)) in MOBILITY.iter().enumerate().take(KING).skip(KNIGHT) {
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
                s += per * ((att & safe).count_ones() as i32 - zero);
                if kind == ROOK {
                    let file = FILE_A << (sq & 7);
                    if file & pawns == 0 {
                        s += if file & their_pawns == 0 {
                            ROOK_OPEN
                        } else {
                            ROOK_HALF_OPEN
                        };
                    }
                }
            }
        }

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
                s += PASSED[rel_rank];
            }
            if ADJACENT_FILES[file] & pawns == 0 {
                s += ISOLATED;
            }
        }
        for file in 0..8 {
            let n = (pawns & (FILE_A << file)).count_ones() as i32;
            if n > 1 {
                s += DOUBLED * (n - 1);
            }
        }

        // Pawn shield: own pawns on the three files around a king on its first two ranks.
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
            s += SHIELD * (files & ranks & pawns).count_ones().min(3) as i32;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric() {
        for kind in 0..6 {
            for sq in 0..64 {
                assert_eq!(PST[kind][sq], PST[kind][sq ^ 7], "files mirror");
                let b = PST[6 + kind][sq ^ 56];
                assert_eq!(PST[kind][sq], S(-b.0, -b.1), "colours mirror");
            }
        }
    }

    #[test]
    fn start_position_is_level_and_mirrors_agree() {
        let start = Chess::parse_fen(Chess::START_FEN).unwrap();
        assert_eq!(start.evaluate(), TEMPO.0);
        for fen in [
            "r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 8",
            "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
            "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
        ] {
            let pos = Chess::parse_fen(fen).unwrap();
            let flipped = Chess::parse_fen(&mirror(fen)).unwrap();
            assert_eq!(pos.evaluate(), flipped.evaluate(), "{fen}");
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
        assert!(pos.evaluate() > 800);
        let pos = Chess::parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(pos.evaluate() < -800);
    }
}
