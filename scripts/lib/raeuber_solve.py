"""`kiebitz-raeuber solve` from Python: the value of a position with its proof checked."""
import re
import subprocess


def solve(solver, fen, nodes, hash_mb=256, weak=False):
    """('win' | 'loss' | 'draw' | 'unknown', nodes used) for the side to move of FEN. A win or
    loss counts only with a proof that the solver reports as checked, a draw only with both
    sides' holds checked."""
    cmd = [solver, "solve", "--fen", fen, "--nodes", str(nodes), "--hash", str(hash_mb)]
    if weak:
        cmd.append("--weak")
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    result = re.search(r"^result\s+(\w+)", out, re.M)
    used = re.search(r"^nodes\s+(\d+)", out, re.M)
    checked = re.search(r"^proof .*\(checked\)", out, re.M)
    value = result.group(1) if result else "unknown"
    if value in ("win", "loss") and not checked:
        value = "unknown"
    if value == "draw" and len(re.findall(r"^hold .*\(checked\)", out, re.M)) != 2:
        value = "unknown"
    return value, int(used.group(1)) if used else 0
