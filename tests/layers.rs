//! The layer rule of docs/architecture.md, checked on the source: every file under `src/` is
//! read, the modules it names (`crate::…`, `super::…`, in `use` lines and in code) are
//! collected, each file is mapped to its room, and
//!
//! - a room may import only itself and the rooms below it ([`ROOMS`], bottom first);
//! - within a room the files must not import each other in a circle.
//!
//! What is not counted: comments, string literals and `#[cfg(test)]` modules and files (a test
//! may use any game). A `mod.rs` naming its own children (it is their front door) is counted
//! in a second pass only: a module and its children may use each other, but a circle through
//! a front door that leaves the folder (`book/options.rs` → `protocol/mod.rs` →
//! `protocol/uci.rs` → `book/options.rs`) is a break like any other. A name
//! that a parent re-exports (`pub use position::Raeuber` in `raeuber/mod.rs`) is followed to
//! the file that defines it. The known exceptions are listed in [`EXCEPTIONS`] with the
//! reason; any other break fails the test, and so does an exception that no longer occurs.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::source::is_ident;
use common::source::strip;

/// The rooms, bottom first, and the top-level modules (folders or single files directly under
/// `src/`) of each: a room is whole folders, never a file taken out of its folder. A room may
/// import the rooms listed before it.
const ROOMS: &[(&str, &[&str])] = &[
    // Utilities that import nothing of the crate.
    (
        "base",
        &[
            "rng",
            "limits",
            "memory",
            "progress",
            "error",
            "table_error",
            "text",
            "checksum",
            "files",
        ],
    ),
    ("board", &["board"]),
    // search_params: the search settings a game declares (Game::SEARCH); imports nothing.
    // engine_option: an option's kind and value, and the options a game declares.
    // texel: Texel tuning over any Game (labelled positions from PGN, the logistic fit).
    (
        "game",
        &[
            "game",
            "ngame",
            "perft",
            "san",
            "pgn",
            "texel",
            "nnue",
            "search_params",
            "engine_option",
        ],
    ),
    ("search", &["search", "nsearch"]),
    // The solvers, each generic over the game traits: df-pn and its proofs and their
    // checker (proofs need only the game's rules), retrograde analysis, the win/draw/loss
    // solver, the losing family's oracle. They name no game; the search calls them only
    // through the oracle it is handed (search/oracle.rs).
    ("solve", &["solve"]),
    // The games, each in its folder with everything it owns: rules, evaluation, tables,
    // its own exhaustive analysis (games/pawns/analysis, games/crash/analysis), its certificates,
    // and its page (what the web page and the engine need of it: games/page.rs is the trait,
    // games/<game>/page.rs the game's, handing out its solvers).
    ("games", &["games"]),
    ("top", &["protocol", "cli", "tournament", "book", "web"]),
];

/// Known breaks of the rule, as (importing file, imported file, reason), paths below `src/`; a
/// path ending in `/` stands for every file of that folder.
/// None today; the test still checks that any listed exception occurs.
const EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// One source file: its module path, whether it is `mod.rs`, and its text without comments,
/// string literals and test modules.
struct File {
    module: Vec<String>,
    is_mod: bool,
    code: String,
}

/// `src/a/b.rs` → `["a", "b"]`; `src/a/mod.rs` → `["a"]`.
fn module_of(rel: &str) -> (Vec<String>, bool) {
    let stem = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    let is_mod = matches!(parts.last().map(String::as_str), Some("mod" | "lib"));
    if is_mod {
        parts.pop();
    }
    (parts, is_mod)
}

