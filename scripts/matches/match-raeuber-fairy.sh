#!/usr/bin/env bash
# kiebitz-raeuber against Fairy-Stockfish in Räuberschach, from balanced openings.
#
#   scripts/matches/match-raeuber-fairy.sh openings     regenerate tests/data/raeuber-openings.epd (100 lines)
#   scripts/matches/match-raeuber-fairy.sh match        play the match (kiebitz-match, pairs swapped)
#
# The opening file: random 4-ply walks from the start position, kept when Fairy-Stockfish at
# depth 10 finds no forced result and a score within ±50 cp, until 800 distinct candidates
# (scripts/matches/raeuber-openings.py, seed 1, about 10 minutes: distinct positions grow scarce);
# then the first 100 candidates that Fairy-Stockfish at 5 s finds neither decided (no `score
# mate`) nor beyond ±50 cp (scripts/matches/raeuber-refilter-openings.py; a 0.5 s search first drops
# those it already finds decided or beyond ±150 cp). Unfiltered random openings are nearly all
# decided for one colour; of the depth-10 candidates, about 3 in 5 are decided at 5 s.
#
# Environment for `match`: GAMES (default 200), TC (default 10+0.1), CONCURRENCY (default 2),
# PGN (default match-raeuberschach.pgn), FAIRY (default: the build of
# scripts/build/build-fairy-stockfish.sh at /work/fsf/fairy-stockfish if present, else the one on PATH),
# OPENINGS (default tests/data/raeuber-openings.epd),
# ENGINE (default target/release/kiebitz-raeuber), MATCH (default target/release/kiebitz-match).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${FAIRY:-}" ] && [ -x /work/fsf/fairy-stockfish ]; then
    FAIRY=/work/fsf/fairy-stockfish
fi
fairy=${FAIRY:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
[ -x "$fairy" ] || { echo "fairy-stockfish not found: build it with scripts/build/build-fairy-stockfish.sh" >&2; exit 1; }
case "${1:-}" in
openings)
    candidates=$(mktemp)
    FAIRY=$fairy python3 scripts/matches/raeuber-openings.py 800 4 10 50 1 > "$candidates"
    FAIRY=$fairy PRE_MS=500 PRE_MARGIN=150 python3 scripts/matches/raeuber-refilter-openings.py "$candidates" 5000 50 100 \
        > tests/data/raeuber-openings.epd
    rm -f "$candidates"
    ;;
match)
    if [ -z "${ENGINE:-}" ] || [ -z "${MATCH:-}" ]; then
        cargo build --release --quiet --bin kiebitz-match --bin kiebitz-raeuber
    fi
    ini="$PWD/tests/data/fairy-variants.ini"
    exec "${MATCH:-target/release/kiebitz-match}" --game raeuberschach --variant raeuberschach \
        --engine cmd="${ENGINE:-target/release/kiebitz-raeuber}" name=kiebitz option.Hash=64 option.Threads=1 \
        --engine cmd="$fairy" name=Fairy-Stockfish option.VariantPath="$ini" \
        option.UCI_Variant=raeuberschach option.Hash=64 option.Threads=1 \
        --tc "${TC:-10+0.1}" --games "${GAMES:-200}" --concurrency "${CONCURRENCY:-2}" \
        --openings file="${OPENINGS:-tests/data/raeuber-openings.epd}" \
        --ratinginterval 10 --pgn "${PGN:-match-raeuberschach.pgn}"
    ;;
*)
    sed -n '2,17p' "$0" >&2
    exit 2
    ;;
esac
