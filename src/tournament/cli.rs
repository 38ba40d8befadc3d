//! The `kiebitz-match` command line, in the style of cutechess-cli and fastchess: options
//! start with `-` or `--`, and `--engine`, `--each`, `--openings`, `--random-openings`,
//! `--sprt`, `--draw`, `--resign` take `key=value` words.
//!
//! Depends on [`super::clock`], [`super::client`], [`super::error`], [`super::openings`],
//! [`super::referee`] and [`super::stats`]; its errors are [`FlagError`]s.

use std::time::Duration;

use super::client::{EngineConfig, Proto};
use super::clock::{Period, TimeControl};
use super::error::FlagError;
use super::openings::RandomPlies;
use super::referee::{DrawAdjudication, ResignAdjudication};
use super::stats::Sprt;

/// The usage text for `--help`.
pub const USAGE: &str = "\
usage: kiebitz-match [--game GAME] [--variant V]
         --engine cmd=PROGRAM [name=NAME] [proto=uci|xboard] [args=\"A B\"] [option.NAME=VALUE]…
         --engine …  [--engine …]…  [--each KEY=VALUE…]
         [--tc 10+0.1 | --st S | --movetime MS | --depth D | --nodes N]
         [--tournament round-robin|gauntlet] [--games N] [--rounds N] [--concurrency N]
         [--openings FILE | file=FILE [format=epd|fen|pgn] [plies=N] [order=random] [start=N]
                            [policy=default|round] | book=FILE.bin [plies=N]]
         [--random-openings plies=N [margin=CP] [depth=D]] [--repeat] [--pgn FILE [min]]
         [--epdout FILE] [--seed N] [--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05]
         [--draw movenumber=N movecount=N score=CP] [--resign movecount=N score=CP [twosided=true]]
         [--maxmoves N] [--timemargin MS] [--timeout S] [--ratinginterval N] [--event NAME]
         [--ponder] [--recover] [--log file=FILE [level=debug]] [--report FILE.html]
       kiebitz-match [--game GAME] --check-pgn FILE
       kiebitz-match [--game GAME] --report FILE.html --from-pgn GAMES.pgn [--sprt …]

Plays engines against each other in GAME (chess when not given; standard is chess too) with
kiebitz's rules as referee. Two engines play a match; more (or --tournament) a round robin
(every engine against every other) or a gauntlet (the first against each of the others), each
pairing --games × --rounds games, then the standings (Elo +/- per engine) and head to head.
Engine keys: cmd, name, proto, args, dir, option.NAME, tc, st (seconds per move),
movetime (ms per move), depth, nodes, timemargin (ms), variant (the engine's name for it),
ponder=true|false. --ponder: engines think on the opponent's time (UCI go ponder, ponderhit,
stop for engines that offer Ponder; XBoard hard); the final report counts the ponder searches.
Every opening is played twice with colours swapped. PGN openings: each game's first plies=N
moves (all without plies=); policy=round gives every pairing of a tournament the same
openings, policy=default each pairing the next ones. --pgn FILE min: the seven tags and the
moves only. --epdout: each game's final position as a FEN line. --recover is always on: an
engine that crashes or stalls loses that game and is restarted. --log: the engines' traffic
(level debug) and the runner's messages into FILE.
--check-pgn replays every game of a PGN file under GAME's rules and checks its Result.
--report writes an HTML page (standings, Elo, SPRT, plots, every game to replay; a tournament's
with its cross table) at the start, during the run, at its end and on Ctrl-C; with --from-pgn,
from a finished run's PGN.";

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsFile {
    pub path: String,
    pub random_order: bool,
    /// 1-based first position to use.
    pub start: usize,
    /// `book=FILE.bin`: the file is an opening book, walked this many plies from the start
    /// position by weighted random choice (`plies=N`, default 8).
    pub book_plies: Option<u32>,
    /// `format=pgn` (or a `.pgn` file): each game's first moves are an opening (`plies=N`
    /// of them, all when no `plies=`), played out by the engines as the game's first moves.
    pub pgn_plies: Option<Option<u32>>,
    /// `policy=round`: in a tournament every pairing plays the same openings (round k, opening
    /// k); `policy=default`: each pairing takes the next openings of the file.
    pub same_per_round: bool,
    /// Openings a tournament's pairing skips (its place in the file under `policy=default`).
    pub offset: usize,
}

/// How a tournament of more than two engines pairs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// `-log file=FILE [level=…]`: the engines' traffic and the runner's messages, into a file.
#[derive(Clone, Debug, PartialEq)]
pub struct LogFile {
    pub path: String,
    pub level: log::LevelFilter,
}

/// The game played when `--game` is not given, as cutechess and fastchess play chess.
pub const DEFAULT_GAME: &str = "chess";

/// Plies of a book walk when `--openings book=FILE` gives no `plies=`.
pub const DEFAULT_BOOK_PLIES: u32 = 8;

/// Everything the command line says.
#[derive(Clone, Debug)]
pub struct Config {
    pub game: String,
    pub variant: Option<String>,
    pub engines: Vec<EngineConfig>,
    /// Games per round, and rounds: `games × rounds` games in all.
    pub games: u32,
    pub rounds: u32,
    pub concurrency: usize,
    pub openings: Option<OpeningsFile>,
    pub random: Option<RandomPlies>,
    pub pgn: Option<String>,
    pub sprt: Option<Sprt>,
    pub seed: u64,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    pub maxmoves: Option<u32>,
    /// Wait for a move at most this long when no clock bounds it.
    pub timeout: Duration,
    /// Print the Elo block every this many games (and at the end).
    pub rating_interval: u32,
    pub event: String,
    /// `--help` or `--version` was asked for: print this and stop.
    pub info: Option<String>,
    /// `--check-pgn FILE`: replay a PGN file under the game's rules instead of playing.
    pub check_pgn: Option<String>,
    /// `--report FILE.html`: the match report ([`super::html`]).
    pub report: Option<String>,
    /// `--from-pgn GAMES.pgn`: make the report from a PGN instead of playing.
    pub from_pgn: Option<String>,
    /// `-tournament round-robin|gauntlet` (round robin for more than two engines by default).
    pub tournament: Option<Tournament>,
    /// `-pgnout FILE min`: the seven tags (and the start position) and the moves, no comments.
    pub pgn_min: bool,
    /// `-epdout FILE`: each game's final position appended as a FEN line.
    pub epdout: Option<String>,
    /// `-recover`: accepted; a crashed or stalled engine is always restarted for the next
    /// game (the game itself is lost by it), so the match goes on.
    pub recover: bool,
    /// `-log file=FILE level=LEVEL`.
    pub log: Option<LogFile>,
}

impl Config {
    pub fn total_games(&self) -> usize {
        self.games as usize * self.rounds as usize
    }
}

/// An engine's keys before checking.
#[derive(Clone, Debug, Default)]
struct Draft {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    dir: Option<String>,
    proto: Option<Proto>,
    options: Vec<(String, String)>,
    clock: Option<Option<Period>>,
    movetime: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    timemargin: Option<Duration>,
    variant: Option<String>,
    ponder: Option<bool>,
}

fn num<T: std::str::FromStr>(what: &str, v: &str) -> Result<T, FlagError> {
    v.parse().map_err(|_| FlagError::NotANumber {
        what: what.to_string(),
        value: v.to_string(),
    })
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(
    what: &str,
    v: &str,
) -> Result<T, FlagError> {
    let n: T = num(what, v)?;
    if n <= T::default() {
        return Err(invalid(what, "positive", v));
    }
    Ok(n)
}

/// `value` is not one of the values `what` takes (`expected`).
fn invalid(what: &str, expected: &'static str, value: &str) -> FlagError {
    FlagError::Invalid {
        what: what.to_string(),
        expected,
        value: value.to_string(),
    }
}

/// `key` is not one of the keys of `flag` (`known`).
fn unknown_key(flag: &str, key: &str, known: &'static str) -> FlagError {
    FlagError::UnknownKey {
        flag: flag.to_string(),
        key: key.to_string(),
        known,
    }
}

fn seconds(what: &str, v: &str) -> Result<Duration, FlagError> {
    let s: f64 = num(what, v)?;
    if !(s.is_finite() && s > 0.0) {
        return Err(invalid(what, "a positive number of seconds", v));
    }
    Ok(crate::limits::seconds(what, s)?)
}

fn millis(what: &str, v: &str) -> Result<Duration, FlagError> {
    Ok(crate::limits::millis(what, num(what, v)?)?)
}

impl Draft {
    fn set(&mut self, key: &str, value: &str) -> Result<(), FlagError> {
        if let Some(name) = key.strip_prefix("option.") {
            if name.is_empty() {
                return Err("option. needs a name: option.NAME=VALUE".into());
            }
            self.options.push((name.to_string(), value.to_string()));
            return Ok(());
        }
        match key {
            "cmd" => self.cmd = Some(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "args" => self
                .args
                .extend(value.split_whitespace().map(str::to_string)),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(value.to_string()),
            "proto" => {
                self.proto = Some(match value {
                    "uci" => Proto::Uci,
                    "xboard" | "cecp" => Proto::Xboard,
                    _ => return Err(invalid("proto", "uci or xboard", value)),
                })
            }
            "tc" => {
                self.clock = Some(if value == "inf" || value == "infinite" {
                    None
                } else {
                    Some(Period::parse(value)?)
                })
            }
            "st" => self.movetime = Some(seconds("st", value)?),
            "movetime" => self.movetime = Some(millis("movetime", value)?),
            "depth" => self.depth = Some(positive("depth", value)?),
            "nodes" => self.nodes = Some(positive("nodes", value)?),
            "timemargin" => self.timemargin = Some(millis("timemargin", value)?),
            "variant" => self.variant = Some(value.to_string()),
            "ponder" => self.ponder = Some(bool_value("ponder", value)?),
            _ => {
                return Err(FlagError::UnknownEngineKey(key.to_string()));
            }
        }
        Ok(())
    }

    /// This draft on top of `each` (engine keys win, options of both in order).
    fn over(self, each: &Draft) -> Draft {
        let mut options = each.options.clone();
        options.extend(self.options);
        let mut args = each.args.clone();
        args.extend(self.args);
        Draft {
            name: self.name.or(each.name.clone()),
            cmd: self.cmd.or(each.cmd.clone()),
            args,
            dir: self.dir.or(each.dir.clone()),
            proto: self.proto.or(each.proto),
            options,
            clock: self.clock.or(each.clock),
            movetime: self.movetime.or(each.movetime),
            depth: self.depth.or(each.depth),
            nodes: self.nodes.or(each.nodes),
            timemargin: self.timemargin.or(each.timemargin),
            variant: self.variant.or(each.variant.clone()),
            ponder: self.ponder.or(each.ponder),
        }
    }

    fn finish(self, n: usize, default_margin: Duration) -> Result<EngineConfig, FlagError> {
        let cmd = self
            .cmd
            .ok_or_else(|| format!("engine {n} has no cmd=PROGRAM"))?;
        let mut words = cmd.split_whitespace().map(str::to_string);
        let program = words
            .next()
            .ok_or_else(|| format!("engine {n}: cmd is empty"))?;
        let mut args: Vec<String> = words.collect();
        args.extend(self.args);
        let tc = TimeControl {
            clock: self.clock.flatten(),
            movetime: self.movetime,
            depth: self.depth,
            nodes: self.nodes,
        };
        if !tc.is_set() {
            return Err(format!(
                "engine {n} ({program}) has no time control: give --tc 10+0.1, st=, movetime=, depth= or nodes="
            ).into());
        }
        let proto = self.proto.unwrap_or(Proto::Uci);
        if proto == Proto::Xboard && tc.nodes.is_some() {
            return Err(format!(
                "engine {n} ({program}): XBoard has no node limit; use proto=uci or another limit"
            )
            .into());
        }
        Ok(EngineConfig {
            name: self.name.unwrap_or_default(),
            program,
            args,
            dir: self.dir.map(Into::into),
            proto,
            options: self.options,
            tc,
            timemargin: self.timemargin.unwrap_or(default_margin),
            variant: self.variant,
            ponder: self.ponder.unwrap_or(false),
        })
    }
}

fn is_flag(s: &str) -> bool {
    let t = s.trim_start_matches('-');
    s.starts_with('-') && t.len() + 2 >= s.len() && t.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// `key=value` words following an option.
fn pairs<'a>(option: &str, words: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, FlagError> {
    words
        .iter()
        .map(|w| {
            w.split_once('=').ok_or_else(|| FlagError::NotKeyValue {
                flag: option.to_string(),
                word: w.clone(),
            })
        })
        .collect()
}

fn bool_value(what: &str, v: &str) -> Result<bool, FlagError> {
    match v {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(invalid(what, "true or false", v)),
    }
}

/// The settings before the command line changes them.
fn defaults() -> Config {
    Config {
        game: DEFAULT_GAME.to_string(),
        variant: None,
        engines: Vec::new(),
        games: 2,
        rounds: 1,
        concurrency: 1,
        openings: None,
        random: None,
        pgn: None,
        sprt: None,
        seed: 1,
        draw: None,
        resign: None,
        maxmoves: None,
        timeout: Duration::from_secs(60),
        rating_interval: 1,
        event: "kiebitz-match".into(),
        info: None,
        check_pgn: None,
        report: None,
        from_pgn: None,
        tournament: None,
        pgn_min: false,
        epdout: None,
        recover: false,
        log: None,
    }
}

/// `--openings FILE | file=FILE [format=epd|fen|pgn] [plies=N] [order=random] [start=N]
/// [policy=default|round] | book=FILE.bin [plies=N]`.
fn openings(words: &[String]) -> Result<OpeningsFile, FlagError> {
    let mut f = OpeningsFile {
        path: String::new(),
        random_order: false,
        start: 1,
        book_plies: None,
        pgn_plies: None,
        same_per_round: false,
        offset: 0,
    };
    let mut plies = None;
    let mut format = None;
    for w in words {
        match w.split_once('=') {
            None => f.path = w.clone(),
            Some(("file", v)) => f.path = v.to_string(),
            Some(("format", v @ ("epd" | "fen" | "pgn"))) => format = Some(v),
            Some(("format", v)) => {
                return Err(invalid("--openings: format", "epd, fen or pgn", v));
            }
            Some(("order", "random")) => f.random_order = true,
            Some(("order", "sequential")) => f.random_order = false,
            Some(("order", v)) => {
                return Err(invalid("--openings: order", "sequential or random", v));
            }
            Some(("start", v)) => f.start = positive("--openings start", v)?,
            Some(("policy", "default" | "encounter")) => f.same_per_round = false,
            Some(("policy", "round")) => f.same_per_round = true,
            Some(("policy", v)) => {
                return Err(invalid("--openings: policy", "default or round", v));
            }
            Some(("book", v)) => {
                f.path = v.to_string();
                f.book_plies = Some(DEFAULT_BOOK_PLIES);
            }
            Some(("plies", v)) => plies = Some(positive("--openings plies", v)?),
            Some((k, _)) => {
                return Err(unknown_key(
                    "--openings",
                    k,
                    "file format plies order start policy book",
                ));
            }
        }
    }
    let pgn = format == Some("pgn")
        || (format.is_none() && f.path.to_ascii_lowercase().ends_with(".pgn"));
    if pgn && f.book_plies.is_some() {
        return Err("--openings: book=FILE.bin is a Polyglot book, not PGN".into());
    }
    match (f.book_plies, plies) {
        (Some(_), Some(n)) => f.book_plies = Some(n),
        _ if pgn => f.pgn_plies = Some(plies),
        (None, Some(_)) => {
            return Err("--openings: plies= goes with format=pgn or book=FILE.bin".into());
        }
        _ => {}
    }
    if f.path.is_empty() {
        return Err("--openings needs a file: --openings file=openings.epd".into());
    }
    Ok(f)
}

/// `-log file=FILE [level=trace|debug|info|warn|err]` (fastchess's keys; `engine=` and
/// `compress=` are not supported).
fn log_file(flag: &str, words: &[String]) -> Result<LogFile, FlagError> {
    let mut log = LogFile {
        path: String::new(),
        level: log::LevelFilter::Debug,
    };
    for (k, v) in pairs(flag, words)? {
        match k {
            "file" => log.path = v.to_string(),
            "level" => {
                log.level = match v {
                    "trace" => log::LevelFilter::Trace,
                    "debug" => log::LevelFilter::Debug,
                    "info" => log::LevelFilter::Info,
                    "warn" => log::LevelFilter::Warn,
                    "err" | "error" | "fatal" => log::LevelFilter::Error,
                    _ => {
                        return Err(invalid(
                            &format!("{flag}: level"),
                            "trace, debug, info, warn or err",
                            v,
                        ));
                    }
                }
            }
            _ => return Err(unknown_key(flag, k, "file level")),
        }
    }
    if log.path.is_empty() {
        return Err(format!("{flag} needs file=FILE").into());
    }
    Ok(log)
}

/// `--random-openings plies=N [margin=CP] [depth=D]`.
fn random_openings(flag: &str, words: &[String]) -> Result<RandomPlies, FlagError> {
    let mut r = RandomPlies::default();
    for (k, v) in pairs(flag, words)? {
        match k {
            "plies" => r.plies = positive("plies", v)?,
            "margin" => r.margin = num("margin", v)?,
            "depth" => r.depth = num("depth", v)?,
            _ => {
                return Err(unknown_key("--random-openings", k, "plies margin depth"));
            }
        }
    }
    Ok(r)
}

/// `--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B]`.
fn sprt(flag: &str, words: &[String]) -> Result<Sprt, FlagError> {
    let (mut e0, mut e1, mut a, mut b) = (None, None, 0.05, 0.05);
    for (k, v) in pairs(flag, words)? {
        let x: f64 = num(k, v)?;
        match k {
            "elo0" => e0 = Some(x),
            "elo1" => e1 = Some(x),
            "alpha" => a = x,
            "beta" => b = x,
            _ => {
                return Err(unknown_key("--sprt", k, "elo0 elo1 alpha beta"));
            }
        }
    }
    let (Some(e0), Some(e1)) = (e0, e1) else {
        return Err("--sprt needs elo0= and elo1=".into());
    };
    Ok(Sprt::new(e0, e1, a, b)?)
}

/// `--draw [movenumber=N] [movecount=N] [score=CP]`.
fn draw(flag: &str, words: &[String]) -> Result<DrawAdjudication, FlagError> {
    let mut d = DrawAdjudication {
        movenumber: 40,
        movecount: 8,
        score: 10,
    };
    for (k, v) in pairs(flag, words)? {
        match k {
            "movenumber" => d.movenumber = num(k, v)?,
            "movecount" => d.movecount = positive(k, v)?,
            "score" => d.score = num(k, v)?,
            _ => {
                return Err(unknown_key("--draw", k, "movenumber movecount score"));
            }
        }
    }
    Ok(d)
}

/// `--resign [movecount=N] [score=CP] [twosided=true]`.
fn resign(flag: &str, words: &[String]) -> Result<ResignAdjudication, FlagError> {
    let mut r = ResignAdjudication {
        movecount: 3,
        score: 1000,
        twosided: false,
    };
    for (k, v) in pairs(flag, words)? {
        match k {
            "movecount" => r.movecount = positive(k, v)?,
            "score" => r.score = positive(k, v)?,
            "twosided" => r.twosided = bool_value(k, v)?,
            _ => {
                return Err(unknown_key("--resign", k, "movecount score twosided"));
            }
        }
    }
    Ok(r)
}

/// What the command line has read so far, beside the settings: the engines' keys, the keys
/// of `--each` and the default time margin.
struct Reading {
    cfg: Config,
    drafts: Vec<Draft>,
    each: Draft,
    margin: Duration,
}

impl Reading {
    /// The engine flags: `--engine`, `--each`, and the shorthands for keys of every engine.
    fn engine_flag(&mut self, name: &str, flag: &str, words: &[String]) -> Result<bool, FlagError> {
        let one = || one_value(flag, words);
        match name {
            "engine" => {
                let mut d = Draft::default();
                for (k, v) in pairs(flag, words)? {
                    d.set(k, v).map_err(|e| FlagError::Engine {
                        engine: self.drafts.len() + 1,
                        error: Box::new(e),
                    })?;
                }
                self.drafts.push(d);
            }
            "each" => {
                for (k, v) in pairs(flag, words)? {
                    self.each
                        .set(k, v)
                        .map_err(|e| FlagError::Each(Box::new(e)))?;
                }
            }
            "tc" | "st" | "movetime" | "depth" | "nodes" => self.each.set(name, one()?)?,
            "timemargin" => self.margin = millis("--timemargin", one()?)?,
            "ponder" => {
                no_value(flag, words)?;
                self.each.ponder = Some(true);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The match flags: games, openings, adjudication, output.
    fn match_flag(&mut self, name: &str, flag: &str, words: &[String]) -> Result<(), FlagError> {
        let one = || one_value(flag, words);
        let cfg = &mut self.cfg;
        match name {
            "help" | "h" => {
                no_value(flag, words)?;
                cfg.info = Some(USAGE.to_string());
            }
            "version" | "V" => {
                no_value(flag, words)?;
                cfg.info = Some(format!("kiebitz-match {}", env!("CARGO_PKG_VERSION")));
            }
            // `standard`: cutechess's and fastchess's name of chess.
            "game" => {
                cfg.game = match one()? {
                    "standard" => DEFAULT_GAME.to_string(),
                    other => other.to_string(),
                }
            }
            "variant" => cfg.variant = Some(one()?.to_string()),
            "games" => cfg.games = positive("--games", one()?)?,
            "rounds" => cfg.rounds = positive("--rounds", one()?)?,
            "concurrency" => cfg.concurrency = positive("--concurrency", one()?)?,
            "seed" | "srand" => cfg.seed = num("--seed", one()?)?,
            "pgn" | "pgnout" => {
                let w = words
                    .first()
                    .ok_or_else(|| format!("{flag} needs a file name"))?;
                cfg.pgn = Some(w.strip_prefix("file=").unwrap_or(w).to_string());
                for extra in &words[1..] {
                    match extra.as_str() {
                        "min" | "min=true" => cfg.pgn_min = true,
                        "fi" | "nodes=false" | "seldepth=false" | "nps=false" | "min=false" => {}
                        other => {
                            return Err(format!(
                                "{flag}: unknown word '{other}' (known: FILE [min])"
                            )
                            .into());
                        }
                    }
                }
            }
            "epdout" => {
                let w = one()?;
                cfg.epdout = Some(w.strip_prefix("file=").unwrap_or(w).to_string());
            }
            "recover" => {
                no_value(flag, words)?;
                cfg.recover = true;
            }
            "log" => cfg.log = Some(log_file(flag, words)?),
            "tournament" => {
                cfg.tournament = Some(match one()? {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    other => {
                        return Err(invalid(flag, "round-robin or gauntlet", other));
                    }
                })
            }
            "repeat" => {
                // Pairs with colours swapped are always played; accepted for familiarity.
                if words.len() > 1 {
                    return Err(format!("{flag} takes at most one value").into());
                }
            }
            "openings" => cfg.openings = Some(openings(words)?),
            "random-openings" => cfg.random = Some(random_openings(flag, words)?),
            "sprt" => cfg.sprt = Some(sprt(flag, words)?),
            "draw" => cfg.draw = Some(draw(flag, words)?),
            "resign" => cfg.resign = Some(resign(flag, words)?),
            "maxmoves" => cfg.maxmoves = Some(positive("--maxmoves", one()?)?),
            "timeout" => cfg.timeout = seconds("--timeout", one()?)?,
            "ratinginterval" => cfg.rating_interval = positive("--ratinginterval", one()?)?,
            "event" => cfg.event = words.join(" "),
            "check-pgn" => cfg.check_pgn = Some(one()?.to_string()),
            "report" => cfg.report = Some(one()?.to_string()),
            "from-pgn" => cfg.from_pgn = Some(one()?.to_string()),
            _ => return Err(FlagError::UnknownFlag(flag.to_string())),
        }
        Ok(())
    }

    /// The checks once every flag is read, and the engines made from their keys.
    fn finish(self) -> Result<Config, FlagError> {
        let Reading {
            mut cfg,
            drafts,
            each,
            margin,
        } = self;
        if cfg.info.is_some() {
            return Ok(cfg);
        }
        if cfg.from_pgn.is_some() && cfg.report.is_none() {
            return Err("--from-pgn makes a report: give --report FILE.html".into());
        }
        if cfg.check_pgn.is_some() || cfg.from_pgn.is_some() {
            return Ok(cfg);
        }
        if cfg.random.is_some()
            && cfg
                .openings
                .as_ref()
                .is_some_and(|f| f.book_plies.is_some())
        {
            return Err("--random-openings cannot be combined with --openings book=FILE".into());
        }
        let tournament = cfg.tournament.is_some() || drafts.len() > 2;
        if drafts.len() < 2 {
            return Err(format!(
                "kiebitz-match plays engines against each other: give --engine at least twice, got {}",
                drafts.len()
            ).into());
        }
        if tournament && cfg.sprt.is_some() {
            return Err("--sprt tests two engines: not with a tournament of more".into());
        }
        if cfg.openings.as_ref().is_some_and(|f| f.pgn_plies.is_some()) && cfg.random.is_some() {
            return Err("--random-openings cannot be combined with PGN openings".into());
        }
        if drafts.len() > 2 && cfg.tournament.is_none() {
            cfg.tournament = Some(Tournament::RoundRobin);
        }
        for (n, d) in drafts.into_iter().enumerate() {
            cfg.engines.push(d.over(&each).finish(n + 1, margin)?);
        }
        Ok(cfg)
    }
}

/// The one value of `flag`.
fn one_value<'a>(flag: &str, words: &'a [String]) -> Result<&'a str, FlagError> {
    match words {
        [w] => Ok(w.as_str()),
        _ => Err(FlagError::NotOneValue {
            flag: flag.to_string(),
            count: words.len(),
        }),
    }
}

/// `flag` takes no value.
fn no_value(flag: &str, words: &[String]) -> Result<(), FlagError> {
    if words.is_empty() {
        Ok(())
    } else {
        Err(FlagError::NoValue {
            flag: flag.to_string(),
            words: words.join(" "),
        })
    }
}

/// Parses the arguments (without the program name): each flag with the words up to the next
/// flag.
pub fn parse(args: &[String]) -> Result<Config, FlagError> {
    let mut reading = Reading {
        cfg: defaults(),
        drafts: Vec::new(),
        each: Draft::default(),
        margin: Duration::from_millis(100),
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if !is_flag(flag) {
            return Err(FlagError::NotAFlag(flag.to_string()));
        }
        let name = flag.trim_start_matches('-');
        let mut j = i + 1;
        while j < args.len() && !is_flag(&args[j]) {
            j += 1;
        }
        let words = &args[i + 1..j];
        i = j;
        if !reading.engine_flag(name, flag, words)? {
            reading.match_flag(name, flag, words)?;
        }
    }
    reading.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_full_command_line() {
        let cfg = parse(&args(
            "--game pawns --variant pawns5 --engine cmd=./a name=A option.Hash=16 \
             -engine cmd=./b proto=xboard depth=3 --each tc=10+0.1 option.Threads=1 \
             --games 4 --rounds 3 --concurrency 2 --openings file=o.epd order=random \
             --sprt elo0=0 elo1=5 --seed 9 --draw movenumber=30 movecount=4 score=5 \
             --resign movecount=2 score=600 twosided=true --pgn out.pgn --timemargin 250",
        ))
        .unwrap();
        assert_eq!(cfg.game, "pawns");
        assert_eq!(cfg.total_games(), 12);
        assert_eq!(cfg.concurrency, 2);
        let a = &cfg.engines[0];
        assert_eq!(a.name, "A");
        assert_eq!(a.program, "./a");
        assert_eq!(
            a.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "16".to_string())
            ]
        );
        assert_eq!(a.tc.clock.unwrap().base, Duration::from_secs(10));
        assert_eq!(a.timemargin, Duration::from_millis(250));
        let b = &cfg.engines[1];
        assert_eq!(b.proto, Proto::Xboard);
        assert_eq!(b.tc.depth, Some(3));
        assert!(cfg.openings.as_ref().unwrap().random_order);
        assert_eq!(cfg.sprt.unwrap().elo1, 5.0);
        assert_eq!(cfg.seed, 9);
        assert_eq!(cfg.draw.unwrap().movecount, 4);
        assert!(cfg.resign.unwrap().twosided);
        assert_eq!(cfg.pgn.as_deref(), Some("out.pgn"));
    }

    #[test]
    fn commands_with_arguments_and_negative_values() {
        let cfg = parse(&[
            "--game".into(),
            "pawns".into(),
            "--engine".into(),
            "cmd=python3 fake.py crash".into(),
            "option.Contempt=-10".into(),
            "--engine".into(),
            "cmd=b".into(),
            "--st".into(),
            "0.5".into(),
        ])
        .unwrap();
        assert_eq!(cfg.engines[0].program, "python3");
        assert_eq!(cfg.engines[0].args, vec!["fake.py", "crash"]);
        assert_eq!(cfg.engines[0].options[0].1, "-10");
        assert_eq!(cfg.engines[1].tc.movetime, Some(Duration::from_millis(500)));
    }

    #[test]
    fn ponder_for_each_engine_or_one() {
        let cfg = parse(&args(
            "--game pawns --engine cmd=a --engine cmd=b ponder=false --tc 1 --ponder",
        ))
        .unwrap();
        assert!(cfg.engines[0].ponder);
        assert!(!cfg.engines[1].ponder);
        let cfg = parse(&args(
            "--game pawns --engine cmd=a ponder=on --engine cmd=b --tc 1",
        ))
        .unwrap();
        assert!(cfg.engines[0].ponder && !cfg.engines[1].ponder);
        assert_eq!(
            parse(&args("--game pawns --ponder yes"))
                .unwrap_err()
                .to_string(),
            "--ponder takes no value, got 'yes'"
        );
    }

    /// The errors are typed: a caller (or a test) can tell which flag, key or engine is wrong
    /// without reading the sentence.
    #[test]
    fn errors_are_typed() {
        let err = |s: &str| parse(&args(s)).unwrap_err();
        let FlagError::Engine { engine: 2, error } =
            err("--engine cmd=a --engine cmd=b proto=cecq --tc 1")
        else {
            panic!("not the second engine's error");
        };
        assert!(matches!(*error, FlagError::Invalid { ref what, .. } if what == "proto"));
        assert!(matches!(
            err("--draw movecount=2 count=3"),
            FlagError::UnknownKey { ref flag, ref key, .. } if flag == "--draw" && key == "count"
        ));
        assert!(matches!(
            err("--each tc"),
            FlagError::NotKeyValue { ref word, .. } if word == "tc"
        ));
        assert_eq!(
            err("-tournament"),
            FlagError::NotOneValue {
                flag: "-tournament".into(),
                count: 0
            }
        );
        assert_eq!(err("games"), FlagError::NotAFlag("games".into()));
        assert!(matches!(err("--sprt elo0=5 elo1=0"), FlagError::Refused(_)));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |s: &str| parse(&args(s)).unwrap_err().to_string();
        assert_eq!(
            err("--game pawns --engine cmd=a --tc 1"),
            "kiebitz-match plays engines against each other: give --engine at least twice, got 1"
        );
        assert_eq!(
            err("--game pawns --engine cmd=a --engine cmd=b"),
            "engine 1 (a) has no time control: give --tc 10+0.1, st=, movetime=, depth= or nodes="
        );
        assert_eq!(
            err("--game pawns --engine cmd=a bogus=1 --engine cmd=b --tc 1"),
            "engine 1: unknown engine key 'bogus' (known: cmd name proto args dir option.NAME tc st movetime depth nodes timemargin variant ponder)"
        );
        assert_eq!(
            err("--game pawns --frobnicate"),
            "unknown option --frobnicate (see --help)"
        );
        assert_eq!(err("--games x"), "--games needs a number, got 'x'");
        assert_eq!(err("--games 0"), "--games must be positive, got '0'");
        assert!(
            err("--game pawns --engine cmd=a --engine cmd=b --tc 1+").contains("bad time control")
        );
        assert_eq!(
            err("--sprt elo0=5 elo1=0"),
            "SPRT needs elo0 < elo1, got elo0=5 elo1=0"
        );
        assert_eq!(
            err("--game pawns --engine cmd=a proto=xboard --engine cmd=b --nodes 100"),
            "engine 1 (a): XBoard has no node limit; use proto=uci or another limit"
        );
        assert!(
            parse(&args("--help"))
                .unwrap()
                .info
                .unwrap()
                .starts_with("usage:")
        );
        let three = "--engine cmd=a --engine cmd=b --engine cmd=c --tc 1";
        assert_eq!(
            err(&format!("{three} --sprt elo0=0 elo1=5")),
            "--sprt tests two engines: not with a tournament of more"
        );
        assert_eq!(
            err("--engine cmd=a --engine cmd=b --tc 1 --tournament knockout"),
            "--tournament must be round-robin or gauntlet, got 'knockout'"
        );
        assert_eq!(
            err("--openings file=o.epd plies=4"),
            "--openings: plies= goes with format=pgn or book=FILE.bin"
        );
        assert_eq!(
            err("--openings file=o.pgn policy=sometimes"),
            "--openings: policy must be default or round, got 'sometimes'"
        );
        assert_eq!(err("-log level=debug"), "-log needs file=FILE");
        assert_eq!(
            err("--pgnout g.pgn max"),
            "--pgnout: unknown word 'max' (known: FILE [min])"
        );
    }

    #[test]
    fn cutechess_and_fastchess_flags() {
        // No --game: chess, as in cutechess-cli and fastchess; `standard` is chess too.
        let two = "-engine cmd=a -engine cmd=b -each tc=1+0.01";
        let cfg = parse(&args(two)).unwrap();
        assert_eq!(cfg.game, "chess");
        assert_eq!(cfg.tournament, None);
        assert_eq!(
            parse(&args(&format!("-game standard {two}"))).unwrap().game,
            "chess"
        );
        let cfg = parse(&args(
            "-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1+0.01 \
             -openings file=o.pgn format=pgn plies=8 policy=round order=random \
             -pgnout out.pgn min -epdout end.epd -recover -log file=m.log level=trace",
        ))
        .unwrap();
        assert_eq!(cfg.engines.len(), 3);
        assert_eq!(
            cfg.tournament,
            Some(Tournament::RoundRobin),
            "more than two: a round robin"
        );
        let o = cfg.openings.unwrap();
        assert_eq!(o.pgn_plies, Some(Some(8)));
        assert!(o.same_per_round && o.random_order);
        assert_eq!((cfg.pgn.as_deref(), cfg.pgn_min), (Some("out.pgn"), true));
        assert_eq!(cfg.epdout.as_deref(), Some("end.epd"));
        assert!(cfg.recover);
        assert_eq!(
            cfg.log,
            Some(LogFile {
                path: "m.log".into(),
                level: log::LevelFilter::Trace
            })
        );
        // A .pgn file is PGN without format=; all its moves without plies=.
        let cfg = parse(&args(&format!(
            "{two} -openings file=book.pgn -tournament gauntlet"
        )))
        .unwrap();
        assert_eq!(cfg.openings.unwrap().pgn_plies, Some(None));
        assert_eq!(cfg.tournament, Some(Tournament::Gauntlet));
    }
}
