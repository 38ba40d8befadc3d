#!/usr/bin/env python3
"""Replays the three moves of the Räuberschach game kiebitz forfeited on time (docs/raeuber.md,
"Screening the existing switches") in one kiebitz-raeuber process, ROUNDS times, with the
game's clocks, and reports every answer to the third `go` slower than 0.15 s with the time of
its first and last output lines. An oracle overrun shows as a long wait before the first
`info` (alpha-beta's clock starts after the oracle).

    scripts/raeuber-oracle-overrun.py ENGINE [ROUNDS]
"""
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
engine, rounds = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
t0 = time.time()


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def until(prefix):
    """The lines up to the one starting with `prefix`, each with its time since t0."""
    lines = []
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit("the engine exited")
        lines.append((round(time.time() - t0, 3), line.strip()[:60]))
        if line.startswith(prefix):
            return lines


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
