//! The command line of N-seat tournaments (`kiebitz-match --game chamaeleon …`): the flags of
//! the two-seat runner where they make sense for N seats (`--movetime`, `--st`, `--tc`,
//! `--games`, `--rounds`, `--concurrency`, `--pgn`, `--openings`, `--check-pgn`, `--seed`), and
//! the N-seat ones (`--players`, `--clock`, `--random-turns`).
//!
//! Where the two runners differ: the seats rotate through every seating instead of swapping
//! colours; `--games N` caps the games (the two-seat runner multiplies it by `--rounds`); a bare
//! `--tc S` keeps its older N-seat meaning of S seconds a move, while `--tc BASE+INC` is a clock
//! per seat as in the two-seat runner.

use std::time::Duration;

use crate::tournament::client::nseat::Spec;
use crate::tournament::error::FlagError;

use super::{MAX_CONCURRENCY, MAX_GAMES};

pub(super) const USAGE: &str = "\
usage: kiebitz-match --game chamaeleon [--players N]
         --engine cmd=PATH [name=NAME] [arg=ARG]… [option.K=V]…   (two or more)
         [--movetime MS | --st SECONDS | --tc SECONDS | --tc BASE+INC | --clock BASE+INC]
         [--rounds N] [--games N] [--concurrency N] [--openings FILE]
         [--random-turns K] [--seed S] [--pgn FILE]
       kiebitz-match --game chamaeleon --check-pgn FILE
Every seating of the engines is played --rounds times (a round shares its opening: the next
position of --openings FILE, one position text a line, then --random-turns K random turns);
--games N stops after N games. --movetime gives each move MS milliseconds, --st and a bare
--tc SECONDS; --tc BASE+INC and --clock BASE+INC give each seat BASE seconds plus INC a move.
--check-pgn replays every record of a file and checks its moves and results.";

/// The tournament's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub players: usize,
    pub engines: Vec<Spec>,
    pub movetime: Option<Duration>,
    pub clock: Option<(Duration, Duration)>,
    pub rounds: usize,
    pub random_turns: usize,
    pub seed: u64,
    pub max_games: Option<usize>,
    pub concurrency: usize,
    pub pgn: Option<String>,
    /// `--openings FILE`: start positions, one a line; round `r` starts from position
    /// `r mod count`.
    pub openings: Option<String>,
    /// `--check-pgn FILE`: replay the records of a file instead of playing.
    pub check_pgn: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            players: 4,
            engines: Vec::new(),
            movetime: None,
            clock: None,
            rounds: 1,
            random_turns: 0,
            seed: 1,
            max_games: None,
            concurrency: 1,
            pgn: None,
            openings: None,
            check_pgn: None,
        }
    }
}

fn num<T: std::str::FromStr>(what: &str, v: Option<&String>) -> Result<T, FlagError> {
    let v = value(what, v)?;
    v.parse().map_err(|_| FlagError::NotANumber {
        what: what.to_string(),
        value: v.clone(),
    })
}

fn secs(what: &str, v: &str) -> Result<Duration, FlagError> {
    let x: f64 = v.parse().map_err(|_| FlagError::NotSeconds {
        what: what.to_string(),
        value: v.to_string(),
    })?;
    Ok(crate::limits::seconds(what, x)?)
}

fn value<'a>(what: &str, v: Option<&'a String>) -> Result<&'a String, FlagError> {
    v.ok_or_else(|| FlagError::MissingValue {
        what: what.to_string(),
    })
}

/// `BASE+INC` (or `BASE`) seconds: a clock per seat.
fn clock(what: &str, v: &str) -> Result<(Duration, Duration), FlagError> {
    if v.contains('/') {
        return Err(format!(
            "{what} {v}: N-seat clocks have no move periods; give BASE+INC seconds"
        )
        .into());
    }
    let (b, inc) = v.split_once('+').unwrap_or((v, "0"));
    Ok((secs(what, b)?, secs(what, inc)?))
}

/// One flag and its value (`next`) into `cfg`.
fn flag(cfg: &mut Config, a: &str, next: Option<&String>) -> Result<(), FlagError> {
    match a {
        "--game" => {}
        "--players" => cfg.players = num("--players", next)?,
        "--movetime" => {
            cfg.movetime = Some(crate::limits::millis(
                "--movetime",
                num("--movetime", next)?,
            )?)
        }
        "--st" => cfg.movetime = Some(secs("--st", value("--st", next)?)?),
        "--tc" => {
            let v = value("--tc", next)?;
            if v.contains(['+', '/']) {
                cfg.clock = Some(clock("--tc", v)?);
            } else {
                cfg.movetime = Some(secs("--tc", v)?);
            }
        }
        "--clock" => cfg.clock = Some(clock("--clock", value("--clock", next)?)?),
        "--rounds" => cfg.rounds = num("--rounds", next)?,
        "--random-turns" => cfg.random_turns = num("--random-turns", next)?,
        "--seed" => cfg.seed = num("--seed", next)?,
        "--games" => cfg.max_games = Some(num("--games", next)?),
        "--concurrency" => cfg.concurrency = num("--concurrency", next)?,
        "--pgn" => cfg.pgn = Some(value("--pgn", next)?.clone()),
        "--openings" => cfg.openings = Some(value("--openings", next)?.clone()),
        "--check-pgn" => cfg.check_pgn = Some(value("--check-pgn", next)?.clone()),
        "--help" | "-h" => return Err(USAGE.into()),
        other => return Err(format!("unknown option '{other}'\n{USAGE}").into()),
    }
    Ok(())
}

