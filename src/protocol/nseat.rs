//! A UCI-like line protocol for N-seat games ([`NGame`]), spoken by `kiebitz-chamaeleon`.
//!
//! ```text
//! uci                      -> id name …, id author …, option …, uciok
//! isready                  -> readyok (also while searching)
//! setoption name Algorithm value maxn|maxn-is|paranoid|hypermax|brs
//! setoption name Hash value MB          (the range of UCI and XBoard: one option table)
//! setoption name Clear Hash
//! ucinewgame
//! position startpos [players N] [moves M…]      (N defaults to the game's most players)
//! position fen TEXT [moves M…]                   (TEXT: the game's position text)
//! go [movetime MS] [depth D] [nodes N] [infinite]   (infinite: bestmove waits for `stop`)
//!    [stime MS wtime MS ntime MS etime MS sinc MS winc MS ninc MS einc MS]  (clock per seat,
//!    by seat letter; the seat to move's own clock is used)
//! go perft D               -> "move: count" per root move, then "Nodes searched: N"
//! stop, d (the board and position text), quit
//! ```
//! While searching: `info depth D nodes N nps X time MS values s=0.412 w=0.190 … pv M…` once
//! per finished iteration, and always `bestmove M` (`0000` for a forced pass) at the end.
//! Bad input gets `info string error: …` and changes nothing; a `position` whose move list
//! holds an illegal move keeps the legal prefix and names the first illegal move (docs/rules.md §8).
//!
//! A session runs on the same machinery as a two-player one: the line loop
//! ([`super::drive_on`], lines bounded by [`LineReader`]) and the search thread
//! ([`Engine`], shared with UCI and XBoard), under the same [`SessionConfig`]: the tables of
//! all sessions taken from one memory budget, every search and perft stopped at the job
//! ceiling, and at the end of input a search with a limit finishes and answers (stdin) or
//! everything stops (a TCP client that hung up).
//! Depends on `nsearch` and the shared [`Output`] / [`LineReader`]; names no game.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::error::{CommandError, GoError, PositionError, SetOptionError};
use super::options::{Dialect, Settings};
use super::session::engine_reply;
use super::{End, Engine, LineHandler, LineReader, Output, SessionConfig};
use crate::board::MoveList;
use crate::nsearch::{Limits, NGame, Options, Report, SCALE, Searcher, budget};
use crate::perft;
use crate::search::Control;

