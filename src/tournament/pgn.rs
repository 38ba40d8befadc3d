//! PGN out and back in: the tags (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//! `Result`, `Variant` for anything but standard chess, `FEN` + `SetUp "1"` whenever the
//! start is not standard chess's 8×8 start position, `TimeControl`, `Termination`), moves in
//! SAN ([`crate::san`]: `Nf3`, `O-O`, `e8=Q+`) with the engines' comments, and [`replay`],
//! which replays a game read by [`crate::pgn`] (SAN or coordinate moves) through the Game
//! trait to check its result.
//!
//! Depends on the Game trait, [`crate::san`], [`crate::pgn`] and [`super::referee`].

use crate::game::{Game, Outcome};
use crate::san;

use super::referee::{GameRecord, rules_verdict};

/// Tournament-wide tag values.
#[derive(Clone, Debug)]
pub struct Header {
    pub event: String,
    pub site: String,
    pub date: String,
    /// `-pgnout FILE min`: the seven tags (with `Variant`, `FEN` and `SetUp` where the start
    /// needs them) and the moves, without comments.
    pub minimal: bool,
}

/// Today's date as PGN wants it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's days-from-civil inverse.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The start position every PGN reader assumes when there is no `FEN` tag.
pub const PGN_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The variant name PGN readers assume when there is no `Variant` tag.
const PGN_STANDARD: &str = "chess";

/// The record's moves in SAN, replayed from its start under the rules of `G`; from the first
/// move that does not replay on (which the referee never records), the recorded text.
fn san_moves<G: Game>(record: &GameRecord) -> Vec<String> {
    let mut pos = G::from_fen(record.variant, &record.fen).ok();
    record
        .moves
        .iter()
        .map(|m| {
            let replayed = pos.as_ref().and_then(|p| {
                let mv = p.parse_move(&m.text).ok()?;
                Some((p.san(mv), p.play(mv)))
            });
            match replayed {
                Some((text, next)) => {
                    pos = Some(next);
                    text
                }
                None => {
                    pos = None;
                    m.text.clone()
                }
            }
        })
        .collect()
}

/// A finished game of `G` as PGN text (ending with a blank line).
pub fn write<G: Game>(record: &GameRecord, header: &Header) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", &header.event);
    tag("Site", &header.site);
    tag("Date", &header.date);
    tag("Round", &format!("{}", record.number));
    tag("White", &record.white);
    tag("Black", &record.black);
    tag("Result", record.outcome.result_string());
    let standard = record.variant == PGN_STANDARD;
    if !standard {
        tag("Variant", record.variant);
    }
    if !standard || record.fen != PGN_START_FEN {
        tag("FEN", &record.fen);
        tag("SetUp", "1");
    }
    if !header.minimal {
        if record.time_controls[0] == record.time_controls[1] {
            tag("TimeControl", &record.time_controls[0]);
        } else {
            tag("WhiteTimeControl", &record.time_controls[0]);
            tag("BlackTimeControl", &record.time_controls[1]);
        }
        tag("Termination", record.termination.tag());
        tag("PlyCount", &record.moves.len().to_string());
    }
    out.push('\n');

    let mut fields = record.fen.split_whitespace().skip(1);
    let black_first = fields.next() == Some("b");
    let mut number: u32 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    let sans = san_moves::<G>(record);
    for (ply, (m, text)) in record.moves.iter().zip(sans).enumerate() {
        let white_move = (ply % 2 == 0) != black_first;
        if white_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(text);
        if let Some(c) = m.comment.as_ref().filter(|_| !header.minimal) {
            tokens.push(format!("{{{c}}}"));
        }
        if !white_move {
            number += 1;
        }
    }
    if !header.minimal {
        tokens.push(format!("{{{}}}", record.reason));
    }
    tokens.push(record.outcome.result_string().to_string());
    wrap_movetext(&tokens, &mut out);
    out
}

/// The FEN of a game's final position (`-epdout`): its start with the recorded moves played
/// under the rules of `G`, up to the first that does not replay (which the referee never
/// records).
pub fn final_fen<G: Game>(record: &GameRecord) -> String {
    let Ok(mut pos) = G::from_fen(record.variant, &record.fen) else {
        return record.fen.clone();
    };
    for m in &record.moves {
        match pos.parse_move(&m.text) {
            Ok(mv) => pos = pos.play(mv),
            Err(_) => break,
        }
    }
    pos.fen()
}

