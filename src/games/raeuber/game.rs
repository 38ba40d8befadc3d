//! Räuberschach as a [`Game`]: FEN in and out, the moves, copy-make play with the incremental
//! hash, the verdict, the search's settings, and the evaluation and perft hooks. This file ties
//! the position ([`super::position`]), its move generation ([`super::movegen`]), the
//! evaluation ([`super::eval`]) and the bulk-counting perft ([`super::perft`]) together, so
//! that none of them needs another's caller.

use super::position::{EMPTY, LETTERS, PAWN_K, Raeuber, matrix_to_coordinates};
use crate::games::losing::{Board, Six};
use super::{START_FEN, VARIANTS};
use crate::error::Error;
use crate::board::fen::Fen;
use crate::board::{Color, GLYPHS, Geometry, Move, MoveKind, MoveList, Square};
use super::tables::session::{self, TableSettings};
use crate::engine_option::{Access, GameOption, GameSettings, OptionKind, TextForm};
use crate::game::{Certified, Dialect, EndgameTables, Game, OpeningBook, Tablebases, Tuning, TableBuilds, Terminal};
use crate::san::SanParts;
use crate::search::params::SearchParams;

impl Game for Raeuber {
    const GAME: &'static str = "raeuber";

    const DRAW_PLIES: Option<u32> = Some(100);

    const REPETITION: bool = true;

    const NULL_MOVE: bool = true;

