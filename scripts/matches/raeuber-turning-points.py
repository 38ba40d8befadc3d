#!/usr/bin/env python3
"""Where kiebitz's lost Räuberschach games turned, with Fairy-Stockfish as the judge.

    FAIRY=/work/fsf/fairy-stockfish scripts/matches/raeuber-turning-points.py GAMES.pgn [MOVETIME_MS] [ENGINE_NAME]

For every game ENGINE_NAME (default kiebitz) lost, the judge searches MOVETIME ms (default 3000)
per position. The turning move is the first move of kiebitz after which the judge announces a
forced win for the opponent (`score mate` against kiebitz), found by bisection over kiebitz's
moves (assuming a lost position stays lost), and classified by the position before it:

- missed forced win: before the move the judge saw a forced win for kiebitz;
- lost from the opening: already lost before kiebitz's first move;
- walked into a forced loss: before it was undecided and the mate after it is no longer than
  half of kiebitz's reported depth (kiebitz could have seen it);
- horizon: undecided before, and the mate after it is longer than kiebitz's search reached;
- evaluation misjudged: undecided before, but already worse than -150 cp for kiebitz (the
  game was lost earlier by quiet play, without a forced line the judge could name);
- time: lost on time.

Prints one line per lost game and a table.
"""
import collections
import os
import re
import sys

if len(sys.argv) < 2:
    sys.exit(__doc__)
pgn = sys.argv[1]
movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
name = sys.argv[3] if len(sys.argv) > 3 else "kiebitz"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Fairy  # noqa: E402

fs = Fairy(hash_mb=64)
send, until = fs.send, fs.until


def judge(fen, moves):
    """(kind, value) for the side to move: ('mate', n) or ('cp', x)."""
    send("ucinewgame")
    send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
    send("isready")
    until("readyok")
    send(f"go movetime {movetime}")
    info = [l for l in until("bestmove") if " score " in l]
    if not info:
        return ("mate", 0)  # no move: the side to move has won
    w = info[-1].split()
    i = w.index("score")
    return (w[i + 1], int(w[i + 2]))


def games(text):
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        tokens = re.findall(r"\{[^}]*\}|[^\s{}]+", body)
        moves, comments = [], []
        for t in tokens:
            if t.startswith("{"):
                if moves and len(comments) < len(moves):
                    comments.append(t[1:-1])
            elif re.match(r"^\d+\.+$", t) or t in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            else:
                if len(comments) < len(moves):
                    comments.append("")
                moves.append(t)
        comments += [""] * (len(moves) - len(comments))
        yield tags, moves, comments


table = collections.Counter()
for tags, moves, comments in games(open(pgn).read()):
    white = tags.get("White", "").startswith(name)
    result = tags.get("Result")
    lost = (result == "0-1" and white) or (result == "1-0" and not white)
    if not lost:
        continue
    fen = tags.get("FEN", "rqkbnr/pppppp/6/6/PPPPPP/RQKBNR w - - 0 1")
    # kiebitz-match writes SAN; Fairy-Stockfish takes UCI moves.
    uci = []
    for san in moves:
        u = fs.san_to_uci(fen, uci, san)
        if u is None:
            sys.exit(f"round {tags.get('Round')}: cannot read move {len(uci) + 1} '{san}'")
        uci.append(u)
    moves = uci
    first_white = fen.split()[1] == "w"
    # Plies played by kiebitz (book moves excluded).
    ours = [i for i in range(len(moves))
            if ((i % 2 == 0) == first_white) == white and comments[i] != "book"]
    label = f"round {tags.get('Round')} ({'White' if white else 'Black'})"
    if "time" in tags.get("Termination", "") or "forfeit" in tags.get("Termination", ""):
        table["time"] += 1
        print(f"{label}: time", flush=True)
        continue
    if not ours:
        continue

    def lost_after(k):
        kind, value = judge(fen, moves[: ours[k] + 1])
        # mate 0: the opponent has no move left, which wins in this game.
        return kind == "mate" and value >= 0, (kind, value)

    lo, hi = 0, len(ours) - 1
    verdicts = {}
    while lo < hi:
        mid = (lo + hi) // 2
        is_lost, v = lost_after(mid)
        verdicts[mid] = v
        if is_lost:
            hi = mid
        else:
            lo = mid + 1
    k = lo
    after = verdicts.get(k) or lost_after(k)[1]
    before = judge(fen, moves[: ours[k]])
    comment = comments[ours[k]]
    depth = int(re.search(r"/(\d+)", comment).group(1)) if re.search(r"/(\d+)", comment) else 0
    mate_after = after[1] if after[0] == "mate" else None
    if before[0] == "mate" and before[1] > 0:
        kind = "missed forced win"
    elif before[0] == "mate" and before[1] <= 0:
        kind = "lost from the opening" if k == 0 else "walked into a forced loss"
    elif before[1] < -150:
        kind = "evaluation misjudged"
    elif mate_after is not None and mate_after <= max(depth // 2, 1):
        kind = "walked into a forced loss"
    else:
        kind = "horizon"
    table[kind] += 1
    mv_no = ours[k] // 2 + 1
    print(f"{label}: move {mv_no} {moves[ours[k]]} ({comment}): judge before {before[0]} "
          f"{before[1]}, after {after[0]} {after[1]} (opponent) -> {kind}", flush=True)
print("\n| turning point | games |\n|---|---|")
for kind, n in table.most_common():
    print(f"| {kind} | {n} |")
send("quit")
