//! The [`Game`] trait: everything the shared core (search, protocols, perft, tournaments) needs
//! to know about one game. Nothing outside `games/` knows which game it runs.
//!
//! The trait is split by concern. [`Game`] itself is the core every game implements: names,
//! positions and FEN, legal moves, `play`, results, hashing, notation and the evaluation hooks
//! the search cannot do without. The capabilities are traits of their own, the supertraits of
//! `Game`, whose items all have defaults, so a game opts into each with an `impl` that
//! overrides what it has (an empty one where it has nothing): [`Tuning`] (search parameters,
//! ordering hints, SEE, bench), [`Dialect`] (XBoard names, engine options, WDL, Elo
//! calibration), [`OpeningBook`], [`Tablebases`] (Syzygy-like files) and [`EndgameTables`]
//! (tables the game builds itself). The shared code stays generic over `G: Game`, which brings
//! every capability with it, and is monomorphised per game (no trait objects).
//!
//! Positions are values: [`Game::play`] returns the position after a move (copy-make), which
//! for our small bitboard positions is as fast as make/unmake and much simpler. A position
//! whose result is decided by the rules (mate, stalemate, a pawn on the last rank, …) has no
//! legal moves, and [`Game::terminal`] tells what the empty move list means. Draws that depend
//! on the game's history (repetition, the 50-move rule) are the caller's business, helped by
//! [`Game::hash`], [`Game::reversible_plies`] and the rule constants.

use crate::board::{Color, Move, MoveList};
use crate::error::Error;
use crate::table_error::TableError;

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

impl Terminal {
    /// The verdict of an endgame table's value `v` (`d + 1` won in d plies, `-(d + 1)` lost,
    /// 0 drawn; the tables ignore the move clock) for a position `halfmove` plies into the
    /// clock of a game drawn after `draw_plies`: a win or a loss only where its plies end the
    /// game before the clock does. With the plies to the end.
    pub fn of_table_value(
        v: i16,
        halfmove: u32,
        draw_plies: Option<u32>,
    ) -> Option<(Terminal, u32)> {
        let plies = u32::from(v.unsigned_abs()).saturating_sub(1);
        match v {
            0 => Some((Terminal::Draw, 0)),
            _ if halfmove + plies > draw_plies.unwrap_or(u32::MAX) => None,
            v if v > 0 => Some((Terminal::Win, plies)),
            _ => Some((Terminal::Loss, plies)),
        }
    }
}

/// A model of the chances behind a centipawn score (UCI `UCI_ShowWDL`): the win probability
/// of the side to move is the logistic `1 / (1 + exp((a - cp) / b))`, the loss probability the
/// same for `-cp`, and the draw probability what remains. `a` is the score at which a win is as
/// likely as not, `b` how quickly the chances change around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: f64,
    pub b: f64,
}

impl WdlModel {
    /// Win, draw and loss for the side to move at `cp`, per mille (summing to 1000).
    pub fn per_mille(&self, cp: i32) -> [u32; 3] {
        let chance = |x: f64| 1.0 / (1.0 + ((self.a - x) / self.b.max(1e-9)).exp());
        let win = (1000.0 * chance(cp as f64)).round() as u32;
        let loss = ((1000.0 * chance(-cp as f64)).round() as u32).min(1000 - win.min(1000));
        let win = win.min(1000);
        [win, 1000 - win - loss, loss]
    }
}

/// What a probe of endgame tables does when it meets a table that is built on demand and not
/// built yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableBuilds {
    /// It waits for the build: solvers and analysis, which want every answer the tables give.
    Wait,
    /// It answers "not known" at once and a thread of its own builds the table for the probes
    /// to come: a search at a clock.
    Background,
}

/// The position a command starts from (the shell's `--variant`/`--fen`, the web's game): `--fen` under `--variant`'s rules, or the
/// variant's start position.
pub fn start_position<G: Game>(
    variant: Option<&str>,
    fen: Option<&str>,
) -> Result<G, crate::Error> {
    let variant = match variant {
        None => G::variants()[0],
        Some(v) => G::variants()
            .iter()
            .copied()
            .find(|x| x.eq_ignore_ascii_case(v))
            .ok_or_else(|| {
                crate::Error::Variant(format!(
                    "unknown variant '{v}': one of {}",
                    G::variants().join(" ")
                ))
            })?,
    };
    match fen {
        Some(f) => G::from_fen(variant, f).map_err(|e| match e {
            crate::Error::Position(why) => {
                crate::Error::Position(format!("bad FEN '{}': {why}", crate::text::shorten(f)))
            }
            other => other,
        }),
        None => G::startpos(variant),
    }
}

