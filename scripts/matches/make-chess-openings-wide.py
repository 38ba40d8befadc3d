#!/usr/bin/env python3
"""Writes tests/data/chess-openings-wide.epd: the 100 positions of tests/data/chess-openings.epd,
each followed by two random legal plies (one FEN a line, as that file), kept when Stockfish at a small depth scores them
within a margin for the side to move; PER positions of each opening, no position twice.

Why: a fixed-node match is deterministic. With the 100 openings (200 games with colours
swapped) an SPRT of 1,000 games replays the same games five times and its error bars are
too narrow; these 2,000 distinct positions keep every game of such an SPRT its own.

    python3 scripts/matches/make-chess-openings-wide.py [PER] [SEED] [DEPTH] [MARGIN] \
        > tests/data/chess-openings-wide.epd

Defaults: PER 20, SEED 1, DEPTH 8, MARGIN 100 (centipawns). Needs python-chess and Stockfish
(`stockfish` on PATH or /usr/games/stockfish).
"""
import random
import shutil
import sys

import chess
import chess.engine


def main():
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    margin = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    rng = random.Random(seed)
    sf = shutil.which("stockfish") or "/usr/games/stockfish"
    engine = chess.engine.SimpleEngine.popen_uci(sf)
    engine.configure({"Hash": 16, "Threads": 1})
    seen = set()
    with open("tests/data/chess-openings.epd") as f:
        starts = [line.strip() for line in f if line.strip()]
    for fen in starts:
        board = chess.Board(fen)
        kept, tries = 0, 0
        while kept < per and tries < 40 * per:
            tries += 1
            b = board.copy()
            for _ in range(2):
                moves = list(b.legal_moves)
                if not moves:
                    break
                b.push(rng.choice(moves))
            if b.is_game_over() or b.epd() in seen:
                continue
            info = engine.analyse(b, chess.engine.Limit(depth=depth))
            score = info["score"].relative
            if score.is_mate() or abs(score.score()) > margin:
                continue
            seen.add(b.epd())
            print(b.fen())
            kept += 1
    engine.quit()


if __name__ == "__main__":
    main()