/// `--engine cmd=… name=… arg=… option.K=V`, the words from `args[i]` on; returns the engine
/// and the index after its last word.
fn engine(args: &[String], mut i: usize, number: usize) -> Result<(Spec, usize), FlagError> {
    let mut spec = Spec {
        name: String::new(),
        cmd: String::new(),
        args: Vec::new(),
        options: Vec::new(),
    };
    while let Some(w) = args.get(i).filter(|w| !w.starts_with("--")) {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("engine setting '{w}' is not KEY=VALUE"))?;
        match k {
            "cmd" => spec.cmd = v.to_string(),
            "name" => spec.name = v.to_string(),
            "arg" => spec.args.push(v.to_string()),
            _ => match k.strip_prefix("option.") {
                Some(o) => spec.options.push((o.to_string(), v.to_string())),
                None => return Err(format!("unknown engine setting '{k}'").into()),
            },
        }
        i += 1;
    }
    if spec.cmd.is_empty() {
        return Err("--engine needs cmd=PATH".into());
    }
    if spec.name.is_empty() {
        spec.name = format!("E{number}");
    }
    Ok((spec, i))
}

/// The checks after every flag is read.
fn validate(mut cfg: Config) -> Result<Config, FlagError> {
    if cfg.check_pgn.is_some() {
        return Ok(cfg);
    }
    if cfg.engines.len() < 2 {
        return Err(format!("two or more engines are needed\n{USAGE}").into());
    }
    if cfg.movetime.is_none() && cfg.clock.is_none() {
        cfg.movetime = Some(Duration::from_secs(1));
    }
    if cfg.rounds == 0 || cfg.concurrency == 0 {
        return Err("--rounds and --concurrency must be positive".into());
    }
    if cfg.concurrency > MAX_CONCURRENCY {
        return Err(format!(
            "--concurrency must be 1 to {MAX_CONCURRENCY}, not {}",
            cfg.concurrency
        )
        .into());
    }
    if cfg.rounds > MAX_GAMES || cfg.max_games.is_some_and(|g| g > MAX_GAMES) {
        return Err(format!(
            "--rounds and --games must be at most {MAX_GAMES} (the most games one tournament plays)"
        )
        .into());
    }
    Ok(cfg)
}

/// Parses the command line (after `--game chamaeleon` has chosen this runner).
pub fn parse(args: &[String]) -> Result<Config, FlagError> {
    let mut cfg = Config::default();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--engine" {
            let (spec, end) = engine(args, i + 1, cfg.engines.len() + 1)?;
            cfg.engines.push(spec);
            i = end;
        } else {
            flag(&mut cfg, &args[i], args.get(i + 1))?;
            i += 2;
        }
    }
    validate(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_two_seat_flags_read_for_n_seats() {
        let base = "--game chamaeleon --engine cmd=a --engine cmd=b name=B option.Algorithm=brs";
        let cfg = parse(&args(&format!(
            "{base} --movetime 20 --games 3 --concurrency 2 --pgn x.pgn --openings o.txt"
        )))
        .unwrap();
        assert_eq!(cfg.movetime, Some(Duration::from_millis(20)));
        assert_eq!(cfg.clock, None);
        assert_eq!(cfg.max_games, Some(3));
        assert_eq!(cfg.concurrency, 2);
        assert_eq!(cfg.pgn.as_deref(), Some("x.pgn"));
        assert_eq!(cfg.openings.as_deref(), Some("o.txt"));
        assert_eq!(cfg.engines[0].name, "E1");
        assert_eq!(
            cfg.engines[1].options,
            vec![("Algorithm".into(), "brs".into())]
        );
        let cfg = parse(&args(&format!("{base} --tc 2+0.5"))).unwrap();
        assert_eq!(
            cfg.clock,
            Some((Duration::from_secs(2), Duration::from_millis(500)))
        );
        let cfg = parse(&args(&format!("{base} --tc 0.25"))).unwrap();
        assert_eq!(cfg.movetime, Some(Duration::from_millis(250)));
        let cfg = parse(&args(&format!("{base} --st 0.5"))).unwrap();
        assert_eq!(cfg.movetime, Some(Duration::from_millis(500)));
        let cfg = parse(&args("--game chamaeleon --check-pgn g.pgn")).unwrap();
        assert_eq!(cfg.check_pgn.as_deref(), Some("g.pgn"));
        assert!(parse(&args(&format!("{base} --tc 40/60"))).is_err());
        assert!(parse(&args(&format!("{base} --movetime x"))).is_err());
        assert!(parse(&args("--game chamaeleon --engine cmd=a")).is_err());
    }
}
