#!/usr/bin/env python3
"""Import circles between the source files of src/ at a git commit (default HEAD):
`scripts/import-circles.py [COMMIT]`, run in the repository. Independent of tests/layers.rs
(a second reading of the same graph, for any commit of the history).

An edge a -> b when file a names a path into file b (`use crate::x::y`, `crate::x::y::f()`,
`super::`, `self::`, and a mod.rs naming its own children); paths stop at the deepest file
module. A circle is a strongly connected set of files that is not inside the folder of one
of its mod.rs files (a module and its children using each other is the folder's business).
Test modules (`#[cfg(test)] mod tests { ... }`) are left out.
"""
import re, subprocess, sys

commit = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True, check=True).stdout
files = [f for f in git("ls-tree", "-r", "--name-only", commit, "src").split() if f.endswith(".rs")]

def module_of(f):
    parts = f[len("src/"):-3].split("/")
    if parts[-1] in ("mod", "lib", "main") and not (len(parts) == 1 and parts[0] == "main"):
        parts = parts[:-1]
    return tuple(parts)

mods = {}
for f in files:
    if f.startswith("src/bin/") or f == "src/main.rs":
        continue
    mods[module_of(f)] = f

def strip(src):
    """Comments and the contents of strings and characters blanked out."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i): depth += 1; i += 2
                elif src.startswith("*/", i): depth -= 1; i += 2
                else: i += 1
        elif re.match(r'(?<![\w])b?r#*"', src[i:i+8]) and (i == 0 or not (src[i-1].isalnum() or src[i-1] == "_")):
            m = re.match(r'b?r(#*)"', src[i:])
            end = src.find('"' + m.group(1), i + m.end())
            out.append('""'); i = n if end < 0 else end + 1 + len(m.group(1))
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append('""'); i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m:
                out.append("' '"); i += m.end()
            else:
                out.append(c); i += 1
        else:
            out.append(c); i += 1
    text = "".join(out)
    # drop test modules: from `#[cfg(test)]` + `mod NAME {` to its closing brace
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)

def expand(tree):
    """`a::{b, c::d}` -> [a::b, a::c::d] (a simple brace expander)."""
    m = re.search(r"\{", tree)
    if not m:
        return [tree]
    depth, j = 0, m.start()
    while j < len(tree):
        depth += {"{": 1, "}": -1}.get(tree[j], 0)
        if depth == 0:
            break
        j += 1
    head, inner, tail = tree[:m.start()], tree[m.start() + 1:j], tree[j + 1:]
    parts, depth, cur = [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur); cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        cur += c
    parts.append(cur)
    out = []
    for p in parts:
        p = p.strip()
        if p:
            out += expand(head + p + tail)
    return out

def resolve(path, here, is_dir):
    """The deepest file module that `path` (as written in module `here`) reaches, if any."""
    segs = [s.strip() for s in re.split(r"::", path) if s.strip()]
    base = list(here) if is_dir else list(here[:-1]) if here else []
    if not segs:
        return None
    if segs[0] == "crate":
        cur, segs = [], segs[1:]
    elif segs[0] == "self":
        cur, segs = list(here), segs[1:]
    elif segs[0] == "super":
        cur = list(here)
        while segs and segs[0] == "super":
            cur = cur[:-1]; segs = segs[1:]
    else:
        return None
    best = tuple(cur) if tuple(cur) in mods else None
    for s in segs:
        s = re.sub(r"\s+as\s+\w+$", "", s)
        cur.append(s)
        if tuple(cur) in mods:
            best = tuple(cur)
        else:
            break
    return best

edges = set()
for mod, f in mods.items():
    text = strip(git("show", f"{commit}:{f}"))
    is_dir = f.endswith("/mod.rs") or f == "src/lib.rs"
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        paths += expand(re.sub(r"\s+", "", m.group(1)).replace("::*", ""))
    paths += re.findall(r"\b(?:crate|super|self)(?:::\w+)+", text)
    if is_dir:
        children = set(re.findall(r"\bmod\s+(\w+)\s*;", text))
        for c in children:
            if re.search(r"(?<![\w:])" + c + r"::\w", text):
                paths.append("self::" + c)
    for p in paths:
        target = resolve(p, mod, is_dir)
        if target and target != mod and mods[target] != f:
            edges.add((f, mods[target]))

# Tarjan's strongly connected components
nxt = {}
for a, b in edges:
    nxt.setdefault(a, []).append(b)
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in nxt.get(v, []):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
for v in list(mods.values()):
    if v not in index:
        visit(v)

def within_one_folder(comp):
    for m in comp:
        if m.endswith("/mod.rs"):
            d = m[: -len("mod.rs")]
            if all(x.startswith(d) for x in comp):
                return True
    return False

circles = [c for c in sccs if not within_one_folder(c)]
for c in circles:
    print("circle:", " ".join(c))
print(f"{commit}: {len(edges)} imports between {len(mods)} files, {len(circles)} import circles")
