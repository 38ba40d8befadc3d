#!/usr/bin/env python3
"""How long kiebitz-chess and Stockfish think on the first move out of the book under a game
clock: the first N positions of tests/data/chess-openings.epd, each searched once with both
clocks full (python-chess `Limit(white_clock=…, white_inc=…)`), at 5+0.05 and 10+0.1, each with
Move Overhead 10 and 100 ms; prints the mean time a move and the mean depth for both engines
(docs/chess.md, "Time at short controls"). Stockfish plays at `UCI_Elo` ELO.

usage: time-probe.py KIEBITZ [N] [ELO] [STOCKFISH]      (N 10, ELO 2400, stockfish on PATH)
"""
import shutil
import sys
import time

import chess
import chess.engine


def probe(cmd, options, fens, base, inc):
    """Mean seconds and mean depth of one move from each of `fens` at base+inc."""
    engine = chess.engine.SimpleEngine.popen_uci(cmd)
    engine.configure(options)
    seconds, depths = [], []
    for fen in fens:
        start = time.monotonic()
        result = engine.play(
            chess.Board(fen),
            chess.engine.Limit(white_clock=base, black_clock=base, white_inc=inc, black_inc=inc),
            info=chess.engine.INFO_BASIC,
        )
        seconds.append(time.monotonic() - start)
        depths.append(result.info.get("depth", 0))
    engine.quit()
    return sum(seconds) / len(seconds), sum(depths) / len(depths)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kiebitz = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    elo = int(sys.argv[3]) if len(sys.argv) > 3 else 2400
    stockfish = sys.argv[4] if len(sys.argv) > 4 else (
        shutil.which("stockfish") or "/usr/games/stockfish")
    with open("tests/data/chess-openings.epd") as f:
        fens = [line.strip() for line in f if line.strip()][:count]
    for base, inc in [(5, 0.05), (10, 0.1)]:
        for overhead in (10, 100):
            sf = probe(stockfish, {"UCI_LimitStrength": True, "UCI_Elo": elo, "Hash": 64,
                                   "Move Overhead": overhead}, fens, base, inc)
            kb = probe(kiebitz, {"Hash": 64, "Move Overhead": overhead}, fens, base, inc)
            print(f"{base}+{inc} overhead {overhead}: Stockfish {sf[0] * 1000:.0f} ms depth "
                  f"{sf[1]:.1f}; kiebitz {kb[0] * 1000:.0f} ms depth {kb[1]:.1f}", flush=True)


if __name__ == "__main__":
    main()