/// The value vector as the protocol shows it: `s=0.412 w=0.190 …` for the seats that play.
pub fn values_text<G: NGame>(pos: &G, values: &crate::nsearch::Values) -> String {
    (0..pos.seats())
        .filter(|&s| pos.plays(s))
        .map(|s| {
            format!(
                "{}={:.3}",
                G::seat_letter(s),
                values[s] as f64 / SCALE as f64
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `info` line of one finished iteration.
pub fn info_line<G: NGame>(pos: &G, r: &Report) -> String {
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &m in &r.pv {
        pv.push(p.move_text(m));
        p = p.play(m);
    }
    format!(
        "info depth {} nodes {} nps {} time {} values {} pv {}",
        r.depth,
        r.nodes,
        r.nps(),
        r.time.as_millis(),
        values_text(pos, &r.values),
        pv.join(" ")
    )
}

/// Parses `position …` (the words after `position`) into a new position: the start or a
/// text, then the moves. On an illegal move, the legal prefix and a
/// [`PositionError::Move`] naming the move.
pub fn parse_position<G: NGame>(words: &[&str]) -> Result<G, (Option<G>, PositionError)> {
    let moves_at = words.iter().position(|&w| w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &words[words.len()..]),
    };
    let mut pos = position_start::<G>(head).map_err(|e| (None, e))?;
    for (i, text) in moves.iter().enumerate() {
        match pos.parse_move(text) {
            Ok(m) => pos = pos.play(m),
            Err(source) => {
                let e = PositionError::Move {
                    text: text.to_string(),
                    played: i,
                    source,
                };
                return Err((Some(pos), e));
            }
        }
    }
    Ok(pos)
}

/// The position `startpos [players N]` or `fen TEXT` names.
fn position_start<G: NGame>(head: &[&str]) -> Result<G, PositionError> {
    match head.first() {
        Some(&"startpos") => {
            let players = match head.get(1..) {
                Some([]) | None => G::PLAYERS.1,
                Some(["players", n]) => n
                    .parse()
                    .map_err(|_| PositionError::PlayerCount(n.to_string()))?,
                Some(rest) => return Err(PositionError::AfterStartpos(rest.join(" "))),
            };
            G::startpos(players).map_err(PositionError::Start)
        }
        Some(&"fen") => {
            let fen = head[1..].join(" ");
            G::from_text(&fen).map_err(|source| PositionError::Fen { fen, source })
        }
        _ => Err(PositionError::Syntax(head.join(" "))),
    }
}

/// A `position` error in this dialect's words.
fn position_text(e: &PositionError) -> String {
    match e {
        PositionError::Syntax(_) => "expected 'position startpos' or 'position fen …'".into(),
        PositionError::AfterStartpos(rest) => {
            format!("after startpos expected 'players N', got '{rest}'")
        }
        PositionError::PlayerCount(n) => format!("bad player count '{n}'"),
        PositionError::Start(e) => e.to_string(),
        PositionError::Fen { source, .. } => format!("bad position: {source}"),
        PositionError::Move {
            text,
            played,
            source,
        } => format!(
            "illegal move {} ({text}): {source}; kept the first {played}",
            played + 1
        ),
    }
}

/// A `go` error in this dialect's words.
fn go_text(e: &GoError) -> String {
    match e {
        GoError::MissingValue(what)
        | GoError::BadNumber { what, .. }
        | GoError::OutOfRange { what, .. }
            if what == "perft" =>
        {
            format!("go perft needs a depth from 0 to {}", perft::MAX_DEPTH)
        }
        GoError::BadNumber { what, text } => format!("go {what} needs a number, got '{text}'"),
        GoError::UnknownToken(key) => format!("unknown go parameter '{key}'"),
        other => other.to_string(),
    }
}

/// A command's error in this dialect's words.
fn command_text(e: &CommandError) -> String {
    match e {
        CommandError::Go(e) => go_text(e),
        CommandError::Position(e) => position_text(e),
        other => other.to_string(),
    }
}

/// The depth of `go perft D` (the word after `perft`), from 0 to [`perft::MAX_DEPTH`].
fn perft_depth(word: Option<&&str>) -> Result<u32, GoError> {
    let what = || "perft".to_string();
    let word = word.ok_or_else(|| GoError::MissingValue(what()))?;
    let n: i64 = word.parse().map_err(|_| GoError::BadNumber {
        what: what(),
        text: word.to_string(),
    })?;
    if !(0..=perft::MAX_DEPTH as i64).contains(&n) {
        return Err(GoError::OutOfRange {
            what: what(),
            value: n,
            min: 0,
            max: perft::MAX_DEPTH as i64,
        });
    }
    Ok(n as u32)
}

/// A parsed `go`: the search's limits, and whether it is `infinite` (its `bestmove` waits for
/// `stop`, whenever the search itself ends).
#[derive(Clone, Debug, Default)]
pub struct Go {
    pub limits: Limits,
    pub infinite: bool,
}

impl Go {
    /// Whether the search ends by itself: not infinite, and some limit given.
    pub fn finite(&self) -> bool {
        let l = &self.limits;
        !self.infinite && (l.depth.is_some() || l.nodes.is_some() || l.time.is_some())
    }
}

/// Parses the words after `go` for `pos` (the seat to move's clock).
pub fn parse_go<G: NGame>(pos: &G, words: &[&str]) -> Result<Go, GoError> {
    let mut limits = Limits::default();
    let mut infinite = false;
    let mut time: Option<Duration> = None;
    let mut inc = Duration::ZERO;
    let me = G::seat_letter(pos.to_move());
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            infinite = true;
            i += 1;
            continue;
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| GoError::MissingValue(key.to_string()))?;
        let n: u64 = value.parse().map_err(|_| GoError::BadNumber {
            what: key.to_string(),
            text: value.to_string(),
        })?;
        match key {
            "movetime" => limits.time = Some(Duration::from_millis(n)),
            "depth" => limits.depth = Some(n.clamp(1, 64) as u32),
            "nodes" => limits.nodes = Some(n),
            k if k.len() == 5 && k.ends_with("time") => {
                if k.starts_with(me) {
                    time = Some(Duration::from_millis(n));
                }
            }
            k if k.len() == 4 && k.ends_with("inc") => {
                if k.starts_with(me) {
                    inc = Duration::from_millis(n);
                }
            }
            _ => return Err(GoError::UnknownToken(key.to_string())),
        }
        i += 2;
    }
    if let Some(left) = time {
        let alive = (0..pos.seats()).filter(|&s| pos.in_game(s)).count().max(1) as u32;
        let own_left = 100u32.saturating_sub(pos.turn()) / alive;
        let b = budget(left, inc, own_left).saturating_sub(Duration::from_millis(5));
        limits.time = Some(limits.time.map_or(b, |t| t.min(b)));
    }
    Ok(Go { limits, infinite })
}

/// One protocol session over `input`/`output` under `config` (see the module comment);
/// returns at `quit` or end of input. The line loop ([`super::drive_on`]) and the search
/// thread ([`Engine`]) are the ones UCI and XBoard sessions run on.
pub fn run_session<G: NGame, R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    config: &SessionConfig,
) -> io::Result<()> {
    let out = Output::new(output);
    let mut session = Session::<G> {
        out: out.clone(),
        pos: G::startpos(G::PLAYERS.1).map_err(io::Error::other)?,
        engine: Engine::with_config(config, false, |mb| Searcher::new(Options::default(), mb)),
        settings: Settings::nseat(),
    };
    let mut reader = LineReader::new(input);
    let end = super::drive_on(&mut reader, &out, &mut session);
    // At the end of input a search with a limit still answers (unless the client is gone).
    let answer = end == End::Eof && config.finish_at_eof && !out.is_broken();
    session.engine.finish(answer);
    Ok(())
}

