#!/usr/bin/env python3
"""Positions from seeded random play and their perft counts, by python-chess.

An independent oracle for kiebitz's chess move generator (tests/chess_python.rs). Prints one
line per position: `FEN;perft1;perft2;perft3`, where perft3 is `-` for positions that only get
the two shallow counts (to keep the run short).

Usage: chess_random_perft.py [SEED] [COUNT] [chess960]
       chess_random_perft.py --san [SEED] [COUNT] [chess960]
       chess_random_perft.py --table FILE DEPTH

With `--san` each line is `FEN;uci san;uci san;...` for every legal move (python-chess's SAN,
the UCI text king-takes-rook for Chess960 castling).
With `chess960` the games start from seeded random Chess960 start positions (python-chess with
`chess960=True`) and the FENs alternate between X-FEN and Shredder-FEN castling fields. With
`--table` it prints `FEN;perft1;...;perftDEPTH` for every FEN of a perft reference file
(`variant;fen;depth;nodes` lines, variant chess960 read under Chess960 rules).
"""

import random
import sys

import chess

# Start points: the initial position and positions rich in castling, en passant, promotions
# and pins.
STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPPPNnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/3P1N2/PPP1NPPP/R4RK1 w - - 0 10",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
    "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
]


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def table(path: str, depth: int) -> None:
    seen = set()
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        variant, fen = line.split(";")[:2]
        if fen in seen:
            continue
        seen.add(fen)
        board = chess.Board(fen, chess960=variant == "chess960")
        counts = [str(perft(board, d)) for d in range(1, depth + 1)]
        print(f"{fen};{';'.join(counts)}")


def random_positions(seed: int, count: int, chess960: bool):
    """`count` distinct boards from seeded random play."""
    rng = random.Random(seed)
    made = 0
    seen = set()
    while made < count:
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board(STARTS[made % len(STARTS)])
        for _ in range(rng.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Prefer captures, promotions and double steps now and then, to reach the rare
            # rules more often than uniform random play does.
            special = [
                m
                for m in moves
                if board.is_capture(m)
                or m.promotion
                or board.is_castling(m)
                or (
                    board.piece_type_at(m.from_square) == chess.PAWN
                    and abs(m.to_square - m.from_square) == 16
                )
            ]
            pool = special if special and rng.random() < 0.3 else moves
            board.push(rng.choice(pool))
        fen = board.fen(shredder=chess960 and made % 2 == 1)
        if fen in seen:
            continue
        seen.add(fen)
        yield made, fen, board
        made += 1


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--table":
        table(args[1], int(args[2]))
        return
    san = bool(args) and args[0] == "--san"
    if san:
        args = args[1:]
    seed = int(args[0]) if len(args) > 0 else 20260101
    count = int(args[1]) if len(args) > 1 else 300
    chess960 = len(args) > 2 and args[2] == "chess960"
    for made, fen, board in random_positions(seed, count, chess960):
        if san:
            moves = [f"{board.uci(m, chess960=chess960)} {board.san(m)}" for m in board.legal_moves]
            print(f"{fen};{';'.join(moves)}")
            continue
        counts = [perft(board, 1), perft(board, 2)]
        deep = str(perft(board, 3)) if made % 4 == 0 else "-"
        print(f"{fen};{counts[0]};{counts[1]};{deep}")


if __name__ == "__main__":
    main()
