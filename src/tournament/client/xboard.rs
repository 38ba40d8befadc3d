//! The XBoard (CECP v2) client of a two-seat match: `xboard`, `protover 2` and the features
//! (accepted or rejected), options, a new game (`new`, `variant`, `setboard`, `level`/`st`,
//! `sd`, `post`, `easy` or `hard`), one move (`force`, the moves it does not know, `time`,
//! `otim`, `go`), and the result.

use std::time::{Duration, Instant};

use super::EngineError;
use super::process::Process;
use super::{
    Client, EngineConfig, Fault, GameView, HANDSHAKE, Reply, TwoSeat, await_move, budget,
    mate_score,
};

#[derive(Default, Debug)]
struct Features {
    usermove: bool,
    ping: bool,
    setboard: bool,
    myname: Option<String>,
    variants: Option<Vec<String>>,
}

/// An XBoard engine.
pub struct Xboard {
    config: EngineConfig,
    process: Process,
    features: Features,
    /// How many of the game's moves the engine knows.
    known: usize,
    ping: u32,
}

/// Thinking output: `ply score time nodes pv…`.
fn parse_thinking(line: &str, score: &mut Option<i32>, depth: &mut Option<u32>) {
    let mut it = line.split_whitespace();
    let (Some(d), Some(s)) = (it.next(), it.next()) else {
        return;
    };
    let (Ok(d), Ok(s)) = (
        d.trim_end_matches(['.', '&']).parse::<u32>(),
        s.parse::<i32>(),
    ) else {
        return;
    };
    *depth = Some(d);
    *score = Some(if s >= 100000 {
        mate_score(s - 100000)
    } else if s <= -100000 {
        mate_score(-(s + 100000))
    } else {
        s
    });
}

