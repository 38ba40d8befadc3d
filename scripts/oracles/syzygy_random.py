#!/usr/bin/env python3
"""Random legal tablebase positions with python-chess's Syzygy verdicts, for tests/syzygy.rs.

    syzygy_random.py SEED COUNT TABLE_DIR

Prints COUNT lines `FEN;WDL;DTZ`, spread over KQvK, KRvK, KPvK, KRvKP and KQvKR (either side
stronger, either side to move), each from `chess.syzygy` probing the tables in TABLE_DIR.
Positions where the game is over (no legal move) are left out: the rules decide them.
"""
import random
import sys

import chess
import chess.syzygy

MATERIAL = ["KQvK", "KRvK", "KPvK", "KRvKP", "KQvKR"]


def random_position(rng, material):
    white, black = material.split("v")
    if rng.random() < 0.5:
        white, black = black, white
    while True:
        board = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        ok = True
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in pieces:
                kind = chess.PIECE_SYMBOLS.index(letter.lower())
                sq = squares.pop()
                if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece(kind, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid() and not board.is_game_over():
            return board


def main():
    seed, count, tables = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    with chess.syzygy.open_tablebase(tables) as tb:
        for i in range(count):
            board = random_position(rng, MATERIAL[i % len(MATERIAL)])
            print(f"{board.fen()};{tb.probe_wdl(board)};{tb.probe_dtz(board)}")


if __name__ == "__main__":
    main()
