//! Chamäleon Schach (docs/rules.md §10): 2–4 players on 8×8, every piece's role given by the colour of
//! its square, a playing area that shrinks as edge lines empty, elimination, forced passes and
//! a draw after 100 turns. Implements [`crate::nsearch::NGame`].
//!
//! - this file: the position, its text form, hashing, the board for a person;
//! - [`rules`]: square colours, roles, move generation, playing a move, shrinking;
//! - [`eval`]: the value vector (material, mobility under the current colours, safety).
//!
//! Depends on `board` (squares, moves), `board::zobrist` and `ngame`.
//!
//! ## Position text
//! `BOARD AREA SEATS TOMOVE TURN`, for example the four-player start:
//! `wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 0`
//! - BOARD: ranks 8 to 1 separated by `/`; in a rank, a digit counts empty squares and a piece
//!   is its seat letter (`s` South, `w` West, `n` North, `e` East) followed by its piece letter
//!   (`R`, `Y`, `G`, `B`: the colour on which it moves as a knight);
//! - AREA: the playing area's lower-left and upper-right corners, `a1-h8`;
//! - SEATS: the seats that play this game, in the order S, W, N, E (eliminated ones included);
//! - TOMOVE: the seat letter to move; TURN: turns played so far (0–100).

pub mod eval;
pub mod page;
pub mod rules;

use crate::board::zobrist;
use crate::board::{Move, MoveList, Square};
use crate::error::position_error;
use crate::ngame::{MAX_SEATS, NGame, Results, SeatResult, Values};

/// Seats in order of play (clockwise).
pub const SEATS: usize = 4;
/// Turns after which the game is drawn for every player still in it.
pub const MAX_TURNS: u32 = 100;
const SEAT_LETTERS: [char; 4] = ['s', 'w', 'n', 'e'];
const SEAT_NAMES: [&str; 4] = ["South", "West", "North", "East"];
/// Piece (and square colour) letters: red, yellow, green, blue.
pub const PIECE_LETTERS: [char; 4] = ['R', 'Y', 'G', 'B'];

/// The playing area: files `x0..=x1`, ranks `y0..=y1` (0-based, inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Area {
    pub x0: u8,
    pub x1: u8,
    pub y0: u8,
    pub y1: u8,
}

impl Area {
    pub const FULL: Area = Area {
        x0: 0,
        x1: 7,
        y0: 0,
        y1: 7,
    };

    #[inline]
    pub fn contains(self, x: i32, y: i32) -> bool {
        x >= self.x0 as i32 && x <= self.x1 as i32 && y >= self.y0 as i32 && y <= self.y1 as i32
    }

    /// Every square of the area as a bitboard.
    pub fn mask(self) -> u64 {
        let row = ((1u64 << (self.x1 + 1)) - 1) & !((1u64 << self.x0) - 1);
        (self.y0..=self.y1).fold(0, |m, y| m | row << (8 * y))
    }

    fn key(self) -> u64 {
        zobrist::spare(8 + self.x0 as usize)
            ^ zobrist::spare(16 + self.x1 as usize)
            ^ zobrist::spare(24 + self.y0 as usize)
            ^ zobrist::spare(32 + self.y1 as usize)
    }

    fn text(self) -> String {
        format!(
            "{}-{}",
            Square::new(self.x0, self.y0),
            Square::new(self.x1, self.y1)
        )
    }
}

/// A Chamäleon Schach position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chamaeleon {
    /// 0 empty, else `1 + seat * 4 + piece`.
    pub(crate) board: [u8; 64],
    /// Squares occupied by each seat.
    pub(crate) occ: [u64; SEATS],
    pub(crate) area: Area,
    /// Bit per seat that plays this game.
    pub(crate) players: u8,
    pub(crate) to_move: u8,
    pub(crate) turn: u32,
    /// Zobrist key of pieces, area and seat to move (the turn is mixed in by [`NGame::hash`]).
    pub(crate) key: u64,
}

/// The (seat, piece) on a board cell value, if any.
#[inline]
pub(crate) fn decode(cell: u8) -> Option<(usize, usize)> {
    (cell != 0).then(|| (((cell - 1) >> 2) as usize, ((cell - 1) & 3) as usize))
}

fn piece_key(seat: usize, piece: usize, sq: usize) -> u64 {
    zobrist::piece(seat * 4 + piece, sq)
}

fn seat_key(seat: usize) -> u64 {
    zobrist::spare(1 + seat)
}

