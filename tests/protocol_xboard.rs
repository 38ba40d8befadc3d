//! XBoard/CECP v2 sessions with the real kiebitz-pawns binary: handshake, engine-defined
//! variants, moves both ways, clocks, results, force/undo/remove, analyze, and bad input.

mod common;
mod protocol_io;

use std::time::Duration;

use kiebitz::game::Game;
use kiebitz::games::pawns::Pawns;
use protocol_io::Client;

/// An XBoard session past `protover 2`, with `ping` synchronisation.
fn xboard() -> Client {
    let mut e = Client::spawn(&common::binary("kiebitz-pawns"), &[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect_prefix("feature done=1");
    e
}

/// Sends `ping n` and returns the lines before `pong n`.
fn sync(e: &mut Client, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let mut lines = e.read_until(|l| l == format!("pong {n}"));
    lines.pop();
    lines
}

/// Reads up to the engine's `move …` line and returns the move.
fn engine_move(e: &mut Client) -> String {
    let line = e.expect_prefix("move ");
    line["move ".len()..].to_string()
}

#[test]
fn handshake_lists_features_and_variants() {
    let mut e = Client::spawn(&common::binary("kiebitz-pawns"), &[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until(|l| l == "feature done=1");
    assert_eq!(lines[0], "feature done=0");
    let f = &lines[1];
    assert!(f.contains(&format!(
        "myname=\"kiebitz-pawns {}\"",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(f.contains("variants=\"pawns6,pawns6d,pawns6ep,pawns3,"));
    for feature in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "colors=0",
        "playother=1",
        "time=1",
        "memory=1",
    ] {
        assert!(f.contains(feature), "{feature} missing in {f}");
    }
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn a_game_as_xboard_plays_it() {
    let mut e = xboard();
    // The commands XBoard 4.9 sends at the start of a game.
    for c in ["accepted setboard", "memory 32", "cores 1", "new", "random"] {
        e.send(c);
    }
    e.send("variant pawns5");
    let lines = sync(&mut e, 1);
    let setup = lines
        .iter()
        .rfind(|l| l.starts_with("setup "))
        .expect("a setup line");
    assert!(setup.contains(" 5x5+0_"), "{setup}");
    assert!(setup.ends_with(" ppppp/5/5/5/PPPPP w - - 0 1"), "{setup}");
    for c in [
        "level 40 5 0",
        "post",
        "hard",
        "easy",
        "computer",
        "name tester",
    ] {
        e.send(c);
    }
    assert!(sync(&mut e, 2).is_empty());
    let mut pos = Pawns::startpos("pawns5").unwrap();
    // The engine plays Black: each of our moves gets an answer.
    for mv in ["c1c2", "a1a2"] {
        // Three seconds on each clock: a quick move.
        e.send("time 300");
        e.send("otim 300");
        e.send(&format!("usermove {mv}"));
        pos = pos.play(pos.parse_move(mv).unwrap());
        let reply = engine_move(&mut e);
        let m = pos
            .parse_move(&reply)
            .unwrap_or_else(|_| panic!("illegal {reply}"));
        pos = pos.play(m);
        assert!(sync(&mut e, 3).iter().all(|l| !l.starts_with("move")));
    }
    // The engine takes White after `go`.
    e.send("force");
    e.send("setboard ppppp/5/5/5/PPPPP w - - 0 1");
    e.send("st 1");
    e.send("sd 2");
    e.send("go");
    let reply = engine_move(&mut e);
    let start = Pawns::startpos("pawns5").unwrap();
    assert!(start.parse_move(&reply).is_ok(), "{reply}");
    e.send("result 1/2-1/2 {adjourned}");
    assert!(sync(&mut e, 4).is_empty());
}

#[test]
fn results_are_announced_after_either_sides_move() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns3");
    e.send("force");
    // White's pawn arrives by our move: the engine announces the result and does not move.
    e.send("setboard 1p1/P2/3 w - - 0 1");
    e.send("playother");
    e.send("usermove a2b3");
    let lines = sync(&mut e, 1);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("1-0 {White wins: a pawn has reached the last rank}")
    );
    // The engine's own winning move, then the result.
    e.send("force");
    e.send("setboard 1p1/P2/3 w - - 0 1");
    e.send("go");
    // Both a2a3 and a2b3 reach the last rank.
    let mv = engine_move(&mut e);
    assert!(mv == "a2b3" || mv == "a2a3", "{mv}");
    assert_eq!(
        e.next_line(protocol_io::TIMEOUT).as_deref(),
        Some("1-0 {White wins: a pawn has reached the last rank}")
    );
    // A blocked position is a draw.
    e.send("force");
    e.send("setboard 3/p2/P2 w - - 0 1");
    e.send("go");
    assert_eq!(
        sync(&mut e, 2).last().map(String::as_str),
        Some("1/2-1/2 {Draw: White has no legal move}")
    );
}

#[test]
fn force_undo_and_remove() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns4");
    e.send("force");
    for mv in ["a1a2", "d4d3", "b1b2"] {
        e.send(&format!("usermove {mv}"));
    }
    e.send("undo");
    e.send("remove");
    sync(&mut e, 1);
    // Back at the start: White to move, and two moves taken back again by `remove`.
    e.send("usermove b1b2");
    e.send("usermove d4d3");
    e.send("remove");
    e.send("remove");
    let lines = sync(&mut e, 1);
    assert_eq!(lines, ["Error (no moves to take back): remove"]);
    // Still the start position, White to move: a legal white move is accepted.
    e.send("usermove a1a2");
    assert!(sync(&mut e, 2).is_empty());
}

#[test]
fn bad_input_gets_error_lines_and_changes_nothing() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns4");
    sync(&mut e, 1);
    e.send("force");
    let cases = [
        ("usermove a1a4", "Illegal move: a1a4"),
        ("usermove zz", "Illegal move: zz"),
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("level forty", "Error (bad argument): level forty"),
        (
            "variant chess960",
            "Error (unknown variant): variant chess960",
        ),
        ("undo", "Error (no moves to take back): undo"),
    ];
    for (bad, answer) in cases {
        e.send(bad);
        assert_eq!(sync(&mut e, 2), [answer], "{bad}");
    }
    e.send("setboard pppp/4/4/PPPX w - - 0 1");
    let lines = sync(&mut e, 3);
    assert_eq!(lines[0], "tellusererror Illegal position");
    assert!(lines[1].starts_with("Error (bad FEN: "), "{}", lines[1]);
    // The position is still the start: the engine finds a legal move in it.
    e.send("sd 3");
    e.send("go");
    let mv = engine_move(&mut e);
    assert!(
        Pawns::startpos("pawns4").unwrap().parse_move(&mv).is_ok(),
        "{mv}"
    );
}

#[test]
fn analyze_mode_reports_and_answers_ping() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns6");
    e.send("force");
    e.send("post");
    e.send("analyze");
    std::thread::sleep(Duration::from_millis(100));
    // Pings are answered while the analysis runs; no move is ever made.
    let lines = sync(&mut e, 1);
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    e.send(".");
    e.send("usermove a1a2");
    e.send("exit");
    let lines = sync(&mut e, 2);
    assert!(lines.iter().all(|l| !l.starts_with("move")), "{lines:?}");
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.split_whitespace().count() >= 4 && !l.starts_with("stat01"))
        .collect();
    // Thinking lines: depth score time nodes pv.
    for l in thinking {
        let f: Vec<&str> = l.split_whitespace().collect();
        assert!(f[..4].iter().all(|x| x.parse::<i64>().is_ok()), "{l}");
    }
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn options_are_advertised_and_set() {
    let mut e = Client::spawn(&common::binary("kiebitz-pawns"), &[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until(|l| l == "feature done=1");
    let options: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("feature option=\""))
        .map(|l| l.trim_end_matches('"'))
        .collect();
    for o in [
        "Hash -spin 16 1 65536",
        "Clear Hash -button",
        "Move Overhead -spin 10 0 5000",
    ] {
        assert!(options.contains(&o), "{o} missing in {options:?}");
    }
    // XBoard picks variants and pondering with commands of its own.
    assert!(options.iter().all(|o| !o.starts_with("UCI_Variant")));
    // Every advertised option takes its default value without complaint.
    for o in &options {
        let (name, kind) = o.split_once(" -").unwrap();
        let mut words = kind.split_whitespace();
        let command = match (words.next(), words.next()) {
            (Some("button"), _) => format!("option {name}"),
            (Some("combo"), _) => {
                let star = kind.split(" /// ").find_map(|c| c.split('*').nth(1));
                format!("option {name}={}", star.unwrap().trim())
            }
            (_, Some(default)) => format!("option {name}={default}"),
            _ => panic!("option without a default: {o}"),
        };
        e.send(&command);
        assert!(sync(&mut e, 1).is_empty(), "{command}");
    }
    e.send("option Hash=32");
    e.send("option Move Overhead = 250");
    assert!(sync(&mut e, 2).is_empty());
    let cases = [
        (
            "option Hash=0",
            "Error (option Hash takes a number from 1 to 65536): option Hash=0",
        ),
        (
            "option Hash",
            "Error (option Hash needs a value): option Hash",
        ),
        ("option Frob=1", "Error (unknown option): option Frob=1"),
        (
            "option UCI_Variant=pawns4",
            "Error (unknown option): option UCI_Variant=pawns4",
        ),
        ("option", "Error (option needs NAME=VALUE): option"),
    ];
    for (bad, answer) in cases {
        e.send(bad);
        assert_eq!(sync(&mut e, 3), [answer], "{bad}");
    }
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn hint_names_a_legal_move() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns5");
    e.send("force");
    // Nothing searched yet: a short search answers.
    e.send("hint");
    let hint = e.expect_prefix("Hint: ");
    let start = Pawns::startpos("pawns5").unwrap();
    assert!(start.parse_move(&hint["Hint: ".len()..]).is_ok(), "{hint}");
    // After the engine's move: the reply its search expected, legal for the user.
    e.send("sd 4");
    e.send("go");
    let mv = engine_move(&mut e);
    e.send("hint");
    let hint = e.expect_prefix("Hint: ");
    let after = start.play(start.parse_move(&mv).unwrap());
    assert!(after.parse_move(&hint["Hint: ".len()..]).is_ok(), "{hint}");
    assert!(sync(&mut e, 1).is_empty());
}

/// `new` then `variant` of the same variant (XBoard's order) teaches the variant once: one
/// `setup` line per game, not one per command.
#[test]
fn setup_is_sent_once_per_game() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns6");
    let lines = sync(&mut e, 1);
    let setups = lines.iter().filter(|l| l.starts_with("setup ")).count();
    assert_eq!(setups, 1, "{lines:?}");
    // Another variant is taught again, and so is a new game's.
    e.send("variant pawns5");
    e.send("new");
    let lines = sync(&mut e, 2);
    let setups: Vec<&String> = lines.iter().filter(|l| l.starts_with("setup ")).collect();
    assert_eq!(setups.len(), 2, "{lines:?}");
    assert!(
        setups[0].contains("5x5+0_") && setups[1].contains("6x6+0_"),
        "{setups:?}"
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

/// `stat01` answers `.` in analyze mode only: never unasked while analysing, never to `.`
/// outside analyze mode.
#[test]
fn stat01_only_when_asked() {
    let mut e = xboard();
    e.send("new");
    e.send("variant pawns5");
    e.send(".");
    let lines = sync(&mut e, 1);
    assert!(lines.iter().all(|l| !l.starts_with("stat01")), "{lines:?}");
    e.send("post");
    e.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    let lines = sync(&mut e, 2);
    assert!(
        lines.iter().all(|l| !l.starts_with("stat01")),
        "unasked: {lines:?}"
    );
    e.send(".");
    let lines = sync(&mut e, 3);
    let stats: Vec<&String> = lines.iter().filter(|l| l.starts_with("stat01: ")).collect();
    assert_eq!(stats.len(), 1, "{lines:?}");
    // time nodes depth movesleft movestotal [move]: five numbers, 5 legal moves at the start.
    let f: Vec<&str> = stats[0]["stat01: ".len()..].split_whitespace().collect();
    assert!(
        f[..5].iter().all(|x| x.parse::<u64>().is_ok()),
        "{}",
        stats[0]
    );
    assert_eq!(f[4], "5", "{}", stats[0]);
    e.send("exit");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}
