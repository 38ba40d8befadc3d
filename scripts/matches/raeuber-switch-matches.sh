#!/usr/bin/env bash
# One search switch at a time against Fairy-Stockfish in Räuberschach: for each
# `KIEBITZ_SEARCH` override given, a match of the release kiebitz-raeuber with that override
# against the current Fairy-Stockfish build (scripts/matches/match-raeuber-fairy.sh), all from the same
# openings, so that the scores compare pair by pair with the plain engine's match.
#
#   scripts/matches/raeuber-switch-matches.sh OUTDIR 'lmr_divisor=225,lmr_base=75' 'null_move=0' …
#
# Each override's PGN and log go to OUTDIR/<n>.pgn and OUTDIR/<n>.log, with OUTDIR/summary.txt
# listing the override and its final Elo and pentanomial lines. An empty override ('') plays
# the engine as it is. Environment: TC (default 1+0.01), GAMES (200), CONCURRENCY (2), FAIRY.
set -euo pipefail
out=${1:?usage: $0 OUTDIR OVERRIDE...}
shift
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin kiebitz-match --bin kiebitz-raeuber
cp target/release/kiebitz-raeuber target/release/kiebitz-match "$out/bin/"
n=0
for override in "$@"; do
    n=$((n + 1))
    wrapper="$out/bin/engine-$n.sh"
    printf '#!/bin/sh\nKIEBITZ_SEARCH=%q exec %q "$@"\n' "$override" "$out/bin/kiebitz-raeuber" > "$wrapper"
    chmod +x "$wrapper"
    rm -f "$out/$n.pgn"
    ENGINE="$wrapper" MATCH="$out/bin/kiebitz-match" TC="${TC:-1+0.01}" GAMES="${GAMES:-200}" \
        CONCURRENCY="${CONCURRENCY:-2}" PGN="$out/$n.pgn" \
        scripts/matches/match-raeuber-fairy.sh match > "$out/$n.log" 2>&1
    {
        echo "[$n] KIEBITZ_SEARCH='$override'"
        grep -E "^(Elo difference|Ptnml)" "$out/$n.log" | tail -2
    } >> "$out/summary.txt"
done
