//! The UCI client of a two-seat match: handshake (`uci`, options, `isready`), a new game
//! (`UCI_Variant`, `ucinewgame`), one move (`position`, `go` with the clocks), and pondering
//! (`go ponder`, then `ponderhit` or `stop`) when the match asks for it.

use std::time::Instant;

use super::EngineError;
use super::process::Process;
use super::{
    Client, EngineConfig, Fault, GRACE, GameView, HANDSHAKE, Reply, TwoSeat, await_move, budget,
    mate_score, wait_for,
};

/// A UCI engine.
pub struct Uci {
    config: EngineConfig,
    process: Process,
    id_name: Option<String>,
    options: Vec<String>,
    /// The values of the engine's `UCI_Variant` combo, if it has one.
    variants: Option<Vec<String>>,
    /// The engine is pondering, expecting this move of its opponent.
    pondering: Option<String>,
}

/// The score in a UCI `info` line.
fn parse_info(line: &str, score: &mut Option<i32>, depth: &mut Option<u32>) {
    let mut it = line.split_whitespace().peekable();
    while let Some(tok) = it.next() {
        match tok {
            "depth" => {
                if let Some(d) = it.peek().and_then(|t| t.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => {
                let kind = it.next();
                let value: Option<i32> = it.next().and_then(|t| t.parse().ok());
                let bound = matches!(it.peek(), Some(&"lowerbound") | Some(&"upperbound"));
                if bound {
                    continue;
                }
                match (kind, value) {
                    (Some("cp"), Some(v)) => *score = Some(v),
                    // `mate N` counts moves; turn it into plies.
                    (Some("mate"), Some(v)) => {
                        *score = Some(mate_score(if v > 0 { 2 * v - 1 } else { 2 * v }))
                    }
                    _ => {}
                }
            }
            "pv" | "string" => break,
            _ => {}
        }
    }
}

/// `position startpos|fen FEN [moves …]`.
fn position(fen: Option<&str>, moves: &[String]) -> String {
    let mut pos = match fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    if !moves.is_empty() {
        pos.push_str(" moves ");
        pos.push_str(&moves.join(" "));
    }
    pos
}

/// The limits of a `go` for the engine of `side` (0 White, 1 Black): both clocks when its
/// clock runs, and its move time, depth and nodes.
fn limits(view: &GameView, side: usize) -> String {
    let tc = view.tcs[side];
    let mut go = String::new();
    if view.clocks[side].running() {
        let [w, b] = view.clocks;
        go.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            w.remaining.as_millis(),
            b.remaining.as_millis(),
            w.inc().as_millis(),
            b.inc().as_millis()
        ));
        if let Some(m) = view.clocks[side].moves_to_go() {
            go.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(t) = tc.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis()));
    }
    if let Some(d) = tc.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = tc.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

impl Uci {
    /// Starts the engine and completes the handshake.
    pub fn start(config: &EngineConfig) -> Result<Uci, EngineError> {
        let mut uci = Uci {
            config: config.clone(),
            process: config.spawn()?,
            id_name: None,
            options: Vec::new(),
            variants: None,
            pondering: None,
        };
        uci.handshake()?;
        Ok(uci)
    }

    fn label(&self) -> String {
        self.config.label()
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        self.ask_uci()?;
        // VariantPath first (Fairy-Stockfish loads variants from it), then `uci` again: only
        // its answer lists those variants, and Fairy-Stockfish resets `UCI_Variant` at every
        // `uci`, so the other options follow it.
        let (paths, others): (Vec<_>, Vec<_>) = self
            .config
            .options
            .clone()
            .into_iter()
            .partition(|(k, _)| k.eq_ignore_ascii_case("VariantPath"));
        self.send_options(&paths)?;
        if !paths.is_empty() {
            self.options.clear();
            self.ask_uci()?;
        }
        self.send_options(&others)?;
        if self.config.ponder {
            let set = others.iter().any(|(k, _)| k.eq_ignore_ascii_case("Ponder"));
            if !self.has_option("Ponder") {
                log::warn!(
                    "engine '{}' has no option Ponder: it will not ponder",
                    self.label()
                );
            } else if !set {
                self.process
                    .send("setoption name Ponder value true")
                    .map_err(EngineError::Send)?;
            }
        }
        self.sync()
    }

