//! Zobrist keys shared by every game: a fixed pseudo-random table made at compile time
//! (splitmix64), so hashes are the same in every run and every binary.

/// How many keys the table holds: 16 piece kinds × 64 squares plus 64 spare keys for side to
/// move, castling rights and en-passant squares.
pub const KEYS: usize = 16 * 64 + 64;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn table() -> [u64; KEYS] {
    let mut t = [0u64; KEYS];
    let mut i = 0;
    while i < KEYS {
        t[i] = splitmix(0x6B69_6562_6974_7A00 ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        i += 1;
    }
    t
}

static TABLE: [u64; KEYS] = table();

/// The key of piece kind `piece` (0..16) on square `sq` (0..64).
#[inline]
pub fn piece(piece: usize, sq: usize) -> u64 {
    TABLE[piece * 64 + sq]
}

/// The key for Black to move.
#[inline]
pub fn side() -> u64 {
    TABLE[16 * 64]
}

/// The key of an en-passant square (0..64, folded onto 32 spare keys by square index).
#[inline]
pub fn en_passant(sq: usize) -> u64 {
    TABLE[16 * 64 + 1 + (sq & 31)] ^ TABLE[16 * 64 + 33 + (sq >> 5)]
}

/// The key of castling-rights bit `bit` (0..4). Shares spare keys with nothing else in use.
#[inline]
pub fn castling(bit: usize) -> u64 {
    TABLE[16 * 64 + 59 + bit]
}

/// Spare key `i` (0..64) for a game's own state (the seat to move among four, an area's edges);
/// games that use these do not use the side, en-passant or castling keys.
#[inline]
pub fn spare(i: usize) -> u64 {
    TABLE[16 * 64 + (i & 63)]
}
