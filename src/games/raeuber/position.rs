//! The Räuberschach position: the bitboards of [`Bits`] plus a mailbox, the side to move and
//! the clocks; FEN in and out, move text in and out (coordinates and the matrix notation),
//! copy-make play with an incremental Zobrist hash, and the [`Game`] implementation. Move
//! generation itself lives in [`super::movegen`].

use super::attacks::{self, BOARD, RANK_1, RANK_6};
use super::movegen::Bits;
use super::{START_FEN, VARIANTS};
use crate::board::fen::{Fen, placement};
use crate::board::{Color, GLYPHS, Geometry, Move, MoveKind, MoveList, Square};
use crate::game::{Game, Terminal};
use crate::games::zobrist;
use crate::san::SanParts;
use crate::search::params::SearchParams;

pub use super::movegen::{BISHOP_K, KING_K, KNIGHT_K, PAWN_K, QUEEN_K, ROOK_K};

/// A mailbox entry: `colour * 6 + kind`, or `EMPTY`.
pub const EMPTY: u8 = 12;

const LETTERS: [char; 12] = ['P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k'];

/// A Räuberschach position. Squares are those of the 8×8 grid (`rank * 8 + file`); only
/// files a–f and ranks 1–6 are used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raeuber {
    /// Pieces by kind (pawn, knight, bishop, rook, queen, king) and by colour.
    pub(crate) bits: Bits,
    /// The piece on each square (`colour * 6 + kind`) or [`EMPTY`]; squares up to f6 (45).
    pub(crate) board: [u8; 48],
    pub(crate) side: Color,
    /// Plies since the last capture or pawn move.
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    hash: u64,
}

#[inline(always)]
fn key(piece: u8, sq: usize) -> u64 {
    zobrist::piece(piece as usize, sq)
}

impl Raeuber {
    /// Pieces of `color` of kind `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: usize) -> u64 {
        self.bits.kinds[kind] & self.bits.colors[color.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn occupied_by(&self, color: Color) -> u64 {
        self.bits.colors[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.bits.occupied()
    }

    /// The piece on `sq` as `(colour, kind)`.
    pub fn piece_at(&self, sq: Square) -> Option<(Color, usize)> {
        let p = *self.board.get(sq.index())?;
        (p != EMPTY).then(|| {
            let color = if p < 6 { Color::White } else { Color::Black };
            (color, p as usize % 6)
        })
    }

    /// Squares attacked by the pieces of `color` (with the current blockers).
    #[inline]
    pub fn attacks_by(&self, color: Color) -> u64 {
        self.bits.attacks_by(color.index())
    }

    /// Whether the side to move can capture (and so must).
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.attacks_by(self.side) & self.bits.colors[self.side.flip().index()] != 0
    }

    /// The number of legal moves, without generating them (bulk counting for perft).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        self.bits.count_moves(self.side.index())
    }

    /// The pieces by kind and colour.
    pub fn bits(&self) -> &Bits {
        &self.bits
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, &p) in self.board.iter().enumerate() {
            if p != EMPTY {
                h ^= key(p, sq);
            }
        }
        if self.side == Color::Black {
            h ^= zobrist::side();
        }
        h
    }

    /// Plies since the last capture or pawn move (the FEN halfmove clock).
    pub fn halfmove(&self) -> u32 {
        self.halfmove
    }
}

impl Game for Raeuber {
    const GAME: &'static str = "raeuber";
    const DRAW_PLIES: Option<u32> = Some(100);
    const REPETITION: bool = true;
    const NULL_MOVE: bool = false;
    const BENCH_DEPTH: u32 = 13;
    /// Measured against Fairy-Stockfish (docs/raeuber.md) and screened on the forced-win
    /// suite at 2 M nodes (docs/search-log.md): no extension for forced captures (single
    /// replies are extended: without it the suite drops from 60 to 38 of 75), forced-capture
    /// chains in quiescence for 2 plies before stand pat, logarithmic LMR as in chess, offers
    /// reduced and pruned late like quiet moves, late captures reduced when the reply is free,
    /// offers ordered first.
    const SEARCH: SearchParams = SearchParams {
        forcing_extension: false,
        qsearch_forcing_plies: 2,
        late_move_pruning: true,
        quiet_order: true,
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_forcing_replies: true,
        prune_forcing_replies: true,
        lmr_noisy: true,
        ..SearchParams::CONSERVATIVE
    };

