#!/usr/bin/env python3
"""Pawn-chess perft by Fairy-Stockfish's move generator (pyffish) with the kiebitz definitions
in tests/data/fairy-variants.ini: an independent check of kiebitz-pawns' rules (tests/perft_pawns.rs).

Reads lines `variant;fen;depth` on stdin and answers each with one line: the number of leaf
positions `depth` plies down (a position where the game is over has no moves: pyffish lists
none once a pawn has arrived or, in the pawn game, a side has no pawns left). `import pyffish`
failing exits with code 3, which the test reads as "oracle not installed".
"""
import os
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit(3)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def perft(variant, fen, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def main():
    sf.load_variant_config(open(os.path.join(ROOT, "tests/data/fairy-variants.ini")).read())
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        variant, fen, depth = line.split(";")
        print(perft(variant, fen, int(depth)), flush=True)


if __name__ == "__main__":
    main()
