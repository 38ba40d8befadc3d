#!/usr/bin/env python3
"""Balanced Räuberschach openings for matches: random walks of a few plies from the start,
kept when Fairy-Stockfish (tests/data/fairy-variants.ini) at a fixed depth finds no forced
result and a small score. Prints one EPD line per distinct position.

    scripts/matches/raeuber-openings.py COUNT PLIES DEPTH MARGIN SEED > tests/data/raeuber-openings.epd
"""
import os
import random
import sys

count, plies, depth, margin, seed = (int(a) for a in sys.argv[1:6])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Fairy  # noqa: E402

fs = Fairy(hash_mb=16, default="/usr/games/fairy-stockfish")
send, until = fs.send, fs.until
rng = random.Random(seed)
seen = set()
tries = 0
while len(seen) < count:
    tries += 1
    moves = []
    for _ in range(plies):
        send("position startpos moves " + " ".join(moves))
        legal = fs.legal()
        if not legal:
            break
        moves.append(rng.choice(legal))
    if len(moves) < plies:
        continue
    send("position startpos moves " + " ".join(moves))
    fen = fs.fen()
    key = " ".join(fen.split()[:2])
    if key in seen:
        continue
    send(f"go depth {depth}")
    info = [l for l in until("bestmove") if " score " in l]
    if not info:
        continue
    words = info[-1].split()
    kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
    if kind != "cp" or abs(value) > margin:
        continue
    seen.add(key)
    f = fen.split()
    print(f"{f[0]} {f[1]} {f[2]} {f[3]} hmvc {f[4]}; fmvn {f[5]}; c0 \"{' '.join(moves)} cp {value}\";", flush=True)
print(f"{count} openings from {tries} random walks", file=sys.stderr)
send("quit")
