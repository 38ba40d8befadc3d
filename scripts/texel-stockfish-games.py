#!/usr/bin/env python3
"""Tuning positions from Stockfish self-play, an alternative to `chess-texel selfplay`.

Plays GAMES games of Debian's stockfish against itself at a fixed node count from random
8–11-ply openings and prints `FEN;RESULT` (RESULT 1, 0.5 or 0 for White) for every quiet
position (side to move not in check, the move played not a capture or promotion).
Usage: texel-stockfish-games.py GAMES NODES SEED > positions.txt
"""

import random
import sys

import chess
import chess.engine


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    engine = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    engine.configure({"Threads": 1, "Hash": 16})
    for game in range(games):
        board = chess.Board()
        for _ in range(8 + rng.randrange(4)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        quiet = []
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            move = engine.play(board, chess.engine.Limit(nodes=nodes)).move
            if not board.is_check() and not board.is_capture(move) and not move.promotion:
                quiet.append(board.fen())
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        if outcome is None or outcome.winner is None:
            result = "0.5"
        else:
            result = "1" if outcome.winner == chess.WHITE else "0"
        for fen in quiet:
            print(f"{fen};{result}")
        sys.stdout.flush()
        if game % 50 == 0:
            print(f"game {game}", file=sys.stderr)
    engine.quit()


if __name__ == "__main__":
    main()
