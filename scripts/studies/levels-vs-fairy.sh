#!/usr/bin/env bash
# Skill Level ladder of Räuberschach and pawn chess against Fairy-Stockfish at a fixed depth
# (docs/strength.md, "Räuberschach and pawn chess against Fairy-Stockfish").
#
#   scripts/studies/levels-vs-fairy.sh GAME VARIANT LEVEL DEPTH [GAMES]
#   e.g. scripts/studies/levels-vs-fairy.sh raeuberschach raeuberschach 8 7 200
#        scripts/studies/levels-vs-fairy.sh pawns pawns8 0 8 200
#
# kiebitz at `Skill Level` LEVEL (a node budget a move, so the result does not depend on the
# machine's load; movetime 5 s only as a ceiling) against Fairy-Stockfish `go depth DEPTH`, one
# game at a time, both Hash 16. Räuberschach from the 100 openings of
# tests/data/raeuber-openings.epd, pawn chess from random 4-ply openings (seed 7) within 100 cp
# at depth 6; colours swapped per opening. Environment: FAIRY (default the build of
# scripts/build/build-fairy-stockfish.sh at /work/fsf/fairy-stockfish), PGN (default
# levels-GAME-LLEVEL-dDEPTH.pgn). Seconds a game; 200 games take 3–30 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 4 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
game=$1 variant=$2 level=$3 depth=$4 games=${5:-200}
fairy=${FAIRY:-/work/fsf/fairy-stockfish}
[ -x "$fairy" ] || { echo "fairy-stockfish not found: build it with scripts/build/build-fairy-stockfish.sh" >&2; exit 1; }
case $game in
raeuberschach) engine=kiebitz-raeuber; openings=(--openings file=tests/data/raeuber-openings.epd) ;;
pawns) engine=kiebitz-pawns; openings=(--random-openings plies=4 depth=6 margin=100 --seed 7) ;;
*) echo "GAME is raeuberschach or pawns" >&2; exit 2 ;;
esac
cargo build --release --quiet --bin kiebitz-match --bin "$engine"
exec target/release/kiebitz-match --game "$game" --variant "$variant" \
    --engine cmd="target/release/$engine" name="kiebitz-L$level" "option.Skill Level=$level" \
    option.Hash=16 option.Threads=1 movetime=5000 \
    --engine cmd="$fairy" name="FSF-d$depth" option.VariantPath="$PWD/tests/data/fairy-variants.ini" \
    option.UCI_Variant="$variant" option.Hash=16 option.Threads=1 depth="$depth" \
    --games "$games" --concurrency 1 "${openings[@]}" --ratinginterval 1000 \
    --pgn "${PGN:-levels-$game-L$level-d$depth.pgn}"
