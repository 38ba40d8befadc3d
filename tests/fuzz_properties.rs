//! The fuzz suite kept in CI: property tests (proptest, bounded case counts, seconds each)
//! that feed every engine random protocol lines, mutated FENs and random legal games through
//! the library's session loop, and assert the invariants: no panic, `readyok`/`pong` after
//! the barrage, a legal `bestmove`, the position unchanged after a refused command, and perft
//! after a FEN round trip equal to a count by a different method (the plain recursion against
//! the game's own fast count). The long-running fuzzers are the `cargo fuzz` targets in
//! `fuzz/` (docs/testing.md, "Fuzzing").

use std::time::Duration;

use kiebitz::board::Move;
use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::pawns::Pawns;
use kiebitz::games::raeuber::Raeuber;
use kiebitz::perft;
use kiebitz::protocol::{SessionConfig, legal_moves, session_transcript};
use proptest::prelude::*;

/// Runs one session of game `G` on `lines`; returns its output lines. Jobs are stopped at
/// the end of input (as for a TCP client) and any one is cut after two seconds.
fn session<G: Game>(lines: &[String]) -> Vec<String> {
    let input = lines.join("\n") + "\n";
    let config = SessionConfig {
        hash_mb: 1,
        finish_at_eof: false,
        job_ceiling: Some(Duration::from_secs(2)),
        hash_budget: None,
        oracle: None,
        paths: kiebitz::protocol::Paths::Any,
    };
    session_transcript::<G>(&input, &config)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Config: few cases, no failure files in the source tree.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A random word: protocol keywords, numbers at the edges of their types, squares, noise.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "uci",
            "isready",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "stop",
            "ponderhit",
            "setoption",
            "name",
            "value",
            "Hash",
            "Clear Hash",
            "Move Overhead",
            "UCI_Variant",
            "ucinewgame",
            "debug",
            "on",
            "d",
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "infinite",
            "ponder",
            "perft",
            "mate",
            "searchmoves",
            "xboard",
            "protover",
            "new",
            "force",
            "variant",
            "level",
            "st",
            "sd",
            "time",
            "otim",
            "ping",
            "usermove",
            "undo",
            "remove",
            "setboard",
            "analyze",
            "exit",
            ".",
            "?",
            "memory",
            "cores",
            "result",
            "post",
            "nopost",
            "hard",
            "easy",
            "playother",
            "white",
            "black",
            "1-0",
            "e2e4",
            "a1a2",
            "e7e8q",
            "0000",
            "O-O",
            "-",
            "w",
            "b",
            "KQkq",
        ])
        .prop_map(str::to_string),
        prop::sample::select(vec![
            "0",
            "1",
            "2",
            "-1",
            "255",
            "256",
            "65535",
            "65536",
            "4294967295",
            "4294967296",
            "9223372036854775807",
            "-9223372036854775808",
            "18446744073709551615",
            "1844674407370955162",
            "1e9",
            "NaN",
            "inf",
            "0.5",
            "",
        ])
        .prop_map(str::to_string),
        "[a-h][1-8][a-h][1-8][qrbnk]?",
        "[ -~]{0,12}",
    ]
}

/// A random command line of a few words (never `quit`: the barrage must reach its end).
fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..6)
        .prop_map(|w| w.join(" "))
        .prop_filter("no quit", |l| !l.split_whitespace().any(|w| w == "quit"))
}

/// Depths and limits kept small so that every case takes milliseconds.
fn tame(line: String) -> String {
    let mut words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    for i in 0..words.len() {
        let limit = match words[i].as_str() {
            "perft" => 3,
            "depth" | "sd" | "mate" => 4,
            "nodes" => 5000,
            "movetime" | "wtime" | "btime" | "st" => 50,
            _ => continue,
        };
        if let Some(next) = words.get_mut(i + 1)
            && let Ok(n) = next.parse::<i64>()
            && n > limit
        {
            *next = limit.to_string();
        }
    }
    words.join(" ")
}