/// One game's rules, the core every game implements: its names and variants, positions and
/// FEN, legal moves and copy-make [`Game::play`], what an empty move list means and the rules'
/// verdict, the hash, move notation, and the evaluation hooks the search cannot do without
/// (static evaluation, noisy moves, null-move safety, exact values it knows). The optional
/// capabilities are its supertraits: a game that opts out of all of them (empty `impl`s of
/// [`Tuning`], [`Dialect`], [`OpeningBook`], [`Tablebases`] and [`EndgameTables`]) is
/// searched, played and served like any other.
pub trait Game:
    Clone
    + Send
    + Sync
    + std::fmt::Debug
    + 'static
    + Tuning
    + Dialect
    + OpeningBook
    + Tablebases
    + EndgameTables
{
    /// The game family's short name, used in `id name kiebitz-<GAME>`.
    const GAME: &'static str;

    /// Plies without capture or pawn move after which the game is drawn (`None`: no such rule).
    const DRAW_PLIES: Option<u32>;

    /// Whether a threefold repetition draws (and a repetition inside the search scores 0).
    const REPETITION: bool;

    /// Whether no position can ever repeat (every move is irreversible): the game graph is
    /// acyclic, and `solve` uses the win/draw/loss solver for such games
    /// ([`crate::games::page::acyclic`] where the game's page hands one out) instead of df-pn.
    const ACYCLIC: bool = false;

    /// The variant names this game answers to (`UCI_Variant` combo, XBoard `variants`).
    /// The first one is the default.
    fn variants() -> &'static [&'static str];

    /// The start position of `variant` ([`Error::Variant`] for a name the game does not know).
    fn startpos(variant: &str) -> Result<Self, Error>;

    /// How many numbered start positions `variant` has (Chess960: 960, numbered as Scharnagl
    /// does); 1 where the variant has a single start.
    fn start_positions(_variant: &str) -> u32 {
        1
    }

    /// Start position number `n` (below [`Game::start_positions`]) of `variant`.
    fn numbered_start(variant: &str, n: u32) -> Result<Self, Error> {
        match n {
            0 => Self::startpos(variant),
            _ => Err(Error::Variant(format!(
                "{variant} has one start position (number 0), not number {n}"
            ))),
        }
    }

    /// A position from a FEN under the rules of `variant` (which also fixes rules a FEN cannot
    /// express, such as pawn chess's double step). Errors say what is wrong:
    /// [`Error::Variant`] or [`Error::Position`].
    fn from_fen(variant: &str, fen: &str) -> Result<Self, Error>;

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

    /// The position's identity among those of its variant and board as one number, where it
    /// fits in 120 bits: equal for two positions exactly when their FENs without the clocks
    /// are equal. `None` where it does not fit; the proof walks then compare FENs
    /// ([`crate::solve::compact`]).
    fn exact_key(&self) -> Option<u128> {
        None
    }

    /// The value for the side to move (1 won, 0 drawn, −1 lost) where a static argument of the
    /// game's own settles it: the certificate walks ([`crate::solve::compact`]) end a line
    /// there instead of walking every reply to the game's end. `None` where no argument applies
    /// (and for a game over). A game's lemmas must be exact: they are trusted as the rules are,
    /// and tested against exhaustive values (pawn chess: src/games/pawns/lemma.rs).
    fn lemma_value(&self) -> Option<i8> {
        None
    }

    /// A draw by lack of material that no sequence of legal moves can turn into a win.
    fn insufficient_material(&self) -> bool {
        false
    }

    /// The rules' verdict on this position, if the game is over, and the sentence that says
    /// why: no legal move ([`Game::terminal`], in the words of [`Game::end_reason`]), threefold
    /// repetition, the [`Game::DRAW_PLIES`] rule, insufficient material. `history` holds the
    /// hashes of the game's earlier positions, oldest first. The protocols, `play` and the
    /// referee all ask this one method.
    fn verdict(&self, history: &[u64]) -> Option<(Outcome, String)> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let us = self.side_to_move();
        if moves.is_empty() {
            let terminal = self.terminal();
            let outcome = match terminal {
                Terminal::Loss => Outcome::Win(us.flip()),
                Terminal::Win => Outcome::Win(us),
                Terminal::Draw => Outcome::Draw,
            };
            return Some((outcome, self.end_reason(terminal)));
        }
        if Self::REPETITION {
            let window = (self.reversible_plies() as usize).min(history.len());
            let h = self.hash();
            let seen = history[history.len() - window..]
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .filter(|&&x| x == h)
                .count();
            if seen >= 2 {
                return Some((Outcome::Draw, "Draw by 3-fold repetition".into()));
            }
        }
        if let Some(limit) = Self::DRAW_PLIES
            && self.reversible_plies() >= limit
        {
            return Some((
                Outcome::Draw,
                format!(
                    "Draw by the {limit}-ply rule ({} moves without progress)",
                    limit / 2
                ),
            ));
        }
        if self.insufficient_material() {
            return Some((Outcome::Draw, "Draw by insufficient mating material".into()));
        }
        None
    }

    /// The sentence for a game that ends because the side to move has no legal move, given
    /// what [`Game::terminal`] says. Games whose ends have names (mate, stalemate) say them.
    fn end_reason(&self, terminal: Terminal) -> String {
        let us = self.side_to_move();
        let (them, me) = (us.flip().name(), us.name());
        match terminal {
            Terminal::Loss => format!("{them} wins: {me} has no legal move and loses"),
            Terminal::Win => format!("{me} has no legal move and wins"),
            Terminal::Draw => format!("Draw: {me} has no legal move"),
        }
    }

    /// Coordinate notation of a move in this position (`e2e4`, `e7e8q`).
    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Standard algebraic notation of a legal move, for PGN (`Nf3`, `exd5`, `O-O`, `e8=Q+`);
    /// games build it with [`crate::san::write`]. Default: coordinate notation.
    fn san(&self, mv: Move) -> String {
        self.move_text(mv)
    }

    /// Reads a move in coordinate notation; it must be legal here ([`Error::Move`]).
    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&mv| self.move_text(mv) == text)
            .ok_or_else(|| Error::Move(format!("{text} is not a legal move here")))
    }

    /// The board as text for the terminal, White at the bottom, with coordinates.
    fn pretty(&self) -> String;

    /// perft(`depth`) by the game's fastest method (e.g. counting the last plies without
    /// playing them); always equal to [`generic_perft`], which is the default.
    fn perft(&self, depth: u32) -> u64 {
        generic_perft(self, depth)
    }

    /// Whether the search may try a null move (off in zugzwang-ridden games).
    const NULL_MOVE: bool;

    /// The share, in percent, of a strength level's node budget (`search::strength`) this
    /// game's search gets. The levels' budgets were calibrated with one evaluation; a game
    /// whose evaluation got stronger since plays each level with fewer nodes (docs/strength.md).
    const LEVEL_NODES_PERCENT: u64 = 100;

    /// Whether `mv` is noisy: searched in quiescence (captures, promotions).
    fn is_noisy(&self, mv: Move) -> bool;

    /// Whether the side to move must not stand pat in quiescence: every legal move is then
    /// searched (in check in chess, a capture forced in Räuberschach). Also used to extend.
    fn forcing(&self) -> bool {
        false
    }

    /// [`Self::forcing`] once the legal moves `moves` (not empty) are known: a game whose
    /// forcing positions show in their moves says so here more cheaply (losing chess: every
    /// move is a capture); the same answer as `forcing`.
    #[inline]
    fn forcing_with(&self, moves: &MoveList) -> bool {
        let _ = moves;
        self.forcing()
    }

    /// An ordering score for a noisy move: higher is tried first (victim, then attacker).
    fn noisy_order(&self, mv: Move) -> i32;

    /// Static evaluation in centipawns for the side to move.
    fn evaluate(&self) -> i32;

    /// [`Game::evaluate`] at `ply` plies from the search's root: a game whose evaluation
    /// keeps incremental state along the search's line (a network's accumulators) keys it
    /// by the ply. Must equal [`Game::evaluate`]. Default: [`Game::evaluate`].
    #[inline]
    fn evaluate_at(&self, ply: usize) -> i32 {
        let _ = ply;
        self.evaluate()
    }

    /// The position after passing (for null-move pruning); only called if `NULL_MOVE`, and
    /// a game that sets it must give the move to the other side here (the default, a copy,
    /// serves the games without null moves).
    fn play_null(&self) -> Self {
        self.clone()
    }

    /// Whether a null move is a fair test here: passing must not be much better than any
    /// move (zugzwang). Null-move pruning skips the positions where this is false. Default:
    /// always.
    fn null_move_allowed(&self) -> bool {
        true
    }

    /// The exact value of this position for the side to move where the game knows it without
    /// searching (Räuberschach's endgame tables, when installed), with the plies to the game's
    /// end under perfect play; only where the move clock leaves room for them. `None` (the
    /// default) where it does not know. df-pn takes such positions as proven or disproven.
    fn solved(&self) -> Option<(Terminal, u32)> {
        None
    }
}

