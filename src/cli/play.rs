//! `play`: a game against the engine in the terminal. The board is drawn with the game's
//! `pretty()`, moves are typed in coordinate notation; `undo` takes back a move pair, `hint`
//! asks the engine, `quit` (or end of input) leaves.

use crate::error::CliError;
use std::io;
use std::time::{Duration, Instant};

use crate::board::Color;
use crate::game::Game;
use crate::protocol::{GameLine, color_name, legal_moves, pv_text};
use crate::search::oracle::Oracle;
use crate::search::{Control, Limits, Score, Searcher};

/// The engine's time: a fixed time per move, or a clock with increment.
#[derive(Clone, Copy, Debug, PartialEq)]
enum TimeControl {
    PerMove(Duration),
    Clock { base: Duration, inc: Duration },
}

/// Why `--tc` was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
enum TimeControlError {
    /// Not `SECONDS` or `BASE+INC`; holds the argument.
    #[error("bad time control '{0}': SECONDS per move or BASE+INC in seconds")]
    NotATime(String),
    /// A number of seconds outside what a clock takes: the bound's sentence.
    #[error("{0}")]
    OutOfRange(String),
}

/// Parses `SECONDS` or `BASE+INC` (seconds, fractions allowed).
fn parse_tc(text: &str) -> Result<TimeControl, TimeControlError> {
    let secs = |s: &str| -> Result<Duration, TimeControlError> {
        let v: f64 = s
            .trim()
            .parse()
            .map_err(|_| TimeControlError::NotATime(text.to_string()))?;
        crate::limits::seconds(&format!("the time control '{text}'"), v)
            .map_err(|e| TimeControlError::OutOfRange(e.to_string()))
    };
    match text.split_once('+') {
        Some((base, inc)) => Ok(TimeControl::Clock {
            base: secs(base)?,
            inc: secs(inc)?,
        }),
        None => Ok(TimeControl::PerMove(secs(text)?)),
    }
}

/// The printer of the game's lines: a failing stdout (`> /dev/full`) ends the game with an
/// error, a closed one quietly.
fn say(text: &str) -> Result<(), CliError> {
    crate::limits::out(format_args!("{text}"))
}

/// The engine's move in `pos` under `tc` (its clock, if it has one, is charged), pushed onto
/// the game with a line saying it.
fn engine_move<G: Game>(
    searcher: &mut Searcher<G>,
    game: &mut GameLine<G>,
    tc: TimeControl,
    engine_clock: &mut Option<Duration>,
) -> Result<(), CliError> {
    let pos = game.current().clone();
    let mut limits = Limits::default();
    match (tc, *engine_clock) {
        (TimeControl::Clock { inc, .. }, Some(left)) => {
            // The human's clock is not kept: both sides get the engine's time.
            limits.time = [Some(left), Some(left)];
            limits.inc = [inc, inc];
        }
        (TimeControl::PerMove(t), _) => limits.movetime = Some(t),
        (TimeControl::Clock { .. }, None) => limits.movetime = Some(Duration::from_secs(1)),
    }
    let began = Instant::now();
    let result = searcher.search(
        &pos,
        &game.history(),
        &limits,
        &Control::default(),
        &mut |_| {},
    );
    if let (TimeControl::Clock { inc, .. }, Some(left)) = (tc, engine_clock.as_mut()) {
        *left = left.saturating_sub(began.elapsed()) + inc;
    }
    if !game.is_legal(result.best) {
        return Err("the engine found no legal move".into());
    }
    let score = match result.score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("mate {n}"),
    };
    say(&format!(
        "Engine plays {} (depth {}, score {score}, {:.1} s)",
        pos.move_text(result.best),
        result.depth,
        began.elapsed().as_secs_f64()
    ))?;
    game.push(result.best);
    Ok(())
}

/// `undo`: takes back the engine's reply and the human's move.
fn undo<G: Game>(game: &mut GameLine<G>, human: Color) -> Result<(), CliError> {
    let n = if game.moves().len() >= 2 {
        2
    } else {
        game.moves().len()
    };
    if n == 0 || (n == 1 && human == Color::Black) {
        say("Nothing to take back.")?;
    } else {
        for _ in 0..n {
            game.pop();
        }
    }
    Ok(())
}

