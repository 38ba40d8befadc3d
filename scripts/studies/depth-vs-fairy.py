#!/usr/bin/env python3
"""Depth and nodes a second of a kiebitz engine beside Fairy-Stockfish on the same positions
(docs/search-log.md, 2026-12-05): `go movetime MS` on each FEN of a file, one engine after the
other, Hash 64, one thread; prints each position's last depth and nodes and the means.

    python3 scripts/studies/depth-vs-fairy.py KIEBITZ FAIRY VARIANT FENS [MS]

VARIANT is Fairy-Stockfish's `UCI_Variant` (antichess, raeuberschach), read with
tests/data/fairy-variants.ini; FENS a file of one FEN a line.
"""
import os
import re
import subprocess
import sys

INI = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "fairy-variants.ini")


def search(cmd, setup, fen, ms):
    """The last `info depth … nodes …` line's depth and nodes of one `go movetime`."""
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"uci\n{setup}isready\nposition fen {fen}\ngo movetime {ms}\n")
    p.stdin.flush()
    depth = nodes = 0
    for line in p.stdout:
        m = re.search(r"info depth (\d+).* nodes (\d+)", line)
        if m and " score " in line:
            depth, nodes = int(m.group(1)), int(m.group(2))
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return depth, nodes


def main():
    kiebitz, fairy, variant, fens = sys.argv[1:5]
    ms = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    ini = os.path.abspath(INI)
    ours = "setoption name Hash value 64\n"
    theirs = (f"setoption name VariantPath value {ini}\nsetoption name UCI_Variant value "
              f"{variant}\nsetoption name Hash value 64\n")
    rows = [l.strip() for l in open(fens) if l.strip()]
    total = [0, 0, 0, 0]
    for fen in rows:
        dk, nk = search([kiebitz], ours, fen, ms)
        df, nf = search([fairy], theirs, fen, ms)
        total = [total[0] + dk, total[1] + nk, total[2] + df, total[3] + nf]
        print(f"{fen[:44]:44} kiebitz d{dk} {nk} nodes | Fairy-Stockfish d{df} {nf} nodes")
    n = len(rows)
    print(f"mean depth kiebitz {total[0] / n:.1f}, {total[1] / n * 1000 / ms / 1e3:.0f} k nodes/s;"
          f" Fairy-Stockfish {total[2] / n:.1f}, {total[3] / n * 1000 / ms / 1e3:.0f} k nodes/s")


if __name__ == "__main__":
    main()
