//! CRASH! (docs/rules.md §9): a row of m cells (2 ≤ m ≤ 64), White's towers of stones left of Black's.
//! A move takes h stones off an own tower and lays one on each of the next h cells in the
//! mover's direction, replacing any enemy tower there by one own stone. A side without stones
//! has lost; there are no draws and no position repeats (every move carries stones forward).
//!
//! - this file: the position [`Crash`], its text (`W2.W1..B3 w`), move text (`cell:h`), the
//!   rules and the [`Game`] implementation;
//! - [`eval`]: the heuristic evaluation (material, compactness);
//!
//! The exhaustive databases, the column's theorems and their commands live with the other
//! solvers in [`crate::games::crash::analysis`].
//!
//! **Moves in the core's [`Move`]**: a CRASH! move is (cell i, h); it is stored as
//! `Move::new(Square(i), Square(j), kind)` with the 0-based cells i and j = i ± h, the last cell
//! reached (j > i for White, j < i for Black), and kind [`MoveKind::Normal`]. Six bits per cell
//! are exactly the 64 cells of the largest board, so the search's tables (history by from·to,
//! the transposition table's 16-bit move) work unchanged; [`Crash::move_text`] writes
//! `<cell>:<h>` with 1-based cells.
//!
//! **Move list bound**: a side offers at most as many moves as it has stones, and never more
//! than m(m−1)/2; the core's move list holds 256 moves, so boards of up to 23 cells take any
//! number of stones and larger boards at most 256 stones a side (checked when a position is
//! read).
//!
//! Depends on `board` (with its `zobrist` keys), `game` and `search::params` only.

pub mod analysis;
pub mod eval;
pub mod page;

use crate::board::zobrist;
use crate::board::{Color, MAX_MOVES, Move, MoveKind, MoveList, Square};
use crate::error::{Error, move_error, position_error};
use crate::game::{Dialect, EndgameTables, Game, OpeningBook, Tablebases, Terminal, Tuning};
use crate::search::params::SearchParams;

/// Most cells a board may have.
pub const MAX_CELLS: usize = 64;
/// Most stones a side may have: a tower can gather all of a side's stones, and heights are
/// `i32`, so a larger total could overflow a tower (`W1W2147483647.B1` is refused).
pub const MAX_STONES: u64 = i32::MAX as u64;
/// The only variant name.
pub const VARIANT: &str = "crash";
/// The default start position (`--start 3:4`).
pub const START: &str = "W3....B3 w";

/// A CRASH! position: tower heights per cell (positive White, negative Black), the number of
/// cells, the side to move, each side's stone count and the hash.
#[derive(Clone, PartialEq, Eq)]
pub struct Crash {
    cells: [i32; MAX_CELLS],
    m: u8,
    side: Color,
    stones: [u32; 2],
    hash: u64,
}

