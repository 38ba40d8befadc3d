#!/usr/bin/env bash
# Self-play of kiebitz-pawns: 20 games at 50 ms a move on pawns6 from the start, colours
# swapped per pair, every move checked by kiebitz-match's referee; the PGN is replayed after.
#
#   scripts/matches/selfplay-pawns.sh [OUTDIR]      (default /tmp/kiebitz-selfplay)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-/tmp/kiebitz-selfplay}
mkdir -p "$out"
cargo build --release --quiet
target/release/kiebitz-match --game pawns --variant "${VARIANT:-pawns6}" \
    --engine cmd=target/release/kiebitz-pawns name=kiebitz-a \
    --engine cmd=target/release/kiebitz-pawns name=kiebitz-b \
    --movetime 50 --games "${GAMES:-20}" --concurrency 1 --seed 1 \
    --pgn "$out/selfplay.pgn"
target/release/kiebitz-match --game pawns --check-pgn "$out/selfplay.pgn"
