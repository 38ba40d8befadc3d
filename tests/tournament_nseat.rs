//! `kiebitz-match --game chamaeleon` end to end: three engines (one binary, three
//! `Algorithm`s) on three seats play every seating once; every recorded move is replayed under
//! the library's rules, the recorded results agree with the final position, and the table's
//! counts add up.

mod common;

use std::collections::{HashMap, HashSet};
use std::process::Command;

use kiebitz::games::chamaeleon::Chamaeleon;
use kiebitz::nsearch::NGame;

const ENGINES: [(&str, &str); 3] = [("MaxN", "maxn"), ("Paranoid", "paranoid"), ("BRS", "brs")];

/// The tags and move texts of each record in `text` (the moves may take several lines).
fn records(text: &str) -> Vec<(HashMap<String, String>, Vec<String>)> {
    let mut games: Vec<(HashMap<String, String>, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            if games.last().is_none_or(|(_, moves)| !moves.is_empty()) {
                games.push(Default::default());
            }
            let (name, value) = tag.split_once(' ').expect("a tag has a value");
            let value = value.trim_end_matches(']').trim_matches('"');
            games
                .last_mut()
                .unwrap()
                .0
                .insert(name.into(), value.into());
        } else if let Some((_, moves)) = games.last_mut() {
            // The result comment `{S:loss W:loss N:win}` ends the moves.
            let line = line.split('{').next().unwrap_or_default();
            moves.extend(
                line.split_whitespace()
                    .filter(|w| !w.ends_with('.'))
                    .map(str::to_string),
            );
        }
    }
    games
}

#[test]
fn three_engines_play_every_seating_with_legal_moves_and_consistent_results() {
    let pgn = std::env::temp_dir().join(format!("kiebitz-nseat-{}.pgn", std::process::id()));
    let engine = common::binary("kiebitz-chamaeleon");
    let mut args: Vec<String> = ["--game", "chamaeleon", "--players", "3"]
        .map(String::from)
        .to_vec();
    for (name, algorithm) in ENGINES {
        args.extend([
            "--engine".into(),
            format!("cmd={}", engine.display()),
            format!("name={name}"),
            format!("option.Algorithm={algorithm}"),
        ]);
    }
    args.extend(
        [
            "--tc",
            "0.01",
            "--rounds",
            "1",
            "--random-turns",
            "2",
            "--seed",
            "7",
            "--concurrency",
            "2",
            "--pgn",
        ]
        .map(String::from),
    );
    args.push(pgn.display().to_string());
    let out = Command::new(common::binary("kiebitz-match"))
        .args(&args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The table: a row per engine, six games each, wins + draws + losses = games.
    for (name, _) in ENGINES {
        let row: Vec<&str> = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}: {stdout}"))
            .split_whitespace()
            .collect();
        let n: Vec<u32> = row[1..5].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(n[0], 6, "{row:?}");
        assert_eq!(n[1] + n[2] + n[3], n[0], "{row:?}");
    }

    // The records: all 3! seatings, every move legal, results as the final position says.
    let games = records(&std::fs::read_to_string(&pgn).unwrap());
    let _ = std::fs::remove_file(&pgn);
    assert_eq!(games.len(), 6);
    let mut seatings = HashSet::new();
    for (tags, moves) in &games {
        let start = Chamaeleon::from_text(&tags["Start"]).expect("the start position reads");
        let seats: Vec<usize> = (0..start.seats()).filter(|&s| start.in_game(s)).collect();
        assert_eq!(seats.len(), 3);
        let seating: Vec<&str> = seats
            .iter()
            .map(|&s| tags[Chamaeleon::seat_name(s)].as_str())
            .collect();
        seatings.insert(seating.join(" "));
        let mut pos = start;
        for text in moves {
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("game {}: {text}: {e}", tags["Game"]));
            pos = pos.play(mv);
        }
        let outcome = pos.outcome().expect("every game is played to its end");
        for &s in &seats {
            let name = Chamaeleon::seat_name(s);
            assert_eq!(
                tags[&format!("{name}Result")],
                outcome[s].word(),
                "game {} seat {name}",
                tags["Game"]
            );
        }
    }
    assert_eq!(seatings.len(), 6, "{seatings:?}");
}
