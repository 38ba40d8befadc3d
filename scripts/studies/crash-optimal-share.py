#!/usr/bin/env python3
"""How often does kiebitz-crash's heuristic player (no --db) find an optimal move?

Samples random CRASH! positions with K-vs-K stones on M cells (K from --stones, side to move
random, uniform over the database's index: White's stone cells and Black's cells minus one form
one non-decreasing list), asks the heuristic engine over UCI for a move at each --movetime and
judges the move with a second engine that plays from an exhaustive database (--db FILE answers
`score mate N`: a win in d = 2N-1 plies, a loss in d = 2|N| plies; d odd = the mover wins).
A move is *value-preserving* when it keeps the position's value (in a lost position every move
is) and *exactly optimal* when it keeps the exact distance (fastest win, longest resistance).

With --openings FILE it also writes positions for kiebitz-match: --pairs positions won for the
side to move and --pairs lost for it, with a distance of at least --min-plies plies.

usage: scripts/studies/crash-optimal-share.py --db n5m16.db [--engine target/release/kiebitz-crash]
         [--cells 16] [--stones 3,4] [--samples 300] [--movetimes 10,100] [--seed 1]
         [--openings FILE --pairs 10 --min-plies 9]
"""
import argparse
import random
import subprocess
import sys


class Uci:
    """A UCI engine on pipes (stdout carries the protocol only)."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine quit while waiting for " + prefix)
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def go(self, fen, moves, movetime):
        self.send("position fen " + fen + (" moves " + " ".join(moves) if moves else ""))
        self.send("go movetime %d" % movetime)
        lines = self.wait("bestmove")
        score = None
        for line in lines:
            t = line.split()
            if "score" in t:
                i = t.index("score")
                score = (t[i + 1], int(t[i + 2]))
        return lines[-1].split()[1], score

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def random_position(rng, cells, k):
    """A uniformly random position of the database's index with k stones a side."""
    values = cells - 1  # White's cells 0..m-2, Black's cells minus one 0..m-2
    chosen = sorted(rng.sample(range(values + 2 * k - 1), 2 * k))
    s = [c - i for i, c in enumerate(chosen)]  # non-decreasing, in 0..values-1
    board = [0] * cells  # + white stones, - black stones
    for c in s[:k]:
        board[c] += 1
    for c in s[k:]:
        board[c + 1] -= 1
    text = "".join("." if h == 0 else ("W%d" % h if h > 0 else "B%d" % -h) for h in board)
    return text + " " + rng.choice("wb")


def distance(db, fen, moves=()):
    """The database distance in plies of the position after MOVES (0: the mover has lost)."""
    best, score = db.go(fen, list(moves), 1)
    if score is None or score[0] != "mate":
        raise RuntimeError("the database engine has no mate score for %s %s" % (fen, moves))
    n = score[1]
    if best == "(none)" or n == 0:
        return 0
    return 2 * n - 1 if n > 0 else -2 * n


def check_root(db, fen, d):
    """The root distance must be the optimum over the moves' distances (`go perft 1` lists
    the moves): the quickest win through a lost child, else the longest resistance."""
    db.send("position fen " + fen)
    db.send("go perft 1")
    lines = db.wait("Nodes searched")
    moves = [l.split(":")[0] + ":" + l.split(":")[1] for l in lines if l.count(":") == 2]
    ds = [distance(db, fen, [m]) + 1 for m in moves]
    wins = [x for x in ds if x % 2 == 1]
    best = min(wins) if wins else max(ds)
    if best != d:
        raise RuntimeError("database inconsistent at %s: %d vs %d" % (fen, d, best))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/kiebitz-crash")
    ap.add_argument("--db", required=True)
    ap.add_argument("--cells", type=int, default=16)
    ap.add_argument("--stones", default="3,4")
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--movetimes", default="10,100")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openings")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--min-plies", type=int, default=9)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    stones = [int(x) for x in a.stones.split(",")]
    times = [int(x) for x in a.movetimes.split(",")]
    db = Uci([a.engine, "--db", a.db])
    heur = Uci([a.engine])

    stats = {t: {"win": [0, 0, 0], "loss": [0, 0, 0]} for t in times}  # n, preserving, exact
    won, lost = [], []
    for i in range(a.samples):
        k = stones[i % len(stones)]
        fen = random_position(rng, a.cells, k)
        d = distance(db, fen)
        check_root(db, fen, d)
        kind = "win" if d % 2 == 1 else "loss"
        if d >= a.min_plies:
            (won if kind == "win" else lost).append((k, fen, d))
        for t in times:
            heur.new_game()
            move, _ = heur.go(fen, [], t)
            dm = distance(db, fen, [move]) + 1
            s = stats[t][kind]
            s[0] += 1
            s[1] += dm % 2 == d % 2
            s[2] += dm == d
    db.quit()
    heur.quit()

    print("%d random positions, %s stones a side, %d cells, seed %d"
          % (a.samples, a.stones, a.cells, a.seed))
    for t in times:
        w, l = stats[t]["win"], stats[t]["loss"]
        n = w[0] + l[0]
        pres, exact = w[1] + l[1], w[2] + l[2]
        print("movetime %4d ms: value-preserving %d/%d (%.1f %%), exactly optimal %d/%d (%.1f %%);"
              " won positions: preserving %d/%d, exact %d/%d; lost positions: exact %d/%d"
              % (t, pres, n, 100.0 * pres / n, exact, n, 100.0 * exact / n,
                 w[1], w[0], w[2], w[0], l[2], l[0]))

    if a.openings:
        out = []
        for pool in (won, lost):
            for k in stones:
                pick = [p for p in pool if p[0] == k][: a.pairs // len(stones)]
                out += pick
        with open(a.openings, "w", encoding="utf-8") as f:
            for k, fen, d in out:
                f.write(fen + "\n")
        kinds = sum(1 for p in out if p[2] % 2 == 1), sum(1 for p in out if p[2] % 2 == 0)
        print("openings: %s (%d won, %d lost for the side to move, at least %d plies)"
              % (a.openings, kinds[0], kinds[1], a.min_plies), file=sys.stderr)


if __name__ == "__main__":
    main()