fn barrage<G: Game>(first: &str, lines: Vec<String>, last: &str, answer: &str) {
    let mut all = vec![first.to_string()];
    all.extend(lines.into_iter().map(tame));
    all.push(last.to_string());
    let out = session::<G>(&all);
    assert!(
        out.iter().any(|l| l == answer),
        "no '{answer}' after the barrage {all:?}: {out:?}"
    );
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn uci_barrage_chess(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Chess>("uci", lines, "isready", "readyok");
    }

    #[test]
    fn uci_barrage_raeuber(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Raeuber>("uci", lines, "isready", "readyok");
    }

    #[test]
    fn uci_barrage_pawns(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Pawns>("uci", lines, "isready", "readyok");
    }

    #[test]
    fn xboard_barrage_chess(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Chess>("xboard", lines, "ping 424242", "pong 424242");
    }

    #[test]
    fn xboard_barrage_raeuber(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Raeuber>("xboard", lines, "ping 424242", "pong 424242");
    }

    #[test]
    fn xboard_barrage_pawns(lines in prop::collection::vec(line(), 1..25)) {
        barrage::<Pawns>("xboard", lines, "ping 424242", "pong 424242");
    }
}

/// A random legal game of up to `plies` plies from `start` (choices by index).
fn play<G: Game>(start: &G, choices: &[usize]) -> (G, Vec<Move>) {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for &c in choices {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let mv = legal[c % legal.len()];
        moves.push(mv);
        pos = pos.play(mv);
    }
    (pos, moves)
}

/// The FEN `d` reports.
fn reported_fen(out: &[String]) -> Option<String> {
    out.iter()
        .rev()
        .find_map(|l| l.strip_prefix("info string fen ").map(str::to_string))
}

/// A FEN with one character replaced, inserted or removed.
fn mutate(fen: &str, at: usize, op: u8, c: char) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    let i = at % (chars.len() + 1);
    match op % 3 {
        0 if i < chars.len() => chars[i] = c,
        1 => chars.insert(i, c),
        _ if i < chars.len() => {
            chars.remove(i);
        }
        _ => chars.push(c),
    }
    chars.into_iter().collect()
}

fn fen_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh09x"
            .chars()
            .collect::<Vec<_>>(),
    )
}

/// Random legal games: the session plays them, the bestmove is legal in the position
/// reached, and a mutated FEN is either taken as the library takes it or leaves the session's
/// position as it was.
fn games_and_fens<G: Game>(variant: &str, choices: &[usize], mutations: &[(usize, u8, char)]) {
    let start = G::startpos(variant).unwrap();
    let (pos, moves) = play(&start, choices);
    let texts: Vec<String> = {
        let mut p = start.clone();
        moves
            .iter()
            .map(|&m| {
                let t = p.move_text(m);
                p = p.play(m);
                t
            })
            .collect()
    };
    let position = if texts.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", texts.join(" "))
    };
    let mut lines = vec![
        "uci".to_string(),
        format!("setoption name UCI_Variant value {variant}"),
        position,
        "d".to_string(),
    ];
    let mut expected = pos.fen();
    for &(at, op, c) in mutations {
        let bad = mutate(&pos.fen(), at, op, c);
        if let Ok(p) = G::from_fen(variant, &bad) {
            expected = p.fen();
        }
        lines.push(format!("position fen {bad}"));
    }
    lines.push("d".to_string());
    lines.push("go nodes 2000".to_string());
    let out = session::<G>(&lines);
    assert_eq!(
        reported_fen(&out),
        Some(expected.clone()),
        "{lines:?}\n{out:?}"
    );
    let now = G::from_fen(variant, &expected).unwrap();
    let best = out
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .map(|b| b.split_whitespace().next().unwrap_or("").to_string());
    let legal: Vec<String> = legal_moves(&now)
        .iter()
        .map(|&m| now.move_text(m))
        .collect();
    match best.as_deref() {
        Some("(none)") => assert!(legal.is_empty()),
        Some(mv) => assert!(
            legal.iter().any(|l| l == mv),
            "{mv} not legal in {expected}"
        ),
        None => assert!(legal.is_empty(), "no bestmove: {out:?}"),
    }
    // Perft through the FEN round trip, by the game's count and by plain recursion.
    let again = G::from_fen(variant, &pos.fen()).unwrap();
    assert_eq!(again.fen(), pos.fen());
    assert_eq!(again.hash(), pos.hash());
    assert_eq!(
        perft::perft(&again, 3),
        perft::generic(&pos, 3),
        "{}",
        pos.fen()
    );
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn chess_games_and_mutated_fens(
        choices in prop::collection::vec(any::<usize>(), 0..60),
        mutations in prop::collection::vec((any::<usize>(), any::<u8>(), fen_char()), 0..6),
    ) {
        games_and_fens::<Chess>("chess", &choices, &mutations);
    }

    #[test]
    fn raeuber_games_and_mutated_fens(
        choices in prop::collection::vec(any::<usize>(), 0..60),
        mutations in prop::collection::vec((any::<usize>(), any::<u8>(), fen_char()), 0..6),
    ) {
        games_and_fens::<Raeuber>("raeuberschach", &choices, &mutations);
    }

    #[test]
    fn pawns_games_and_mutated_fens(
        choices in prop::collection::vec(any::<usize>(), 0..40),
        mutations in prop::collection::vec((any::<usize>(), any::<u8>(), fen_char()), 0..6),
        variant in prop::sample::select(vec!["pawns6ep", "pawns5d", "pawns8ep", "pawns3"]),
    ) {
        games_and_fens::<Pawns>(variant, &choices, &mutations);
    }
}

