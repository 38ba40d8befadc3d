//! kiebitz-match: engine-vs-engine tournaments for every game (docs/rules.md §7).
//!
//! - [`cli`]: the command line.
//! - [`client`]: engine processes and their clients (UCI, XBoard, N-seat).
//! - [`clock`]: time controls and clocks.
//! - [`openings`]: openings from EPD/FEN files or seeded random plies filtered by a search.
//! - [`referee`]: one game under kiebitz's rules, with adjudication and forfeits.
//! - [`pgn`]: PGN out, and back in for replaying.
//! - [`stats`]: Elo, error bars, LOS, pentanomial counts, SPRT.
//! - [`report`]: the match line, the results table, clean Elo numbers.
//! - [`html`]: `--report FILE.html`, the match as a page with plots and replayable games.
//! - [`league`]: tournaments of more than two engines (round robin, gauntlet), their standings.
//! - [`nseat`]: tournaments of N-seat games (`--game chamaeleon`).
//! - [`runner`]: the one match runner, generic over seating: workers, game numbering, stop,
//!   progress, Ctrl-C; both kinds of match are a [`runner::Format`] it plays.
//!
//! This file dispatches on the game and defines the two-seat match: a `Match` made once
//! (openings, engines, rules) is the runner's [`runner::Format`] (a round is a pair of games
//! from one opening, colours swapped; a worker keeps a pair of engine processes, restarted
//! after a fault); the `Collector` consumes the finished games under the runner's lock: it
//! prints the running score, writes the PGN and stops on an SPRT decision. The referee is a
//! step function, [`referee::judge`]. N-seat games are the same runner's other format in
//! [`nseat`], with seats rotating through every seating.

pub mod cli;
pub mod client;
pub mod clock;
pub mod error;
pub mod html;
pub mod league;
pub mod nseat;
pub mod openings;
pub mod pgn;
pub mod referee;
pub mod report;
pub mod runner;
pub mod stats;

use std::sync::atomic::AtomicBool;

use crate::CliError;
use crate::board::Color;
use crate::game::{Game, Outcome};

use cli::Config;

/// `println!` that never panics on a closed stdout: false once nobody reads (see
/// [`crate::limits::print_line`]).
macro_rules! say {
    ($($arg:tt)*) => {
        crate::limits::print_line(format_args!($($arg)*))
    };
}
use client::Engine;
use error::MatchError;
use openings::{Book, Rng};
use referee::{GameRecord, Rules, Seats};
use runner::{Collect, Format, PgnFile, Played, Slot, Taken};
use stats::{Penta, Verdict, Wld};

/// `kiebitz-match …`: returns the exit code.
pub fn main(args: &[String]) -> i32 {
    // N-seat games have their own runner (2–4 seats, seatings, per-seat clocks).
    if let Some(code) = args
        .windows(2)
        .find(|w| w[0] == "--game" || w[0] == "-game")
        .and_then(|w| crate::games::with_game(&w[1], SeatsMain(args)))
        .flatten()
    {
        return code;
    }
    let cfg = match cli::parse(args) {
        Ok(cfg) => cfg,
        Err(e) => {
            eprintln!("kiebitz-match: {e}");
            return 2;
        }
    };
    if let Err(e) = start_log(cfg.log.as_ref()) {
        eprintln!("kiebitz-match: {e}");
        return 2;
    }
    if let Some(info) = &cfg.info {
        say!("{info}");
        return 0;
    }
    let result = crate::games::with_game(&cfg.game, Dispatch(&cfg)).unwrap_or_else(|| {
        Err(CliError::Failed(format!(
            "unknown game '{}' (known: {})",
            cfg.game,
            GAMES.join(", ")
        )))
    });
    crate::limits::exit_code(result, "kiebitz-match", 1)
}

/// The log: warnings on stderr, or with `-log file=FILE level=L` everything from level L on
/// (the engines' traffic at `debug`) into FILE.
fn start_log(log: Option<&cli::LogFile>) -> Result<(), MatchError> {
    let Some(log) = log else {
        let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
            .try_init();
        return Ok(());
    };
    let file =
        crate::files::append(std::path::Path::new(&log.path)).map_err(|e| MatchError::Log {
            path: log.path.clone(),
            reason: e.to_string(),
        })?;
    let _ = env_logger::Builder::new()
        .filter_level(log.level)
        .target(env_logger::Target::Pipe(Box::new(file)))
        .try_init();
    Ok(())
}

