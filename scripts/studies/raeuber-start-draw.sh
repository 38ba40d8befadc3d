#!/usr/bin/env bash
# Räuberschach 6×6: the start position is a draw (docs/solved.md, "The start is a draw").
#
# Rebuilds and checks both holds from the start:
#   1. Black's hold (White cannot force a win): one `solve` from the start.
#   2. White's hold (Black cannot force a win): White plays 1. e3; every Black reply is
#      answered by a part solved apart — a proof of White's win or a hold of White's — and the
#      one line where no part is quick, 1…f4 2. exf4 exf4 3. f3 c4, is followed move by move
#      (the "tunnel": at White's turns every other move is lost, at Black's every other move
#      is a part) down to a seven-piece ending, 3b2/p5/5p/1P3P/P5/5B b, held by a part too.
#      `join` puts the parts and White's moves on the lines together and checks the result.
#
# Usage: BIN=target/release/kiebitz-raeuber TABLES=DIR scripts/studies/raeuber-start-draw.sh OUT
#   TABLES: the four-piece tables (`kiebitz-raeuber tables --pieces 4 --dir DIR`, 4.4 GB).
# About 6 minutes and 8.2 GB on the 2-core development machine (348 s beside other work).
set -euo pipefail
BIN=${BIN:-target/release/kiebitz-raeuber}
TABLES=${TABLES:?TABLES: the folder of the four-piece tables}
OUT=${1:?usage: raeuber-start-draw.sh OUT}
mkdir -p "$OUT"
SOLVE=("$BIN" solve --weak --tables 4 --tables-dir "$TABLES" --compact)

E3F3="e2e3 f5f4 e3f4 e5f4 f2f3"
TUNNEL="$E3F3 c5c4 b2b3 c4b3 c2b3 f6f5 b1f5 b6d4 f5e6 d4a1 e6d5 a1c1 d5b5 c6b5 d1e2 c1d2 e2b5 d2e1 b5a6 e1f1 a6f1"

# part MOVES NODES [OPTION…]: solves the position after MOVES; its proof or holds are kept as
# OUT/p-MOVES.proof[.white|.black] (nothing when it stays open).
part() {
    local moves=$1 nodes=$2
    shift 2
    local name
    name=$(echo "$moves" | tr ' ' '_')
    "${SOLVE[@]}" --moves "$moves" --nodes "$nodes" --hash 4096 "$@" \
        --proof "$OUT/p-$name.proof" > "$OUT/p-$name.txt" 2> /dev/null || true
    grep -E '^(result|hold|proof) ' "$OUT/p-$name.txt" | sed "s|^|$moves: |"
}

# The moves at the position after MOVES.
moves_after() {
    local fen
    fen=$("$BIN" solve --moves "$1" --nodes 1 2> /dev/null | sed -n 's/^position  //p')
    "$BIN" perft 1 --divide --fen "$fen" | sed -n 's/^\([a-h][1-6][a-h][1-6][a-z]*\): .*/\1/p'
}

echo "== 1. Black's hold from the start"
"${SOLVE[@]}" --ghi-safe --nodes 20000000 --hash 4096 --proof "$OUT/start.proof" \
    > "$OUT/start.txt" 2> /dev/null || true
grep -E '^(result|hold) ' "$OUT/start.txt"

echo "== 2. White's hold: the parts"
for m in a5a4 b5b4 c5c4 d5d4 e5e4 e6d4 e6f4; do part "e2e3 $m" 30000000 --ghi-safe; done
for m in f6f4 e6f4; do part "e2e3 f5f4 e3f4 $m" 30000000 --ghi-safe; done
for m in a5a4 b5b4 d5d4 e6d4 d6e5 f6f5; do part "$E3F3 $m" 60000000 --ghi-safe; done
# The tunnel: Black's other moves at each of its Black turns.
read -ra plies <<< "$TUNNEL"
for ((k = 7; k < ${#plies[@]}; k += 2)); do
    line="${plies[*]:0:k}"
    for m in $(moves_after "$line"); do
        [ "$m" = "${plies[k]}" ] || part "$line $m" 20000000 --ghi-safe
    done
done
# Its end, a seven-piece ending: held by both sides (found without --ghi-safe; a hold is
# checked whatever the search's mode).
part "$TUNNEL" 800000000 --threads 2

echo "== 3. White's hold joined and checked"
parts=()
for f in "$OUT"/p-*.proof "$OUT"/p-*.proof.white; do
    [ -e "$f" ] && head -5 "$f" | grep -qE '^(winner|holder) white' && parts+=("$f")
done
"$BIN" join --line "$TUNNEL" --compact --out "$OUT/start-white-holds.proof" "${parts[@]}"
"$BIN" check-proof "$OUT/start-white-holds.proof"
"$BIN" check-proof "$OUT/start.proof.black"
