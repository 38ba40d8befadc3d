#!/usr/bin/env bash
# Tunes the chess evaluation on data, end to end (docs/chess.md, "Tuning the evaluation"):
#
#   1. games: kiebitz-chess self-play and kiebitz-chess against stockfish 15.1, both at a fixed
#      node count a move (so the data does not depend on the machine's load), from the openings of
#      tests/data/chess-openings.epd plus random plies, written as PGN in chunks of CHUNK games;
#   2. positions: `chess-tune extract` replays the games, keeps the quiet positions (not in check,
#      quiescence search finds no capture that changes the static evaluation) labelled with the
#      game's result, and splits them by game into a training and a held-out file;
#   3. fit: `chess-tune fit` fits the sigmoid's K to the hand-made weights, then runs Adam over every
#      weight at once, prints the held-out error before and after, and writes the table file
#      src/games/chess/weights.rs (selected at run time by KIEBITZ_EVAL=tuned).
#
#   scripts/studies/tune-chess.sh                 (all three stages)
#   STAGES=fit scripts/studies/tune-chess.sh      (refit on the positions already made)
#
# Environment: DIR (work directory, default target/tune), SELF_GAMES and SF_GAMES (games per
# source, default 2000 each), CHUNK (games per PGN file, default 100), NODES (kiebitz's nodes a
# move, default 15000), SELF_NODES (its self-play opponent's, default a third more, so that the
# two games of a colour-swapped pair differ; a gap that large biases the labels, docs/chess.md), SF_NODES (stockfish's, default 2000), CONCURRENCY (default 2), EPOCHS
# (default 500), LR (Adam's step, default 1.0), LAMBDA (L2 pull towards the hand-made weights,
# default 0.002), DEADLINE (stop making games after this many seconds, default unlimited),
# OUT (weights file, default src/games/chess/weights.rs), ENGINE / MATCH / TUNE (binaries; built
# here when unset), STOCKFISH (default stockfish on PATH or /usr/games/stockfish).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${DIR:-target/tune}
stages=${STAGES:-games positions fit}
chunk=${CHUNK:-100}
nodes=${NODES:-15000}
self_nodes=${SELF_NODES:-$((nodes * 4 / 3))}
sf_nodes=${SF_NODES:-2000}
conc=${CONCURRENCY:-2}
deadline=$(( $(date +%s) + ${DEADLINE:-999999999} ))
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
if [ -z "${ENGINE:-}" ] || [ -z "${MATCH:-}" ] || [ -z "${TUNE:-}" ]; then
    cargo build --release --quiet --bin kiebitz-match --bin kiebitz-chess --example chess-tune
fi
engine=${ENGINE:-target/release/kiebitz-chess}
match=${MATCH:-target/release/kiebitz-match}
tune=${TUNE:-target/release/examples/chess-tune}
mkdir -p "$dir"

# One chunk of games: $1 = file name, $2 = seed, $3... = the second engine.
play_chunk() {
    local out=$1 seed=$2
    shift 2
    "$match" --game chess \
        --engine cmd="$engine" name=kiebitz option.Hash=16 nodes="$nodes" \
        --engine "$@" \
        --games "$chunk" --concurrency "$conc" \
        --openings file=tests/data/chess-openings.epd order=random \
        --random-openings plies=4 margin=150 --seed "$seed" \
        --resign movecount=4 score=1000 --draw movenumber=60 movecount=10 score=5 \
        --maxmoves 200 --pgn "$out.part" >"$out.log" 2>&1
    mv "$out.part" "$out"
}

if [[ " $stages " == *" games "* ]]; then
    [ -x "$sf" ] || { echo "stockfish not found: apt-get install -y stockfish" >&2; exit 1; }
    n_self=$(( ${SELF_GAMES:-2000} / chunk ))
    n_sf=$(( ${SF_GAMES:-2000} / chunk ))
    i=0
    while { [ "$i" -lt "$n_self" ] || [ "$i" -lt "$n_sf" ]; } && [ "$(date +%s)" -lt "$deadline" ]; do
        i=$((i + 1))
        if [ "$i" -le "$n_self" ] && [ ! -e "$dir/self-$i.pgn" ]; then
            play_chunk "$dir/self-$i.pgn" "$((1000 + i))" \
                cmd="$engine" name=kiebitz2 option.Hash=16 nodes="$self_nodes"
            echo "self-play chunk $i done ($(date -u +%H:%M))" >&2
        fi
        [ "$(date +%s)" -lt "$deadline" ] || break
        if [ "$i" -le "$n_sf" ] && [ ! -e "$dir/sf-$i.pgn" ]; then
            play_chunk "$dir/sf-$i.pgn" "$((2000 + i))" \
                cmd="$sf" name=stockfish option.Hash=16 option.Threads=1 nodes="$sf_nodes"
            echo "stockfish chunk $i done ($(date -u +%H:%M))" >&2
        fi
    done
fi

if [[ " $stages " == *" positions "* ]]; then
    "$tune" extract "$dir/train.txt" "$dir/heldout.txt" "$dir"/self-*.pgn "$dir"/sf-*.pgn
fi

if [[ " $stages " == *" fit "* ]]; then
    "$tune" fit "$dir/train.txt" "$dir/heldout.txt" "${EPOCHS:-500}" \
        "${OUT:-src/games/chess/weights.rs}" "${LR:-1.0}" "${LAMBDA:-0.002}"
fi
