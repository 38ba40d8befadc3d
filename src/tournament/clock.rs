//! Time controls and game clocks: `tc=[moves/]seconds[+increment]` (seconds may be `m:ss`),
//! `st=` seconds per move, `movetime=` milliseconds per move, `depth=` and `nodes=` limits,
//! and the clock that counts an engine's time down during a game.
//!
//! Depends on [`crate::limits`] only (the bound on times).

use std::time::Duration;

/// How much an engine may think: any combination of a clock, a fixed time per move and
/// depth / node limits. At least one limit must be set.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Moves per period (`None`: the whole game), base time per period, increment per move.
    pub clock: Option<Period>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// A classical period: `moves` moves (or all) in `base`, plus `inc` per move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs = if let Some((m, s)) = text.split_once(':') {
        let m: f64 = m.parse().map_err(|_| format!("bad minutes '{m}'"))?;
        let s: f64 = s.parse().map_err(|_| format!("bad seconds '{s}'"))?;
        m * 60.0 + s
    } else {
        text.parse::<f64>()
            .map_err(|_| format!("bad number of seconds '{text}'"))?
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!(
            "time '{text}' must be a non-negative number of seconds"
        ));
    }
    Ok(crate::limits::seconds(&format!("time '{text}'"), secs)?)
}

impl Period {
    /// Parses `[moves/]seconds[+increment]`, e.g. `10+0.1`, `40/60`, `1:30+1`.
    pub fn parse(text: &str) -> Result<Period, String> {
        let err =
            |e: String| format!("bad time control '{text}': {e} (expected e.g. 10+0.1 or 40/60)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| err(format!("bad number of moves '{m}'")))?;
                if m == 0 {
                    return Err(err("the number of moves must be positive".into()));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (
                parse_seconds(b).map_err(err)?,
                parse_seconds(i).map_err(err)?,
            ),
            None => (parse_seconds(rest).map_err(err)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(err("no time at all".into()));
        }
        Ok(Period { moves, base, inc })
    }
}

fn secs_text(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl TimeControl {
    /// Whether some limit is set.
    pub fn is_set(&self) -> bool {
        self.clock.is_some()
            || self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// The PGN `TimeControl` tag value: `40/60`, `10+0.1`, `0.5/move` (fixed time), `-`
    /// (no clock).
    pub fn pgn_tag(&self) -> String {
        if let Some(p) = self.clock {
            let mut s = String::new();
            if let Some(m) = p.moves {
                s.push_str(&format!("{m}/"));
            }
            s.push_str(&secs_text(p.base));
            if !p.inc.is_zero() {
                s.push_str(&format!("+{}", secs_text(p.inc)));
            }
            s
        } else if let Some(t) = self.movetime {
            format!("{}/move", secs_text(t))
        } else {
            "-".to_string()
        }
    }

    /// A short human description, e.g. `10+0.1 depth 8`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.clock.is_some() || self.movetime.is_some() {
            parts.push(self.pgn_tag());
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        parts.join(" ")
    }
}

/// One engine's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    period: Option<Period>,
    /// Time left in the current period.
    pub remaining: Duration,
    /// Moves played in the current period.
    moves_in_period: u32,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            period: tc.clock,
            remaining: tc.clock.map(|p| p.base).unwrap_or_default(),
            moves_in_period: 0,
        }
    }

    /// Whether a clock runs at all.
    pub fn running(&self) -> bool {
        self.period.is_some()
    }

    pub fn inc(&self) -> Duration {
        self.period.map(|p| p.inc).unwrap_or_default()
    }

    /// Moves left until the next time control, if the period has a move count.
    pub fn moves_to_go(&self) -> Option<u32> {
        let p = self.period?;
        p.moves.map(|m| m - self.moves_in_period)
    }

    /// Charges a move that took `elapsed`. Returns `false` if the flag fell, i.e. `elapsed`
    /// exceeded the time left by more than `margin`; a small overrun within the margin leaves
    /// the clock at zero before the increment.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> bool {
        let Some(p) = self.period else {
            return true;
        };
        if elapsed > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + p.inc;
        if let Some(m) = p.moves {
            self.moves_in_period += 1;
            if self.moves_in_period == m {
                self.moves_in_period = 0;
                self.remaining += p.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_periods() {
        let p = Period::parse("10+0.1").unwrap();
        assert_eq!(p.moves, None);
        assert_eq!(p.base, Duration::from_secs(10));
        assert_eq!(p.inc, Duration::from_millis(100));
        let p = Period::parse("40/1:30+1").unwrap();
        assert_eq!(p.moves, Some(40));
        assert_eq!(p.base, Duration::from_secs(90));
        assert_eq!(p.inc, Duration::from_secs(1));
        assert!(Period::parse("abc").is_err());
        assert!(Period::parse("0/10").is_err());
        assert!(Period::parse("-5").is_err());
        assert!(Period::parse("0+0").is_err());
    }

    #[test]
    fn tags() {
        let tc = TimeControl {
            clock: Some(Period::parse("40/60+0.25").unwrap()),
            ..Default::default()
        };
        assert_eq!(tc.pgn_tag(), "40/60+0.25");
        let tc = TimeControl {
            movetime: Some(Duration::from_millis(500)),
            depth: Some(4),
            ..Default::default()
        };
        assert_eq!(tc.pgn_tag(), "0.5/move");
        assert_eq!(tc.describe(), "0.5/move depth 4");
        assert_eq!(TimeControl::default().pgn_tag(), "-");
    }

    #[test]
    fn clock_counts_down_and_refills() {
        let tc = TimeControl {
            clock: Some(Period::parse("2/10+1").unwrap()),
            ..Default::default()
        };
        let mut c = Clock::new(&tc);
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(3), Duration::ZERO));
        assert_eq!(c.remaining, Duration::from_secs(8));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_secs(4), Duration::ZERO));
        // 8 − 4 + 1 + a new period of 10.
        assert_eq!(c.remaining, Duration::from_secs(15));
        assert_eq!(c.moves_to_go(), Some(2));
        // Over by 50 ms: tolerated with a 100 ms margin, the flag falls without.
        let mut d = c.clone();
        assert!(d.charge(Duration::from_millis(15_050), Duration::from_millis(100)));
        assert_eq!(d.remaining, Duration::from_secs(1));
        assert!(!c.charge(Duration::from_millis(15_050), Duration::ZERO));
    }
}