impl Chamaeleon {
    /// An empty board of the given seats; pieces are added with [`Chamaeleon::put`].
    fn empty(players: u8, to_move: usize, area: Area, turn: u32) -> Chamaeleon {
        Chamaeleon {
            board: [0; 64],
            occ: [0; SEATS],
            area,
            players,
            to_move: to_move as u8,
            turn,
            key: seat_key(to_move) ^ area.key(),
        }
    }

    pub(crate) fn put(&mut self, seat: usize, piece: usize, sq: usize) {
        self.board[sq] = 1 + (seat * 4 + piece) as u8;
        self.occ[seat] |= 1 << sq;
        self.key ^= piece_key(seat, piece, sq);
    }

    pub(crate) fn remove(&mut self, sq: usize) {
        if let Some((seat, piece)) = decode(self.board[sq]) {
            self.board[sq] = 0;
            self.occ[seat] &= !(1 << sq);
            self.key ^= piece_key(seat, piece, sq);
        }
    }

    pub(crate) fn set_to_move(&mut self, seat: usize) {
        self.key ^= seat_key(self.to_move as usize) ^ seat_key(seat);
        self.to_move = seat as u8;
    }

    pub(crate) fn set_area(&mut self, area: Area) {
        self.key ^= self.area.key() ^ area.key();
        self.area = area;
    }

    /// All occupied squares.
    #[inline]
    pub fn all(&self) -> u64 {
        self.occ.iter().fold(0, |a, b| a | b)
    }

    /// The playing area.
    pub fn area(&self) -> Area {
        self.area
    }

    /// Seats with pieces left.
    pub fn alive(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SEATS).filter(|&s| self.occ[s] != 0)
    }

    /// The seat after `seat` in clockwise order that is still in the game.
    pub(crate) fn next_seat(&self, seat: usize) -> usize {
        (1..=SEATS)
            .map(|k| (seat + k) % SEATS)
            .find(|&s| self.occ[s] != 0)
            .unwrap_or(seat)
    }

    /// Whether the game is over: one player left, or 100 turns played.
    pub fn is_over(&self) -> bool {
        self.alive().count() <= 1 || self.turn >= MAX_TURNS
    }

    fn seat_of(letter: char) -> Option<usize> {
        SEAT_LETTERS.iter().position(|&c| c == letter)
    }

    /// The seats that play, a bit each, from their letters (`swne` …): at least two, none twice.
    fn parse_seats(field: &str) -> Result<u8, crate::Error> {
        let mut players = 0u8;
        for c in field.chars() {
            let s = Self::seat_of(c)
                .ok_or_else(|| position_error!("unknown seat '{c}' in '{field}' (use s w n e)"))?;
            if players >> s & 1 != 0 {
                return Err(position_error!("seat '{c}' listed twice in '{field}'"));
            }
            players |= 1 << s;
        }
        if players.count_ones() < 2 {
            return Err(position_error!(
                "at least two seats must play, got '{field}'"
            ));
        }
        Ok(players)
    }

    fn parse(text: &str) -> Result<Chamaeleon, crate::Error> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(position_error!(
                "expected 5 fields (BOARD AREA SEATS TOMOVE TURN), got {}",
                fields.len()
            ));
        }
        let area = parse_area(fields[1])?;
        let players = Self::parse_seats(fields[2])?;
        let mut chars = fields[3].chars();
        let to_move = match (chars.next().and_then(Self::seat_of), chars.next()) {
            (Some(s), None) => s,
            _ => {
                return Err(position_error!(
                    "bad seat to move '{}' (s w n e)",
                    fields[3]
                ));
            }
        };
        let turn: u32 = fields[4]
            .parse()
            .map_err(|_| position_error!("bad turn count '{}'", fields[4]))?;
        if turn > MAX_TURNS {
            return Err(position_error!("turn count {turn} is beyond {MAX_TURNS}"));
        }
        let mut pos = Chamaeleon::empty(players, to_move, area, turn);
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(position_error!(
                "the board needs 8 ranks, got {}",
                ranks.len()
            ));
        }
        for (i, rank) in ranks.iter().enumerate() {
            let y = 7 - i;
            let mut x = 0usize;
            let mut chars = rank.chars();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(position_error!("rank {}: 0 is not a count", y + 1));
                    }
                    x += d as usize;
                } else {
                    let seat = Self::seat_of(c).ok_or_else(|| {
                        position_error!("rank {}: unknown seat letter '{c}'", y + 1)
                    })?;
                    let p = chars.next().unwrap_or(' ');
                    let piece = PIECE_LETTERS.iter().position(|&l| l == p).ok_or_else(|| {
                        position_error!(
                            "rank {}: seat '{c}' needs a piece R Y G B, got '{p}'",
                            y + 1
                        )
                    })?;
                    if x >= 8 {
                        return Err(position_error!("rank {} is longer than 8 squares", y + 1));
                    }
                    let sq = y * 8 + x;
                    if players >> seat & 1 == 0 {
                        return Err(position_error!(
                            "{} has a piece on {} but is not among the seats '{}'",
                            SEAT_NAMES[seat],
                            Square(sq as u8),
                            fields[2]
                        ));
                    }
                    if pos.occ[seat] & pos.piece_squares(seat, piece) != 0 {
                        return Err(position_error!("{} has two {p} pieces", SEAT_NAMES[seat]));
                    }
                    if !area.contains(x as i32, y as i32) {
                        return Err(position_error!(
                            "the piece on {} stands outside the area {}",
                            Square(sq as u8),
                            area.text()
                        ));
                    }
                    pos.put(seat, piece, sq);
                    x += 1;
                }
            }
            if x != 8 {
                return Err(position_error!("rank {} has {x} squares, not 8", y + 1));
            }
        }
        if pos.all() == 0 {
            return Err(position_error!("the board has no pieces"));
        }
        if !pos.is_over() && pos.occ[to_move] == 0 {
            return Err(position_error!(
                "{} is to move but has no pieces",
                SEAT_NAMES[to_move]
            ));
        }
        let mut shrunk = pos.clone();
        rules::shrink(&mut shrunk);
        if shrunk.area != area {
            return Err(position_error!(
                "the area {} has an empty edge line: it would have shrunk to {}",
                area.text(),
                shrunk.area.text()
            ));
        }
        Ok(pos)
    }

    /// Squares of `seat`'s piece `piece` (0 or 1 squares).
    fn piece_squares(&self, seat: usize, piece: usize) -> u64 {
        let cell = 1 + (seat * 4 + piece) as u8;
        (0..64)
            .filter(|&s| self.board[s] == cell)
            .fold(0, |m, s| m | 1u64 << s)
    }
}

