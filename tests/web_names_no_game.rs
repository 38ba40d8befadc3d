//! The web server names no game: every file of `src/web/` is read without its comments and
//! `#[cfg(test)]` modules (string literals kept: a message or a JSON key naming a game counts),
//! and no word of it may be a registered game's name, alias, module or type (read from the
//! registry in `src/games/mod.rs`), compared case-insensitively with `_` and `::` as word
//! breaks. What a page needs of a game comes through the game's `page.rs` and the registry
//! (docs/web.md). The known exceptions are listed in [`EXCEPTIONS`] with the reason; an
//! exception that no longer occurs fails the test too.

use std::collections::BTreeSet;
use std::path::Path;

/// (file below `src/web/`, game word, reason) allowed there.
const EXCEPTIONS: &[(&str, &str, &str)] = &[(
    "mod.rs",
    "chess",
    "the MIME type of a PGN download, application/x-chess-pgn",
)];

/// The game words of the registry: every line `seating module::Type ["name", "alias"];`
/// between `registry! {` and its `}` gives its module, type and names, lowercased.
fn game_words(registry: &str) -> BTreeSet<String> {
    let body = registry
        .split("registry! {")
        .nth(1)
        .expect("the registry! block in src/games/mod.rs");
    let body = &body[..body.find('}').expect("the registry's end")];
    let mut words = BTreeSet::new();
    for line in body.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let (head, names) = line.split_once('[').expect("a registry line's names");
        let path = head.split_whitespace().nth(1).expect("module::Type");
        for w in path.split("::").chain(names.split(['"', ',', ']', ';'])) {
            let w = w.trim();
            if !w.is_empty() {
                words.insert(w.to_lowercase());
            }
        }
    }
    words
}

/// The source without comments (string literals kept), lines kept.
fn without_comments(text: &str) -> String {
    let s: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if in_string {
            out.push(c);
            if c == '\\' {
                out.extend(next);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
            continue;
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 1;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                } else if s[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            continue;
        } else if c == '\'' && s.get(i + 2) == Some(&'\'') {
            // A char literal such as '"' must not open a string.
            i += 3;
            continue;
        } else {
            in_string = c == '"';
            out.push(c);
        }
        i += 1;
    }
    out
}

/// The code without its `#[cfg(test)] mod name { … }` blocks (a test may name any game).
fn without_tests(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(start) = code.find("#[cfg(test)]") {
        let Some(open) = code[start..].find('{').map(|k| start + k) else {
            break;
        };
        let mut depth = 0;
        let mut end = code.len();
        for (j, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(start..end, "");
    }
    code
}

/// Every (file, line, word) of `src/web/` that names a game.
fn names_of_games(root: &Path, words: &BTreeSet<String>) -> Vec<(String, usize, String)> {
    let mut found = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(root.join("src/web"))
        .expect("src/web")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("a source file");
        let code = without_tests(&without_comments(&text));
        for (n, line) in code.lines().enumerate() {
            for w in line.split(|c: char| !c.is_alphanumeric()) {
                let w = w.to_lowercase();
                if words.contains(&w) {
                    found.push((name.clone(), n + 1, w));
                }
            }
        }
    }
    found
}

#[test]
fn the_registry_gives_the_game_words() {
    let words = game_words(
        "registry! {\n    // a comment\n    two pawns::Pawns [\"pawns\"];\n    \
         seats cham::Cham [\"cham\", \"chäm\"];\n}",
    );
    let expected: BTreeSet<String> = ["pawns", "cham", "chäm"].map(String::from).into();
    assert_eq!(words, expected);
    let code = without_tests(&without_comments(
        "let a = \"crash\"; // pawns\n/* chess */ let c = '\"'; let d = \"x\";\n\
         #[cfg(test)]\nmod tests { fn f() { chess(); } }\nfn g() {}",
    ));
    assert!(code.contains("\"crash\""), "{code}");
    assert!(!code.contains("pawns") && !code.contains("chess"), "{code}");
    assert!(
        code.contains("let d = \"x\"") && code.contains("fn g()"),
        "{code}"
    );
}

#[test]
fn no_game_is_named_in_src_web() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registry = std::fs::read_to_string(root.join("src/games/mod.rs")).expect("registry");
    let words = game_words(&registry);
    assert!(words.contains("chess") && words.len() >= 6, "{words:?}");
    let found = names_of_games(root, &words);
    let mut used = BTreeSet::new();
    let mut problems = Vec::new();
    for (file, line, word) in &found {
        match EXCEPTIONS.iter().find(|e| e.0 == file && e.1 == word) {
            Some(e) => {
                used.insert((e.0, e.1));
            }
            None => problems.push(format!(
                "src/web/{file}:{line} names the game word '{word}'"
            )),
        }
    }
    for e in EXCEPTIONS {
        if !used.contains(&(e.0, e.1)) {
            problems.push(format!(
                "exception ({}, {}) no longer occurs: remove it",
                e.0, e.1
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "a game belongs in its folder and the registry, not in src/web:\n{}",
        problems.join("\n")
    );
}
