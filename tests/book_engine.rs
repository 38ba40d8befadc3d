//! Opening books in the engines: the `OwnBook`, `BookFile`, `BookDepth`, `BookVariety` options
//! of kiebitz-chess over UCI and XBoard (a book move at once, without a search, and only a
//! legal move of the book; a bad file reported and the engine playing on), `book build` and
//! `book show` on the command line, and books of Räuberschach and pawn chess with their own keys.

mod common;
mod protocol_io;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kiebitz::book::{Book, Entry};
use kiebitz::game::{Game, OpeningBook};
use kiebitz::games::chess::Chess;
use protocol_io::Client;

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiebitz-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `kiebitz-GAME book build` of `pgn` into `out`; its stdout.
fn build(binary: &str, pgn: &str, out: &str, args: &[&str]) -> String {
    let mut all = vec!["book", "build", "--pgn", pgn, "--out", out];
    all.extend(args);
    let o = common::run_binary(binary, &all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    common::stdout(&o)
}

/// The chess book of tests/data/book-games.pgn (12 plies, every move).
fn chess_book(dir: &std::path::Path) -> String {
    let out = dir.join("games.bin").display().to_string();
    let pgn = common::data_path("book-games.pgn");
    build(
        "kiebitz-chess",
        pgn.to_str().unwrap(),
        &out,
        &["--max-ply", "12", "--min-games", "1"],
    );
    out
}

fn chess_after(moves: &str) -> Chess {
    let mut pos = Chess::startpos("chess").unwrap();
    for m in moves.split_whitespace() {
        pos = pos.play(pos.parse_move(m).unwrap());
    }
    pos
}

fn uci(options: &[(&str, &str)]) -> Client {
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("uci");
    e.expect_prefix("uciok");
    for (name, value) in options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e
}

/// `go` from the position after `moves`: every line up to `bestmove`, and the time taken.
fn go(e: &mut Client, moves: &str, go: &str) -> (Vec<String>, Duration) {
    e.send(&format!("position startpos moves {moves}"));
    let start = Instant::now();
    e.send(go);
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    (lines, start.elapsed())
}

fn bestmove(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info depth"))
}

#[test]
fn uci_lists_book_options_only_for_games_with_books() {
    // Every engine of the registry: the N-seat games and CRASH! have no book.
    for (binary, two) in common::engines() {
        let has = two && binary != "kiebitz-crash";
        let mut e = Client::spawn(&common::binary(binary), &[]);
        e.send("uci");
        let lines = e.read_until(|l| l == "uciok").join("\n");
        for option in [
            "option name OwnBook type check default false",
            "option name BookFile type string default <empty>",
            "option name BookDepth type spin default 255 min 0 max 1000",
            "option name BookVariety type spin default 0 min 0 max 100",
        ] {
            assert_eq!(lines.contains(option), has, "{binary}: {option}\n{lines}");
        }
    }
}

#[test]
fn own_book_plays_book_moves_at_once_and_only_those() {
    let dir = scratch("uci");
    let path = chess_book(&dir);
    let book = Book::open(&path).unwrap();
    let mut e = uci(&[("OwnBook", "true"), ("BookFile", &path)]);
    // From the start: the heavier of e4 and d4, at once, with no search.
    for (moves, expected) in [
        ("", "e2e4"),
        // Castling is stored as e1h1 and played as e1g1.
        ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6", "e1g1"),
        // En passant (the key holds the e.p. file).
        ("e2e4 f7f5 e4e5 d7d5", "e5d6"),
        ("d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7", "e1c1"),
    ] {
        let (lines, took) = go(&mut e, moves, "go movetime 20000");
        assert!(!searched(&lines), "{moves}: {lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string book move ")),
            "{lines:?}"
        );
        assert_eq!(bestmove(&lines), expected, "{moves}: {lines:?}");
        assert!(took < Duration::from_secs(5), "{moves}: {took:?}");
        let pos = chess_after(moves);
        let in_book: Vec<String> = book
            .moves(&pos)
            .iter()
            .map(|&(m, _)| pos.move_text(m))
            .collect();
        assert_eq!(in_book[0], expected, "{moves}");
    }
    // Weighted random choice: always a move of the book.
    e.send("setoption name BookVariety value 100");
    let pos = chess_after("");
    let in_book: Vec<String> = book
        .moves(&pos)
        .iter()
        .map(|&(m, _)| pos.move_text(m))
        .collect();
    let mut played = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let (lines, _) = go(&mut e, "", "go wtime 100000 btime 100000");
        assert!(!searched(&lines));
        let mv = bestmove(&lines);
        assert!(in_book.contains(&mv), "{mv} not in {in_book:?}");
        played.insert(mv);
    }
    assert!(played.len() >= 2, "{played:?}");
    // Out of the book (12 plies deep), past BookDepth, or analysing: a search.
    let deep = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5";
    let (lines, _) = go(&mut e, deep, "go depth 3");
    assert!(searched(&lines), "{lines:?}");
    e.send("setoption name BookDepth value 2");
    let (lines, _) = go(&mut e, "e2e4 e7e5", "go depth 3");
    assert!(searched(&lines) && !lines.iter().any(|l| l.contains("book move")));
    let (lines, _) = go(&mut e, "e2e4", "go depth 3");
    assert!(!searched(&lines), "ply 1 is within BookDepth 2: {lines:?}");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let lines = e.read_until(|l| l.starts_with("bestmove"));
    assert!(searched(&lines), "go infinite analyses: {lines:?}");
    // OwnBook off: a search.
    e.send("setoption name OwnBook value false");
    let (lines, _) = go(&mut e, "", "go depth 2");
    assert!(searched(&lines));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_books_are_reported_and_illegal_book_moves_never_played() {
    let dir = scratch("bad");
    let start = Chess::startpos("chess").unwrap();
    // A book whose only entry at the start is e2e5, not a legal move.
    let illegal = dir.join("illegal.bin").display().to_string();
    Book::from_entries(vec![Entry {
        key: start.book_key().unwrap(),
        mv: 12 << 6 | 36,
        weight: 100,
        learn: 0,
    }])
    .save(&illegal)
    .unwrap();
    let truncated = dir.join("truncated.bin").display().to_string();
    std::fs::write(&truncated, [0u8; 20]).unwrap();
    let mut e = uci(&[("OwnBook", "true"), ("BookFile", &illegal)]);
    let (lines, _) = go(&mut e, "", "go depth 3");
    assert!(searched(&lines), "{lines:?}");
    assert_ne!(bestmove(&lines), "e2e5");
    // A FIFO nobody writes to would block `open` for ever; a device never ends.
    let fifo = dir.join("fifo.bin").display().to_string();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for bad in ["/nonexistent/book.bin", &truncated, &fifo, "/dev/zero"] {
        e.send(&format!("setoption name BookFile value {bad}"));
        let line = e.expect_prefix("info string");
        assert!(
            line.starts_with("info string error: BookFile: ") && line.contains("without a book"),
            "{line}"
        );
        let (lines, _) = go(&mut e, "", "go depth 2");
        assert!(searched(&lines), "plays on without a book: {lines:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xboard_plays_book_moves_too() {
    let dir = scratch("xboard");
    let path = chess_book(&dir);
    let mut e = Client::spawn(&common::binary("kiebitz-chess"), &[]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.read_until(|l| l.contains("done=1")).join("\n");
    assert!(
        features.contains("feature option=\"OwnBook -check 0\""),
        "{features}"
    );
    e.send("option OwnBook=1");
    e.send(&format!("option BookFile={path}"));
    e.send("new");
    e.send("st 30");
    e.send("usermove e2e4");
    let start = Instant::now();
    let lines = e.read_until(|l| l.starts_with("move "));
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(
        lines.iter().any(|l| l.starts_with("# book move")),
        "{lines:?}"
    );
    let pos = chess_after("e2e4");
    let in_book: Vec<String> = Book::open(&path)
        .unwrap()
        .moves(&pos)
        .iter()
        .map(|&(m, _)| pos.move_text(m))
        .collect();
    let mv = lines.last().unwrap()["move ".len()..].to_string();
    assert_eq!(mv, in_book[0], "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_command_line_errors_are_clear() {
    let dir = scratch("cli");
    let out = dir.join("x.bin").display().to_string();
    let pgn = common::data_path("book-games.pgn");
    let cases: [(&[&str], &str); 5] = [
        (
            &["book", "build", "--pgn", "/nonexistent.pgn", "--out", &out],
            "cannot read /nonexistent.pgn",
        ),
        (&["book", "build", "--out", &out], "--pgn"),
        (
            &["book", "build", "--pgn", "/dev/zero", "--out", &out],
            "larger than",
        ),
        (&["book", "show", "/nonexistent.bin"], "cannot read"),
        (
            &[
                "book",
                "build",
                "--pgn",
                pgn.to_str().unwrap(),
                "--out",
                &out,
                "--min-games",
                "100",
            ],
            "--min-games",
        ),
    ];
    for (args, message) in cases {
        let o = common::run_binary("kiebitz-chess", args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(&out).exists());
    // `book show` lists the start position's moves with weights and shares.
    let path = chess_book(&dir);
    let o = common::run_binary("kiebitz-chess", &["book", "show", &path]);
    let text = common::stdout(&o);
    assert!(o.status.success());
    assert!(
        text.starts_with("key 463b96181691fc9c: 2 book moves"),
        "{text}"
    );
    assert!(
        text.contains("\ne2e4 ") && text.contains("\nd2d4 "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Self-play PGN of pawn chess and Räuberschach (as kiebitz-match writes it) makes a book with
/// the game's own keys, which its engine plays from.
#[test]
fn raeuber_and_pawn_books_from_self_play() {
    let dir = scratch("variants");
    fn entry_moves<G: Game>(pgn: &str) -> (String, String) {
        // The builder scores a move 2 for a win and 1 for a draw of the side that played it, so
        // the start position holds book moves only when White scored in some game: walk the
        // first game to the first position whose side to move scored in it.
        let text = std::fs::read_to_string(pgn).unwrap();
        let games = kiebitz::tournament::pgn::parse(&text).unwrap();
        let first = &games[0];
        let variant = first.tag("Variant").unwrap();
        let mut pos = G::startpos(variant).unwrap();
        let skip = usize::from(first.result == "0-1");
        let mut moves = Vec::new();
        for san in &first.moves[..skip] {
            let mv = kiebitz::san::read(&pos, san).unwrap();
            moves.push(pos.move_text(mv));
            pos = pos.play(mv);
        }
        (moves.join(" "), pos.fen())
    }
    for (binary, game, variant, entry) in [
        (
            "kiebitz-pawns",
            "pawns",
            "pawns5",
            entry_moves::<kiebitz::games::pawns::Pawns> as fn(&str) -> (String, String),
        ),
        (
            "kiebitz-raeuber",
            "raeuber",
            "raeuberschach",
            entry_moves::<kiebitz::games::raeuber::Raeuber>,
        ),
    ] {
        let pgn = dir.join(format!("{variant}.pgn")).display().to_string();
        let engine = common::binary(binary).display().to_string();
        let o = common::run_binary(
            "kiebitz-match",
            &[
                "--game",
                game,
                "--variant",
                variant,
                "--engine",
                &format!("cmd={engine}"),
                "--engine",
                &format!("cmd={engine}"),
                "--games",
                "6",
                "--movetime",
                "10",
                "--pgn",
                &pgn,
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = dir.join(format!("{variant}.bin")).display().to_string();
        let summary = build(binary, &pgn, &out, &["--max-ply", "6", "--min-games", "1"]);
        assert!(summary.contains("from 6 of 6 games"), "{summary}");
        let mut e = Client::spawn(&common::binary(binary), &[]);
        e.send("uci");
        e.expect_prefix("uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name BookFile value {out}"));
        let (moves, fen) = entry(&pgn);
        e.send(&format!("position fen {fen}"));
        e.send("go depth 30");
        let lines = e.read_until(|l| l.starts_with("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string book move")),
            "{binary} after '{moves}': {lines:?}"
        );
        let o = common::run_binary(
            binary,
            &["book", "show", &out, "--variant", variant, "--fen", &fen],
        );
        let shown = common::stdout(&o);
        let mv = bestmove(&lines);
        assert!(shown.contains(&format!("\n{mv} ")), "{mv} in {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kiebitz-match --openings book=FILE.bin plies=N`: every game starts with up to N moves of
/// the book, walked at random by weight, the same for the same seed.
#[test]
fn the_tournament_runner_takes_openings_from_a_book() {
    let dir = scratch("match");
    let book_path = chess_book(&dir);
    let book = Book::open(&book_path).unwrap();
    let engine = common::binary("kiebitz-chess").display().to_string();
    let play = |name: &str, seed: &str| -> Vec<kiebitz::tournament::pgn::PgnGame> {
        let pgn = dir.join(name).display().to_string();
        let o = common::run_binary(
            "kiebitz-match",
            &[
                "--game",
                "chess",
                "--engine",
                &format!("cmd={engine}"),
                "--engine",
                &format!("cmd={engine}"),
                "--games",
                "8",
                "--depth",
                "1",
                "--maxmoves",
                "8",
                "--openings",
                &format!("book={book_path}"),
                "plies=4",
                "--seed",
                seed,
                "--pgn",
                &pgn,
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        kiebitz::tournament::pgn::parse(&std::fs::read_to_string(&pgn).unwrap()).unwrap()
    };
    let openings = |games: &[kiebitz::tournament::pgn::PgnGame]| -> Vec<String> {
        games.iter().map(|g| g.moves[..4].join(" ")).collect()
    };
    let games = play("a.pgn", "5");
    assert_eq!(games.len(), 8);
    for g in &games {
        let mut pos = Chess::startpos("chess").unwrap();
        for text in &g.moves[..4] {
            let mv = kiebitz::san::read(&pos, text).unwrap();
            // The walk ends where the book has no move (1. d4 d5 2. c4: black only lost).
            if book.moves(&pos).is_empty() {
                break;
            }
            assert!(
                book.moves(&pos).iter().any(|&(m, _)| m == mv),
                "{text} is no book move in {}",
                pos.fen()
            );
            pos = pos.play(mv);
        }
    }
    let first = openings(&games);
    // Pairs share their opening; the four pairs do not all play the same one.
    assert!(
        first
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            >= 2,
        "{first:?}"
    );
    assert_eq!(
        openings(&play("b.pgn", "5")),
        first,
        "same seed, same openings"
    );
    let o = common::run_binary(
        "kiebitz-match",
        &[
            "--game",
            "raeuber",
            "--engine",
            &format!("cmd={engine}"),
            "--engine",
            &format!("cmd={engine}"),
            "--depth",
            "1",
            "--openings",
            &format!("book={book_path}"),
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains("no legal move for the start position"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
