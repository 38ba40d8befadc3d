//! Pawn chess (Bauernschach) on W×H boards, 3 ≤ W,H ≤ 8 (docs/rules.md §3.3).
//!
//! Only pawns: a single step forward, a diagonal capture, optionally the double step from the
//! base line and en passant. A pawn on the opponent's base line has won, and that position has
//! no moves; a side to move without moves is drawn. The position lives in [`rules`], its
//! [`Game`](crate::game::Game) implementation in `game.rs`, the evaluation in [`eval`], the
//! variant names here.

pub mod eval;
mod game;
pub mod rules;

pub use rules::Pawns;

/// Which optional rules a variant has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub double_step: bool,
    pub en_passant: bool,
}

/// Every variant name: `pawns3` … `pawns8`, each plain, with `d` and with `ep`. The default,
/// `pawns6`, comes first.
pub const VARIANTS: [&str; 18] = [
    "pawns6", "pawns6d", "pawns6ep", "pawns3", "pawns3d", "pawns3ep", "pawns4", "pawns4d",
    "pawns4ep", "pawns5", "pawns5d", "pawns5ep", "pawns7", "pawns7d", "pawns7ep", "pawns8",
    "pawns8d", "pawns8ep",
];

/// The board size and rules a variant name stands for, and the name as a `'static str`.
pub fn parse_variant(name: &str) -> Result<(&'static str, u8, Rules), String> {
    let canonical = VARIANTS
        .iter()
        .copied()
        .find(|v| v.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown variant '{name}': pawns3 … pawns8, with suffix d or ep"))?;
    let size = canonical.as_bytes()[5] - b'0';
    let suffix = &canonical[6..];
    let rules = Rules {
        double_step: !suffix.is_empty(),
        en_passant: suffix == "ep",
    };
    Ok((canonical, size, rules))
}

/// The start FEN of a W×H board: White's pawns on rank 1, Black's on rank H.
pub fn start_fen(width: u8, height: u8) -> String {
    let w = width as usize;
    let middle = vec![width.to_string(); height as usize - 2];
    let mut ranks = vec!["p".repeat(w)];
    ranks.extend(middle);
    ranks.push("P".repeat(w));
    format!("{} w - - 0 1", ranks.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names() {
        let (name, size, rules) = parse_variant("PAWNS5ep").unwrap();
        assert_eq!((name, size), ("pawns5ep", 5));
        assert!(rules.double_step && rules.en_passant);
        assert!(parse_variant("pawns9").is_err());
        assert!(parse_variant("pawns5x").is_err());
        assert_eq!(start_fen(3, 3), "ppp/3/PPP w - - 0 1");
    }
}