    fn variants() -> &'static [&'static str] {
        &VARIANTS
    }

    fn startpos(variant: &str) -> Result<Self, String> {
        Self::from_fen(variant, START_FEN)
    }

    fn from_fen(variant: &str, text: &str) -> Result<Self, String> {
        if !VARIANTS.iter().any(|v| v.eq_ignore_ascii_case(variant)) {
            return Err(format!(
                "unknown variant '{variant}': this engine plays raeuberschach"
            ));
        }
        let fen = Fen::parse(text)?;
        let g = fen.geometry;
        if (g.width, g.height) != (6, 6) {
            return Err(format!(
                "Räuberschach is played on 6×6, the FEN has {}×{}",
                g.width, g.height
            ));
        }
        if fen.castling != "-" {
            return Err("Räuberschach has no castling: the castling field must be '-'".into());
        }
        if let Some(ep) = fen.en_passant {
            return Err(format!(
                "Räuberschach has no en passant: the FEN's en-passant square {ep} must be '-'"
            ));
        }
        let mut pos = Raeuber {
            bits: Bits::default(),
            board: [EMPTY; 48],
            side: fen.side,
            halfmove: fen.halfmove,
            fullmove: fen.fullmove.max(1),
            hash: 0,
        };
        for &(sq, c) in &fen.pieces {
            let p = LETTERS
                .iter()
                .position(|&l| l == c)
                .ok_or_else(|| format!("'{c}' is not a Räuberschach piece (use PNBRQK, pnbrqk)"))?;
            let (color, kind) = (p / 6, p % 6);
            if kind == PAWN_K {
                let last = if color == 0 { RANK_6 } else { RANK_1 };
                if last >> sq.0 & 1 != 0 {
                    return Err(format!(
                        "a pawn on {sq} stands on its promotion rank, where it would be a queen"
                    ));
                }
            }
            pos.bits.kinds[kind] |= sq.bb().0;
            pos.bits.colors[color] |= sq.bb().0;
            pos.board[sq.index()] = p as u8;
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    fn fen(&self) -> String {
        let geometry = crate::board::Geometry::new(6, 6).expect("6×6 is a board");
        let board = placement(&geometry, |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| LETTERS[p as usize])
        });
        format!(
            "{board} {} - - {} {}",
            self.side.fen_char(),
            self.halfmove,
            self.fullmove
        )
    }

    fn variant(&self) -> &'static str {
        VARIANTS[0]
    }

    fn size(&self) -> (u8, u8) {
        (6, 6)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        self.bits.legal_moves(self.side.index(), moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        let mut next = self.clone();
        let us = self.side.index();
        let from = mv.from().index();
        let to = mv.to().index();
        let (fb, tb) = (1u64 << from, 1u64 << to);
        let piece = self.board[from];
        let kind = piece as usize - 6 * us;
        let victim = self.board[to];
        let mut hash = self.hash ^ zobrist::side() ^ key(piece, from);
        if victim != EMPTY {
            next.bits.kinds[victim as usize - 6 * (1 - us)] ^= tb;
            next.bits.colors[1 - us] ^= tb;
            hash ^= key(victim, to);
            next.halfmove = 0;
        } else if kind == PAWN_K {
            next.halfmove = 0;
        } else {
            next.halfmove = self.halfmove + 1;
        }
        next.bits.colors[us] ^= fb | tb;
        next.board[from] = EMPTY;
        if mv.kind() == MoveKind::PromoteQueen {
            let queen = (6 * us + QUEEN_K) as u8;
            next.bits.kinds[PAWN_K] ^= fb;
            next.bits.kinds[QUEEN_K] ^= tb;
            next.board[to] = queen;
            hash ^= key(queen, to);
        } else {
            next.bits.kinds[kind] ^= fb | tb;
            next.board[to] = piece;
            hash ^= key(piece, to);
        }
        next.hash = hash;
        next.side = self.side.flip();
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next
    }

    fn terminal(&self) -> Terminal {
        // No legal move — no pieces left, or every piece blocked — wins.
        Terminal::Win
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Books in the Polyglot file format with this game's own Zobrist hash, kept apart by
    /// variant ([`crate::book::variant_key`]).
    fn book_key(&self) -> Option<u64> {
        Some(crate::book::variant_key(self.hash(), self.variant()))
    }

    fn reversible_plies(&self) -> u32 {
        self.halfmove
    }

    fn expected_moves_left(&self) -> u32 {
        // Most moves capture or are answered by a capture: a game from the start lasts about
        // 17 moves a side, and fewer pieces mean fewer moves to come.
        4 + self.occupied().count_ones() / 2
    }

    fn insufficient_material(&self) -> bool {
        // Only bishops on both sides, each side's on one colour complex and the two sides' on
        // different complexes: no capture can ever happen, and a side's bishops (fewer than a
        // whole complex) always have a move, so the game can only end in a draw.
        let bishops = self.bits.kinds[BISHOP_K];
        if self.occupied() != bishops {
            return false;
        }
        let (w, b) = (self.bits.colors[0], self.bits.colors[1]);
        let (light, dark) = (attacks::LIGHT, attacks::DARK);
        w != 0 && b != 0 && ((w & dark == 0 && b & light == 0) || (w & light == 0 && b & dark == 0))
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.board[mv.to().index()] != EMPTY || mv.kind() == MoveKind::PromoteQueen
    }

    fn forcing(&self) -> bool {
        self.has_capture()
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        super::eval::noisy_order(self, mv)
    }

    fn evaluate(&self) -> i32 {
        super::eval::evaluate(self)
    }

    fn quiet_order(&self, mv: Move) -> i32 {
        super::eval::quiet_order(self, mv)
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// SAN as Fairy-Stockfish writes it for Räuberschach: the king is an ordinary piece, so
    /// there is no check and no `+` or `#`.
    fn san(&self, mv: Move) -> String {
        crate::san::write(
            self,
            mv,
            |m| SanParts {
                piece: self
                    .piece_at(m.from())
                    .and_then(|(_, kind)| (kind != PAWN_K).then_some(LETTERS[kind])),
                capture: self.board[m.to().index()] != EMPTY,
                castling: None,
            },
            |_| false,
        )
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let t = text.trim();
        if let Some(coords) = matrix_to_coordinates(t) {
            return self.parse_move(&coords);
        }
        let sq = |s: &str| {
            Square::parse(s)
                .filter(|sq| BOARD >> sq.0 & 1 != 0)
                .ok_or_else(|| format!("'{t}': '{s}' is not a square of the 6×6 board"))
        };
        if !(t.len() == 4 || t.len() == 5) || !t.is_ascii() {
            return Err(format!(
                "'{t}' is not a move: write from and to squares, as b2b3 or a5a6q"
            ));
        }
        let (from, to) = (sq(&t[0..2])?, sq(&t[2..4])?);
        let promo = match t.as_bytes().get(4) {
            None => None,
            Some(b'q' | b'Q') => Some(()),
            Some(&c) => {
                return Err(format!(
                    "'{t}': a pawn always promotes to a queen in Räuberschach, not '{}'",
                    c as char
                ));
            }
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let found = moves
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to);
        match found {
            Some(m) if promo.is_none() || m.kind() == MoveKind::PromoteQueen => Ok(m),
            Some(_) => Err(format!("'{t}' is not a promotion")),
            None => {
                if self.has_capture() && self.board[to.index()] == EMPTY {
                    Err(format!(
                        "{t} is not a legal move here: a capture is possible, and capturing is compulsory"
                    ))
                } else {
                    Err(format!("{t} is not a legal move here"))
                }
            }
        }
    }

    fn xboard_setup(&self) -> Vec<String> {
        vec![format!("setup (PNBRQKpnbrqk) 6x6+0_giveaway {START_FEN}")]
    }

    fn xboard_name(variant: &str) -> &str {
        variant
    }

    fn pretty(&self) -> String {
        let geometry = Geometry::new(6, 6).expect("6×6 is a board size");
        crate::board::diagram(&geometry, |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| GLYPHS[p as usize])
        })
    }

    fn bench_positions() -> Vec<Self> {
        [
            START_FEN,
            "rqkbnr/pp1ppp/6/2p3/PPPPP1/RQKBNR b - - 0 2",
            "1qkbnr/2pp1p/rp3p/6/RP1PPP/1QKB1R w - - 2 7",
            "2kr2/2pp2/p4p/5P/PRPPB1/5R b - - 1 11",
            "2k3/r1p1Nr/6/2Pn2/6/2K2R b - - 2 13",
            "1qk2r/1pn2p/3p2/1p3P/1K1PP1/4NR w - - 0 10",
            "6/1R1p1r/2p3/2P3/Pq4/6 w - - 0 12",
            "4n1/2p1b1/6/5K/2k3/6 b - - 1 17",
        ]
        .iter()
        .filter_map(|f| Self::from_fen(VARIANTS[0], f).ok())
        .collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        super::perft::perft(self, depth)
    }
}

