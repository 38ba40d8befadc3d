#!/usr/bin/env python3
"""python-chess as a real client of a kiebitz chess engine (UCI and XBoard).

Usage: python_chess_client.py ENGINE_BINARY

Plays two short games over UCI (chess.engine.SimpleEngine.popen_uci) and two over XBoard
(popen_xboard), every move checked legal by python-chess, each ending with a result or at a ply
cap, then a Chess960 game over each protocol (a board with chess960=True: python-chess sets
UCI_Chess960 / `variant fischerandom` itself and reads castling as the king taking its rook);
then runs engine.analyse over both protocols. Prints one line per check,
`KEY value...`, for tests/python_chess_client.rs to assert; exits non-zero on any failure.
"""
import sys

import chess
import chess.engine

PLY_CAP = 40
OPENINGS = [[], ["e2e4", "c7c5"]]  # the second game starts from a position with moves


def play_games(engine, proto, limit):
    for game_no, opening in enumerate(OPENINGS):
        board = chess.Board()
        for uci in opening:
            board.push_uci(uci)
        while not board.is_game_over(claim_draw=True) and board.ply() < PLY_CAP:
            result = engine.play(board, limit, game=(proto, game_no))
            move = result.move
            if move is None or move not in board.legal_moves:
                raise SystemExit(f"{proto} game {game_no}: illegal move {move} in {board.fen()}")
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        end = outcome.result() if outcome else "cap"
        print(f"GAME {proto} {game_no} plies {board.ply()} end {end}")


# Chess960 start positions with the king next to a rook on both wings, so castling comes early.
CHESS960_STARTS = [
    "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1",
    "nqbbrkrn/pppppppp/8/8/8/8/PPPPPPPP/NQBBRKRN w KQkq - 0 1",
]


def play_chess960(engine, proto, limit):
    for game_no, fen in enumerate(CHESS960_STARTS):
        board = chess.Board(fen, chess960=True)
        castled = 0
        while not board.is_game_over(claim_draw=True) and board.ply() < PLY_CAP:
            result = engine.play(board, limit, game=(proto, "960", game_no))
            move = result.move
            if move is None or move not in board.legal_moves:
                raise SystemExit(f"{proto} chess960: illegal move {move} in {board.fen()}")
            castled += board.is_castling(move)
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        end = outcome.result() if outcome else "cap"
        print(f"CHESS960 {proto} {game_no} plies {board.ply()} end {end} castlings {castled}")


def check_analysis(engine, proto, limit):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, limit)
    depth = info.get("depth")
    score = info.get("score")
    pv = info.get("pv") or []
    for move in pv:
        if move not in board.legal_moves:
            raise SystemExit(f"{proto} analyse: illegal pv move {move} in {board.fen()}")
        board.push(move)
    cp = score.white().score(mate_score=100000) if score is not None else None
    print(f"ANALYSE {proto} depth {depth} score {cp} pv {len(pv)} {' '.join(m.uci() for m in pv)}")


def main():
    binary = sys.argv[1]
    with chess.engine.SimpleEngine.popen_uci(binary) as engine:
        print(f"NAME uci {engine.id.get('name')}")
        print(f"MULTIPV uci {'yes' if 'MultiPV' in engine.options else 'no'}")
        print(f"PONDER uci {'yes' if 'Ponder' in engine.options else 'no'}")
        engine.configure({"Hash": 8})
        play_games(engine, "uci", chess.engine.Limit(time=0.02))
        play_chess960(engine, "uci", chess.engine.Limit(time=0.02))
        check_analysis(engine, "uci", chess.engine.Limit(depth=6))
    with chess.engine.SimpleEngine.popen_xboard(binary) as engine:
        print(f"NAME xboard {engine.id.get('name')}")
        play_games(engine, "xboard", chess.engine.Limit(depth=3))
        play_chess960(engine, "xboard", chess.engine.Limit(depth=3))
        check_analysis(engine, "xboard", chess.engine.Limit(depth=5))
    print("DONE")


if __name__ == "__main__":
    main()
