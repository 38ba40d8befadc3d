//! The UCI command sequences of real game managers (Cute Chess, fastchess, Arena, lichess-bot),
//! recorded from their source in `tests/data/transcripts/*.txt` (the format is described in the
//! README there), replayed against kiebitz-chess, kiebitz-raeuber and kiebitz-pawns: every
//! `uciok`/`readyok` arrives, every `bestmove` is legal in the game so far (checked with the
//! library's own rules), `quit` ends the process at any time, and nothing but UCI lines
//! appears on stdout.

mod common;
mod protocol_io;

use std::time::{Duration, Instant};

use kiebitz::board::MoveList;
use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use protocol_io::Client;

/// The game as the manager sees it: the moves so far and the engine's last ponder move.
struct Replay<G: Game> {
    start: G,
    moves: Vec<String>,
    ponder: Option<String>,
}

impl<G: Game> Replay<G> {
    fn position(&self, extra: &[String]) -> G {
        let mut pos = self.start.clone();
        for m in self.moves.iter().chain(extra) {
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("replaying {m}: {e}"));
            pos = pos.play(mv);
        }
        pos
    }

    fn over(&self) -> bool {
        let mut list = MoveList::new();
        self.position(&[]).legal_moves(&mut list);
        list.is_empty()
    }

    /// The ponder move, or the first legal reply when the engine named none.
    fn ponder_move(&self) -> String {
        if let Some(p) = &self.ponder {
            return p.clone();
        }
        let pos = self.position(&[]);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        pos.move_text(list[0])
    }

    fn moves_text(&self, extra: &[String]) -> String {
        let all: Vec<&String> = self.moves.iter().chain(extra).collect();
        if all.is_empty() {
            String::new()
        } else {
            format!(
                " moves {}",
                all.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
            )
        }
    }

    /// Checks a `bestmove` line against the position after the game plus `extra`.
    fn check_bestmove(&mut self, line: &str, extra: &[String], keep: bool) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words.len() >= 2, "malformed '{line}'");
        let pos = self.position(extra);
        let best = pos
            .parse_move(words[1])
            .unwrap_or_else(|e| panic!("'{line}' after{}: {e}", self.moves_text(extra)));
        if keep {
            self.moves.push(words[1].to_string());
            self.ponder = match words.get(2..4) {
                Some(["ponder", p]) => {
                    let next = pos.play(best);
                    next.parse_move(p)
                        .unwrap_or_else(|e| panic!("ponder move in '{line}': {e}"));
                    Some(p.to_string())
                }
                _ => None,
            };
        }
    }
}

/// Replays the transcript `name` against `binary` playing `variant`.
fn replay<G: Game>(name: &str, binary: &str, variant: &str) {
    let path = common::data_path(&format!("transcripts/{name}"));
    let text = std::fs::read_to_string(&path).expect("transcript file");
    replay_text::<G>(name, &text, binary, variant);
}