/// How the shared search is tuned to the game, every item with a default that leaves a plain
/// search: the search's parameters, move-ordering hints (quiet moves, moved pieces), the
/// structure key of correction history, static exchange evaluation, the clock's expected game
/// length and the `bench` signature.
pub trait Tuning {
    /// Which pruning, reductions and extensions the shared search may use in this game.
    /// Default: [`crate::search_params::SearchParams::CONSERVATIVE`] (no static pruning, mild LMR),
    /// right for games with a rough evaluation.
    const SEARCH: crate::search_params::SearchParams =
        crate::search_params::SearchParams::CONSERVATIVE;

    /// An ordering bonus for a quiet move, added to its history score when the search's
    /// `quiet_order` switch is on (e.g. a Räuberschach move that offers a piece). Default 0.
    fn quiet_order(&self, mv: Move) -> i32 {
        let _ = mv;
        0
    }

    /// The piece that makes `mv`, as a number below 16 (kind and colour), for the search's
    /// continuation history, which learns which (piece, target) follows which. Default 0:
    /// the target square alone.
    fn moved_piece(&self, mv: Move) -> u8 {
        let _ = mv;
        0
    }

    /// A key of the position's slow-changing structure (the pawns in chess), for the search's
    /// correction history, which learns how far the static evaluation errs in positions of
    /// one structure. Default 0: one shared entry (games without a key keep it off).
    fn structure_key(&self) -> u64 {
        0
    }

