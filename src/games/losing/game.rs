//! The family as a [`Game`], once for both boards: names, FEN, moves and their text, play, the
//! verdict (no move wins; threefold repetition, the 100-ply rule and opposite-colour bishops
//! draw), SAN as lichess and Fairy-Stockfish write it, the search's settings, the training
//! records, the endgame table options (through the member's tables, [`Variant::Tables`], and
//! the family's plumbing, [`super::tables::session`]). What a member of the family has of its
//! own — its names, start, bench positions, search switches, evaluation and endgame tables —
//! it says in its [`Variant`], implemented in its folder (`games/raeuber`, `games/antichess`).

use super::board::Board;
use super::members::Profile;
use super::movegen::PAWN_K;
use super::position::{EMPTY, LETTERS, Position};
use super::tables::session::{self, Member};
use crate::board::fen::Fen;
use crate::board::{Color, GLYPHS, Move, MoveKind, MoveList, Square};
use crate::engine_option::{Access, GameSettings};
use crate::error::{Error, move_error};
use crate::game::{
    Certified, Dialect, EndgameTables, Game, OpeningBook, TableBuilds, Tablebases, Terminal, Tuning,
};
use crate::san::SanParts;
use crate::search::params::SearchParams;
use crate::table_error::TableError;

/// What one member of the family is beyond its board: the record that makes `Position<B>` a
/// game.
pub trait Variant: Board {
    /// Its values: names, start, bench positions, search switches, page text
    /// ([`super::members`]).
    const PROFILE: Profile;
    /// The pieces of its start position, counted once at compile time (the evaluation reads
    /// it at every node).
    const FULL_BOARD: i32 = Self::PROFILE.full_board();

    /// The member's endgame tables ([`super::tables`]): what the search probes and the
    /// protocols' table options set up ([`EndgameTables`]).
    type Tables: Member<Board = Self>;

    /// The evaluation's weights ([`super::eval`]).
    fn weights() -> &'static super::eval::Weights;
    /// The member's network and switch in this process ([`super::nnue`]), and its
    /// accumulators, one cache per thread: [`super::nnue::member_network!`] writes both.
    fn net_store() -> &'static crate::nnue::engine::Store;
    fn net_cache() -> &'static std::thread::LocalKey<std::cell::RefCell<crate::nnue::engine::Cache>>;
    /// A move in another notation of this member's, as coordinates (Räuberschach's matrix
    /// notation); `None` where `text` is none.
    fn other_notation(text: &str) -> Option<String> {
        let _ = text;
        None
    }
    /// The move of a checked proof or hold covering `pos` ([`EndgameTables::certified`]);
    /// none by default.
    fn certified(pos: &Position<Self>) -> Option<Certified> {
        let _ = pos;
        None
    }
}

impl<V: Variant> Game for Position<V>
where
    Position<V>: Dialect + EndgameTables,
{
    const GAME: &'static str = V::PROFILE.game;

    const DRAW_PLIES: Option<u32> = Some(100);

    const REPETITION: bool = true;

    const NULL_MOVE: bool = V::PROFILE.null_move;

    fn variants() -> &'static [&'static str] {
        V::PROFILE.variants
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        Self::from_fen(variant, V::PROFILE.start_fen)
    }

    fn from_fen(variant: &str, text: &str) -> Result<Self, Error> {
        if !V::PROFILE
            .variants
            .iter()
            .any(|v| v.eq_ignore_ascii_case(variant))
        {
            return Err(Error::Variant(format!(
                "unknown variant '{variant}': this engine plays {}",
                V::PROFILE.variants[0]
            )));
        }
        let fen = Fen::parse(text)?;
        Self::from_fields(fen, V::PROFILE.title)
    }

    fn fen(&self) -> String {
        self.write_fen()
    }

    fn variant(&self) -> &'static str {
        V::PROFILE.variants[0]
    }

    fn size(&self) -> (u8, u8) {
        (V::WIDTH, V::HEIGHT)
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

    /// The endgame tables' value, a win or loss only where the move clock leaves room for its
    /// plies.
    fn solved(&self) -> Option<(Terminal, u32)> {
        Terminal::of_table_value(
            session::probe::<V::Tables>(self)?,
            self.halfmove,
            Self::DRAW_PLIES,
        )
    }

    fn reversible_plies(&self) -> u32 {
        self.halfmove
    }

    fn play_null(&self) -> Self {
        self.after_null()
    }

    /// Zugzwang rules the endings: a null move only while both sides still have a piece
    /// besides pawns (Fairy-Stockfish's condition for this game).
    fn null_move_allowed(&self) -> bool {
        let pieces = self.occupied() & !self.bits.kinds[PAWN_K];
        pieces & self.bits.colors[0] != 0 && pieces & self.bits.colors[1] != 0
    }

    /// Opposite-colour bishops alone: lichess and python-chess count it as insufficient
    /// material, and no capture can ever happen.
    fn insufficient_material(&self) -> bool {
        self.opposite_bishops_alone()
    }

    fn is_noisy(&self, mv: Move) -> bool {
        self.is_capture(mv) || mv.kind().is_promotion()
    }

    fn forcing(&self) -> bool {
        self.has_capture()
    }

    /// A capture is forced exactly when the legal moves are captures.
    #[inline]
    fn forcing_with(&self, moves: &MoveList) -> bool {
        moves.first().is_some_and(|&mv| self.is_capture(mv))
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        super::eval::noisy_order(self, mv)
    }

    /// The network's evaluation when one is in use ([`super::nnue`]), else the hand-made
    /// one.
    fn evaluate(&self) -> i32 {
        crate::nnue::engine::evaluate(self, SCRATCH).unwrap_or_else(|| evaluate(self))
    }

    #[inline]
    fn evaluate_at(&self, ply: usize) -> i32 {
        crate::nnue::engine::evaluate(self, ply).unwrap_or_else(|| evaluate(self))
    }

    /// SAN as lichess, python-chess and Fairy-Stockfish write it: the king is an ordinary
    /// piece, so there is no check and no `+` or `#`; a promotion to a king is `=K`.
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
        if let Some(coordinates) = V::other_notation(t) {
            return self.parse_move(&coordinates);
        }
        self.read_coordinates(t)
    }

    fn pretty(&self) -> String {
        crate::board::diagram(&Self::geometry(), |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| GLYPHS[p as usize])
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }
}

