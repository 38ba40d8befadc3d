//! XBoard / CECP v2: commands parsed with nom into [`Command`], the session's modes (force,
//! playing a colour, analyze), clocks (`level`, `st`, `sd`, `time`, `otim`), engine-defined
//! variants (`setup` lines from [`crate::game::Dialect::xboard_setup`]), thinking output and
//! results, the engine's options as `feature option=…` (the entries of the one option table,
//! [`super::options`], that XBoard gets) and `hint`.
//! A command that is refused fails with an [`XboardError`] (from the parser or by `?` from its
//! handler), written in one place as `Error (REASON): COMMAND`.
//!
//! The engine's own move is announced by the search thread (`move …`, and the result when the
//! move ends the game); the command loop then records it before it handles the next command
//! that needs the position.

use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, i64 as int, space0, space1, u32 as uint};
use nom::combinator::{all_consuming, map, opt, rest};
use nom::number::complete::double;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::error::XboardError;
use super::options::Dialect;
use super::session::Core;
use super::{
    End, GameLine, LineHandler, LineReader, MAX_HASH_MB, MAX_MESSAGE, Output, SessionConfig, drive,
    engine_name, legal_moves, pv_text, safe_search, shorten, shorten_to,
};
use crate::board::Color;
use crate::engine_option::{OptionKind, OptionValue, TextForm};
use crate::game::Game;
use crate::search::{Info, Limits, Score, SearchResult};