/// `hint`: half a second's search, its move.
fn hint<G: Game>(searcher: &mut Searcher<G>, game: &GameLine<G>) -> Result<(), CliError> {
    let pos = game.current();
    let limits = Limits {
        movetime: Some(Duration::from_millis(500)),
        ..Limits::default()
    };
    let r = searcher.search(
        pos,
        &game.history(),
        &limits,
        &Control::default(),
        &mut |_| {},
    );
    let line = pv_text(pos, &[r.best]);
    say(&format!(
        "Hint: {}",
        line.first().map_or("none", String::as_str)
    ))
}

/// A move typed by the human, or the legal moves when it is none of them.
fn human_move<G: Game>(game: &mut GameLine<G>, mv: &str) -> Result<(), CliError> {
    let pos = game.current().clone();
    if let Err(e) = game.push_text(mv) {
        let moves: Vec<String> = legal_moves(&pos)
            .iter()
            .map(|m| pos.move_text(*m))
            .collect();
        say(&format!(
            "Illegal move: {mv} ({e}). Legal: {}",
            moves.join(" ")
        ))?;
    }
    Ok(())
}

pub fn play<G: Game>(
    color: &str,
    tc: &str,
    variant: Option<&str>,
    fen: Option<&str>,
    hash_mb: usize,
    oracle: Option<Oracle<G>>,
) -> Result<(), CliError> {
    let human = match color {
        "white" => Color::White,
        "black" => Color::Black,
        other => return Err(format!("--color must be white or black, not '{other}'").into()),
    };
    let tc = parse_tc(tc).map_err(|e| e.to_string())?;
    let start = super::start_position::<G>(variant, fen)?;
    let mut game = GameLine::new(start);
    let mut searcher = Searcher::<G>::new(hash_mb);
    searcher.set_oracle(oracle);
    let mut engine_clock = match tc {
        TimeControl::Clock { base, .. } => Some(base),
        TimeControl::PerMove(_) => None,
    };
    // Lines are bounded ([`crate::protocol::MAX_LINE`]): a never-ending input costs no memory.
    let mut input = crate::protocol::LineReader::new(io::stdin().lock());
    say(&format!(
        "kiebitz-{} ({}): you play {}. Moves like {}; also 'undo', 'hint', 'quit'.",
        G::GAME,
        game.current().variant(),
        color_name(human),
        legal_moves(game.current())
            .first()
            .map_or("a1a2".to_string(), |m| game.current().move_text(*m))
    ))?;
    loop {
        say(&format!("\n{}", game.current().pretty()))?;
        if let Some((outcome, why)) = game.outcome() {
            say(&format!("{} {{{why}}}", outcome.result_string()))?;
            return Ok(());
        }
        if game.current().side_to_move() != human {
            engine_move(&mut searcher, &mut game, tc, &mut engine_clock)?;
            continue;
        }
        crate::limits::prompt(format_args!("Your move: "))?;
        let line = match input.next_line() {
            None => {
                say("")?;
                return Ok(());
            }
            Some(Err(long)) => {
                say(&format!("The {long}"))?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(()),
            "undo" => undo(&mut game, human)?,
            "hint" => hint(&mut searcher, &game)?,
            mv => human_move(&mut game, mv)?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("2"),
            Ok(TimeControl::PerMove(Duration::from_secs(2)))
        );
        assert_eq!(
            parse_tc("60+0.5"),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(60),
                inc: Duration::from_millis(500)
            })
        );
        assert_eq!(
            parse_tc("fast"),
            Err(TimeControlError::NotATime("fast".into()))
        );
        assert!(matches!(
            parse_tc("60+x"),
            Err(TimeControlError::NotATime(t)) if t == "60+x"
        ));
        assert!(matches!(
            parse_tc("-1"),
            Err(TimeControlError::OutOfRange(_))
        ));
        let e = parse_tc("1e20").unwrap_err();
        assert!(matches!(&e, TimeControlError::OutOfRange(t) if t.contains("31536000")));
    }
}
