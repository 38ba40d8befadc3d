//! Antichess as a [`Game`]: names, FEN, moves, play, the verdict (no move wins; threefold
//! repetition, the 50-move rule and opposite-colour bishops draw), SAN as lichess writes it,
//! the search's settings (Räuberschach's), and the evaluation and perft hooks.

use super::movegen::{BISHOP_K, PAWN_K};
use super::position::{Antichess, EMPTY, LETTERS};
use super::{START_FEN, VARIANTS, tables};
use crate::board::{Color, GLYPHS, Geometry, Move, MoveList};
use crate::engine_option::{Access, GameSettings};
use crate::error::Error;
use crate::game::{
    Dialect, EndgameTables, Game, OpeningBook, TableBuilds, Tablebases, Tuning, Terminal,
};
use crate::games::raeuber::Raeuber;
use crate::san::SanParts;
use crate::search::params::SearchParams;

/// The light squares of the 8×8 board (b1, a2, …; a1 is dark).
const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;

impl Game for Antichess {
    const GAME: &'static str = "antichess";

    const DRAW_PLIES: Option<u32> = Some(100);

    const REPETITION: bool = true;

    /// Zugzwang decides losing chess as it does Räuberschach: no null moves.
    const NULL_MOVE: bool = false;

    fn variants() -> &'static [&'static str] {
        &VARIANTS
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        Self::from_fen(variant, START_FEN)
    }

    fn from_fen(variant: &str, text: &str) -> Result<Self, Error> {
        if !VARIANTS.iter().any(|v| v.eq_ignore_ascii_case(variant)) {
            return Err(Error::Variant(format!(
                "unknown variant '{variant}': this engine plays antichess"
            )));
        }
        Antichess::read_fen(text)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    fn variant(&self) -> &'static str {
        VARIANTS[0]
    }

    fn size(&self) -> (u8, u8) {
        (8, 8)
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.moves(moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        self.after(mv)
    }

    /// No legal move — no pieces left, or every piece blocked — wins.
    fn terminal(&self) -> Terminal {
        Terminal::Win
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn reversible_plies(&self) -> u32 {
        self.halfmove
    }

    /// The endgame tables' value (`Endgame Tables`), a win or loss only where the move
    /// clock leaves room for its plies.
    fn solved(&self) -> Option<(Terminal, u32)> {
        Terminal::of_table_value(tables::probe(self)?, self.halfmove, Self::DRAW_PLIES)
    }

    /// Only bishops on the board, each side's on one colour complex and the two sides' on
    /// different ones: no capture can ever happen and both always have a move, so lichess
    /// (and python-chess) score the position drawn.
    fn insufficient_material(&self) -> bool {
        let bishops = self.bits.kinds[BISHOP_K];
        if self.occupied() != bishops {
            return false;
        }
        let (w, b) = (self.bits.colors[0], self.bits.colors[1]);
        let dark = !LIGHT;
        w != 0 && b != 0 && ((w & dark == 0 && b & LIGHT == 0) || (w & LIGHT == 0 && b & dark == 0))
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.is_capture(mv) || mv.kind().is_promotion()
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

    /// SAN as lichess (and python-chess) write it for antichess: no check, so no `+` or
    /// `#`; a promotion to a king is `=K`.
    fn san(&self, mv: Move) -> String {
        crate::san::write(
            self,
            mv,
            |m| SanParts {
                piece: self
                    .piece_at(m.from())
                    .and_then(|(_, kind)| (kind != PAWN_K).then_some(LETTERS[kind])),
                capture: self.is_capture(m),
                castling: None,
            },
            |_| false,
        )
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let t = text.trim();
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if let Some(&mv) = moves.iter().find(|&&m| m.to_string() == t) {
            return Ok(mv);
        }
        let quiet = t
            .get(2..4)
            .and_then(crate::board::Square::parse)
            .is_some_and(|to| to.index() < 64 && self.board[to.index()] == EMPTY);
        Err(Error::Move(if quiet && self.has_capture() {
            format!("{t} is not a legal move here: a capture is possible, and capturing is compulsory")
        } else {
            format!("{t} is not a legal move here")
        }))
    }

    fn pretty(&self) -> String {
        let geometry = Geometry::new(8, 8).expect("8×8 is a board size");
        crate::board::diagram(&geometry, |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| GLYPHS[p as usize])
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        super::perft::perft(self, depth)
    }
}

impl Tuning for Antichess {
    const BENCH_DEPTH: u32 = 10;

    /// Räuberschach's switches, measured there against Fairy-Stockfish and by SPRTs
    /// (docs/raeuber.md, docs/search-log.md), plus two of 8×8's own: reverse futility and
    /// internal iterative reductions (the forced-win suites at 100,000 nodes 69 → 96 of 103
    /// and 39 → 48 of 60; against Fairy-Stockfish at 1+0.01 −57.9 → 0.0 over the same 100
    /// opening pairs; a self-play SPRT, docs/search-log.md, 2026-11-29 third session).
    const SEARCH: SearchParams = SearchParams {
        reverse_futility: true,
        iir: true,
        ..<Raeuber as Tuning>::SEARCH
    };

    fn quiet_order(&self, mv: Move) -> i32 {
        super::eval::quiet_order(self, mv)
    }

    fn moved_piece(&self, mv: Move) -> u8 {
        self.board[mv.from().index()]
    }

    fn expected_moves_left(&self) -> u32 {
        // Most moves capture or are answered by a capture: fewer pieces mean fewer moves.
        8 + self.occupied().count_ones() / 2
    }

    fn bench_positions() -> Vec<Self> {
        super::BENCH_FENS
            .iter()
            .filter_map(|f| Self::from_fen(VARIANTS[0], f).ok())
            .collect()
    }
}

impl Dialect for Antichess {
    /// A session's endgame tables, entered by its search threads.
    fn enter(settings: &GameSettings) {
        tables::enter(settings.get::<tables::Hold>());
    }

    /// XBoard knows losing chess as `giveaway` (with castling); antichess is sent as its
    /// child without castling, as Fairy-Stockfish does.
    fn xboard_setup(&self) -> Vec<String> {
        vec![format!("setup (PNBRQKpnbrqk) 8x8+0_giveaway {START_FEN}")]
    }
}

impl OpeningBook for Antichess {
    /// Books in the Polyglot file format with this game's own Zobrist hash, kept apart by
    /// variant.
    fn book_key(&self) -> Option<u64> {
        Some(crate::board::zobrist::variant_key(self.hash(), self.variant()))
    }
}

impl Tablebases for Antichess {}

/// A record's pieces: `colour · 6 + kind` on the 8×8 board, as chess numbers them.
impl crate::nnue::data::Pack for Antichess {
    const LAYOUT: crate::nnue::Layout = crate::nnue::Layout::CHESS;
    fn pieces(&self) -> Vec<(u8, u8)> {
        let mut occ = self.occupied();
        let mut out = Vec::with_capacity(occ.count_ones() as usize);
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            out.push((sq as u8, self.board[sq]));
        }
        out
    }
}

impl EndgameTables for Antichess {
    const SOLVED_TABLES: u32 = tables::MAX_PIECES;

    fn use_tables(max_pieces: u32, builds: TableBuilds) -> Result<String, String> {
        tables::use_in_process(max_pieces, builds == TableBuilds::Wait)
    }

    fn session_tables(
        settings: &mut GameSettings,
        max_pieces: u32,
        access: &Access,
    ) -> Result<String, String> {
        let (hold, line) =
            tables::use_in_session(settings.get::<tables::Hold>(), max_pieces, access)?;
        *settings = GameSettings::new(hold);
        Ok(line)
    }

    fn tables_dir(dir: &str) -> Result<String, String> {
        tables::process_dir(dir)
    }

    fn session_tables_dir(
        settings: &mut GameSettings,
        dir: &str,
        access: &Access,
    ) -> Result<String, String> {
        let (hold, line) = tables::session_dir(settings.get::<tables::Hold>(), dir, access)?;
        *settings = GameSettings::new(hold);
        Ok(line)
    }

    /// df-pn before alpha-beta (the losing-chess oracle) is offered by `Solver Share` and not
    /// asked by default, as in Räuberschach, until a match says it pays (docs/antichess.md).
    const SOLVER_SHARE: u32 = 0;
}
