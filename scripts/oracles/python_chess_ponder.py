#!/usr/bin/env python3
"""python-chess as a pondering client of a kiebitz chess engine (UCI and XBoard).

Usage: python_chess_ponder.py ENGINE_BINARY [GAMES] [PLY_CAP] [BASE_S] [INC_S]

Two processes of the engine play each other under a clock (default 10 s + 0.1 s, 80 plies),
each `play` with ponder=True: python-chess then sends `go ponder` on the expected position
after every `bestmove X ponder Y`, and `ponderhit` or `stop` when the game goes on; over XBoard
it sends `hard` and the engine ponders on its own. Every command python-chess sends is counted
from its debug log. Prints `GAME proto n plies P end R` per game and
`PONDER proto go_ponder N ponderhit N stop N hard N`; exits non-zero on an illegal move.
The clock is kept here (think time less the increment); a time loss is reported, not fatal,
as a loaded machine can cause it.
"""
import logging
import sys
import time

import chess
import chess.engine

COUNTS = {}


class Count(logging.Handler):
    """Counts the commands python-chess writes to an engine (its `<<` debug lines)."""

    def emit(self, record):
        msg = record.getMessage()
        if "<<" not in msg:
            return
        line = msg.split("<<", 1)[1].strip()
        for key in ("go ponder", "ponderhit", "stop", "hard"):
            if line == key or line.startswith(key + " "):
                COUNTS[key] = COUNTS.get(key, 0) + 1


def play(binary, proto, games, ply_cap, base, inc):
    popen = chess.engine.SimpleEngine.popen_uci if proto == "uci" else chess.engine.SimpleEngine.popen_xboard
    engines = [popen(binary), popen(binary)]
    try:
        for game in range(games):
            board = chess.Board()
            clock = [base, base]
            end = None
            while not board.is_game_over(claim_draw=True) and board.ply() < ply_cap:
                side = 0 if board.turn == chess.WHITE else 1
                limit = chess.engine.Limit(white_clock=clock[0], black_clock=clock[1],
                                           white_inc=inc, black_inc=inc)
                start = time.monotonic()
                result = engines[(side + game) % 2].play(board, limit, ponder=True, game=(proto, game))
                clock[side] += inc - (time.monotonic() - start)
                if result.move is None or result.move not in board.legal_moves:
                    raise SystemExit(f"{proto}: illegal move {result.move} in {board.fen()}")
                board.push(result.move)
                if clock[side] < 0:
                    end = "time"
                    break
            outcome = board.outcome(claim_draw=True)
            end = end or (outcome.result() if outcome else "cap")
            print(f"GAME {proto} {game} plies {board.ply()} end {end}", flush=True)
    finally:
        for engine in engines:
            engine.quit()


def main():
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ply_cap = int(sys.argv[3]) if len(sys.argv) > 3 else 80
    base = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
    inc = float(sys.argv[5]) if len(sys.argv) > 5 else 0.1
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(Count())
    for proto in ("uci", "xboard"):
        COUNTS.clear()
        play(binary, proto, games, ply_cap, base, inc)
        c = COUNTS
        print(f"PONDER {proto} go_ponder {c.get('go ponder', 0)} ponderhit {c.get('ponderhit', 0)} "
              f"stop {c.get('stop', 0)} hard {c.get('hard', 0)}", flush=True)


if __name__ == "__main__":
    main()