proptest! {
    #![proptest_config(config(1000))]

    /// Any text as a FEN: the parser answers (no panic), and what it accepts survives its
    /// own round trip.
    #[test]
    fn fen_parsers_never_panic(text in "[ -~]{0,90}") {
        for_each_game(&text);
    }

    #[test]
    fn fen_parsers_on_near_fens(
        mutations in prop::collection::vec((any::<usize>(), any::<u8>(), fen_char()), 1..8),
        which in 0usize..3,
    ) {
        let base = [Chess::START_FEN, "rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1", "pppppp/6/6/6/6/PPPPPP w - - 0 1"][which];
        let mut fen = base.to_string();
        for &(at, op, c) in &mutations {
            fen = mutate(&fen, at, op, c);
        }
        for_each_game(&fen);
    }
}

fn round_trip<G: Game>(variant: &str, text: &str) {
    if let Ok(p) = G::from_fen(variant, text) {
        let again = G::from_fen(variant, &p.fen()).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(again.fen(), p.fen());
        // Every legal move is distinct and playable.
        let moves = legal_moves(&p);
        for (i, m) in moves.iter().enumerate() {
            assert!(!moves[..i].contains(m), "duplicate move in {text}");
            let _ = p.play(*m);
        }
    }
}

fn for_each_game(text: &str) {
    round_trip::<Chess>("chess", text);
    round_trip::<Raeuber>("raeuberschach", text);
    for v in ["pawns6", "pawns6ep", "pawns8ep"] {
        round_trip::<Pawns>(v, text);
    }
}

/// Every registered two-player game's move readers (`parse_move`, and SAN through
/// `kiebitz::san::read`) on `text`, at the start and after `plies` random legal moves: an
/// answer, never a panic (non-ASCII text once cut a string inside a character).
struct ReadMoves<'a> {
    text: &'a str,
    choices: &'a [usize],
}

impl kiebitz::games::ForGame for ReadMoves<'_> {
    type Output = ();

    fn run<G: Game>(self) {
        for variant in G::variants() {
            let start = G::startpos(variant).unwrap();
            let (pos, _) = play(&start, self.choices);
            for p in [&start, &pos] {
                if let Ok(m) = p.parse_move(self.text) {
                    assert!(
                        legal_moves(p).contains(&m),
                        "{variant}: {} read as an illegal move",
                        self.text
                    );
                }
                let _ = kiebitz::san::read(p, self.text);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn move_readers_never_panic(
        text in prop_oneof!["\\PC{0,8}", "[a-h1-8xQRBNKq=+#@:.-]{0,7}", "[a-h][1-8]\\PC{1,3}"],
        choices in prop::collection::vec(any::<usize>(), 0..12),
    ) {
        for name in kiebitz::games::NAMES {
            kiebitz::games::with_game(name, ReadMoves { text: &text, choices: &choices });
        }
    }
}
