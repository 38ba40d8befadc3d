#!/usr/bin/env bash
# Perft from the start position, kiebitz vs Debian's stockfish 15.1 `go perft`, side by side.
# Usage: scripts/oracles/perft-vs-stockfish.sh [DEPTH] [REPETITIONS]
# Prints, per run, wall-clock and CPU (user+sys) seconds of each program, then the medians and
# the ratio kiebitz/stockfish. Stockfish's times include its start-up (loading its network),
# which is measured on its own and printed too. CPU time is the fairer figure on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
depth=${1:-6}
reps=${2:-5}
sf=${STOCKFISH:-/usr/games/stockfish}
[ -x "$sf" ] || { echo "stockfish not found at $sf (apt-get install stockfish)" >&2; exit 1; }
cargo build --release --quiet --example chess-perft
kb=target/release/examples/chess-perft

TIMEFORMAT='%R %U %S'
measure() { # prints "wall cpu" of the command
    local t
    t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' <<<"$t"
}
sf_perft() { printf 'go perft %s\nquit\n' "$depth" | "$sf"; }
sf_start() { printf 'quit\n' | "$sf"; }

# Both programs must agree on the count.
kb_nodes=$("$kb" "$depth" | cut -d' ' -f1)
sf_nodes=$(sf_perft | sed -n 's/^Nodes searched: //p')
echo "perft $depth: kiebitz $kb_nodes, stockfish $sf_nodes"
[ "$kb_nodes" = "$sf_nodes" ] || { echo "node counts differ" >&2; exit 1; }

echo "run  kiebitz(wall cpu)  stockfish(wall cpu)  stockfish-startup(wall cpu)"
: >/tmp/kiebitz-perft-times.$$
for i in $(seq "$reps"); do
    k=$(measure "$kb" "$depth")
    s=$(measure sf_perft)
    z=$(measure sf_start)
    echo "$i    $k          $s           $z"
    echo "$k $s $z" >>/tmp/kiebitz-perft-times.$$
done
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
col() { awk -v c="$1" '{ print $c }' /tmp/kiebitz-perft-times.$$ | median; }
kw=$(col 1); kc=$(col 2); sw=$(col 3); sc=$(col 4); zw=$(col 5); zc=$(col 6)
rm -f /tmp/kiebitz-perft-times.$$
echo "median wall: kiebitz $kw s, stockfish $sw s (start-up $zw s)  ratio $(awk -v a="$kw" -v b="$sw" 'BEGIN { printf "%.2f", a / b }')"
echo "median cpu:  kiebitz $kc s, stockfish $sc s (start-up $zc s)  ratio $(awk -v a="$kc" -v b="$sc" 'BEGIN { printf "%.2f", a / b }')"
