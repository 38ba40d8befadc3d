//! Openings: positions from an EPD/FEN file (one a line, EPD operations ignored), optionally
//! followed by seeded random plies, or random plies from the start position kept only when a
//! short search by kiebitz's own searcher finds them balanced.
//!
//! Opening `i` is used by pair `i` (both games, colours swapped). Depends on the Game trait
//! and the searcher.

use std::sync::Mutex;

use crate::board::MoveList;
use crate::game::Game;
use crate::search::{Control, Limits, Score, Searcher};

pub use crate::rng::Rng;

/// How random openings are made and filtered.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomPlies {
    /// Random plies played from the base position.
    pub plies: u32,
    /// Keep a position only if the search's score is within ±`margin` centipawns.
    pub margin: i32,
    /// Depth of the filtering search (0: no filter).
    pub depth: u32,
}

impl Default for RandomPlies {
    fn default() -> Self {
        RandomPlies {
            plies: 4,
            margin: 100,
            depth: 6,
        }
    }
}

/// One opening: the start position and the moves the book adds to it.
#[derive(Clone, Debug)]
pub struct Opening<G> {
    pub start: G,
    /// Moves in coordinate notation played from `start` before the engines take over.
    pub moves: Vec<String>,
}

/// The largest openings file read (64 MiB, about a million positions).
pub const MAX_OPENINGS_BYTES: u64 = 64 << 20;

/// A position from the first fields of an EPD or FEN line: EPD's four fields get the clocks
/// `0 1`, a FEN's clocks are kept, anything after them (EPD operations) is ignored; a line of
/// fewer fields is taken whole if the game reads it as its own position text (CRASH!'s
/// `W3....B3 w`).
pub fn position_from_line<G: Game>(variant: &str, line: &str) -> Result<G, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return G::from_fen(variant, line).map_err(|_| {
            format!(
                "a position needs at least 4 fields (board, side, castling, en passant): {line}"
            )
        });
    }
    let clocks = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let fen = if clocks {
        format!(
            "{} {}",
            fields[..5].join(" "),
            fields[5].trim_end_matches(';')
        )
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    Ok(G::from_fen(variant, &fen)?)
}

