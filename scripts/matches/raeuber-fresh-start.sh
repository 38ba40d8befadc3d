#!/usr/bin/env bash
# kiebitz-raeuber against Fairy-Stockfish from Räuberschach's start position, a fresh process
# of each engine for every game (one kiebitz-match run a game), colours alternating: the check
# that a new engine plays the shipped certificates from its first `go` (docs/solved.md,
# "Perfect play from the certificates"). Prints each game's result and the totals from
# kiebitz's side; exits 1 if kiebitz lost a game.
#
#   scripts/matches/raeuber-fresh-start.sh [GAMES]      (default 100)
#
# Environment: TC (default 1+0.01), FAIRY (default /work/fsf/fairy-stockfish, from
# scripts/build/build-fairy-stockfish.sh), ENGINE (default target/release/kiebitz-raeuber),
# MATCH (default target/release/kiebitz-match), OUT (a folder for the games' PGN, default a
# temporary one).
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-100}
fairy=${FAIRY:-/work/fsf/fairy-stockfish}
engine=${ENGINE:-target/release/kiebitz-raeuber}
match=${MATCH:-target/release/kiebitz-match}
out=${OUT:-$(mktemp -d /tmp/raeuber-fresh.XXXXXX)}
ini="$PWD/tests/data/fairy-variants.ini"
[ -x "$fairy" ] || { echo "no Fairy-Stockfish at $fairy (scripts/build/build-fairy-stockfish.sh)" >&2; exit 1; }
mkdir -p "$out"
kiebitz=(--engine cmd="$engine" name=kiebitz option.Hash=64 option.Threads=1)
fsf=(--engine cmd="$fairy" name=Fairy-Stockfish option.VariantPath="$ini"
    option.UCI_Variant=raeuberschach option.Hash=64 option.Threads=1)
wins=0 draws=0 losses=0
for i in $(seq 1 "$games"); do
    pgn="$out/game-$i.pgn"
    if [ $((i % 2)) -eq 1 ]; then first=("${kiebitz[@]}") second=("${fsf[@]}"); else first=("${fsf[@]}") second=("${kiebitz[@]}"); fi
    "$match" --game raeuberschach --variant raeuberschach "${first[@]}" "${second[@]}" \
        --tc "${TC:-1+0.01}" --games 1 --pgn "$pgn" >/dev/null 2>"$out/game-$i.log"
    result=$(grep -m1 '^\[Result ' "$pgn" | cut -d'"' -f2)
    white=$(grep -m1 '^\[White ' "$pgn" | cut -d'"' -f2)
    case "$result:$white" in
        1/2-1/2:*) draws=$((draws + 1)); said=draw ;;
        1-0:kiebitz | 0-1:Fairy-Stockfish) wins=$((wins + 1)); said=win ;;
        *) losses=$((losses + 1)); said=LOSS ;;
    esac
    echo "game $i: kiebitz $([ "$white" = kiebitz ] && echo White || echo Black), $result ($said)"
done
echo "kiebitz from the start, fresh processes, ${TC:-1+0.01}: +$wins =$draws -$losses in $games games (PGN in $out)"
[ "$losses" -eq 0 ]
