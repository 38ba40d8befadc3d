#!/usr/bin/env bash
# The 6×6 start position attacked with the df-pn solver (`kiebitz-raeuber solve`): the start
# itself, then every first move of White, each with a node budget (load-independent), and the
# proof-number progress of each attempt (the win for the side to move, then for the opponent).
#
#   scripts/studies/raeuber-start-moonshot.sh [ROOT_NODES] [MOVE_NODES] [HASH_MB]
#       defaults 60000000, 30000000 and 2048; prints one block per position and a summary.
#
# Environment: ENGINE (default target/release/kiebitz-raeuber, built here).
set -euo pipefail
cd "$(dirname "$0")/../.."
root_nodes=${1:-60000000}
move_nodes=${2:-30000000}
hash=${3:-2048}
if [ -z "${ENGINE:-}" ]; then
    cargo build --release --quiet --bin kiebitz-raeuber
fi
engine=${ENGINE:-target/release/kiebitz-raeuber}
moves=$("$engine" perft 1 --divide | sed -n 's/^\([a-f][1-6][a-f][1-6][a-z]*\): 1$/\1/p')
echo "## start position, $root_nodes nodes"
"$engine" solve --nodes "$root_nodes" --hash "$hash"
for mv in $moves; do
    echo
    echo "## after 1. $mv (Black to move), $move_nodes nodes"
    "$engine" solve --moves "$mv" --nodes "$move_nodes" --hash "$hash"
done
