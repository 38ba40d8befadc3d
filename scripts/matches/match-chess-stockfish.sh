#!/usr/bin/env bash
# kiebitz-chess against Debian's stockfish 15.1 at a limited strength (UCI_Elo) in kiebitz-match:
# colour-swapped pairs from tests/data/chess-openings.epd (100 balanced positions after common
# opening lines, each played once in file order, made by scripts/matches/make-chess-openings.py), Elo estimate and pentanomial counts.
#
#   scripts/matches/match-chess-stockfish.sh                 (200 games at 10+0.1 against UCI_Elo=2000)
#   ELO=2400 GAMES=100 scripts/matches/match-chess-stockfish.sh
#   ELO=1800 KELO=1800 GAMES=100 scripts/matches/match-chess-stockfish.sh   (a strength-level calibration:
#                                   kiebitz at UCI_Elo=KELO, docs/strength.md)
#
# Both engines get a Move Overhead of 100 ms (default 10): on a loaded machine (more busy
# programs than cores) a process may stall for a few hundred ms, and at 10+0.1 a stall near the
# end of the clock is a time forfeit that says nothing about the engines.
#
# Environment: KELO (kiebitz's UCI_Elo; unset: full strength), KOPTS (more kiebitz engine
# arguments, space-separated, e.g. KOPTS=option.EvalFile=nets/candidates/chess-4-ft2b.nnue), OVERHEAD (Move Overhead in ms, default 100), ELO (default 2000), GAMES (default 200), TC (default 10+0.1), CONCURRENCY
# (default 2), SEED (default 1), PGN (default /tmp/chess-vs-stockfish-ELO.pgn),
# ENGINE (default target/release/kiebitz-chess, built here; point it at a copy so that a
# rebuild during the match does not replace the running binary), MATCH (default
# target/release/kiebitz-match), STOCKFISH (default stockfish on PATH or /usr/games/stockfish).
set -euo pipefail
cd "$(dirname "$0")/../.."
elo=${ELO:-2000}
overhead=${OVERHEAD:-100}
sf=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[ -x "$sf" ] || { echo "stockfish not found: apt-get install -y stockfish" >&2; exit 1; }
if [ -z "${ENGINE:-}" ] || [ -z "${MATCH:-}" ]; then
    cargo build --release --quiet --bin kiebitz-match --bin kiebitz-chess
fi
engine=${ENGINE:-target/release/kiebitz-chess}
# KELO: kiebitz plays at that UCI_Elo (strength level) too.
level=()
[ -n "${KELO:-}" ] && level=(option.UCI_LimitStrength=true "option.UCI_Elo=$KELO")
# KOPTS: more arguments for kiebitz's engine (a candidate network, say).
read -r -a extra <<< "${KOPTS:-}"
match=${MATCH:-target/release/kiebitz-match}
exec "$match" --game chess \
    --engine cmd="$engine" name="kiebitz${KELO:+-$KELO}" option.Hash=64 "option.Move Overhead=$overhead" "${level[@]}" "${extra[@]}" \
    --engine cmd="$sf" name="Stockfish-$elo" option.UCI_LimitStrength=true \
        option.UCI_Elo="$elo" option.Hash=64 option.Threads=1 \
        "option.Move Overhead=$overhead" \
    --tc "${TC:-10+0.1}" --games "${GAMES:-200}" --concurrency "${CONCURRENCY:-2}" \
    --openings file=tests/data/chess-openings.epd --seed "${SEED:-1}" \
    --ratinginterval 10 --pgn "${PGN:-/tmp/chess-vs-stockfish-$elo.pgn}"