impl std::fmt::Debug for Crash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// The hash key of a tower of `height` stones (signed by colour) on `cell`.
fn tower_key(cell: usize, height: i32) -> u64 {
    if height == 0 {
        return 0;
    }
    let colour = usize::from(height < 0);
    let h = height.unsigned_abs() as u64;
    // One table key per cell and colour, mixed with the height (any number of stones).
    let base = zobrist::piece(14 + colour, cell);
    let mut x = base ^ h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

impl Crash {
    /// The start position `--start H:L`: one tower of `height` stones each, `gap` empty cells
    /// between them, White to move.
    pub fn start(height: u32, gap: usize) -> Result<Crash, Error> {
        if height == 0 {
            return Err(position_error!("a start tower needs at least one stone"));
        }
        Crash::parse(&format!("W{height}{}B{height} w", ".".repeat(gap)))
    }

    /// Reads `H:L` (a start position) or a position text `W2.W1..B3 w` (optionally followed by
    /// FEN-style fields `- - 0 1`, which are ignored).
    pub fn parse(text: &str) -> Result<Crash, Error> {
        let text = text.trim();
        if let Some((h, l)) = text.split_once(':')
            && !text.contains(' ')
        {
            return Crash::parse_start(text, h, l);
        }
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or_else(|| {
            position_error!("empty position: cells like W2.W1..B3, then the side to move w or b")
        })?;
        let side = match fields.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(position_error!(
                    "side to move must be w or b, not '{other}'"
                ));
            }
            None => return Err(position_error!("'{board}' lacks the side to move (w or b)")),
        };
        for extra in fields {
            if !matches!(extra, "-") && extra.parse::<u32>().is_err() {
                return Err(position_error!(
                    "unexpected field '{extra}' after the side to move"
                ));
            }
        }
        let (cells, m) = parse_cells(board)?;
        let stones = count_stones(&cells[..m])?;
        let mut pos = Crash {
            cells,
            m: m as u8,
            side,
            stones: [stones[0] as u32, stones[1] as u32],
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// `H:L`: the start with towers of `h` stones and `l` empty cells between them.
    fn parse_start(text: &str, h: &str, l: &str) -> Result<Crash, Error> {
        let bad = || {
            position_error!("bad start '{text}': H:L with H stones a tower, L empty cells between")
        };
        let height = h.parse::<u32>().map_err(|_| bad())?;
        let gap = l.parse::<usize>().map_err(|_| bad())?;
        if gap + 2 > MAX_CELLS {
            return Err(position_error!(
                "bad start '{text}': at most {} empty cells between the towers",
                MAX_CELLS - 2
            ));
        }
        Crash::start(height, gap)
    }

    fn compute_hash(&self) -> u64 {
        let mut h = (0..self.m as usize)
            .map(|c| tower_key(c, self.cells[c]))
            .fold(0, |a, k| a ^ k);
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        h ^ zobrist::piece(13, self.m as usize - 1)
    }

    /// The position text: `W2.W1..B3 w`.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for &h in self.row() {
            match h {
                0 => s.push('.'),
                h if h > 0 => s.push_str(&format!("W{h}")),
                h => s.push_str(&format!("B{}", -h)),
            }
        }
        s.push(' ');
        s.push(self.side.fen_char());
        s
    }

    /// The towers, cell 1 first: positive White, negative Black, 0 empty.
    pub fn row(&self) -> &[i32] {
        &self.cells[..self.m as usize]
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.m as usize
    }

    /// The side to move.
    pub fn side_to_move_color(&self) -> Color {
        self.side
    }

    /// Stones of `c` on the board.
    pub fn stones(&self, c: Color) -> u32 {
        self.stones[c.index()]
    }

    /// The gap L: empty cells between the frontmost white and the frontmost black stone
    /// (`None` when a side has no stones).
    pub fn gap(&self) -> Option<usize> {
        let row = self.row();
        let w = row.iter().rposition(|&h| h > 0)?;
        let b = row.iter().position(|&h| h < 0)?;
        Some(b - w - 1)
    }

    /// The parity p: the sum of the 1-based cell numbers of all stones, mod 2.
    pub fn parity(&self) -> u32 {
        self.row()
            .iter()
            .enumerate()
            .map(|(c, &h)| (c as u64 + 1) * h.unsigned_abs() as u64)
            .sum::<u64>() as u32
            % 2
    }

    /// The move of `h` stones off the tower on 0-based `cell` (not checked for legality).
    pub fn make_move(&self, cell: usize, h: usize) -> Move {
        let to = match self.side {
            Color::White => cell + h,
            Color::Black => cell - h,
        };
        Move::new(Square(cell as u8), Square(to as u8), MoveKind::Normal)
    }

    /// (0-based cell, h) of a move.
    pub fn decode(mv: Move) -> (usize, usize) {
        let (from, to) = (mv.from().0 as usize, mv.to().0 as usize);
        (from, from.abs_diff(to))
    }

    /// The same position with the colours swapped and the row mirrored (White's view of
    /// Black's problem): the value for the side to move is the same.
    pub fn mirrored(&self) -> Crash {
        let m = self.m as usize;
        let mut cells = [0; MAX_CELLS];
        for c in 0..m {
            cells[m - 1 - c] = -self.cells[c];
        }
        let mut pos = Crash {
            cells,
            m: self.m,
            side: self.side.flip(),
            stones: [self.stones[1], self.stones[0]],
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }
}