/// One XBoard command, parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Command<'a> {
    Xboard,
    Protover(u32),
    Accepted(&'a str),
    Rejected(&'a str),
    New,
    Variant(&'a str),
    Force,
    Go,
    PlayOther,
    White,
    Black,
    /// `level MPS BASE INC`: moves per session, base time, increment.
    Level {
        moves: u32,
        base: Duration,
        inc: Duration,
    },
    /// `st SECONDS`: fixed time per move.
    St(Duration),
    /// `sd DEPTH`.
    Sd(u32),
    /// `time CS` / `otim CS`: the engine's and the opponent's clock, in centiseconds.
    Time(i64),
    Otim(i64),
    MoveNow,
    Ping(i64),
    Result(&'a str),
    SetBoard(&'a str),
    UserMove(&'a str),
    Undo,
    Remove,
    Post,
    NoPost,
    Hard,
    Easy,
    Analyze,
    Exit,
    Dot,
    Memory(u64),
    Cores(u32),
    Random,
    Computer,
    Name(&'a str),
    /// `option NAME=VALUE`, or `option NAME` for a button.
    Option {
        name: &'a str,
        value: Option<&'a str>,
    },
    Hint,
    Bk,
    Draw,
    Quit,
}

fn word(input: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(input)
}

/// Seconds as `S`, `S.F`: a duration.
fn seconds(input: &str) -> IResult<&str, Duration> {
    map(double, |s: f64| {
        Duration::from_secs_f64(if s.is_finite() {
            s.clamp(0.0, 1e7)
        } else {
            0.0
        })
    })
    .parse(input)
}

/// The base time of `level`: `MINUTES` or `MINUTES:SECONDS`.
fn base_time(input: &str) -> IResult<&str, Duration> {
    map(
        (uint, opt(preceded(char(':'), uint))),
        |(m, s): (u32, Option<u32>)| Duration::from_secs(m as u64 * 60 + s.unwrap_or(0) as u64),
    )
    .parse(input)
}

fn level(input: &str) -> IResult<&str, Command<'_>> {
    map(
        (uint, space1, base_time, space1, seconds),
        |(moves, _, base, _, inc)| Command::Level { moves, base, inc },
    )
    .parse(input)
}

/// The argument of `name` and `result`: the rest of the line, possibly empty.
fn text(input: &str) -> IResult<&str, &str> {
    rest(input)
}

/// Parses one command line. An error's `Display` is the reason of the `Error (…)` reply.
pub fn parse(line: &str) -> Result<Command<'_>, XboardError> {
    let line = line.trim();
    let (cmd, args) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    let none = |c: Command<'static>| -> Result<Command<'static>, XboardError> {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(XboardError::UnexpectedArgument(cmd.to_string()))
        }
    };
    let arg = |p: fn(&str) -> IResult<&str, Command<'_>>| -> Result<Command<'_>, XboardError> {
        all_consuming(p)
            .parse(args)
            .map(|(_, c)| c)
            .map_err(|_| XboardError::BadArgument(cmd.to_string()))
    };
    match cmd {
        "xboard" => none(Command::Xboard),
        "protover" => arg(|i| map(uint, Command::Protover).parse(i)),
        "accepted" => arg(|i| map(word, Command::Accepted).parse(i)),
        "rejected" => arg(|i| map(word, Command::Rejected).parse(i)),
        "new" => none(Command::New),
        "variant" => arg(|i| map(word, Command::Variant).parse(i)),
        "force" => none(Command::Force),
        "go" => none(Command::Go),
        "playother" => none(Command::PlayOther),
        "white" => none(Command::White),
        "black" => none(Command::Black),
        "level" => arg(level),
        "st" => arg(|i| map(seconds, Command::St).parse(i)),
        "sd" => arg(|i| map(uint, Command::Sd).parse(i)),
        "time" => arg(|i| map(int, Command::Time).parse(i)),
        "otim" => arg(|i| map(int, Command::Otim).parse(i)),
        "?" => none(Command::MoveNow),
        "ping" => arg(|i| map(int, Command::Ping).parse(i)),
        "result" => arg(|i| map(preceded(space0, text), Command::Result).parse(i)),
        "setboard" if !args.is_empty() => Ok(Command::SetBoard(args)),
        "setboard" => Err(XboardError::MissingFen),
        "usermove" => arg(|i| map(word, Command::UserMove).parse(i)),
        "undo" => none(Command::Undo),
        "remove" => none(Command::Remove),
        "post" => none(Command::Post),
        "nopost" => none(Command::NoPost),
        "hard" => none(Command::Hard),
        "easy" => none(Command::Easy),
        "analyze" => none(Command::Analyze),
        "exit" => none(Command::Exit),
        "." => none(Command::Dot),
        "memory" => arg(|i| map(nom::character::complete::u64, Command::Memory).parse(i)),
        "cores" => arg(|i| map(uint, Command::Cores).parse(i)),
        "random" => none(Command::Random),
        "computer" => none(Command::Computer),
        "name" => Ok(Command::Name(args)),
        "option" => match args.split_once('=') {
            _ if args.is_empty() => Err(XboardError::OptionSyntax),
            Some((name, value)) => Ok(Command::Option {
                name: name.trim(),
                value: Some(value.trim()),
            }),
            None => Ok(Command::Option {
                name: args,
                value: None,
            }),
        },
        "hint" => none(Command::Hint),
        "bk" => none(Command::Bk),
        "draw" => none(Command::Draw),
        "quit" => none(Command::Quit),
        _ if args.is_empty() && looks_like_move(cmd) => Ok(Command::UserMove(cmd)),
        _ => Err(XboardError::UnknownCommand(cmd.to_string())),
    }
}

/// Whether a bare word looks like a coordinate move (`e2e4`, `a7a8q`): XBoard sends moves
/// without `usermove` to engines that did not ask for it.
fn looks_like_move(text: &str) -> bool {
    fn square(i: &str) -> IResult<&str, (char, char)> {
        (
            nom::character::complete::satisfy(|c| c.is_ascii_lowercase()),
            nom::character::complete::satisfy(|c| c.is_ascii_digit()),
        )
            .parse(i)
    }
    let mut p = all_consuming((
        square,
        square,
        opt(nom::character::complete::satisfy(|c| {
            c.is_ascii_alphabetic()
        })),
    ));
    p.parse(text).is_ok()
        || alt((
            tag::<&str, &str, nom::error::Error<&str>>("O-O"),
            tag("0-0"),
        ))
        .parse(text)
        .is_ok()
}

/// Time control as set by `level` and `st`.
#[derive(Clone, Debug)]
struct Clock {
    /// Moves per session, 0 for the whole game.
    moves: u32,
    base: Duration,
    inc: Duration,
    /// `st`: fixed time per move.
    per_move: Option<Duration>,
    /// `sd`: depth limit.
    depth: Option<u32>,
    /// Last `time` and `otim`.
    own: Option<Duration>,
    other: Option<Duration>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            moves: 40,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            per_move: None,
            depth: None,
            own: None,
            other: None,
        }
    }
}

/// What the search thread shares with the loop about the engine's move.
#[derive(Default)]
struct Announce {
    cancelled: bool,
    announced: bool,
    /// The reply the search expects to the announced move (for `hint`).
    ponder: Option<crate::board::Move>,
}

/// The kind of job on the search thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    Think,
    Analyze,
}

