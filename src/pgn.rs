//! PGN read in: every game of a PGN text as its tags, its moves as written (SAN or
//! coordinates) and its result token, comments, `$n` glyphs and variations skipped. Replaying
//! the moves is the reader's business (`tournament::pgn::replay` checks a game's result, the
//! chess tuner keeps quiet positions, the book builder counts moves); writing PGN is the
//! tournament's (`tournament::pgn`). Depends on nothing else in the crate.

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

/// Reads every game of a PGN text (tags, moves as written, comments, `$n` glyphs and
/// variations skipped); [`crate::Error::Pgn`] names the line that cannot be read.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, crate::Error> {
    read_games(text).map_err(crate::Error::Pgn)
}

fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut in_comment = false;
    let mut variation = 0u32;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_comment && variation == 0 && line.starts_with('[') {
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
        // Movetext: strip comments (which may span lines), variations and `;` comments.
        let mut rest = String::new();
        for c in line.chars() {
            match (in_comment, variation, c) {
                (false, _, '{') => in_comment = true,
                (true, _, '}') => in_comment = false,
                (true, _, _) => {}
                (false, _, '(') => variation += 1,
                (false, 1.., ')') => variation -= 1,
                (false, 1.., _) => {}
                (false, 0, ';') => break,
                (false, 0, c) => rest.push(c),
            }
        }
        for tok in rest.split_whitespace() {
            in_moves = true;
            if tok.starts_with('$') {
                continue;
            }
            if is_result(tok) {
                game.result = tok.to_string();
                games.push(std::mem::take(&mut game));
                in_moves = false;
                continue;
            }
            // A move number (`12.`, `12...`), possibly glued to the move (`12.e4`).
            let digits = tok.trim_start_matches(|c: char| c.is_ascii_digit());
            let tok = match digits.strip_prefix('.') {
                Some(_) if digits.len() < tok.len() => digits.trim_start_matches('.'),
                _ => tok,
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
