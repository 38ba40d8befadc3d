#!/usr/bin/env python3
"""Forced-win suite for Räuberschach engines: how many announced wins an engine finds in time.

Each line of a suite file is `FEN;moves;N`: the position after the moves is one where
Fairy-Stockfish announced a forced win (`+M N`) for the side to move in the 10+0.1 matches of
docs/raeuber.md. The engine searches each position for MOVETIME ms; a position counts as
solved when the last score reported is a win (`score mate` > 0), and the time of the first
report of that winning streak is its time-to-win.

    scripts/studies/raeuber-win-suite.py ENGINE MOVETIME_MS [SUITE] [OVERRIDES]

SUITE defaults to tests/data/raeuber-early-wins.txt (75 positions in the first four moves
after the opening, Fairy-Stockfish announcing mate in 6 or more); the other file,
tests/data/raeuber-late-wins.txt, has 178 positions where either engine first announced a win.
OVERRIDES go to kiebitz through the KIEBITZ_SEARCH environment variable (e.g.
`forcing_extension=0,qsearch_forcing_plies=4`). An ENGINE whose path contains `fairy` gets the
variant file tests/data/fairy-variants.ini. SOLVER_SHARE=N in the environment sets kiebitz's
`Solver Share` (its default is 0 since 2026-11-26; the df-pn oracle's figures of
docs/raeuber.md were measured with 10). VARIANT=antichess in the environment scores an
antichess suite (tests/data/antichess-wins.txt, lines `FEN;;N`) with `UCI_Variant antichess`.
"""
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if len(sys.argv) < 3:
    sys.exit(__doc__)
engine, movetime = sys.argv[1], int(sys.argv[2])
suite = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "tests/data/raeuber-early-wins.txt")
overrides = sys.argv[4] if len(sys.argv) > 4 else ""
env = dict(os.environ)
if overrides:
    env["KIEBITZ_SEARCH"] = overrides
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Uci  # noqa: E402

engine_process = Uci(engine, env=env, stderr=subprocess.DEVNULL)
send, read_until = engine_process.send, engine_process.until


send("uci")
read_until("uciok")
if "fairy" in os.path.basename(engine):
    send(f"setoption name VariantPath value {root}/tests/data/fairy-variants.ini")
send(f"setoption name UCI_Variant value {os.environ.get('VARIANT', 'raeuberschach')}")
send("setoption name Hash value 64")
if os.environ.get("SOLVER_SHARE") and "fairy" not in os.path.basename(engine):
    send(f"setoption name Solver Share value {os.environ['SOLVER_SHARE']}")
solved, total, time_sum, depths = 0, 0, 0, []
for entry in open(suite):
    if not entry.strip() or entry.startswith("#"):
        continue
    fen, moves, _mate = entry.strip().split(";")
    send("ucinewgame")
    send(f"position fen {fen}" + (f" moves {moves}" if moves else ""))
    send("isready")
    read_until("readyok")
    send(f"go movetime {movetime}")
    first_win, depth = None, 0
    for line in read_until("bestmove"):
        words = line.split()
        if "score" not in words or "depth" not in words:
            continue
        depth = int(words[words.index("depth") + 1])
        kind, value = words[words.index("score") + 1: words.index("score") + 3]
        if kind == "mate" and int(value) > 0:
            if first_win is None:
                first_win = int(words[words.index("time") + 1]) if "time" in words else 0
        else:
            first_win = None
    total += 1
    depths.append(depth)
    if first_win is not None:
        solved += 1
        time_sum += first_win
send("quit")
depths.sort()
print(f"{overrides or 'defaults'}: solved {solved}/{total}, mean time-to-win "
      f"{time_sum / max(solved, 1):.0f} ms, median depth {depths[len(depths) // 2]}")
