#!/usr/bin/env python3
"""Antichess positions from seeded random play, and their perft counts and SAN by two
independent implementations: python-chess's `chess.variant.AntichessBoard` and
Fairy-Stockfish's `antichess` through pyffish. The oracles of kiebitz-antichess
(tests/perft_antichess.rs, docs/antichess.md).

Usage:
  antichess_oracle.py positions SEED COUNT        one FEN a line, from random games
  antichess_oracle.py perft ORACLE FILE MAXNODES  `antichess;fen;depth;nodes` for each FEN
                                                  of FILE, as deep as stays under MAXNODES
                                                  (at least depth 4); ORACLE python-chess,
                                                  pyffish (slow: it replays every line) or
                                                  fairy-stockfish=BINARY (`go perft`)
  antichess_oracle.py count ORACLE FILE           checks every line of a reference file
                                                  (`variant;fen;depth;nodes`) with ORACLE,
                                                  printing `fen;depth;nodes` as it counts
  antichess_oracle.py san SEED COUNT              `FEN;uci san;uci san;…` with every legal
                                                  move's SAN by python-chess, for COUNT random
                                                  positions and a few set ones
"""

import random
import sys

import chess
import chess.variant


# Set positions for the SAN check: promotions (with and without capture, to a king too), en
# passant, and twin pieces that SAN must tell apart.
SET_POSITIONS = [
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/1P4k1/8/8/8/8/6p1/K7 w - - 0 1",
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",
    "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
    "1k6/8/8/3N1N2/8/3N1N2/8/6K1 w - - 0 1",
]


def random_positions(seed: int, count: int) -> list:
    """FENs after a random number of random plies (2 to 60) of random games; a few from late
    in games, where promotions and en passant happen; every position with a legal move."""
    rng = random.Random(seed)
    out = []
    seen = set()
    while len(out) < count:
        board = chess.variant.AntichessBoard()
        plies = rng.randint(2, 60)
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        fen = board.fen()
        if board.is_game_over() or fen in seen:
            continue
        seen.add(fen)
        out.append(fen)
    return out


def python_chess_perft(board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def pyffish_perft(fen: str, moves: list, depth: int) -> int:
    import pyffish

    legal = pyffish.legal_moves("antichess", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(pyffish_perft(fen, moves + [m], depth - 1) for m in legal)


def fairy_perft(binary: str, fen: str, depth: int) -> int:
    """`go perft` of a Fairy-Stockfish binary under `UCI_Variant antichess`."""
    import subprocess

    commands = f"uci\nsetoption name UCI_Variant value antichess\nposition fen {fen}\n" \
        f"go perft {depth}\nquit\n"
    out = subprocess.run([binary], input=commands, capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise SystemExit(f"{binary} gave no perft count for {fen}")


def count(oracle: str, fen: str, depth: int) -> int:
    if oracle.startswith("fairy-stockfish="):
        return fairy_perft(oracle.split("=", 1)[1], fen, depth)
    if oracle == "python-chess":
        return python_chess_perft(chess.variant.AntichessBoard(fen), depth)
    if oracle == "pyffish":
        return pyffish_perft(fen, [], depth)
    raise SystemExit(f"unknown oracle {oracle}: python-chess, pyffish or fairy-stockfish=BINARY")


def fens_of(path: str) -> list:
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line.split(";")[1] if ";" in line else line)
    return out


def main() -> None:
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    if args[0] == "positions":
        for fen in random_positions(int(args[1]), int(args[2])):
            print(fen)
    elif args[0] == "perft":
        oracle, path, budget = args[1], args[2], int(args[3])
        for fen in dict.fromkeys(fens_of(path)):
            depth, nodes = 1, count(oracle, fen, 1)
            # Go deeper while the next depth is likely under the budget (the branching of
            # the last two depths as the estimate), and always to depth 4.
            prev = 1
            while depth < 4 or (nodes * max(nodes // max(prev, 1), 1) <= budget and depth < 8):
                prev, depth = nodes, depth + 1
                nodes = count(oracle, fen, depth)
            print(f"antichess;{fen};{depth};{nodes}", flush=True)
    elif args[0] == "count":
        oracle, path = args[1], args[2]
        for line in open(path, encoding="utf-8"):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            _, fen, depth, _ = line.split(";")
            print(f"{fen};{depth};{count(oracle, fen, int(depth))}", flush=True)
    elif args[0] == "san":
        for fen in random_positions(int(args[1]), int(args[2])) + SET_POSITIONS:
            board = chess.variant.AntichessBoard(fen)
            pairs = [f"{m.uci()} {board.san(m)}" for m in board.legal_moves]
            print(";".join([fen] + pairs))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
