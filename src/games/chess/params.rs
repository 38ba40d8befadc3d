//! The vocabulary of the chess evaluation's weights, below both the evaluation (`eval.rs`) and
//! the tuned table (`weights.rs`): the (middlegame, endgame) pair [`S`], where each term lives
//! in the parameter vector ([`idx`], [`Params`]), and the readable named form [`Weights`] in
//! which `weights.rs` is written. Depends only on the position's piece kinds.

use super::position::{KING, PAWN};

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

/// Where each term lives in the parameter vector [`Params`]: piece-square values with
/// material (kind × 64 squares as seen from White), then the single terms, passed pawns by
/// rank and mobility by piece kind.
pub mod idx {
    pub const PST: usize = 0;
    pub const BISHOP_PAIR: usize = 384;
    pub const DOUBLED: usize = 385;
    pub const ISOLATED: usize = 386;
    pub const ROOK_OPEN: usize = 387;
    pub const ROOK_HALF_OPEN: usize = 388;
    pub const SHIELD: usize = 389;
    pub const TEMPO: usize = 390;
    pub const PASSED: usize = 391;
    pub const MOBILITY: usize = 399;
    /// From here on the terms the hand-made weights leave at zero (tuned only): squares of
    /// the enemy king's zone attacked, by piece kind;
    pub const KING_ATTACK: usize = 405;
    /// enemy pieces (not pawns or king) attacked by our pawns;
    pub const PAWN_THREAT: usize = 411;
    /// pawns defended by a pawn or beside one;
    pub const CONNECTED: usize = 412;
    /// the king on a file without own pawns;
    pub const KING_OPEN_FILE: usize = 413;
    /// each passed pawn: distance of our king, and of theirs, to the square in front of it;
    pub const PASSED_KING_OWN: usize = 414;
    pub const PASSED_KING_THEIR: usize = 415;
    /// enemy pieces (not pawns or king) we attack that they do not defend.
    pub const HANGING: usize = 416;
    pub const COUNT: usize = 417;
    /// The first of the terms that are skipped while all their weights are zero.
    pub const EXTENDED: usize = KING_ATTACK;
}

/// Every evaluation weight, as (middlegame, endgame) pairs; see [`idx`].
pub type Params = [S; idx::COUNT];

/// Named weights: the readable form of a [`Params`] vector, in which the tuned table
/// (`weights.rs`) is written. Material is apart from the piece-square tables there; in
/// [`Params`] each piece-square entry holds both.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Material by piece kind (pawn, knight, bishop, rook, queen, king).
    pub material: [S; 6],
    /// Piece-square values on top of material, by kind, a1 = 0 to h8 = 63 as seen from White.
    pub pst: [[S; 64]; 6],
    pub bishop_pair: S,
    pub doubled: S,
    pub isolated: S,
    pub rook_open: S,
    pub rook_half_open: S,
    pub shield: S,
    pub tempo: S,
    /// Passed pawns by rank from the pawn's own side (0 = rank 1).
    pub passed: [S; 8],
    /// Mobility per safe square beyond the zero point, by piece kind.
    pub mobility: [S; 6],
    /// Squares of the enemy king's zone (the king's square and its neighbours) attacked, by
    /// piece kind.
    pub king_attack: [S; 6],
    pub pawn_threat: S,
    pub connected: S,
    pub king_open_file: S,
    /// Per square of distance from our king (own) or theirs to the square in front of a
    /// passed pawn.
    pub passed_king_own: S,
    pub passed_king_their: S,
    pub hanging: S,
}

impl Weights {
    /// The parameter vector the evaluation sums.
    pub const fn to_params(&self) -> Params {
        let mut p = [S(0, 0); idx::COUNT];
        let mut kind = 0;
        while kind < 6 {
            let mut sq = 0;
            while sq < 64 {
                let (v, m) = (self.pst[kind][sq], self.material[kind]);
                p[idx::PST + kind * 64 + sq] = S(v.0 + m.0, v.1 + m.1);
                sq += 1;
            }
            kind += 1;
        }
        p[idx::BISHOP_PAIR] = self.bishop_pair;
        p[idx::DOUBLED] = self.doubled;
        p[idx::ISOLATED] = self.isolated;
        p[idx::ROOK_OPEN] = self.rook_open;
        p[idx::ROOK_HALF_OPEN] = self.rook_half_open;
        p[idx::SHIELD] = self.shield;
        p[idx::TEMPO] = self.tempo;
        let mut i = 0;
        while i < 8 {
            p[idx::PASSED + i] = self.passed[i];
            i += 1;
        }
        let mut k = 0;
        while k < 6 {
            p[idx::MOBILITY + k] = self.mobility[k];
            p[idx::KING_ATTACK + k] = self.king_attack[k];
            k += 1;
        }
        p[idx::PAWN_THREAT] = self.pawn_threat;
        p[idx::CONNECTED] = self.connected;
        p[idx::KING_OPEN_FILE] = self.king_open_file;
        p[idx::PASSED_KING_OWN] = self.passed_king_own;
        p[idx::PASSED_KING_THEIR] = self.passed_king_their;
        p[idx::HANGING] = self.hanging;
        p
    }

