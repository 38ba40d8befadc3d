//! Zobrist keys, the one source of every game's position hash: fixed pseudo-random tables made
//! at compile time by [`crate::rng::splitmix64`], so hashes are the same in every run and every
//! binary.
//!
//! - the shared table ([`piece`], [`side`], [`en_passant`], [`castling`], [`spare`]) that
//!   Räuberschach, pawn chess, CRASH! and Chamäleon hash with;
//! - [`CHESS`], chess's keys in its own layout (castling-right sets, en-passant files), a
//!   stream of their own: chess's hashes, and so its search and bench signature, stay what
//!   they have always been;
//! - [`variant_key`], a position hash made distinct per variant (opening-book keys).
//!
//! (The Polyglot book keys of chess are the format's fixed constants, in
//! `games/chess/polyglot.rs`.)

use crate::rng::{mix64, splitmix64};

/// How many keys the table holds: 16 piece kinds × 64 squares plus 64 spare keys for side to
/// move, castling rights and en-passant squares.
pub const KEYS: usize = 16 * 64 + 64;

const fn table() -> [u64; KEYS] {
    let mut t = [0u64; KEYS];
    let mut i = 0;
    while i < KEYS {
        t[i] = splitmix64(0x6B69_6562_6974_7A00 ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
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

/// Chess's Zobrist keys: 12 pieces (`colour * 6 + kind`) × 64 squares, the 16 castling-right
/// sets (each the XOR of its rights' keys), 8 en-passant files and Black to move.
pub struct ChessKeys {
    pub piece: [[u64; 64]; 12],
    pub castling: [u64; 16],
    pub ep_file: [u64; 8],
    pub black: u64,
}

/// Key `n` of chess's stream.
const fn chess_key(n: u64) -> u64 {
    splitmix64(0xC4E5_5B17_0000_0000 ^ n)
}

const fn chess_keys() -> ChessKeys {
    let mut k = ChessKeys {
        piece: [[0; 64]; 12],
        castling: [0; 16],
        ep_file: [0; 8],
        black: 0,
    };
    let mut n = 0u64;
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            n += 1;
            k.piece[p][sq] = chess_key(n);
            sq += 1;
        }
        p += 1;
    }
    let mut bits = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        n += 1;
        bits[i] = chess_key(n);
        i += 1;
    }
    let mut set = 0;
    while set < 16 {
        let mut b = 0;
        while b < 4 {
            if set >> b & 1 != 0 {
                k.castling[set] ^= bits[b];
            }
            b += 1;
        }
        set += 1;
    }
    let mut f = 0;
    while f < 8 {
        n += 1;
        k.ep_file[f] = chess_key(n);
        f += 1;
    }
    k.black = chess_key(n + 1);
    k
}

/// Chess's keys (see [`ChessKeys`]).
pub static CHESS: ChessKeys = chess_keys();

/// A game's own position hash made a key that is distinct for each variant, so that an
/// opening book of one board size or rule set never answers positions of another: the hash
/// XOR the mixed FNV-1a of the variant's name.
pub fn variant_key(hash: u64, variant: &str) -> u64 {
    let name = variant.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    hash ^ mix64(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_values() {
        // The first keys of each table as they were made before they moved here: a changed
        // key would change every hash, book key and the search's bench signature.
        assert_eq!(piece(0, 0), splitmix64(0x6B69_6562_6974_7A00));
        assert_eq!(CHESS.piece[0][0], splitmix64(0xC4E5_5B17_0000_0001));
        assert_eq!(
            CHESS.black,
            splitmix64(0xC4E5_5B17_0000_0000 ^ (12 * 64 + 4 + 8 + 1))
        );
        assert_eq!(CHESS.castling[0], 0);
        assert_eq!(CHESS.castling[3], CHESS.castling[1] ^ CHESS.castling[2]);
        // FNV-1a and the SplitMix64 finaliser, written out as variant_key did before.
        let mut x = 0xcbf2_9ce4_8422_2325u64;
        for b in b"pawns5" {
            x = (x ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        assert_eq!(variant_key(7, "pawns5"), 7 ^ x ^ (x >> 31));
    }
}
