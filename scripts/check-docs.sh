#!/usr/bin/env bash
# Checks the figures and links of README.md and docs/ that a command can check.
#
#   scripts/check-docs.sh [--root DIR]              the fast part (seconds, no binaries; CI runs
#                                                   it through tests/docs_check.rs)
#   scripts/check-docs.sh --full [--bin DIR]        also runs the binaries (DIR, default
#                                                   target/release; build them first with
#                                                   `cargo build --release`): bench node counts,
#                                                   quoted perft counts, the analysis table.
#                                                   Minutes on 2 cores.
#
# Fast part: README.md under 12 KB; its two set-up commands exist (the `kiebitz-web` binary,
# scripts/test.sh, which .ci/run calls, installing what the README says); every binary of
# Cargo.toml named in the README; every relative link in README.md, docs/*.md and
# scripts/README.md resolving to a file, and its #anchor to a heading there; no reference to a
# specification file outside the repository. Measurements (Elo, times) are not checked: the
# pages say where they come from. Exit status 1 and one line per failure when a check fails.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FULL=0
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT="$(cd "$2" && pwd)"; shift 2 ;;
        --full) FULL=1; shift ;;
        --bin) BIN="$(cd "$2" && pwd)"; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "check-docs: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
BIN="${BIN:-$ROOT/target/release}"
export ROOT FULL BIN
exec python3 - <<'PY'
import json, os, re, subprocess, sys

ROOT, FULL, BIN = os.environ["ROOT"], os.environ["FULL"] == "1", os.environ["BIN"]
failures = []


def fail(msg):
    failures.append(msg)
    print(f"check-docs: FAIL {msg}")


def ok(msg):
    print(f"check-docs: ok   {msg}")


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def number(text):
    return int(text.replace(",", "").replace(" ", ""))


# --- the README's size and its two set-up commands --------------------------------------
readme = read("README.md")
size = len(readme.encode("utf-8"))
(ok if size < 12 * 1024 else fail)(f"README.md is {size} bytes (limit 12288)")

blocks = re.findall(r"^    (\S.*)$", readme, re.M)
setup = blocks[:2]
want = ["cargo run --release --bin kiebitz-web", "bash scripts/test.sh"]
(ok if setup == want else fail)(f"README's first two commands are {setup} (want {want})")
cargo = read("Cargo.toml")
bins = re.findall(r'^name = "(kiebitz-[a-z]+)"', cargo, re.M)
("kiebitz-web" in bins and ok or fail)("kiebitz-web is a binary of Cargo.toml")
test_sh = read("scripts/test.sh") if os.path.exists(os.path.join(ROOT, "scripts/test.sh")) else ""
("bash scripts/test.sh" in read(".ci/run") and ok or fail)(".ci/run runs scripts/test.sh")
reqs = read("scripts/requirements.txt").split()
for pkg, where, text in [("chess", "requirements.txt", reqs), ("selenium", "requirements.txt", reqs),
                         ("tmux", "test.sh", test_sh), ("chromium", "test.sh", test_sh),
                         ("chromium-driver", "test.sh", test_sh)]:
    (pkg in text and ok or fail)(f"scripts/{where} installs {pkg}, as the README says")
    (pkg.split("-")[0] in readme and ok or fail)(f"README names {pkg} among what the tests install")
for b in bins:
    (f"`{b}`" in readme and ok or fail)(f"README names the binary {b}")


