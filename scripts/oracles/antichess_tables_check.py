#!/usr/bin/env python3
"""Checks positions of kiebitz's antichess endgame tables with python-chess's independent
rules (`chess.variant.AntichessBoard`), one position a line (from FILE, or stdin) as
`kiebitz-antichess tables --dir D --sample N` prints them:

    FEN;value;move=value move=value …;line

For each position: (1) the legal moves are python-chess's, no more, no fewer; (2) the value is
the best of the values the moves reach, one ply further from the end (a win where python-chess
says the side to move has won: no move left), a draw where python-chess sees insufficient
material; (3) for a win or a loss, the line the tables play (the winner hurrying, the loser
holding out) is legal move by move and ends after exactly the plies the value says, with
python-chess naming the same winner. Values: d + 1 won in d plies, -(d + 1) lost in d plies,
0 drawn (for the side to move). Prints one summary line; exit 1 at the first disagreement.

Usage: antichess_tables_check.py [FILE]
"""

import sys

import chess
import chess.variant


def parent(child):
    """The value through a move to a position of value `child` (for the side to move there)."""
    if child == 0:
        return 0
    return -(child + 1) if child > 0 else 1 - child


def rank(v):
    """Order of values for the side to move: a faster win, then a draw, then a longer loss."""
    if v > 0:
        return (2, -v)
    if v == 0:
        return (1, 0)
    return (0, -v)


def check(line):
    fen, value, moves, played = line.rstrip("\n").split(";")
    value = int(value)
    board = chess.variant.AntichessBoard(fen)
    children = dict(m.split("=") for m in moves.split())
    legal = {m.uci() for m in board.legal_moves}
    if legal != set(children):
        return f"{fen}: moves {sorted(children)} but python-chess {sorted(legal)}"
    if not legal:
        want = 1 if board.is_variant_win() else None
    elif board.is_insufficient_material():
        want = 0
    else:
        want = max((parent(int(v)) for v in children.values()), key=rank)
    if want != value:
        return f"{fen}: value {value}, its moves say {want}"
    if value == 0:
        return None
    plies = abs(value) - 1
    mover = board.turn
    for uci in played.split():
        move = chess.Move.from_uci(uci)
        if move not in board.legal_moves:
            return f"{fen}: the line's {uci} is not legal in {board.fen()}"
        board.push(move)
    outcome = board.outcome()
    if len(played.split()) != plies or outcome is None or outcome.winner is None:
        return f"{fen}: the line ends after {len(played.split())} plies ({outcome}), the value says {plies}"
    if (outcome.winner == mover) != (value > 0):
        return f"{fen}: python-chess names the other winner after the line"
    return None


def main():
    counts = {"won": 0, "lost": 0, "drawn": 0}
    source = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    for line in source:
        if not line.strip():
            continue
        error = check(line)
        if error:
            print(f"antichess tables: {error}")
            return 1
        v = int(line.split(";")[1])
        counts["won" if v > 0 else "lost" if v < 0 else "drawn"] += 1
    total = sum(counts.values())
    print(f"antichess tables: {total} positions agree with python-chess "
          f"({counts['won']} won, {counts['lost']} lost, {counts['drawn']} drawn)")
    return 0 if total else 1


if __name__ == "__main__":
    sys.exit(main())
