#!/usr/bin/env bash
# A proof by work units on this machine: split, W local workers at once, merge, check.
#
#   scripts/studies/solve-units.sh DIR "MOVES" [PLIES] [WORKERS]
#
# DIR: the units' folder (manifest, unit-N.proof/.open, merged.proof); MOVES: the line from the
# start position to the root (e.g. "c2c3"); PLIES (default 2): the split's depth; WORKERS
# (default 2): processes at once, each `units work --worker K --of WORKERS`. Environment: BIN
# (default target/release/kiebitz-raeuber, built here if missing), NODES (per unit, default
# 2000000), HASH (MiB per worker, default 512), WEAK (1: weak disproof numbers, the default; 0:
# summed), EXTRA (more `units work` arguments, e.g. "--ghi-safe --tables 4 --time 120
# --checkpoint-every 60"; with --checkpoint-every, run it again with EXTRA="… --retry-open" to resume
# the open units). On a cluster the same three commands run as a job array: docs/solved.md, "Work units".
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?DIR}; moves=${2:?MOVES}; plies=${3:-2}; workers=${4:-2}
bin=${BIN:-target/release/kiebitz-raeuber}
[ -x "$bin" ] || cargo build --release --quiet --bin "$(basename "$bin")"
weak=(); [ "${WEAK:-1}" = 1 ] && weak=(--weak)
[ -f "$dir/manifest" ] || "$bin" units split --dir "$dir" --moves "$moves" --plies "$plies"
start=$(date +%s)
for k in $(seq 0 $((workers - 1))); do
    "$bin" units work --dir "$dir" --worker "$k" --of "$workers" --nodes "${NODES:-2000000}" \
        --hash "${HASH:-512}" "${weak[@]}" ${EXTRA:-} 2>> "$dir/worker-$k.log" &
done
wait
echo "workers: $(( $(date +%s) - start )) s, $(ls "$dir" | grep -c '\.proof$') proven, $(ls "$dir" | grep -c '\.open$') open"
"$bin" units merge --dir "$dir" --out "$dir/merged.proof"
"$bin" check-proof "$dir/merged.proof"
