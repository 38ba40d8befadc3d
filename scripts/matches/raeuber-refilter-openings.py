#!/usr/bin/env python3
"""Re-filters Räuberschach openings with a (newer) Fairy-Stockfish: each EPD line is kept when
the engine, searching it for MOVETIME ms, reports neither a forced result (`score mate`) nor a
score beyond ±MARGIN cp. Kept lines go to stdout with the new score in their c0 comment;
a summary goes to stderr.

    FAIRY=/work/fsf/fairy-stockfish scripts/matches/raeuber-refilter-openings.py IN.epd MOVETIME MARGIN [LIMIT] > OUT.epd

With LIMIT it stops once LIMIT lines are kept. With PRE_MS=N in the environment each line is
first searched N ms and dropped at once when that already finds a forced result (the hash is
kept for the full search): the same criterion, several times faster when most lines are decided. With PRE_MARGIN=M too,
a line whose short search scores beyond ±M cp is dropped as well (M well above MARGIN: such lines
are nearly always decided or beyond MARGIN at full time; a kept line still meets the full
criterion).
"""
import os
import sys

if len(sys.argv) < 4:
    sys.exit(__doc__)
src, movetime, margin = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
limit = int(sys.argv[4]) if len(sys.argv) > 4 else None
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from fairy_uci import Fairy  # noqa: E402

fs = Fairy(hash_mb=64)
send, until = fs.send, fs.until
pre = int(os.environ.get("PRE_MS", "0"))
pre_margin = int(os.environ.get("PRE_MARGIN", "0")) or None
kept = dropped_mate = dropped_score = 0


def search(ms):
    """(kind, value, depth) of the last score a `go movetime ms` reports."""
    send(f"go movetime {ms}")
    info = [l for l in until("bestmove") if " score " in l]
    words = info[-1].split()
    i = words.index("score")
    return words[i + 1], int(words[i + 2]), words[words.index("depth") + 1]


for line in open(src):
    if not line.strip():
        continue
    if limit is not None and kept >= limit:
        break
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
    kind, value, depth = search(pre) if pre else ("cp", 0, "0")
    early = kind == "mate" or (pre_margin is not None and abs(value) > pre_margin)
    if not early:
        kind, value, depth = search(movetime)
    verdict = f"{kind} {value} depth {depth}" + (f" ({pre} ms)" if early else "")
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
