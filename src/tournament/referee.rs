//! The referee: plays one game between two engines under kiebitz's own rules (the Game trait),
//! keeps the clocks, and decides the result — by the rules (no legal moves → `terminal()`,
//! threefold repetition, the `DRAW_PLIES` rule, insufficient material), by adjudication on the
//! engines' scores (draw, resign, move limit), or against an engine that misbehaves (illegal
//! move, crash, stall, time forfeit, resignation).
//!
//! Depends on the Game trait, [`super::client`], [`super::clock`] and [`super::openings`].

use std::time::Duration;

use crate::board::{Color, Move};
use crate::game::{Game, Outcome};

use super::client::{Engine, Fault, GameView, Reply};
use super::clock::{Clock, TimeControl};
use super::openings::Opening;

/// Draw adjudication: after move `movenumber`, when both engines' scores stayed within
/// ±`score` centipawns for `movecount` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// Resign adjudication: an engine whose score stayed at or below −`score` for `movecount`
/// consecutive moves of its own loses; `twosided`: only if its opponent agrees (≥ +`score`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// Referee settings shared by every game of a tournament.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// How long to wait for a move when neither clock nor move time bounds it.
    pub timeout: Duration,
    /// The engines' name for the variant (`None`: standard chess, nothing to tell them).
    pub engine_variant: [Option<String>; 2],
    /// Set when the tournament ends early (an SPRT decision): games in progress stop at the
    /// next move and are reported as [`Termination::Unterminated`].
    pub abort: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// How a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// The engine crashed or closed its output.
    Abandoned,
    /// The engine did not answer.
    StalledConnection,
    /// The tournament stopped during the game; it is not counted.
    Unterminated,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
            Termination::Unterminated => "unterminated",
        }
    }
}

/// One move of the record, with the engine's comment (`+0.35/12 0.101s`, or `book`).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub text: String,
    pub comment: Option<String>,
}

/// Everything the PGN and the statistics need about a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number in the tournament.
    pub number: usize,
    /// 0-based pair (opening) index.
    pub pair: usize,
    pub white: String,
    pub black: String,
    pub variant: &'static str,
    /// The start FEN, and whether it is the variant's start position.
    pub fen: String,
    pub startpos: bool,
    pub moves: Vec<MoveRecord>,
    pub outcome: Outcome,
    pub termination: Termination,
    /// A sentence: `Black has no legal move and loses`, `White loses on time`, …
    pub reason: String,
    pub time_controls: [String; 2],
    /// Which engine (White, Black) misbehaved and should be restarted.
    pub faulty: [bool; 2],
    /// What the engines' pondering came to in this game.
    pub ponder: PonderCount,
}

/// Ponder searches in a game or a match (`--ponder`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderCount {
    /// `go ponder` sent.
    pub starts: u32,
    /// The expected move came: `ponderhit`.
    pub hits: u32,
    /// Another move came: `stop`, and the real position searched.
    pub misses: u32,
    /// The game ended during a ponder search: `stop`.
    pub ended: u32,
}

impl PonderCount {
    pub fn add(&mut self, other: &PonderCount) {
        self.starts += other.starts;
        self.hits += other.hits;
        self.misses += other.misses;
        self.ended += other.ended;
    }
}

fn side_name(c: Color) -> &'static str {
    c.name()
}

/// Reads a move leniently: exact, lower case, or without a promotion letter the game does not
/// write (Fairy-Stockfish sends `a5a6q` for a pawn-chess arrival that kiebitz writes `a5a6`).
pub fn parse_move_lenient<G: Game>(pos: &G, text: &str) -> Result<Move, String> {
    if let Ok(mv) = pos.parse_move(text) {
        return Ok(mv);
    }
    let lower = text.to_ascii_lowercase();
    if let Ok(mv) = pos.parse_move(&lower) {
        return Ok(mv);
    }
    if lower.len() == 5
        && lower.is_ascii()
        && let Ok(mv) = pos.parse_move(&lower[..4])
    {
        return Ok(mv);
    }
    if text.is_empty() {
        return Err("an empty move".into());
    }
    Err(format!("{text} is not a legal move in {}", pos.fen()))
}

