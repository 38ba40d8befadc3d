#!/usr/bin/env python3
"""Mate-in-N test positions for `go mate`, checked by python-chess (an independent oracle).

  scripts/oracles/mate-suite.py check [FILE]
      verify every line of FILE (default tests/data/chess-mate3.epd of this repository)
  scripts/oracles/mate-suite.py generate N SEED [MOVES]
      print N random positions with a forced mate in exactly MOVES (default 3) moves

A line is `FEN; mate M; solutions m1 m2 …`: White (or Black) to move mates in M moves and no
fewer, and the solutions are every first move (UCI notation) that forces mate in M moves.
The mate search is a plain and-or search over python-chess's legal moves.
"""
import os
import random
import sys

import chess

DEFAULT_SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                             "data", "chess-mate3.epd")


def mates_in(board, n):
    """Whether the side to move forces checkmate within n moves (n >= 1)."""
    moves = list(board.legal_moves)
    # Checks first: they mate most often and keep the replies few.
    moves.sort(key=lambda m: not board.gives_check(m))
    for m in moves:
        board.push(m)
        try:
            if board.is_checkmate():
                return True
            if n > 1 and not board.is_game_over(claim_draw=False) and all(
                replies_lose(board, r, n - 1) for r in list(board.legal_moves)
            ):
                return True
        finally:
            board.pop()
    return False


def replies_lose(board, reply, n):
    board.push(reply)
    try:
        return mates_in(board, n)
    finally:
        board.pop()


def solutions(board, n):
    """Every first move that forces mate within n moves."""
    found = []
    for m in list(board.legal_moves):
        board.push(m)
        try:
            if board.is_checkmate() or (
                n > 1
                and not board.is_game_over(claim_draw=False)
                and all(replies_lose(board, r, n - 1) for r in list(board.legal_moves))
            ):
                found.append(m.uci())
        finally:
            board.pop()
    return sorted(found)


def exact_mate(board, n):
    """The solutions if the side to move mates in exactly n moves, else None."""
    if any(mates_in(board, k) for k in range(1, n)):
        return None
    sols = solutions(board, n)
    return sols or None


def check(path):
    bad = 0
    count = 0
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        count += 1
        fen, mate, sols = [part.strip() for part in line.split(";")]
        n = int(mate.split()[1])
        expected = sorted(sols.split()[1:])
        got = exact_mate(chess.Board(fen), n)
        if got != expected:
            bad += 1
            print(f"MISMATCH {fen}: file {expected}, python-chess {got}")
    print(f"{count} positions, {bad} mismatches")
    return bad == 0


def random_position(rng):
    white = rng.choice([["Q", "R"], ["R", "R"], ["Q", "B"], ["Q", "N"], ["R", "B", "N"], ["Q"]])
    black = rng.choice([[], ["p"], ["p", "p"], ["n"], ["b", "p"], ["r"], ["p", "p", "p"]])
    board = chess.Board(None)
    squares = rng.sample(range(64), 2 + len(white) + len(black))
    board.set_piece_at(squares[0], chess.Piece.from_symbol("K"))
    board.set_piece_at(squares[1], chess.Piece.from_symbol("k"))
    for sq, sym in zip(squares[2:], white + black):
        if sym.lower() == "p" and chess.square_rank(sq) in (0, 7):
            return None
        board.set_piece_at(sq, chess.Piece.from_symbol(sym))
    board.turn = chess.WHITE
    if not board.is_valid() or board.is_check() or board.is_game_over():
        return None
    return board


def generate(count, seed, n):
    rng = random.Random(seed)
    made = 0
    while made < count:
        board = random_position(rng)
        if board is None:
            continue
        sols = exact_mate(board, n)
        if sols:
            print(f"{board.fen()}; mate {n}; solutions {' '.join(sols)}")
            sys.stdout.flush()
            made += 1


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "generate":
        generate(int(args[1]), int(args[2]), int(args[3]) if len(args) > 3 else 3)
    else:
        sys.exit(0 if check(args[1] if len(args) > 1 else DEFAULT_SUITE) else 1)
