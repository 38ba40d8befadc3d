//! Pawn chess (Bauernschach) on W×H boards, 3 ≤ W,H ≤ 8 (docs/rules.md §3.3).
//!
//! Only pawns: a single step forward, a diagonal capture, optionally the double step from the
//! base line and en passant. A pawn on the opponent's base line has won, and that position has
//! no moves; a side to move without moves is drawn.
//!
//! Beside the seed's rules, the chess-teaching *pawn game* (`pawngame4` … `pawngame8`, and with
//! en passant `pawngame4ep` …): chess's own pawns, on the second and the next-to-last rank,
//! with the double step from there; a pawn on the last rank wins, and a side left without
//! pawns has lost. The position lives in [`rules`], its
//! [`Game`](crate::game::Game) implementation in `game.rs`, the evaluation in [`eval`], the
//! variant names here.

pub mod analysis;
pub mod eval;
mod game;
pub mod lemma;
pub mod page;
pub mod rules;

pub use rules::Pawns;

/// Which optional rules a variant has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub double_step: bool,
    pub en_passant: bool,
    /// The pawn game: the pawns start on the second and the next-to-last rank and step twice
    /// from there (`double_step` is then always on), and a side without pawns has lost.
    pub pawn_game: bool,
}

impl Rules {
    /// The seed's rules (pawns on the base lines, a side without pawns is not lost).
    pub const fn seed(double_step: bool, en_passant: bool) -> Rules {
        Rules {
            double_step: double_step || en_passant,
            en_passant,
            pawn_game: false,
        }
    }

    /// The pawn game's rules, with or without en passant.
    pub const fn pawn_game(en_passant: bool) -> Rules {
        Rules {
            double_step: true,
            en_passant,
            pawn_game: true,
        }
    }

    /// The rank (0-based) a pawn of `white` or Black starts on and steps twice from, on a board
    /// `height` ranks high.
    pub const fn start_rank(&self, white: bool, height: u8) -> u8 {
        match (white, self.pawn_game) {
            (true, false) => 0,
            (true, true) => 1,
            (false, false) => height - 1,
            (false, true) => height - 2,
        }
    }
}

/// Every variant name: `pawns3` … `pawns8`, each plain, with `d` and with `ep`, then the pawn
/// game `pawngame4` … `pawngame8`, plain and with `ep`. The default, `pawns6`, comes first.
pub const VARIANTS: [&str; 28] = [
    "pawns6",
    "pawns6d",
    "pawns6ep",
    "pawns3",
    "pawns3d",
    "pawns3ep",
    "pawns4",
    "pawns4d",
    "pawns4ep",
    "pawns5",
    "pawns5d",
    "pawns5ep",
    "pawns7",
    "pawns7d",
    "pawns7ep",
    "pawns8",
    "pawns8d",
    "pawns8ep",
    "pawngame4",
    "pawngame4ep",
    "pawngame5",
    "pawngame5ep",
    "pawngame6",
    "pawngame6ep",
    "pawngame7",
    "pawngame7ep",
    "pawngame8",
    "pawngame8ep",
];

/// The board size and rules a variant name stands for, and the name as a `'static str`.
/// An unknown name is an [`crate::Error::Variant`] that lists the names.
pub fn parse_variant(name: &str) -> Result<(&'static str, u8, Rules), crate::Error> {
    let canonical = VARIANTS
        .iter()
        .copied()
        .find(|v| v.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            crate::Error::Variant(format!(
                "unknown variant '{name}': pawns3 … pawns8, with suffix d or ep; \
                 pawngame4 … pawngame8, with suffix ep"
            ))
        })?;
    if let Some(rest) = canonical.strip_prefix("pawngame") {
        let size = rest.as_bytes()[0] - b'0';
        return Ok((canonical, size, Rules::pawn_game(rest.ends_with("ep"))));
    }
    let size = canonical.as_bytes()[5] - b'0';
    let suffix = &canonical[6..];
    Ok((
        canonical,
        size,
        Rules::seed(!suffix.is_empty(), suffix == "ep"),
    ))
}

/// The start FEN of a W×H board under `rules`: the seed's ([`start_fen`]) or the pawn game's
/// ([`pawn_game_fen`]).
pub fn start_fen_of(width: u8, height: u8, rules: Rules) -> String {
    if rules.pawn_game {
        pawn_game_fen(width, height)
    } else {
        start_fen(width, height)
    }
}

/// The pawn game's start FEN of a W×H board (H ≥ 4): White's pawns on rank 2, Black's on
/// rank H-1.
pub fn pawn_game_fen(width: u8, height: u8) -> String {
    let w = width.to_string();
    let mut ranks = vec![w.clone(), "p".repeat(width as usize)];
    ranks.extend(vec![w.clone(); height as usize - 4]);
    ranks.push("P".repeat(width as usize));
    ranks.push(w);
    format!("{} w - - 0 1", ranks.join("/"))
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
        let (name, size, rules) = parse_variant("pawnGame7EP").unwrap();
        assert_eq!((name, size), ("pawngame7ep", 7));
        assert!(rules.pawn_game && rules.double_step && rules.en_passant);
        let (_, _, rules) = parse_variant("pawngame4").unwrap();
        assert!(rules.pawn_game && rules.double_step && !rules.en_passant);
        assert!(parse_variant("pawngame3").is_err());
        assert!(parse_variant("pawngame5d").is_err());
        assert_eq!(pawn_game_fen(4, 4), "4/pppp/PPPP/4 w - - 0 1");
        assert_eq!(pawn_game_fen(3, 5), "3/ppp/3/PPP/3 w - - 0 1");
        assert_eq!(rules.start_rank(false, 4), 2);
    }
}
