//! `kiebitz-match --game chamaeleon --check-pgn FILE`: the N-seat records read back and
//! replayed under the rules of the game. Every move must be legal; a game that ended by the
//! rules must end there, with the recorded result of every seat; a forfeited game must not
//! have been over by the rules before the forfeit.
//!
//! Depends on `nsearch::game` (the game trait), [`super::record`] (the record format) and
//! [`crate::tournament::runner::check_records`] (the loop over the records).

use crate::nsearch::game::NGame;
use crate::pgn::PgnGame;

/// The largest record file read (256 MiB, as for two-seat PGN files).
pub const MAX_RECORD_BYTES: u64 = crate::tournament::runner::MAX_PGN_BYTES;

/// One record as read: its tags in order and its move texts (the `result` of a
/// [`PgnGame`] stays empty: the results are the seats' tags).
pub type ReadRecord = PgnGame;

/// `[Name "value"]` → `(Name, value)`.
fn read_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(' ')?;
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.to_string()))
}

/// The records of `text` (as [`super::record::GameRecord::text`] writes them): tags, a blank
/// line, the moves numbered by round (`1.`), and the result comment `{S:win N:loss}`.
pub fn read(text: &str) -> Result<Vec<ReadRecord>, String> {
    let mut games: Vec<ReadRecord> = Vec::new();
    let mut in_moves = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            let tag = read_tag(line).ok_or_else(|| format!("line {}: a bad tag", n + 1))?;
            if in_moves || games.is_empty() {
                games.push(PgnGame::default());
                in_moves = false;
            }
            if let Some(g) = games.last_mut() {
                g.tags.push(tag);
            }
            continue;
        }
        let g = games
            .last_mut()
            .ok_or_else(|| format!("line {}: moves before any tag", n + 1))?;
        in_moves = true;
        let before_result = line.split('{').next().unwrap_or_default();
        g.moves.extend(
            before_result
                .split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .map(str::to_string),
        );
    }
    Ok(games)
}

/// Replays one record under the rules of `G`; `Ok` with a summary (turns, results).
pub fn replay<G: NGame>(rec: &ReadRecord) -> Result<String, String> {
    let start = rec.tag("Start").ok_or("no Start tag")?;
    let mut pos = G::from_text(start).map_err(|e| format!("Start: {e}"))?;
    let seats: Vec<usize> = (0..pos.seats()).filter(|&s| pos.plays(s)).collect();
    for (k, text) in rec.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("turn {} ({text}): {e}", k + 1))?;
        pos = pos.play(mv);
    }
    let termination = rec.tag("Termination").unwrap_or("");
    let forfeit = termination.starts_with("forfeit");
    let mut words = Vec::new();
    for &s in &seats {
        let name = G::seat_name(s);
        let recorded = rec
            .tag(&format!("{name}Result"))
            .ok_or_else(|| format!("no {name}Result tag"))?;
        match pos.outcome() {
            Some(_) if forfeit => {
                return Err(format!(
                    "the rules ended the game, yet it ends by {termination}"
                ));
            }
            Some(r) if r[s].word() != recorded => {
                return Err(format!(
                    "the rules say {name} {}, the record says {recorded}",
                    r[s].word()
                ));
            }
            None if !forfeit => {
                return Err(format!(
                    "the rules have not ended the game, yet it ends by '{termination}'"
                ));
            }
            _ => {}
        }
        words.push(format!("{}:{recorded}", G::seat_letter(s)));
    }
    Ok(format!("{} turns, {}", rec.moves.len(), words.join(" ")))
}

/// Replays every record of the file at `path`, printing a line a game and the count of wrong
/// ones; an error when any is wrong (or when stdout fails).
pub fn check_pgn<G: NGame>(path: &str) -> Result<(), crate::CliError> {
    crate::tournament::runner::check_records(path, read, replay::<G>, crate::limits::out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chamaeleon::Chamaeleon;

    #[test]
    fn records_read_back_and_replay() {
        let start = Chamaeleon::startpos(2).unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut list = crate::board::MoveList::new();
        for _ in 0..3 {
            pos.legal_moves(&mut list);
            moves.push(pos.move_text(list[0]));
            pos = pos.play(list[0]);
        }
        let seats: Vec<usize> = (0..start.seats()).filter(|&s| start.plays(s)).collect();
        let mut text = format!("[Game \"1\"]\n[Start \"{}\"]\n", start.text());
        for &s in &seats {
            let name = Chamaeleon::seat_name(s);
            let word = if s == pos.to_move() { "loss" } else { "draw" };
            text.push_str(&format!("[{name}Result \"{word}\"]\n"));
        }
        text.push_str(&format!(
            "[Termination \"forfeit: x\"]\n\n1. {} {}\n2. {} {{}}\n\n",
            moves[0], moves[1], moves[2]
        ));
        let games = read(&text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, moves);
        assert!(replay::<Chamaeleon>(&games[0]).is_ok());
        // A record whose game is not over cannot end normally.
        let normal = text.replace("forfeit: x", "turn limit");
        assert!(replay::<Chamaeleon>(&read(&normal).unwrap()[0]).is_err());
        // An illegal move is found.
        let illegal = text.replace(&format!("2. {} ", moves[2]), "2. z9z9 ");
        assert_ne!(illegal, text);
        assert!(replay::<Chamaeleon>(&read(&illegal).unwrap()[0]).is_err());
    }
}
