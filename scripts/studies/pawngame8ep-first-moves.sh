#!/usr/bin/env bash
# The pawn game 8×8 with en passant, first move by first move (docs/solved.md, "the pawn game
# 8×8 with en passant, first move by first move"): each of White's eight distinct first moves
# (the other eight mirror them) solved from the position after it, each run with its own
# checkpoint folder, so that a run stopped by its budget resumes where it was when run again.
# The two winning moves ask whether every reply of Black's loses (every "first move" of the
# run), the losing ones only whether Black has a winning reply (`--root-only`). Prints each
# run's value line; the full outputs go to OUT/pg8ep-MOVE.{out,err}. With CERT=1 each run also
# collects and checks its certificate (a win's proof, lines ending at pawn chess's lemmas) into
# OUT/pg8ep-MOVE.cert: run again over the checkpoints of a first pass, this takes 4 to 30 min a
# move (docs/solved.md, "the pawn game 8×8 with en passant, certified").
#
#   scripts/studies/pawngame8ep-first-moves.sh OUT [KIEBITZ_PAWNS] [MOVE …]
#
# Defaults: target/release/kiebitz-pawns, all eight moves. HASH (MiB, default 8192 for the
# wins with two threads, 4096 for the rest with one) and BUDGET (seconds, default 5400) from
# the environment. About 1 h 50 min of CPU for all eight on this 2-core machine (2026-12-01),
# 4 to 8.4 GB a run; the checkpoints take 4 to 8.3 GB each on disk.
set -euo pipefail
out=${1:?usage: pawngame8ep-first-moves.sh OUT [KIEBITZ_PAWNS] [MOVE …]}
kp=$(realpath "${2:-target/release/kiebitz-pawns}")
shift $(( $# > 1 ? 2 : 1 ))
moves=${*:-b2b4 c2c4 d2d4 a2a4 c2c3 a2a3 b2b3 d2d3}
mkdir -p "$out"
cd "$out"
for mv in $moves; do
  case $mv in
    b2b4|c2c4) how=(--threads 2 --hash "${HASH:-8192}") ;;
    *) how=(--root-only --threads 1 --hash "${HASH:-4096}") ;;
  esac
  if [ -n "${CERT:-}" ]; then
    how+=(--proof "pg8ep-$mv.cert" --compact --lemmas)
  fi
  "$kp" solve --variant pawngame8ep --moves "$mv" "${how[@]}" --budget "${BUDGET:-5400}" \
    --checkpoint "pg8ep-$mv" --checkpoint-every 3600 > "pg8ep-$mv.out" 2> "pg8ep-$mv.err" || true
  echo "1. $mv: $(grep '^result' "pg8ep-$mv.out" || echo 'no result (see the .err file)')"
  grep '^proof' "pg8ep-$mv.out" || true
done