# --- links and anchors -------------------------------------------------------------------
def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[`*_\[\]()]", "", s)
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    found, seen = set(), {}
    for h in re.findall(r"^#{1,6} (.*)$", text, re.M):
        s = slug(h)
        n = seen.get(s, 0)
        seen[s] = n + 1
        found.add(s if n == 0 else f"{s}-{n}")
    return found


pages = ["README.md", "scripts/README.md"] + sorted(
    "docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
links = 0
for page in pages:
    text = re.sub(r"```.*?```", "", read(page), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        links += 1
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) if path \
            else os.path.join(ROOT, page)
        if not full.startswith(ROOT + os.sep) or not os.path.exists(full):
            fail(f"{page}: link {target} leads nowhere")
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            fail(f"{page}: link {target}: no heading '#{anchor}' in {os.path.relpath(full, ROOT)}")
ok(f"{links} relative links in {len(pages)} pages checked")

# --- no specification outside the repository ---------------------------------------------
outside = re.compile(r"\bSPEC\b|SPEC\.md|\.\./shared|DESIGN\.md")
skip_dirs = {".git", "target", "fuzz/target", "node_modules"}
hits = []
for dirpath, dirnames, filenames in os.walk(ROOT):
    rel_dir = os.path.relpath(dirpath, ROOT)
    dirnames[:] = [d for d in dirnames if os.path.normpath(os.path.join(rel_dir, d)) not in skip_dirs
                   and d not in (".git", "target")]
    for name in filenames:
        rel = os.path.normpath(os.path.join(rel_dir, name))
        if rel == "scripts/check-docs.sh":
            continue
        try:
            text = open(os.path.join(dirpath, name), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            if outside.search(line):
                hits.append(f"{rel}:{i}")
(ok if not hits else fail)("no reference to SPEC/DESIGN files or ../shared"
                           + ("" if not hits else ": " + ", ".join(hits[:10])))

if not FULL:
    print(f"check-docs: fast part: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


# --- the full part: figures the binaries reproduce ---------------------------------------
outputs = {}


def run(args):
    """The output of a binary of BIN with these arguments (run once, kept for the next ask)."""
    key = tuple(args)
    if key not in outputs:
        outputs[key] = run_once(args)
    return outputs[key]


def run_once(args):
    exe = os.path.join(BIN, args[0])
    if not os.path.exists(exe):
        fail(f"{exe} missing: build with `cargo build --release` or give --bin DIR")
        return ""
    r = subprocess.run([exe] + args[1:], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        fail(f"`{' '.join(args)}` exited {r.returncode}: {r.stderr.strip()[-200:]}")
    return r.stdout + r.stderr


def last_number(out, pattern):
    found = re.findall(pattern, out)
    return int(found[-1]) if found else None


# Bench: the README's table, and the first figure of each row of docs/results.md's table.
for page, row in [("README.md", r"^\| (kiebitz-[a-z]+) \| ([\d,]+) \|$"),
                  ("docs/results.md", r"^\| (kiebitz-[a-z]+) \| `kiebitz-[a-z]+ bench`[^|]*\| ([\d,]+)")]:
    for engine, figure in re.findall(row, read(page), re.M):
        got = last_number(run([engine, "bench"]), r"Bench: (\d+) nodes")
        (ok if got == number(figure) else fail)(
            f"{page}: `{engine} bench` = {got} nodes, written {figure}")

# Perft counts quoted as `COMMAND` = COUNT (README) and in docs/results.md's perft table.
quoted = re.findall(r"`(kiebitz-[a-z]+ perft [^`]+)`\s*=\s*([\d,]+)", readme)
quoted += re.findall(r"`(kiebitz-[a-z]+ perft [^`]+)` \| ([\d,]+) nodes", read("docs/results.md"))
for command, figure in quoted:
    out = run(command.split())
    got = last_number(out, r"(?:Nodes searched|Nodes|nodes)\s*:?\s*(\d+)")
    (ok if got == number(figure) else fail)(f"`{command}` = {got}, written {figure}")

# Chamäleon: docs/rules.md's "South has 13 moves; perft 2 with four players is 169".
m = re.search(r"South has (\d+) moves; perft 2 with four players is (\d+)", read("docs/rules.md"))
for depth, figure in [("1", m.group(1)), ("2", m.group(2))] if m else []:
    got = last_number(run(["kiebitz-chamaeleon", "perft", depth, "--players", "4"]), r"Nodes: (\d+)")
    (ok if got == int(figure) else fail)(f"docs/rules.md: Chamäleon perft {depth}, 4 players = {got}, written {figure}")
if not m:
    fail("docs/rules.md: the Chamäleon perft sentence is gone")

# The analysis table of docs/results.md: each row's command reproduces its counts and value.
row = re.compile(r"^\| (\d)×\d \| \w+ \| (\d+) \| (\d+) \| (-?\d) \| [^|]+\|.*\| `(kiebitz-pawns analyze [^`]+)` \|$", re.M)
for size, unique, nodes, value, command in row.findall(read("docs/results.md")):
    out = run(command.split())
    try:
        got = json.loads(out[out.index("{"):out.rindex("}") + 1])
        seen = (got["unique_positions"], int(got["tree_nodes"]), got["value"])
    except (ValueError, KeyError):
        seen = None
    want_row = (int(unique), int(nodes), int(value))
    (ok if seen == want_row else fail)(f"`{command}`: {seen}, written {want_row}")

print(f"check-docs: fast and full parts: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
PY