    fn variants() -> &'static [&'static str] {
        &VARIANTS
    }

    fn startpos(variant: &str) -> Result<Self, Error> {
        Self::from_fen(variant, START_FEN)
    }

    fn from_fen(variant: &str, text: &str) -> Result<Self, Error> {
        if !VARIANTS.iter().any(|v| v.eq_ignore_ascii_case(variant)) {
            return Err(Error::Variant(format!(
                "unknown variant '{variant}': this engine plays raeuberschach"
            )));
        }
        let fen = Fen::parse(text)?;
        Raeuber::from_fields(fen, "Räuberschach").map_err(Error::Position)
    }

    fn fen(&self) -> String {
        self.write_fen()
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
        self.moves(moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Self {
        self.after(mv)
    }

    fn terminal(&self) -> Terminal {
        // No legal move — no pieces left, or every piece blocked — wins.
        Terminal::Win
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn solved(&self) -> Option<(Terminal, u32)> {
        let v = super::tables::session::probe(self)?;
        Terminal::of_table_value(v, self.halfmove, Self::DRAW_PLIES)
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

    fn insufficient_material(&self) -> bool {
        self.opposite_bishops_alone()
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

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let read = || -> Result<Move, String> {
        let t = text.trim();
        if let Some(coords) = matrix_to_coordinates(t) {
            return self.parse_move(&coords).map_err(String::from);
        }
        let sq = |s: &str| {
            Square::parse(s)
                .filter(|sq| Six::SQUARES >> sq.0 & 1 != 0)
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
        };
        read().map_err(Error::Move)
    }

    fn pretty(&self) -> String {
        let geometry = Geometry::new(6, 6).expect("6×6 is a board size");
        crate::board::diagram(&geometry, |sq| {
            let p = self.board[sq.index()];
            (p != EMPTY).then(|| GLYPHS[p as usize])
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        Raeuber::perft(self, depth)
    }
}

impl Tuning for Raeuber {
    const BENCH_DEPTH: u32 = 13;

    /// Measured against Fairy-Stockfish (docs/raeuber.md) and screened on the forced-win
    /// suite at 2 M nodes (docs/search-log.md): no extension for forced captures (single
    /// replies are extended: without it the suite drops from 60 to 38 of 75), quiescence that
    /// ends a forced-capture position at its evaluation at once (no forced plies, and no
    /// captures past them: two SPRTs, docs/search-log.md), logarithmic LMR as in chess, offers
    /// reduced and pruned late like quiet moves, late captures reduced when the reply is free,
    /// offers ordered first; the soft time limit tripled (self-play SPRTs at 2+0.02: the
    /// engine had used about half of its clock; 200 passed against 100, then 300 against 200);
    /// singular extensions (SPRTs at 100 k nodes and at 2+0.02: often one capture alone does
    /// not lose); captures ordered by their history (an SPRT at 100 k nodes); expected cut
    /// nodes reduced more (SPRTs at 100 k nodes and at 2+0.02); late-move reductions from the
    /// third move on, as Fairy-Stockfish reduces early (an SPRT at 2+0.02). Null moves lose
    /// here (zugzwang: an SPRT at 100 k nodes, H0), and so does a double extension (screened).
    const SEARCH: SearchParams = SearchParams {
        forcing_extension: false,
        qsearch_forcing_plies: 0,
        late_move_pruning: true,
        quiet_order: true,
        lmr_base: 75,
        lmr_divisor: 225,
        lmr_forcing_replies: true,
        prune_forcing_replies: true,
        lmr_noisy: true,
        qsearch_forced_captures: false,
        time_soft_percent: 300,
        singular: true,
        capture_history: true,
        lmr_cut_node: true,
        lmr_min_moves: 2,
        null_move: false,
        ..SearchParams::CONSERVATIVE
    };

    fn expected_moves_left(&self) -> u32 {
        // Most moves capture or are answered by a capture: a game from the start lasts about
        // 17 moves a side, and fewer pieces mean fewer moves to come.
        4 + self.occupied().count_ones() / 2
    }

    fn quiet_order(&self, mv: Move) -> i32 {
        super::eval::quiet_order(self, mv)
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
}

impl Dialect for Raeuber {
    fn xboard_setup(&self) -> Vec<String> {
        vec![format!("setup (PNBRQKpnbrqk) 6x6+0_giveaway {START_FEN}")]
    }

    fn xboard_name(variant: &str) -> &str {
        variant
    }

    /// `ProofFiles`: the session's own proofs and holds, each checked as it is read.
    fn options() -> Vec<GameOption> {
        vec![GameOption {
            name: "ProofFiles",
            kind: OptionKind::Text {
                default: "",
                form: TextForm::File,
            },
            set: |s, v| {
                let (proofs, line) = super::certificates::load_files(v.text())?;
                *s = GameSettings::new(TableSettings {
                    proofs,
                    ..table_settings(s)
                });
                Ok(Some(line))
            },
        }]
    }

    /// The process's endgame tables and their limit; a session's start also starts reading
    /// the shipped certificates (once per process, in the background).
    fn settings() -> GameSettings {
        super::certificates::start_loading();
        GameSettings::new(TableSettings::process())
    }

    fn enter(settings: &GameSettings) {
        if let Some(s) = settings.get::<TableSettings>() {
            session::enter(s);
        }
    }
}

/// A session's endgame table settings, or the process's where it has none yet.
fn table_settings(settings: &GameSettings) -> TableSettings {
    settings
        .get::<TableSettings>()
        .cloned()
        .unwrap_or_else(TableSettings::process)
}

impl OpeningBook for Raeuber {
    /// Books in the Polyglot file format with this game's own Zobrist hash, kept apart by
    /// variant ([`crate::board::zobrist::variant_key`]).
    fn book_key(&self) -> Option<u64> {
        Some(crate::board::zobrist::variant_key(self.hash(), self.variant()))
    }
}

impl Tablebases for Raeuber {}

/// A record's pieces: `colour · 6 + kind` on the 6×6 board, squares numbered `rank · 6 +
/// file` (the position's own grid is 8 wide).
impl crate::nnue::data::Pack for Raeuber {
    const LAYOUT: crate::nnue::Layout = crate::nnue::Layout {
        width: 6,
        height: 6,
        kinds: 6,
    };
    fn pieces(&self) -> Vec<(u8, u8)> {
        let mut occ = self.occupied();
        let mut out = Vec::with_capacity(occ.count_ones() as usize);
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            out.push(((sq / 8 * 6 + sq % 8) as u8, self.board[sq]));
        }
        out
    }
}

impl EndgameTables for Raeuber {
    const SOLVED_TABLES: u32 = 4;

    /// The move of a checked proof or hold: the session's own files first, then the shipped
    /// ones once read (docs/solved.md, "Perfect play from the certificates").
    fn certified(&self) -> Option<Certified> {
        let own = session::proofs();
        super::certificates::certified(self, own.as_deref())
    }

    /// df-pn before alpha-beta does not pay at a clock: share 0 against 10, self-play
    /// 2+0.02, SPRT [0, 10] H1 after 1,282 games, +17.6 ± 16.5 Elo (docs/search-log.md).
    const SOLVER_SHARE: u32 = 0;

    fn use_tables(max_pieces: u32, builds: TableBuilds) -> Result<String, String> {
        use super::tables;
        if max_pieces == 0 {
            tables::set_limit(0);
            return Ok("endgame tables off".to_string());
        }
        if max_pieces > 5 {
            return Err(format!(
                "endgame tables hold 1 to 5 pieces, not {max_pieces} (3: about 23 M positions, \
                 15 s; 4 and 5 built signature by signature as met, a five-piece one in a minute)"
            ));
        }
        // Four and five pieces: the three-piece tables now, each larger signature when met.
        let on_demand = match (max_pieces, builds) {
            (4, TableBuilds::Wait) => "; those of 4 pieces built signature by signature as met",
            (5, TableBuilds::Wait) => {
                "; those of 4 and 5 pieces built signature by signature as met (a five-piece \
                 one in about a minute)"
            }
            (4 | 5, TableBuilds::Background) => {
                "; those of more than 3 pieces built signature by signature as met, in the \
                 background (a search never waits for one)"
            }
            _ => "",
        };
        if let Some(built) = tables::installed() {
            if built.max_pieces() < max_pieces {
                return Err(format!(
                    "the endgame tables of this process hold {} pieces: more need a new process",
                    built.max_pieces()
                ));
            }
            if builds == TableBuilds::Background {
                built.build_in_background();
            }
            tables::set_limit(max_pieces);
            return Ok(format!("endgame tables of up to {max_pieces} pieces{on_demand}"));
        }
        if builds == TableBuilds::Background {
            // A search at a clock, and a GUI waiting for `readyok`: nothing here waits for
            // the build; the probes answer once the tables are there.
            tables::install_in_background()?;
            tables::set_limit(max_pieces);
            return Ok(format!(
                "endgame tables of up to {max_pieces} pieces: those of up to 3 being built in \
                 the background (seconds), probed once they are there{on_demand}"
            ));
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let line = tables::build_and_install(max_pieces.min(3), threads);
        tables::set_limit(max_pieces);
        Ok(format!("{line}{on_demand}"))
    }

    fn session_tables(
        settings: &mut GameSettings,
        max_pieces: u32,
        access: &Access,
    ) -> Result<String, String> {
        let mut own = table_settings(settings);
        if max_pieces == 0 {
            // The session keeps its hold (counted, freed with the session): on again, it
            // probes them at once.
            *settings = GameSettings::new(TableSettings { limit: 0, ..own });
            return Ok("endgame tables off".to_string());
        }
        let most = session::most_pieces(access);
        if max_pieces > most {
            return Err(format!(
                "endgame tables hold 1 to {most} pieces here, not {max_pieces}"
            ));
        }
        let (set, new) = match own.tables.take() {
            Some(set) => (set, false),
            None => session::obtain(own.dir.clone(), access)?,
        };
        own.limit = max_pieces;
        own.tables = Some(set);
        *settings = GameSettings::new(own);
        let on_demand = if max_pieces > 3 {
            "; those of more than 3 pieces built signature by signature as met, in the \
             background (a search never waits for one)"
        } else {
            ""
        };
        Ok(if new {
            format!(
                "endgame tables of up to {max_pieces} pieces: those of up to 3 being built in \
                 the background (seconds), probed once they are there{on_demand}"
            )
        } else {
            format!("endgame tables of up to {max_pieces} pieces{on_demand}")
        })
    }

    fn session_tables_dir(
        settings: &mut GameSettings,
        dir: &str,
        access: &Access,
    ) -> Result<String, String> {
        let mut own = table_settings(settings);
        let dir = dir.trim();
        let (path, line) = if dir.is_empty() || dir == "<empty>" {
            (None, "endgame tables in memory only".to_string())
        } else if access.writes {
            std::fs::create_dir_all(dir).map_err(|e| format!("endgame tables path '{dir}': {e}"))?;
            let line = format!(
                "endgame tables read from {dir} where their files are there, and written there \
                 when built"
            );
            (Some(std::path::PathBuf::from(dir)), line)
        } else {
            let path = std::path::PathBuf::from(dir);
            if !path.is_dir() {
                return Err(format!("endgame tables path '{dir}' is not a folder"));
            }
            let line = format!(
                "endgame tables read from {dir} where their files are there; tables built are \
                 kept in memory, never written (this server writes no files)"
            );
            (Some(path), line)
        };
        own.dir = path;
        if own.tables.is_some() {
            // The session's tables come from the new folder from now on.
            own.tables = Some(session::obtain(own.dir.clone(), access)?.0);
        }
        *settings = GameSettings::new(own);
        Ok(line)
    }

    fn tables_dir(dir: &str) -> Result<String, String> {
        use super::tables;
        let dir = dir.trim();
        if dir.is_empty() || dir == "<empty>" {
            tables::set_dir(None);
            return Ok("endgame tables in memory only".into());
        }
        let path = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("endgame tables path '{dir}': {e}"))?;
        tables::set_dir(Some(path));
        Ok(format!(
            "endgame tables read from {dir} where their files are there, and written there \
             when built"
        ))
    }
}
