//! PGN out and back in: the tags (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//! `Result`, `Variant` for games other than chess, `FEN` + `SetUp` when the start is not the
//! variant's start position, `TimeControl`, `Termination`), moves in coordinate notation
//! (`e2e4`, `e7e8q`) with the engines' comments, and a small reader that replays a game through
//! the Game trait to check its recorded result.
//!
//! Depends on the Game trait and [`super::referee`].

use crate::game::{Game, Outcome};

use super::referee::{GameRecord, rules_verdict};

/// Tournament-wide tag values.
#[derive(Clone, Debug)]
pub struct Header {
    pub event: String,
    pub site: String,
    pub date: String,
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

/// A finished game as PGN text (ending with a blank line).
pub fn write(record: &GameRecord, header: &Header, chess: bool) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", &header.event);
    tag("Site", &header.site);
    tag("Date", &header.date);
    tag("Round", &format!("{}", record.number));
    tag("White", &record.white);
    tag("Black", &record.black);
    tag("Result", record.outcome.result_string());
    if !chess {
        tag("Variant", record.variant);
    }
    if !record.startpos {
        tag("FEN", &record.fen);
        tag("SetUp", "1");
    }
    if record.time_controls[0] == record.time_controls[1] {
        tag("TimeControl", &record.time_controls[0]);
    } else {
        tag("WhiteTimeControl", &record.time_controls[0]);
        tag("BlackTimeControl", &record.time_controls[1]);
    }
    tag("Termination", record.termination.tag());
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');

    let mut fields = record.fen.split_whitespace().skip(1);
    let black_first = fields.next() == Some("b");
    let mut number: u32 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut tokens: Vec<String> = Vec::new();
    for (ply, m) in record.moves.iter().enumerate() {
        let white_move = (ply % 2 == 0) != black_first;
        if white_move {
            tokens.push(format!("{number}."));
        } else if ply == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.text.clone());
        if let Some(c) = &m.comment {
            tokens.push(format!("{{{c}}}"));
        }
        if !white_move {
            number += 1;
        }
    }
    tokens.push(format!("{{{}}}", record.reason));
    tokens.push(record.outcome.result_string().to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// One game read back from PGN.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The result token at the end of the movetext.
    pub result: String,
}

impl PgnGame {
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Reads every game of a PGN text (tags, coordinate moves, comments skipped).
pub fn parse(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut in_comment = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            if in_moves {
                return Err(format!(
                    "line {}: a tag after the moves without a result",
                    n + 1
                ));
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: malformed tag {line}", n + 1))?;
            let (key, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("line {}: malformed tag {line}", n + 1))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: tag value must be quoted: {line}", n + 1))?;
            game.tags.push((
                key.to_string(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
            continue;
        }
        // Movetext: strip comments, which may span lines.
        let mut rest = String::new();
        for c in line.chars() {
            match (in_comment, c) {
                (false, '{') => in_comment = true,
                (true, '}') => in_comment = false,
                (false, c) => rest.push(c),
                (true, _) => {}
            }
        }
        for tok in rest.split_whitespace() {
            in_moves = true;
            if is_result(tok) {
                game.result = tok.to_string();
                games.push(std::mem::take(&mut game));
                in_moves = false;
                continue;
            }
            // A move number (`12.`, `3...`) before or attached to a move; a move may itself
            // start with digits (CRASH!'s `1:2`).
            let tok = match tok.find(|c: char| !c.is_ascii_digit()) {
                Some(i) if tok[i..].starts_with('.') => tok[i..].trim_start_matches('.'),
                Some(_) => tok,
                None => "",
            };
            if !tok.is_empty() {
                game.moves.push(tok.to_string());
            }
        }
    }
    if in_moves || !game.tags.is_empty() {
        return Err("the last game has no result".into());
    }
    Ok(games)
}

/// Replays a game through the rules of `G`: the final position, and the rules' verdict on it
/// (`None` when the rules have not ended the game, e.g. after a forfeit or adjudication).
pub fn replay<G: Game>(game: &PgnGame) -> Result<(G, Option<Outcome>), String> {
    let variant = game
        .tag("Variant")
        .map(str::to_string)
        .unwrap_or_else(|| G::variants()[0].to_string());
    let mut pos = match game.tag("FEN") {
        Some(fen) => G::from_fen(&variant, fen)?,
        None => G::startpos(&variant)?,
    };
    let mut history = Vec::new();
    for (i, m) in game.moves.iter().enumerate() {
        if rules_verdict(&pos, &history).is_some() {
            return Err(format!("move {} ({m}) after the game was over", i + 1));
        }
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
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
        }
    }

    #[test]
    fn write_then_read_back() {
        let header = Header {
            event: "E".into(),
            site: "S".into(),
            date: "2026.01.02".into(),
        };
        let text = write(&record(), &header, false);
        let expected = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2026.01.02\"]\n[Round \"3\"]\n\
[White \"A \\\"x\\\"\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Variant \"pawns3\"]\n\
[FEN \"ppp/3/PPP b - - 0 1\"]\n[SetUp \"1\"]\n[TimeControl \"1+0.01\"]\n\
[Termination \"normal\"]\n[PlyCount \"4\"]\n\n\
1... a3a2 {book} 2. b1a2 {+1.00/3 0.010s} c3c2 3. a2a3\n\
{White wins: Black has no legal move and loses} 1-0\n\n";
        assert_eq!(text, expected);
        let games = parse(&format!("{text}{text}")).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("A \"x\""));
        assert_eq!(g.moves, vec!["a3a2", "b1a2", "c3c2", "a2a3"]);
        assert_eq!(g.result, "1-0");
        let (pos, verdict) = replay::<Pawns>(g).unwrap();
        assert_eq!(verdict, Some(Outcome::Win(Color::White)));
        assert_eq!(pos.fen(), "Pp1/2p/P1P b - - 0 3");
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
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.as_str() >= "2024.01.01");
    }
}