/// The tournament as a job for the game registry ([`crate::games::with_game`]).
struct Dispatch<'a>(&'a Config);

impl crate::games::ForGame for Dispatch<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Game>(self) -> Self::Output {
        dispatch::<G>(self.0)
    }
}

/// The N-seat tournament as a job for the game registry: `None` for a two-seat game.
struct SeatsMain<'a>(&'a [String]);

impl crate::games::ForGame for SeatsMain<'_> {
    type Output = Option<i32>;
    fn run<G: Game>(self) -> Self::Output {
        None
    }
    fn run_seats<G: crate::nsearch::NGame>(self) -> Option<Self::Output> {
        Some(Some(nseat::main::<G>(self.0)))
    }
}

/// Plays the tournament, or checks a PGN file, for game `G`.
fn dispatch<G: Game>(cfg: &Config) -> Result<(), CliError> {
    let played = match (&cfg.check_pgn, &cfg.from_pgn) {
        (Some(path), _) => return check_pgn::<G>(path),
        (None, Some(path)) => html::from_pgn::<G>(cfg, path).map_err(MatchError::from),
        (None, None) => match cfg.tournament {
            None => run::<G>(cfg).map(|_| ()),
            Some(kind) => league::run::<G>(cfg, kind),
        },
    };
    Ok(played?)
}

/// The largest PGN file `--check-pgn` reads (256 MiB, about a hundred thousand games).
pub const MAX_PGN_BYTES: u64 = runner::MAX_PGN_BYTES;

/// Replays every game of a PGN file under the rules of `G`: each must be legal, and a game
/// whose `Termination` is `normal` must end where the rules end it, with that result.
pub fn check_pgn<G: Game>(path: &str) -> Result<(), CliError> {
    let replay = |g: &pgn::PgnGame| {
        let (_, verdict) = pgn::replay::<G>(g)?;
        let normal = g.tag("Termination").is_none_or(|t| t == "normal");
        match verdict {
            Some(o) if o.result_string() != g.result => Err(format!(
                "the rules say {}, the PGN says {}",
                o.result_string(),
                g.result
            )),
            None if normal && g.result != "*" => {
                Err("the rules have not ended the game, yet its end is called normal".into())
            }
            _ => Ok(format!("{} plies, {}", g.moves.len(), g.result)),
        }
    };
    // A closed stdout (`| head`) ends nothing here; a failing one (a full disk) is an error.
    runner::check_records(path, pgn::parse, replay, |line| {
        match crate::limits::out(line) {
            Err(CliError::Closed) => Ok(()),
            written => written,
        }
    })
}

/// Chess960's variant name, and the UCI option that switches an engine to it.
const CHESS960: &str = "chess960";
const UCI_CHESS960: &str = "UCI_Chess960";

/// The games `--game` accepts: every game of the registry ([`crate::games::NAMES`]).
pub const GAMES: &[&str] = crate::games::NAMES;

/// What the main thread knows after each game.
#[derive(Default)]
struct Tally {
    wld: Wld,
    penta: Penta,
    /// First engine's points (0, 1 or 2 halves) of the first game of each pair, when its
    /// partner has not finished yet.
    pending: std::collections::HashMap<usize, usize>,
}

fn first_engine_half_points(record: &GameRecord, first_is_white: bool) -> usize {
    match (record.outcome, first_is_white) {
        (Outcome::Draw, _) => 1,
        (Outcome::Win(Color::White), true) | (Outcome::Win(Color::Black), false) => 2,
        _ => 0,
    }
}

/// The PGN `Site` of the games ([`set_site`]); `?` when unset.
static SITE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Names the PGN `Site` of every game (kiebitz-match passes the host name, `HOSTNAME`). Set
/// once, at start-up.
pub fn set_site(site: &str) {
    let _ = SITE.set(site.to_string());
}

/// The start position of the match's variant (`--variant`, else the game's first).
fn variant_start<G: Game>(cfg: &Config) -> Result<G, MatchError> {
    let variant: &str = match &cfg.variant {
        Some(v) => v,
        None => G::variants()[0],
    };
    G::startpos(variant).map_err(|error| MatchError::Variant {
        error,
        game: G::GAME,
        variants: G::variants().join(", "),
    })
}

