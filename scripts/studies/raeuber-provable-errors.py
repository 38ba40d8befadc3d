#!/usr/bin/env python3
"""Where a Räuberschach game was thrown away, provably: the move that turned a win into a loss.

For every decisive game of a PGN (kiebitz-match's, e.g. a match against Fairy-Stockfish), the
positions where the loser was to move are solved from the end backwards with
`kiebitz-raeuber solve` (df-pn; every proof it reports is checked by the move generator
alone). While the loser's position is a proven loss the walk goes on; at the first one that is
a proven *win* for the loser, the position after the loser's move there is solved too: when it
is a proven win for the opponent, that move is a provable error (a won position turned into a
lost one, two checked proofs); when it is a proven draw, a won position turned into a drawn
one. When the first position that is not a proven loss is a proven draw (both sides' holds
checked, docs/solved.md "Holds") and the position after the loser's move there a proven win
for the opponent, that move turned a draw into a loss. An undecided position ends the walk:
the game was lost from the last proven loss on, and what came before is not known at this
budget.

    scripts/studies/raeuber-provable-errors.py PGN [--solver BIN] [--nodes N] [--deep M] [--weak]

--deep M: the first position of the walk that is not a proven loss at N nodes, and the position
after the loser's move there, are solved again at M nodes.

Needs pyffish (moves from SAN, FENs) with tests/data/fairy-variants.ini. Prints one line a
decisive game and a summary by loser on stdout.
"""
import argparse
import os
import re
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import raeuber_solve  # noqa: E402

VARIANT = "raeuberschach"

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("pgn")
ap.add_argument("--solver", default=os.path.join(ROOT, "target/release/kiebitz-raeuber"))
ap.add_argument("--nodes", type=int, default=1_000_000)
ap.add_argument("--deep", type=int, default=0, help="budget for the boundary position")
ap.add_argument("--weak", action="store_true", help="weak proof numbers (solve --weak)")
args = ap.parse_args()

sf.load_variant_config(open(os.path.join(ROOT, "tests/data/fairy-variants.ini")).read())


def games(text):
    for chunk in re.split(r"\n(?=\[Event )", text):
        headers = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        if "Result" not in headers:
            continue
        body = chunk.split("\n\n", 1)[1] if "\n\n" in chunk else ""
        body = re.sub(r"\{[^}]*\}", " ", body)
        sans = [t for t in body.split() if not re.match(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$", t)]
        yield headers, sans


def replay(fen, sans):
    """The FEN before each ply and after the last, and the UCI moves."""
    moves, fens = [], [fen]
    for san in sans:
        here = fens[-1]
        found = [m for m in sf.legal_moves(VARIANT, here, []) if sf.get_san(VARIANT, here, m) == san]
        if len(found) != 1:
            raise ValueError(f"move {san!r} at ply {len(moves) + 1}: {len(found)} matches")
        moves.append(found[0])
        fens.append(sf.get_fen(VARIANT, fen, moves))
    return fens, moves


cache = {}


def solve(fen, nodes=None):
    """'win', 'loss' or 'unknown' for the side to move, with the nodes used."""
    nodes = nodes or args.nodes
    if (fen, nodes) not in cache:
        hash_mb = max(256, min(8192, nodes // 4000))
        cache[fen, nodes] = raeuber_solve.solve(args.solver, fen, nodes, hash_mb, args.weak)
    return cache[fen, nodes]


summary = {}
for headers, sans in games(open(args.pgn).read()):
    result = headers["Result"]
    if result not in ("1-0", "0-1"):
        continue
    loser = headers["Black"] if result == "1-0" else headers["White"]
    fen = headers.get("FEN", sf.start_fen(VARIANT))
    fens, moves = replay(fen, sans)
    loser_white = result == "0-1"
    white_first = fen.split()[1] == "w"
    # Plies (0-based) at which the loser moved.
    loser_plies = [k for k in range(len(moves)) if (k % 2 == 0) == (white_first == loser_white)]
    lost_from, error = None, None
    for k in reversed(loser_plies):
        value, _ = solve(fens[k])
        budget = args.nodes
        if value == "unknown" and args.deep:
            budget = args.deep
            value, _ = solve(fens[k], budget)
        if value == "loss":
            lost_from = k
            continue
        if value in ("win", "draw"):
            after, _ = solve(fens[k + 1], budget)
            kinds = {("win", "win"): "win -> loss", ("win", "draw"): "win -> draw",
                     ("draw", "win"): "draw -> loss"}
            if (value, after) in kinds:
                error = (k, kinds[value, after])
        break
    s = summary.setdefault(loser, {"games": 0, "errors": {}, "lost_from": []})
    s["games"] += 1
    move_no = lambda k: f"{(k + (0 if white_first else 1)) // 2 + 1}{'.' if (k % 2 == 0) == white_first else '...'}"
    if error is not None:
        k, kind = error
        s["errors"][kind] = s["errors"].get(kind, 0) + 1
        line = f"error: {move_no(k)}{sans[k]}, {kind} (both checked)"
    elif lost_from is not None:
        line = f"proven lost from {move_no(lost_from)} (before that undecided at this budget)"
    else:
        line = "not proven lost at any position of the loser"
    if lost_from is not None:
        s["lost_from"].append(lost_from + 1)
    print(f"round {headers.get('Round', '?')}: {loser} lost ({len(moves)} plies); {line}", flush=True)

deep = f", {args.deep} at the boundary" if args.deep else ""
print(f"\nsolver {args.solver}, {args.nodes} nodes a position{deep}{' (weak)' if args.weak else ''}, "
      f"{len(cache)} positions solved")
for loser, s in sorted(summary.items()):
    plies = s["lost_from"]
    mean = sum(plies) / len(plies) if plies else 0
    errors = ", ".join(f"{n} {kind}" for kind, n in sorted(s["errors"].items())) or "none"
    print(f"{loser}: {s['games']} games lost, provable errors: {errors}; "
          f"proven lost from ply {mean:.1f} on average ({len(plies)} games with a proven loss)")
