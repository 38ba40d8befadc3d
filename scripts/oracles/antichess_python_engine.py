#!/usr/bin/env python3
"""python-chess driving kiebitz-antichess as lichess-bot does: `chess.engine` over UCI, games
from `chess.variant.AntichessBoard` (python-chess sends `UCI_Variant antichess` itself), clocks
with increments, `Move Overhead` set as lichess-bot sets it, ponder on and off.

Usage: antichess_python_engine.py ENGINE_BINARY [GAMES] [BASE_S] [INC_S] [OVERHEAD_MS]

Two processes of the engine play GAMES whole games against each other (colours alternating;
the even games with ponder=True, so python-chess sends `go ponder` and `ponderhit`/`stop`, the
odd ones without). The clock is kept here as lichess keeps it: each side's time falls by the
time its `play` took and rises by the increment; below zero the game is lost on time. Every
move is checked legal by python-chess. A game ends by the rules (python-chess's outcome with
draws claimed: no move, threefold, 50 moves, opposite bishops) or at 400 plies.
Prints `VARIANT name`, `GAME n ponder P plies N end R reason W`, then
`PONDER go_ponder N ponderhit N stop N` and `DONE`; exits non-zero on an illegal move or an
engine error.
"""
import logging
import sys
import time

import chess
import chess.engine
import chess.variant

PLY_CAP = 400
COUNTS = {}


class Count(logging.Handler):
    """Counts the commands python-chess writes to an engine (its `<<` debug lines)."""

    def emit(self, record):
        msg = record.getMessage()
        if "<<" not in msg:
            return
        line = msg.split("<<", 1)[1].strip()
        for key in ("go ponder", "ponderhit", "stop"):
            if line == key or line.startswith(key + " "):
                COUNTS[key] = COUNTS.get(key, 0) + 1


def play_game(engines, game, base, inc):
    board = chess.variant.AntichessBoard()
    clock = [base, base]
    ponder = game % 2 == 0
    end = reason = None
    while board.ply() < PLY_CAP:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            end, reason = outcome.result(), outcome.termination.name.lower()
            break
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(white_clock=clock[0], black_clock=clock[1],
                                   white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engines[(side + game) % 2].play(board, limit, ponder=ponder, game=game)
        clock[side] += inc - (time.monotonic() - start)
        if result.move is None or result.move not in board.legal_moves:
            raise SystemExit(f"game {game}: illegal move {result.move} in {board.fen()}")
        board.push(result.move)
        if clock[side] < 0:
            end, reason = ("0-1" if side == 0 else "1-0"), "time"
            break
    end = end or "*"
    reason = reason or "cap"
    print(f"GAME {game} ponder {int(ponder)} plies {board.ply()} end {end} reason {reason}",
          flush=True)


def main():
    binary = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    base = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    inc = float(sys.argv[4]) if len(sys.argv) > 4 else 0.05
    overhead = int(sys.argv[5]) if len(sys.argv) > 5 else 100
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(Count())
    engines = [chess.engine.SimpleEngine.popen_uci(binary) for _ in range(2)]
    try:
        variants = engines[0].options["UCI_Variant"].var
        print(f"VARIANT {' '.join(variants)}", flush=True)
        for engine in engines:
            engine.configure({"Move Overhead": overhead, "Hash": 16})
        for game in range(games):
            play_game(engines, game, base, inc)
    finally:
        for engine in engines:
            engine.quit()
    c = COUNTS
    print(f"PONDER go_ponder {c.get('go ponder', 0)} ponderhit {c.get('ponderhit', 0)} "
          f"stop {c.get('stop', 0)}", flush=True)
    print("DONE")


if __name__ == "__main__":
    main()