/// The lines of a positions file that hold a position, trimmed, with their 1-based numbers:
/// blank lines and `#` comments skipped.
pub fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Reads an EPD or FEN file: one position per line, `#` comments and blank lines skipped.
/// An EPD line's operations (after the fourth field) are ignored; a FEN's clocks are kept. A
/// shorter line is taken whole if the game reads it as its own position text.
pub fn read_file<G: Game>(path: &str, variant: &str) -> Result<Vec<G>, String> {
    let text = crate::files::read_input_text(path, MAX_OPENINGS_BYTES)
        .map_err(|e| format!("openings file: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in position_lines(&text) {
        let pos: G = position_from_line(variant, line).map_err(|e| format!("{path}:{n}: {e}"))?;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(format!(
                "{path}:{n}: the game is already over here: {}",
                pos.fen()
            ));
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(format!("openings file {path} holds no positions"));
    }
    Ok(out)
}

/// The openings of a PGN file: each game's start (its `FEN` tag, else `variant`'s start) and
/// its first `plies` moves (all of them without a limit), in coordinate notation. A move
/// that does not replay, or one that ends the game, is an error naming the game.
pub fn read_pgn<G: Game>(
    path: &str,
    variant: &str,
    plies: Option<u32>,
) -> Result<Vec<Opening<G>>, String> {
    let text = crate::files::read_input_text(path, MAX_OPENINGS_BYTES)
        .map_err(|e| format!("openings file: {e}"))?;
    let games = crate::pgn::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let at = |e: String| format!("{path}: game {}: {e}", n + 1);
        let start: G = match game.tag("FEN") {
            Some(fen) => G::from_fen(variant, fen).map_err(|e| at(e.to_string()))?,
            None => G::startpos(variant).map_err(|e| at(e.to_string()))?,
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut legal = MoveList::new();
        let limit = plies.map_or(usize::MAX, |p| p as usize);
        for (i, text) in game.moves.iter().take(limit).enumerate() {
            let mv = crate::san::read(&pos, text)
                .map_err(|e| at(format!("move {} ({text}): {e}", i + 1)))?;
            moves.push(pos.move_text(mv));
            pos = pos.play(mv);
            pos.legal_moves(&mut legal);
            if legal.is_empty() {
                return Err(at(format!(
                    "the game is over after move {} ({text})",
                    i + 1
                )));
            }
        }
        out.push(Opening { start, moves });
    }
    if out.is_empty() {
        return Err(format!("openings file {path} holds no games"));
    }
    Ok(out)
}

/// The generated openings so far, the generator, the filtering searcher and the number of
/// random walks tried.
type Made<G> = (Vec<Opening<G>>, Rng, Option<Searcher<G>>, u64);

/// Where pair `i`'s opening comes from.
pub struct Book<G: Game> {
    bases: Vec<G>,
    random: Option<RandomPlies>,
    seed: u64,
    /// Generated openings, in order, and the generator's state.
    made: Mutex<Made<G>>,
    /// An opening book walked from the base positions instead (`--openings book=FILE`).
    walk: Option<BookWalk>,
    /// Openings given whole, start and moves (`--openings file=F.pgn format=pgn`), used in
    /// turn instead of everything above.
    lines: Vec<Opening<G>>,
}

/// Openings from an opening book ([`crate::book`]): up to `plies` book moves from the base
/// position, each chosen at random in proportion to its weight; the walk ends early where
/// the book has no move (or its move would end the game).
#[derive(Clone, Debug)]
pub struct BookWalk {
    pub book: std::sync::Arc<crate::book::Book>,
    pub plies: u32,
}

impl<G: Game> Book<G> {
    /// `bases`: the file's positions in play order (or just the start position);
    /// `random`: random plies on top, filtered by a search.
    pub fn new(bases: Vec<G>, random: Option<RandomPlies>, seed: u64) -> Book<G> {
        Book {
            bases,
            random,
            seed,
            made: Mutex::new((Vec::new(), Rng::new(seed ^ 0x6b69_6562_6974_7a21), None, 0)),
            walk: None,
            lines: Vec::new(),
        }
    }

    /// Openings given whole, used in turn (cycling).
    pub fn from_lines(lines: Vec<Opening<G>>, seed: u64) -> Book<G> {
        let bases = lines.iter().map(|l| l.start.clone()).collect();
        Book {
            lines,
            ..Book::new(bases, None, seed)
        }
    }

    /// The same, with openings walked through `walk`'s book from the base positions.
    pub fn with_book(self, walk: BookWalk) -> Book<G> {
        Book {
            walk: Some(walk),
            ..self
        }
    }

    /// The opening of pair `index`; the file's positions are used in turn, cycling.
    pub fn get(&self, index: usize) -> Result<Opening<G>, String> {
        if !self.lines.is_empty() {
            return Ok(self.lines[index % self.lines.len()].clone());
        }
        if let Some(walk) = &self.walk {
            let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
            while made.0.len() <= index {
                let base = &self.bases[made.0.len() % self.bases.len()];
                let opening = book_walk(base, walk, &mut made.1);
                made.0.push(opening);
            }
            return Ok(made.0[index].clone());
        }
        let Some(random) = &self.random else {
            return Ok(Opening {
                start: self.bases[index % self.bases.len()].clone(),
                moves: Vec::new(),
            });
        };
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        while made.0.len() <= index {
            let n = made.0.len();
            let base = self.bases[n % self.bases.len()].clone();
            let (list, rng, searcher, tries) = &mut *made;
            let opening = generate(&base, random, rng, searcher, tries, self.seed);
            list.push(opening);
        }
        Ok(made.0[index].clone())
    }
}

/// One weighted random walk through `walk`'s book from `base`.
fn book_walk<G: Game>(base: &G, walk: &BookWalk, rng: &mut Rng) -> Opening<G> {
    let mut pos = base.clone();
    let mut line = Vec::new();
    let mut legal = MoveList::new();
    for _ in 0..walk.plies {
        let moves = walk.book.moves(&pos);
        let weights: Vec<u16> = moves.iter().map(|&(_, w)| w).collect();
        let Some(i) = crate::book::pick(&weights, crate::book::MAX_VARIETY, rng) else {
            break;
        };
        let next = pos.play(moves[i].0);
        next.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        line.push(pos.move_text(moves[i].0));
        pos = next;
    }
    Opening {
        start: base.clone(),
        moves: line,
    }
}

/// How many random walks may be rejected per kept opening before the most balanced one is taken.
const MAX_TRIES: u32 = 2000;

/// One random walk of `random.plies` plies from `base` whose position the filter search
/// scores within ±`random.margin`. When none of [`MAX_TRIES`] walks is, the walk with the
/// score nearest 0 is taken (or, where every walk ended in a proven result, `base` itself)
/// with a warning on stderr: one opening where every line loses by force (Räuberschach has
/// such) must not end a long match.
fn generate<G: Game>(
    base: &G,
    random: &RandomPlies,
    rng: &mut Rng,
    searcher: &mut Option<Searcher<G>>,
    total_tries: &mut u64,
    seed: u64,
) -> Opening<G> {
    let mut moves = MoveList::new();
    let mut nearest: Option<(i32, Vec<String>)> = None;
    for _ in 0..MAX_TRIES {
        *total_tries += 1;
        let mut pos = base.clone();
        let mut history = Vec::new();
        let mut line = Vec::new();
        let mut ok = true;
        for _ in 0..random.plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(pos.move_text(mv));
            history.push(pos.hash());
            pos = pos.play(mv);
        }
        pos.legal_moves(&mut moves);
        if !ok || moves.is_empty() {
            continue;
        }
        if random.depth > 0 {
            let s = searcher.get_or_insert_with(|| {
                // The filter sees solved positions as the engines do.
                let mut s = Searcher::new(16);
                s.set_oracle(crate::games::page::builtin::<G>());
                s
            });
            s.clear();
            let limits = Limits {
                depth: Some(random.depth),
                nodes: Some(2_000_000),
                ..Default::default()
            };
            let result = s.search(&pos, &history, &limits, &Control::default(), &mut |_| {});
            match result.score {
                Score::Cp(cp) if cp.abs() <= random.margin => {}
                Score::Cp(cp) => {
                    if nearest.as_ref().is_none_or(|(best, _)| cp.abs() < *best) {
                        nearest = Some((cp.abs(), line));
                    }
                    continue;
                }
                _ => continue,
            }
        }
        return Opening {
            start: base.clone(),
            moves: line,
        };
    }
    let (moves, what) = match nearest {
        Some((cp, line)) => (line, format!("the nearest to balance ({cp} cp)")),
        None => (Vec::new(), "the opening position itself".to_string()),
    };
    eprintln!(
        "kiebitz-match: warning: no random walk of {} plies within ±{} cp (depth {}) in {MAX_TRIES} tries from {} (seed {seed}); playing {what}",
        random.plies,
        random.margin,
        random.depth,
        base.fen()
    );
    Opening {
        start: base.clone(),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    #[test]
    fn random_openings_replay_and_repeat() {
        let start = Pawns::startpos("pawns5").unwrap();
        let random = RandomPlies {
            plies: 3,
            margin: 10_000,
            depth: 1,
        };
        let book = Book::new(vec![start.clone()], Some(random.clone()), 7);
        let again = Book::new(vec![start.clone()], Some(random), 7);
        for i in 0..4 {
            let o = book.get(i).unwrap();
            assert_eq!(o.moves.len(), 3);
            assert_eq!(o.moves, again.get(i).unwrap().moves);
            let mut pos = o.start.clone();
            for m in &o.moves {
                let mv = pos.parse_move(m).unwrap();
                pos = pos.play(mv);
            }
        }
    }

    /// A margin no walk meets: the match goes on with the walk scored nearest 0, the same
    /// one each time (no error ends it).
    #[test]
    fn an_opening_without_a_balanced_walk_takes_the_nearest() {
        let start = Pawns::startpos("pawns5").unwrap();
        let random = RandomPlies {
            plies: 2,
            margin: -1,
            depth: 1,
        };
        let book = Book::new(vec![start.clone()], Some(random.clone()), 3);
        let o = book.get(0).unwrap();
        assert_eq!(o.moves.len(), 2);
        let again = Book::new(vec![start], Some(random), 3);
        assert_eq!(o.moves, again.get(0).unwrap().moves);
    }

    #[test]
    fn epd_and_fen_lines() {
        let dir = std::env::temp_dir().join(format!("kiebitz-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("o.epd");
        std::fs::write(
            &path,
            "# comment\n\nppppp/5/5/5/PPPPP w - - id \"start\";\npp1pp/2p2/5/2P2/PP1PP b - - 3 7\n",
        )
        .unwrap();
        let ps: Vec<Pawns> = read_file(path.to_str().unwrap(), "pawns5").unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].fen(), "ppppp/5/5/5/PPPPP w - - 0 1");
        // Pawn chess has no halfmove clock: every move is irreversible.
        assert_eq!(ps[1].fen(), "pp1pp/2p2/5/2P2/PP1PP b - - 0 7");
        // A shorter line is taken whole when the game reads it as its own position text.
        std::fs::write(&path, "ppppp/5/5/5/PPPPP w -\n").unwrap();
        assert!(read_file::<Pawns>(path.to_str().unwrap(), "pawns5").is_ok());
        std::fs::write(&path, "ppppp/5/5/5/PPPPX w -\n").unwrap();
        let err = read_file::<Pawns>(path.to_str().unwrap(), "pawns5").unwrap_err();
        assert!(
            err.contains("o.epd:1: a position needs at least 4 fields"),
            "{err}"
        );
        std::fs::write(&path, "ppppp/5/5/5/PPPPQ w - -\n").unwrap();
        let err = read_file::<Pawns>(path.to_str().unwrap(), "pawns5").unwrap_err();
        assert!(err.contains("o.epd:1:"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
