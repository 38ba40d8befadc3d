//! Standard chess (docs/rules.md §3.1): FIDE rules on bitboards.
//!
//! - [`attacks`]: leaper, line and magic sliding-attack tables.
//! - [`position`]: the position, FEN, copy-make, Zobrist hashing, static exchange evaluation.
//! - [`movegen`]: legal move generation (pins, check evasions, castling, en passant).
//! - [`polyglot`]: the Polyglot opening-book key and move encoding.
//! - [`eval`]: tapered material + piece-square evaluation with a few classic terms.
//! - [`nnue`]: the learned evaluation in use (a network and each thread's accumulators).
//! - [`params`]: the weights' vocabulary (score pairs, the parameter vector, named weights).
//! - [`weights`]: the tuned weights, one readable table; [`tune`]: the tuner that writes it.
//! - [`syzygy`]: Syzygy endgame tablebases (WDL in the search, DTZ at the root).
//!
//! This file ties them to the [`Game`] trait. Draws by repetition and the 50-move rule are the
//! caller's business (see [`Game::DRAW_PLIES`], [`Game::REPETITION`]); insufficient material
//! is answered here.

pub mod attacks;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod page;
pub mod params;
pub mod polyglot;
pub mod position;
pub mod syzygy;
pub mod syzygy_files;
pub mod tune;
pub mod weights;

use crate::board::{Color, Move, MoveKind, MoveList};
use crate::engine_option::{GameOption, GameSettings};
use crate::error::Error;
use crate::game::{Dialect, EndgameTables, Game, OpeningBook, Tablebases, Terminal, Tuning};
use crate::san::SanParts;
pub use position::Chess;
use position::*;

/// Light squares of the board (h1 is light).
const LIGHT_SQUARES: u64 = 0x55AA_55AA_55AA_55AA;

impl Chess {
    /// The piece kind a move captures (a pawn for en passant), if any.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<usize> {
        if mv.kind() == MoveKind::EnPassant {
            Some(PAWN)
        } else if mv.kind() == MoveKind::Castling {
            None
        } else {
            self.kind_on(mv.to().index())
        }
    }
}

/// Varied middlegame and endgame positions for `bench`.
const BENCH_FENS: [&str; 14] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp1nbppp/2p1pn2/3p1b2/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 2 9",
    "r1bq1rk1/pp3ppp/2nbpn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
    "2kr3r/ppp2ppp/2n1bn2/2bqp3/8/2NP1NP1/PPP1PPBP/R1BQ1RK1 w - - 4 10",
    "r4rk1/1b3ppp/p2q4/1p6/3Nn3/P3B3/1P2QPPP/2RR2K1 w - - 3 20",
    "3r2k1/pp3pp1/2p1b2p/4P3/2P5/1P3N1P/P4PP1/3R2K1 b - - 0 25",
    "6k1/5pp1/1p2p2p/p2pP3/P2P1P2/1P4P1/6KP/8 w - - 0 35",
    "8/5pk1/6p1/2pP4/2P2K2/8/5PPP/8 b - - 0 40",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/8/1k6/8/2R5/8/4K3/8 w - - 0 60",
    "2r3k1/5pp1/p3p2p/1p1qP3/3Q4/P5P1/1P3P1P/2R3K1 b - - 1 28",
];

impl Game for Chess {
    const GAME: &'static str = "chess";

    const DRAW_PLIES: Option<u32> = Some(100);

    const REPETITION: bool = true;

    const NULL_MOVE: bool = true;
    /// With the network the levels' budgets (set with the hand-made evaluation) played about
    /// 180 Elo above their names (`UCI_Elo 1800` scored 74 % against Stockfish's 1800 at
    /// 40,000 nodes); a fifth of the nodes (docs/strength.md).
    const LEVEL_NODES_PERCENT: u64 = 20;

