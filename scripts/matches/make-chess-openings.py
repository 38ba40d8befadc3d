#!/usr/bin/env python3
"""Writes tests/data/chess-openings.epd: balanced positions after common opening lines
(4-8 plies, typed by hand below), one EPD line each, checked legal with python-chess.

    python3 scripts/matches/make-chess-openings.py > tests/data/chess-openings.epd
"""
import sys

import chess

LINES = """
e4 e5 Nf3 Nc6 Bb5 a6
e4 e5 Nf3 Nc6 Bb5 Nf6
e4 e5 Nf3 Nc6 Bc4 Bc5
e4 e5 Nf3 Nc6 Bc4 Nf6
e4 e5 Nf3 Nc6 d4 exd4 Nxd4
e4 e5 Nf3 Nf6 Nxe5 d6
e4 e5 Nf3 d6 d4 Nf6
e4 e5 Nc3 Nf6 f4 d5
e4 e5 Nf3 Nc6 Nc3 Nf6
e4 e5 f4 exf4 Nf3 g5
e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6
e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6
e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6
e4 c5 Nc3 Nc6 g3 g6
e4 c5 c3 Nf6 e5 Nd5
e4 c5 Nf3 d6 Bb5+ Bd7
e4 c5 Nf3 g6 d4 cxd4
e4 e6 d4 d5 Nc3 Nf6
e4 e6 d4 d5 Nd2 c5
e4 e6 d4 d5 e5 c5
e4 e6 d4 d5 Nc3 Bb4
e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5
e4 c6 d4 d5 e5 Bf5
e4 c6 d4 d5 exd5 cxd5
e4 d6 d4 Nf6 Nc3 g6
e4 g6 d4 Bg7 Nc3 d6
e4 d5 exd5 Qxd5 Nc3 Qa5
e4 Nf6 e5 Nd5 d4 d6
d4 d5 c4 e6 Nc3 Nf6
d4 d5 c4 c6 Nf3 Nf6
d4 d5 c4 dxc4 Nf3 Nf6
d4 d5 c4 e6 Nf3 Be7
d4 d5 c4 c6 Nc3 Nf6 e3 e6
d4 d5 Nf3 Nf6 Bf4 e6
d4 d5 Nf3 Nf6 e3 e6
d4 Nf6 c4 e6 Nc3 Bb4
d4 Nf6 c4 e6 Nf3 b6
d4 Nf6 c4 g6 Nc3 Bg7 e4 d6
d4 Nf6 c4 g6 Nc3 d5
d4 Nf6 c4 c5 d5 e6
d4 Nf6 c4 e6 g3 d5
d4 Nf6 c4 g6 g3 Bg7
d4 Nf6 Nf3 g6 Bf4 Bg7
d4 Nf6 Bg5 e6 e4 h6
d4 f5 g3 Nf6 Bg2 g6
d4 e6 c4 b6 Nc3 Bb7
d4 Nf6 c4 e5 dxe5 Ng4
d4 d5 Bf4 Nf6 e3 c5
c4 e5 Nc3 Nf6 Nf3 Nc6
c4 c5 Nc3 Nc6 g3 g6
c4 Nf6 Nc3 e6 e4 d5
c4 e6 Nc3 d5 d4 Be7
c4 Nf6 g3 e6 Bg2 d5
c4 g6 Nc3 Bg7 g3 c5
Nf3 d5 g3 Nf6 Bg2 g6
Nf3 Nf6 c4 b6 g3 Bb7
Nf3 d5 c4 e6 g3 Nf6
Nf3 c5 c4 Nc6 Nc3 Nf6
g3 d5 Bg2 Nf6 Nf3 c6
b3 e5 Bb2 Nc6 e3 Nf6
f4 d5 Nf3 Nf6 e3 g6
e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6
e4 e5 Nf3 Nc6 d4 exd4 Bc4 Nf6
e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6
e4 c5 Nf3 Nc6 Bb5 g6
e4 e6 d4 d5 exd5 exd5
e4 c6 Nc3 d5 Nf3 Bg4
e4 e5 Nf3 Nc6 Bb5 Nd4
d4 Nf6 c4 e6 Nc3 d5 Bg5 Be7
d4 Nf6 c4 c5 d5 b5
d4 d5 c4 Nc6 Nf3 Bg4
d4 Nf6 Nf3 e6 c4 d5
c4 e5 g3 Nf6 Bg2 d5
e4 e5 Bc4 Nf6 d3 c6
e4 Nc6 d4 d5 Nc3 dxe4
d4 g6 c4 Bg7 Nc3 c5
e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6
e4 e5 Nf3 Nc6 Bc4 Be7
e4 e5 d4 exd4 Qxd4 Nc6
e4 e5 Nf3 Nc6 c3 Nf6
e4 c5 Nf3 e6 Nc3 Nc6
e4 c5 Nf3 d6 c3 Nf6
e4 c5 d4 cxd4 c3 Nf6
e4 e6 Nf3 d5 Nc3 Nf6
e4 c6 c4 d5 exd5 cxd5
e4 d6 d4 Nf6 Nc3 e5
e4 e5 Nf3 Nf6 d4 Nxe4
d4 d5 c4 e6 Nc3 c6
d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4
d4 Nf6 c4 e6 Nf3 Bb4+
d4 Nf6 c4 d6 Nc3 e5
d4 Nf6 Nf3 d5 e3 c5
d4 e6 e4 d5 Nd2 Nf6
d4 Nf6 c4 g6 Nf3 Bg7
d4 d5 Nc3 Nf6 Bg5 Nbd7
c4 c6 Nf3 d5 e3 Nf6
c4 e5 Nc3 Nc6 g3 g6
c4 Nf6 Nc3 d5 cxd5 Nxd5
Nf3 Nf6 g3 g6 Bg2 Bg7
Nf3 d5 d4 c5 c3 Nc6
"""


def main():
    seen = set()
    for n, line in enumerate(LINES.strip().splitlines(), 1):
        board = chess.Board()
        for san in line.split():
            board.push_san(san)  # raises on an illegal move
        epd = board.epd()
        if epd in seen:
            sys.exit(f"line {n}: duplicate position: {line}")
        seen.add(epd)
        print(board.fen())


if __name__ == "__main__":
    main()
