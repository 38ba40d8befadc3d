//! How a two-seat game ends at the server rather than on the board (docs/web.md, "Clocks,
//! resigning, draws"): the clocks of a timed game, a resignation, a draw agreed.
//!
//! Clocks: a time control (base time and an increment per move) chosen when the game is
//! created, one clock per seat, running for the seat to move. The server keeps the truth: a
//! move charges the mover the time since the clock started for it, then adds the increment;
//! a clock at zero is a fallen flag, which ends the game. An engine seat's think time comes
//! from its clock ([`GameClock::think_time`]). An engine seat takes a draw offer by the rule
//! of [`engine_takes_draw`]; the result of an ending is [`ending`], also in the PGN
//! ([`pgn_ended`]).
//!
//! Every function takes the time `now` from its caller, so that the tests need no waiting.
//! Depends on serde_json only.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Longest base time a game may have (three hours).
pub const MAX_BASE: Duration = Duration::from_secs(3 * 3600);
/// Largest increment per move (one minute).
pub const MAX_INC: Duration = Duration::from_secs(60);

/// A time control: `base` on every clock at the start, `inc` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub inc: Duration,
}

impl TimeControl {
    /// A time control from the API's milliseconds, checked against the limits.
    pub fn from_ms(base_ms: u64, inc_ms: u64) -> Result<TimeControl, String> {
        let max_base = MAX_BASE.as_millis() as u64;
        let max_inc = MAX_INC.as_millis() as u64;
        if base_ms == 0 || base_ms > max_base {
            return Err(format!(
                "clock base_ms must be from 1 to {max_base}, not {base_ms}"
            ));
        }
        if inc_ms > max_inc {
            return Err(format!(
                "clock inc_ms must be from 0 to {max_inc}, not {inc_ms}"
            ));
        }
        Ok(TimeControl {
            base: Duration::from_millis(base_ms),
            inc: Duration::from_millis(inc_ms),
        })
    }
}

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct GameClock {
    control: TimeControl,
    /// Each seat's time left when its clock last stopped.
    left: Vec<Duration>,
    /// The seat whose clock runs and since when; `None` once the game is over.
    running: Option<(usize, Instant)>,
}

impl GameClock {
    /// Clocks for `seats` seats at the base time, the clock of `first` running from `now`
    /// (the server passes `None`: no clock runs before the first move, which is not charged).
    pub fn new(control: TimeControl, seats: usize, first: Option<usize>, now: Instant) -> Self {
        GameClock {
            control,
            left: vec![control.base; seats],
            running: first.map(|s| (s, now)),
        }
    }

    /// The time control's base and increment in ms.
    pub fn control_ms(&self) -> (u64, u64) {
        (
            self.control.base.as_millis() as u64,
            self.control.inc.as_millis() as u64,
        )
    }

