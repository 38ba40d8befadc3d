#!/usr/bin/env python3
"""Replays the three moves of the Räuberschach game kiebitz forfeited on time at 1+0.01
(docs/raeuber.md, "Screening the existing switches") in one kiebitz-raeuber process, ROUNDS
times, with the game's clocks, and reports every answer to the third `go` slower than 0.15 s
with the time of its first and last output lines (the search's `info` lines start after the
oracle, so a wait before the first one is spent before alpha-beta). Run it at normal priority
on an idle core: a starved process shows delays that are not the engine's.

    scripts/studies/raeuber-forfeit-replay.py ENGINE [ROUNDS]
"""
import os
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
engine, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Uci  # noqa: E402

kiebitz = Uci(engine)
send = kiebitz.send
t0 = time.time()


def until(prefix):
    """The lines up to the one starting with `prefix`, each with its time since t0."""
    return [(round(time.time() - t0, 3), line[:60]) for line in kiebitz.until(prefix)]


send("uci")
until("uciok")
send("setoption name Hash value 64")
send("isready")
until("readyok")
fen = "rqk1nr/1pppbp/p5/2P3/PP1PPP/RQKB1R b - - 0 1"
worst = 0.0
for i in range(rounds):
    send("ucinewgame")
    send("isready")
    until("readyok")
    send(f"position fen {fen}")
    send("go wtime 1000 btime 1000 winc 10 binc 10")
    until("bestmove")
    send(f"position fen {fen} moves e5c3 b2c3")
    send("go wtime 1000 btime 995 winc 10 binc 10")
    until("bestmove")
    send(f"position fen {fen} moves e5c3 b2c3 c5c4 b1b5")
    t0 = time.time()
    send("go wtime 950 btime 960 winc 10 binc 10")
    lines = until("bestmove")
    dt = time.time() - t0
    worst = max(worst, dt)
    if dt > 0.15:
        print(f"round {i}: {dt:.3f} s; first {lines[0]}, last {lines[-1]}", flush=True)
print(f"worst answer {worst:.3f} s in {rounds} rounds")
send("quit")
