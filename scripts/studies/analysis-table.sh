#!/usr/bin/env bash
# Time and peak memory of `kiebitz-pawns analyze` for every board from 3×3 to 5×5 under the
# three rule sets, as a Markdown table (docs/rules.md §6, issue "Pawn-chess analysis").
#
#   scripts/studies/analysis-table.sh            # builds the release binary first
#   KIEBITZ_PAWNS=path/to/binary scripts/studies/analysis-table.sh
#   SIZES="3 4 5 6" EXTRA=--value-only scripts/studies/analysis-table.sh   # 6×6: values only
#
# Needs GNU time (/usr/bin/time -v) and python3. Wall time depends on the machine's load; CPU
# time (user + system) much less so.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -z "${KIEBITZ_PAWNS:-}" ]]; then
    cargo build --release --quiet --bin kiebitz-pawns
    KIEBITZ_PAWNS=target/release/kiebitz-pawns
fi
SIZES=${SIZES:-"3 4 5"}
EXTRA=${EXTRA:-}
log=$(mktemp)
out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT

echo "| board | rules | unique positions | tree nodes | value | first-move values | wall s | CPU s | peak RSS MB | command |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
    for rules in plain doublestep enpassant; do
        flag=""
        if [[ $rules != plain ]]; then flag="--$rules"; fi
        cmd="kiebitz-pawns analyze --size $n $flag $EXTRA --json"
        # shellcheck disable=SC2086
        /usr/bin/time -v "$KIEBITZ_PAWNS" analyze --size "$n" $flag $EXTRA --json >"$out" 2>"$log"
        python3 - "$out" "$log" "$n" "$rules" "$cmd" <<'PY'
import json, re, sys
out, log, n, rules, cmd = sys.argv[1:]
r = json.load(open(out))
t = open(log).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t).group(1)
secs = 0.0
for part in wall.split(":"):
    secs = secs * 60 + float(part)
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
cpu = sum(float(re.search(rf"{k} time \(seconds\): (\S+)", t).group(1)) for k in ("User", "System"))
fmv = " ".join(str(v) for v in r["first_move_values"])
# --value-only leaves the counts out (docs/analysis.md).
uniq, nodes = r.get("unique_positions", "—"), r.get("tree_nodes", "—")
print(f"| {n}×{n} | {rules} | {uniq} | {nodes} | {r['value']} | "
      f"{fmv} | {secs:.2f} | {cpu:.2f} | {rss / 1024:.0f} | `{' '.join(cmd.split())}` |")
PY
    done
done
