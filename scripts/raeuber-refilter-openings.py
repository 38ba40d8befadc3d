#!/usr/bin/env python3
"""Re-filters Räuberschach openings with a (newer) Fairy-Stockfish: each EPD line is kept when
the engine, searching it for MOVETIME ms, reports neither a forced result (`score mate`) nor a
score beyond ±MARGIN cp. Kept lines go to stdout with the new score in their c0 comment;
a summary goes to stderr.

    FAIRY=/work/fsf/fairy-stockfish scripts/raeuber-refilter-openings.py IN.epd MOVETIME MARGIN > OUT.epd
"""
import os
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
src, movetime, margin = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fairy_uci import Fairy  # noqa: E402

fs = Fairy(hash_mb=64)
send, until = fs.send, fs.until
kept = dropped_mate = dropped_score = 0
for line in open(src):
    if not line.strip():
        continue
    fields = line.split()
    hmvc = line.split("hmvc ")[1].split(";")[0].strip()
    fmvn = line.split("fmvn ")[1].split(";")[0].strip()
    fen = " ".join(fields[:4] + [hmvc, fmvn])
    comment = line.split('c0 "')[1].split('"')[0]
    walk = comment.rsplit(" cp ", 1)[0]
    send("ucinewgame")
    send(f"position fen {fen}")
    send("isready")
    until("readyok")
    send(f"go movetime {movetime}")
    info = [l for l in until("bestmove") if " score " in l]
    words = info[-1].split()
    i = words.index("score")
    kind, value = words[i + 1], int(words[i + 2])
    depth = words[words.index("depth") + 1]
    verdict = f"{kind} {value} depth {depth}"
    if kind == "mate":
        dropped_mate += 1
    elif abs(value) > margin:
        dropped_score += 1
    else:
        kept += 1
        print(f"{' '.join(fields[:4])} hmvc {hmvc}; fmvn {fmvn}; c0 \"{walk} cp {value}\";", flush=True)
    print(f"{fen}: {verdict}", file=sys.stderr, flush=True)
print(f"kept {kept}, dropped {dropped_mate} with a forced result and {dropped_score} beyond "
      f"{margin} cp", file=sys.stderr)
send("quit")
