#!/usr/bin/env bash
# A solve by work units on this machine: split, W local workers at once, merge, check.
#
#   scripts/studies/solve-units.sh DIR "MOVES" [PLIES] [WORKERS]
#
# DIR: the units' folder (manifest, the units' results, the merged certificate); MOVES: the
# line from the start position to the root (e.g. "c2c3"); PLIES (default 2): the split's depth;
# WORKERS (default 2): processes at once, each `units work --worker K --of WORKERS`.
# Environment: BIN (default target/release/kiebitz-raeuber, built here if missing), VARIANT
# (the rules, default the engine's first), HASH (MiB per worker, default 512), EXTRA (more
# `units work` arguments, e.g. "--ghi-safe --tables 4 --time 120 --checkpoint-every 60"; with
# --checkpoint-every, run it again with EXTRA="… --retry-open" to resume the open units).
# df-pn (Räuberschach; pawn chess with WDL=0): NODES (per unit, default 2000000), WEAK (1: weak
# disproof numbers, the default; 0: summed). WDL=1 (an acyclic game such as pawn chess): the
# win/draw/loss solver, each unit's value and certificates (`--time` in EXTRA bounds a unit);
# the merge writes a win's proof to DIR/merged.proof, a draw's holds to merged.proof.white and
# merged.proof.black. On a cluster the same three commands run as a job array: docs/solved.md,
# "Work units".
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?DIR}; moves=${2:?MOVES}; plies=${3:-2}; workers=${4:-2}
bin=${BIN:-target/release/kiebitz-raeuber}
[ -x "$bin" ] || cargo build --release --quiet --bin "$(basename "$bin")"
variant=(); [ -n "${VARIANT:-}" ] && variant=(--variant "$VARIANT")
if [ "${WDL:-0}" = 1 ]; then
    solver=(--certificates)
else
    solver=(--dfpn --nodes "${NODES:-2000000}"); [ "${WEAK:-1}" = 1 ] && solver+=(--weak)
fi
[ -f "$dir/manifest" ] || "$bin" units split --dir "$dir" "${variant[@]}" --moves "$moves" --plies "$plies"
start=$(date +%s)
for k in $(seq 0 $((workers - 1))); do
    "$bin" units work --dir "$dir" --worker "$k" --of "$workers" --hash "${HASH:-512}" \
        "${solver[@]}" ${EXTRA:-} 2>> "$dir/worker-$k.log" &
done
wait
echo "workers: $(( $(date +%s) - start )) s, $(ls "$dir" | grep -E '^unit-[0-9]+\.(proof|value)$' | cut -d. -f1 | sort -u | wc -l) with a result, $(ls "$dir" | grep -c '\.open$') open"
"$bin" units merge --dir "$dir" --out "$dir/merged.proof"
for f in "$dir"/merged.proof "$dir"/merged.proof.white "$dir"/merged.proof.black; do
    if [ -f "$f" ]; then "$bin" check-proof "$f"; fi
done