    /// The time `seat` has left at `now` (zero at the least).
    pub fn left(&self, seat: usize, now: Instant) -> Duration {
        let stored = self.left.get(seat).copied().unwrap_or_default();
        match self.running {
            Some((s, since)) if s == seat => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// The seat whose flag has fallen at `now`: the running clock at zero.
    pub fn flagged(&self, now: Instant) -> Option<usize> {
        let (seat, _) = self.running?;
        self.left(seat, now).is_zero().then_some(seat)
    }

    /// The seat whose flag has fallen by `now` and the moment it fell.
    pub fn flag_fall(&self, now: Instant) -> Option<(usize, Instant)> {
        let (seat, since) = self.running?;
        let fell = since + self.left.get(seat).copied().unwrap_or_default();
        (fell <= now).then_some((seat, fell))
    }

    /// Stops the running clock at `now`, charging its seat the time since it started.
    pub fn stop(&mut self, now: Instant) {
        if let Some((seat, _)) = self.running {
            self.left[seat] = self.left(seat, now);
            self.running = None;
        }
    }

    /// `seat` has moved at `now`: its clock stops, is charged and gets the increment, and the
    /// clock of `next` (the seat to move now; `None`: the game is over) starts. `Err(seat)`
    /// when its flag fell before the move (the move does not count: the clocks stop).
    pub fn moved(&mut self, seat: usize, next: Option<usize>, now: Instant) -> Result<(), usize> {
        if let Some(fallen) = self.flagged(now) {
            self.stop(now);
            return Err(fallen);
        }
        self.stop(now);
        if let Some(t) = self.left.get_mut(seat) {
            *t += self.control.inc;
        }
        self.running = next.map(|s| (s, now));
        Ok(())
    }

    /// After a take-back: the running clock is charged (the time spent stays spent) and the
    /// clock of `next` starts.
    pub fn restart(&mut self, next: Option<usize>, now: Instant) {
        self.stop(now);
        self.running = next.map(|s| (s, now));
    }

    /// The think time of an engine playing `seat`: a twentieth of its time plus three
    /// quarters of the increment, never more than half its time nor more than `max`, and at
    /// least a millisecond.
    pub fn think_time(&self, seat: usize, now: Instant, max: Duration) -> Duration {
        let left = self.left(seat, now);
        let share = left / 20 + self.control.inc * 3 / 4;
        share.min(left / 2).min(max).max(Duration::from_millis(1))
    }

    /// The clocks for the API: `{"base_ms", "inc_ms", "left_ms": [per seat], "running": seat
    /// | null}` at `now`.
    pub fn json(&self, now: Instant) -> Value {
        let left: Vec<u64> = (0..self.left.len())
            .map(|s| self.left(s, now).as_millis() as u64)
            .collect();
        json!({
            "base_ms": self.control.base.as_millis() as u64,
            "inc_ms": self.control.inc.as_millis() as u64,
            "left_ms": left,
            "running": self.running.map(|(s, _)| s),
        })
    }
}

/// An engine takes a draw offer only from this ply on (both sides have made 30 moves).
pub const DRAW_FROM_PLY: usize = 60;
/// ... and only when its score is within this many centipawns of equality (±0.2 pawns).
pub const DRAW_WITHIN_CP: i64 = 20;

/// Whether an engine seat takes a draw offered at `plies` plies: `Ok` where the game has
/// [`DRAW_FROM_PLY`] plies and the engine's score at its last move (`last`: the plies after
/// that move and its score for itself, `{"cp"}` or `{"mate"}`), made at most a ply ago, is
/// within ±[`DRAW_WITHIN_CP`] centipawns; else why not.
pub fn engine_takes_draw(plies: usize, last: Option<(usize, &Value)>) -> Result<(), String> {
    if plies < DRAW_FROM_PLY {
        return Err(format!(
            "the engine takes a draw only from move {} on",
            DRAW_FROM_PLY / 2 + 1
        ));
    }
    let Some((_, score)) = last.filter(|(at, _)| *at <= plies && plies - at <= 1) else {
        return Err(
            "the engine has no score of this position (it takes a draw only right after its move)"
                .into(),
        );
    };
    match score["cp"].as_i64() {
        Some(cp) if cp.abs() <= DRAW_WITHIN_CP => Ok(()),
        Some(cp) => Err(format!(
            "the engine's score is {:+.2}, beyond ±{:.2}",
            cp as f64 / 100.0,
            DRAW_WITHIN_CP as f64 / 100.0
        )),
        None => Err(format!(
            "the engine's score is {score}, not within ±{:.2}",
            DRAW_WITHIN_CP as f64 / 100.0
        )),
    }
}

/// The `result` of a game ended at the server: `winner` (a seat, `None`: a draw) and why.
/// A game of White and Black scores as PGN does (`1-0`, `0-1`, `1/2-1/2`), others as
/// `"{seat} wins"` or `draw`.
pub fn ending(names: &[&str], winner: Option<usize>, reason: &str) -> Value {
    let pgn = names == ["White", "Black"];
    let score = match winner {
        Some(0) if pgn => "1-0".to_string(),
        Some(_) if pgn => "0-1".to_string(),
        Some(w) => format!("{} wins", names.get(w).unwrap_or(&"?")),
        None if pgn => "1/2-1/2".to_string(),
        None => "draw".to_string(),
    };
    let winners: Vec<usize> = winner.into_iter().collect();
    json!({ "score": score, "reason": reason, "winners": winners })
}

/// A game's PGN with the result of an ending at the server: the `Result` tag, a
/// `Termination` tag and the closing token in place of the open game's `*`.
pub fn pgn_ended(text: &str, score: &str, reason: &str) -> String {
    let tags = format!("[Result \"{score}\"]\n[Termination \"{reason}\"]");
    let mut out = text.replacen("[Result \"*\"]", &tags, 1);
    let end = out.trim_end().len();
    if out[..end].ends_with('*') {
        out.replace_range(end - 1..end, score);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn control(base: u64, inc: u64) -> TimeControl {
        TimeControl::from_ms(base, inc).unwrap()
    }

    #[test]
    fn the_running_clock_counts_down_and_a_move_adds_the_increment() {
        let t0 = Instant::now();
        let mut c = GameClock::new(control(1000, 100), 2, Some(0), t0);
        assert_eq!(c.left(0, t0 + ms(300)), ms(700));
        assert_eq!(
            c.left(1, t0 + ms(300)),
            ms(1000),
            "only the mover's clock runs"
        );
        c.moved(0, Some(1), t0 + ms(300)).unwrap();
        assert_eq!(c.left(0, t0 + ms(900)), ms(800), "700 left plus 100");
        assert_eq!(c.left(1, t0 + ms(900)), ms(400));
        assert_eq!(c.json(t0 + ms(900))["left_ms"], json!([800, 400]));
        assert_eq!(c.json(t0 + ms(900))["running"], json!(1));
    }

    #[test]
    fn a_clock_at_zero_is_a_fallen_flag_and_a_late_move_does_not_count() {
        let t0 = Instant::now();
        let mut c = GameClock::new(control(1000, 500), 2, Some(0), t0);
        assert_eq!(c.flagged(t0 + ms(999)), None);
        assert_eq!(c.flagged(t0 + ms(1000)), Some(0));
        assert_eq!(c.flag_fall(t0 + ms(999)), None);
        assert_eq!(c.flag_fall(t0 + ms(1500)), Some((0, t0 + ms(1000))));
        assert_eq!(c.moved(0, Some(1), t0 + ms(1200)), Err(0));
        assert_eq!(
            c.left(0, t0 + ms(5000)),
            Duration::ZERO,
            "no increment after the flag"
        );
        assert_eq!(c.left(1, t0 + ms(5000)), ms(1000), "the clocks stopped");
        assert_eq!(c.flagged(t0 + ms(5000)), None);
    }

    #[test]
    fn a_take_back_keeps_the_time_spent_and_an_ended_game_stops_the_clocks() {
        let t0 = Instant::now();
        let mut c = GameClock::new(control(1000, 0), 2, Some(0), t0);
        c.moved(0, Some(1), t0 + ms(100)).unwrap();
        c.restart(Some(0), t0 + ms(300));
        assert_eq!(c.left(1, t0 + ms(400)), ms(800));
        assert_eq!(c.left(0, t0 + ms(400)), ms(800));
        c.moved(0, None, t0 + ms(400)).unwrap();
        assert_eq!(c.left(0, t0 + ms(9000)), ms(800));
        assert_eq!(c.json(t0)["running"], Value::Null);
    }

    #[test]
    fn the_engine_thinks_by_its_clock() {
        let t0 = Instant::now();
        let c = GameClock::new(control(60_000, 2000), 2, Some(0), t0);
        let max = Duration::from_secs(10);
        assert_eq!(c.think_time(0, t0, max), ms(3000 + 1500));
        assert_eq!(
            c.think_time(0, t0 + ms(58_000), max),
            ms(1000),
            "half of 2 s left"
        );
        assert_eq!(c.think_time(0, t0, ms(700)), ms(700), "the server's cap");
        assert_eq!(
            c.think_time(0, t0 + ms(60_000), max),
            ms(1),
            "at least 1 ms"
        );
        let blitz = GameClock::new(control(1000, 0), 2, Some(1), t0);
        assert_eq!(blitz.think_time(1, t0, max), ms(50));
    }

    #[test]
    fn an_engine_takes_a_draw_after_move_30_near_equality_only() {
        let level = json!({ "cp": -15 });
        assert!(engine_takes_draw(60, Some((60, &level))).is_ok());
        assert!(engine_takes_draw(61, Some((60, &level))).is_ok());
        assert!(
            engine_takes_draw(59, Some((59, &level)))
                .unwrap_err()
                .contains("move 31")
        );
        assert!(
            engine_takes_draw(62, Some((60, &level)))
                .unwrap_err()
                .contains("no score")
        );
        assert!(
            engine_takes_draw(60, Some((61, &level))).is_err(),
            "a score from a taken-back move"
        );
        assert!(engine_takes_draw(60, None).is_err());
        let ahead = json!({ "cp": 21 });
        assert!(
            engine_takes_draw(70, Some((70, &ahead)))
                .unwrap_err()
                .contains("+0.21")
        );
        let mate = json!({ "mate": -3 });
        assert!(engine_takes_draw(70, Some((70, &mate))).is_err());
    }

    #[test]
    fn endings_score_as_pgn_and_close_the_record() {
        let wb = ["White", "Black"];
        assert_eq!(ending(&wb, Some(1), "White resigns")["score"], "0-1");
        assert_eq!(ending(&wb, None, "draw agreed")["winners"], json!([]));
        assert_eq!(
            ending(&["South", "North"], Some(0), "x")["score"],
            "South wins"
        );
        let pgn = "[Event \"e\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";
        let done = pgn_ended(pgn, "1-0", "Black loses on time");
        assert!(
            done.contains("[Result \"1-0\"]\n[Termination \"Black loses on time\"]"),
            "{done}"
        );
        assert!(done.trim_end().ends_with("1. e4 e5 1-0"), "{done}");
    }

    #[test]
    fn time_controls_out_of_range_are_refused() {
        assert!(TimeControl::from_ms(0, 0).unwrap_err().contains("base_ms"));
        assert!(TimeControl::from_ms(MAX_BASE.as_millis() as u64 + 1, 0).is_err());
        assert!(
            TimeControl::from_ms(1000, 60_001)
                .unwrap_err()
                .contains("inc_ms")
        );
        assert_eq!(control(1000, 0).inc, Duration::ZERO);
    }
}