/// `+0.35/12 0.101s` in the engine's view, mates as `+M3` (moves).
fn move_comment(reply: &Reply) -> String {
    let time = format!("{:.3}s", reply.elapsed.as_secs_f64());
    match reply.score {
        None => time,
        Some(s) => {
            let score = if s.abs() >= 29000 {
                let plies = 30000 - s.abs();
                let sign = if s > 0 { "+" } else { "-" };
                format!("{sign}M{}", (plies + 1) / 2)
            } else {
                format!("{:+.2}", s as f64 / 100.0)
            };
            match reply.depth {
                Some(d) => format!("{score}/{d} {time}"),
                None => format!("{score} {time}"),
            }
        }
    }
}

/// The rules' verdict on a position, if the game is over. `history` holds the hashes of the
/// earlier positions, oldest first.
pub fn rules_verdict<G: Game>(pos: &G, history: &[u64]) -> Option<(Outcome, String)> {
    pos.verdict(history)
}

/// The expected reply `text` in our notation, if it is legal in `pos` and the game goes on.
fn ponder_move<G: Game>(pos: &G, history: &[u64], text: &str) -> Option<String> {
    if rules_verdict(pos, history).is_some() {
        return None;
    }
    let mv = parse_move_lenient(pos, text).ok()?;
    Some(pos.move_text(mv))
}

/// What every view of one game shares: its start and time controls.
struct Frame<'a> {
    fen: Option<&'a str>,
    white_starts: bool,
    tcs: [&'a TimeControl; 2],
    timeout: Duration,
}

impl Frame<'_> {
    /// The game as an engine is told it: its `variant` name, the moves, the clocks.
    fn view<'b>(
        &'b self,
        variant: Option<&'b str>,
        moves: &'b [String],
        clocks: &'b [Clock; 2],
        white_to_move: bool,
    ) -> GameView<'b> {
        GameView {
            variant,
            fen: self.fen,
            white_starts: self.white_starts,
            moves,
            clocks: [&clocks[0], &clocks[1]],
            tcs: self.tcs,
            white_to_move,
            timeout: self.timeout,
        }
    }
}

/// The two engines of a game, White's first.
pub struct Seats<'a> {
    pub engines: [&'a mut Engine; 2],
    pub names: [String; 2],
}

/// The referee's verdict on one reply of the side to move.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// A legal move in time: play it.
    Play(Move),
    /// The side to move loses: how the game ends, and the sentence.
    Lose(Termination, String),
}

/// The referee's step: `reply` of the side to move in `pos` is charged to its `clock` (or held
/// against `movetime`, the time per move as the engine was told it, plus `margin`) and read as
/// a move; the verdict is the move to play, or the loss (resignation, time, illegal move).
pub fn judge<G: Game>(
    pos: &G,
    reply: &Reply,
    clock: &mut Clock,
    movetime: Option<Duration>,
    margin: Duration,
) -> Verdict {
    let side = side_name(pos.side_to_move());
    if reply.resigned {
        return Verdict::Lose(Termination::Normal, format!("{side} resigns"));
    }
    let in_time = if clock.running() {
        clock.charge(reply.elapsed, margin)
    } else if let Some(t) = movetime {
        reply.elapsed <= t + margin
    } else {
        true
    };
    if !in_time {
        return Verdict::Lose(
            Termination::TimeForfeit,
            format!(
                "{side} loses on time ({:.3} s for the move)",
                reply.elapsed.as_secs_f64()
            ),
        );
    }
    match parse_move_lenient(pos, &reply.text) {
        Ok(mv) => Verdict::Play(mv),
        Err(e) => Verdict::Lose(
            Termination::IllegalMove,
            format!("{side} makes an illegal move: {e}"),
        ),
    }
}

/// A game's position with what the rules and the engines need of its past.
struct Board<G> {
    pos: G,
    /// Hashes of the earlier positions, oldest first.
    history: Vec<u64>,
    /// Every move so far, in our notation.
    texts: Vec<String>,
}

impl<G: Game> Board<G> {
    /// Plays `mv`, recording it with `comment`.
    fn play(&mut self, mv: Move, comment: String, record: &mut GameRecord) {
        let text = self.pos.move_text(mv);
        record.moves.push(MoveRecord {
            text: text.clone(),
            comment: Some(comment),
        });
        self.texts.push(text);
        self.history.push(self.pos.hash());
        self.pos = self.pos.play(mv);
    }
}