impl<V: Variant> Position<V>
where
    Position<V>: Dialect + EndgameTables,
{
    /// A move in coordinates (`b2b3`, `a7a8q`): the squares on the board, a promotion letter
    /// the board allows (or none where a pawn can become one piece only), a legal move; the
    /// error says which of these failed, and that capturing is compulsory where a quiet move
    /// was tried beside a capture.
    fn read_coordinates(&self, t: &str) -> Result<Move, Error> {
        let sq = |s: &str| {
            Square::parse(s)
                .filter(|sq| sq.index() < 64 && V::SQUARES >> sq.0 & 1 != 0)
                .ok_or_else(|| move_error!("'{t}': '{s}' is not a square of the board"))
        };
        if !(t.len() == 4 || t.len() == 5) || !t.is_ascii() {
            return Err(move_error!(
                "'{t}' is not a move: write from and to squares, as b2b3 or a7a8q"
            ));
        }
        let (from, to) = (sq(&t[0..2])?, sq(&t[2..4])?);
        let promotion = t.as_bytes().get(4).map(|c| c.to_ascii_lowercase());
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let matching: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        let Some(&first) = matching.first() else {
            return Err(if self.has_capture() && self.board[to.index()] == EMPTY {
                move_error!(
                    "{t} is not a legal move here: a capture is possible, and capturing is compulsory"
                )
            } else {
                move_error!("{t} is not a legal move here")
            });
        };
        match promotion {
            None if matching.len() == 1 => Ok(first),
            None => Err(move_error!(
                "'{t}': say what the pawn becomes ({})",
                promotion_letters::<V>()
            )),
            Some(c) => matching
                .iter()
                .copied()
                .find(|m| promotion_letter(m.kind()) == Some(c as char))
                .ok_or_else(|| {
                    if first.kind().is_promotion() {
                        move_error!(
                            "'{t}': a pawn becomes {} here, not '{}'",
                            promotion_letters::<V>(),
                            c as char
                        )
                    } else {
                        move_error!("'{t}' is not a promotion")
                    }
                }),
        }
    }
}

/// The letter of a promotion (`q`, `r`, `b`, `n`, `k`).
fn promotion_letter(kind: MoveKind) -> Option<char> {
    Some(match kind {
        MoveKind::PromoteQueen => 'q',
        MoveKind::PromoteRook => 'r',
        MoveKind::PromoteBishop => 'b',
        MoveKind::PromoteKnight => 'n',
        MoveKind::PromoteKing => 'k',
        _ => return None,
    })
}

/// The promotion letters a board allows, for messages (`q, r, b, n or k`).
fn promotion_letters<V: Variant>() -> String {
    let letters: Vec<String> = V::PROMOTIONS
        .iter()
        .filter_map(|&k| promotion_letter(k).map(String::from))
        .collect();
    match letters.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => letters.join(""),
    }
}

