//! The typed error of a game's session in the web server ([`super::session`]): a move, a line
//! or a record the game refuses, with the data that says which. Its `Display` is the sentence
//! the API has always answered with (a `400`'s `error`).

/// Why a session's move, line, analysis or record was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A move or a position the game's rules refuse.
    #[error(transparent)]
    Rules(#[from] crate::Error),
    /// A move after the end of the game (`result`: its result, with why where the game says).
    #[error("the game is over ({result})")]
    Over { result: String },
    /// A ply past the game's end (`plies`: the moves it has).
    #[error("no ply {ply}: the game has {plies}")]
    NoPly { ply: usize, plies: usize },
    /// Move `number` of a line (`text`) that does not replay.
    #[error("move {number} of the line, {text}: {error}")]
    LineMove {
        number: usize,
        text: String,
        error: crate::Error,
    },
    /// Move `number` of a line (`text`) after the game ended there (`why`, where known).
    #[error("move {number} of the line, {text}: the game is over there{}", why_text(.why))]
    LineOver {
        number: usize,
        text: String,
        why: Option<String>,
    },
    /// A variation at move `at` of a line of `moves` moves.
    #[error("a variation at move {at} of a line of {moves} moves")]
    Variation { at: usize, moves: usize },
    /// An analysis of a position where the game is over (`why`, where known).
    #[error("nothing to analyse: the game is over there{}", why_text(.why))]
    NothingToAnalyse { why: Option<String> },
    /// A search name the game does not offer: the sentence naming those it does.
    #[error("{0}")]
    UnknownSearch(String),
}

/// ` (why)`, or nothing.
fn why_text(why: &Option<String>) -> String {
    why.as_ref().map_or(String::new(), |w| format!(" ({w})"))
}

crate::error::sentence_error!(GameError, string only);

#[cfg(test)]
mod tests {
    use super::*;

    /// The sentences read as the API has always answered.
    #[test]
    fn each_kind_reads_as_before() {
        let over = GameError::LineOver {
            number: 2,
            text: "e2e4".into(),
            why: Some("checkmate".into()),
        };
        assert_eq!(
            over.to_string(),
            "move 2 of the line, e2e4: the game is over there (checkmate)"
        );
        let none = GameError::NothingToAnalyse { why: None };
        assert_eq!(
            none.to_string(),
            "nothing to analyse: the game is over there"
        );
    }
}