/// The openings of an `--openings` file in the order they are played: from `start=` (and a
/// tournament pairing's `offset`), shuffled with `order=random`.
fn in_play_order<T>(
    cfg: &Config,
    f: &cli::OpeningsFile,
    mut items: Vec<T>,
) -> Result<Vec<T>, String> {
    if f.start > items.len() {
        return Err(format!(
            "--openings start={} but {} holds only {} openings",
            f.start,
            f.path,
            items.len()
        ));
    }
    if f.random_order {
        // Shuffled once, the same way for every pairing of a tournament.
        items.rotate_left(f.start - 1);
        let mut rng = Rng::new(cfg.seed);
        for i in (1..items.len()).rev() {
            items.swap(i, rng.below(i + 1));
        }
        let len = items.len();
        items.rotate_left(f.offset % len);
    } else {
        let len = items.len();
        items.rotate_left((f.start - 1 + f.offset) % len);
    }
    Ok(items)
}

/// The positions of an EPD/FEN `--openings` file in play order, or the start position alone.
fn opening_bases<G: Game>(cfg: &Config, start: &G) -> Result<Vec<G>, String> {
    let Some(f) = cfg
        .openings
        .as_ref()
        .filter(|f| f.book_plies.is_none() && f.pgn_plies.is_none())
    else {
        return Ok(vec![start.clone()]);
    };
    let bases = openings::read_file::<G>(&f.path, start.variant())?;
    in_play_order(cfg, f, bases)
}

/// Where the openings come from: the bases, random plies, an opening book's walk, or the
/// first moves of the games of a PGN file.
fn opening_book<G: Game>(cfg: &Config, start: &G) -> Result<Book<G>, String> {
    if let Some(f) = cfg.openings.as_ref()
        && let Some(plies) = f.pgn_plies
    {
        let lines = openings::read_pgn::<G>(&f.path, start.variant(), plies)?;
        return Ok(Book::from_lines(in_play_order(cfg, f, lines)?, cfg.seed));
    }
    let book = Book::new(opening_bases(cfg, start)?, cfg.random.clone(), cfg.seed);
    let Some((path, plies)) = cfg
        .openings
        .as_ref()
        .and_then(|f| Some((&f.path, f.book_plies?)))
    else {
        return Ok(book);
    };
    let polyglot = crate::book::Book::open(path).map_err(|e| format!("--openings: {e}"))?;
    if polyglot.moves(start).is_empty() {
        return Err(format!(
            "--openings: the book {path} has no legal move for the start position of \
             {} (a book of another game or variant?)",
            start.variant()
        ));
    }
    Ok(book.with_book(openings::BookWalk {
        book: std::sync::Arc::new(polyglot),
        plies,
    }))
}

/// The engines as they are started, and their own names for the variant: standard chess
/// (XBoard's `normal`) needs none, and Chess960 is the option UCI_Chess960 for UCI engines
/// (XBoard's `fischerandom`).
fn engine_setup<G: Game>(
    cfg: &Config,
    variant: &str,
) -> (Vec<client::EngineConfig>, Vec<Option<String>>) {
    let is_chess = G::xboard_name(variant) == "normal";
    let uci960 = |e: &client::EngineConfig| variant == CHESS960 && e.proto == client::Proto::Uci;
    let engine_cfgs = cfg
        .engines
        .iter()
        .map(|e| {
            let mut e = e.clone();
            let set = e
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(UCI_CHESS960));
            if uci960(&e) && !set {
                e.options.push((UCI_CHESS960.into(), "true".into()));
            }
            e
        })
        .collect();
    let engine_variant = cfg
        .engines
        .iter()
        .map(|e| {
            e.variant.clone().or_else(|| {
                (!is_chess && !uci960(e)).then(|| match e.proto {
                    client::Proto::Uci => variant.to_string(),
                    client::Proto::Xboard => G::xboard_name(variant).to_string(),
                })
            })
        })
        .collect();
    (engine_cfgs, engine_variant)
}

