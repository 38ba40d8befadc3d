#!/usr/bin/env python3
"""SPSA tuning of the search's parameters through kiebitz-match (the game runner) and the
`KIEBITZ_SEARCH` overrides (every search parameter can be set at start-up that way: no
tuning build is needed).

Each iteration k draws a sign ±1 for every parameter, plays PAIRS colour-swapped game pairs
between the engine at theta + c_k·sign and at theta − c_k·sign (rounded to whole numbers,
clamped to the ranges), and moves every parameter by a_k / c_k · (wins − losses of the plus
side) · sign. The gains follow fishtest's SPSA: for N iterations, c_k = c_end · (N / k)^0.101
and a_k = a_end · ((A + N) / (A + k))^0.602 with a_end = r_end · c_end² and A = N / 10, so
that the last step of a parameter is about r_end · c_end per unit of result.

    scripts/studies/spsa.py --engine BIN --match MATCH --iterations N [--pairs 2] \\
        [--nodes 20000 | --tc 5+0.05] [--openings FILE] [--fixed OVERRIDES] \\
        [--param name=start,min,max,c_end,r_end …] [--r-scale X] [--log FILE] [--seed S]

Without --param the margins and reductions of chess's search are tuned (the list PARAMS
below). Each iteration prints its number, the result and theta; the last line is the tuned
values as a `KIEBITZ_SEARCH=…` text, which an SPRT then tests against the defaults (the tuned
values are kept only by that SPRT, docs/search-log.md).
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

# name, start, min, max, c_end, r_end (chess's defaults as the start).
PARAMS = [
    ("reverse_futility_margin", 80, 30, 200, 8, 0.002),
    ("futility_margin", 110, 40, 250, 10, 0.002),
    ("see_noisy_margin", 90, 30, 200, 8, 0.002),
    ("see_quiet_margin", 25, 5, 80, 3, 0.002),
    ("lmr_base", 75, -50, 200, 12, 0.002),
    ("lmr_divisor", 225, 150, 400, 15, 0.002),
    ("aspiration_window", 25, 8, 60, 3, 0.002),
]


def parse_param(text):
    name, values = text.split("=", 1)
    start, lo, hi, c_end, r_end = values.split(",")
    return (name, float(start), float(lo), float(hi), float(c_end), float(r_end))


def overrides(names, values, fixed):
    parts = [fixed] if fixed else []
    parts += [f"{n}={int(round(v))}" for n, v in zip(names, values)]
    return ",".join(parts)


def wrapper(directory, name, engine, text):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nKIEBITZ_SEARCH={text} exec {engine} \"$@\"\n")
    os.chmod(path, 0o755)
    return path


def play(args, plus, minus, seed, directory):
    """Plays the pairs; returns wins − losses of the plus side."""
    a = wrapper(directory, "plus.sh", args.engine, plus)
    b = wrapper(directory, "minus.sh", args.engine, minus)
    limit = ["--nodes", str(args.nodes)] if args.tc is None else ["--tc", args.tc]
    cmd = [args.match, "--game", "chess",
           "--engine", f"cmd={a}", "name=plus", "option.Hash=16",
           "--engine", f"cmd={b}", "name=minus", "option.Hash=16",
           *limit, "--games", "2", "--rounds", str(args.pairs),
           "--concurrency", str(args.concurrency),
           "--openings", f"file={args.openings}", "order=random", "--seed", str(seed),
           "--draw", "movenumber=34", "movecount=8", "score=15",
           "--resign", "movecount=3", "score=600", "twosided=true"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    scores = re.findall(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)", out)
    if not scores:
        sys.exit(f"no score in kiebitz-match's output:\n{out[-2000:]}")
    wins, losses, _ = map(int, scores[-1])
    return wins - losses


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--match", required=True)
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("--pairs", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--tc", default=None)
    ap.add_argument("--openings", default="tests/data/chess-openings-wide.epd")
    ap.add_argument("--fixed", default="", help="overrides held fixed on both sides")
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-scale", type=float, default=1.0,
                    help="times every r_end (short runs need larger steps)")
    ap.add_argument("--log", default=None)
    args = ap.parse_args()
    params = [parse_param(p) for p in args.param] or PARAMS
    names = [p[0] for p in params]
    theta = [p[1] for p in params]
    n = args.iterations
    big_a = n / 10
    rng = random.Random(args.seed)
    log = open(args.log, "a") if args.log else None
    with tempfile.TemporaryDirectory() as directory:
        for k in range(1, n + 1):
            signs = [rng.choice((-1, 1)) for _ in params]
            plus, minus, c_ks = [], [], []
            for (name, _, lo, hi, c_end, r_end), t, s in zip(params, theta, signs):
                c_k = c_end * (n / k) ** 0.101
                c_ks.append(c_k)
                plus.append(min(hi, max(lo, t + c_k * s)))
                minus.append(min(hi, max(lo, t - c_k * s)))
            result = play(args, overrides(names, plus, args.fixed),
                          overrides(names, minus, args.fixed), args.seed * 100000 + k, directory)
            for i, ((name, _, lo, hi, c_end, r_end), s) in enumerate(zip(params, signs)):
                a_k = args.r_scale * r_end * c_end ** 2 * ((big_a + n) / (big_a + k)) ** 0.602
                theta[i] = min(hi, max(lo, theta[i] + a_k / c_ks[i] * result * s))
            line = f"{k} {result:+d} " + " ".join(f"{nm}={t:.1f}" for nm, t in zip(names, theta))
            print(line, flush=True)
            if log:
                print(line, file=log, flush=True)
    print("KIEBITZ_SEARCH=" + overrides(names, theta, args.fixed))


if __name__ == "__main__":
    main()