impl Game for Crash {
    const GAME: &'static str = "crash";

    const DRAW_PLIES: Option<u32> = None;

    const REPETITION: bool = false;

    const NULL_MOVE: bool = false;

    fn variants() -> &'static [&'static str] {
        &[VARIANT]
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        Self::from_fen(variant, START)
    }

    fn from_fen(variant: &str, fen: &str) -> Result<Self, Error> {
        if !variant.eq_ignore_ascii_case(VARIANT) {
            return Err(Error::Variant(format!(
                "unknown variant '{variant}': kiebitz-crash plays 'crash'"
            )));
        }
        Crash::parse(fen)
    }

    fn fen(&self) -> String {
        self.text()
    }

    fn variant(&self) -> &'static str {
        VARIANT
    }

    fn size(&self) -> (u8, u8) {
        (self.m, 1)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        if self.stones[0] == 0 || self.stones[1] == 0 {
            return;
        }
        let m = self.m as usize;
        for cell in 0..m {
            let h = self.cells[cell];
            let own = match self.side {
                Color::White => h > 0,
                Color::Black => h < 0,
            };
            if !own {
                continue;
            }
            let room = match self.side {
                Color::White => m - 1 - cell,
                Color::Black => cell,
            };
            let most = (h.unsigned_abs() as usize).min(room);
            for k in 1..=most {
                moves.push(self.make_move(cell, k));
            }
        }
    }

    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let (cell, h) = Crash::decode(mv);
        let us = self.side.index();
        let sign: i32 = if self.side == Color::White { 1 } else { -1 };
        let step: isize = if self.side == Color::White { 1 } else { -1 };
        let old = next.cells[cell];
        next.cells[cell] = old - sign * h as i32;
        next.hash ^= tower_key(cell, old) ^ tower_key(cell, next.cells[cell]);
        for k in 1..=h as isize {
            let c = (cell as isize + step * k) as usize;
            let old = next.cells[c];
            let new = if old * sign < 0 {
                next.stones[1 - us] -= old.unsigned_abs();
                sign
            } else {
                old + sign
            };
            next.cells[c] = new;
            next.hash ^= tower_key(c, old) ^ tower_key(c, new);
        }
        next.side = self.side.flip();
        next.hash ^= zobrist::side();
        next
    }

    fn terminal(&self) -> Terminal {
        if self.stones[self.side.index()] == 0 {
            Terminal::Loss
        } else {
            // The opponent has no stones left (only a position text can say so).
            Terminal::Win
        }
    }

    fn end_reason(&self, terminal: Terminal) -> String {
        let (us, them) = (self.side.name(), self.side.flip().name());
        match terminal {
            Terminal::Win => format!("{us} wins: {them} has no stones left"),
            _ => format!("{them} wins: {us} has no stones left"),
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn reversible_plies(&self) -> u32 {
        0
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.captured(mv) > 0
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        self.captured(mv) as i32
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn move_text(&self, mv: Move) -> String {
        let (cell, h) = Crash::decode(mv);
        format!("{}:{h}", cell + 1)
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let read = || -> Result<Move, Error> {
            let (c, h) = text
                .trim()
                .split_once(':')
                .ok_or_else(|| move_error!("'{text}' is not a move: write <cell>:<h>, e.g. 1:2"))?;
            let (cell, h): (usize, usize) = match (c.parse(), h.parse()) {
                (Ok(c), Ok(h)) => (c, h),
                _ => {
                    return Err(move_error!(
                        "'{text}' is not a move: write <cell>:<h>, e.g. 1:2"
                    ));
                }
            };
            let m = self.m as usize;
            if cell == 0 || cell > m {
                return Err(move_error!(
                    "{text}: cell {cell} is off the board (cells 1 to {m})"
                ));
            }
            let height = self.cells[cell - 1];
            let own = match self.side {
                Color::White => height > 0,
                Color::Black => height < 0,
            };
            if self.stones[0] == 0 || self.stones[1] == 0 {
                return Err(move_error!("{text}: the game is over"));
            }
            if !own {
                return Err(move_error!(
                    "{text}: cell {cell} holds no tower of {}",
                    self.side.name()
                ));
            }
            if h == 0 || h > height.unsigned_abs() as usize {
                return Err(move_error!(
                    "{text}: the tower on cell {cell} has {} stone(s), take 1 to that many",
                    height.unsigned_abs()
                ));
            }
            let room = match self.side {
                Color::White => m - cell,
                Color::Black => cell - 1,
            };
            if h > room {
                return Err(move_error!(
                    "{text}: {h} stones from cell {cell} would leave the board (room for {room})"
                ));
            }
            Ok(self.make_move(cell - 1, h))
        };
        read()
    }

    fn pretty(&self) -> String {
        pretty(self)
    }
}

impl Tuning for Crash {
    const BENCH_DEPTH: u32 = 12;

    /// CRASH! is full of zugzwang and its evaluation is rough: the plain, exact search.
    const SEARCH: SearchParams = SearchParams::CONSERVATIVE;

    fn expected_moves_left(&self) -> u32 {
        // Each side moves at most once per stone and cell; games are short.
        (self.stones(self.side) + 4).min(35)
    }

    fn bench_positions() -> Vec<Self> {
        [
            "W3....B3 w",
            "W4.....B4 w",
            "W2.W1..B3 w",
            "W2W2......B2B2 w",
            "W5.......B5 b",
            "W1W2.W1....B1.B3 w",
            "W3.W2...........B1B4 b",
            "..W4....B2.B2.. w",
        ]
        .iter()
        .filter_map(|t| Crash::parse(t).ok())
        .collect()
    }
}

impl Dialect for Crash {}

impl OpeningBook for Crash {}

impl Tablebases for Crash {}

impl EndgameTables for Crash {}

impl Crash {
    /// How many enemy stones `mv` removes.
    pub fn captured(&self, mv: Move) -> u32 {
        let (cell, h) = Crash::decode(mv);
        let sign: i32 = if self.side == Color::White { 1 } else { -1 };
        (1..=h)
            .map(|k| {
                let c = if sign > 0 { cell + k } else { cell - k };
                let t = self.cells[c];
                if t * sign < 0 { t.unsigned_abs() } else { 0 }
            })
            .sum()
    }
}

/// Tallest tower drawn stone by stone; taller ones show their height on top.
const DRAWN: usize = 6;

/// The row for the terminal: each tower as a column of stones (○ White, ● Black), a number on
/// top of towers taller than the drawing, the cell numbers below and the position text.
pub fn pretty(pos: &Crash) -> String {
    let row = pos.row();
    let tallest = row
        .iter()
        .map(|h| h.unsigned_abs() as usize)
        .max()
        .unwrap_or(0);
    let levels = tallest.min(DRAWN);
    let mut out = String::new();
    for level in (1..=levels + 1).rev() {
        let mut line = String::new();
        for &h in row {
            let n = h.unsigned_abs() as usize;
            let glyph = if h > 0 { "○" } else { "●" };
            let cell = if n > DRAWN && level == DRAWN + 1 {
                format!("{n:>3}")
            } else if n >= level && level <= DRAWN {
                format!("  {glyph}")
            } else {
                "   ".to_string()
            };
            line.push_str(&cell);
        }
        if !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    let floor: String = row.iter().map(|_| "───").collect();
    out.push_str(&floor);
    out.push('\n');
    let numbers: String = (1..=row.len()).map(|c| format!("{c:>3}")).collect();
    out.push_str(&numbers);
    out.push('\n');
    out.push_str(&format!(
        "{}   ({} to move; White ○ moves right, Black ● left; move = cell:h)\n",
        pos.text(),
        pos.side.name()
    ));
    out
}

/// The cells of a position text (`W2.W1..B3`): signed heights (White positive) and their
/// count, 2 to [`MAX_CELLS`].
fn parse_cells(board: &str) -> Result<([i32; MAX_CELLS], usize), Error> {
    let mut cells = [0i32; MAX_CELLS];
    let mut m = 0usize;
    let bytes = board.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if m == MAX_CELLS {
            return Err(position_error!("more than {MAX_CELLS} cells"));
        }
        match bytes[i] {
            b'.' => i += 1,
            c @ (b'W' | b'B') => {
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                if digits == 0 {
                    return Err(position_error!(
                        "cell {}: '{}' needs a number of stones (W3, B1)",
                        m + 1,
                        c as char
                    ));
                }
                let n: i32 = board[i + 1..i + 1 + digits]
                    .parse()
                    .ok()
                    .filter(|&n: &i32| n > 0)
                    .ok_or_else(|| {
                        position_error!(
                            "cell {}: a tower holds 1 to {} stones, not {}",
                            m + 1,
                            i32::MAX,
                            &board[i + 1..i + 1 + digits]
                        )
                    })?;
                cells[m] = if c == b'W' { n } else { -n };
                i += 1 + digits;
            }
            other => {
                return Err(position_error!(
                    "cell {}: '{}' is neither '.', W<n> nor B<n>",
                    m + 1,
                    other as char
                ));
            }
        }
        m += 1;
    }
    // Any trailing garbage beyond 64 cells was refused above; count the cells written.
    if m < 2 {
        return Err(position_error!(
            "{m} cell(s): a board has 2 to {MAX_CELLS} cells"
        ));
    }
    Ok((cells, m))
}

/// Each side's stones on `cells`, checked: White's towers all left of Black's, some stones,
/// and no more than a side may have on a board of this size.
fn count_stones(cells: &[i32]) -> Result<[u64; 2], Error> {
    let m = cells.len();
    let mut stones = [0u64; 2];
    let mut last_white = None;
    let mut first_black = None;
    for (c, &h) in cells.iter().enumerate() {
        if h > 0 {
            stones[0] += h as u64;
            last_white = Some(c);
        } else if h < 0 {
            stones[1] += h.unsigned_abs() as u64;
            first_black.get_or_insert(c);
        }
    }
    if let (Some(w), Some(b)) = (last_white, first_black)
        && w > b
    {
        return Err(position_error!(
            "White's tower on cell {} stands right of Black's on cell {}: White's stones all lie left of Black's",
            w + 1,
            b + 1
        ));
    }
    if stones[0] + stones[1] == 0 {
        return Err(position_error!("no stones on the board"));
    }
    // A tower only ever grows by its own side's stones, so a side's total bounds every
    // tower it can build: keeping it within `i32` keeps every height in range.
    let limit = if m * (m - 1) / 2 <= MAX_MOVES {
        MAX_STONES
    } else {
        MAX_MOVES as u64
    };
    for (s, name) in stones.iter().zip(["White", "Black"]) {
        if *s > limit {
            return Err(if limit == MAX_STONES {
                position_error!(
                    "{name} has {s} stones: at most {MAX_STONES} a side (a tower of all of them must fit)"
                )
            } else {
                position_error!(
                    "{name} has {s} stones: on boards of more than 23 cells at most {MAX_MOVES} a side"
                )
            });
        }
    }
    Ok(stones)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(t: &str) -> Crash {
        Crash::parse(t).unwrap()
    }

    #[test]
    fn text_round_trip_and_start() {
        for t in [
            "W2.W1..B3 w",
            "W2...B2 b",
            "...W4...B1..B1B2.. w",
            "W12.B100 w",
        ] {
            assert_eq!(pos(t).text(), t);
        }
        assert_eq!(pos("3:4").text(), "W3....B3 w");
        assert_eq!(Crash::start(2, 0).unwrap().text(), "W2B2 w");
        assert_eq!(pos("W1.B1 w - - 0 1").text(), "W1.B1 w");
    }

    #[test]
    fn bad_text_is_refused() {
        for (t, says) in [
            ("W2.B1.W1 w", "right of Black"),
            ("W0 w", "1 to"),
            ("X3 w", "neither"),
            ("", "empty"),
            ("W1.B1", "side to move"),
            ("W1.B1 x", "w or b"),
            ("W1 w", "2 to 64"),
            ("... w", "no stones"),
            ("WB1 w", "number of stones"),
            ("3:x", "bad start"),
        ] {
            let e = Crash::parse(t).unwrap_err().to_string();
            assert!(e.contains(says), "{t}: {e}");
        }
        let long = format!("W1{}B1 w", ".".repeat(63));
        assert!(
            Crash::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("more than 64")
        );
        let widest = format!("W1{}B1 w", ".".repeat(62));
        assert_eq!(pos(&widest).cells(), 64);
        let crowded = format!("W300{}B1 w", ".".repeat(30));
        assert!(
            Crash::parse(&crowded)
                .unwrap_err()
                .to_string()
                .contains("at most 256")
        );
        assert!(Crash::parse("W300.....B1 w").is_ok());
        // A side's stones must fit one tower: 1 + 2147483647 would overflow an `i32` height.
        let e = Crash::parse("W1W2147483647.B1 w").unwrap_err().to_string();
        assert!(e.contains("at most 2147483647 a side"), "{e}");
        assert!(Crash::parse("W1W2147483646.B1 w").is_ok());
    }

    #[test]
    fn moves_capture_and_grow() {
        let p = pos("W2.W1..B3 w");
        let texts: Vec<String> = crate::protocol::legal_moves(&p)
            .iter()
            .map(|&m| p.move_text(m))
            .collect();
        assert_eq!(texts, ["1:1", "1:2", "3:1"]);
        let q = p.play(p.parse_move("1:2").unwrap());
        assert_eq!(q.text(), ".W1W2..B3 b");
        let r = q.play(q.parse_move("6:3").unwrap());
        assert_eq!(r.text(), ".W1B1B1B1. w");
        assert_eq!((r.stones(Color::White), r.stones(Color::Black)), (1, 3));
        let s = r.play(r.parse_move("2:1").unwrap());
        assert_eq!(s.text(), "..W1B1B1. b");
        assert_eq!(s.stones(Color::Black), 2);
        assert_eq!(s.hash(), pos("..W1B1B1. b").hash());
        let t = s.play(s.parse_move("4:1").unwrap());
        assert_eq!(t.text(), "..B1.B1. w");
        assert_eq!(t.terminal(), Terminal::Loss);
        assert_eq!(t.hash(), pos("..B1.B1. w").hash());
        assert_eq!(
            pos("W1B1 b")
                .play(pos("W1B1 b").parse_move("2:1").unwrap())
                .text(),
            "B1. w"
        );
        let end = pos("B1. w");
        assert!(crate::protocol::legal_moves(&end).is_empty());
        assert_eq!(end.terminal(), Terminal::Loss);
        assert_eq!(pos("W1.. b").terminal(), Terminal::Loss);
        assert_eq!(pos("W1.. w").terminal(), Terminal::Win);
    }

    #[test]
    fn bad_moves_are_refused() {
        let p = pos("W2.W1..B3 w");
        for (t, says) in [
            ("7:3", "off the board"),
            ("2:1", "no tower of White"),
            ("6:1", "no tower of White"),
            ("1:3", "has 2 stone"),
            ("1:0", "take 1"),
            ("x", "not a move"),
            ("", "not a move"),
        ] {
            let e = p.parse_move(t).unwrap_err().to_string();
            assert!(e.contains(says), "{t}: {e}");
        }
        assert!(pos("...W3 w").parse_move("4:1").is_err());
        assert!(
            pos("W3.B1 w")
                .parse_move("1:3")
                .unwrap_err()
                .to_string()
                .contains("leave the board")
        );
    }

    #[test]
    fn gap_parity_and_mirror() {
        let p = pos("W2.W1..B3 w");
        assert_eq!(p.gap(), Some(2));
        // 1+1+3+6+6+6 = 23
        assert_eq!(p.parity(), 1);
        assert_eq!(p.mirrored().text(), "W3..B1.B2 b");
        assert_eq!(p.mirrored().mirrored(), p);
    }
}
