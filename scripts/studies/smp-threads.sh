#!/usr/bin/env bash
# Lazy SMP on a many-core machine: a self-play SPRT 2 threads vs 1 (chess, 5 games at a time:
# 15 cores), then `bench` time to depth with 1, 2, 4, 8 and 16 threads for three settings of the
# SMP switches (base; smp_depth_by_any; smp_depth_by_any + smp_skip_done), the chess and the
# Räuberschach series side by side (at most 8 cores at once), 8 and 16 threads afterwards.
#
# Usage: BIN=DIR scripts/studies/smp-threads.sh OUT [SPRT_SECONDS] [CHESS_DEPTH] [RAEUBER_DEPTH]
#   DIR holds kiebitz-chess, kiebitz-raeuber and kiebitz-match (default target/release);
#   defaults: 290 s of SPRT at 2+0.02, chess depth 17, Räuberschach depth 20, three repeats.
# Measured with it: docs/search-log.md, "2026-11-26: Lazy SMP on 16 cores".
set -u
cd "$(dirname "$0")/../.."
bin=${BIN:-target/release}
out=${1:?usage: smp-threads.sh OUT [SPRT_SECONDS] [CHESS_DEPTH] [RAEUBER_DEPTH]}
sprt_s=${2:-290}
chess_depth=${3:-17}
raeuber_depth=${4:-20}
mkdir -p "$out"
echo "# $(nproc) CPUs: $(lscpu | sed -n 's/^Model name: *//p')"
if [ "$sprt_s" -gt 0 ]; then
    timeout -s INT "$sprt_s" "$bin/kiebitz-match" --game chess \
        --engine cmd="$bin/kiebitz-chess" name=threads2 option.Threads=2 option.Hash=16 \
        --engine cmd="$bin/kiebitz-chess" name=threads1 option.Threads=1 option.Hash=16 \
        --tc 2+0.02 --games 4000 --concurrency 5 --openings file=tests/data/chess-openings.epd \
        order=random --seed 7 --sprt elo0=0 elo1=10 --ratinginterval 50 \
        --pgn "$out/smp-sprt.pgn" > "$out/sprt.log" 2>&1
    tail -8 "$out/sprt.log"
fi
bench() { # game depth threads overrides
    local o
    o=$(KIEBITZ_SEARCH=$4 "$bin/kiebitz-$1" bench "$2" --threads "$3" 2>&1)
    echo "$1 $2 t=$3 cfg=${4:-base} ms=$(sed -n 's/^Total time (ms) *: //p' <<<"$o")" \
        "nodes=$(sed -n 's/^Nodes searched *: //p' <<<"$o")"
}
any="smp_depth_by_any=1"
skip="smp_depth_by_any=1,smp_skip_done=1"
series() { # game depth
    for _ in 1 2 3; do
        bench "$1" "$2" 1 ""
        for c in "" $any $skip; do bench "$1" "$2" 2 "$c"; done
        for c in "" $skip; do bench "$1" "$2" 4 "$c"; done
    done
}
series chess "$chess_depth" > "$out/bench-chess.txt" &
series raeuber "$raeuber_depth" > "$out/bench-raeuber.txt" &
wait
for _ in 1 2; do
    for t in 8 16; do
        for c in "" $skip; do
            bench chess "$chess_depth" "$t" "$c"
            bench raeuber "$raeuber_depth" "$t" "$c"
        done
    done
done > "$out/bench-wide.txt"
# Mean time and nodes per game, threads and setting.
cat "$out"/bench-*.txt | awk '{ k = $1 " t=" substr($3, 3) " " substr($4, 5); split($5, m, "=");
    split($6, n, "="); ms[k] += m[2]; nd[k] += n[2]; c[k]++ }
    END { for (k in ms) printf "%-55s runs %d  ms %6d  nodes %10d\n", k, c[k], ms[k] / c[k], nd[k] / c[k] }' | sort