    /// Keys of each side's pieces outside the structure (in chess: every piece but the pawns,
    /// by kind and square), White's first, for the search's correction history by each side's
    /// pieces (`correction_pieces`), which learns how far the evaluation errs with one side's
    /// pieces where they stand. Default `[0, 0]`: one shared entry (games without keys keep
    /// the switch off).
    fn piece_keys(&self) -> [u64; 2] {
        [0, 0]
    }

    /// Static exchange evaluation: whether `mv` wins at least `threshold` centipawns once the
    /// exchanges on its target square are played out. Games without SEE say `true`.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let _ = (mv, threshold);
        true
    }

    /// How many more moves the side to move expects to play, for sharing a sudden-death
    /// clock. Default: [`crate::search_params::DEFAULT_MOVES_TO_GO`] (35), right for chess.
    fn expected_moves_left(&self) -> u32 {
        crate::search_params::DEFAULT_MOVES_TO_GO
    }

    /// The positions `bench` searches to a fixed depth: a stable node count is the search's
    /// signature. Default: the start position of every variant.
    fn bench_positions() -> Vec<Self>
    where
        Self: Game,
    {
        Self::variants()
            .iter()
            .filter_map(|v| Self::startpos(v).ok())
            .collect()
    }

    /// The depth `bench` searches [`Self::bench_positions`] to when none is given.
    const BENCH_DEPTH: u32 = 8;
}

/// What the protocols say about the game beyond its moves: XBoard's names and board setup,
/// the game's own engine options, the win/draw/loss model and the Elo calibration. Defaults:
/// nothing beyond the shared options.
pub trait Dialect {
    /// The XBoard `setup` line (and any `piece` lines) that teach XBoard this variant's board;
    /// empty for variants XBoard knows itself.
    fn xboard_setup(&self) -> Vec<String> {
        Vec::new()
    }

    /// The XBoard name of a variant (usually the same as the UCI name; `normal` for chess).
    fn xboard_name(variant: &str) -> &str {
        variant
    }

