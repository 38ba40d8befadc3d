#!/usr/bin/env bash
# Texel tuning of the chess evaluation from self-play (examples/chess-texel.rs):
#   1. self-play games at a fixed depth with the hand-made weights → quiet positions + results,
#   2. fit the weights to the results → src/games/chess/params.rs,
#   3. rebuild and play the tuned weights against the hand-made ones.
# Usage: scripts/texel-tune.sh [GAMES] [DEPTH] [EPOCHS] [MATCH_PAIRS]   (about 15 min with defaults)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-3000}
depth=${2:-3}
epochs=${3:-400}
pairs=${4:-100}
data=${TEXEL_DATA:-target/texel-positions.txt}
cargo build --release --quiet --example chess-texel
target/release/examples/chess-texel selfplay "$games" "$depth" "$data"
target/release/examples/chess-texel tune "$data" "$epochs" src/games/chess/params.rs
cargo build --release --quiet --example chess-texel
target/release/examples/chess-texel match "$pairs" "$depth"
