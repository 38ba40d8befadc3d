#!/usr/bin/env bash
# Lazy SMP measured side by side: time to depth and nodes/s over each game's bench positions
# with 1 and with 2 threads (`bench DEPTH --threads T`), the runs alternating 1, 2, 1, 2, … so
# that a change of machine load hits both alike; then a self-play match 2 threads vs 1.
#
# Usage: scripts/studies/smp-bench.sh [REPEATS] [CHESS_DEPTH] [RAEUBER_DEPTH] [MATCH_GAMES] [TC]
#   defaults: 3 repeats, chess depth 14, Räuberschach depth 18, 200 games at 10+0.1
#   (on 2 idle cores: about an hour; the match alone about 40 minutes).
# Set MATCH_GAMES to 0 to skip the match. Run it on a quiet machine: other processes on the
# cores make the 2-thread figures meaningless (the load is printed with the results).
set -euo pipefail
cd "$(dirname "$0")/../.."
repeats=${1:-3}
chess_depth=${2:-14}
raeuber_depth=${3:-18}
games=${4:-200}
tc=${5:-10+0.1}
cargo build --release --quiet --bins
echo "# $(date -u '+%F %T UTC'), $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
printf '%-8s %5s %7s %3s %12s %9s %10s\n' game depth run threads nodes ms nps
for spec in "chess:$chess_depth" "raeuber:$raeuber_depth"; do
    game=${spec%%:*}
    depth=${spec##*:}
    declare -A total_ms=([1]=0 [2]=0) total_nodes=([1]=0 [2]=0)
    for run in $(seq 1 "$repeats"); do
        for threads in 1 2; do
            out=$(target/release/kiebitz-$game bench "$depth" --threads "$threads")
            ms=$(sed -n 's/^Total time (ms) *: //p' <<<"$out")
            nodes=$(sed -n 's/^Nodes searched *: //p' <<<"$out")
            total_ms[$threads]=$((total_ms[$threads] + ms))
            total_nodes[$threads]=$((total_nodes[$threads] + nodes))
            printf '%-8s %5s %7s %3s %12s %9s %10s\n' "$game" "$depth" "$run" "$threads" \
                "$nodes" "$ms" "$((nodes * 1000 / (ms > 0 ? ms : 1)))"
        done
    done
    for threads in 1 2; do
        ms=${total_ms[$threads]}
        printf '%-8s %5s %7s %3s %12s %9s %10s\n' "$game" "$depth" "sum" "$threads" \
            "${total_nodes[$threads]}" "$ms" "$((total_nodes[$threads] * 1000 / (ms > 0 ? ms : 1)))"
    done
    echo "$game: time to depth $depth, 2 threads / 1 thread: $(awk -v a="${total_ms[2]}" -v b="${total_ms[1]}" 'BEGIN { printf "%.2f", a / b }')," \
        "nps ratio $(awk -v a="${total_nodes[2]}" -v b="${total_ms[2]}" -v c="${total_nodes[1]}" -v d="${total_ms[1]}" 'BEGIN { printf "%.2f", (a / b) / (c / d) }')"
    unset total_ms total_nodes
done
echo "# load after the benches: $(uptime | sed 's/.*load average: //')"
if [ "$games" -gt 0 ]; then
    # One game at a time: the 2-thread engine needs both cores while it thinks.
    target/release/kiebitz-match --game chess \
        --engine cmd=target/release/kiebitz-chess name=threads2 option.Threads=2 \
        --engine cmd=target/release/kiebitz-chess name=threads1 option.Threads=1 \
        --each tc="$tc" --openings tests/data/chess-openings.epd \
        --games 2 --rounds $((games / 2)) --concurrency 1 --ratinginterval 20
    echo "# load after the match: $(uptime | sed 's/.*load average: //')"
fi