/// Starts each engine once: a wrong command fails here, and we learn the names (the second
/// of two equal names gets ` (2)`).
fn engine_names(
    engine_cfgs: &[client::EngineConfig],
    engine_variant: &[Option<String>],
    variant: &str,
) -> Result<Vec<String>, MatchError> {
    let mut names = Vec::new();
    for (e, wanted) in engine_cfgs.iter().zip(engine_variant) {
        let engine = Engine::start(e)?;
        // Refuse a variant the engine does not announce, as cutechess does.
        if let Some(v) = wanted
            && engine.announces_variant(v) == Some(false)
        {
            return Err(MatchError::NotAnnounced {
                engine: engine.display_name(),
                variant: v.clone(),
                offers: engine.announced_variants(),
            });
        }
        if variant == CHESS960 && e.proto == client::Proto::Uci && !engine.has_option(UCI_CHESS960)
        {
            return Err(MatchError::NoOption {
                engine: engine.display_name(),
                option: UCI_CHESS960,
                variant: CHESS960,
            });
        }
        names.push(engine.display_name());
    }
    if names[0] == names[1] {
        names[1].push_str(" (2)");
    }
    Ok(names)
}

/// What every game of a match shares: made once, read by every worker.
struct Match<'a, G: Game> {
    cfg: &'a Config,
    variant: &'static str,
    book: Book<G>,
    engine_cfgs: Vec<client::EngineConfig>,
    rules: Rules,
    names: Vec<String>,
    total: usize,
}

impl<'a, G: Game> Match<'a, G> {
    /// The match of `cfg`: its openings, engines (started once to check them) and rules.
    fn new(cfg: &'a Config) -> Result<Match<'a, G>, MatchError> {
        let start = variant_start::<G>(cfg)?;
        let variant = start.variant();
        let book = opening_book(cfg, &start)?;
        let (engine_cfgs, engine_variant) = engine_setup::<G>(cfg, variant);
        let rules = Rules {
            draw: cfg.draw,
            resign: cfg.resign,
            maxmoves: cfg.maxmoves,
            timeout: cfg.timeout,
            engine_variant: [engine_variant[0].clone(), engine_variant[1].clone()],
            abort: std::sync::Arc::new(AtomicBool::new(false)),
        };
        let names = engine_names(&engine_cfgs, &engine_variant, variant)?;
        Ok(Match {
            cfg,
            variant,
            book,
            engine_cfgs,
            rules,
            names,
            total: cfg.total_games(),
        })
    }

    /// The match line: `A vs B: N games of V, TC, concurrency C`.
    fn announce(&self) {
        let cfg = self.cfg;
        let (tc0, tc1) = (cfg.engines[0].tc.describe(), cfg.engines[1].tc.describe());
        let tc = if tc0 == tc1 {
            tc0
        } else {
            format!("{tc0} vs {tc1}")
        };
        say!(
            "{} vs {}: {} games of {}, {tc}, concurrency {}",
            self.names[0],
            self.names[1],
            self.total,
            self.variant,
            cfg.concurrency
        );
    }

    /// Restarts the engines that are missing (never started, or dropped after a fault).
    fn restart(&self, engines: &mut [Option<Engine>; 2]) {
        for (k, slot) in engines.iter_mut().enumerate() {
            if slot.is_none() {
                match Engine::start(&self.engine_cfgs[k]) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => log::error!("restarting {}: {e}", self.names[k]),
                }
            }
        }
    }
}

