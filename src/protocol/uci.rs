//! UCI: the command loop, options, `position`, `go` (search and perft) and the output lines.
//!
//! Commands are read with vampirc-uci (`uci`, `isready`, `setoption`, `ucinewgame`, `stop`,
//! `ponderhit`, `quit`, `debug`) and the option lines are written with it. Two commands go
//! their own way because the crate's grammar cannot carry them: `position` (its FEN grammar
//! knows only 8×8 boards, and it silently drops moves it cannot read, where we must name the
//! first illegal one) and `go` (it loses `ponder` next to clock parameters, panics on numbers
//! above 255 for `depth`/`movestogo`, and knows no `perft`).

use std::io::BufRead;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use vampirc_uci::{UciMessage, UciOptionConfig};

use super::error::{GoError, PositionError};
use super::options::{Dialect, Settings};
use super::session::Core;
use super::{
    End, GameLine, LineHandler, LineReader, MAX_MESSAGE, Output, SessionConfig, drive, engine_name,
    foreign_move, legal_moves, nps, pv_text, safe_search, shorten, shorten_to,
};
use crate::board::Move;
use crate::engine_option::OptionKind;
use crate::game::Game;
use crate::perft;
use crate::search::{CurrMove, Info, Limits, Score};

/// Whether `word` starts a UCI command (used to pick the protocol from the first line).
pub fn is_uci_command(word: &str) -> bool {
    matches!(
        word,
        "uci" | "isready" | "position" | "go" | "setoption" | "ucinewgame" | "debug"
    )
}

/// The `option name …` lines `dialect` (UCI or the N-seat one) lists, in order
/// ([`Settings::declarations`]); `hash_mb` is the Hash option's current value.
pub(crate) fn option_lines(settings: &Settings, dialect: Dialect, hash_mb: usize) -> Vec<String> {
    settings
        .declarations(dialect, hash_mb)
        .into_iter()
        .map(|(name, kind)| UciMessage::Option(uci_option(name, kind)).to_string())
        .collect()
}

/// An option in vampirc-uci's form, which writes the `option name …` line.
fn uci_option(name: &str, kind: OptionKind) -> UciOptionConfig {
    let name = name.to_string();
    match kind {
        OptionKind::Check { default } => UciOptionConfig::Check {
            name,
            default: Some(default),
        },
        OptionKind::Spin { default, min, max } => UciOptionConfig::Spin {
            name,
            default: Some(default),
            min: Some(min),
            max: Some(max),
        },
        OptionKind::Combo { default, choices } => UciOptionConfig::Combo {
            name,
            default: Some(default.to_string()),
            var: choices.iter().map(|c| c.to_string()).collect(),
        },
        OptionKind::Button => UciOptionConfig::Button { name },
        OptionKind::Text { default, .. } => UciOptionConfig::String {
            name,
            default: Some(default.to_string()),
        },
    }
}

/// One UCI session state: the shared [`Core`] and UCI's own.
struct Session<G: Game> {
    core: Core<G>,
    /// `debug on`: each search ends with an `info string stats …` line ([`Stats::summary`]).
    debug: bool,
    /// Why the last `position` is not of this engine's game ([`foreign_move`]): `go` then
    /// answers `bestmove (none)` instead of a move of another position.
    foreign: Option<String>,
    /// Whether this game (since `ucinewgame`) was already told that it is foreign.
    told_foreign: bool,
}

impl<G: Game> Session<G> {
    fn new(out: &Output, config: &SessionConfig) -> Result<Session<G>, String> {
        Ok(Session {
            core: Core::new(out, config)?,
            debug: false,
            foreign: None,
            told_foreign: false,
        })
    }
}