/// One XBoard session: the shared [`Core`] and XBoard's modes, clocks and job.
struct Session<G: Game> {
    core: Core<G>,
    force: bool,
    /// The side the engine plays (when not in force mode).
    engine_side: Color,
    post: bool,
    analyzing: bool,
    clock: Clock,
    job: Option<(JobKind, Arc<Mutex<Announce>>)>,
    /// Last thinking report of the running search, for `.`.
    last_info: Arc<Mutex<Option<Info>>>,
    job_start: Instant,
    /// The reply the last search expected to the engine's move, with the hash of the
    /// position it answers: what `hint` says while that position is on the board.
    expected_reply: Option<(u64, crate::board::Move)>,
    /// The variant whose `setup` lines this game (since `new`) has already sent: `new` then
    /// `variant` of the same variant teaches XBoard once.
    setup_sent: Option<&'static str>,
}

impl<G: Game> Session<G> {
    fn new(out: &Output, config: &SessionConfig) -> Result<Session<G>, String> {
        Ok(Session {
            core: Core::new(out, config)?,
            force: false,
            engine_side: Color::Black,
            post: true,
            analyzing: false,
            clock: Clock::default(),
            job: None,
            last_info: Arc::new(Mutex::new(None)),
            job_start: Instant::now(),
            expected_reply: None,
            setup_sent: None,
        })
    }
}

/// Runs an XBoard session on `reader`; `first` is the line that chose XBoard.
pub fn run<G: Game, R: BufRead>(
    reader: &mut LineReader<R>,
    out: &Output,
    config: &SessionConfig,
    first: &str,
) {
    let mut s = match Session::<G>::new(out, config) {
        Ok(s) => s,
        Err(e) => {
            out.line(&format!("Error (no start position: {e}): xboard"));
            return;
        }
    };
    // At the end of input the engine's own move, if it is thinking, is still sent.
    let end = drive(reader, out, first, &mut s);
    if end == End::Eof && config.finish_at_eof && !out.is_broken() && s.core.engine.finite() {
        s.finish_job();
    }
    s.cancel();
}

impl<G: Game> LineHandler for Session<G> {
    fn command(&mut self, line: &str) -> bool {
        Session::command(self, line)
    }

    fn read_error(&mut self, error: &str) {
        self.say(&format!("Error (line too long): {error}"));
    }
}

impl<G: Game> Session<G> {
    fn say(&self, text: &str) {
        self.core.out.line(text);
    }

    fn error(&self, error: &XboardError, line: &str) {
        let reason = shorten_to(&error.to_string(), MAX_MESSAGE);
        log::info!("Error ({reason}): {}", shorten(line));
        self.say(&format!("Error ({reason}): {}", shorten(line)));
    }