/// The two-seat match as the runner plays it: a round is a pair of games from one opening,
/// the first engine White in seating 0 and Black in seating 1; a worker keeps a pair of engine
/// processes (restarted after a fault).
impl<G: Game> Format for Match<'_, G> {
    type Record = GameRecord;
    type Worker = [Option<Engine>; 2];

    fn games(&self) -> usize {
        self.total
    }

    fn seatings(&self) -> usize {
        2
    }

    fn stop(&self) -> &AtomicBool {
        &self.rules.abort
    }

    fn play(
        &self,
        slot: Slot,
        engines: &mut [Option<Engine>; 2],
        announce: &mut dyn FnMut(String),
    ) -> Played<GameRecord> {
        let (g, pair, first_white) = (slot.index, slot.round, slot.seating == 0);
        let opening = match self.book.get(pair) {
            Ok(o) => o,
            Err(e) => return Played::Failed(e),
        };
        self.restart(engines);
        let [a, b] = engines;
        let (Some(ea), Some(eb)) = (a.as_mut(), b.as_mut()) else {
            // An engine could not be restarted: it loses the game by default.
            let broken_first = a.is_none();
            let record = forfeit_record(
                &opening.start,
                g,
                pair,
                &self.names,
                first_white,
                broken_first,
                self.cfg,
            );
            return Played::Finished(record);
        };
        let seats = if first_white {
            Seats {
                engines: [ea, eb],
                names: [self.names[0].clone(), self.names[1].clone()],
            }
        } else {
            Seats {
                engines: [eb, ea],
                names: [self.names[1].clone(), self.names[0].clone()],
            }
        };
        announce(format!(
            "Started game {} of {} ({} vs {})",
            g + 1,
            self.total,
            seats.names[0],
            seats.names[1]
        ));
        // The referee tells each seat (White, Black) its engine's variant name.
        let rules = if first_white {
            self.rules.clone()
        } else {
            let [a, b] = self.rules.engine_variant.clone();
            Rules {
                engine_variant: [b, a],
                ..self.rules.clone()
            }
        };
        let record = referee::play_game(seats, &opening, &rules, g + 1, pair);
        if record.termination == referee::Termination::Unterminated {
            return Played::Cut;
        }
        // Restart an engine that misbehaved.
        for (side, bad) in record.faulty.iter().enumerate() {
            if *bad {
                let first = (side == 0) == first_white;
                engines[if first { 0 } else { 1 }] = None;
            }
        }
        Played::Finished(record)
    }
}

/// The consumers of a two-seat match's finished games, run under the runner's lock: they alone
/// print (so lines come in order), count the games, write the PGN and decide the SPRT.
struct Collector<'a, G> {
    cfg: &'a Config,
    names: &'a [String],
    total: usize,
    header: pgn::Header,
    pgn_file: PgnFile,
    /// `-epdout FILE`: the final positions.
    epd_file: PgnFile,
    tally: Tally,
    results: report::Results,
    verdict: Verdict,
    fatal: Option<MatchError>,
    /// `--report FILE.html`: the page, fed every finished game.
    report_page: html::Report,
    done: usize,
    printed: usize,
    ponder: referee::PonderCount,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Collect<GameRecord> for Collector<'_, G> {
    fn started(&mut self, line: String) {
        if self.verdict == Verdict::Continue {
            say!("{line}");
        }
    }

    fn finished(&mut self, _slot: Slot, record: GameRecord) -> Taken {
        // After an SPRT decision, games still finishing are not counted.
        if self.verdict != Verdict::Continue {
            return Taken::Ignored;
        }
        self.count(&record);
        // Nobody reads the results any more (`| head`): end the match quietly.
        let mut go = self.announce_finished(&record);
        if let Err(e) = self.write_pgn(&record) {
            self.fatal = Some(e);
            go = false;
        }
        if self.score_and_sprt() && go {
            Taken::Go
        } else {
            Taken::Stop
        }
    }

    fn failed(&mut self, error: String) {
        self.fatal = Some(MatchError::Refused(error));
    }

    /// The score and the pentanomial counts.
    fn figures(&self) -> String {
        format!(
            "{}\nPtnml(0-2): {:?}",
            self.score_line(),
            self.tally.penta.0
        )
    }
}