    /// Engine options of this game's own (a network file, a switch of its evaluation), offered
    /// by UCI and XBoard after the shared ones, each one entry: name, kind, handler
    /// ([`crate::engine_option::GameOption`]). Default: none.
    fn options() -> Vec<crate::engine_option::GameOption> {
        Vec::new()
    }

    /// The settings a new session starts with: the process's (what a lone engine has, its
    /// `bench --option` included). The game's options change a session's copy only
    /// ([`crate::engine_option::GameOption::set`]). Default: none (empty settings).
    fn settings() -> crate::engine_option::GameSettings {
        crate::engine_option::GameSettings::default()
    }

    /// Makes `settings` (a session's, from [`Dialect::settings`]) those this thread evaluates
    /// and probes with until it ends or enters others: a session's search threads enter
    /// theirs when a search starts (the search's [`crate::search::Limits::game`]). A thread
    /// that entered none uses the process's. Default: nothing to do.
    fn enter(settings: &crate::engine_option::GameSettings) {
        let _ = settings;
    }

    /// Makes `settings` the process's own (what threads that entered none use): a lone
    /// command such as `bench --option`. Default: nothing to do.
    fn adopt(settings: &crate::engine_option::GameSettings) {
        let _ = settings;
    }

    /// The win/draw/loss model of the evaluation, if the game has a sensible one; the UCI
    /// option `UCI_ShowWDL` exists only then. Default: none.
    const WDL: Option<WdlModel> = None;

    /// Whether the strength levels' Elo scale ([`crate::search::strength`]) was calibrated
    /// against an anchor for this game: only then do the protocols offer `UCI_LimitStrength`
    /// and `UCI_Elo` (every game has `Skill Level`). Default: no.
    const CALIBRATED_ELO: bool = false;
}

/// Opening books ([`crate::book`]): a game with book keys gets the book options and the `book`
/// command. Default: no books.
pub trait OpeningBook {
    /// The key of this position in an opening book ([`crate::book`], the Polyglot `.bin`
    /// format): chess uses the Polyglot standard's keys, other games may use their own
    /// [`Game::hash`]. `None` (the default): the game has no books, and the engines offer no
    /// book options and no `book` command for it.
    fn book_key(&self) -> Option<u64> {
        None
    }

    /// A legal move as an opening book writes it ([`crate::board::encode_move`]: to-square,
    /// from-square and promotion in Polyglot's 16 bits). Games whose moves a book writes
    /// otherwise (chess castling as the king taking its rook) say so here.
    fn book_move(&self, mv: Move) -> u16 {
        crate::board::encode_move(mv)
    }
}

/// What keeps a session's shared tables loaded ([`Tablebases::tb_load`]); dropping it lets
/// them go.
pub type Hold = Box<dyn std::any::Any + Send + Sync>;

/// What a session's tablebase path gave ([`Tablebases::tb_load`]): the most pieces the tables
/// cover (0 for none), the session's hold on them, and the files left out as damaged (each
/// named with the reason, for the user).
pub struct TbLoaded {
    pub largest: u32,
    pub hold: Option<Hold>,
    pub left_out: Vec<String>,
}

/// Endgame tablebases read from files (Syzygy in chess), probed by the search at the root and
/// inside the tree. Default: none, and no `SyzygyPath` option.
pub trait Tablebases {
    /// Whether the game has endgame tablebases (Syzygy in chess): only then do the protocols
    /// offer `SyzygyPath` and its companions and the search probe. Default: none.
    const TABLEBASES: bool = false;

    /// Loads the tablebases in `path` (the game's path syntax; empty: none) for a session.
    /// Returns the most pieces they cover (0 for none), the files left out as damaged, and the
    /// session's hold on them: they stay loaded while it is held (a session keeps it until it
    /// names another path or ends). Tables another session holds are never unloaded or
    /// replaced by this.
    fn tb_load(path: &str) -> Result<TbLoaded, TableError> {
        let _ = path;
        Err(TableError::NoTablebases)
    }

    /// The tablebases' win/draw/loss for the side to move, with the 50-move counter at zero:
    /// −2 loss, −1 loss saved by the move-count rule, 0 draw, 1 win spoiled by it, 2 win;
    /// `None` if the position has more than `max_pieces` pieces or no table answers.
    fn tb_wdl(&self, max_pieces: u32) -> Option<i32> {
        let _ = max_pieces;
        None
    }

