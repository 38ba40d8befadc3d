//! The fuzz suite kept in CI: property tests (proptest, bounded case counts, seconds each)
//! that feed every engine random protocol lines, mutated FENs and random legal games through
//! the library's session loop, and assert the invariants: no panic, `readyok`/`pong` after
//! the barrage, a legal `bestmove`, the position unchanged after a refused command, and perft
//! after a FEN round trip equal to a count by a different method (the plain recursion against
//! the game's own fast count). Every property loops over the registry
//! (`kiebitz::games::NAMES`, [`with_game`]), so each covers every game, a new one included.
//! The long-running fuzzers are the `cargo fuzz` targets in `fuzz/` (docs/testing.md,
//! "Fuzzing").

use std::time::Duration;

use kiebitz::board::Move;
use kiebitz::game::Game;
use kiebitz::games::chess::Chess;
use kiebitz::games::{ForGame, NAMES, with_game};
use kiebitz::ngame::NGame;
use kiebitz::perft;
use kiebitz::protocol::{SessionConfig, legal_moves, session_transcript};
use proptest::prelude::*;

/// The session settings of every property: jobs are stopped at the end of input (as for a
/// TCP client) and any one is cut after two seconds.
fn session_config() -> SessionConfig {
    SessionConfig {
        hash_mb: 1,
        finish_at_eof: false,
        job_ceiling: Some(Duration::from_secs(2)),
        hash_budget: None,
        oracle: None,
        paths: kiebitz::protocol::Paths::Any,
    }
}

