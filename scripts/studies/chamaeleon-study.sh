#!/usr/bin/env bash
# Chamäleon Schach: the paper's table and the larger study (docs/chamaeleon.md).
#
#   scripts/studies/chamaeleon-study.sh paper [SECONDS]
#       4 algorithms, all 24 seatings once, no random opening, SECONDS a move (default 1) — the
#       paper's table (1 s: 18 min on an idle core)
#   scripts/studies/chamaeleon-study.sh four SECONDS
#       4 algorithms, 24 seatings × 5 rounds, 4 random opening turns a round: 120 games
#   scripts/studies/chamaeleon-study.sh five SECONDS
#       5 algorithms (BRS added), all 120 seatings of 5 on 4 seats, 4 random opening turns:
#       120 games
#
# The 1 s runs: `scripts/studies/chamaeleon-study.sh paper 1`, `… four 1`, `… five 1` (each
# about 90 min for 120 games on an idle core; add --concurrency via CONCURRENCY=N on a machine
# with cores to spare). Results: the table on stdout, records in target/chamaeleon/*.pgn,
# progress on stderr. The binaries are copied first so that a rebuild during a run cannot mix
# versions.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-paper}
secs=${2:-1}
conc=${CONCURRENCY:-1}
out=target/chamaeleon
mkdir -p "$out/bin"
cargo build --release --bin kiebitz-chamaeleon --bin kiebitz-match >&2
cp target/release/kiebitz-chamaeleon target/release/kiebitz-match "$out/bin/"
B="$PWD/$out/bin/kiebitz-chamaeleon"
engines=(
    --engine "cmd=$B" name=MaxN option.Algorithm=maxn
    --engine "cmd=$B" name=MaxN-IS option.Algorithm=maxn-is
    --engine "cmd=$B" name=Paranoid option.Algorithm=paranoid
    --engine "cmd=$B" name=Hypermax option.Algorithm=hypermax
)
case "$mode" in
paper) args=(--rounds 1 --random-turns 0) ;;
four) args=(--rounds 5 --random-turns 4 --seed 2026) ;;
five)
    engines+=(--engine "cmd=$B" name=BRS option.Algorithm=brs)
    args=(--rounds 1 --random-turns 4 --seed 2026)
    ;;
*) echo "usage: $0 paper|four|five [SECONDS]" >&2; exit 2 ;;
esac
"$out/bin/kiebitz-match" --game chamaeleon --players 4 "${engines[@]}" --tc "$secs" \
    "${args[@]}" --concurrency "$conc" --pgn "$out/$mode-$secs.pgn"