impl<G: Game> Collector<'_, G> {
    /// A finished game into the tallies: results, points, pairs.
    fn count(&mut self, record: &GameRecord) {
        self.done += 1;
        self.ponder.add(&record.ponder);
        let first_white = (record.number - 1).is_multiple_of(2);
        self.results.add(record, first_white);
        self.report_page.add(record);
        let half = first_engine_half_points(record, first_white);
        let tally = &mut self.tally;
        match half {
            2 => tally.wld.wins += 1,
            1 => tally.wld.draws += 1,
            _ => tally.wld.losses += 1,
        }
        if let Some(other) = tally.pending.remove(&record.pair) {
            tally.penta.add(other + half);
        } else {
            tally.pending.insert(record.pair, half);
        }
    }

    /// The `Finished game` line (false: nobody reads stdout), and a warning for a game that
    /// did not end by the rules or adjudication.
    fn announce_finished(&self, record: &GameRecord) -> bool {
        let heard = say!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            record.number,
            record.white,
            record.black,
            record.outcome.result_string(),
            record.reason
        );
        if record.termination != referee::Termination::Normal
            && record.termination != referee::Termination::Adjudication
        {
            log::warn!(
                "game {}: {} ({})",
                record.number,
                record.reason,
                record.termination.tag()
            );
        }
        heard
    }

    fn write_pgn(&mut self, record: &GameRecord) -> Result<(), MatchError> {
        let header = &self.header;
        self.pgn_file
            .write(|| pgn::write::<G>(record, header))
            .map_err(|e| MatchError::Record {
                what: "PGN file",
                reason: e.to_string(),
            })?;
        self.epd_file
            .write(|| format!("{}\n", pgn::final_fen::<G>(record)))
            .map_err(|e| MatchError::Record {
                what: "EPD file",
                reason: e.to_string(),
            })
    }

    /// The running score, the SPRT's verdict and the Elo block when due; false once the SPRT
    /// has decided.
    fn score_and_sprt(&mut self) -> bool {
        say!("{}", self.score_line());
        if let Some(sprt) = &self.cfg.sprt {
            self.verdict = sprt.verdict(sprt.llr(&self.tally.penta));
        }
        if self.done.is_multiple_of(self.cfg.rating_interval as usize) {
            print_block(&self.tally, self.cfg, self.verdict);
            self.printed = self.done;
        }
        self.verdict == Verdict::Continue
    }

    /// `Score of A vs B: W - L - D  [score] games`.
    fn score_line(&self) -> String {
        let (w, names) = (&self.tally.wld, self.names);
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            names[0],
            names[1],
            w.wins,
            w.losses,
            w.draws,
            w.score(),
            w.games()
        )
    }

    /// The end of the match: the last Elo block, the SPRT decision, the results table, the
    /// ponder counts and `Finished match`; the first engine's wins, losses and draws.
    fn finish(self, variant: &str) -> Result<Wld, MatchError> {
        let (names, cfg, done, total) = (self.names, self.cfg, self.done, self.total);
        if self.printed != done || done == 0 {
            print_block(&self.tally, cfg, self.verdict);
        }
        match self.verdict {
            Verdict::H0 => say!("SPRT: H0 accepted (the difference is at most elo0)"),
            Verdict::H1 => say!("SPRT: H1 accepted (the difference is at least elo1)"),
            Verdict::Continue => true,
        };
        say!(
            "Results of {} vs {} ({done} of {total} games of {variant}):",
            names[0],
            names[1]
        );
        say!("{}", self.results.table(names).trim_end_matches('\n'));
        if cfg.engines.iter().any(|e| e.ponder) {
            let p = self.ponder;
            say!(
                "Pondering: {} go ponder, {} ponderhit, {} stop (another move came), {} stop at the game's end",
                p.starts,
                p.hits,
                p.misses,
                p.ended
            );
        }
        say!("Finished match");
        let report = self.report_page.finish();
        match self.fatal {
            Some(e) => Err(e),
            None => Ok(report.map(|()| self.tally.wld)?),
        }
    }
}

/// Runs the match of two engines for game `G`: the [`runner`] plays the games of a [`Match`]
/// on `--concurrency` workers and hands each finished game to the [`Collector`]. Returns the
/// engines' names and the first engine's wins, losses and draws.
pub fn run<G: Game>(cfg: &Config) -> Result<([String; 2], Wld), MatchError> {
    let m = Match::<G>::new(cfg)?;
    let total = m.total;
    let pgn_file = PgnFile::append(cfg.pgn.as_deref(), "PGN file")?;
    m.announce();
    if let Some(warning) = repetition_warning(cfg, total) {
        eprintln!("kiebitz-match: warning: {warning}");
    }
    let header = pgn::Header {
        event: cfg.event.clone(),
        site: SITE.get().cloned().unwrap_or_else(|| "?".into()),
        date: pgn::today(),
        minimal: cfg.pgn_min,
    };
    let epd_file = PgnFile::append(cfg.epdout.as_deref(), "EPD file")?;
    let report_page = html::Report::for_match::<G>(cfg, &m.names, &header, total)?;
    let collector = Collector::<G> {
        cfg,
        names: &m.names,
        total,
        header,
        pgn_file,
        epd_file,
        tally: Tally::default(),
        results: report::Results::default(),
        verdict: Verdict::Continue,
        fatal: None,
        report_page,
        done: 0,
        printed: 0,
        ponder: referee::PonderCount::default(),
        game: std::marker::PhantomData,
    };
    let wld = runner::play(&m, collector, cfg.concurrency).finish(m.variant)?;
    Ok(([m.names[0].clone(), m.names[1].clone()], wld))
}