/// Ends the game in `record`.
fn end(record: &mut GameRecord, outcome: Outcome, termination: Termination, reason: String) {
    record.outcome = outcome;
    record.termination = termination;
    record.reason = reason;
}

/// Adjudication on the engines' scores: the runs of level and of lost scores so far.
struct Adjudicator {
    draw_run: u32,
    resign_run: [u32; 2],
    last_score: [Option<i32>; 2],
    /// The full-move number of the start position.
    first_fullmove: u32,
}

impl Adjudicator {
    fn new(fen: &str) -> Adjudicator {
        Adjudicator {
            draw_run: 0,
            resign_run: [0; 2],
            last_score: [None; 2],
            first_fullmove: fen
                .split_whitespace()
                .nth(5)
                .and_then(|n| n.parse().ok())
                .unwrap_or(1),
        }
    }

    /// After side `us` moved with `score` (its own point of view) and `plies` moves are on
    /// the board: the adjudicated end, if any.
    fn after_move(
        &mut self,
        rules: &Rules,
        us: Color,
        score: Option<i32>,
        plies: usize,
    ) -> Option<(Outcome, String)> {
        let i = us.index();
        self.last_score[i] = score;
        if let Some(d) = rules.draw {
            match score {
                Some(s) if s.abs() <= d.score => self.draw_run += 1,
                _ => self.draw_run = 0,
            }
            let move_number = self.first_fullmove + (plies as u32) / 2;
            if move_number >= d.movenumber && self.draw_run >= 2 * d.movecount {
                let why = "Draw by adjudication: both engines see a level game";
                return Some((Outcome::Draw, why.into()));
            }
        }
        if let Some(r) = rules.resign {
            let losing = matches!(score, Some(s) if s <= -r.score);
            let agreed = !r.twosided || matches!(self.last_score[1 - i], Some(s) if s >= r.score);
            if losing && agreed {
                self.resign_run[i] += 1;
            } else {
                self.resign_run[i] = 0;
            }
            if self.resign_run[i] >= r.movecount {
                let why = format!("{} loses by adjudication (its score)", side_name(us));
                return Some((Outcome::Win(us.flip()), why));
            }
        }
        None
    }
}

/// Why the game ends before the next move, if it does: the rules, the move limit, or the
/// tournament's end.
fn before_move<G: Game>(board: &Board<G>, rules: &Rules) -> Option<(Outcome, Termination, String)> {
    if let Some((outcome, reason)) = rules_verdict(&board.pos, &board.history) {
        return Some((outcome, Termination::Normal, reason));
    }
    let fullmoves_done = board.texts.len() as u32 / 2;
    if let Some(max) = rules.maxmoves
        && fullmoves_done >= max
    {
        let why = format!("Draw by adjudication: {max} moves played");
        return Some((Outcome::Draw, Termination::Adjudication, why));
    }
    if rules.abort.load(std::sync::atomic::Ordering::Relaxed) {
        let why = "The tournament ended during the game".to_string();
        return Some((Outcome::Draw, Termination::Unterminated, why));
    }
    None
}

/// The record of a game about to start from `start`, between the engines `names`.
fn new_record<G: Game>(
    start: &G,
    names: &[String; 2],
    tcs: &[TimeControl; 2],
    number: usize,
    pair: usize,
) -> GameRecord {
    let fen = start.fen();
    let startpos = G::startpos(start.variant())
        .map(|s| s.fen() == fen)
        .unwrap_or(false);
    GameRecord {
        number,
        pair,
        white: names[0].clone(),
        black: names[1].clone(),
        variant: start.variant(),
        fen,
        startpos,
        moves: Vec::new(),
        outcome: Outcome::Draw,
        termination: Termination::Normal,
        reason: String::new(),
        time_controls: [tcs[0].pgn_tag(), tcs[1].pgn_tag()],
        faulty: [false, false],
        ponder: PonderCount::default(),
    }
}

