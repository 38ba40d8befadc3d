#!/usr/bin/env python3
"""Which Räuberschach match openings are already decided: df-pn on each, the open ones kept.

A match opening whose start is a proven win for one side tells a match little: both engines,
each with that side once, play it out, and the pair ends 1-1 whoever plays better (the better
engine can only convert faster). This runs `kiebitz-raeuber solve` (df-pn, weak numbers; every
win or loss it reports has a proof checked by the move generator) on every line of an EPD
file and writes the lines it neither proves nor refutes to OUT.

    scripts/studies/raeuber-open-openings.py [--epd tests/data/raeuber-openings.epd]
        [--out tests/data/raeuber-openings-open.epd] [--nodes 5000000] [--jobs 2] [--solver BIN]

Prints one line an opening (its number, the result, the nodes) and the counts.
"""
import argparse
import concurrent.futures
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import raeuber_solve  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--epd", default=os.path.join(ROOT, "tests/data/raeuber-openings.epd"))
ap.add_argument("--out", default=os.path.join(ROOT, "tests/data/raeuber-openings-open.epd"))
ap.add_argument("--nodes", type=int, default=5_000_000)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--solver", default=os.path.join(ROOT, "target/release/kiebitz-raeuber"))
args = ap.parse_args()


def fen_of(epd):
    fields = epd.split()
    ops = " ".join(fields[4:])
    hmvc = re.search(r"hmvc (\d+)", ops)
    fmvn = re.search(r"fmvn (\d+)", ops)
    clocks = f"{hmvc.group(1) if hmvc else 0} {fmvn.group(1) if fmvn else 1}"
    return " ".join(fields[:4]) + " " + clocks


def solve(line):
    return raeuber_solve.solve(args.solver, fen_of(line), args.nodes, hash_mb=1024, weak=True)


lines = [l.rstrip("\n") for l in open(args.epd) if l.strip()]
with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
    results = list(pool.map(solve, lines))
counts = {}
kept = []
for i, (line, (value, nodes)) in enumerate(zip(lines, results), 1):
    print(f"{i:3} {value:7} {nodes:>10}  {fen_of(line)}")
    counts[value] = counts.get(value, 0) + 1
    if value == "unknown":
        kept.append(line)
with open(args.out, "w") as f:
    f.write("\n".join(kept) + "\n")
print(f"{len(lines)} openings at {args.nodes} nodes: "
      + ", ".join(f"{v} {n}" for v, n in sorted(counts.items()))
      + f" (for the side to move); {len(kept)} open written to {args.out}")