/// Why the match would play the same game again and again, if it would: no openings and no
/// random plies, and either both seats run the same program with the same options (self-play)
/// or both are limited by depth or nodes only (deterministic engines repeat their games).
fn repetition_warning(cfg: &Config, total: usize) -> Option<String> {
    if cfg.openings.is_some() || cfg.random.is_some() || total < 2 {
        return None;
    }
    let [a, b] = [&cfg.engines[0], &cfg.engines[1]];
    let self_play = a.program == b.program && a.args == b.args && a.options == b.options;
    let fixed = |e: &client::EngineConfig| {
        e.tc.clock.is_none()
            && e.tc.movetime.is_none()
            && (e.tc.depth.is_some() || e.tc.nodes.is_some())
    };
    let why = if self_play {
        "both seats run the same engine with the same options"
    } else if fixed(a) && fixed(b) && total > 2 {
        "both engines search to a fixed depth or node count"
    } else {
        return None;
    };
    Some(format!(
        "{why} and every game starts from the same position without --openings or --random-openings: \
         the games will likely repeat one another; give an opening book (--openings FILE) \
         or random plies (--random-openings plies=N)"
    ))
}

fn print_block(tally: &Tally, cfg: &Config, verdict: Verdict) {
    let games = tally.wld.elo();
    let pairs = tally.penta.elo();
    let draw_ratio = if tally.wld.games() > 0 {
        100.0 * tally.wld.draws as f64 / tally.wld.games() as f64
    } else {
        0.0
    };
    say!(
        "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
        report::elo_text(games.elo),
        report::error_text(games.error),
        100.0 * tally.wld.los(),
        draw_ratio
    );
    let p = tally.penta.0;
    say!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}], pairs {}, pair Elo: {} +/- {}, LOS: {:.1} %",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        tally.penta.pairs(),
        report::elo_text(pairs.elo),
        report::error_text(pairs.error),
        100.0 * pairs.los
    );
    if let Some(sprt) = &cfg.sprt {
        let llr = sprt.llr(&tally.penta);
        let (lo, hi) = sprt.bounds();
        let state = match verdict {
            Verdict::Continue => "continue",
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        };
        say!(
            "SPRT: llr {:.3} ({:.1} %), lbound {:.2}, ubound {:.2} - {} [elo0={}, elo1={}, alpha={}, beta={}]",
            llr,
            100.0 * llr / hi,
            lo,
            hi,
            state,
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta
        );
    }
}

/// A game lost by an engine that could not be (re)started.
fn forfeit_record<G: Game>(
    start: &G,
    g: usize,
    pair: usize,
    names: &[String],
    first_white: bool,
    broken_first: bool,
    cfg: &Config,
) -> GameRecord {
    let white_broken = broken_first == first_white;
    let loser = if white_broken {
        Color::White
    } else {
        Color::Black
    };
    let (w, b) = if first_white { (0, 1) } else { (1, 0) };
    let fen = start.fen();
    let startpos = G::startpos(start.variant())
        .map(|s| s.fen() == fen)
        .unwrap_or(false);
    GameRecord {
        number: g + 1,
        pair,
        white: names[w].clone(),
        black: names[b].clone(),
        variant: start.variant(),
        fen,
        startpos,
        moves: Vec::new(),
        outcome: Outcome::Win(loser.flip()),
        termination: referee::Termination::Abandoned,
        reason: format!(
            "{} cannot be started",
            if white_broken { "White" } else { "Black" }
        ),
        time_controls: [cfg.engines[w].tc.pgn_tag(), cfg.engines[b].tc.pgn_tag()],
        faulty: [white_broken, !white_broken],
        ponder: Default::default(),
    }
}
