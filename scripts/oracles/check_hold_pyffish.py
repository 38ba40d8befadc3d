#!/usr/bin/env python3
"""Checks a kiebitz hold (`kiebitz-proof 1`, `holder white|black`) of Räuberschach with an
independent move generator: Fairy-Stockfish's, through pyffish, with
tests/data/fairy-variants.ini.

A hold says that the holder keeps the other side from forcing a win (docs/solved.md, "Holds").
From the root, breadth first, positions identified by their FEN without the two clock fields:
where the holder is to move, the listed move must be legal and is followed; where the other
side is, every legal move is followed; a position without moves is a game end, which must not
be the other side's win. Repetitions are allowed (the holder's strategy may go round). A
position of bishops alone, White's all on one colour of squares and Black's on the other, ends
a line too: no capture can ever happen there, so no side can lose its pieces (the draw kiebitz
calls insufficient material; Fairy-Stockfish has no rule for it).

    python3 scripts/oracles/check_hold_pyffish.py FILE

Prints one line and exits 0 if the hold holds, 1 (with the failing position) if not.
"""
import os
import sys

import pyffish as sf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import kiebitz_certificate  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def identity(fen):
    return " ".join(fen.split()[:-2])


def bishops_apart(fen):
    """Only bishops, each side's on one colour complex, the two sides' on different ones."""
    colours = {"B": set(), "b": set()}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch not in colours:
                return False
            colours[ch].add((r + f) % 2)
            f += 1
    w, b = colours["B"], colours["b"]
    return len(w) == 1 and len(b) == 1 and w != b


def read(path):
    head, nodes = kiebitz_certificate.read(path, ["holder"])
    return head, {identity(fen): move for fen, move in nodes}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    head, chosen = read(sys.argv[1])
    sf.load_variant_config(open(os.path.join(ROOT, "tests/data/fairy-variants.ini")).read())
    variant, root = head["variant"], head["root"]
    holder = "w" if head["holder"] == "white" else "b"
    seen = {identity(root)}
    level, plies = [root], 0
    while level:
        following = []
        for fen in level:
            moves = sf.legal_moves(variant, fen, [])
            mover = fen.split()[1]
            if not moves:
                result = sf.game_result(variant, fen, [])
                if (result < 0) == (mover == holder) and result != 0:
                    print(f"the hold fails: {fen}: the game ends, won by the other side")
                    return 1
                continue
            if bishops_apart(fen):
                continue
            if mover == holder:
                move = chosen.get(identity(fen))
                if move not in moves:
                    print(f"the hold fails: {fen}: listed move {move} is not one of {moves}")
                    return 1
                moves = [move]
            for move in moves:
                after = sf.get_fen(variant, fen, [move])
                key = identity(after)
                if key not in seen:
                    seen.add(key)
                    following.append(after)
        plies += bool(following)
        level = following
    side = head["holder"]
    other = "black" if side == "white" else "white"
    print(f"hold holds (pyffish {'.'.join(map(str, sf.version()))}): {side} keeps {other} "
          f"from forcing a win from {root} ({len(seen)} positions, farthest {plies} plies)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
