#!/usr/bin/env bash
# A self-play SPRT at fixed nodes of one search switch set against another, the same binary on
# both sides (docs/search-log.md has every run made with it):
#
#   scripts/matches/sprt-nodes.sh OUT_DIR "NEW_SWITCHES" "BASE_SWITCHES" [NODES] [SEED]
#
# NEW_SWITCHES / BASE_SWITCHES are `KIEBITZ_SEARCH` values (`continuation_history=1,…`, or
# "" for the game's defaults); NODES defaults to 20000 a move, SEED to 1. Environment: GAME
# (chess), BIN (target/release/kiebitz-$GAME), MATCH (target/release/kiebitz-match),
# OPENINGS (tests/data/chess-openings-wide.epd), CONCURRENCY (2), ELO1 (10: bounds [0, ELO1]),
# BASE_NODES (NODES: give the base side more where the new switches cost speed), TC (a time
# control such as 5+0.05 instead of the node budget: for switches of the clock; such games
# feel the machine's load, so run them on an otherwise idle machine).
# Writes OUT_DIR/sprt.pgn and OUT_DIR/sprt.log; run it in its own autogroup on a shared machine.
set -euo pipefail
out=${1:?OUT_DIR}
new=${2?NEW_SWITCHES}
base=${3?BASE_SWITCHES}
nodes=${4:-20000}
seed=${5:-1}
game=${GAME:-chess}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${BIN:-$root/target/release/kiebitz-$game}")
match=$(realpath "${MATCH:-$root/target/release/kiebitz-match}")
openings=$(realpath "${OPENINGS:-$root/tests/data/chess-openings-wide.epd}")
mkdir -p "$out"
for side in new base; do
    switches=$new
    [ "$side" = base ] && switches=$base
    printf '#!/bin/sh\nKIEBITZ_SEARCH=%q exec %q "$@"\n' "$switches" "$bin" > "$out/$side.sh"
    chmod +x "$out/$side.sh"
done
new_limit=(nodes="$nodes")
base_limit=(nodes="${BASE_NODES:-$nodes}")
clock=()
if [ -n "${TC:-}" ]; then
    new_limit=()
    base_limit=()
    clock=(--tc "$TC")
fi
"$match" --game "$game" "${clock[@]}" \
    --engine cmd="$out/new.sh" name=new "${new_limit[@]}" option.Hash=16 \
    --engine cmd="$out/base.sh" name=base "${base_limit[@]}" option.Hash=16 \
    --games 2 --rounds 20000 --concurrency "${CONCURRENCY:-2}" \
    --openings file="$openings" order=random --seed "$seed" \
    --draw movenumber=34 movecount=8 score=15 --resign movecount=3 score=600 twosided=true \
    --sprt elo0=0 elo1="${ELO1:-10}" alpha=0.05 beta=0.05 --pgn "$out/sprt.pgn" \
    > "$out/sprt.log" 2>&1