    /// The root moves the tablebases keep (those that hold the best verdict, the most
    /// progressing first kind: see the game) and that verdict (as [`Tablebases::tb_wdl`]; with
    /// `rule50` off, ±1 count as ±2); `None` where the tables cannot answer.
    fn tb_root_moves(&self, max_pieces: u32, rule50: bool) -> Option<(Vec<Move>, i32)> {
        let _ = (max_pieces, rule50);
        None
    }
}

/// A move a checked certificate prescribes ([`EndgameTables::certified`]): a proof of a forced
/// win or a hold (docs/solved.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certified {
    /// The certificate's move: legal in the position.
    pub mv: Move,
    /// Its exact score for the side to move as the search scores (`MATE - n` for a win within
    /// n plies, 0 for a hold: a draw or better).
    pub value: i32,
    /// What to tell the user: which certificate and what it shows.
    pub note: String,
}

/// Endgame tables the game builds itself and the protocols offer (`Endgame Tables`, its path),
/// the certificates it plays from, and the solver's share of the clock; the tables answer
/// through [`Game::solved`]. Default: none.
pub trait EndgameTables {
    /// The move of a checked certificate (a proof or a hold the game has, docs/solved.md) in
    /// this position, if one covers it: the search plays it at once, without searching.
    /// Default: none.
    fn certified(&self) -> Option<Certified> {
        None
    }

    /// The most pieces of the endgame tables the game builds in memory and the protocols
    /// offer (`Endgame Tables`); 0 (the default) for none.
    const SOLVED_TABLES: u32 = 0;

    /// Makes [`EndgameTables::solved`] answer for positions of at most `max_pieces` pieces from the
    /// game's endgame tables, building them for the whole process the first time (`solve
    /// --tables N`, the `Endgame Tables` option); 0 turns them off. `builds` says whether a
    /// probe that meets a table built on demand waits for it. Returns a line saying what was
    /// done. Default: the game has none.
    fn use_tables(max_pieces: u32, builds: TableBuilds) -> Result<String, TableError> {
        let _ = (max_pieces, builds);
        Err(TableError::NoTables)
    }

    /// Where the game's endgame tables are read from and written to, one file per
    /// signature (`Endgame Tables Path`, `solve --tables-dir`); an empty text for none.
    /// Returns a line saying what was done. Default: the game has none.
    fn tables_dir(dir: &str) -> Result<String, TableError> {
        let _ = dir;
        Err(TableError::NoTables)
    }

    /// A protocol session's `Endgame Tables`: makes `settings` (the session's own) answer
    /// for positions of at most `max_pieces` pieces (0: off), the tables shared read-only with
    /// sessions asking for the same ones; the probes of other sessions are untouched.
    /// `access` says whether files may be written and the memory pool the tables take from.
    /// Default: the game has none.
    fn session_tables(
        settings: &mut crate::engine_option::GameSettings,
        max_pieces: u32,
        access: &crate::engine_option::Access,
    ) -> Result<String, TableError> {
        let _ = (settings, max_pieces, access);
        Err(TableError::NoTables)
    }

    /// A protocol session's `Endgame Tables Path`: the folder its tables read (and, where
    /// `access` lets it, write) one file per signature; an empty text for none. Default: the
    /// game has none.
    fn session_tables_dir(
        settings: &mut crate::engine_option::GameSettings,
        dir: &str,
        access: &crate::engine_option::Access,
    ) -> Result<String, TableError> {
        let _ = (settings, dir, access);
        Err(TableError::NoTables)
    }

    /// For a game with a solver (the search's oracle): the share of a move's time, in
    /// percent, it may take before the search unless the UCI option `Solver Share` says
    /// otherwise (0: never asked). Each game's own, set by a match.
    const SOLVER_SHARE: u32 = 10;
}

/// The number of legal move sequences of length `depth` from `pos`, by plain recursion over
/// [`Game::legal_moves`] and [`Game::play`] (the subtrees by [`Game::perft`]); the last ply
/// is counted from the move list without playing it. `crate::perft` offers it as `generic`.
pub fn generic_perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&mv| pos.play(mv).perft(depth - 1)).sum()
}

