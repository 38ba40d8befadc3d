#!/usr/bin/env python3
"""Cross-checks kiebitz's Räuberschach move generation against Fairy-Stockfish.

Plays random games from the start position (moves chosen at random among kiebitz's legal
moves), and at the end of each compares, with Fairy-Stockfish using tests/data/fairy-variants.ini:
the board and side to move (Fairy's `d` FEN) and the perft divide at a given depth, move by
move. Any difference is printed with the moves that reach the position, and the exit code is 1.

Usage (from the repository root, after `cargo build --release --example raeuber_perft`):
    scripts/oracles/raeuber-fairy-divide.py [--games 200] [--depth 4] [--max-plies 70] [--seed 1]
        [--fairy /usr/games/fairy-stockfish]
"""

import argparse
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KIEBITZ = ROOT / "target/release/examples/raeuber_perft"
INI = ROOT / "tests/data/fairy-variants.ini"
DIVIDE_LINE = re.compile(r"^[a-f][1-6][a-f][1-6][a-z]?: [0-9]+$")


def kiebitz_divide(moves, depth):
    """kiebitz's FEN and divide {move: count} after `moves` from the start."""
    out = subprocess.run(
        [str(KIEBITZ), str(depth), "startpos", "--divide", "--moves", *moves],
        capture_output=True, text=True, check=True,
    ).stdout
    fen, split = None, {}
    for line in out.splitlines():
        if line.startswith("Fen: "):
            fen = line[5:].strip()
        elif ": " in line and not line.startswith("Nodes"):
            mv, n = line.split(": ")
            split[mv] = int(n)
    return fen, split


def fairy_divide(fairy, moves, depth):
    """Fairy-Stockfish's FEN and divide after `moves` from the start."""
    script = "\n".join([
        f"setoption name VariantPath value {INI}",
        "setoption name UCI_Variant value raeuberschach",
        "position startpos moves " + " ".join(moves),
        "d",
        f"go perft {depth}",
        "quit",
    ]) + "\n"
    out = subprocess.run([fairy], input=script, capture_output=True, text=True,
                         check=True).stdout
    fen, split = None, {}
    for line in out.splitlines():
        if line.startswith("Fen: "):
            fen = line[5:].strip()
        elif DIVIDE_LINE.match(line):
            # Only `move: count` lines: newer builds print more `Name: value` lines with `d`
            # (`Chased:` since 2022), some of them empty.
            mv, n = line.split(": ")
            split[mv] = int(n)
    return fen, split


def board_and_side(fen):
    return " ".join(fen.split()[:2]) if fen else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=70)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    nodes = 0
    positions = 0
    for game in range(args.games):
        moves = []
        plies = rng.randint(0, args.max_plies)
        for _ in range(plies):
            _, legal = kiebitz_divide(moves, 1)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        kfen, ksplit = kiebitz_divide(moves, args.depth)
        ffen, fsplit = fairy_divide(args.fairy, moves, args.depth)
        positions += 1
        nodes += sum(ksplit.values())
        if board_and_side(kfen) != board_and_side(ffen) or ksplit != fsplit:
            failures += 1
            print(f"MISMATCH game {game}: moves {' '.join(moves)}")
            print(f"  kiebitz {kfen}\n  fairy   {ffen}")
            for mv in sorted(set(ksplit) | set(fsplit)):
                if ksplit.get(mv) != fsplit.get(mv):
                    print(f"  {mv}: kiebitz {ksplit.get(mv)} fairy {fsplit.get(mv)}")
    print(f"{positions} positions, depth {args.depth}, {nodes} nodes compared, "
          f"{failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
