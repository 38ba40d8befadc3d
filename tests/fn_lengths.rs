//! Function lengths in `src/`: no function may be longer than [`MAX_LINES`] lines, but the
//! few named in [`ALLOWED`] with their reason. The lengths are found by brace matching on
//! `fn` items in the source with comments, strings and character literals blanked (a trait
//! method without a body has no length); a function's lines run from its `fn` line to its
//! closing brace, both counted.
//!
//! The source is read with `common::source::strip` (as `tests/layers.rs` reads it).
//!
//! The longest functions are printed (`cargo test --release --test fn_lengths -- --nocapture`
//! shows them); an over-long function not in [`ALLOWED`] fails the test, and so does an
//! entry of [`ALLOWED`] that is no longer over the limit.

mod common;

use std::path::Path;

/// The most lines a function may have.
const MAX_LINES: usize = 120;

/// Functions allowed to be longer, as (file below `src/`, function name, reason).
const ALLOWED: &[(&str, &str, &str)] = &[(
    "protocol/options.rs",
    "table",
    "the option table: one declaration per option (name, kind, handler, dialects), data to read down, no logic",
)];

/// One function: where it is, its name and its length in lines.
#[derive(Debug)]
struct Function {
    file: String,
    name: String,
    line: usize,
    lines: usize,
}

/// The functions of one file with their lengths.
fn functions(file: &str, text: &str) -> Vec<Function> {
    let s: Vec<char> = common::source::strip(text).chars().collect();
    let line_of = |pos: usize| 1 + s[..pos].iter().filter(|&&c| c == '\n').count();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut i = 0;
    while i + 3 < s.len() {
        let at_fn = s[i] == 'f'
            && s[i + 1] == 'n'
            && s[i + 2].is_whitespace()
            && (i == 0 || !is_ident(s[i - 1]));
        if !at_fn {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        while j < s.len() && s[j].is_whitespace() {
            j += 1;
        }
        let name_start = j;
        while j < s.len() && is_ident(s[j]) {
            j += 1;
        }
        let name: String = s[name_start..j].iter().collect();
        // The body's opening brace, or the `;` of a declaration without a body.
        let Some(open) = s[j..]
            .iter()
            .position(|&c| c == '{' || c == ';')
            .map(|p| j + p)
        else {
            break;
        };
        if s[open] == ';' || name.is_empty() {
            i = open + 1;
            continue;
        }
        let mut depth = 0usize;
        let mut close = open;
        for (k, &c) in s.iter().enumerate().skip(open) {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        let line = line_of(i);
        out.push(Function {
            file: file.to_string(),
            name,
            line,
            lines: line_of(close) - line + 1,
        });
        // Nested functions are measured too.
        i = open + 1;
    }
    out
}

fn collect(dir: &Path, root: &Path, out: &mut Vec<Function>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ reads")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("a source file reads");
            out.extend(functions(&rel, &text));
        }
    }
}

#[test]
fn the_measure_counts_braces_not_text() {
    let src = "fn a() {\n    let s = \"}}{\";\n    let c = '}';\n    // }\n}\n\
               trait T { fn b(&self); }\n\
               fn c<'a>(x: &'a str) -> &'a str {\n    x\n}\n";
    let f = functions("x.rs", src);
    let got: Vec<(&str, usize)> = f.iter().map(|f| (f.name.as_str(), f.lines)).collect();
    assert_eq!(got, vec![("a", 5), ("c", 3)]);
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    collect(&root, &root, &mut all);
    assert!(all.len() > 500, "too few functions found: {}", all.len());
    all.sort_by(|a, b| b.lines.cmp(&a.lines).then(a.file.cmp(&b.file)));
    eprintln!("the longest functions in src/ (lines, file:line, name):");
    for f in all.iter().take(15) {
        eprintln!("{:>5}  {}:{}  {}", f.lines, f.file, f.line, f.name);
    }
    let mut wrong = Vec::new();
    for f in all.iter().filter(|f| f.lines > MAX_LINES) {
        if !ALLOWED
            .iter()
            .any(|(file, name, _)| *file == f.file && *name == f.name)
        {
            wrong.push(format!(
                "{}:{} {} has {} lines",
                f.file, f.line, f.name, f.lines
            ));
        }
    }
    for (file, name, _) in ALLOWED {
        let long = all
            .iter()
            .any(|f| f.file == *file && f.name == *name && f.lines > MAX_LINES);
        if !long {
            wrong.push(format!(
                "{file} {name} is allowed but no longer over {MAX_LINES} lines"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "over {MAX_LINES} lines:\n{}",
        wrong.join("\n")
    );
}
