#!/usr/bin/env bash
# A kiebitz engine against Fairy-Stockfish (variants from tests/data/fairy-variants.ini) in
# kiebitz-match, with colour-swapped pairs of random balanced openings and an Elo estimate.
#
#   scripts/matches/match-fairy.sh GAME VARIANT ENGINE-BINARY        e.g.
#   scripts/matches/match-fairy.sh pawns pawns6 kiebitz-pawns
#   scripts/matches/match-fairy.sh chess chess kiebitz-chess
#   scripts/matches/match-fairy.sh raeuberschach raeuberschach kiebitz-raeuber
#
# Environment: GAMES (default 100), TC (default 10+0.1), CONCURRENCY (default 1),
# PLIES (random opening plies, default 2), SEED (default 1), PGN (default match-VARIANT.pgn),
# FAIRY (default: fairy-stockfish on PATH or /usr/games/fairy-stockfish).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 3 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
game=$1 variant=$2 engine=$3
fairy=${FAIRY:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
[ -x "$fairy" ] || { echo "fairy-stockfish not found: apt-get install -y fairy-stockfish" >&2; exit 1; }
cargo build --release --quiet --bin kiebitz-match --bin "$engine"
exec target/release/kiebitz-match --game "$game" --variant "$variant" \
    --engine cmd="target/release/$engine" name=kiebitz option.Hash=64 \
    --engine cmd="$fairy" name=Fairy-Stockfish option.VariantPath="$PWD/tests/data/fairy-variants.ini" option.Hash=64 \
    --tc "${TC:-10+0.1}" --games "${GAMES:-100}" --concurrency "${CONCURRENCY:-1}" \
    --random-openings plies="${PLIES:-2}" depth=6 margin=100 --seed "${SEED:-1}" \
    --ratinginterval 10 --pgn "${PGN:-match-$variant.pgn}"
