#!/usr/bin/env python3
"""Checks a kiebitz proof of antichess (`kiebitz-proof 1`, variant antichess, a `winner`) with
an independent move generator and rules: python-chess's `chess.variant.AntichessBoard`.

Depth first from the root, positions identified by python-chess's own FEN without the clocks
(en passant written only where the capture is legal, so kiebitz's and python-chess's FENs meet):
where the winner is to move, the proof's move for the position must be legal and is followed;
where the loser is, every legal move is followed. A position where the game is over must be a
win for the winner by python-chess's rules (no move left: the side to move wins); a drawn end
(python-chess's insufficient material: bishops on squares of different colours), a line that
comes back to a position on it (a repetition) or a line longer than the 50-move rule allows
from the root's clock fails the proof.

    python3 scripts/oracles/check_antichess_proof_pychess.py FILE

Prints one line and exits 0 if the proof holds, 1 (with the failing position) if not.
"""
import os
import sys

import chess
import chess.variant

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import kiebitz_certificate  # noqa: E402


def identity(board):
    return " ".join(board.fen(en_passant="legal").split()[:4])


def read(path):
    head, nodes = kiebitz_certificate.read(path, ["winner"])
    if head.get("variant") != "antichess":
        sys.exit(f"{path}: a proof of {head.get('variant')}, not of antichess")
    return head, nodes


class Checker:
    def __init__(self, winner, chosen, clock_left):
        self.winner = winner
        self.chosen = chosen
        self.clock_left = clock_left
        self.proven = set()
        self.plies = 0

    def walk(self, board, on_line, depth):
        """None if the winner wins from `board` by the proof, else why not."""
        key = identity(board)
        if key in self.proven:
            return None
        if key in on_line:
            return f"{board.fen()}: the line repeats a position (a draw, not a win)"
        if board.is_game_over(claim_draw=False):
            outcome = board.outcome(claim_draw=False)
            if outcome is None or outcome.winner != self.winner:
                return f"{board.fen()}: the game ends without the winner's win ({outcome})"
            self.proven.add(key)
            return None
        if board.halfmove_clock >= 100 or depth > 600:
            return f"{board.fen()}: the 50-move rule ends the line first"
        self.plies = max(self.plies, depth + 1)
        if board.turn == self.winner:
            text = self.chosen.get(key)
            moves = [m for m in board.legal_moves if text and m.uci() == text]
            if not moves:
                return f"{board.fen()}: the proof's move {text} is missing or not legal"
        else:
            moves = list(board.legal_moves)
        on_line.add(key)
        for move in moves:
            board.push(move)
            why = self.walk(board, on_line, depth + 1)
            board.pop()
            if why:
                return why
        on_line.discard(key)
        self.proven.add(key)
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    head, nodes = read(sys.argv[1])
    chosen = {}
    for fen, move in nodes:
        chosen[identity(chess.variant.AntichessBoard(fen))] = move
    board = chess.variant.AntichessBoard(head["root"])
    winner = chess.WHITE if head["winner"] == "white" else chess.BLACK
    checker = Checker(winner, chosen, 100 - board.halfmove_clock)
    sys.setrecursionlimit(10000)
    why = checker.walk(board, set(), 0)
    if why:
        print(f"the proof fails: {why}")
        return 1
    print(f"proof holds (python-chess {chess.__version__}): {head['winner']} wins from "
          f"{head['root']} ({len(checker.proven)} positions, longest line {checker.plies} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
