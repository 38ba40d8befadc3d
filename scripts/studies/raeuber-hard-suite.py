#!/usr/bin/env python3
"""Hard forced-win suite for Räuberschach 6x6: proven wins that Fairy-Stockfish misses at 100k nodes.

Builds tests/data/raeuber-hard-wins.txt (lines `FEN;MOVES;N` as in the other raeuber-*-wins.txt
suites: after MOVES from FEN the side to move has a forced win; N is Fairy-Stockfish's mate
distance in moves when it announces one at the measurement budget or at the proof budget, else 0)
and tests/data/raeuber-hard-wins.proof.txt (one line per suite line, `LINE solve NODES` when
`kiebitz-raeuber solve` proved the win, with its proof checked, after expanding NODES positions,
or `LINE fsf NODES` when Fairy-Stockfish announced `score mate` > 0 at `go nodes NODES`).

    scripts/studies/raeuber-hard-suite.py [--fairy PATH] [--solver PATH] [--play-nodes 20000,30000]
        [--filter-nodes 100000] [--solve-nodes 2000000] [--fsf-proof-nodes 0]
        [--measure-nodes 2000000] [--per-game 2] [--back 12] [--limit 0] [--out-dir DIR]
        [--cache FILE]

How the positions are found (all Fairy-Stockfish searches are `go nodes` budgets on one thread,
so a rerun gives the same games, the same candidates and the same suite):

1. Self-play: from every position of tests/data/raeuber-openings.epd, one Fairy-Stockfish game
   per --play-nodes budget (nodes per move, table kept through the game, cleared before it).
   The game stops at the first `score mate` > 0 announced by the side to move, at ply A.
2. Candidates: the positions A-2, A-4, ... A-back of that game (the same side to move), nearest
   first. Each one that Fairy-Stockfish does not see as a win at --filter-nodes (a new process
   per position; last score not `mate` > 0) goes to the solver: `solve --nodes SOLVE_NODES
   --budget 600`, accepted when it answers `win` with a checked proof. When the solver does not
   prove it and --fsf-proof-nodes is given, Fairy-Stockfish at that budget may prove it instead.
   The walk back through a game stops at the first candidate that neither proves, or after
   --per-game accepted positions. Positions already in raeuber-early-wins.txt or
   raeuber-late-wins.txt, or already accepted (compared by the position reached, counters
   ignored), are skipped.
3. Suite order: Fairy-Stockfish's `go nodes` result depends on the searches its process made
   before, even after `ucinewgame`, so the suite is also run in order in one process (cleared
   with `ucinewgame` before each position) at --filter-nodes, and what it sees is dropped,
   until it sees nothing: 0 solved at --filter-nodes both ways.
4. Measurement: one process, suite order, at --measure-nodes; its mate announcements set N.

The suite files are rewritten after every accepted position (N = 0 until step 4), so a run that
is stopped early leaves what it found. Engine results are cached in CACHE (--cache, default
/tmp/raeuber-hard-suite-cache.json): a rerun with the same options only redoes what is
missing. Runs one engine process at a time, under `nice -n 10` (--nice).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Uci  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--fairy", default=os.environ.get("FAIRY", "/work/fsf/fairy-stockfish"))
ap.add_argument("--solver", default="/work/runs/raeuber-s1")
ap.add_argument("--play-nodes", default="20000,30000")
ap.add_argument("--filter-nodes", type=int, default=100000)
ap.add_argument("--solve-nodes", type=int, default=2000000)
ap.add_argument("--fsf-proof-nodes", type=int, default=0)
ap.add_argument("--measure-nodes", type=int, default=2000000)
ap.add_argument("--per-game", type=int, default=2)
ap.add_argument("--back", type=int, default=12)
ap.add_argument("--limit", type=int, default=0, help="stop searching after this many positions (0: all games)")
ap.add_argument("--max-plies", type=int, default=160)
ap.add_argument("--out-dir", default=os.path.join(ROOT, "tests/data"))
ap.add_argument("--nice", type=int, default=10)
ap.add_argument("--cache", default="/tmp/raeuber-hard-suite-cache.json")
args = ap.parse_args()

DATA = os.path.join(ROOT, "tests/data")
SUITE = os.path.join(args.out_dir, "raeuber-hard-wins.txt")
PROOFS = os.path.join(args.out_dir, "raeuber-hard-wins.proof.txt")
CACHE = args.cache
cache = json.load(open(CACHE)) if os.path.exists(CACHE) else {}


def save_cache():
    tmp = CACHE + ".tmp"
    json.dump(cache, open(tmp, "w"))
    os.replace(tmp, CACHE)


def log(*a):
    print(*a, flush=True)


class Fsf:
    """Fairy-Stockfish under `nice`, set up for Räuberschach after `uci` (which resets the variant)."""

    def __init__(self, hash_mb):
        self.e = Uci.__new__(Uci)  # fairy_uci.Uci, started under nice
        self.e.path = args.fairy
        self.e.p = subprocess.Popen(["nice", "-n", str(args.nice), args.fairy], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                    bufsize=1)
        self.e.send("uci")
        self.e.until("uciok")
        for c in (f"setoption name VariantPath value {DATA}/fairy-variants.ini",
                  "setoption name UCI_Variant value raeuberschach",
                  f"setoption name Hash value {hash_mb}", "setoption name Threads value 1"):
            self.e.send(c)
        self.sync()

    def sync(self):
        self.e.send("isready")
        self.e.until("readyok")

    def position(self, fen, moves):
        self.e.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))

    def go(self, nodes):
        """(kind, value, bestmove) of the last score line: kind 'mate' or 'cp'."""
        kind, value = "cp", 0
        lines = self.e.until("bestmove")
        for line in lines:
            w = line.split()
            if "score" in w:
                i = w.index("score")
                kind, value = w[i + 1], int(w[i + 2])
        best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"
        return kind, value, best

    def search(self, fen, moves, nodes, clear=True):
        if clear:
            self.e.send("ucinewgame")
        self.position(fen, moves)
        self.sync()
        self.e.send(f"go nodes {nodes}")
        return self.go(nodes)

    def key(self, fen, moves):
        """The position reached, without the move counters."""
        self.position(fen, moves)
        self.e.send("d")
        self.e.send("isready")
        f = next(l[5:] for l in self.e.until("readyok") if l.startswith("Fen: "))
        return " ".join(f.split()[:4])

    def quit(self):
        self.e.send("quit")
        self.e.p.wait()


def fsf_check(fsf, fen, moves, nodes):
    k = f"fsf {nodes} {fen};{' '.join(moves)}"
    if k not in cache:
        kind, value, _ = fsf.search(fen, moves, nodes)
        cache[k] = [kind, value]
        save_cache()
    return tuple(cache[k])


def fsf_fresh(fen, moves, nodes):
    """The last score of a new Fairy-Stockfish process at `go nodes` (its searches depend on the
    ones the process made before, even after `ucinewgame`, so each check starts a new one)."""
    k = f"fresh {nodes} {fen};{' '.join(moves)}"
    if k not in cache:
        f = Fsf(64)
        kind, value, _ = f.search(fen, moves, nodes)
        f.quit()
        cache[k] = [kind, value]
        save_cache()
    return tuple(cache[k])


def sequential(accepted, nodes):
    """The last scores of one Fairy-Stockfish process searching the suite in order, `ucinewgame`
    before each position (how raeuber-win-suite.py-like tools run a suite)."""
    lines = "\n".join(f"{a['fen']};{' '.join(a['moves'])}" for a in accepted)
    k = f"seq {nodes} " + hashlib.sha1(lines.encode()).hexdigest()
    if k not in cache:
        f = Fsf(64)
        cache[k] = [list(f.search(a["fen"], a["moves"], nodes)[:2]) for a in accepted]
        f.quit()
        save_cache()
    return [tuple(r) for r in cache[k]]


def solve(fen, moves):
    k = f"solve {args.solve_nodes} {fen};{' '.join(moves)}"
    if k not in cache:
        out = subprocess.run(["nice", "-n", str(args.nice), args.solver, "solve", "--fen", fen,
                              "--moves", " ".join(moves), "--nodes", str(args.solve_nodes),
                              "--budget", "600"], capture_output=True, text=True).stdout
        fields = dict((l.split(None, 1) + [""])[:2] for l in out.splitlines() if l.strip())
        result = fields.get("result", "?").split()[0]
        checked = "(checked)" in fields.get("proof", "")
        nodes = int(fields.get("nodes", "0").split()[0])
        cache[k] = [result if (result != "win" or checked) else "unchecked", nodes,
                    fields.get("time", "?")]
        save_cache()
    return tuple(cache[k])


def opening_fens():
    fens = []
    for line in open(os.path.join(DATA, "raeuber-openings.epd")):
        w = line.split()
        if len(w) >= 4:
            fens.append(" ".join(w[:4]) + " 0 1")
    return fens


def play(fsf, fen, nodes):
    """Self-play until the first `mate` > 0 of the side to move: (moves, ply, mate) or None."""
    k = f"play {nodes} {fen}"
    if k not in cache:
        fsf.e.send("ucinewgame")
        moves, result = [], None
        for ply in range(args.max_plies):
            kind, value, best = fsf.search(fen, moves, nodes, clear=False)
            if kind == "mate" and value > 0:
                result = [moves, ply, value]
                break
            if best == "(none)":
                break
            moves = moves + [best]
        cache[k] = result
        save_cache()
    return cache[k]


def write(accepted):
    with open(SUITE, "w") as s, open(PROOFS, "w") as p:
        for n, a in enumerate(accepted, 1):
            s.write(f"{a['fen']};{' '.join(a['moves'])};{a['mate']}\n")
            p.write(f"{n} {a['proof']} {a['proof_nodes']}\n")


def main():
    fsf = Fsf(64)
    seen = set()
    for name in ("early", "late"):
        for line in open(os.path.join(DATA, f"raeuber-{name}-wins.txt")):
            fen, moves, _ = line.strip().split(";")
            seen.add(fsf.key(fen, moves.split()))
    accepted = []
    budgets = [int(b) for b in args.play_nodes.split(",")]
    stats = dict(games=0, decided=0, candidates=0, fsf_sees=0, dup=0, solved=0, fsf_proved=0,
                 unproven=0)
    for budget in budgets:
        for gi, fen in enumerate(opening_fens()):
            if args.limit and len(accepted) >= args.limit:
                break
            stats["games"] += 1
            game = play(fsf, fen, budget)
            if not game:
                continue
            stats["decided"] += 1
            moves, ann_ply, ann_mate = game
            taken = 0
            for back in range(2, args.back + 1, 2):
                ply = ann_ply - back
                if ply < 0 or taken >= args.per_game:
                    break
                cand = moves[:ply]
                stats["candidates"] += 1
                key = fsf.key(fen, cand)
                if key in seen:
                    stats["dup"] += 1
                    continue
                kind, value = fsf_fresh(fen, cand, args.filter_nodes)
                if kind == "mate" and value > 0:
                    stats["fsf_sees"] += 1
                    continue
                result, snodes, stime = solve(fen, cand)
                entry = dict(fen=fen, moves=cand, mate=0, key=key, game=f"{budget}:{gi + 1}",
                             ann=f"ply {ann_ply} mate {ann_mate}", back=back)
                if result == "win":
                    entry.update(proof="solve", proof_nodes=snodes)
                    stats["solved"] += 1
                elif args.fsf_proof_nodes and result != "loss" and \
                        fsf_check(fsf, fen, cand, args.fsf_proof_nodes)[0] == "mate" and \
                        fsf_check(fsf, fen, cand, args.fsf_proof_nodes)[1] > 0:
                    entry.update(proof="fsf", proof_nodes=args.fsf_proof_nodes,
                                 mate=fsf_check(fsf, fen, cand, args.fsf_proof_nodes)[1])
                    stats["fsf_proved"] += 1
                else:
                    stats["unproven"] += 1
                    log(f"  game {budget}:{gi + 1} ply {ply}: solve {result} ({snodes} nodes), stop")
                    break
                seen.add(key)
                accepted.append(entry)
                taken += 1
                write(accepted)
                log(f"#{len(accepted)} game {budget}:{gi + 1} ply {ply} (announced at {ann_ply}, "
                    f"mate {ann_mate}): fsf {args.filter_nodes} {kind} {value}, "
                    f"{entry['proof']} {entry['proof_nodes']} {stime}")
        log(f"after budget {budget}: {len(accepted)} positions, {stats}")
    log(f"search done: {len(accepted)} positions, {stats}")
    fsf.quit()
    while True:  # drop what Fairy-Stockfish sees when the suite is run in order in one process
        seen_in_order = [i for i, (kind, value) in enumerate(sequential(accepted, args.filter_nodes))
                         if kind == "mate" and value > 0]
        if not seen_in_order:
            break
        log(f"dropping {len(seen_in_order)} positions seen at {args.filter_nodes} nodes in suite order")
        accepted = [a for i, a in enumerate(accepted) if i not in seen_in_order]
    log(f"Fairy-Stockfish at {args.filter_nodes} nodes: 0/{len(accepted)} solved (new process per "
        f"position and one process in suite order)")
    if args.measure_nodes:
        results = sequential(accepted, args.measure_nodes)
        for a, (kind, value) in zip(accepted, results):
            if kind == "mate" and value > 0 and not a["mate"]:
                a["mate"] = value
        solved = sum(kind == "mate" and value > 0 for kind, value in results)
        log(f"Fairy-Stockfish at {args.measure_nodes} nodes (one process, suite order): "
            f"{solved}/{len(accepted)} solved")
    write(accepted)
    log(f"wrote {len(accepted)} positions to {SUITE} "
        f"({sum(a['proof'] == 'solve' for a in accepted)} proven by solve, "
        f"{sum(a['proof'] == 'fsf' for a in accepted)} by Fairy-Stockfish)")


main()