/// Runs a UCI session on `reader`; `first` is the line that chose UCI.
pub fn run<G: Game, R: BufRead>(
    reader: &mut LineReader<R>,
    out: &Output,
    config: &SessionConfig,
    first: &str,
) {
    let mut s = match Session::<G>::new(out, config) {
        Ok(s) => s,
        Err(e) => {
            out.line(&format!("info string error: no start position: {e}"));
            return;
        }
    };
    // At the end of input a search with a limit still answers (unless the client is gone).
    let end = drive(reader, out, first, &mut s);
    s.core
        .engine
        .finish(end == End::Eof && config.finish_at_eof && !out.is_broken());
}

impl<G: Game> LineHandler for Session<G> {
    fn command(&mut self, line: &str) -> bool {
        Session::command(self, line)
    }

    fn read_error(&mut self, error: &str) {
        self.error(error);
    }
}

impl<G: Game> Session<G> {
    fn say(&self, text: &str) {
        self.core.out.line(text);
    }

    fn error(&self, text: &str) {
        let text = shorten_to(text, MAX_MESSAGE);
        log::info!("error: {text}");
        self.say(&format!("info string error: {text}"));
    }

    /// Handles one line; false when the session ends.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return true;
        };
        // Collect a search that ended by itself, so its searcher is back.
        if self.core.engine.finished() {
            self.core.engine.wait();
        }
        match word {
            "position" => {
                self.position(line);
                return true;
            }
            "go" => {
                self.go(line);
                return true;
            }
            // Non-standard conveniences: `d` shows the position, `fen` prints it.
            "d" => {
                for l in self.core.game.current().pretty().lines() {
                    self.say(&format!("info string {l}"));
                }
                self.say(&format!(
                    "info string fen {}",
                    self.core.game.current().fen()
                ));
                return true;
            }
            _ => {}
        }
        let msg = catch_unwind(AssertUnwindSafe(|| vampirc_uci::parse_one(line)))
            .unwrap_or_else(|_| UciMessage::Unknown(line.to_string(), None));
        match msg {
            UciMessage::Uci => self.identify(),
            UciMessage::IsReady => self.say("readyok"),
            UciMessage::Debug(on) => self.debug = on,
            UciMessage::Register { .. } => {}
            UciMessage::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciMessage::UciNewGame => {
                self.core.engine.stop_and_wait();
                self.core.engine.clear();
                self.core.reset_to_start();
                self.told_foreign = false;
            }
            UciMessage::Stop => self.core.engine.stop(),
            UciMessage::PonderHit => match self.core.engine.control() {
                Some(c) => c.pondering.store(false, Ordering::SeqCst),
                None => log::debug!("ponderhit without a search"),
            },
            UciMessage::Quit => return false,
            _ => self.error(&format!("unknown command '{}'", shorten(line))),
        }
        true
    }

    fn identify(&self) {
        let options = option_lines(
            &self.core.settings,
            Dialect::Uci,
            self.core.engine.hash_mb(),
        );
        let mut lines = vec![
            UciMessage::Id {
                name: Some(engine_name::<G>()),
                author: None,
            }
            .to_string(),
            UciMessage::Id {
                name: None,
                author: Some(super::AUTHOR.to_string()),
            }
            .to_string(),
        ];
        lines.extend(options);
        lines.push(UciMessage::UciOk.to_string());
        self.core.out.lines(&lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.core.set_option(Dialect::Uci, name, value) {
            Ok(Some(note)) => self.say(&format!("info string {note}")),
            Ok(None) => {}
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// `position startpos|fen FEN [moves …]`. A bad FEN leaves the position unchanged; an
    /// illegal move keeps the moves before it.
    fn position(&mut self, line: &str) {
        let (start, moves) = match parse_setup(line, self.core.variant) {
            Ok(setup) => setup,
            Err(e) => return self.error(&e.to_string()),
        };
        let mut game = GameLine::new(start);
        self.foreign = None;
        for text in moves.split_whitespace() {
            if let Err(source) = game.push_text(text) {
                if let Some(why) = foreign_move(game.current(), text) {
                    // Said once a game: the GUI sends the same moves again at every turn.
                    if !self.told_foreign {
                        self.say(&format!(
                            "info string {why}; no move until a position of it"
                        ));
                        log::warn!("{why}");
                        self.told_foreign = true;
                    }
                    self.foreign = Some(why);
                    break;
                }
                let e = PositionError::Move {
                    text: text.to_string(),
                    played: game.moves().len(),
                    source,
                };
                self.error(&e.to_string());
                break;
            }
        }
        self.core.game = game;
    }

    /// `go …`: a search on the search thread, or `go perft N` at once.
    fn go(&mut self, line: &str) {
        let params = match parse_go(line, self.core.game.current()) {
            Ok(p) => p,
            Err(e) => return self.error(&e.to_string()),
        };
        // A `go` during a search: finish that one first (its bestmove comes first).
        self.core.engine.stop_and_wait();
        if let Some(depth) = params.perft {
            return self.perft(depth);
        }
        if let Some(why) = &self.foreign {
            // Another game's position: no move of this one can be right.
            log::info!("go on a foreign position: {why}");
            return self.say("bestmove (none)");
        }
        let mut limits = params.limits;
        // OwnBook: a legal book move is played at once, without a search.
        if let Some((mv, text)) =
            self.core
                .settings
                .book
                .probe_go(self.core.game.current(), &limits, params.ponder)
        {
            self.say(&format!("info string {text}"));
            return self.say(&bestmove_line(self.core.game.current(), mv, None));
        }
        let settings = &mut self.core.settings;
        limits.move_overhead = settings.move_overhead;
        limits.tablebase = settings.tablebase_config();
        limits.solver_share = settings.solver_share;
        limits.game = settings.game.clone();
        let root = self.core.game.current().clone();
        let history = self.core.game.history();
        let out = self.core.out.clone();
        let infinite = limits.infinite;
        // A search with a limit ends by itself (and may finish at the end of input).
        let side = root.side_to_move().index();
        let finite = !infinite
            && !params.ponder
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.movetime.is_some()
                || limits.time[side].is_some());
        let (threads, multipv, wdl) = (settings.threads, settings.multipv, settings.show_wdl);
        let strength = settings.strength.strength();
        let debug = self.debug;
        for e in &params.errors {
            self.error(&e.to_string());
        }
        self.core.engine.spawn_with(
            params.ponder,
            finite,
            Box::new(move |searcher, control| {
                searcher.set_threads(threads);
                searcher.set_multipv(multipv);
                searcher.set_strength(strength);
                // `debug on`: the root move being searched, once the search is a second old.
                searcher.set_currmove_report(debug.then(|| {
                    let (out, root) = (out.clone(), root.clone());
                    Arc::new(move |depth, mv, number| {
                        out.line(&format!(
                            "info depth {depth} currmove {} currmovenumber {number}",
                            root.move_text(mv)
                        ));
                    }) as CurrMove
                }));
                let show = InfoStyle {
                    multipv: multipv > 1,
                    wdl,
                };
                let mut on_info = |info: &Info| {
                    if let Some(note) = &info.note {
                        out.line(&format!("info string {note}"));
                    }
                    out.line(&info_line(&root, info, show));
                    // Nobody reads any more (stdout closed, client gone): stop.
                    if out.is_broken() {
                        control.stop.store(true, Ordering::SeqCst);
                    }
                };
                let result = safe_search(searcher, &root, &history, &limits, control, &mut on_info);
                // UCI: after `go infinite` or `go ponder` the bestmove waits for `stop`
                // (or `ponderhit`), even when the search has nothing more to do.
                while !control.stop.load(Ordering::SeqCst)
                    && !out.is_broken()
                    && (infinite || control.pondering.load(Ordering::SeqCst))
                {
                    std::thread::sleep(Duration::from_millis(2));
                }
                if debug {
                    out.line(&format!(
                        "info string stats {}",
                        searcher.last_stats().summary()
                    ));
                }
                out.line(&bestmove_line(&root, result.best, result.ponder));
                Some(result.best)
            }),
        );
    }

    /// `go perft N` on the search thread: `stop`, `quit`, the end of input and the
    /// session's ceiling end it (with `info string perft … stopped` instead of the counts).
    fn perft(&mut self, depth: u32) {
        let pos = self.core.game.current().clone();
        let out = self.core.out.clone();
        self.core.engine.spawn(
            false,
            Box::new(move |_, control| {
                let start = Instant::now();
                let Some(divide) = perft::divide_until(&pos, depth, &control.stop) else {
                    out.line(&format!("info string perft {depth} stopped"));
                    log::info!("perft {depth} stopped");
                    return None;
                };
                let total: u64 = if depth == 0 {
                    1
                } else {
                    divide.iter().map(|(_, n)| n).sum()
                };
                let mut lines: Vec<String> = divide
                    .iter()
                    .map(|(mv, n)| format!("{}: {n}", pos.move_text(*mv)))
                    .collect();
                lines.push(String::new());
                lines.push(format!("Nodes searched: {total}"));
                lines.push(String::new());
                out.lines(&lines);
                log::info!(
                    "perft {depth}: {total} nodes in {:.3} s",
                    start.elapsed().as_secs_f64()
                );
                None
            }),
        );
    }
}

/// The start of a `position` line (`startpos` or `fen FEN` in `variant`) and the text of its
/// moves (empty when there are none).
fn parse_setup<'a, G: Game>(
    line: &'a str,
    variant: &'static str,
) -> Result<(G, &'a str), PositionError> {
    let rest = line.trim_start()["position".len()..].trim();
    // `moves` must be a word of its own: `movese2e4` is not `moves e2e4`.
    let keyword = rest.match_indices("moves").map(|(i, _)| i).find(|&i| {
        let before = rest[..i].chars().next_back();
        let after = rest[i + "moves".len()..].chars().next();
        before.is_none_or(char::is_whitespace) && after.is_none_or(char::is_whitespace)
    });
    let (setup, moves) = match keyword {
        Some(i) => (rest[..i].trim(), rest[i + "moves".len()..].trim()),
        None => (rest, ""),
    };
    let mut words = setup.split_whitespace();
    let start = match words.next() {
        Some("startpos") if words.next().is_some() => {
            return Err(PositionError::AfterStartpos(line.to_string()));
        }
        Some("startpos") => G::startpos(variant).map_err(PositionError::Start)?,
        Some("fen") => {
            let fen = setup["fen".len()..].trim();
            G::from_fen(variant, fen).map_err(|source| PositionError::Fen {
                fen: fen.to_string(),
                source,
            })?
        }
        _ => return Err(PositionError::Syntax(line.to_string())),
    };
    Ok((start, moves))
}