/// Runs one session of game `G` on `lines`; returns its output lines.
fn session<G: Game>(lines: &[String]) -> Vec<String> {
    let input = lines.join("\n") + "\n";
    session_transcript::<G>(&input, &session_config())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// [`session`] of an N-seat game (the N-seat dialect).
fn nseat_session<G: NGame>(lines: &[String]) -> Vec<String> {
    let input = lines.join("\n") + "\n";
    kiebitz::protocol::nseat::session_transcript::<G>(&input, &session_config())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs `job` on every registered game; returns how many games ran it (an N-seat game where
/// the job has no N-seat form does not).
fn every_game<J: ForGame<Output = ()> + Clone>(job: J) -> usize {
    NAMES
        .iter()
        .filter(|name| with_game(name, job.clone()).is_some())
        .count()
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

/// A barrage of random lines between a dialect's first line and a question it must answer:
/// the answer comes (no panic, no hang). UCI for every game (the N-seat dialect speaks it),
/// XBoard for the two-seat games.
#[derive(Clone)]
struct Barrage {
    xboard: bool,
    lines: Vec<String>,
}

impl Barrage {
    /// The session's lines and the answer expected.
    fn script(&self) -> (Vec<String>, &'static str) {
        let (first, last, answer) = if self.xboard {
            ("xboard", "ping 424242", "pong 424242")
        } else {
            ("uci", "isready", "readyok")
        };
        let mut all = vec![first.to_string()];
        all.extend(self.lines.iter().cloned().map(tame));
        all.push(last.to_string());
        (all, answer)
    }
}

fn assert_answered(all: &[String], out: &[String], answer: &str) {
    assert!(
        out.iter().any(|l| l == answer),
        "no '{answer}' after the barrage {all:?}: {out:?}"
    );
}

impl ForGame for Barrage {
    type Output = ();

    fn run<G: Game>(self) {
        let (all, answer) = self.script();
        assert_answered(&all, &session::<G>(&all), answer);
    }

    fn run_seats<G: NGame>(self) -> Option<()> {
        if self.xboard {
            return None;
        }
        let (all, answer) = self.script();
        assert_answered(&all, &nseat_session::<G>(&all), answer);
        Some(())
    }
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn uci_barrage_every_game(lines in prop::collection::vec(line(), 1..25)) {
        prop_assert_eq!(every_game(Barrage { xboard: false, lines }), NAMES.len());
    }

    #[test]
    fn xboard_barrage_every_two_seat_game(lines in prop::collection::vec(line(), 1..25)) {
        let two = NAMES.iter().filter(|n| kiebitz::games::seats(n).unwrap().is_two()).count();
        prop_assert_eq!(every_game(Barrage { xboard: true, lines }), two);
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

/// [`games_and_fens`] on a variant of each two-seat game (picked by `variant` among the
/// game's); an N-seat game plays random games and its text round trip instead
/// ([`nseat_games_and_texts`]).
#[derive(Clone)]
struct GamesAndFens {
    variant: usize,
    choices: Vec<usize>,
    mutations: Vec<(usize, u8, char)>,
}

impl ForGame for GamesAndFens {
    type Output = ();

    fn run<G: Game>(self) {
        let variant = G::variants()[self.variant % G::variants().len()];
        games_and_fens::<G>(variant, &self.choices, &self.mutations);
    }

    fn run_seats<G: NGame>(self) -> Option<()> {
        nseat_games_and_texts::<G>(&self.choices, &self.mutations);
        Some(())
    }
}

/// Random legal games of an N-seat game: the session answers `go nodes` with a legal move,
/// and a mutated text is either taken as the library takes it (round trip) or refused.
fn nseat_games_and_texts<G: NGame>(choices: &[usize], mutations: &[(usize, u8, char)]) {
    let mut pos = G::startpos(G::PLAYERS.1).unwrap();
    for &c in choices {
        let mut legal = kiebitz::board::MoveList::new();
        pos.legal_moves(&mut legal);
        if legal.is_empty() || pos.outcome().is_some() {
            break;
        }
        pos = pos.play(legal[c % legal.len()]);
    }
    for &(at, op, c) in mutations {
        if let Ok(p) = G::from_text(&mutate(&pos.text(), at, op, c)) {
            let again = G::from_text(&p.text()).unwrap();
            assert_eq!(again.text(), p.text());
        }
    }
    let lines = vec![
        "uci".to_string(),
        format!("position fen {}", pos.text()),
        "go nodes 2000".to_string(),
    ];
    let out = nseat_session::<G>(&lines);
    let best = out.iter().find_map(|l| l.strip_prefix("bestmove "));
    let mut legal = kiebitz::board::MoveList::new();
    pos.legal_moves(&mut legal);
    let texts: Vec<String> = legal.iter().map(|&m| pos.move_text(m)).collect();
    match best.and_then(|b| b.split_whitespace().next()) {
        Some(mv) if !texts.is_empty() => assert!(texts.iter().any(|t| t == mv), "{mv}: {out:?}"),
        _ => {}
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn every_games_games_and_mutated_fens(
        choices in prop::collection::vec(any::<usize>(), 0..60),
        mutations in prop::collection::vec((any::<usize>(), any::<u8>(), fen_char()), 0..6),
        variant in any::<usize>(),
    ) {
        let job = GamesAndFens { variant, choices, mutations };
        prop_assert_eq!(every_game(job), NAMES.len());
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

/// [`round_trip`] of `text` in every variant of every game (an N-seat game's text reader).
#[derive(Clone)]
struct RoundTrip<'a>(&'a str);

impl ForGame for RoundTrip<'_> {
    type Output = ();

    fn run<G: Game>(self) {
        for variant in G::variants() {
            round_trip::<G>(variant, self.0);
        }
    }

    fn run_seats<G: NGame>(self) -> Option<()> {
        if let Ok(p) = G::from_text(self.0) {
            let again = G::from_text(&p.text()).unwrap_or_else(|e| panic!("{}: {e}", self.0));
            assert_eq!(again.text(), p.text());
        }
        Some(())
    }
}

fn for_each_game(text: &str) {
    assert_eq!(every_game(RoundTrip(text)), NAMES.len());
}

/// Every registered two-player game's move readers (`parse_move`, and SAN through
/// `kiebitz::san::read`) on `text`, at the start and after `plies` random legal moves: an
/// answer, never a panic (non-ASCII text once cut a string inside a character).
struct ReadMoves<'a> {
    text: &'a str,
    choices: &'a [usize],
}

impl ForGame for ReadMoves<'_> {
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
        for name in NAMES {
            with_game(name, ReadMoves { text: &text, choices: &choices });
        }
    }
}