    /// Splits a parameter vector: each kind's material is the mean of its piece-square entries
    /// (pawns: ranks 2 to 7 only; their entries on ranks 1 and 8 are never used and read 0), the
    /// king's is 0.
    pub fn from_params(p: &Params) -> Weights {
        let mut material = [S(0, 0); 6];
        let mut pst = [[S(0, 0); 64]; 6];
        for kind in 0..6 {
            let squares: Vec<usize> = (0..64)
                .filter(|sq| kind != PAWN || (8..56).contains(sq))
                .collect();
            let n = squares.len() as f64;
            let mean = |part: fn(S) -> i32| {
                (squares
                    .iter()
                    .map(|&sq| part(p[idx::PST + kind * 64 + sq]) as f64)
                    .sum::<f64>()
                    / n)
                    .round() as i32
            };
            // The king is always there: its "material" is a constant of no use.
            let m = if kind == KING {
                S(0, 0)
            } else {
                S(mean(|s| s.0), mean(|s| s.1))
            };
            material[kind] = m;
            for &sq in &squares {
                pst[kind][sq] = p[idx::PST + kind * 64 + sq] - m;
            }
        }
        let mut passed = [S(0, 0); 8];
        passed.copy_from_slice(&p[idx::PASSED..idx::PASSED + 8]);
        let mut mobility = [S(0, 0); 6];
        mobility.copy_from_slice(&p[idx::MOBILITY..idx::MOBILITY + 6]);
        let mut king_attack = [S(0, 0); 6];
        king_attack.copy_from_slice(&p[idx::KING_ATTACK..idx::KING_ATTACK + 6]);
        Weights {
            material,
            pst,
            bishop_pair: p[idx::BISHOP_PAIR],
            doubled: p[idx::DOUBLED],
            isolated: p[idx::ISOLATED],
            rook_open: p[idx::ROOK_OPEN],
            rook_half_open: p[idx::ROOK_HALF_OPEN],
            shield: p[idx::SHIELD],
            tempo: p[idx::TEMPO],
            passed,
            mobility,
            king_attack,
            pawn_threat: p[idx::PAWN_THREAT],
            connected: p[idx::CONNECTED],
            king_open_file: p[idx::KING_OPEN_FILE],
            passed_king_own: p[idx::PASSED_KING_OWN],
            passed_king_their: p[idx::PASSED_KING_THEIR],
            hanging: p[idx::HANGING],
        }
    }
}

/// Piece-square tables written as boards (rank 8 first) in a1 = 0 order.
pub const fn rank8_first(t: [[S; 64]; 6]) -> [[S; 64]; 6] {
    let mut out = [[S(0, 0); 64]; 6];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            out[kind][sq] = t[kind][sq ^ 56];
            sq += 1;
        }
        kind += 1;
    }
    out
}

/// Reads a table written by the tuner's `render` (a `weights.rs` file): the `S(mg, eg)` pairs after
/// `pub const TUNED`, in the order `render` writes them.
pub fn parse_weights(text: &str) -> Result<Weights, String> {
    let body = text
        .split_once("pub const TUNED")
        .ok_or("no `pub const TUNED` table")?
        .1;
    let mut pairs = Vec::new();
    for chunk in body.split("S(").skip(1) {
        let inner = chunk.split_once(')').ok_or("S( without )")?.0;
        let (mg, eg) = inner
            .split_once(',')
            .ok_or_else(|| format!("bad S({inner})"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<i32>()
                .map_err(|_| format!("bad number in S({inner})"))
        };
        pairs.push(S(num(mg)?, num(eg)?));
    }
    const N: usize = 6 + 6 * 64 + 7 + 8 + 6 + 6 + 6;
    if pairs.len() != N {
        return Err(format!("{} weights, expected {N}", pairs.len()));
    }
    let mut it = pairs.into_iter();
    let mut take = |n: usize| -> Vec<S> { it.by_ref().take(n).collect() };
    let mut material = [S(0, 0); 6];
    material.copy_from_slice(&take(6));
    let mut pst = [[S(0, 0); 64]; 6];
    for table in pst.iter_mut() {
        table.copy_from_slice(&take(64));
    }
    let singles = take(7);
    let mut passed = [S(0, 0); 8];
    passed.copy_from_slice(&take(8));
    let mut mobility = [S(0, 0); 6];
    mobility.copy_from_slice(&take(6));
    let mut king_attack = [S(0, 0); 6];
    king_attack.copy_from_slice(&take(6));
    let extra = take(6);
    Ok(Weights {
        material,
        pst: rank8_first(pst),
        bishop_pair: singles[0],
        doubled: singles[1],
        isolated: singles[2],
        rook_open: singles[3],
        rook_half_open: singles[4],
        shield: singles[5],
        tempo: singles[6],
        passed,
        mobility,
        king_attack,
        pawn_threat: extra[0],
        connected: extra[1],
        king_open_file: extra[2],
        passed_king_own: extra[3],
        passed_king_their: extra[4],
        hanging: extra[5],
    })
}