    /// `uci`, and its answer read up to `uciok`.
    fn ask_uci(&mut self) -> Result<(), EngineError> {
        self.process.send("uci").map_err(EngineError::Send)?;
        let (mut name, mut options, mut variants) = (None, Vec::new(), None);
        wait_for(&mut self.process, HANDSHAKE, "uciok", |line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let option = rest.split(" type ").next().unwrap_or(rest).trim();
                if option == "UCI_Variant" {
                    variants = Some(
                        rest.split(" var ")
                            .skip(1)
                            .map(|v| v.trim().to_string())
                            .collect(),
                    );
                }
                options.push(option.to_string());
            }
            line.trim() == "uciok"
        })?;
        if name.is_some() {
            self.id_name = name;
        }
        if variants.is_some() {
            self.variants = variants;
        }
        self.options.extend(options);
        Ok(())
    }

    /// Sends `setoption` for each of `options`, warning about names the engine did not list.
    fn send_options(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        for (name, value) in options {
            if !self.has_option(name) {
                log::warn!(
                    "engine '{}' does not list option '{name}'; sending it anyway",
                    self.label()
                );
            }
            self.process
                .send(&format!("setoption name {name} value {value}"))
                .map_err(EngineError::Send)?;
        }
        Ok(())
    }

    fn sync(&mut self) -> Result<(), EngineError> {
        self.process.send("isready").map_err(EngineError::Send)?;
        wait_for(&mut self.process, HANDSHAKE, "readyok", |line| {
            line.trim() == "readyok"
        })
    }

    /// Ends the ponder search: `stop`, and its `bestmove` read and dropped before
    /// `deadline`. False when the engine was not pondering.
    fn stop_ponder(&mut self, deadline: Instant) -> Result<bool, Fault> {
        if self.pondering.take().is_none() {
            return Ok(false);
        }
        self.process.send("stop")?;
        match self
            .process
            .recv_until(deadline, |l| l.trim_start().starts_with("bestmove"))
        {
            Ok(_) => Ok(true),
            Err(Fault::Stalled(_)) => Err(Fault::Stalled(
                "no bestmove after stopping its ponder search".into(),
            )),
            Err(e) => Err(e),
        }
    }
}

impl Client<GameView<'_>> for Uci {
    fn new_game(&mut self, view: &GameView) -> Result<(), EngineError> {
        let wants_variant = self.options.iter().any(|o| o == "UCI_Variant")
            && !self
                .config
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant"));
        if let (true, Some(v)) = (wants_variant, view.variant) {
            self.process
                .send(&format!("setoption name UCI_Variant value {v}"))
                .map_err(EngineError::Send)?;
        }
        self.process.send("ucinewgame").map_err(EngineError::Send)?;
        self.sync()
    }

    fn go(&mut self, view: &GameView) -> Result<Reply, Fault> {
        let side = view.side();
        let budget = budget(&self.config, view);
        let mut ponder_hit = None;
        if let Some(guess) = self.pondering.clone() {
            if view.moves.last() == Some(&guess) {
                // The expected move came: the ponder search goes on as the real one.
                self.pondering = None;
                self.process.send("ponderhit")?;
                ponder_hit = Some(true);
            } else {
                self.stop_ponder(Instant::now() + budget)?;
                ponder_hit = Some(false);
            }
        }
        if ponder_hit != Some(true) {
            self.process.send(&position(view.fen, view.moves))?;
            self.process.send(&format!("go{}", limits(view, side)))?;
        }
        let started = Instant::now();
        let reply = Reply {
            ponder_hit,
            ..Reply::default()
        };
        await_move(
            &mut self.process,
            started,
            budget,
            "stop",
            reply,
            |line, reply| {
                if line.starts_with("info") {
                    parse_info(line, &mut reply.score, &mut reply.depth);
                } else if let Some(rest) = line.strip_prefix("bestmove") {
                    let mut words = rest.split_whitespace();
                    reply.text = words.next().unwrap_or("").to_string();
                    if words.next() == Some("ponder") {
                        reply.ponder = words.next().map(str::to_string);
                    }
                    return true;
                }
                false
            },
        )
    }
}

impl TwoSeat for Uci {
    fn id_name(&self) -> Option<String> {
        self.id_name.clone()
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    fn announces_variant(&self, variant: &str) -> Option<bool> {
        Some(
            self.variants
                .as_ref()
                .is_some_and(|l| l.iter().any(|v| v.eq_ignore_ascii_case(variant))),
        )
    }

    fn announced_variants(&self) -> String {
        match &self.variants {
            Some(l) if !l.is_empty() => l.join(", "),
            _ => "none".into(),
        }
    }

    /// `--ponder`, and the engine offers `Ponder`.
    fn can_ponder(&self) -> bool {
        self.config.ponder && self.has_option("Ponder")
    }

    /// The position of `view` (the opponent to move) with `guess` played, and `go ponder`
    /// with the clocks, as cutechess does.
    fn start_ponder(&mut self, view: &GameView, guess: &str) -> Result<(), Fault> {
        let own = 1 - view.side();
        let mut moves = view.moves.to_vec();
        moves.push(guess.to_string());
        self.process.send(&position(view.fen, &moves))?;
        self.process
            .send(&format!("go ponder{}", limits(view, own)))?;
        self.pondering = Some(guess.to_string());
        Ok(())
    }

    /// `stop`, its `bestmove` awaited a grace period past the engine's time margin.
    fn end_ponder(&mut self) -> Result<bool, Fault> {
        let deadline = Instant::now() + GRACE + self.config.timemargin;
        self.stop_ponder(deadline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        let (mut s, mut d) = (None, None);
        parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv a2a3",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(-35), Some(7)));
        parse_info("info depth 9 score mate 3 pv a2a3", &mut s, &mut d);
        assert_eq!((s, d), (Some(30000 - 5), Some(9)));
        parse_info("info depth 9 score mate -2", &mut s, &mut d);
        assert_eq!(s, Some(-30000 + 4));
        parse_info("info depth 10 score cp 50 lowerbound", &mut s, &mut d);
        assert_eq!((s, d), (Some(-30000 + 4), Some(10)));
        parse_info("info string score cp 99", &mut s, &mut d);
        assert_eq!(s, Some(-30000 + 4));
    }
}
