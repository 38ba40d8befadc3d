#!/usr/bin/env bash
# Räuberschach perft speed, kiebitz against Fairy-Stockfish, side by side in one run.
#
# Usage: scripts/oracles/raeuber-perft-vs-fairy.sh [DEPTH [ROUNDS]]      (defaults: 10 and 3)
#
# Each round runs Fairy-Stockfish's `go perft DEPTH` (variant file tests/data/fairy-variants.ini)
# and kiebitz's perft of the same depth from the start position, one right after the other,
# checks that both count the same nodes, and records wall-clock and user CPU seconds (bash's
# `time`, millisecond resolution). The summary gives the medians and the ratios
# fairy / kiebitz. On a busy machine the CPU-time ratio is the steadier figure.
#
# Environment: FAIRY (default /usr/games/fairy-stockfish); KIEBITZ_PERFT, a command taking
# DEPTH and printing `Nodes searched: N` (default: the raeuber_perft example, built here).
set -euo pipefail
cd "$(dirname "$0")/../.."
depth=${1:-10}
rounds=${2:-3}
fairy=${FAIRY:-/usr/games/fairy-stockfish}
if [[ -z "${KIEBITZ_PERFT:-}" ]]; then
    cargo build --release --quiet --example raeuber_perft
    KIEBITZ_PERFT=target/release/examples/raeuber_perft
fi
ini=$PWD/tests/data/fairy-variants.ini

fairy_perft() {
    printf 'setoption name VariantPath value %s\nsetoption name UCI_Variant value raeuberschach\nposition startpos\ngo perft %s\nquit\n' \
        "$ini" "$1" | "$fairy" | sed -n 's/^Nodes searched: //p'
}

kiebitz_perft() {
    $KIEBITZ_PERFT "$1" 2>/dev/null | sed -n 's/^Nodes searched: //p'
}

TIMEFORMAT='%3R %3U'
declare -a fw fu kw ku
echo "perft $depth from the start, $rounds rounds; fairy: $fairy; kiebitz: $KIEBITZ_PERFT"
for ((i = 0; i < rounds; i++)); do
    { t=$( { time fairy_perft "$depth" > /tmp/raeuber-fairy-nodes.$$; } 2>&1 ); }
    read -r w u <<< "$t"; fw+=("$w"); fu+=("$u")
    { t=$( { time kiebitz_perft "$depth" > /tmp/raeuber-kiebitz-nodes.$$; } 2>&1 ); }
    read -r w2 u2 <<< "$t"; kw+=("$w2"); ku+=("$u2")
    fn=$(cat /tmp/raeuber-fairy-nodes.$$); kn=$(cat /tmp/raeuber-kiebitz-nodes.$$)
    echo "round $((i + 1)): fairy $fn nodes ${w}s wall ${u}s cpu | kiebitz $kn nodes ${w2}s wall ${u2}s cpu"
    if [[ "$fn" != "$kn" ]]; then
        echo "node counts differ: fairy $fn, kiebitz $kn" >&2
        rm -f /tmp/raeuber-*-nodes.$$
        exit 1
    fi
done
rm -f /tmp/raeuber-*-nodes.$$

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mfw=$(median "${fw[@]}"); mfu=$(median "${fu[@]}")
mkw=$(median "${kw[@]}"); mku=$(median "${ku[@]}")
awk -v fw="$mfw" -v fu="$mfu" -v kw="$mkw" -v ku="$mku" -v d="$depth" 'BEGIN {
    printf "median perft %d: fairy %.3fs wall %.3fs cpu, kiebitz %.3fs wall %.3fs cpu\n", d, fw, fu, kw, ku
    printf "kiebitz is %.1fx faster by wall clock, %.1fx by cpu time\n", fw / (kw > 0 ? kw : 0.001), fu / (ku > 0 ? ku : 0.001)
}'
