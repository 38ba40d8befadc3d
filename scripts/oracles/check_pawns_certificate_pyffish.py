#!/usr/bin/env python3
"""Checks a kiebitz certificate of pawn chess (`kiebitz-proof 1`: a proof with `winner`, or a
hold with `holder`) with an independent move generator: Fairy-Stockfish's, through pyffish, with
the rule sets of tests/data/fairy-variants.ini (the seed's `pawnsN…` and the pawn game's
`pawngameN…`).

From the root, breadth first, positions identified by pyffish's own FEN without the two clock
fields (pyffish writes an en-passant square only where the capture is legal, kiebitz after every
double step: both are read through pyffish, so they meet; pyffish writes a pawn's arrival
as a promotion, `c4c5q`, kiebitz as `c4c5`): where the certificate's side is to
move, its listed move must be legal and is followed; where the other side is, every legal move
is followed. A position without moves is a game end: for a proof it must be the winner's win,
for a hold it must not be the other side's. Pawn chess is acyclic (every move advances a pawn),
so the walk ends, and a proof's every line ends in the winner's win.

    python3 scripts/oracles/check_pawns_certificate_pyffish.py FILE

Prints one line and exits 0 if the certificate holds, 1 (with the failing position) if not.
"""
import os
import sys

import pyffish as sf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import kiebitz_certificate  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def identity(variant, fen):
    return " ".join(sf.get_fen(variant, fen, []).split()[:-2])


def ending(variant, fen):
    """The game's end for `fen`'s side to move (1 won, 0 drawn, -1 lost), `fen` having no
    moves. A pawn that arrived stands as a queen (pyffish promotes it; its flag rule ends the
    game, but game_result's sign there is not the mover's): that side won. Otherwise
    game_result is the mover's: a side without pawns (the pawn game) lost, a blocked one drew."""
    board, mover = fen.split()[:2]
    for queen, side in (("Q", "w"), ("q", "b")):
        if queen in board:
            return 1 if side == mover else -1
    result = sf.game_result(variant, fen, [])
    return (result > 0) - (result < 0)


def read(path):
    return kiebitz_certificate.read(path, ["winner", "holder"])


def check(variant, root, side, hold, chosen):
    """None if the certificate holds, else why not; and the positions walked, the plies."""
    root = sf.get_fen(variant, root, [])
    seen = {identity(variant, root)}
    level, plies = [root], 0
    while level:
        following = []
        for fen in level:
            moves = sf.legal_moves(variant, fen, [])
            mover = fen.split()[1]
            if not moves:
                result = ending(variant, fen)
                ours = result if mover == side else -result
                if (hold and ours < 0) or (not hold and ours <= 0):
                    return f"{fen}: the game ends with {ours} for the certificate's side", 0, 0
                continue
            if mover == side:
                move = chosen.get(" ".join(fen.split()[:-2]))
                # pyffish writes a pawn's arrival as a promotion (c4c5q), kiebitz as a step.
                moves = [m for m in moves if m[:4] == move]
                if not moves:
                    return f"{fen}: listed move {move} is not legal", 0, 0
            for move in moves:
                after = sf.get_fen(variant, fen, [move])
                key = " ".join(after.split()[:-2])
                if key not in seen:
                    seen.add(key)
                    following.append(after)
        plies += bool(following)
        level = following
    return None, len(seen), plies


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    head, nodes = read(sys.argv[1])
    sf.load_variant_config(open(os.path.join(ROOT, "tests/data/fairy-variants.ini")).read())
    variant, root = head["variant"], head["root"]
    hold = "holder" in head
    name = head["holder"] if hold else head["winner"]
    side = "w" if name == "white" else "b"
    chosen = {identity(variant, fen): move for fen, move in nodes}
    error, positions, plies = check(variant, root, side, hold, chosen)
    if error:
        print(f"the certificate fails: {error}")
        return 1
    other = "black" if name == "white" else "white"
    what = f"{name} keeps {other} from forcing a win" if hold else f"{name} wins"
    print(f"certificate holds (pyffish {'.'.join(map(str, sf.version()))}): {what} from {root} "
          f"({positions} positions, farthest {plies} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