/// What a `go` line asks for.
#[derive(Debug, Default)]
struct GoParams {
    limits: Limits,
    ponder: bool,
    perft: Option<u32>,
    /// Complaints that do not stop the search (an illegal `searchmoves` move is dropped).
    errors: Vec<GoError>,
}

/// Largest `go perft` depth accepted (deeper would run for days).
const MAX_PERFT_DEPTH: u32 = 30;

/// Parses `go` and its parameters for a search from `pos`. Negative clock times count as zero.
fn parse_go<G: Game>(line: &str, pos: &G) -> Result<GoParams, GoError> {
    let mut p = GoParams::default();
    let mut words = line.split_whitespace().skip(1).peekable();
    while let Some(word) = words.next() {
        let mut number = |what: &str| -> Result<i64, GoError> {
            let v = words
                .next()
                .ok_or_else(|| GoError::MissingValue(what.to_string()))?;
            v.parse::<i64>().map_err(|_| GoError::BadNumber {
                what: what.to_string(),
                text: v.to_string(),
            })
        };
        let ms = |n: i64| Duration::from_millis(n.max(0) as u64);
        match word {
            "wtime" => p.limits.time[0] = Some(ms(number(word)?)),
            "btime" => p.limits.time[1] = Some(ms(number(word)?)),
            "winc" => p.limits.inc[0] = ms(number(word)?),
            "binc" => p.limits.inc[1] = ms(number(word)?),
            "movestogo" => {
                p.limits.movestogo = Some(number(word)?.clamp(1, u32::MAX as i64) as u32)
            }
            "depth" => p.limits.depth = Some(number(word)?.clamp(1, 1000) as u32),
            "nodes" => p.limits.nodes = Some(number(word)?.max(1) as u64),
            "movetime" => p.limits.movetime = Some(ms(number(word)?)),
            "mate" => p.limits.mate = Some(number(word)?.clamp(1, 500) as u32),
            "infinite" => p.limits.infinite = true,
            "ponder" => p.ponder = true,
            "perft" => p.perft = Some(perft_depth(number(word)?)?),
            "searchmoves" => {
                while let Some(text) = words.next_if(|w| !is_go_keyword(w)) {
                    match pos.parse_move(text) {
                        Ok(mv) => p.limits.searchmoves.push(mv),
                        Err(source) => p.errors.push(GoError::IgnoredMove {
                            text: text.to_string(),
                            source,
                        }),
                    }
                }
            }
            other => return Err(GoError::UnknownToken(other.to_string())),
        }
    }
    Ok(p)
}