/// Removes `#[cfg(test)] mod name { … }` blocks; returns the names of `#[cfg(test)] mod name;`
/// (files holding tests only).
fn drop_test_modules(code: &mut String) -> Vec<String> {
    let mut test_files = Vec::new();
    let mut from = 0;
    while let Some(k) = code[from..].find("#[cfg(test)]") {
        let start = from + k;
        let rest = &code[start + "#[cfg(test)]".len()..];
        let trimmed = rest.trim_start();
        let after_vis = trimmed
            .strip_prefix("pub(crate)")
            .or_else(|| trimmed.strip_prefix("pub"))
            .map_or(trimmed, str::trim_start);
        let Some(m) = after_vis.strip_prefix("mod ") else {
            from = start + 1;
            continue;
        };
        let name: String = m
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        let tail = m.trim_start()[name.len()..].trim_start();
        let tail_at = code.len() - tail.len();
        if tail.starts_with(';') {
            test_files.push(name);
            code.replace_range(start..tail_at + 1, "");
        } else if tail.starts_with('{') {
            let mut depth = 0;
            let mut end = tail_at;
            for (j, c) in code[tail_at..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = tail_at + j + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            code.replace_range(start..end, "");
        } else {
            from = start + 1;
            continue;
        }
        from = start;
    }
    test_files
}

/// Reads a path tree at `s[i..]` (`a::b`, `a::{b, c::d}`, `x as y`) below `prefix`: every
/// leaf path with the name it is known by, and where the tree ends.
fn parse_tree(s: &[u8], mut i: usize, prefix: &[String]) -> (Vec<(Vec<String>, String)>, usize) {
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && (s[*i] as char).is_whitespace() {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if s.get(i) == Some(&b'{') {
        i += 1;
        let mut out = Vec::new();
        loop {
            while i < s.len() && (s[i] == b',' || (s[i] as char).is_whitespace()) {
                i += 1;
            }
            if i >= s.len() || s[i] == b'}' {
                return (out, i + 1);
            }
            let (mut paths, next) = parse_tree(s, i, prefix);
            if next <= i {
                return (out, s.len());
            }
            out.append(&mut paths);
            i = next;
        }
    }
    let start = i;
    while i < s.len() && (is_ident(s[i] as char) || s[i] == b'*') {
        i += 1;
    }
    let seg = String::from_utf8_lossy(&s[start..i]).to_string();
    if seg.is_empty() {
        return (vec![(prefix.to_vec(), String::new())], i);
    }
    let mut path = prefix.to_vec();
    path.push(seg.clone());
    if s[i..].starts_with(b"::") {
        return parse_tree(s, i + 2, &path);
    }
    // `x as y`: known as `y`.
    let mut j = i;
    skip_ws(&mut j);
    let mut name = seg;
    if s[j..].starts_with(b"as ") {
        j += 3;
        skip_ws(&mut j);
        let a = j;
        while j < s.len() && is_ident(s[j] as char) {
            j += 1;
        }
        name = String::from_utf8_lossy(&s[a..j]).to_string();
        i = j;
    }
    (vec![(path, name)], i)
}

/// Every `crate::` and `super::` path of a file, absolute, with the name it is known by, and
/// the position where it starts.
fn paths(file: &File) -> Vec<(usize, Vec<String>, String)> {
    let s = file.code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let boundary =
            i == 0 || !(is_ident(s[i - 1] as char) || s[i - 1] == b':' || s[i - 1] == b'$');
        if boundary && s[i..].starts_with(b"crate::") {
            let (p, _) = parse_tree(s, i + 7, &[]);
            out.extend(p.into_iter().map(|(p, n)| (i, p, n)));
            i += 7;
        } else if boundary && s[i..].starts_with(b"super::") {
            let mut base = file.module.clone();
            let mut j = i;
            while s[j..].starts_with(b"super::") {
                base.pop();
                j += 7;
            }
            let (p, _) = parse_tree(s, j, &base);
            out.extend(p.into_iter().map(|(p, n)| (i, p, n)));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The paths a `mod.rs` names its own children by (`uci::run`, `use engine::Engine`): each
/// `NAME::` of a module it declares (`mod NAME;`), made absolute.
fn child_paths(file: &File) -> Vec<(usize, Vec<String>, String)> {
    let code = &file.code;
    let mut children = BTreeSet::new();
    for part in code.split(';') {
        let words: Vec<&str> = part.split_whitespace().collect();
        if let [.., "mod", name] = words.as_slice()
            && name.chars().all(is_ident)
        {
            children.insert(name.to_string());
        }
    }
    let s = code.as_bytes();
    let mut out = Vec::new();
    for child in &children {
        let needle = format!("{child}::");
        let mut from = 0;
        while let Some(k) = code[from..].find(&needle) {
            let i = from + k;
            from = i + needle.len();
            if i > 0 && (is_ident(s[i - 1] as char) || s[i - 1] == b':') {
                continue;
            }
            let (p, _) = parse_tree(s, i, &file.module);
            out.extend(p.into_iter().map(|(p, n)| (i, p, n)));
        }
    }
    out
}

/// The files and, per file, what it re-exports: name → absolute path.
fn read_sources(root: &Path) -> BTreeMap<String, File> {
    let mut files = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .expect("below src/")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            let (module, is_mod) = module_of(&rel);
            let mut code = strip(&text);
            for name in drop_test_modules(&mut code) {
                let mut child = module.clone();
                child.push(name);
                test_only.insert(child);
            }
            files.insert(
                rel,
                File {
                    module,
                    is_mod,
                    code,
                },
            );
        }
    }
    files.retain(|_, f| !test_only.contains(&f.module));
    files
}

/// Who imports whom: (file, imported file) pairs, self-references and `lib.rs` left out;
/// with `front_doors`, also a `mod.rs` naming its own children (`uci::run` in
/// `protocol/mod.rs`).
fn edges(files: &BTreeMap<String, File>, front_doors: bool) -> BTreeSet<(String, String)> {
    let by_module: BTreeMap<&[String], &str> = files
        .iter()
        .map(|(rel, f)| (f.module.as_slice(), rel.as_str()))
        .collect();
    // The file a path leads to: the longest module prefix, then re-exports followed.
    let longest = |p: &[String]| -> Option<(usize, String)> {
        (0..=p.len())
            .rev()
            .find_map(|k| by_module.get(&p[..k]).map(|rel| (k, rel.to_string())))
    };
    // Re-exports: `pub use` lines, name → absolute path.
    let mut reexports: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (rel, f) in files {
        let mut map = BTreeMap::new();
        for line in f.code.split(';') {
            let t = line.trim_start();
            let Some(rest) = t
                .strip_prefix("pub use ")
                .or_else(|| t.strip_prefix("pub(crate) use "))
                .or_else(|| t.strip_prefix("pub(super) use "))
            else {
                continue;
            };
            let rest = rest.trim_start();
            let (base, tree) = if let Some(r) = rest.strip_prefix("crate::") {
                (Vec::new(), r)
            } else if rest.starts_with("super::") {
                let mut base = f.module.clone();
                let mut r = rest;
                while let Some(x) = r.strip_prefix("super::") {
                    base.pop();
                    r = x;
                }
                (base, r)
            } else if let Some(r) = rest.strip_prefix("self::") {
                (f.module.clone(), r)
            } else if f.is_mod {
                (f.module.clone(), rest)
            } else {
                // A relative path in a non-mod file names an external crate.
                continue;
            };
            for (path, name) in parse_tree(tree.as_bytes(), 0, &base).0 {
                map.insert(name, path);
            }
        }
        reexports.insert(rel.clone(), map);
    }
    let resolve = |p: &[String]| -> Option<String> {
        let mut p = p.to_vec();
        for _ in 0..4 {
            let (k, rel) = longest(&p)?;
            let next = p
                .get(k)
                .and_then(|name| reexports.get(&rel).and_then(|m| m.get(name)));
            match next {
                Some(target) if target.as_slice() != p.as_slice() => {
                    let mut q = target.clone();
                    q.extend_from_slice(&p[k + 1..]);
                    p = q;
                }
                _ => return Some(rel),
            }
        }
        longest(&p).map(|(_, rel)| rel)
    };
    let mut out = BTreeSet::new();
    for (rel, f) in files {
        if f.module.is_empty() {
            continue;
        }
        let mut found = paths(f);
        if front_doors && f.is_mod {
            found.extend(child_paths(f));
        }
        for (_, path, _) in found {
            let Some(target) = resolve(&path) else {
                continue;
            };
            let t = &files[&target];
            // A mod.rs naming its own children is their front door, not a dependency.
            let child_of_self = !front_doors && f.is_mod && t.module.starts_with(&f.module);
            if target != *rel && !t.module.is_empty() && !child_of_self {
                out.insert((rel.clone(), target));
            }
        }
    }
    out
}

/// The room of a file (its index in [`ROOMS`]): the room of its top-level module.
fn room(rel: &str) -> usize {
    let top = rel.split('/').next().unwrap_or(rel).trim_end_matches(".rs");
    ROOMS
        .iter()
        .position(|(_, modules)| modules.contains(&top))
        .unwrap_or_else(|| panic!("src/{rel}: module `{top}` is in no room; add it to ROOMS"))
}

/// The import circles among `edges` (each as a closed path), one per strongly connected set.
fn circles(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    let reach = |from: &str| reach(&next, from);
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for &start in next.keys() {
        if done.contains(start) || !reach(start).contains(start) {
            continue;
        }
        // The shortest path back to `start` (breadth first).
        let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut last = None;
        while let Some(x) = queue.pop_front() {
            for &y in next.get(x).into_iter().flatten() {
                if y == start {
                    last = Some(x);
                    queue.clear();
                    break;
                }
                if !parent.contains_key(y) {
                    parent.insert(y, x);
                    queue.push_back(y);
                }
            }
        }
        let mut cycle = vec![start.to_string()];
        let mut x = last.expect("start reaches itself");
        while x != start {
            cycle.push(x.to_string());
            x = parent[x];
        }
        cycle.push(start.to_string());
        cycle.reverse();
        // Everything on a path from start back to start is in this circle's set.
        let back = reach(start);
        for node in back.iter().filter(|n| reach(n).contains(start)) {
            done.insert(node.clone());
        }
        done.insert(start.to_string());
        out.push(cycle);
    }
    out
}

/// The files that reach `from` and that `from` reaches (its strongly connected set).
fn circle_set(next: &BTreeMap<&str, Vec<&str>>, from: &str) -> BTreeSet<String> {
    reach(next, from)
        .into_iter()
        .filter(|n| reach(next, n).contains(from))
        .collect()
}

/// The files `from` reaches along `next`.
fn reach(next: &BTreeMap<&str, Vec<&str>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(x) = stack.pop() {
        for &y in next.get(x.as_str()).into_iter().flatten() {
            if seen.insert(y.to_string()) {
                stack.push(y.to_string());
            }
        }
    }
    seen
}

/// Whether every file of `set` lies in the folder of a `mod.rs` of `set`: a module and its
/// children using each other, which is the folder's own business.
fn within_one_folder(set: &BTreeSet<String>) -> bool {
    set.iter().any(|m| {
        m.ends_with("/mod.rs") && {
            let dir = m.trim_end_matches("mod.rs");
            set.iter().all(|f| f.starts_with(dir))
        }
    })
}

/// The shortest circle from `start` back to it within `set` (breadth first), as a closed path.
fn shortest_cycle(
    next: &BTreeMap<&str, Vec<&str>>,
    start: &str,
    set: &BTreeSet<String>,
) -> Option<Vec<String>> {
    let mut parent: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(x) = queue.pop_front() {
        for &y in next.get(x).into_iter().flatten() {
            if !set.contains(y) {
                continue;
            }
            if y == start {
                let mut cycle = vec![start.to_string()];
                let mut z = x;
                while z != start {
                    cycle.push(z.to_string());
                    z = parent[z];
                }
                cycle.push(start.to_string());
                cycle.reverse();
                return Some(cycle);
            }
            if !parent.contains_key(y) {
                parent.insert(y, x);
                queue.push_back(y);
            }
        }
    }
    None
}

/// Circles that pass through a `mod.rs` naming its children and leave its folder (`book/
/// options.rs` → `protocol/mod.rs` → `protocol/uci.rs` → `book/options.rs`): over `edges`
/// with the front doors counted, each set of files in a circle that is not within one folder.
fn circles_through_front_doors(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges {
        next.entry(a).or_default().push(b);
    }
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &start in next.keys() {
        if done.contains(start) {
            continue;
        }
        let set = circle_set(&next, start);
        done.extend(set.iter().cloned());
        if set.len() < 2 || within_one_folder(&set) {
            continue;
        }
        // One circle of the set that leaves a folder, the shortest through the first file
        // (in name order) that lies on one.
        let cycle = set
            .iter()
            .filter_map(|f| shortest_cycle(&next, f, &set))
            .find(|c| {
                let nodes: BTreeSet<String> = c.iter().cloned().collect();
                !within_one_folder(&nodes)
            })
            .expect("a circle through the set's files that leaves a folder");
        out.push(cycle);
    }
    out
}

/// The breaks in `src_root`: imports up the rooms and circles within a room, as messages.
fn breaks(src_root: &Path) -> (Vec<String>, Vec<String>) {
    let files = read_sources(src_root);
    let all = edges(&files, false);
    let mut used = BTreeSet::new();
    let mut problems = Vec::new();
    let mut same_room = BTreeSet::new();
    for (a, b) in &all {
        let covers = |pattern: &str, file: &str| {
            file == pattern || (pattern.ends_with('/') && file.starts_with(pattern))
        };
        if let Some(e) = EXCEPTIONS.iter().find(|e| covers(e.0, a) && covers(e.1, b)) {
            used.insert(e.0.to_string() + " → " + e.1);
            continue;
        }
        let (ra, rb) = (room(a), room(b));
        if rb > ra {
            problems.push(format!(
                "src/{a} (room {}) imports src/{b} (room {}), a room above it",
                ROOMS[ra].0, ROOMS[rb].0
            ));
        } else if ra == rb {
            same_room.insert((a.clone(), b.clone()));
        }
    }
    for cycle in circles(&same_room) {
        problems.push(format!(
            "import circle in room {}: {}",
            ROOMS[room(&cycle[0])].0,
            cycle.join(" → ")
        ));
    }
    let doors: BTreeSet<(String, String)> = edges(&files, true)
        .into_iter()
        .filter(|(a, b)| room(a) == room(b))
        .collect();
    for cycle in circles_through_front_doors(&doors) {
        if !problems.iter().any(|p| p.ends_with(&cycle.join(" → "))) {
            problems.push(format!(
                "import circle through a mod.rs in room {}: {}",
                ROOMS[room(&cycle[0])].0,
                cycle.join(" → ")
            ));
        }
    }
    let stale = EXCEPTIONS
        .iter()
        .map(|e| e.0.to_string() + " → " + e.1)
        .filter(|e| !used.contains(e))
        .map(|e| format!("exception {e} no longer occurs: remove it from EXCEPTIONS"))
        .collect();
    (problems, stale)
}

#[test]
fn rooms_import_only_downwards_and_without_circles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (problems, stale) = breaks(&src);
    assert!(
        problems.is_empty() && stale.is_empty(),
        "layer rule (docs/architecture.md) broken:\n{}",
        problems
            .iter()
            .chain(&stale)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_checker_sees_breaks_circles_and_reexports() {
    let dir = std::env::temp_dir().join(format!("kiebitz-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write(
        "lib.rs",
        "pub mod board; pub mod game; pub mod search; pub mod solve; pub mod games;",
    );
    write(
        "board/mod.rs",
        "//! crate::games::x in a comment\npub mod fen;\nconst S: &str = \"crate::games\";",
    );
    write("board/fen.rs", "use super::Square;");
    // Up the rooms: game imports a game.
    write(
        "game.rs",
        "use crate::{board::Move, games::{chess::Chess}};\n#[cfg(test)]\nmod tests { use crate::games::pawns::Pawns; }",
    );
    write(
        "games/mod.rs",
        "pub mod chess; pub mod x; pub mod y; pub mod z;",
    );
    // The search may not call a solver directly (solve sits above it); a solver may use
    // the search.
    write("search/mod.rs", "pub fn go() { crate::solve::pns(); }");
    write("solve/mod.rs", "pub fn pns() { crate::search::go(); }");
    // A circle through a front door, leaving its folder: y → x/mod.rs → x/a.rs → y.
    write("games/x/mod.rs", "pub mod a;\npub fn shared() { a::go(); }");
    write("games/x/a.rs", "pub fn go() { crate::games::y::f(); }");
    write("games/y.rs", "pub fn f() { crate::games::x::shared(); }");
    // A module and its child using each other: the folder's own business.
    write("games/z/mod.rs", "pub mod b;\npub fn h() { b::g(); }");
    write("games/z/b.rs", "pub fn g() { super::h(); }");
    // A circle through a re-export: eval → Chess (position.rs) → eval.
    write(
        "games/chess/mod.rs",
        "pub mod eval; pub mod position;\npub use position::Chess;\nuse eval::x;",
    );
    write("games/chess/eval.rs", "use super::Chess;");
    write(
        "games/chess/position.rs",
        "fn f() { super::eval::evaluate(); crate::board::fen::read(); }",
    );
    let (problems, stale) = breaks(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        problems,
        [
            "src/game.rs (room game) imports src/games/chess/position.rs (room games), a room above it",
            "src/search/mod.rs (room search) imports src/solve/mod.rs (room solve), a room above it",
            "import circle in room games: games/chess/eval.rs → games/chess/position.rs → games/chess/eval.rs",
            "import circle through a mod.rs in room games: games/x/a.rs → games/y.rs → games/x/mod.rs → games/x/a.rs",
        ],
    );
    assert_eq!(stale.len(), EXCEPTIONS.len());
}