/// Replays the transcript `text` (called `name` in messages).
fn replay_text<G: Game>(name: &str, text: &str, binary: &str, variant: &str) {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut e = Client::spawn(&common::binary(binary), &[]);
    let mut game = Replay {
        start: G::startpos(variant).expect("variant"),
        moves: Vec::new(),
        ponder: None,
    };
    let mut bestmoves = 0;
    let mut pc = 0;
    // (index of the `loop` line, iterations left)
    let mut loops: Vec<(usize, u32)> = Vec::new();
    while pc < lines.len() {
        let line = lines[pc];
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            ">" => {
                // The ponder move only where the line asks for it: a game that has ended
                // (mate in a loop, say) has none, and `isready` after it needs none.
                let mut out = arg.replace("$VARIANT", variant);
                if out.contains("$MOVES$PONDER") {
                    let ponder = [game.ponder_move()];
                    out = out.replace("$MOVES$PONDER", &game.moves_text(&ponder));
                }
                e.send(&out.replace("$MOVES", &game.moves_text(&[])));
            }
            "<" if arg == "bestmove" => {
                let got = e.read_until(|l| l.starts_with("bestmove "));
                game.check_bestmove(got.last().unwrap(), &[], true);
                bestmoves += 1;
            }
            "<" if arg == "bestmove discard" => {
                let got = e.read_until(|l| l.starts_with("bestmove "));
                let ponder = [game.ponder_move()];
                game.check_bestmove(got.last().unwrap(), &ponder, false);
                bestmoves += 1;
            }
            "<" => {
                e.read_until(|l| l == arg);
            }
            "+" => {
                let played = if arg == "ponder" {
                    game.ponder_move()
                } else if arg != "other" {
                    arg.to_string()
                } else {
                    let pos = game.position(&[]);
                    let mut list = MoveList::new();
                    pos.legal_moves(&mut list);
                    let p = game.ponder_move();
                    let other = list.iter().map(|&m| pos.move_text(m)).find(|m| *m != p);
                    other.unwrap_or(p)
                };
                game.moves.push(played);
                game.ponder = None;
            }
            "new" => {
                game.moves.clear();
                game.ponder = None;
            }
            // A loop that begins on a decided game is skipped whole.
            "loop" if game.over() => pc = find_end(&lines, pc),
            "loop" => loops.push((pc, arg.parse().expect("loop count"))),
            "end" => {
                let (start, left) = loops.last_mut().expect("end without loop");
                *left -= 1;
                if *left > 0 && !game.over() {
                    pc = *start;
                } else {
                    loops.pop();
                }
            }
            "wait" => {
                // A search that must not end by itself (ponder, infinite): info lines only.
                let until = Instant::now() + Duration::from_millis(arg.parse().expect("ms"));
                while let Some(l) = e.next_line(until.saturating_duration_since(Instant::now())) {
                    assert!(
                        !l.starts_with("bestmove"),
                        "{name}: '{l}' before stop/ponderhit"
                    );
                }
            }
            "exit" => assert!(e.wait_exit(Duration::from_secs(5)), "exit status"),
            other => panic!("{name}: unknown transcript line '{other}'"),
        }
        // Inside a loop, stop asking for moves once the game is decided.
        if (cmd == "+" || (cmd == "<" && arg == "bestmove"))
            && game.over()
            && let Some((start, _)) = loops.pop()
        {
            pc = find_end(&lines, start);
        }
        pc += 1;
    }
    assert!(bestmoves >= 2, "{name}: only {bestmoves} bestmoves");
    for l in &e.seen {
        let word = l.split_whitespace().next().unwrap_or("");
        assert!(
            ["id", "option", "uciok", "readyok", "info", "bestmove"].contains(&word),
            "{name} with {binary}: a line that is not UCI on stdout: '{l}'"
        );
    }
}

/// The `end` matching the `loop` at `start`.
fn find_end(lines: &[&str], start: usize) -> usize {
    (start + 1..lines.len())
        .find(|&i| lines[i] == "end")
        .expect("loop without end")
}

const TRANSCRIPTS: [&str; 5] = [
    "cutechess.txt",
    "fastchess.txt",
    "arena.txt",
    "lichess-bot.txt",
    "quit-while-thinking.txt",
];

#[test]
fn managers_drive_kiebitz_chess() {
    for t in TRANSCRIPTS {
        replay::<Chess>(t, "kiebitz-chess", "chess");
    }
}

#[test]
fn managers_drive_kiebitz_raeuber() {
    for t in TRANSCRIPTS {
        replay::<Raeuber>(t, "kiebitz-raeuber", "raeuberschach");
    }
}

#[test]
fn managers_drive_kiebitz_pawns() {
    for t in TRANSCRIPTS {
        replay::<Pawns>(t, "kiebitz-pawns", "pawns6");
    }
}

/// A game decided inside a loop (Black mates at once after 1. f3 e5 2. g4) ends the loop; a
/// later loop that needs the ponder move is skipped, and the lines after it still run.
#[test]
fn a_game_decided_inside_a_loop_ends_it_and_the_rest_goes_on() {
    let text = "> uci\n< uciok\n> position startpos\n> go movetime 50\n< bestmove\n\
                new\n+ f2f3\n+ e7e5\n+ g2g4\n\
                loop 3\n> position startpos$MOVES\n> go movetime 200\n< bestmove\nend\n\
                loop 2\n> position startpos$MOVES$PONDER\n> go ponder movetime 50\n\
                wait 50\n> stop\n< bestmove discard\nend\n\
                > isready\n< readyok\n> quit\nexit\n";
    replay_text::<Chess>("fool's mate", text, "kiebitz-chess", "chess");
}