/// The depth of `go perft N`, from 0 to [`MAX_PERFT_DEPTH`].
fn perft_depth(n: i64) -> Result<u32, GoError> {
    if !(0..=MAX_PERFT_DEPTH as i64).contains(&n) {
        return Err(GoError::OutOfRange {
            what: "perft".to_string(),
            value: n,
            min: 0,
            max: MAX_PERFT_DEPTH as i64,
        });
    }
    Ok(n as u32)
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "movetime"
            | "mate"
            | "infinite"
            | "ponder"
            | "perft"
            | "searchmoves"
    )
}

/// What an `info` line shows besides the usual.
#[derive(Clone, Copy, Debug, Default)]
struct InfoStyle {
    /// `multipv k` (when more than one line is searched).
    multipv: bool,
    /// `wdl W D L` (`UCI_ShowWDL`, for games with a model).
    wdl: bool,
}

/// `info depth … pv …` for one iteration (and principal variation).
fn info_line<G: Game>(root: &G, info: &Info, style: InfoStyle) -> String {
    let multipv = if style.multipv {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    let mut score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    if style.wdl
        && let Some(model) = G::WDL
    {
        let [w, d, l] = match info.score {
            Score::Cp(cp) => model.per_mille(cp),
            Score::Mate(n) if n > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
        };
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let mut s = format!(
        "info depth {} seldepth {}{multipv} score {score} nodes {} nps {} time {} hashfull {} tbhits {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.nodes,
        nps(info.nodes, info.time),
        info.time.as_millis(),
        info.hashfull,
        info.tbhits
    );
    let pv = pv_text(root, &info.pv);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// `bestmove X [ponder Y]`; `bestmove (none)` when the position has no legal move.
fn bestmove_line<G: Game>(root: &G, best: Move, ponder: Option<Move>) -> String {
    if best.is_null() || !legal_moves(root).contains(&best) {
        return "bestmove (none)".to_string();
    }
    let mut s = format!("bestmove {}", root.move_text(best));
    if let Some(p) = ponder {
        let next = root.play(best);
        if legal_moves(&next).contains(&p) {
            s.push_str(&format!(" ponder {}", next.move_text(p)));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chess::Chess;

    fn start() -> Chess {
        Chess::startpos("chess").unwrap()
    }

    use crate::games::pawns::Pawns;

    /// A writer whose every write fails, like a closed stdout.
    struct Closed;
    impl std::io::Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_stops_go_infinite() {
        // Before: the search spun until the next command arrived.
        let mut s = Session::<Pawns>::new(
            &Output::new(Closed),
            &SessionConfig {
                hash_mb: 1,
                ..SessionConfig::default()
            },
        )
        .unwrap();
        assert!(s.command("go infinite"));
        let deadline = Instant::now() + Duration::from_secs(20);
        while !s.core.engine.finished() {
            assert!(Instant::now() < deadline, "the search goes on for nobody");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn go_parameters() {
        let p = parse_go(
            "go ponder wtime 1000 btime -5 winc 10 binc 20 movestogo 300 depth 300",
            &start(),
        )
        .unwrap();
        assert!(p.ponder);
        assert_eq!(
            p.limits.time,
            [Some(Duration::from_millis(1000)), Some(Duration::ZERO)]
        );
        assert_eq!(
            p.limits.inc,
            [Duration::from_millis(10), Duration::from_millis(20)]
        );
        assert_eq!(p.limits.movestogo, Some(300));
        assert_eq!(p.limits.depth, Some(300));
        assert_eq!(parse_go("go perft 4", &start()).unwrap().perft, Some(4));
        assert!(parse_go("go infinite", &start()).unwrap().limits.infinite);
        assert_eq!(
            parse_go("go mate 3", &start()).unwrap().limits.mate,
            Some(3)
        );
    }

    #[test]
    fn searchmoves_are_read_as_moves_and_bad_ones_reported() {
        let pos = start();
        let p = parse_go("go searchmoves e2e4 h2h3 z9z9 depth 3", &pos).unwrap();
        let expected: Vec<Move> = ["e2e4", "h2h3"]
            .iter()
            .map(|m| pos.parse_move(m).unwrap())
            .collect();
        assert_eq!(p.limits.searchmoves, expected);
        assert_eq!(p.limits.depth, Some(3));
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        assert!(
            matches!(&p.errors[0], GoError::IgnoredMove { text, source: crate::Error::Move(_) }
                if text == "z9z9"),
            "{:?}",
            p.errors
        );
    }

    /// Each way a `go` line can be wrong keeps its own variant, and its UCI sentence.
    #[test]
    fn a_bad_go_says_how_it_is_bad() {
        let err = |line: &str| parse_go(line, &start()).unwrap_err();
        assert_eq!(err("go perft"), GoError::MissingValue("perft".into()));
        assert_eq!(
            err("go depth x"),
            GoError::BadNumber {
                what: "depth".into(),
                text: "x".into()
            }
        );
        assert_eq!(err("go sideways"), GoError::UnknownToken("sideways".into()));
        assert!(matches!(
            err("go perft 31"),
            GoError::OutOfRange {
                value: 31,
                max: 30,
                ..
            }
        ));
        assert_eq!(
            err("go depth x").to_string(),
            "go depth: 'x' is not a number"
        );
        assert_eq!(
            err("go sideways").to_string(),
            "go: unknown parameter 'sideways'"
        );
    }

    /// A `position` line's start: a FEN error keeps the game's typed error inside it.
    #[test]
    fn a_bad_position_says_how_it_is_bad() {
        fn setup(line: &str) -> Result<&str, PositionError> {
            parse_setup::<Chess>(line, "chess").map(|(_, moves)| moves)
        }
        assert_eq!(setup("position startpos moves e2e4"), Ok("e2e4"));
        assert_eq!(setup("position startpos"), Ok(""));
        assert!(matches!(
            setup("position fen 8/8 w"),
            Err(PositionError::Fen {
                source: crate::Error::Position(_),
                ..
            })
        ));
        assert!(matches!(
            setup("position startpos extra"),
            Err(PositionError::AfterStartpos(_))
        ));
        assert!(matches!(
            setup("position sideways"),
            Err(PositionError::Syntax(_))
        ));
        assert!(matches!(
            parse_setup::<Chess>("position startpos", "shogi"),
            Err(PositionError::Start(crate::Error::Variant(_)))
        ));
    }
}