    /// Handles one line; false when the session ends.
    fn command(&mut self, line: &str) -> bool {
        if line.is_empty() {
            return true;
        }
        self.collect();
        let cmd = match parse(line) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e, line);
                return true;
            }
        };
        match self.handle(cmd, line) {
            Ok(go_on) => go_on,
            Err(e) => {
                self.error(&e, line);
                true
            }
        }
    }

    /// Carries out one parsed command; false when the session ends. An error changed nothing
    /// and is the reason of the `Error (…)` reply.
    fn handle(&mut self, cmd: Command<'_>, line: &str) -> Result<bool, XboardError> {
        match cmd {
            Command::Xboard | Command::Accepted(_) | Command::Bk => {}
            Command::Hint => self.hint(),
            Command::Option { name, value } => self.set_option(name, value)?,
            Command::Rejected(f) => log::warn!("the GUI rejected feature {f}"),
            Command::Draw => {}
            Command::Protover(_) => self.features(),
            Command::New => self.new_game(),
            Command::Variant(name) => self.set_variant(name)?,
            Command::Force => {
                self.cancel();
                self.force = true;
            }
            Command::Go => {
                self.cancel();
                self.force = false;
                self.engine_side = self.core.game.current().side_to_move();
                self.think_if_our_turn(true);
            }
            Command::PlayOther => {
                self.cancel();
                self.force = false;
                self.engine_side = self.core.game.current().side_to_move().flip();
            }
            Command::White | Command::Black => {
                log::debug!("ignoring '{line}' (colors=0)");
            }
            Command::Level { moves, base, inc } => {
                self.clock.moves = moves;
                self.clock.base = base;
                self.clock.inc = inc;
                self.clock.per_move = None;
            }
            Command::St(t) => self.clock.per_move = Some(t),
            Command::Sd(d) => self.clock.depth = Some(d.max(1)),
            Command::Time(cs) | Command::Otim(cs) if cs > MAX_CLOCK_CS => {
                return Err(XboardError::ClockTooLarge { max: MAX_CLOCK_CS });
            }
            Command::Time(cs) => self.clock.own = Some(centis(cs)),
            Command::Otim(cs) => self.clock.other = Some(centis(cs)),
            Command::MoveNow => {
                if self.job.as_ref().is_some_and(|(k, _)| *k == JobKind::Think) {
                    self.core.engine.stop();
                }
            }
            Command::Ping(n) => self.say(&format!("pong {n}")),
            Command::Result(r) => {
                log::info!("game over: {r}");
                self.cancel();
                self.force = true;
            }
            Command::SetBoard(fen) => self.set_board(fen)?,
            Command::UserMove(text) => self.user_move(text),
            Command::Undo => self.take_back(1)?,
            Command::Remove => self.take_back(2)?,
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Hard | Command::Easy | Command::Random | Command::Computer => {}
            Command::Name(who) => log::info!("opponent: {who}"),
            Command::Analyze => {
                self.cancel();
                self.analyzing = true;
                self.restart_analysis();
            }
            Command::Exit => {
                if self.analyzing {
                    self.cancel();
                    self.analyzing = false;
                }
            }
            Command::Dot => self.status(),
            Command::Memory(mb) => self.set_memory(mb)?,
            Command::Cores(n) => self.set_cores(n)?,
            Command::Quit => return Ok(false),
        }
        Ok(true)
    }

    /// `new`: the standard start, the engine plays Black, no depth or time-per-move limit.
    fn new_game(&mut self) {
        self.cancel();
        self.analyzing = false;
        self.core.variant = G::variants()[0];
        self.core.reset_to_start();
        self.force = false;
        self.engine_side = Color::Black;
        self.clock.depth = None;
        self.clock.per_move = None;
        self.core.engine.clear();
        self.setup_sent = None;
        self.send_setup();
    }

    /// `variant NAME`: its start position.
    fn set_variant(&mut self, name: &str) -> Result<(), XboardError> {
        let v =
            find_variant::<G>(name).ok_or_else(|| XboardError::UnknownVariant(name.to_string()))?;
        self.cancel();
        self.core.variant = v;
        self.core.reset_to_start();
        self.send_setup();
        self.restart_analysis();
        Ok(())
    }

    /// `setboard FEN`.
    fn set_board(&mut self, fen: &str) -> Result<(), XboardError> {
        let pos = G::from_fen(self.core.variant, fen).map_err(|e| {
            self.say("tellusererror Illegal position");
            XboardError::Fen(e)
        })?;
        self.cancel();
        self.core.game = GameLine::new(pos);
        self.restart_analysis();
        Ok(())
    }

    /// `undo` (one move) and `remove` (two).
    fn take_back(&mut self, n: usize) -> Result<(), XboardError> {
        self.cancel();
        if self.core.game.moves().len() < n {
            return Err(XboardError::NothingToTakeBack);
        }
        for _ in 0..n {
            self.core.game.pop();
        }
        self.restart_analysis();
        Ok(())
    }

    /// `memory MB`: the hash size (`Hash`), within the server's budget.
    fn set_memory(&mut self, mb: u64) -> Result<(), XboardError> {
        let want = mb.clamp(1, MAX_HASH_MB as u64) as i64;
        self.apply("Hash", OptionValue::Int(want))
    }

    /// `cores N`: the search threads (`Threads`).
    fn set_cores(&mut self, n: u32) -> Result<(), XboardError> {
        self.apply("Threads", OptionValue::Int(n.min(1 << 20).into()))
    }

    /// Sets an option that an XBoard command of its own stands for; a refusal changed nothing
    /// and is reported as the command's error.
    fn apply(&mut self, name: &str, value: OptionValue) -> Result<(), XboardError> {
        let reply = self.core.settings.apply(name, value)?;
        if let Some(note) = self.core.carry_out(reply)? {
            self.say(&format!("# {note}"));
        }
        Ok(())
    }

    fn features(&self) {
        let variants: Vec<&str> = G::variants().iter().map(|v| G::xboard_name(v)).collect();
        self.core.out.lines(&[
            "feature done=0".to_string(),
            format!(
                "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 sigint=0 \
                 sigterm=0 analyze=1 colors=0 playother=1 time=1 memory=1 reuse=1 san=0 \
                 draw=0 name=1 debug=0 exclude=0 smp=1 nps=0",
                engine_name::<G>(),
                variants.join(",")
            ),
        ]);
        let options: Vec<String> = self
            .core
            .settings
            .declarations(Dialect::Xboard, self.core.engine.hash_mb())
            .iter()
            .map(|(name, kind)| format!("feature option=\"{}\"", feature_option(name, kind)))
            .collect();
        self.core.out.lines(&options);
        self.core.out.line("feature done=1");
    }

    /// `option NAME=VALUE` (`option NAME` for a button): the value is checked against the
    /// advertised option, then applied; a bad name or value changes nothing.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), XboardError> {
        if let Some(note) = self.core.set_option(Dialect::Xboard, name, value)? {
            self.say(&format!("# {note}"));
        }
        Ok(())
    }

    /// `hint`: `Hint: MOVE`, the reply the last search expected to the engine's move, else the
    /// best move of a running analysis, else that of a short search. Silent when the engine is
    /// thinking about its own move or there is no legal move.
    fn hint(&mut self) {
        if self.job.as_ref().is_some_and(|(k, _)| *k == JobKind::Think) {
            return;
        }
        let analysed = if self.analyzing {
            lock(&self.last_info)
                .as_ref()
                .and_then(|i| i.pv.first().copied())
        } else {
            None
        };
        let hash = self.core.game.current().hash();
        let expected = self
            .expected_reply
            .and_then(|(h, mv)| (h == hash).then_some(mv));
        let known = analysed
            .or(expected)
            .filter(|&mv| self.core.game.is_legal(mv));
        let mv = match known {
            Some(mv) => Some(mv),
            None if self.job.is_none() && !legal_moves(self.core.game.current()).is_empty() => {
                self.short_search()
            }
            None => None,
        };
        if let Some(mv) = mv {
            self.say(&format!("Hint: {}", self.core.game.current().move_text(mv)));
        }
    }

    /// The best move of a search of [`HINT_TIME`] on the current position.
    fn short_search(&mut self) -> Option<crate::board::Move> {
        let root = self.core.game.current().clone();
        let history = self.core.game.history();
        let limits = Limits {
            movetime: Some(HINT_TIME),
            game: self.core.settings.game.clone(),
            ..Limits::default()
        };
        self.core.engine.spawn(
            false,
            Box::new(move |searcher, control| {
                let result = safe_search(searcher, &root, &history, &limits, control, &mut |_| {});
                Some(result.best).filter(|m| !m.is_null())
            }),
        );
        self.core.engine.wait()
    }

    /// The `setup` (and `piece`) lines that teach XBoard the current variant, if any, once
    /// per game and variant.
    fn send_setup(&mut self) {
        if self.setup_sent == Some(self.core.variant) {
            return;
        }
        self.setup_sent = Some(self.core.variant);
        let lines = self.core.game.current().xboard_setup();
        if !lines.is_empty() {
            self.core.out.lines(&lines);
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.job.as_ref().is_some_and(|(k, _)| *k == JobKind::Think) {
            self.say(&format!("Illegal move (it is the engine's turn): {text}"));
            return;
        }
        self.cancel();
        if let Err(e) = self.core.game.push_text(text) {
            log::info!("illegal move {text}: {e}");
            self.say(&format!("Illegal move: {text}"));
            self.restart_analysis();
            return;
        }
        if self.analyzing {
            self.restart_analysis();
            return;
        }
        if let Some((outcome, why)) = self.core.game.outcome() {
            self.say(&format!("{} {{{why}}}", outcome.result_string()));
            return;
        }
        self.think_if_our_turn(false);
    }

    /// Records the engine's move once the search thread has announced it.
    fn collect(&mut self) {
        let Some((kind, announce)) = &self.job else {
            return;
        };
        let done =
            self.core.engine.finished() || (*kind == JobKind::Think && lock(announce).announced);
        if done {
            self.finish_job();
        }
    }

    /// Waits for the job (which has ended or is ending) and records an announced move.
    fn finish_job(&mut self) {
        if let Some((kind, announce)) = self.job.take() {
            let announced = self.core.engine.wait();
            if let (JobKind::Think, Some(mv)) = (kind, announced)
                && self.core.game.is_legal(mv)
            {
                self.core.game.push(mv);
                let hash = self.core.game.current().hash();
                self.expected_reply = lock(&announce).ponder.map(|m| (hash, m));
            }
        }
    }

    /// Ends the running job: a thinking search that has not announced its move is
    /// abandoned (its move is never sent); one that has is recorded.
    fn cancel(&mut self) {
        if let Some((_, announce)) = &self.job {
            lock(announce).cancelled = true;
            self.core.engine.stop();
        }
        self.finish_job();
    }

    fn restart_analysis(&mut self) {
        if !self.analyzing {
            return;
        }
        self.cancel();
        if legal_moves(self.core.game.current()).is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            tablebase: self.core.settings.tablebase_config(),
            solver_share: self.core.settings.solver_share,
            game: self.core.settings.game.clone(),
            ..Limits::default()
        };
        self.start_job(JobKind::Analyze, limits);
    }

    /// Starts thinking if the engine is to move (or `go` said so).
    fn think_if_our_turn(&mut self, forced: bool) {
        let pos = self.core.game.current();
        if self.force || self.analyzing || (!forced && pos.side_to_move() != self.engine_side) {
            return;
        }
        if let Some((outcome, why)) = self.core.game.outcome() {
            self.say(&format!("{} {{{why}}}", outcome.result_string()));
            return;
        }
        let limits = self.limits();
        self.start_job(JobKind::Think, limits);
    }

    /// The search limits from the clock settings.
    fn limits(&self) -> Limits {
        let c = &self.clock;
        let us = self.core.game.current().side_to_move().index();
        let mut limits = Limits {
            depth: c.depth,
            move_overhead: self.core.settings.move_overhead,
            tablebase: self.core.settings.tablebase_config(),
            solver_share: self.core.settings.solver_share,
            game: self.core.settings.game.clone(),
            ..Limits::default()
        };
        if let Some(t) = c.per_move {
            // `st 0` (Cute Chess's `st=0.5` in whole seconds) leaves the time per move to the
            // `time` command that comes with every move.
            limits.movetime = Some(match c.own {
                Some(own) if t.is_zero() => own,
                _ => t,
            });
        } else {
            limits.time[us] = Some(c.own.unwrap_or(c.base));
            limits.time[1 - us] = Some(c.other.unwrap_or(c.base));
            limits.inc = [c.inc, c.inc];
            if c.moves > 0 {
                let done = (self.core.game.moves().len() / 2) as u32;
                limits.movestogo = Some(c.moves - done % c.moves);
            }
        }
        limits
    }

    fn start_job(&mut self, kind: JobKind, limits: Limits) {
        let announce = Arc::new(Mutex::new(Announce::default()));
        let game = self.core.game.clone();
        let root = game.current().clone();
        let history = game.history();
        let out = self.core.out.clone();
        let post = self.post || kind == JobKind::Analyze;
        let last_info = Arc::clone(&self.last_info);
        *lock(&last_info) = None;
        let shared = Arc::clone(&announce);
        let start = Instant::now();
        self.job_start = start;
        let threads = self.core.settings.threads;
        // OwnBook: a legal book move is played at once, without a search.
        let book = match kind {
            JobKind::Think => self.core.settings.book.probe(&root),
            _ => None,
        };
        let strength = match kind {
            JobKind::Think => self.core.settings.strength.strength(),
            _ => None,
        };
        self.core.engine.spawn_with(
            false,
            kind == JobKind::Think,
            Box::new(move |searcher, control| {
                searcher.set_threads(threads);
                searcher.set_strength(strength);
                let mut on_info = |info: &Info| {
                    if let Some(note) = &info.note {
                        out.line(&format!("# {note}"));
                    }
                    if post {
                        out.line(&thinking_line(&root, info));
                    }
                    // Nobody reads any more (stdout closed, client gone): stop.
                    if out.is_broken() {
                        control.stop.store(true, Ordering::SeqCst);
                    }
                    *lock(&last_info) = Some(info.clone());
                };
                let result = match book {
                    Some((best, text)) => {
                        out.line(&format!("# {text}"));
                        SearchResult {
                            best,
                            ponder: None,
                            score: Score::Cp(0),
                            depth: 0,
                            nodes: 0,
                        }
                    }
                    None => safe_search(searcher, &root, &history, &limits, control, &mut on_info),
                };
                if kind == JobKind::Analyze {
                    return None;
                }
                let mut a = lock(&shared);
                if a.cancelled || result.best.is_null() {
                    return None;
                }
                let mut game = game;
                game.push(result.best);
                let mut lines = vec![format!("move {}", root.move_text(result.best))];
                if let Some((outcome, why)) = game.outcome() {
                    lines.push(format!("{} {{{why}}}", outcome.result_string()));
                }
                out.lines(&lines);
                a.announced = true;
                a.ponder = result.ponder;
                log::debug!(
                    "moved {} after {:.3} s",
                    root.move_text(result.best),
                    start.elapsed().as_secs_f64()
                );
                let _ = control.stop.load(Ordering::Relaxed);
                Some(result.best)
            }),
        );
        self.job = Some((kind, announce));
    }

    /// `.` in analyze mode: `stat01: time nodes depth movesleft movestotal move`.
    fn status(&self) {
        if !self.analyzing {
            return;
        }
        let info = lock(&self.last_info).clone();
        let total = legal_moves(self.core.game.current()).len();
        let cs = self.job_start.elapsed().as_millis() / 10;
        match info {
            Some(i) => {
                let pv = pv_text(self.core.game.current(), &i.pv);
                self.say(&format!(
                    "stat01: {cs} {} {} 0 {total} {}",
                    i.nodes,
                    i.depth,
                    pv.first().map_or("", String::as_str)
                ));
            }
            None => self.say(&format!("stat01: {cs} 0 0 {total} {total}")),
        }
    }
}