/// Plays the opening's moves onto the board (comment `book`); an error for a bad line.
fn play_opening<G: Game>(
    board: &mut Board<G>,
    opening: &Opening<G>,
    record: &mut GameRecord,
) -> Result<(), String> {
    for m in &opening.moves {
        let mv = board.pos.parse_move(m)?;
        board.play(mv, "book".into(), record);
    }
    Ok(())
}

/// Tells both engines a new game begins; false (and the game lost) for one that cannot.
fn start_engines(
    engines: &mut [&mut Engine; 2],
    frame: &Frame,
    rules: &Rules,
    clocks: &[Clock; 2],
    record: &mut GameRecord,
) -> bool {
    for (i, engine) in engines.iter_mut().enumerate() {
        let variant = rules.engine_variant[i].as_deref();
        let view = frame.view(variant, &[], clocks, true);
        if let Err(e) = engine.new_game(&view) {
            let side = if i == 0 { Color::White } else { Color::Black };
            let why = format!("{} cannot start the game: {e}", side_name(side));
            end(
                record,
                Outcome::Win(side.flip()),
                Termination::Abandoned,
                why,
            );
            record.faulty[i] = true;
            return false;
        }
    }
    true
}

/// The loss of the side to move `us` for an engine's fault (`Crashed`, `Stalled`).
fn fault_loss(us: Color, fault: Fault) -> (Termination, String) {
    match fault {
        Fault::Crashed(why) => (
            Termination::Abandoned,
            format!("{} disconnects: {why}", side_name(us)),
        ),
        Fault::Stalled(why) => (
            Termination::StalledConnection,
            format!("{}'s connection stalls: {why}", side_name(us)),
        ),
    }
}

/// After a move by `us`: the engine ponders on the move it expects, if it can.
fn start_pondering<G: Game>(
    engine: &mut Engine,
    board: &Board<G>,
    view: &GameView,
    reply: &Reply,
    record: &mut GameRecord,
) {
    if engine.can_ponder()
        && let Some(guess) = reply.ponder.as_deref()
        && let Some(guess) = ponder_move(&board.pos, &board.history, guess)
    {
        match engine.start_ponder(view, &guess) {
            Ok(()) => record.ponder.starts += 1,
            // The engine's next move will find out.
            Err(e) => log::debug!("cannot start pondering: {e:?}"),
        }
    }
}

/// Plays one game from `opening`: the referee asks the side to move for its move, [`judge`]s
/// the reply, plays the move and adjudicates, until the game ends.
pub fn play_game<G: Game>(
    seats: Seats,
    opening: &Opening<G>,
    rules: &Rules,
    number: usize,
    pair: usize,
) -> GameRecord {
    let Seats { engines, names } = seats;
    let mut engines: [&mut Engine; 2] = engines;
    let tcs: [TimeControl; 2] = [engines[0].config.tc.clone(), engines[1].config.tc.clone()];
    let margins = [engines[0].config.timemargin, engines[1].config.timemargin];
    let start = opening.start.clone();
    let mut record = new_record(&start, &names, &tcs, number, pair);
    let fen = record.fen.clone();
    let mut board = Board {
        pos: start.clone(),
        history: Vec::new(),
        texts: Vec::new(),
    };
    if let Err(e) = play_opening(&mut board, opening, &mut record) {
        record.reason = format!("Bad opening line: {e}");
        record.termination = Termination::Abandoned;
        return record;
    }
    let mut clocks = [Clock::new(&tcs[0]), Clock::new(&tcs[1])];
    let frame = Frame {
        fen: (!record.startpos).then_some(fen.as_str()),
        white_starts: start.side_to_move() == Color::White,
        tcs: [&tcs[0], &tcs[1]],
        timeout: rules.timeout,
    };
    if !start_engines(&mut engines, &frame, rules, &clocks, &mut record) {
        return record;
    }
    let mut adjudicator = Adjudicator::new(&fen);
    loop {
        if let Some((outcome, termination, reason)) = before_move(&board, rules) {
            let outcome = match termination {
                // An unfinished game keeps the record's outcome.
                Termination::Unterminated => record.outcome,
                _ => outcome,
            };
            end(&mut record, outcome, termination, reason);
            break;
        }
        let us = board.pos.side_to_move();
        let i = us.index();
        let variant = rules.engine_variant[i].as_deref();
        let view = frame.view(variant, &board.texts, &clocks, us == Color::White);
        let reply = match engines[i].go(&view) {
            Ok(r) => r,
            Err(fault) => {
                let (termination, reason) = fault_loss(us, fault);
                end(&mut record, Outcome::Win(us.flip()), termination, reason);
                record.faulty[i] = true;
                break;
            }
        };
        match reply.ponder_hit {
            Some(true) => record.ponder.hits += 1,
            Some(false) => record.ponder.misses += 1,
            None => {}
        }
        let movetime = tcs[i].movetime.map(|t| engines[i].config.movetime(t));
        let mv = match judge(&board.pos, &reply, &mut clocks[i], movetime, margins[i]) {
            Verdict::Play(mv) => mv,
            Verdict::Lose(termination, reason) => {
                end(&mut record, Outcome::Win(us.flip()), termination, reason);
                record.faulty[i] = termination != Termination::Normal;
                break;
            }
        };
        board.play(mv, move_comment(&reply), &mut record);
        let view = frame.view(variant, &board.texts, &clocks, us != Color::White);
        start_pondering(&mut *engines[i], &board, &view, &reply, &mut record);
        if let Some((outcome, reason)) =
            adjudicator.after_move(rules, us, reply.score, board.texts.len())
        {
            end(&mut record, outcome, Termination::Adjudication, reason);
            break;
        }
    }
    finish(engines, &mut record);
    record
}

