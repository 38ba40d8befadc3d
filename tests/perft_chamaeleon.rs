//! Chamäleon Schach move generation against the reference (tests/data/chamaeleon-perft.txt,
//! docs/rules.md §10) and against a second, independent generator written in Python
//! (tests/engines/chamaeleon_oracle.py): perft at depth 4 from the start for 2, 3 and 4
//! players and from middle-game positions of random games (after the area shrank), and whole
//! random games replayed move by move with the position text compared after every turn
//! (captures, elimination, passes, shrinking, the 100-turn draw).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::nsearch::NGame;
use kiebitz::perft::nperft;

struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/engines/chamaeleon_oracle.py");
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs the oracle");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Oracle {
            child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        answer.trim().to_string()
    }

    fn perft(&mut self, depth: u32, text: &str) -> u64 {
        self.ask(&format!("perft {depth} {text}"))
            .parse()
            .expect("a count")
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn chamaeleon_perft_reference() {
    let text = std::fs::read_to_string(common::data_path("chamaeleon-perft.txt")).unwrap();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<u64> = line.split(';').map(|x| x.trim().parse().unwrap()).collect();
        let pos = Chamaeleon::startpos(f[0] as usize).unwrap();
        assert_eq!(nperft(&pos, f[1] as u32), f[2], "{line}");
        n += 1;
    }
    assert_eq!(n, 5);
}

#[test]
fn start_positions_agree_with_the_python_oracle_at_depth_4() {
    let mut oracle = Oracle::start();
    for players in 2..=4 {
        let pos = Chamaeleon::startpos(players).unwrap();
        let ours = nperft(&pos, 4);
        assert_eq!(ours, oracle.perft(4, &pos.text()), "{players} players");
        assert!(ours > 10_000);
    }
}

/// Random games played by the oracle: every move must be legal for us, and our position text
/// after it must equal the oracle's. Returns the positions seen.
fn replay_walks(oracle: &mut Oracle, games: u64) -> Vec<Chamaeleon> {
    let mut seen = Vec::new();
    let (mut passes, mut eliminations, mut draws, mut shrunk) = (0, 0, 0, 0);
    for seed in 0..games {
        let players = 2 + (seed % 3) as usize;
        let walk = oracle.ask(&format!("walk {players} {seed}"));
        let mut pos = Chamaeleon::startpos(players).unwrap();
        for step in walk.split(';') {
            let (mv, text) = step.split_once('|').expect("move|text");
            let m = pos
                .parse_move(mv)
                .unwrap_or_else(|e| panic!("{mv} in {}: {e}", pos.text()));
            let before = pos.alive().count();
            pos = pos.play(m);
            assert_eq!(pos.text(), text, "after {mv}");
            passes += m.is_null() as usize;
            eliminations += (pos.alive().count() < before) as usize;
            shrunk += (pos.area() != kiebitz::games::chamaeleon::Area::FULL) as usize;
            seen.push(pos.clone());
        }
        assert!(pos.outcome().is_some(), "the walk ends with the game");
        draws += (pos.alive().count() > 1) as usize;
    }
    // The walks cover what they are meant to cover.
    assert!(
        eliminations > 0 && draws > 0 && shrunk > 0,
        "{eliminations} {draws} {shrunk}"
    );
    eprintln!("walks: {passes} passes, {eliminations} eliminations, {draws} draws");
    seen
}

#[test]
fn random_games_agree_with_the_python_oracle() {
    let mut oracle = Oracle::start();
    let seen = replay_walks(&mut oracle, 30);
    // Perft 4 from middle-game positions, preferring ones whose area has shrunk.
    let mut picked = 0;
    for (i, pos) in seen.iter().enumerate() {
        if pos.outcome().is_some() || i % 37 != 0 {
            continue;
        }
        let ours = nperft(pos, 4);
        if ours > 400_000 {
            continue;
        }
        assert_eq!(ours, oracle.perft(4, &pos.text()), "{}", pos.text());
        picked += 1;
    }
    assert!(picked >= 8, "{picked}");
}