/// `feature a=1 b="x y"` → pairs.
fn parse_features(rest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut s = rest.trim_start();
    while let Some(eq) = s.find('=') {
        let key = s[..eq].trim().to_string();
        let after = &s[eq + 1..];
        let (value, next) = if let Some(stripped) = after.strip_prefix('"') {
            match stripped.find('"') {
                Some(end) => (&stripped[..end], &stripped[end + 1..]),
                None => (stripped, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        s = next.trim_start();
    }
    out
}

fn centis(d: Duration) -> u128 {
    d.as_millis() / 10
}

impl Xboard {
    /// Starts the engine and completes the handshake.
    pub fn start(config: &EngineConfig) -> Result<Xboard, EngineError> {
        let mut xb = Xboard {
            config: config.clone(),
            process: config.spawn()?,
            features: Features::default(),
            known: 0,
            ping: 0,
        };
        xb.handshake()?;
        Ok(xb)
    }

    fn label(&self) -> String {
        self.config.label()
    }

    /// Sends a line during the set-up, a failure as text.
    fn say(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line).map_err(EngineError::Send)
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.say("xboard")?;
        self.say("protover 2")?;
        let mut waited_long = false;
        let start = Instant::now();
        let mut deadline = start + Duration::from_secs(5);
        loop {
            let (_, line) = match self.process.recv(deadline) {
                Ok(x) => x,
                // No `done=1`: a protocol 1 engine. Go on with the defaults.
                Err(Fault::Stalled(_)) => {
                    log::warn!(
                        "engine '{}' sent no 'feature done=1'; assuming protocol version 1",
                        self.label()
                    );
                    break;
                }
                Err(Fault::Crashed(why)) => {
                    return Err(EngineError::HandshakeStopped {
                        label: self.label(),
                        why,
                    });
                }
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut finished = false;
            for (key, value) in parse_features(rest) {
                let on = value == "1";
                let accepted = match key.as_str() {
                    "usermove" => {
                        self.features.usermove = on;
                        true
                    }
                    "ping" => {
                        self.features.ping = on;
                        true
                    }
                    "setboard" => {
                        self.features.setboard = on;
                        true
                    }
                    "myname" => {
                        self.features.myname = Some(value.clone());
                        true
                    }
                    "variants" => {
                        self.features.variants =
                            Some(value.split(',').map(|v| v.trim().to_string()).collect());
                        true
                    }
                    "done" => {
                        if on {
                            finished = true;
                        } else if !waited_long {
                            waited_long = true;
                            deadline = start + HANDSHAKE.max(Duration::from_secs(60));
                        }
                        true
                    }
                    "san" => !on,
                    "sigint" | "sigterm" | "reuse" | "analyze" | "colors" | "time" | "draw"
                    | "name" | "pause" | "nps" | "debug" | "memory" | "smp" | "egt" | "option"
                    | "exclude" | "setscore" | "highlight" | "playother" | "ics" => true,
                    _ => false,
                };
                let verb = if accepted { "accepted" } else { "rejected" };
                self.say(&format!("{verb} {key}"))?;
            }
            if finished {
                break;
            }
        }
        // Options once, before any `variant` (Fairy-Stockfish's VariantPath defines variants).
        let mut options = self.config.options.clone();
        options.sort_by_key(|(k, _)| !k.eq_ignore_ascii_case("VariantPath"));
        for (name, value) in options {
            let line = match name.as_str() {
                "Hash" => format!("memory {value}"),
                "Threads" => format!("cores {value}"),
                _ => format!("option {name}={value}"),
            };
            self.say(&line)?;
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.say(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        super::wait_for(&mut self.process, HANDSHAKE, &want, |line| {
            line.trim() == want
        })
    }

    fn variant_path_set(&self) -> bool {
        self.config
            .options
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("VariantPath"))
    }

    /// `level` for a clock, `st` for a move time (whole seconds, at least one), `sd`.
    fn time_control(&mut self) -> Result<(), EngineError> {
        let tc = self.config.tc.clone();
        if let Some(p) = tc.clock {
            // Whole seconds, at least one: `time` tells the real clock before each move.
            let base = (p.base.as_secs_f64().ceil() as u64).max(1);
            let inc = p.inc.as_secs_f64();
            let base = if base.is_multiple_of(60) {
                format!("{}", base / 60)
            } else {
                format!("{}:{:02}", base / 60, base % 60)
            };
            self.say(&format!("level {} {base} {inc}", p.moves.unwrap_or(0)))?;
        } else if let Some(t) = tc.movetime {
            let secs = self.config.movetime(t).as_secs();
            self.say(&format!("st {secs}"))?;
        }
        if let Some(d) = tc.depth {
            self.say(&format!("sd {d}"))?;
        }
        Ok(())
    }
}

impl Client<GameView<'_>> for Xboard {
    /// The variant, the start position and the time control.
    fn new_game(&mut self, view: &GameView) -> Result<(), EngineError> {
        self.say("new")?;
        if let Some(v) = view.variant {
            if let Some(list) = &self.features.variants
                && !list.iter().any(|x| x == v)
            {
                // Fairy-Stockfish lists the variants of its VariantPath only later.
                log::info!(
                    "engine '{}' does not list variant '{v}' in its features",
                    self.label()
                );
            }
            self.say(&format!("variant {v}"))?;
        }
        self.say("force")?;
        if let Some(fen) = view.fen {
            if !self.features.setboard {
                return Err(EngineError::NoSetboard {
                    label: self.label(),
                    fen: fen.to_string(),
                });
            }
            self.say(&format!("setboard {fen}"))?;
        }
        self.time_control()?;
        self.say("post")?;
        // `hard`: the engine may ponder by itself (it is kept in force mode between its
        // moves, so one that stops pondering in force mode will not).
        self.say(if self.config.ponder { "hard" } else { "easy" })?;
        self.known = 0;
        self.sync()
    }

    fn go(&mut self, view: &GameView) -> Result<Reply, Fault> {
        let side = view.side();
        let budget = budget(&self.config, view);
        self.process.send("force")?;
        for mv in &view.moves[self.known.min(view.moves.len())..] {
            let line = if self.features.usermove {
                format!("usermove {mv}")
            } else {
                mv.clone()
            };
            self.process.send(&line)?;
        }
        self.known = view.moves.len();
        if view.clocks[side].running() {
            let own = view.clocks[side].remaining;
            let other = view.clocks[1 - side].remaining;
            self.process.send(&format!("time {}", centis(own)))?;
            self.process.send(&format!("otim {}", centis(other)))?;
        }
        self.process.send("go")?;
        let started = Instant::now();
        let label = self.label();
        let reply = await_move(
            &mut self.process,
            started,
            budget,
            "?",
            Reply::default(),
            |line, reply| {
                let mv = line
                    .strip_prefix("move ")
                    .or_else(|| line.strip_prefix("My move is:"))
                    .or_else(|| line.strip_prefix("My move is :"));
                if let Some(mv) = mv {
                    reply.text = mv.trim().to_string();
                    return true;
                } else if line == "resign" {
                    reply.resigned = true;
                    return true;
                } else if line.starts_with(|c: char| c.is_ascii_digit()) {
                    parse_thinking(line, &mut reply.score, &mut reply.depth);
                } else if line.starts_with("Illegal move") || line.starts_with("Error") {
                    log::warn!("engine '{label}' complains: {line}");
                }
                false
            },
        )?;
        if !reply.resigned {
            self.known += 1;
        }
        Ok(reply)
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        let _ = self.process.send(&format!("result {result} {{{reason}}}"));
    }
}

impl TwoSeat for Xboard {
    fn id_name(&self) -> Option<String> {
        self.features.myname.clone()
    }

    /// In the `variants` feature (`normal` only when it sent none); `None` when a
    /// VariantPath may define more.
    fn announces_variant(&self, variant: &str) -> Option<bool> {
        if self.variant_path_set() {
            return None;
        }
        Some(match &self.features.variants {
            Some(list) => list.iter().any(|v| v.eq_ignore_ascii_case(variant)),
            None => variant == "normal",
        })
    }

    fn announced_variants(&self) -> String {
        match &self.features.variants {
            Some(l) if !l.is_empty() => l.join(", "),
            _ => "none".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_and_features() {
        let (mut s, mut d) = (None, None);
        parse_thinking("12 -47 150 123456 e2e4 e7e5", &mut s, &mut d);
        assert_eq!((s, d), (Some(-47), Some(12)));
        parse_thinking("Illegal move", &mut s, &mut d);
        assert_eq!((s, d), (Some(-47), Some(12)));
        let f = parse_features(
            r#"myname="kiebitz pawns 0.1" usermove=1 variants="pawns6,pawns5" done=1"#,
        );
        assert_eq!(
            f,
            vec![
                ("myname".to_string(), "kiebitz pawns 0.1".to_string()),
                ("usermove".to_string(), "1".to_string()),
                ("variants".to_string(), "pawns6,pawns5".to_string()),
                ("done".to_string(), "1".to_string()),
            ]
        );
    }
}