/// The methods a toy game of a test needs only to compile (no captures, no evaluation): used
/// inside an `impl Game for …` block of a test's toy game.
#[cfg(test)]
macro_rules! toy_game_quiet_methods {
    () => {
        fn is_noisy(&self, _: crate::board::Move) -> bool {
            false
        }
        fn noisy_order(&self, _: crate::board::Move) -> i32 {
            0
        }
        fn evaluate(&self) -> i32 {
            0
        }
        fn pretty(&self) -> String {
            self.fen()
        }
    };
}
#[cfg(test)]
pub(crate) use toy_game_quiet_methods;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveKind, Square};
    use crate::search::{Control, Limits, Score, Searcher};

    /// A new game as small as they come: a pile of stones, each move takes one or two, and
    /// who cannot move (the pile is empty) has lost. It implements the rules only and opts
    /// out of every capability with an empty `impl`.
    #[derive(Clone, Copy, Debug)]
    struct Take {
        pile: u8,
        side: Color,
    }

    impl Take {
        fn pile(pile: u8) -> Take {
            Take {
                pile,
                side: Color::White,
            }
        }
    }

    impl Game for Take {
        const GAME: &'static str = "take";
        const DRAW_PLIES: Option<u32> = None;
        const REPETITION: bool = false;
        const NULL_MOVE: bool = false;

        fn variants() -> &'static [&'static str] {
            &["take"]
        }
        fn startpos(_: &str) -> Result<Self, Error> {
            Ok(Take::pile(10))
        }
        fn from_fen(_: &str, fen: &str) -> Result<Self, Error> {
            match fen.parse::<u8>() {
                Ok(pile) if pile < 64 => Ok(Take::pile(pile)),
                _ => Err(Error::Position(format!("'{fen}' is no pile below 64"))),
            }
        }
        fn fen(&self) -> String {
            self.pile.to_string()
        }
        fn variant(&self) -> &'static str {
            "take"
        }
        fn size(&self) -> (u8, u8) {
            (8, 8)
        }
        fn side_to_move(&self) -> Color {
            self.side
        }
        fn legal_moves(&self, moves: &mut MoveList) {
            moves.clear();
            for take in 1..=self.pile.min(2) {
                let to = Square(self.pile - take);
                moves.push(Move::new(Square(self.pile), to, MoveKind::Normal));
            }
        }
        fn play(&self, mv: Move) -> Self {
            Take {
                pile: mv.to().0,
                side: self.side.flip(),
            }
        }
        fn terminal(&self) -> Terminal {
            Terminal::Loss
        }
        fn hash(&self) -> u64 {
            (self.pile as u64 * 2 + self.side.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        }
        fn reversible_plies(&self) -> u32 {
            0
        }
        toy_game_quiet_methods!();
    }

    impl Tuning for Take {}
    impl Dialect for Take {}
    impl OpeningBook for Take {}
    impl Tablebases for Take {}
    impl EndgameTables for Take {}

    fn search(pile: u8, depth: u32) -> crate::search::SearchResult {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut searcher = Searcher::<Take>::new(1);
        searcher.search(
            &Take::pile(pile),
            &[],
            &limits,
            &Control::default(),
            &mut |_| {},
        )
    }

    #[test]
    fn a_game_with_only_its_rules_is_searched_by_the_shared_search() {
        // A pile that is no multiple of three is won by leaving one: the search must find it.
        for pile in [4, 5, 7, 8] {
            let result = search(pile, 8);
            assert_eq!(result.best.to().0 % 3, 0, "pile {pile}: {}", result.best);
            assert!(
                matches!(result.score, Score::Mate(n) if n > 0),
                "pile {pile}"
            );
        }
        for pile in [3, 6] {
            assert!(matches!(search(pile, 8).score, Score::Mate(n) if n < 0));
        }
    }

    #[test]
    fn a_capability_left_out_answers_none() {
        let pos = Take::pile(5);
        assert!(!Take::TABLEBASES && Take::tb_load("x").is_err() && pos.tb_wdl(6).is_none());
        assert!(Take::SOLVED_TABLES == 0 && pos.solved().is_none());
        assert!(Take::use_tables(3, TableBuilds::Wait).is_err());
        assert!(pos.book_key().is_none() && Take::options().is_empty() && Take::WDL.is_none());
        assert_eq!(Take::xboard_name("take"), "take");
        assert_eq!(Take::bench_positions().len(), 1);
        let empty = Take::pile(0);
        let (outcome, _) = empty.verdict(&[]).expect("an empty pile ends the game");
        assert_eq!(outcome, Outcome::Win(Color::Black));
    }
}
