#!/usr/bin/env bash
# df-pn at a fixed node budget over a list of positions: how many it proves (a win or a loss
# for the side to move, each proof checked), and how many attempts it disproves.
#
#   scripts/studies/pns-screen.sh [FILE] [NODES] [SOLVE FLAGS…]
#   scripts/studies/pns-screen.sh tests/data/raeuber-game-positions.txt 1000000 --weak
#   scripts/studies/pns-screen.sh tests/data/raeuber-game-positions.txt 1000000 --weak --ghi-safe
#
# FILE: one FEN a line (default tests/data/raeuber-game-positions.txt: 837 positions, every
# third ply from ply 8 of 60 games of kiebitz against Fairy-Stockfish c19b5f6 at 10+0.1).
# Prints one line a position (FEN;result) on stdout and the counts on stderr. BIN: the engine
# (default target/release/kiebitz-raeuber).
set -euo pipefail
cd "$(dirname "$0")/../.."
file=${1:-tests/data/raeuber-game-positions.txt}; nodes=${2:-1000000}; shift $(( $# < 2 ? $# : 2 ))
bin=${BIN:-target/release/kiebitz-raeuber}
[ -x "$bin" ] || cargo build --release --quiet --bin "$(basename "$bin")"
proven=0; total=0
while read -r fen; do
    [ -n "$fen" ] || continue
    result=$("$bin" solve --fen "$fen" --nodes "$nodes" --hash 64 "$@" 2>&1 | sed -n 's/^result *//p')
    echo "$fen;$result"
    total=$((total + 1))
    case $result in win*|loss*) proven=$((proven + 1)) ;; esac
done < "$file"
echo "proven $proven of $total at $nodes nodes ($*)" >&2
