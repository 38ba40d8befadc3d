//! Attack-table building blocks shared by the games with pieces (chess, Räuberschach): the
//! step and ray directions of the pieces, and `const fn` builders of per-square tables for a
//! W×H board embedded in the 8×8 grid (squares off the board attack nothing). The games keep
//! their own fast lookups (magics) built from these.

/// Knight jumps as (files, ranks).
pub const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (files, ranks).
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
/// Rook rays.
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop rays.
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The square `(df, dr)` away from `sq` on a `w`×`h` board, if it is on the board.
pub const fn offset(sq: usize, df: i8, dr: i8, w: i8, h: i8) -> Option<usize> {
    let f = (sq & 7) as i8 + df;
    let r = (sq >> 3) as i8 + dr;
    if f >= 0 && f < w && r >= 0 && r < h {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// Whether `sq` lies on a `w`×`h` board.
const fn on_board(sq: usize, w: i8, h: i8) -> bool {
    ((sq & 7) as i8) < w && ((sq >> 3) as i8) < h
}

/// For every square, the targets of a leaper with `steps` on a `w`×`h` board.
pub const fn leaper_table(steps: &[(i8, i8); 8], w: i8, h: i8) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 8 && on_board(sq, w, h) {
            if let Some(to) = offset(sq, steps[i].0, steps[i].1, w, h) {
                t[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// For every square, the two diagonal captures of a pawn moving `up` ranks (1 for White, -1
/// for Black) on a `w`×`h` board.
pub const fn pawn_table(up: i8, w: i8, h: i8) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        if on_board(sq, w, h) {
            if let Some(to) = offset(sq, -1, up, w, h) {
                t[sq] |= 1 << to;
            }
            if let Some(to) = offset(sq, 1, up, w, h) {
                t[sq] |= 1 << to;
            }
        }
        sq += 1;
    }
    t
}

/// The squares a slider on `sq` attacks along `dirs` on a `w`×`h` board when `occ` is
/// occupied, the first blocker in each direction included. Slow: for building tables.
pub const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4], w: i8, h: i8) -> u64 {
    let mut att = 0u64;
    let mut d = 0;
    while d < 4 {
        let mut cur = sq;
        while let Some(next) = offset(cur, dirs[d].0, dirs[d].1, w, h) {
            att |= 1 << next;
            if occ >> next & 1 != 0 {
                break;
            }
            cur = next;
        }
        d += 1;
    }
    att
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_know_the_board_edges() {
        let knight8 = leaper_table(&KNIGHT_STEPS, 8, 8);
        let knight6 = leaper_table(&KNIGHT_STEPS, 6, 6);
        // A knight on e5 (36) reaches g6 and g4 on 8×8 but not on 6×6.
        assert_eq!(knight8[36].count_ones(), 8);
        assert_eq!(knight6[36].count_ones(), 4);
        // Squares off the 6×6 board attack nothing.
        assert_eq!(knight6[7], 0);
        assert_eq!(pawn_table(1, 6, 6)[5], 1 << 12);
        // A rook on a1 with a blocker on a3 sees a2, a3 and the first rank.
        let occ = 1 << 16;
        assert_eq!(slide(0, occ, &ROOK_DIRS, 8, 8), 0xfe | 1 << 8 | 1 << 16);
    }
}
