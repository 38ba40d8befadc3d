#!/usr/bin/env python3
"""How exactly `go movetime T` is kept: sends it on the pathological positions of issue 16 and on
every game's bench positions (listed by `cargo run --release --example bench_positions`) and
reports each answer time, the worst overrun and, per engine, the earliest, mean and latest
answer (an exact engine answers between T - Move Overhead and T). A measurement, not a test
(the figures depend on the machine's load).

Usage: scripts/studies/movetime-overrun.py [--movetime MS] [--repeat N] [--target DIR]
                                   [--per-engine N] [--no-pathological] [--positions FILE]
  e.g. scripts/studies/movetime-overrun.py --movetime 2000 --per-engine 3 --no-pathological
"""
import argparse
import os
import subprocess
import sys
import time

PATHOLOGICAL = [
    ("kiebitz-chess", "chess", "rnbqkbnr/qqqqqqqq/8/8/8/8/QQQQQQQQ/RNBQKBNR w - - 0 1"),
    ("kiebitz-chess", "chess", "1K2k3/QQ4Q1/3Q3Q/Q4Q2/2Q4Q/1Q3Q2/3Q3Q/Q5Q1 w - - 0 1"),
    ("kiebitz-chess", "chess", "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1"),
    ("kiebitz-raeuber", "raeuberschach", "qqqkqq/qqqqqq/6/6/QQQQQQ/QQQKQQ w - - 0 1"),
    ("kiebitz-pawns", "pawns8ep", "pppppppp/8/8/8/8/8/8/PPPPPPPP w - - 0 1"),
]


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.startswith(prefix):
                return line.strip()

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--per-engine", type=int, default=0,
                    help="only the first N bench positions of each engine (0: all)")
    ap.add_argument("--positions",
                    help="the bench positions as the example prints them (default: run it)")
    ap.add_argument("--no-pathological", action="store_true",
                    help="leave out the pathological positions of issue 16")
    ap.add_argument("--target", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "target", "release"))
    args = ap.parse_args()
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    if args.positions:
        with open(args.positions) as f:
            listing = f.read()
    else:
        listing = subprocess.run(["cargo", "run", "--quiet", "--release", "--example",
                                  "bench_positions"], cwd=root, check=True,
                                 capture_output=True, text=True).stdout
    cases = [] if args.no_pathological else [("pathological",) + c for c in PATHOLOGICAL]
    seen = {}
    for l in listing.splitlines():
        if not l.strip():
            continue
        name, variant, fen = l.split("\t")
        # Per engine and search algorithm (the N-seat engine lists one block per algorithm).
        key = (name, variant if variant.startswith("algorithm=") else "")
        seen[key] = seen.get(key, 0) + 1
        if args.per_engine and seen[key] > args.per_engine:
            continue
        cases.append(("bench", name, variant, fen))
    engines = {}
    worst = (0.0, None)
    per_engine = {}
    for kind, name, variant, fen in cases:
        if name not in engines:
            engines[name] = Engine(os.path.join(args.target, name))
        e = engines[name]
        if variant.startswith("algorithm="):
            # The N-seat engine: one line per search algorithm instead of a variant.
            e.send(f"setoption name Algorithm value {variant.split('=', 1)[1]}")
        else:
            e.send(f"setoption name UCI_Variant value {variant}")
        e.send(f"position fen {fen}")
        e.send("isready")
        err = e.until("readyok")
        for _ in range(args.repeat):
            start = time.monotonic()
            e.send(f"go movetime {args.movetime}")
            best = e.until("bestmove")
            ms = (time.monotonic() - start) * 1000
            over = ms - args.movetime
            print(f"{kind:12} {name:16} {ms:7.1f} ms  overrun {over:6.1f}  {best:18} {fen}")
            if over > worst[0]:
                worst = (over, f"{name} {fen}")
            per_engine.setdefault(name, []).append(ms)
    for e in engines.values():
        e.close()
    for name, times in per_engine.items():
        n, top = len(times), max(times) - args.movetime
        print(f"{name:20} {n:4} searches, answers {min(times) / 1000:.3f} s .. "
              f"{max(times) / 1000:.3f} s (mean {sum(times) / n / 1000:.3f} s), "
              f"worst overrun {top:6.1f} ms")
    print(f"worst overrun: {worst[0]:.1f} ms ({worst[1]}) over {len(cases) * args.repeat} "
          f"searches of movetime {args.movetime}")


if __name__ == "__main__":
    sys.exit(main())