/// Appends the movetext `tokens` (move numbers, moves, comments, the result) to `out` in
/// lines of at most 79 characters, then the blank line that ends a game.
pub fn wrap_movetext<T: AsRef<str>>(tokens: &[T], out: &mut String) {
    let mut line = String::new();
    for t in tokens.iter().map(AsRef::as_ref) {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
}

pub use crate::pgn::{PgnGame, parse};

/// The position a PGN game starts from: its `FEN` tag, else the start of its `Variant` (the
/// game's first variant when the tag is missing).
pub fn start_position<G: Game>(game: &PgnGame) -> Result<G, crate::Error> {
    let variant = game
        .tag("Variant")
        .map(str::to_string)
        .unwrap_or_else(|| G::variants()[0].to_string());
    match game.tag("FEN") {
        Some(fen) => G::from_fen(&variant, fen),
        None => G::startpos(&variant),
    }
}

/// Replays a game through the rules of `G`: the final position, and the rules' verdict on it
/// (`None` when the rules have not ended the game, e.g. after a forfeit or adjudication).
pub fn replay<G: Game>(game: &PgnGame) -> Result<(G, Option<Outcome>), String> {
    let mut pos = start_position::<G>(game)?;
    let mut history = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if rules_verdict(&pos, &history).is_some() {
            return Err(format!("move {} ({m}) after the game was over", i + 1));
        }
        let mv = san::read(&pos, m).map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        history.push(pos.hash());
        pos = pos.play(mv);
    }
    let verdict = rules_verdict(&pos, &history).map(|(o, _)| o);
    Ok((pos, verdict))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::games::pawns::Pawns;
    use crate::tournament::referee::{MoveRecord, Termination};

    fn record() -> GameRecord {
        let mv = |t: &str, c: Option<&str>| MoveRecord {
            text: t.into(),
            comment: c.map(str::to_string),
        };
        GameRecord {
            number: 3,
            pair: 1,
            white: "A \"x\"".into(),
            black: "B".into(),
            variant: "pawns3",
            fen: "ppp/3/PPP b - - 0 1".into(),
            startpos: false,
            moves: vec![
                mv("a3a2", Some("book")),
                mv("b1a2", Some("+1.00/3 0.010s")),
                mv("c3c2", None),
                mv("a2a3", None),
            ],
            outcome: Outcome::Win(Color::White),
            termination: Termination::Normal,
            reason: "White wins: Black has no legal move and loses".into(),
            time_controls: ["1+0.01".into(), "1+0.01".into()],
            faulty: [false, false],
            ponder: Default::default(),
        }
    }

    #[test]
    fn write_then_read_back() {
        let header = Header {
            event: "E".into(),
            site: "S".into(),
            date: "2026.01.02".into(),
            minimal: false,
        };
        let text = write::<Pawns>(&record(), &header);
        let expected = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2026.01.02\"]\n[Round \"3\"]\n\
[White \"A \\\"x\\\"\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Variant \"pawns3\"]\n\
[FEN \"ppp/3/PPP b - - 0 1\"]\n[SetUp \"1\"]\n[TimeControl \"1+0.01\"]\n\
[Termination \"normal\"]\n[PlyCount \"4\"]\n\n\
1... a2 {book} 2. bxa2 {+1.00/3 0.010s} c2 3. a3\n\
{White wins: Black has no legal move and loses} 1-0\n\n";
        assert_eq!(text, expected);
        let games = parse(&format!("{text}{text}")).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("A \"x\""));
        assert_eq!(g.moves, vec!["a2", "bxa2", "c2", "a3"]);
        assert_eq!(g.result, "1-0");
        let (pos, verdict) = replay::<Pawns>(g).unwrap();
        assert_eq!(verdict, Some(Outcome::Win(Color::White)));
        assert_eq!(pos.fen(), "Pp1/2p/P1P b - - 0 3");
        assert_eq!(final_fen::<Pawns>(&record()), pos.fen());
        let minimal = Header {
            minimal: true,
            ..header
        };
        let text = write::<Pawns>(&record(), &minimal);
        let expected = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2026.01.02\"]\n[Round \"3\"]\n\
[White \"A \\\"x\\\"\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Variant \"pawns3\"]\n\
[FEN \"ppp/3/PPP b - - 0 1\"]\n[SetUp \"1\"]\n\n1... a2 2. bxa2 c2 3. a3 1-0\n\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn bad_pgn_is_refused() {
        assert!(parse("[Event \"x\"]\n\n1. a2a3").is_err());
        assert!(parse("[Event x]\n\n1. a2a3 1-0").is_err());
        let g = &parse("[Variant \"pawns3\"]\n\n1. a1b2 1-0\n").unwrap()[0];
        let err = replay::<Pawns>(g).unwrap_err();
        assert!(err.starts_with("move 1 (a1b2):"), "{err}");
    }

    #[test]
    fn san_pgn_with_variations_glyphs_and_castling_reads() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n\
            1.e4 e5 2. Nf3 $1 (2. f4 exf4 (2... d5)) Nc6 ; a comment\n\
            3. Bc4 Bc5 4. 0-0 {castled} Nf6 *\n";
        let games = parse(text).unwrap();
        assert_eq!(
            games[0].moves,
            ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "0-0", "Nf6"]
        );
        let (pos, verdict) = replay::<crate::games::chess::Chess>(&games[0]).unwrap();
        assert_eq!(verdict, None);
        assert_eq!(
            pos.fen(),
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5"
        );
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.as_str() >= "2024.01.01");
    }
}