/// One session of game `G` on the text `input`, in memory, under `config`: returns
/// everything the engine wrote (for tests, fuzzing and programs that embed an engine).
pub fn session_transcript<G: NGame>(input: &str, config: &SessionConfig) -> io::Result<String> {
    let out = super::Transcript::default();
    run_session::<G, _, _>(input.as_bytes(), out.clone(), config)?;
    Ok(out.text())
}

struct Session<G: NGame> {
    out: Output,
    pos: G,
    /// The search thread and the searcher it borrows.
    engine: Engine<Searcher<G>>,
    /// The option values (`Algorithm`, handed to the searcher at each `go`).
    settings: Settings,
}

impl<G: NGame> LineHandler for Session<G> {
    fn command(&mut self, line: &str) -> bool {
        Session::command(self, line.trim())
    }

    fn read_error(&mut self, error: &str) {
        self.error(error);
    }
}

impl<G: NGame> Session<G> {
    fn error(&self, e: &str) {
        self.out.line(&format!("info string error: {e}"));
    }

    /// Handles one command; false ends the session.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        if self.engine.finished() {
            self.engine.wait();
        }
        match first {
            "quit" => return false,
            "isready" => self.out.line("readyok"),
            "stop" => {
                self.engine.stop_and_wait();
            }
            "uci" => {
                let mut lines = vec![
                    format!("id name kiebitz-{} {}", G::GAME, env!("CARGO_PKG_VERSION")),
                    format!("id author {}", super::AUTHOR),
                ];
                lines.extend(super::uci::option_lines(
                    &self.settings,
                    Dialect::Nseat,
                    self.engine.hash_mb(),
                ));
                lines.push("uciok".to_string());
                self.out.lines(&lines);
            }
            _ => {
                // Everything else waits for a running search to end (stopping it).
                self.engine.stop_and_wait();
                if let Err(e) = self.state_command(first, &words[1..]) {
                    self.error(&command_text(&e));
                }
            }
        }
        true
    }

    fn state_command(&mut self, first: &str, rest: &[&str]) -> Result<(), CommandError> {
        match first {
            "ucinewgame" => self.engine.clear(),
            "setoption" => {
                let text = rest.join(" ");
                let body = text.strip_prefix("name ").ok_or(SetOptionError::Syntax)?;
                let (name, value) = match body.split_once(" value ") {
                    Some((name, value)) => (name, Some(value)),
                    None => (body, None),
                };
                let reply = self.settings.set(Dialect::Nseat, name, value)?;
                if let Some(note) = engine_reply(&mut self.engine, reply)? {
                    self.out.line(&format!("info string {note}"));
                }
            }
            "position" => match parse_position::<G>(rest) {
                Ok(p) => self.pos = p,
                Err((prefix, e)) => {
                    if let Some(p) = prefix {
                        self.pos = p;
                    }
                    return Err(e.into());
                }
            },
            "d" => {
                let text = format!("{}\n{}", self.pos.pretty(false), self.pos.text());
                for l in text.lines() {
                    self.out.line(&format!("info string {l}"));
                }
            }
            "go" => self.go(rest)?,
            _ => return Err(CommandError::Unknown(first.to_string())),
        }
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Result<(), CommandError> {
        if words.first() == Some(&"perft") {
            let depth = perft_depth(words.get(1))?;
            let pos = self.pos.clone();
            let out = self.out.clone();
            // On the search thread, like a search: `stop`, `quit`, the end of input and any
            // other command end it (with `info string perft … stopped` instead of the counts).
            self.spawn(false, move |_, stop| {
                let Some(divide) = perft::ndivide_until(&pos, depth, stop) else {
                    out.line(&format!("info string perft {depth} stopped"));
                    return;
                };
                let mut lines: Vec<String> = divide
                    .iter()
                    .map(|(m, n)| format!("{}: {n}", pos.move_text(*m)))
                    .collect();
                let total: u64 = divide.iter().map(|(_, n)| n).sum();
                lines.push(String::new());
                lines.push(format!(
                    "Nodes searched: {}",
                    if depth == 0 { 1 } else { total }
                ));
                out.lines(&lines);
            });
            return Ok(());
        }
        let pos = self.pos.clone();
        if pos.outcome().is_some() {
            return Err("the game is over: there is nothing to search".into());
        }
        if !pos.in_game(pos.to_move()) {
            return Err(format!(
                "{} is out of the game and cannot move",
                G::seat_name(pos.to_move())
            )
            .into());
        }
        let go = parse_go(&pos, words)?;
        let out = self.out.clone();
        self.spawn(go.finite(), move |searcher, stop| {
            let report = searcher.search(&pos, go.limits, |r| {
                out.line(&info_line(&pos, r));
                // Nobody reads any more (stdout closed, client gone): stop.
                if out.is_broken() {
                    stop.store(true, Ordering::SeqCst);
                }
            });
            // After `go infinite` the bestmove waits for `stop` (or the ceiling, or the end of
            // the session), even when the search has nothing more to do.
            while go.infinite && !stop.load(Ordering::SeqCst) && !out.is_broken() {
                std::thread::sleep(Duration::from_millis(2));
            }
            // A legal move always comes back: the search's, else the first legal one.
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let best = if legal.contains(&report.best) {
                report.best
            } else {
                legal[0]
            };
            out.line(&format!("bestmove {}", pos.move_text(best)));
        });
        Ok(())
    }

    /// Runs `job` on the search thread with the searcher and the job's stop flag; the next
    /// command but `isready` and `uci` waits for it, `stop` and `quit` set the flag, and so
    /// does the session's ceiling. `finite`: the job ends by itself.
    fn spawn(
        &mut self,
        finite: bool,
        job: impl FnOnce(&mut Searcher<G>, &AtomicBool) + Send + 'static,
    ) {
        let options = Options {
            algorithm: self.settings.algorithm,
            ..Options::default()
        };
        self.engine.spawn_with(
            false,
            finite,
            Box::new(move |searcher: &mut Searcher<G>, control: &Control| {
                // The N-seat search watches the job's own flag.
                searcher.watch(Arc::clone(&control.stop));
                searcher.options = options;
                job(searcher, &control.stop);
                None
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chamaeleon::Chamaeleon;

    /// Hash has one maximum over the three dialects, as a client sees it: each advertises
    /// `MAX_HASH_MB` and refuses one more with the same words (the N-seat dialect took at
    /// most 4,096 before).
    #[test]
    fn hash_has_one_maximum_in_every_dialect() {
        use crate::games::pawns::Pawns;
        let config = SessionConfig::default();
        let max = super::super::MAX_HASH_MB;
        let too_big = format!("option Hash takes a number from 1 to {max}");
        let uci = super::super::session_transcript::<Pawns>(
            &format!("uci\nsetoption name Hash value {}\nquit\n", max + 1),
            &config,
        )
        .unwrap();
        assert!(uci.contains(&format!(
            "option name Hash type spin default 16 min 1 max {max}"
        )));
        assert!(
            uci.contains(&format!("info string error: {too_big}")),
            "{uci}"
        );
        let nseat = session_transcript::<Chamaeleon>(
            &format!("uci\nsetoption name Hash value {}\nquit\n", max + 1),
            &config,
        )
        .unwrap();
        assert!(nseat.contains(&format!(
            "option name Hash type spin default 16 min 1 max {max}"
        )));
        assert!(
            nseat.contains(&format!("info string error: {too_big}")),
            "{nseat}"
        );
        let xboard = super::super::session_transcript::<Pawns>(
            &format!("xboard\nprotover 2\noption Hash={}\nquit\n", max + 1),
            &config,
        )
        .unwrap();
        assert!(xboard.contains(&format!("feature option=\"Hash -spin 16 1 {max}\"")));
        assert!(
            xboard.contains(&format!("Error ({too_big}): option Hash=")),
            "{xboard}"
        );
    }

    /// The error of `position LINE`, and whether a legal prefix came with it.
    fn err(line: &str) -> (bool, PositionError) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (prefix, e) = parse_position::<Chamaeleon>(&words).unwrap_err();
        (prefix.is_some(), e)
    }

    /// Each way a `position` can be wrong keeps its variant and reads in this dialect's words.
    #[test]
    fn a_bad_position_is_typed_and_worded_for_the_dialect() {
        let (prefix, e) = err("startpos players x");
        assert!(!prefix);
        assert_eq!(e, PositionError::PlayerCount("x".into()));
        assert_eq!(position_text(&e), "bad player count 'x'");
        let (_, e) = err("startpos players 7");
        assert!(matches!(e, PositionError::Start(crate::Error::Variant(_))));
        let (_, e) = err("fen nonsense");
        assert!(matches!(
            &e,
            PositionError::Fen {
                source: crate::Error::Position(_),
                ..
            }
        ));
        assert!(position_text(&e).starts_with("bad position: "));
        let (_, e) = err("sideways");
        assert_eq!(
            position_text(&e),
            "expected 'position startpos' or 'position fen …'"
        );
        let (prefix, e) = err("startpos players 2 moves a1a1");
        assert!(prefix, "the legal prefix (none) is kept");
        assert!(matches!(
            &e,
            PositionError::Move {
                played: 0,
                source: crate::Error::Move(_),
                ..
            }
        ));
        assert!(position_text(&e).starts_with("illegal move 1 (a1a1): "));
    }

    /// Each way a `go` can be wrong keeps its variant and reads in this dialect's words.
    #[test]
    fn a_bad_go_is_typed_and_worded_for_the_dialect() {
        let pos = Chamaeleon::startpos(4).unwrap();
        let err = |line: &str| {
            let words: Vec<&str> = line.split_whitespace().collect();
            parse_go(&pos, &words).unwrap_err()
        };
        let e = err("depth x");
        assert!(matches!(&e, GoError::BadNumber { what, text } if what == "depth" && text == "x"));
        assert_eq!(go_text(&e), "go depth needs a number, got 'x'");
        let e = err("sideways 1");
        assert_eq!(e, GoError::UnknownToken("sideways".into()));
        assert_eq!(go_text(&e), "unknown go parameter 'sideways'");
        assert_eq!(err("nodes"), GoError::MissingValue("nodes".into()));
        let too_deep = perft_depth(Some(&"31")).unwrap_err();
        assert!(matches!(too_deep, GoError::OutOfRange { value: 31, .. }));
        assert_eq!(
            command_text(&too_deep.into()),
            format!("go perft needs a depth from 0 to {}", perft::MAX_DEPTH)
        );
        assert_eq!(perft_depth(Some(&"3")), Ok(3));
    }
}
