//! Material signatures, once for the family: a signature is the multiset of its pieces' codes
//! (`colour * 6 + kind`, kinds pawn, knight, bishop, rook, queen, king, as the mailbox has
//! them), kept as its codes in ascending order or as a key (the count of each code, 3 bits
//! each); the signatures of `n` pieces in the order both members build (and antichess's file
//! of three pieces stores) them; their pieces' letters.

use super::super::movegen::PAWN_K;
use super::super::position::LETTERS;

/// Pieces by colour and kind: `colour * 6 + kind`.
pub const CODES: usize = 12;

/// A signature's key: the number of pieces of each code, 3 bits each.
pub fn key_of(counts: &[u8; CODES]) -> u64 {
    counts
        .iter()
        .enumerate()
        .fold(0, |k, (i, &c)| k | u64::from(c) << (3 * i))
}

/// The number of pieces of each code in `codes`.
pub fn counts_of(codes: &[u8]) -> [u8; CODES] {
    let mut counts = [0u8; CODES];
    for &c in codes {
        counts[usize::from(c)] += 1;
    }
    counts
}

/// The codes (ascending) of signature `key`.
pub fn codes_of(key: u64) -> Vec<u8> {
    (0..CODES as u8)
        .flat_map(|c| std::iter::repeat_n(c, (key >> (3 * c) & 7) as usize))
        .collect()
}

/// The pawns of a signature.
pub fn pawns(codes: &[u8]) -> usize {
    codes
        .iter()
        .filter(|&&c| usize::from(c) % 6 == PAWN_K)
        .count()
}

/// Every multiset of `n` piece codes, each in ascending order, in lexicographic order.
pub fn multisets(n: usize) -> Vec<Vec<u8>> {
    fn grow(from: u8, left: usize, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for c in from..CODES as u8 {
            cur.push(c);
            grow(c, left - 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    grow(0, n, &mut Vec::new(), &mut out);
    out
}

/// Every signature of `n` pieces with both colours present, codes ascending, the ones with
/// fewer pawns first (else in the order of [`multisets`]).
pub fn both_colours(n: usize) -> Vec<Vec<u8>> {
    let mut all: Vec<Vec<u8>> = multisets(n)
        .into_iter()
        .filter(|s| s.iter().any(|&c| c < 6) && s.iter().any(|&c| c >= 6))
        .collect();
    all.sort_by_key(|s| pawns(s));
    all
}

/// The kind of a piece letter (`PNBRQK`, either case).
pub fn kind_of_letter(letter: char) -> Option<u8> {
    let upper = letter.to_ascii_uppercase();
    LETTERS[..6]
        .iter()
        .position(|&l| l == upper)
        .map(|k| k as u8)
}

/// The letters of `colour`'s pieces in `codes` (ascending codes: pawn first, king last).
pub fn letters(codes: &[u8], colour: u8) -> impl DoubleEndedIterator<Item = char> + '_ {
    codes
        .iter()
        .filter(move |&&c| c / 6 == colour)
        .map(|&c| LETTERS[usize::from(c % 6)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_codes_go_both_ways() {
        for n in 1..=3 {
            for codes in multisets(n) {
                assert_eq!(codes_of(key_of(&counts_of(&codes))), codes);
            }
        }
        assert_eq!(multisets(2).len(), 78);
    }

    /// The order antichess's file of three pieces was written in: every non-decreasing
    /// sequence in turn (the next one: the last code that can grow grows, and those after it
    /// take its value), both colours present, then by pawns (stable).
    #[test]
    fn both_colours_keep_the_order_of_the_files() {
        for n in 2..=4 {
            let mut all = Vec::new();
            let mut codes = vec![0u8; n];
            loop {
                let white = codes.iter().filter(|&&c| c < 6).count();
                if white > 0 && white < n {
                    all.push(codes.clone());
                }
                let Some(k) = (0..n).rev().find(|&k| usize::from(codes[k]) + 1 < CODES) else {
                    break;
                };
                let next = codes[k] + 1;
                codes[k..].iter_mut().for_each(|c| *c = next);
            }
            all.sort_by_key(|s| pawns(s));
            assert_eq!(both_colours(n), all, "{n} pieces");
        }
    }
}