impl<V: Variant> Tuning for Position<V>
where
    Position<V>: Dialect + EndgameTables,
{
    const BENCH_DEPTH: u32 = V::PROFILE.bench_depth;

    const SEARCH: SearchParams = V::PROFILE.search;

    fn quiet_order(&self, mv: Move) -> i32 {
        super::eval::quiet_order(self, mv)
    }

    fn moved_piece(&self, mv: Move) -> u8 {
        if V::PROFILE.piece_history {
            self.board[mv.from().index()]
        } else {
            0
        }
    }

    fn expected_moves_left(&self) -> u32 {
        // Most moves capture or are answered by a capture: fewer pieces mean fewer moves.
        V::PROFILE.moves_left_base + self.occupied().count_ones() / 2
    }

    fn bench_positions() -> Vec<Self> {
        V::PROFILE
            .bench_fens
            .lines()
            .filter_map(|f| Self::from_fen(V::PROFILE.variants[0], f).ok())
            .collect()
    }
}

impl<V: Variant> OpeningBook for Position<V>
where
    Position<V>: Dialect + EndgameTables,
{
    /// Books in the Polyglot file format with this game's own Zobrist hash, kept apart by
    /// variant ([`crate::board::zobrist::variant_key`]).
    fn book_key(&self) -> Option<u64> {
        Some(crate::board::zobrist::variant_key(
            self.hash(),
            self.variant(),
        ))
    }
}

impl<V: Variant> Tablebases for Position<V> {}

/// The member's tables ([`Variant::Tables`]) behind the protocols' table options, through the
/// family's plumbing ([`super::tables::session`]).
impl<V: Variant> EndgameTables for Position<V> {
    const SOLVED_TABLES: u32 = <V::Tables as Member>::OFFERED;

    /// df-pn before alpha-beta does not pay at a clock in Räuberschach: share 0 against 10,
    /// self-play 2+0.02, SPRT [0, 10] H1 after 1,282 games, +17.6 ± 16.5 Elo
    /// (docs/search-log.md). Antichess offers it by `Solver Share` and does not ask it by
    /// default either, until a match says it pays (docs/antichess.md).
    const SOLVER_SHARE: u32 = 0;

    fn certified(&self) -> Option<Certified> {
        V::certified(self)
    }

    fn use_tables(max_pieces: u32, builds: TableBuilds) -> Result<String, TableError> {
        V::Tables::use_in_process(max_pieces, builds)
    }

    fn tables_dir(dir: &str) -> Result<String, TableError> {
        session::process_dir::<V::Tables>(dir)
    }

    fn session_tables(
        settings: &mut GameSettings,
        max_pieces: u32,
        access: &Access,
    ) -> Result<String, TableError> {
        session::session_tables::<V::Tables>(settings, max_pieces, access)
    }

    fn session_tables_dir(
        settings: &mut GameSettings,
        dir: &str,
        access: &Access,
    ) -> Result<String, TableError> {
        session::session_tables_dir::<V::Tables>(settings, dir, access)
    }
}

/// A record's pieces: `colour · 6 + kind`, squares numbered `rank · width + file` on the
/// board (the position's own grid is 8 wide).
impl<V: Variant> crate::nnue::data::Pack for Position<V>
where
    Position<V>: Dialect + EndgameTables,
{
    const LAYOUT: crate::nnue::Layout = layout::<V>();
    fn pieces(&self) -> Vec<(u8, u8)> {
        let mut occ = self.occupied();
        let mut out = Vec::with_capacity(occ.count_ones() as usize);
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let on_board = sq / 8 * usize::from(V::WIDTH) + sq % 8;
            out.push((on_board as u8, self.board[sq]));
        }
        out
    }
}

/// Network accumulator slots per thread ([`super::nnue`]): one per ply of the search, and one
/// for evaluations without a ply.
pub const SLOTS: usize = crate::search::MAX_PLY + 8;
/// The slot of [`Game::evaluate`], which knows no ply.
pub const SCRATCH: usize = SLOTS - 1;

/// The network inputs of a board of the family: `width × height` squares, six kinds (the
/// records' [`crate::nnue::data::Pack::LAYOUT`] and the engine's, so they cannot disagree).
pub const fn layout<V: Variant>() -> crate::nnue::Layout {
    crate::nnue::Layout {
        width: V::WIDTH,
        height: V::HEIGHT,
        kinds: 6,
    }
}

/// The hand-made static evaluation for the side to move, with the member's weights.
pub fn evaluate<V: Variant>(pos: &Position<V>) -> i32 {
    evaluate_with(pos, V::weights())
}

/// The static evaluation for the side to move with weights `w` (for tuning).
pub fn evaluate_with<V: Variant>(pos: &Position<V>, w: &super::eval::Weights) -> i32 {
    super::eval::evaluate_board(pos, w, V::FULL_BOARD)
}

/// The XBoard `setup` line of a member of the family: its board as a child of XBoard's
/// `giveaway` (losing chess), as Fairy-Stockfish sends it.
pub fn xboard_setup<V: Variant>() -> Vec<String> {
    vec![format!(
        "setup (PNBRQKpnbrqk) {}x{}+0_giveaway {}",
        V::WIDTH,
        V::HEIGHT,
        V::PROFILE.start_fen
    )]
}