    fn variants() -> &'static [&'static str] {
        &["chess", "chess960"]
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        Self::from_fen(variant, Chess::START_FEN)
    }

    fn start_positions(variant: &str) -> u32 {
        if Self::startpos(variant).is_ok_and(|p| p.is_chess960()) {
            960
        } else {
            1
        }
    }

    fn numbered_start(variant: &str, n: u32) -> Result<Self, Error> {
        if Self::start_positions(variant) == 1 {
            return match n {
                0 => Self::startpos(variant),
                _ => Err(Error::Variant(format!(
                    "{variant} has one start position (number 0), not number {n}"
                ))),
            };
        }
        let back = chess960_back_rank(n).ok_or_else(|| {
            Error::Variant(format!("Chess960 positions are numbered 0 to 959, not {n}"))
        })?;
        let rooks: String = back
            .iter()
            .enumerate()
            .filter(|(_, p)| **p == b'r')
            .map(|(f, _)| (b'a' + f as u8) as char)
            .collect();
        let rank: String = back.iter().map(|&p| p as char).collect();
        let fen = format!(
            "{rank}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{rooks} - 0 1",
            rank.to_ascii_uppercase(),
            rooks.to_ascii_uppercase()
        );
        Self::from_fen(variant, &fen)
    }

    fn from_fen(variant: &str, fen: &str) -> Result<Self, Error> {
        let chess960 = match variant.to_ascii_lowercase().as_str() {
            "chess" | "normal" | "standard" => false,
            "chess960" | "fischerandom" | "960" => true,
            _ => {
                return Err(Error::Variant(format!(
                    "unknown variant '{variant}': kiebitz-chess plays 'chess' and 'chess960'"
                )));
            }
        };
        Chess::parse_fen_with(fen, chess960)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn variant(&self) -> &'static str {
        if self.is_chess960() {
            "chess960"
        } else {
            "chess"
        }
    }

    fn size(&self) -> (u8, u8) {
        (8, 8)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList) {
        self.generate(moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        self.make(mv)
    }

    fn terminal(&self) -> Terminal {
        if self.in_check() {
            Terminal::Loss
        } else {
            Terminal::Draw
        }
    }

    fn end_reason(&self, terminal: Terminal) -> String {
        match terminal {
            Terminal::Loss => format!("{} mates", self.side_to_move().flip().name()),
            Terminal::Draw => "Draw by stalemate".into(),
            Terminal::Win => format!("{} has no legal move and wins", self.side_to_move().name()),
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn reversible_plies(&self) -> u32 {
        self.halfmove as u32
    }

    fn insufficient_material(&self) -> bool {
        let p = &self.pieces;
        if p[PAWN] | p[ROOK] | p[QUEEN] != 0 {
            return false;
        }
        let minors = p[KNIGHT] | p[BISHOP];
        if minors.count_ones() <= 1 {
            return true;
        }
        // Only bishops, all on squares of one colour: no mate is possible.
        p[KNIGHT] == 0 && (p[BISHOP] & LIGHT_SQUARES == 0 || p[BISHOP] & !LIGHT_SQUARES == 0)
    }

    /// A side with nothing but king and pawns may be in zugzwang, where passing is far better
    /// than any move (`8/8/8/8/p1Q5/8/8/k6K w`: after 1. Qc2 a3 Black's pawn must walk into
    /// the mate), so it never makes a null move — Stockfish's "non-pawn material" condition.
    fn null_move_allowed(&self) -> bool {
        let own = self.colors[self.side.index()];
        own & !(self.pieces[PAWN] | self.pieces[KING]) != 0
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.kind() == MoveKind::PromoteQueen || self.captured(mv).is_some()
    }

    #[inline]
    fn forcing(&self) -> bool {
        self.in_check()
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        let victim = self.captured(mv).map_or(0, |k| SEE_VALUE[k]);
        let attacker = self.kind_on(mv.from().index()).unwrap_or(PAWN) as i32;
        let promotion = if mv.kind() == MoveKind::PromoteQueen {
            SEE_VALUE[QUEEN] - SEE_VALUE[PAWN]
        } else {
            0
        };
        (victim + promotion) * 8 - attacker
    }

    /// The network's evaluation when one is in use ([`nnue`]), else the hand-made one.
    fn evaluate(&self) -> i32 {
        nnue::evaluate(self, nnue::SCRATCH).unwrap_or_else(|| Chess::evaluate_hce(self))
    }

    #[inline]
    fn evaluate_at(&self, ply: usize) -> i32 {
        nnue::evaluate(self, ply).unwrap_or_else(|| Chess::evaluate_hce(self))
    }

    fn play_null(&self) -> Self {
        self.make_null()
    }

    fn san(&self, mv: Move) -> String {
        const LETTERS: [Option<char>; 6] =
            [None, Some('N'), Some('B'), Some('R'), Some('Q'), Some('K')];
        crate::san::write(
            self,
            mv,
            |m| SanParts {
                piece: LETTERS[self.kind_on(m.from().index()).unwrap_or(PAWN)],
                capture: self.captured(m).is_some(),
                castling: (m.kind() == MoveKind::Castling).then(|| m.to().file() == 6),
            },
            Chess::in_check,
        )
    }

    /// Coordinate notation; Chess960 castling is written as the king taking its own rook
    /// (`e1h1`, as UCI_Chess960 wants), standard castling as the king's two-square step.
    fn move_text(&self, mv: Move) -> String {
        if mv.kind() == MoveKind::Castling && self.is_chess960() {
            format!("{}{}", mv.from(), self.castling_rook(mv))
        } else {
            mv.to_string()
        }
    }

    /// Coordinate notation, also taking castling in the other convention where that is not
    /// ambiguous (`e1h1` in standard chess, `e1g1` in Chess960 when the king moves two or more
    /// squares), as python-chess and cutechess do, and as `O-O` / `O-O-O` (XBoard in Chess960).
    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let read = || -> Result<Move, Error> {
            let mut moves = MoveList::new();
            self.legal_moves(&mut moves);
            let wing = match text {
                "O-O" | "0-0" => Some(true),
                "O-O-O" | "0-0-0" => Some(false),
                _ => None,
            };
            let castling_as = |mv: Move| {
                if wing.is_some() {
                    return wing == Some(mv.to().file() == 6);
                }
                let (from, to) = (mv.from().index(), mv.to().index());
                if self.is_chess960() {
                    from.abs_diff(to) >= 2 && mv.to_string() == text
                } else {
                    format!("{}{}", mv.from(), self.castling_rook(mv)) == text
                }
            };
            let exact = moves.iter().copied().find(|&mv| self.move_text(mv) == text);
            exact
                .or_else(|| {
                    moves
                        .iter()
                        .copied()
                        .find(|&mv| mv.kind() == MoveKind::Castling && castling_as(mv))
                })
                .ok_or_else(|| Error::Move(format!("{text} is not a legal move here")))
        };
        read()
    }

    fn pretty(&self) -> String {
        format!("{}FEN: {}\n", self.pretty_board(), self.to_fen())
    }
}

impl Tuning for Chess {
    /// Everything of [`SearchParams::FULL`](crate::search::params::SearchParams::FULL), and
    /// singular extensions from depth 6 (SPRT H1 at 20,000 nodes a move, 2,261 games, pair
    /// +14.6 ± 11.1), and the soft time limit scaled by the best move's node share (SPRT H1
    /// at 5+0.05, 956 games, pair +19.6 ± 13.7), ProbCut with the table's score as the
    /// evaluation (SPRT H1 at 20,000 nodes, 1,170 games, pair +24.4 ± 15.8):
    /// docs/search-log.md, 2026-12-06 and -07.
    const SEARCH: crate::search::params::SearchParams = crate::search::params::SearchParams {
        singular: true,
        singular_depth: 6,
        time_node_share: true,
        probcut: true,
        tt_eval: true,
        ..crate::search::params::SearchParams::FULL
    };

    const BENCH_DEPTH: u32 = 10;

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        Chess::see_ge(self, mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> u8 {
        self.piece_on(mv.from().index())
    }

    fn structure_key(&self) -> u64 {
        let white = self.pieces[PAWN] & self.colors[0];
        let black = self.pieces[PAWN] & self.colors[1];
        (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .rotate_left(29)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
    }

    fn piece_keys(&self) -> [u64; 2] {
        const MIX: [u64; 6] = [
            0,
            0x9E37_79B9_7F4A_7C15,
            0xC2B2_AE3D_27D4_EB4F,
            0x1656_67B1_9E37_79F9,
            0xD6E8_FEB8_6659_FD93,
            0xFF51_AFD7_ED55_8CCD,
        ];
        self.colors.map(|own| {
            let mut key = 0u64;
            for (pieces, mix) in self.pieces.iter().zip(MIX).skip(KNIGHT) {
                key = key.rotate_left(17) ^ (pieces & own).wrapping_mul(mix);
            }
            // splitmix64's finaliser: every bit of the key reaches the low bits (the index).
            key = (key ^ (key >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            key = (key ^ (key >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            key ^ (key >> 31)
        })
    }

    fn bench_positions() -> Vec<Self> {
        BENCH_FENS
            .iter()
            .map(|f| Chess::parse_fen(f).expect("bench FEN is valid"))
            .collect()
    }
}

impl Dialect for Chess {
    /// Even chances to win at +2 pawns, the draw band about ±1 pawn wide (docs/search.md).
    const WDL: Option<crate::game::WdlModel> = Some(crate::game::WdlModel { a: 200.0, b: 60.0 });

    const CALIBRATED_ELO: bool = true;

    fn xboard_name(variant: &str) -> &str {
        match variant {
            "chess" => "normal",
            "chess960" => "fischerandom",
            _ => variant,
        }
    }

    /// `EvalFile` (a network file; empty: the built-in one) and `Use NNUE` (off: the
    /// hand-made evaluation), for the session that sets them ([`nnue::NetSettings`]).
    fn options() -> Vec<GameOption> {
        crate::nnue::engine::options::<Chess>()
    }

    /// The process's network and switch.
    fn settings() -> GameSettings {
        GameSettings::new(nnue::process_settings())
    }

    fn enter(settings: &GameSettings) {
        crate::nnue::engine::enter_settings::<Chess>(settings);
    }

    fn adopt(settings: &GameSettings) {
        crate::nnue::engine::adopt_settings::<Chess>(settings);
    }
}

impl OpeningBook for Chess {
    /// The Polyglot standard's key ([`polyglot::key`]), so that every Polyglot book works.
    fn book_key(&self) -> Option<u64> {
        Some(polyglot::key(self))
    }

    /// Polyglot writes castling as the king taking its own rook (`e1h1`).
    fn book_move(&self, mv: Move) -> u16 {
        if mv.kind() == MoveKind::Castling {
            let rook = self.castling_rook(mv);
            crate::board::encode_move(Move::new(mv.from(), rook, MoveKind::Normal))
        } else {
            crate::board::encode_move(mv)
        }
    }
}

impl Tablebases for Chess {
    const TABLEBASES: bool = true;

    fn tb_load(path: &str) -> Result<crate::game::TbLoaded, crate::TableError> {
        let (loading, hold) = syzygy::hold(path)?;
        Ok(crate::game::TbLoaded {
            largest: loading.largest,
            hold: hold.map(|h| Box::new(h) as crate::game::Hold),
            left_out: loading.left_out,
        })
    }

    fn tb_wdl(&self, max_pieces: u32) -> Option<i32> {
        syzygy::probe_wdl(self, max_pieces)
    }

    fn tb_root_moves(&self, max_pieces: u32, rule50: bool) -> Option<(Vec<Move>, i32)> {
        syzygy::root_moves(self, max_pieces, rule50)
    }
}

impl EndgameTables for Chess {}

/// A record's pieces: `colour · 6 + kind`, the codes of [`Chess::piece_on`].
impl crate::nnue::data::Pack for Chess {
    const LAYOUT: crate::nnue::Layout = crate::nnue::Layout::CHESS;
    fn pieces(&self) -> Vec<(u8, u8)> {
        let mut occ = self.occupied();
        let mut out = Vec::with_capacity(occ.count_ones() as usize);
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            out.push((sq as u8, self.piece_on(sq)));
        }
        out
    }
}

/// Black's back rank of Chess960 start position `n` (0 to 959, Scharnagl's numbering: 518 is
/// the standard position): the bishops by `n` mod 4 and mod 4 again, the queen, the knights
/// by one of ten placements, then rook, king, rook in the three squares left.
pub fn chess960_back_rank(n: u32) -> Option<[u8; 8]> {
    if n >= 960 {
        return None;
    }
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let mut rank = [0u8; 8];
    let mut n = n as usize;
    rank[2 * (n % 4) + 1] = b'b';
    n /= 4;
    rank[2 * (n % 4)] = b'b';
    n /= 4;
    let empty = |rank: &[u8; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == 0).collect() };
    rank[empty(&rank)[n % 6]] = b'q';
    n /= 6;
    let free = empty(&rank);
    let (a, b) = KNIGHTS[n];
    rank[free[a]] = b'n';
    rank[free[b]] = b'n';
    for (f, p) in empty(&rank).into_iter().zip([b'r', b'k', b'r']) {
        rank[f] = p;
    }
    Some(rank)
}

#[cfg(test)]
mod tests;