fn parse_area(text: &str) -> Result<Area, crate::Error> {
    let bad = || position_error!("bad area '{text}': expected two corners like a1-h8");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let (a, b) = (
        Square::parse(a).ok_or_else(bad)?,
        Square::parse(b).ok_or_else(bad)?,
    );
    let area = Area {
        x0: a.file(),
        x1: b.file(),
        y0: a.rank(),
        y1: b.rank(),
    };
    if area.x1 < area.x0 + 2 || area.y1 < area.y0 + 2 {
        return Err(position_error!(
            "area '{text}' must be at least 3×3 with the lower-left corner first"
        ));
    }
    Ok(area)
}

impl NGame for Chamaeleon {
    const GAME: &'static str = "chamaeleon";
    const PLAYERS: (usize, usize) = (2, 4);

    fn startpos(players: usize) -> Result<Self, crate::Error> {
        let seats: &[usize] = match players {
            2 => &[0, 2],
            3 => &[0, 1, 2],
            4 => &[0, 1, 2, 3],
            n => {
                return Err(crate::Error::Variant(format!(
                    "Chamäleon Schach is for 2 to 4 players, not {n}"
                )));
            }
        };
        let mask = seats.iter().fold(0u8, |m, &s| m | 1 << s);
        let mut pos = Chamaeleon::empty(mask, 0, Area::FULL, 0);
        // South R a1 Y b1 G c1 B d1; West R a5 … B a8; North R h8 … B e8; East R h4 … B h1.
        const START: [[(u8, u8); 4]; 4] = [
            [(0, 0), (1, 0), (2, 0), (3, 0)],
            [(0, 4), (0, 5), (0, 6), (0, 7)],
            [(7, 7), (6, 7), (5, 7), (4, 7)],
            [(7, 3), (7, 2), (7, 1), (7, 0)],
        ];
        for &s in seats {
            for (piece, &(x, y)) in START[s].iter().enumerate() {
                pos.put(s, piece, Square::new(x, y).index());
            }
        }
        Ok(pos)
    }

