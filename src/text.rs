//! Client text quoted in messages: control characters shown as `?`, long text cut. Every room
//! that echoes what a user or a GUI sent (protocol errors, option values, book files) uses it.

/// `text` for quoting in a message: control characters shown as `?`, cut at 80 characters.
pub fn shorten(text: &str) -> String {
    shorten_to(text, 80)
}

/// [`shorten`] to at most `max` characters (and `…`).
pub fn shorten_to(text: &str, max: usize) -> String {
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let mut out: String = text.chars().take(max).map(clean).collect();
    if text.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_and_length() {
        assert_eq!(shorten("a\tb"), "a?b");
        assert_eq!(shorten_to("abcdef", 3), "abc…");
        assert_eq!(shorten_to("abc", 3), "abc");
    }
}
