#!/usr/bin/env python3
"""Builds a forced-win suite for antichess from games: positions of the games where
`kiebitz-antichess solve` proves a win for the side to move within a time budget, each proof
checked twice — by `check-proof` (kiebitz's checker) and by python-chess's AntichessBoard
(scripts/oracles/check_antichess_proof_pychess.py, an independent move generator and rules).

    scripts/studies/antichess-win-suite.py ENGINE PGN BUDGET_SECS COUNT MIN_PLIES [EVERY] > SUITE
    scripts/studies/antichess-win-suite.py ENGINE PGN BUDGET_SECS COUNT MIN_PLIES --announced NAME MIN_MATE > SUITE

ENGINE is kiebitz-antichess; PGN holds antichess games (e.g. kiebitz-match's). The first form
tries positions from ply 10 on, every EVERY-th ply (default 3), in the games' order; the second
the position of each game where the engine NAME (a player's name in the PGN) first announced a
forced win of at least MIN_MATE moves in its move comment (`{+M12/20 …}`, as kiebitz-match
writes them), NAME to move. A proven win whose longest line has at least MIN_PLIES plies goes to
the suite as `FEN;;N` (N: the longest line in the winner's moves, an upper bound of the mate
distance), until COUNT are found. A proof either checker refuses stops the script (a bug to
look at). Progress, and the positions not proven in time, go to stderr.
"""
import os
import subprocess
import sys
import tempfile

import chess.pgn
import chess.variant

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "..", "oracles", "check_antichess_proof_pychess.py")


def solve(engine, fen, budget, proof):
    if os.path.exists(proof):
        os.remove(proof)
    out = subprocess.run([engine, "solve", "--fen", fen, "--budget", budget, "--proof", proof],
                         capture_output=True, text=True).stdout
    fields = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
    return fields.get("result", "?").split()[0]


def checked(engine, proof):
    ours = subprocess.run([engine, "check-proof", proof], capture_output=True, text=True)
    theirs = subprocess.run([sys.executable, CHECKER, proof], capture_output=True, text=True)
    if ours.returncode != 0 or theirs.returncode != 0:
        sys.exit(f"a proof was refused:\n{ours.stdout}{ours.stderr}{theirs.stdout}{theirs.stderr}")
    # "… (N positions, longest line P plies)"
    plies = int(theirs.stdout.rsplit("longest line", 1)[1].split()[0])
    return plies


def positions(pgn, every):
    seen = set()
    with open(pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                board.push(move)
                key = " ".join(board.fen().split()[:4])
                if ply + 1 >= 10 and (ply + 1) % every == 0 and key not in seen:
                    seen.add(key)
                    yield board.fen()


def announced(pgn, name, min_mate):
    """The position before each game's first move of `name` whose comment announces a win of
    at least `min_mate` moves."""
    with open(pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            colour = {game.headers.get("White"): chess.WHITE, game.headers.get("Black"): chess.BLACK}
            if name not in colour:
                continue
            board = game.board()
            for node in game.mainline():
                comment = node.comment.strip()
                if board.turn == colour[name] and comment.startswith("+M"):
                    if int(comment[2:].split("/")[0]) >= min_mate:
                        yield board.fen()
                    break
                board.push(node.move)


def main():
    args = sys.argv[1:]
    if len(args) == 8 and args[5] == "--announced":
        source = lambda pgn: announced(pgn, args[6], int(args[7]))  # noqa: E731
    elif len(args) in (5, 6):
        every = int(args[5]) if len(args) == 6 else 3
        source = lambda pgn: positions(pgn, every)  # noqa: E731
    else:
        sys.exit(__doc__)
    engine, pgn, budget, count, min_plies = args[:5]
    proof = os.path.join(tempfile.mkdtemp(), "proof.txt")
    found = tried = 0
    for fen in source(pgn):
        tried += 1
        if solve(engine, fen, budget, proof) != "win":
            print(f"tried {tried}: not proven in {budget} s: {fen}", file=sys.stderr)
            continue
        plies = checked(engine, proof)
        print(f"tried {tried}: win, longest line {plies} plies: {fen}", file=sys.stderr)
        if plies >= int(min_plies):
            print(f"{fen};;{(plies + 1) // 2}", flush=True)
            found += 1
            if found == int(count):
                break
    print(f"{found} positions from {tried} tried", file=sys.stderr)


if __name__ == "__main__":
    main()