    fn from_text(text: &str) -> Result<Self, crate::Error> {
        Chamaeleon::parse(text)
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for y in (0..8).rev() {
            let mut empty = 0;
            for x in 0..8 {
                match decode(self.board[y * 8 + x]) {
                    None => empty += 1,
                    Some((s, p)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(SEAT_LETTERS[s]);
                        out.push(PIECE_LETTERS[p]);
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if y > 0 {
                out.push('/');
            }
        }
        let seats: String = (0..SEATS)
            .filter(|&s| self.players >> s & 1 != 0)
            .map(|s| SEAT_LETTERS[s])
            .collect();
        format!(
            "{out} {} {seats} {} {}",
            self.area.text(),
            SEAT_LETTERS[self.to_move as usize],
            self.turn
        )
    }

    fn seats(&self) -> usize {
        SEATS
    }
    fn seat_name(seat: usize) -> &'static str {
        SEAT_NAMES[seat]
    }
    fn seat_letter(seat: usize) -> char {
        SEAT_LETTERS[seat]
    }
    fn to_move(&self) -> usize {
        self.to_move as usize
    }
    fn plays(&self, seat: usize) -> bool {
        seat < SEATS && self.players >> seat & 1 != 0
    }
    fn in_game(&self, seat: usize) -> bool {
        seat < SEATS && self.occ[seat] != 0
    }
    fn turn(&self) -> u32 {
        self.turn
    }
    fn turns_left(&self) -> Option<u32> {
        Some(MAX_TURNS.saturating_sub(self.turn))
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        rules::legal_moves(self, moves);
    }

    fn play(&self, mv: Move) -> Self {
        rules::play(self, mv)
    }

    fn with_to_move(&self, seat: usize) -> Self {
        let mut p = self.clone();
        p.set_to_move(seat);
        p
    }

    fn outcome(&self) -> Option<Results> {
        if !self.is_over() {
            return None;
        }
        let alive = self.alive().count();
        let mut r = [SeatResult::Absent; MAX_SEATS];
        for (s, slot) in r.iter_mut().enumerate().take(SEATS) {
            if self.players >> s & 1 != 0 {
                *slot = match (self.occ[s] != 0, alive) {
                    (false, _) => SeatResult::Loss,
                    (true, 1) => SeatResult::Win,
                    (true, _) => SeatResult::Draw,
                };
            }
        }
        Some(r)
    }

    fn evaluate(&self) -> Values {
        eval::evaluate(self)
    }

    fn hash(&self) -> u64 {
        self.key ^ (self.turn as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn order(&self, mv: Move) -> i32 {
        rules::order(self, mv)
    }

    fn move_text(&self, mv: Move) -> String {
        if mv.is_null() {
            "0000".into()
        } else {
            format!("{}{}", mv.from(), mv.to())
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, crate::Error> {
        rules::parse_move(self, text)
    }

    fn pretty(&self, ansi: bool) -> String {
        rules::pretty(self, ansi)
    }

    fn bench_positions() -> Vec<Self> {
        [
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 0",
            "wB4nGnYnR/wG7/3wY2nB1/wR7/7eR/2sY3eY1/4sG2eG/sR2sB3eB a1-h8 swne s 8",
            "2wB4nR/8/3nB4/1wR5eG/2wGnG4/2nY1eYsG1eR/8/sR6eB a1-h8 swne n 42",
            "wB6nR/8/8/5wRnB1/sY2wY4/8/2sR1sGsBnG1/8 a2-h8 swn n 26",
            "8/8/3sY4/2nBsB1nG2/3nYsR3/sG7/8/8 a3-f6 sn n 39",
        ]
        .iter()
        .map(|t| Chamaeleon::from_text(t).expect("bench position"))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_text_round_trips() {
        for n in 2..=4 {
            let p = Chamaeleon::startpos(n).unwrap();
            let back = Chamaeleon::from_text(&p.text()).unwrap();
            assert_eq!(back, p);
        }
        assert_eq!(
            Chamaeleon::startpos(4).unwrap().text(),
            "wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne s 0"
        );
    }

    #[test]
    fn bad_texts_say_what_is_wrong() {
        let err = |t: &str| Chamaeleon::from_text(t).unwrap_err().to_string();
        assert!(err("x").contains("5 fields"));
        assert!(err("8/8/8/8/8/8/8/sR7 a1-h8 sn s 0").contains("empty edge line"));
        assert!(
            err("wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 sn s 0")
                .contains("not among the seats")
        );
        assert!(
            err("wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h9 swne s 0")
                .contains("bad area")
        );
        assert!(
            err("wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsRsGsB3eB a1-h8 swne s 0").contains("two R")
        );
        assert!(
            err("wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB3eB a1-h8 swne x 0")
                .contains("seat to move")
        );
        assert!(
            err("wB3nBnGnYnR/wG7/wY7/wR7/7eR/7eY/7eG/sRsYsGsB2eB a1-h8 swne s 0")
                .contains("7 squares")
        );
    }

    #[test]
    fn bench_positions_parse() {
        assert_eq!(Chamaeleon::bench_positions().len(), 5);
    }
}