/// Ends the game for both engines: a ponder search stopped (an engine that does not answer
/// the `stop` is restarted), the result told.
fn finish(engines: [&mut Engine; 2], record: &mut GameRecord) {
    let result = record.outcome.result_string();
    for (i, engine) in engines.into_iter().enumerate() {
        match engine.end_ponder() {
            Ok(true) => record.ponder.ended += 1,
            Ok(false) => {}
            Err(e) => {
                log::warn!(
                    "game {}: an engine stops pondering badly: {e}",
                    record.number
                );
                record.faulty[i] = true;
            }
        }
        engine.game_over(result, &record.reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveList;
    use crate::game::{Dialect, EndgameTables, OpeningBook, Tablebases, Terminal, Tuning};
    use crate::games::pawns::Pawns;

    #[test]
    fn verdicts_by_the_rules() {
        // White's pawn has arrived: Black to move has lost.
        let p = Pawns::from_fen("pawns4", "P3/4/1p2/4 b - - 0 3").unwrap();
        let (o, why) = rules_verdict(&p, &[]).unwrap();
        assert_eq!(o, Outcome::Win(Color::White));
        assert_eq!(why, "White wins: a pawn has reached the last rank");
        // Blocked pawns: no moves, a draw.
        let p = Pawns::from_fen("pawns4", "4/p3/P3/4 w - - 0 9").unwrap();
        assert_eq!(rules_verdict(&p, &[]).unwrap().0, Outcome::Draw);
        let p = Pawns::startpos("pawns4").unwrap();
        assert!(rules_verdict(&p, &[]).is_none());
        // Chess: the fool's mate, a stalemate, two bare kings.
        use crate::games::chess::Chess;
        let verdict = |fen: &str| rules_verdict(&Chess::from_fen("chess", fen).unwrap(), &[]);
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(
            verdict(mate),
            Some((Outcome::Win(Color::Black), "Black mates".to_string()))
        );
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(
            verdict(stalemate),
            Some((Outcome::Draw, "Draw by stalemate".to_string()))
        );
        assert_eq!(
            verdict("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap().1,
            "Draw by insufficient mating material"
        );
        assert_eq!(
            verdict("8/8/4k3/8/8/3K4/8/7R w - - 100 80").unwrap().1,
            "Draw by the 100-ply rule (50 moves without progress)"
        );
    }

    /// A toy game for the history rules: a token shuttles between squares a1…h1, each side
    /// moving it one square left or right; it never ends by itself. No move is irreversible.
    #[derive(Clone, Debug)]
    struct Shuttle {
        at: u8,
        side: Color,
        plies: u32,
    }

    impl Game for Shuttle {
        const GAME: &'static str = "shuttle";

        const DRAW_PLIES: Option<u32> = Some(12);

        const REPETITION: bool = true;

        const NULL_MOVE: bool = false;

        fn variants() -> &'static [&'static str] {
            &["shuttle"]
        }

        fn startpos(_: &str) -> Result<Self, crate::Error> {
            Ok(Shuttle {
                at: 0,
                side: Color::White,
                plies: 0,
            })
        }

        fn from_fen(v: &str, _: &str) -> Result<Self, crate::Error> {
            Self::startpos(v)
        }

        fn fen(&self) -> String {
            format!("{} {}", self.at, self.side.fen_char())
        }

        fn variant(&self) -> &'static str {
            "shuttle"
        }

        fn size(&self) -> (u8, u8) {
            (8, 1)
        }

        fn side_to_move(&self) -> Color {
            self.side
        }

        fn legal_moves(&self, moves: &mut MoveList) {
            use crate::board::{MoveKind, Square};
            moves.clear();
            for to in [self.at.wrapping_sub(1), self.at + 1] {
                if to < 8 {
                    moves.push(Move::new(Square(self.at), Square(to), MoveKind::Normal));
                }
            }
        }

        fn play(&self, mv: Move) -> Self {
            Shuttle {
                at: mv.to().0,
                side: self.side.flip(),
                plies: self.plies + 1,
            }
        }

        fn terminal(&self) -> Terminal {
            Terminal::Draw
        }

        fn hash(&self) -> u64 {
            self.at as u64 * 2 + self.side.index() as u64
        }

        fn reversible_plies(&self) -> u32 {
            self.plies
        }

        crate::game::toy_game_quiet_methods!();
    }

    impl Tuning for Shuttle {}

    impl Dialect for Shuttle {}

    impl OpeningBook for Shuttle {}

    impl Tablebases for Shuttle {}

    impl EndgameTables for Shuttle {}

    /// Plays `path` (squares the token visits) and returns the verdict after each ply.
    fn verdicts(path: &[u8]) -> Vec<Option<String>> {
        let mut pos = Shuttle::startpos("shuttle").unwrap();
        let mut history = Vec::new();
        let mut out = Vec::new();
        for &to in path {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mv = moves.into_iter().find(|m| m.to().0 == to).unwrap();
            history.push(pos.hash());
            pos = pos.play(mv);
            out.push(rules_verdict(&pos, &history).map(|v| v.1));
        }
        out
    }

    #[test]
    fn threefold_repetition_and_the_ply_rule() {
        // a1 with White to move recurs after plies 2 and 4: the third occurrence draws.
        let v = verdicts(&[1, 0, 1, 0, 1]);
        assert_eq!(v[..3], [None, None, None]);
        assert_eq!(v[3].as_deref(), Some("Draw by 3-fold repetition"));
        // A walk out and half way back visits no position three times: the 12-ply rule.
        let v = verdicts(&[1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2]);
        assert_eq!(v[..11].iter().filter(|x| x.is_some()).count(), 0, "{v:?}");
        assert_eq!(
            v[11].as_deref(),
            Some("Draw by the 12-ply rule (6 moves without progress)")
        );
    }

    #[test]
    fn lenient_moves() {
        let p = Pawns::from_fen("pawns4", "4/P3/3p/4 w - - 0 3").unwrap();
        assert_eq!(
            p.move_text(parse_move_lenient(&p, "a3a4q").unwrap()),
            "a3a4"
        );
        assert_eq!(p.move_text(parse_move_lenient(&p, "A3A4").unwrap()), "a3a4");
        let err = parse_move_lenient(&p, "a3b4").unwrap_err();
        assert_eq!(err, "a3b4 is not a legal move in 4/P3/3p/4 w - - 0 3");
        assert_eq!(parse_move_lenient(&p, "").unwrap_err(), "an empty move");
    }

    #[test]
    fn comments() {
        let r = Reply {
            text: "a2a3".into(),
            elapsed: Duration::from_millis(101),
            score: Some(35),
            depth: Some(12),
            resigned: false,
            ..Reply::default()
        };
        assert_eq!(move_comment(&r), "+0.35/12 0.101s");
        let r = Reply {
            score: Some(-(30000 - 4)),
            depth: None,
            ..r
        };
        assert_eq!(move_comment(&r), "-M2 0.101s");
    }
}
