#!/usr/bin/env bash
# Pawn chess strength recipe: kiebitz-pawns against Fairy-Stockfish on every board of
# interest, then an SPRT self-play example. Same environment knobs as match-fairy.sh.
#
#   scripts/matches/match-pawns.sh [VARIANT…]      (default: pawns6 pawns8)
#
# The double-step variants are left out: in tests/data/fairy-variants.ini Fairy-Stockfish
# does not accept Black's double step, loses track of the game and forfeits by illegal moves.
set -euo pipefail
cd "$(dirname "$0")/../.."
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(pawns6 pawns8)
for v in "${variants[@]}"; do
    echo "== kiebitz-pawns vs Fairy-Stockfish, $v"
    scripts/matches/match-fairy.sh pawns "$v" kiebitz-pawns | grep -v '^Finished game\|^Score of'
done
# Self-play SPRT: the same engine over UCI and over XBoard must come out level (H0).
echo "== kiebitz-pawns (UCI) vs kiebitz-pawns (XBoard), SPRT elo0=0 elo1=20"
target/release/kiebitz-match --game pawns --variant pawns6d \
    --engine cmd=target/release/kiebitz-pawns name=uci \
    --engine cmd=target/release/kiebitz-pawns name=xboard proto=xboard \
    --tc "${TC:-10+0.1}" --games "${GAMES:-1000}" --concurrency "${CONCURRENCY:-1}" \
    --random-openings plies=4 depth=6 margin=100 --seed "${SEED:-1}" \
    --sprt elo0=0 elo1=20 --ratinginterval 50 | grep -v '^Finished game\|^Score of'