/// The matrix notation of the original exercise (SPEC §1): rows 1–6 from Black's base line,
/// columns 1–6 from the left, a move written `z1s1z2s2` (`5242` is b2b3), optionally with a
/// promotion letter. Returns the move in coordinate notation, or `None` if `text` is not
/// four digits from 1 to 6.
pub fn matrix_to_coordinates(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if !(b.len() == 4 || b.len() == 5) || !b[..4].iter().all(|c| (b'1'..=b'6').contains(c)) {
        return None;
    }
    let square = |row: u8, col: u8| {
        let file = (b'a' + (col - b'1')) as char;
        let rank = (b'6' - (row - b'1')) as char;
        format!("{file}{rank}")
    };
    let mut out = square(b[0], b[1]) + &square(b[2], b[3]);
    if let Some(&p) = b.get(4) {
        out.push(p as char);
    }
    Some(out)
}

impl std::fmt::Display for Raeuber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::generic as perft;

    fn pos(fen: &str) -> Raeuber {
        Raeuber::from_fen("raeuberschach", fen).unwrap()
    }

    fn moves_of(p: &Raeuber) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut v: Vec<String> = list.iter().map(|&m| p.move_text(m)).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_moves() {
        let p = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(p.fen(), START_FEN);
        assert_eq!(
            moves_of(&p),
            [
                "a2a3", "b2b3", "c2c3", "d2d3", "e1d3", "e1f3", "e2e3", "f2f3"
            ]
        );
        assert_eq!(p.count_moves(), 8);
        assert!(!p.forcing());
        assert_eq!(perft(&p, 3), 340);
    }

    #[test]
    fn capture_is_forced_with_free_choice() {
        // White's rook on a1 can take on a6, its pawn on c2 can take d3; the king's quiet
        // moves are not allowed.
        let p = pos("r5/6/6/3p2/2P3/R1K3 w - - 0 1");
        assert_eq!(moves_of(&p), ["a1a6", "c2d3"]);
        assert!(p.forcing());
        assert!(p.is_noisy(p.parse_move("a1a6").unwrap()));
        assert_eq!(p.count_moves(), 2);
        let err = p.parse_move("c1d2").unwrap_err();
        assert!(err.contains("compulsory"), "{err}");
        // Black to move in the same position has its own capture: the pawn takes c2.
        let b = pos("r5/6/6/3p2/2P3/R1K3 b - - 0 1");
        assert_eq!(moves_of(&b), ["a6a1", "d3c2"]);
    }

    #[test]
    fn king_is_an_ordinary_piece() {
        // The black king may step onto b5, which White's queen attacks.
        let p = pos("k5/6/2Q3/6/6/6 b - - 0 1");
        assert_eq!(moves_of(&p), ["a6a5", "a6b5", "a6b6"]);
        // A king next to the queen must take it; White is then left without pieces: no
        // legal move, and so White has won.
        let p = pos("2k3/2Q3/6/6/6/6 b - - 0 1");
        assert_eq!(moves_of(&p), ["c6c5"]);
        let q = p.play(p.parse_move("c6c5").unwrap());
        assert!(moves_of(&q).is_empty());
        assert_eq!(q.terminal(), Terminal::Win);
        assert_eq!(q.fen(), "6/2k3/6/6/6/6 w - - 0 2");
        // The king can be captured, and play goes on until Black is out of moves.
        let r = pos("2k3/2Q3/6/6/6/6 w - - 0 1");
        assert_eq!(moves_of(&r), ["c5c6"]);
        let s = r.play(r.parse_move("c5c6").unwrap());
        assert!(moves_of(&s).is_empty());
        assert_eq!(s.terminal(), Terminal::Win);
        assert_eq!(s.fen(), "2Q3/6/6/6/6/6 b - - 0 1");
    }

    #[test]
    fn blocked_side_to_move_wins() {
        // White's only piece, a pawn on a3, is blocked by the black pawn on a4.
        let p = pos("6/6/p5/P5/6/6 w - - 0 1");
        assert!(moves_of(&p).is_empty());
        assert_eq!(p.count_moves(), 0);
        assert_eq!(p.terminal(), Terminal::Win);
        assert_eq!(perft(&p, 3), 0);
    }

    #[test]
    fn promotion_text_in_and_out() {
        let p = pos("6/P5/6/6/6/5k w - - 0 1");
        assert_eq!(moves_of(&p), ["a5a6q"]);
        let a = p.parse_move("a5a6").unwrap();
        let b = p.parse_move("a5a6q").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.kind(), MoveKind::PromoteQueen);
        assert_eq!(p.move_text(a), "a5a6q");
        assert!(p.is_noisy(a));
        assert!(p.parse_move("a5a6n").is_err());
        let q = p.play(a);
        assert_eq!(q.fen(), "Q5/6/6/6/6/5k b - - 0 1");
        // A black pawn promotes on rank 1, capturing as well.
        let p = pos("6/6/6/6/1p4/R5 b - - 0 1");
        assert_eq!(moves_of(&p), ["b2a1q"]);
        let q = p.play(p.parse_move("b2a1").unwrap());
        assert_eq!(q.fen(), "6/6/6/6/6/q5 w - - 0 2");
        assert_eq!(q.hash(), q.compute_hash());
        // A non-promotion refuses a promotion letter.
        let s = Raeuber::startpos("raeuberschach").unwrap();
        assert!(s.parse_move("a2a3q").is_err());
        assert!(s.parse_move("a2a3").is_ok());
        assert!(s.parse_move("a2a4").is_err());
        assert!(s.parse_move("g2g3").is_err());
        assert!(s.parse_move("").is_err());
        assert!(s.parse_move("é2e3").is_err());
        // Matrix notation: row 5 column 2 is b2, row 4 column 2 is b3.
        assert_eq!(matrix_to_coordinates("62").as_deref(), None);
        assert_eq!(matrix_to_coordinates("5242").as_deref(), Some("b2b3"));
        assert_eq!(s.parse_move("5242"), s.parse_move("b2b3"));
        assert!(s.parse_move("5272").is_err());
        let p = pos("6/P5/6/6/6/5k w - - 0 1");
        assert_eq!(
            p.parse_move("2111").unwrap(),
            p.parse_move("a5a6q").unwrap()
        );
    }

    #[test]
    fn fen_round_trip() {
        for fen in [
            START_FEN,
            "1k4/1R3p/p2P2/P5/5P/K5 b - - 0 16",
            "1qkbn1/2pp1r/1p3p/6/RP1PPP/1QKB1R b - - 2 7",
            "6/6/6/6/6/6 w - - 0 1",
            "4n1/2p1b1/6/5K/2k3/6 b - - 1 17",
        ] {
            let p = pos(fen);
            assert_eq!(p.fen(), fen);
            assert_eq!(pos(&p.fen()), p);
        }
        // Missing clocks default to 0 1.
        assert_eq!(pos("6/6/6/6/6/K5 b").fen(), "6/6/6/6/6/K5 b - - 0 1");
    }

    #[test]
    fn bad_fens_are_refused() {
        for bad in [
            "",
            "rqkbnr/pppppp/6/6/PPPPPP w - - 0 1",
            "rqkbnrr/ppppppp/7/7/PPPPPPP/RQKBNRR w - - 0 1",
            "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w KQkq - 0 1",
            "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - c3 0 1",
            "rqkbnr/pppppp/6/6/PPPPPP/RQKBNA w - - 0 1",
            "P5/6/6/6/6/6 w - - 0 1",
            "6/6/6/6/6/p5 w - - 0 1",
            "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR x - - 0 1",
        ] {
            assert!(Raeuber::from_fen("raeuberschach", bad).is_err(), "{bad}");
        }
        assert!(Raeuber::from_fen("chess", START_FEN).is_err());
    }

    /// A small deterministic generator for random games.
    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn incremental_hash_and_counts_along_random_games() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut seen_promotion = false;
        for _ in 0..300 {
            let mut p = Raeuber::startpos("raeuberschach").unwrap();
            for _ in 0..120 {
                assert_eq!(p.hash(), p.compute_hash(), "{}", p.fen());
                assert_eq!(pos(&p.fen()), p);
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                assert_eq!(list.len() as u32, p.count_moves(), "{}", p.fen());
                assert_eq!(
                    p.forcing(),
                    list.iter().any(|&m| p.board[m.to().index()] != EMPTY)
                );
                if list.is_empty() {
                    break;
                }
                let mv = list[rng(&mut seed) as usize % list.len()];
                seen_promotion |= mv.kind() == MoveKind::PromoteQueen;
                p = p.play(mv);
            }
        }
        assert!(seen_promotion);
    }

    #[test]
    fn bench_positions_are_all_there_and_in_play() {
        let positions = Raeuber::bench_positions();
        assert_eq!(positions.len(), 8);
        for p in &positions {
            assert!(p.count_moves() > 0, "{}", p.fen());
        }
        let xb = positions[0].xboard_setup();
        assert_eq!(
            xb,
            [format!("setup (PNBRQKpnbrqk) 6x6+0_giveaway {START_FEN}")]
        );
        assert_eq!(Raeuber::xboard_name("raeuberschach"), "raeuberschach");
        assert!(positions[0].pretty().starts_with("6 ♜ ♛ ♚ ♝ ♞ ♜"));
    }

    #[test]
    fn short_games_share_the_clock_over_fewer_moves() {
        let start = Raeuber::startpos("raeuberschach").unwrap();
        assert_eq!(start.expected_moves_left(), 16);
        assert_eq!(
            pos("6/1p4/p5/3q2/2P3/R5 w - - 0 1").expected_moves_left(),
            6
        );
    }

    #[test]
    fn opposite_bishops_never_meet() {
        // c5 is dark, c2 light, d2 dark.
        assert!(pos("6/2b3/6/6/2B3/6 w - - 0 1").insufficient_material());
        assert!(!pos("6/2b3/6/6/3B2/6 w - - 0 1").insufficient_material());
        assert!(!pos("6/2b3/6/6/2B3/5P w - - 0 1").insufficient_material());
        assert_eq!(pos("6/2b3/6/6/2B3/6 w - - 0 1").evaluate(), 0);
    }
}
