#!/usr/bin/env python3
"""Proof-number solving of the Räuberschach forced-win suites: `solve` on each position with a
time budget, each proof checked by `check-proof`.

    scripts/studies/raeuber-solve-suite.py ENGINE BUDGET_SECS [SUITE ...]

ENGINE is kiebitz-raeuber; SUITE files default to tests/data/raeuber-early-wins.txt and
tests/data/raeuber-late-wins.txt (lines `FEN;moves;N`, a forced win for the side to move after
the moves, announced by Fairy-Stockfish as mate in N). Prints one line per position and a
summary per suite: proven wins whose proof checked, wrong values (a loss proven where a win
was announced), the median and largest time.
"""
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if len(sys.argv) < 3:
    sys.exit(__doc__)
engine, budget = sys.argv[1], sys.argv[2]
suites = sys.argv[3:] or [os.path.join(root, "tests/data", f"raeuber-{s}-wins.txt")
                          for s in ("early", "late")]
proof_file = os.path.join(tempfile.mkdtemp(), "proof.txt")
for suite in suites:
    proven, wrong, times, total = 0, 0, [], 0
    for n, entry in enumerate(open(suite), 1):
        fen, moves, mate = entry.strip().split(";")
        total += 1
        if os.path.exists(proof_file):
            os.remove(proof_file)
        out = subprocess.run([engine, "solve", "--fen", fen, "--moves", moves, "--budget", budget,
                              "--proof", proof_file], capture_output=True, text=True).stdout
        fields = dict(line.split(None, 1) for line in out.splitlines() if line.strip())
        result = fields.get("result", "?").split()[0]
        secs = float(fields.get("time", "0 s").split()[0])
        checked = "-"
        if result in ("win", "loss"):
            rc = subprocess.run([engine, "check-proof", proof_file], capture_output=True).returncode
            checked = "checked" if rc == 0 else "REJECTED"
        if result == "win" and checked == "checked":
            proven += 1
            times.append(secs)
        if result == "loss":
            wrong += 1
        print(f"{os.path.basename(suite)}:{n} {result} {fields.get('move', '-').strip()} "
              f"{secs:.2f}s {checked} fsf-mate {mate} | {fields.get('proof', '').strip()}",
              flush=True)
    times.sort()
    median = times[len(times) // 2] if times else 0
    print(f"SUMMARY {os.path.basename(suite)}: {proven}/{total} proven and checked within "
          f"{budget} s, {wrong} wrong, median {median:.2f} s, max {max(times, default=0):.2f} s",
          flush=True)
