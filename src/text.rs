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

/// The `name=value` pairs of a comma-separated list (`lmr=0, lmr_divisor=300`), each side
/// trimmed, empty items skipped; an item without `=` is an [`crate::Error::Setting`].
pub fn assignments(list: &str) -> Result<Vec<(&str, &str)>, crate::Error> {
    let items = list.split(',').map(str::trim).filter(|s| !s.is_empty());
    items
        .map(|item| match item.split_once('=') {
            Some((name, value)) => Ok((name.trim(), value.trim())),
            None => Err(crate::error::setting_error!(
                "'{item}': expected name=value"
            )),
        })
        .collect()
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