/// How long `hint` searches when it has no move at hand.
const HINT_TIME: Duration = Duration::from_millis(200);

/// The text of `feature option="…"`: `NAME -spin DEFAULT MIN MAX`, `NAME -check 0|1`,
/// `NAME -button`, `NAME -combo A /// *B` (the default starred), `NAME -string TEXT` (`-file`,
/// `-path` for file and directory names).
fn feature_option(name: &str, kind: &OptionKind) -> String {
    match kind {
        OptionKind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("{name} -check {}", u8::from(*default)),
        OptionKind::Button => format!("{name} -button"),
        OptionKind::Combo { default, choices } => {
            let choices: Vec<String> = choices
                .iter()
                .map(|c| {
                    let star = if c == default { "*" } else { "" };
                    format!("{star}{c}")
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        OptionKind::Text { default, form } => {
            let form = match form {
                TextForm::Plain => "string",
                TextForm::File => "file",
                TextForm::Path => "path",
            };
            format!("{name} -{form} {default}")
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The largest clock `time` and `otim` accept: a year, in centiseconds (more is refused,
/// not wrapped around or taken as endless).
const MAX_CLOCK_CS: i64 = 365 * 24 * 3600 * 100;

fn centis(cs: i64) -> Duration {
    Duration::from_millis(cs.clamp(0, MAX_CLOCK_CS) as u64 * 10)
}

/// The variant named `name` by XBoard: its XBoard name or our name, case-insensitive, also
/// with a board-size prefix such as `5x5+0_` that XBoard adds to engine-defined variants.
fn find_variant<G: Game>(name: &str) -> Option<&'static str> {
    let bare = match name.split_once('_') {
        Some((prefix, rest)) if prefix.contains('x') && prefix.contains('+') => rest,
        _ => name,
    };
    G::variants()
        .iter()
        .copied()
        .find(|v| G::xboard_name(v).eq_ignore_ascii_case(bare) || v.eq_ignore_ascii_case(bare))
}

/// A thinking line: `depth score time(cs) nodes pv`; mate scores as ±(100000 + moves).
fn thinking_line<G: Game>(root: &G, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n >= 0 => 100000 + n,
        Score::Mate(n) => -100000 + n,
    };
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time.as_millis() / 10,
        info.nodes,
        pv_text(root, &info.pv).join(" ")
    )
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::pawns::Pawns;

    #[test]
    fn commands_parse() {
        assert_eq!(
            parse("level 40 5 0"),
            Ok(Command::Level {
                moves: 40,
                base: Duration::from_secs(300),
                inc: Duration::ZERO
            })
        );
        assert_eq!(
            parse("level 0 2:30 1.5"),
            Ok(Command::Level {
                moves: 0,
                base: Duration::from_secs(150),
                inc: Duration::from_millis(1500)
            })
        );
        assert_eq!(parse("time 12345"), Ok(Command::Time(12345)));
        assert_eq!(parse("usermove a1a2"), Ok(Command::UserMove("a1a2")));
        assert_eq!(parse("a1a2"), Ok(Command::UserMove("a1a2")));
        assert_eq!(parse("ping 7"), Ok(Command::Ping(7)));
        assert_eq!(
            parse("setboard 3/3/PPP w - - 0 1"),
            Ok(Command::SetBoard("3/3/PPP w - - 0 1"))
        );
        assert_eq!(
            parse("result 1-0 {White wins}"),
            Ok(Command::Result("1-0 {White wins}"))
        );
        let bad = |cmd: &str| Err(XboardError::BadArgument(cmd.to_string()));
        assert_eq!(parse("level 40 x 0"), bad("level"));
        assert_eq!(parse("sd"), bad("sd"));
        assert_eq!(parse("memory -1"), bad("memory"));
        assert_eq!(parse("cores two"), bad("cores"));
        assert_eq!(parse("time 1.5"), bad("time"));
        assert_eq!(
            parse("frobnicate"),
            Err(XboardError::UnknownCommand("frobnicate".into()))
        );
        assert_eq!(
            parse("new now"),
            Err(XboardError::UnexpectedArgument("new".into()))
        );
        assert_eq!(parse("setboard"), Err(XboardError::MissingFen));
        assert_eq!(parse("option"), Err(XboardError::OptionSyntax));
    }

    fn session() -> Session<Pawns> {
        let mut s = Session::new(
            &Output::new(Vec::new()),
            &SessionConfig {
                hash_mb: 1,
                ..SessionConfig::default()
            },
        )
        .unwrap();
        s.post = false;
        s.core.select_variant("pawns5").unwrap();
        s
    }

    #[test]
    fn clock_commands_become_limits() {
        let mut s = session();
        for c in [
            "level 40 5 2",
            "time 6000",
            "otim 3000",
            "force",
            "usermove a1a2",
        ] {
            assert!(s.command(c));
        }
        // Black (the engine's side after `usermove`) to move with 60 s, White has 30 s.
        let l = s.limits();
        assert_eq!(
            l.time,
            [Some(Duration::from_secs(30)), Some(Duration::from_secs(60))]
        );
        assert_eq!(l.inc, [Duration::from_secs(2); 2]);
        assert_eq!(l.movestogo, Some(40));
        assert_eq!(l.movetime, None);
        assert!(s.command("st 3"));
        assert!(s.command("sd 7"));
        let l = s.limits();
        assert_eq!(
            (l.movetime, l.depth),
            (Some(Duration::from_secs(3)), Some(7))
        );
        assert_eq!(l.time, [None, None]);
        assert!(s.command("option Move Overhead=250"));
        assert_eq!(s.limits().move_overhead, Duration::from_millis(250));
        // `new` forgets st and sd.
        assert!(s.command("new"));
        let l = s.limits();
        assert_eq!((l.movetime, l.depth), (None, None));
        assert!(!s.command("quit"));
    }

    #[test]
    fn st_zero_takes_the_time_per_move_from_time() {
        // Cute Chess with `st=0.5`: `st 0`, then `time 50` before every move.
        let mut s = session();
        for c in ["st 0", "time 50"] {
            assert!(s.command(c));
        }
        assert_eq!(s.limits().movetime, Some(Duration::from_millis(500)));
        assert!(s.command("st 2"));
        assert_eq!(s.limits().movetime, Some(Duration::from_secs(2)));
    }

    #[test]
    fn options_in_xboard_form() {
        let s = session();
        let text: Vec<String> = s
            .core
            .settings
            .declarations(Dialect::Xboard, 16)
            .iter()
            .map(|(name, kind)| feature_option(name, kind))
            .collect();
        assert_eq!(
            &text[..3],
            [
                "Hash -spin 16 1 65536",
                "Clear Hash -button",
                "Move Overhead -spin 10 0 5000"
            ]
        );
        let combo = OptionKind::Combo {
            default: "b",
            choices: vec!["a", "b"],
        };
        assert_eq!(feature_option("Style", &combo), "Style -combo a /// *b");
        let check = OptionKind::Check { default: true };
        assert_eq!(feature_option("Flag", &check), "Flag -check 1");
        let path = OptionKind::Text {
            default: "<empty>",
            form: TextForm::Path,
        };
        assert_eq!(feature_option("Dir", &path), "Dir -path <empty>");
        assert_eq!(
            parse("option Move Overhead=30"),
            Ok(Command::Option {
                name: "Move Overhead",
                value: Some("30")
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(Command::Option {
                name: "Clear Hash",
                value: None
            })
        );
    }

    #[test]
    fn variant_names_with_size_prefix() {
        assert_eq!(find_variant::<Pawns>("pawns5"), Some("pawns5"));
        assert_eq!(find_variant::<Pawns>("5x5+0_pawns5"), Some("pawns5"));
        assert_eq!(find_variant::<Pawns>("normal"), None);
    }

    #[test]
    fn huge_clocks_are_refused_not_wrapped() {
        let mut s = session();
        assert!(s.command("time 6000"));
        // …162 × 10 ms wrapped to 4 ms; …161 became an endless clock.
        for cs in [
            "1844674407370955162",
            "1844674407370955161",
            "9223372036854775807",
        ] {
            assert!(s.command(&format!("time {cs}")));
            assert!(s.command(&format!("otim {cs}")));
        }
        assert!(s.command("force"));
        assert!(s.command("usermove a1a2"));
        assert_eq!(s.limits().time[1], Some(Duration::from_secs(60)));
        assert_eq!(
            centis(i64::MAX),
            Duration::from_millis(MAX_CLOCK_CS as u64 * 10)
        );
    }
}
