#!/usr/bin/env python3
"""Positions from seeded random play and their perft counts, by python-chess.

An independent oracle for kiebitz's chess move generator (tests/chess_python.rs). Prints one
line per position: `FEN;perft1;perft2;perft3`, where perft3 is `-` for positions that only get
the two shallow counts (to keep the run short). Usage: chess_random_perft.py [SEED] [COUNT]
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


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20260101
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(seed)
    made = 0
    seen = set()
    while made < count:
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
        fen = board.fen()
        if fen in seen:
            continue
        seen.add(fen)
        counts = [perft(board, 1), perft(board, 2)]
        deep = str(perft(board, 3)) if made % 4 == 0 else "-"
        print(f"{fen};{counts[0]};{counts[1]};{deep}")
        made += 1


if __name__ == "__main__":
    main()
