//! The [`Game`] trait: everything the shared core (search, protocols, perft, tournaments) needs
//! to know about one game. Nothing outside `games/` knows which game it runs.
//!
//! Positions are values: [`Game::play`] returns the position after a move (copy-make), which
//! for our small bitboard positions is as fast as make/unmake and much simpler. A position
//! whose result is decided by the rules (mate, stalemate, a pawn on the last rank, …) has no
//! legal moves, and [`Game::terminal`] tells what the empty move list means. Draws that depend
//! on the game's history (repetition, the 50-move rule) are the caller's business, helped by
//! [`Game::hash`], [`Game::reversible_plies`] and the rule constants.

use crate::board::{Color, Move, MoveList};

/// The result of a game, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// The PGN / protocol result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_string(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// What a position without legal moves means for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Terminal {
    /// The side to move has lost (checkmated, the opponent's pawn has arrived).
    Loss,
    /// The side to move has won (Räuberschach: no move left is a win).
    Win,
    /// Drawn (stalemate in chess, a blocked pawn-chess position).
    Draw,
}

/// One game: its rules, its names and its evaluation.
pub trait Game: Clone + Send + Sync + std::fmt::Debug + 'static {
    /// The game family's short name, used in `id name kiebitz-<GAME>`.
    const GAME: &'static str;
    /// Plies without capture or pawn move after which the game is drawn (`None`: no such rule).
    const DRAW_PLIES: Option<u32>;
    /// Whether a threefold repetition draws (and a repetition inside the search scores 0).
    const REPETITION: bool;
    /// Whether the search may try a null move (off in zugzwang-ridden games).
    const NULL_MOVE: bool;

    /// The variant names this game answers to (`UCI_Variant` combo, XBoard `variants`).
    /// The first one is the default.
    fn variants() -> &'static [&'static str];

    /// The start position of `variant`.
    fn startpos(variant: &str) -> Result<Self, String>;

    /// A position from a FEN under the rules of `variant` (which also fixes rules a FEN cannot
    /// express, such as pawn chess's double step). Errors say what is wrong.
    fn from_fen(variant: &str, fen: &str) -> Result<Self, String>;

    /// The position as FEN.
    fn fen(&self) -> String;

    /// The variant whose rules this position follows.
    fn variant(&self) -> &'static str;

    /// Board size (width, height).
    fn size(&self) -> (u8, u8);

    fn side_to_move(&self) -> Color;

    /// Every legal move into `moves` (which is cleared first). Empty when the game is over.
    fn legal_moves(&self, moves: &mut MoveList);

    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: Move) -> Self;

    /// What the position means for the side to move when it has no legal moves.
    fn terminal(&self) -> Terminal;

    /// Zobrist hash of everything that makes two positions the same (board, side, rights).
    fn hash(&self) -> u64;

    /// Plies since the last irreversible move: only that many earlier positions can repeat.
    fn reversible_plies(&self) -> u32;

    /// A draw by lack of material that no sequence of legal moves can turn into a win.
    fn insufficient_material(&self) -> bool {
        false
    }

    /// Whether `mv` is noisy: searched in quiescence (captures, promotions).
    fn is_noisy(&self, mv: Move) -> bool;

    /// Whether the side to move must not stand pat in quiescence: every legal move is then
    /// searched (in check in chess, a capture forced in Räuberschach). Also used to extend.
    fn forcing(&self) -> bool {
        false
    }

    /// An ordering score for a noisy move: higher is tried first (victim, then attacker).
    fn noisy_order(&self, mv: Move) -> i32;

    /// An ordering bonus for a quiet move, added to its history score when the search's
    /// `quiet_order` switch is on (e.g. a Räuberschach move that offers a piece). Default 0.
    fn quiet_order(&self, mv: Move) -> i32 {
        let _ = mv;
        0
    }

    /// Static evaluation in centipawns for the side to move.
    fn evaluate(&self) -> i32;

    /// The position after passing (for null-move pruning); only called if `NULL_MOVE`.
    fn play_null(&self) -> Self {
        self.clone()
    }

    /// Coordinate notation of a move in this position (`e2e4`, `e7e8q`).
    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Reads a move in coordinate notation; it must be legal here.
    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&mv| self.move_text(mv) == text)
            .ok_or_else(|| format!("{text} is not a legal move here"))
    }

    /// The XBoard `setup` line (and any `piece` lines) that teach XBoard this variant's board;
    /// empty for variants XBoard knows itself.
    fn xboard_setup(&self) -> Vec<String> {
        Vec::new()
    }

    /// The XBoard name of a variant (usually the same as the UCI name; `normal` for chess).
    fn xboard_name(variant: &str) -> &str {
        variant
    }

    /// The board as text for the terminal, White at the bottom, with coordinates.
    fn pretty(&self) -> String;

    /// Static exchange evaluation: whether `mv` wins at least `threshold` centipawns once the
    /// exchanges on its target square are played out. Games without SEE say `true`.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let _ = (mv, threshold);
        true
    }

    /// A perfect answer for this position if the game can compute one within `budget` (a
    /// solved game, a tablebase, a proof-number search): the best move and its score for the
    /// side to move in the search's units (`search::MATE - plies` for a win in at most that
    /// many plies, 0 for a draw). `history` holds the hashes of the game's earlier positions,
    /// oldest first, for repetition draws. Default: none.
    fn solve(&self, history: &[u64], budget: std::time::Duration) -> Option<(Move, i32)> {
        let _ = (history, budget);
        None
    }

    /// The share of a move's planned (soft) time, in percent, that [`Self::solve`] gets
    /// before the alpha-beta search takes the rest.
    const SOLVER_SHARE: u32 = 10;

    /// The positions `bench` searches to a fixed depth: a stable node count is the search's
    /// signature. Default: the start position of every variant.
    fn bench_positions() -> Vec<Self> {
        Self::variants()
            .iter()
            .filter_map(|v| Self::startpos(v).ok())
            .collect()
    }

    /// How many more moves the side to move expects to play, for sharing a sudden-death
    /// clock. Default: [`crate::search::time::DEFAULT_MOVES_TO_GO`] (35), right for chess.
    fn expected_moves_left(&self) -> u32 {
        crate::search::time::DEFAULT_MOVES_TO_GO
    }

    /// The depth `bench` searches [`Self::bench_positions`] to when none is given.
    const BENCH_DEPTH: u32 = 8;

    /// Which pruning, reductions and extensions the shared search may use in this game.
    /// Default: [`crate::search::SearchParams::CONSERVATIVE`] (no static pruning, mild LMR),
    /// right for games with a rough evaluation.
    const SEARCH: crate::search::SearchParams = crate::search::SearchParams::CONSERVATIVE;

    /// perft(`depth`) by the game's fastest method (e.g. counting the last plies without
    /// playing them); always equal to [`crate::perft::generic`], which is the default.
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::generic(self, depth)
    }
}
