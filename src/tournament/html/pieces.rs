//! The chess piece set that the web page and the HTML match reports draw: the Chessnut set by
//! Alexis Luengas (Apache License 2.0; `pieces/NOTICE.md` and `pieces/LICENSE-Apache-2.0.txt`
//! beside the files), compiled into the binary. [`script`] hands it to a page as a small
//! script that defines `PIECE_SVG`: each FEN letter's SVG as a `data:` URL, which the page's own
//! code places on its board as an `<image>`. Nothing is fetched when a page is opened.
//!
//! Depends on serde_json only.

use std::sync::LazyLock;

/// Each FEN letter (upper case White, lower case Black) and its SVG file.
const SET: [(char, &str); 12] = [
    ('K', include_str!("pieces/wK.svg")),
    ('Q', include_str!("pieces/wQ.svg")),
    ('R', include_str!("pieces/wR.svg")),
    ('B', include_str!("pieces/wB.svg")),
    ('N', include_str!("pieces/wN.svg")),
    ('P', include_str!("pieces/wP.svg")),
    ('k', include_str!("pieces/bK.svg")),
    ('q', include_str!("pieces/bQ.svg")),
    ('r', include_str!("pieces/bR.svg")),
    ('b', include_str!("pieces/bB.svg")),
    ('n', include_str!("pieces/bN.svg")),
    ('p', include_str!("pieces/bP.svg")),
];

/// The SVG of a FEN piece letter, `None` for any other character.
pub fn svg(letter: char) -> Option<&'static str> {
    SET.iter().find(|(c, _)| *c == letter).map(|(_, s)| *s)
}

/// A `data:` URL of an SVG text (percent-encoding the characters a URL may not hold as they
/// are).
fn data_url(svg: &str) -> String {
    let mut out = String::from("data:image/svg+xml;charset=utf-8,");
    for b in svg.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'/'
            | b':'
            | b'='
            | b','
            | b';'
            | b'('
            | b')' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The script that defines `PIECE_SVG`, `{"K": "data:image/svg+xml;…", …}`, for a page's
/// board code; made once.
pub fn script() -> &'static str {
    static SCRIPT: LazyLock<String> = LazyLock::new(|| {
        let map: serde_json::Map<String, serde_json::Value> = SET
            .iter()
            .map(|(c, s)| (c.to_string(), data_url(s).into()))
            .collect();
        let json = serde_json::Value::Object(map).to_string();
        format!(
            "// Chessnut pieces by Alexis Luengas, Apache License 2.0.\nvar PIECE_SVG = {json};\n"
        )
    });
    &SCRIPT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_letter_has_an_svg_and_the_script_lists_them() {
        for c in "KQRBNPkqrbnp".chars() {
            let s = svg(c).unwrap_or_else(|| panic!("no SVG for {c}"));
            assert!(s.contains("<svg") && s.contains("</svg>"), "{c}");
        }
        assert_eq!(svg('x'), None);
        let js = script();
        assert!(js.contains("var PIECE_SVG = {"), "{js:.80}");
        assert_eq!(js.matches("data:image/svg+xml").count(), 12);
        assert!(
            !js.contains("</script"),
            "the script may be inlined in a page"
        );
    }

    #[test]
    fn data_urls_escape_what_a_url_cannot_hold() {
        let url = data_url("<svg a=\"1\" b='#x'>%</svg>");
        assert_eq!(
            url,
            "data:image/svg+xml;charset=utf-8,%3Csvg%20a=%221%22%20b=%27%23x%27%3E%25%3C/svg%3E"
        );
    }
}
