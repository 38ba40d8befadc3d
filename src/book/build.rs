//! Building a book from games (`book build`): every move played in the first plies of the
//! games is counted with the game's result, as Polyglot's own builder does.
//!
//! A move earns its player 2 points for each game won, 1 for each game drawn and 0 for each
//! lost; unfinished games (`*`) are left out. A move is kept when it was played in at least
//! `min_games` games and earned at least one point (a move that only ever lost would have
//! weight 0, which readers never play). The weight is the points, scaled down in proportion
//! when the largest exceeds 65 535 (every kept move keeps a weight of at least 1).

use std::collections::HashMap;

use super::{Book, BookError, Entry};
use crate::game::Game;
use crate::tournament::pgn::PgnGame;

/// What to count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Moves counted from each game: the first `max_ply` plies from its start position.
    pub max_ply: u32,
    /// The fewest games a move must have been played in to be kept.
    pub min_games: u32,
}

/// A built book and what was counted.
#[derive(Debug)]
pub struct Built {
    pub book: Book,
    /// Games whose moves were counted (those of a known result).
    pub games: usize,
    /// Moves counted (positions × games).
    pub plies: u64,
    /// Different (position, move) pairs seen, before `min_games` and weight 0 left some out.
    pub pairs: usize,
    /// One sentence for each game left out or cut short, for stderr.
    pub warnings: Vec<String>,
}

/// Points for the side that won, drew, lost.
const WIN: u64 = 2;
const DRAW: u64 = 1;

/// Counts the moves of `games` (read by [`crate::tournament::pgn::parse`]) into a book. A game
/// of another variant or with an unreadable start is left out, one with an illegal move is
/// counted up to it; each says so in [`Built::warnings`]. An error when no move is left.
pub fn build<G: Game>(games: &[PgnGame], options: BuildOptions) -> Result<Built, BookError> {
    if !super::supported::<G>() {
        return Err(BookError::NoBooks { game: G::GAME });
    }
    // (key, move) → (games, points).
    let mut counts: HashMap<(u64, u16), (u32, u64)> = HashMap::new();
    let mut warnings = Vec::new();
    let (mut counted, mut plies) = (0, 0u64);
    for (n, game) in games.iter().enumerate() {
        let name = format!(
            "game {} ({} - {})",
            n + 1,
            game.tag("White").unwrap_or("?"),
            game.tag("Black").unwrap_or("?")
        );
        let points = match game.result.as_str() {
            "1-0" => [WIN, 0],
            "0-1" => [0, WIN],
            "1/2-1/2" => [DRAW, DRAW],
            _ => {
                warnings.push(format!("{name}: no result ({}), left out", game.result));
                continue;
            }
        };
        let mut pos = match start::<G>(game) {
            Ok(p) => p,
            Err(e) => {
                warnings.push(format!("{name}: {e}, left out"));
                continue;
            }
        };
        counted += 1;
        // Each (position, move) counts once per game, even if the game came back to it.
        let mut seen = Vec::new();
        for (ply, text) in game.moves.iter().enumerate().take(options.max_ply as usize) {
            let mv = match crate::san::read(&pos, text) {
                Ok(mv) => mv,
                Err(e) => {
                    warnings.push(format!(
                        "{name}: ply {} ({text}): {e}; the moves before it are counted",
                        ply + 1
                    ));
                    break;
                }
            };
            let key = pos.book_key().unwrap_or_default();
            let pair = (key, pos.book_move(mv));
            if !seen.contains(&pair) {
                seen.push(pair);
                let c = counts.entry(pair).or_default();
                c.0 += 1;
                c.1 += points[pos.side_to_move().index()];
                plies += 1;
            }
            pos = pos.play(mv);
        }
    }
    let pairs = counts.len();
    let kept: Vec<(u64, u16, u64)> = counts
        .into_iter()
        .filter(|&(_, (n, points))| n >= options.min_games && points > 0)
        .map(|((key, mv), (_, points))| (key, mv, points))
        .collect();
    if kept.is_empty() {
        return Err(BookError::NoMove {
            counted,
            pairs,
            min_games: options.min_games,
        });
    }
    let max = kept.iter().map(|k| k.2).max().unwrap_or(1);
    let entries = kept
        .into_iter()
        .map(|(key, mv, points)| Entry {
            key,
            mv,
            weight: scale(points, max),
            learn: 0,
        })
        .collect();
    Ok(Built {
        book: Book::from_entries(entries),
        games: counted,
        plies,
        pairs,
        warnings,
    })
}

/// `points` as a weight when the largest is `max`: itself up to 65 535, otherwise scaled in
/// proportion (rounded, at least 1).
pub fn scale(points: u64, max: u64) -> u16 {
    let limit = u16::MAX as u64;
    if max <= limit {
        points as u16
    } else {
        ((points as u128 * limit as u128 + max as u128 / 2) / max as u128).clamp(1, limit as u128)
            as u16
    }
}

/// The start position of a PGN game: its `FEN` tag under its `Variant` (default: the
/// engine's first variant), which must be one the engine plays.
fn start<G: Game>(game: &PgnGame) -> Result<G, crate::Error> {
    crate::game::start_position::<G>(game.tag("Variant"), game.tag("FEN"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;
    use crate::tournament::pgn::parse;

    const PGN: &str = "[White \"a\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
                       [Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n\
                       1. d4 d5 0-1\n\n1. e4 e5 *\n\n1. e4 Ke7 0-1\n\n1. c4 e5 2. Qxh7 1-0\n";

    fn weights(built: &Built) -> Vec<(String, u16)> {
        let pos = Chess::startpos("chess").unwrap();
        let mut v: Vec<(String, u16)> = built
            .book
            .moves(&pos)
            .into_iter()
            .map(|(m, w)| (pos.move_text(m), w))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn counts_results_and_filters() {
        let games = parse(PGN).unwrap();
        let opts = BuildOptions {
            max_ply: 2,
            min_games: 1,
        };
        let built = build::<Chess>(&games, opts).unwrap();
        // e4: won once (2), drawn once (1), lost once (0, the game cut at the illegal Ke7);
        // d4 only lost; c4 won (Qxh7 is beyond max_ply).
        assert_eq!(
            weights(&built),
            vec![("c2c4".into(), 2), ("e2e4".into(), 3)]
        );
        assert_eq!(built.games, 5);
        assert_eq!(built.warnings.len(), 2, "{:?}", built.warnings);
        assert!(built.warnings[0].contains("no result"));
        assert!(built.warnings[1].contains("Ke7"));
        // Nf3 is ply 3: beyond max_ply.
        let after = Chess::startpos("chess").unwrap().play(
            Chess::startpos("chess")
                .unwrap()
                .parse_move("e2e4")
                .unwrap(),
        );
        let after = after.play(after.parse_move("e7e5").unwrap());
        assert!(built.book.moves(&after).is_empty());
        let two = build::<Chess>(
            &games,
            BuildOptions {
                max_ply: 2,
                min_games: 2,
            },
        )
        .unwrap();
        assert_eq!(weights(&two), vec![("e2e4".into(), 3)]);
        let none = build::<Chess>(
            &games,
            BuildOptions {
                max_ply: 2,
                min_games: 9,
            },
        );
        assert!(none.unwrap_err().to_string().contains("--min-games"));
    }

    #[test]
    fn weights_are_scaled_into_16_bits() {
        assert_eq!(scale(7, 9), 7);
        assert_eq!(scale(65_535, 65_535), 65_535);
        assert_eq!(scale(200_000, 200_000), 65_535);
        assert_eq!(scale(100_000, 200_000), 32_768);
        assert_eq!(scale(1, 1 << 40), 1);
    }
}
