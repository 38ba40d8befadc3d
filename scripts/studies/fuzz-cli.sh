#!/bin/sh
# The full-size run of the shell's abuse suite (tests/fuzz_cli.rs): every command line of
# every binary (stride 1) with a 10 s deadline, 2 runs at once. Prints the inputs tried per
# binary and every failure. Usage: scripts/studies/fuzz-cli.sh [BIN_DIR]  (default: this build)
set -e
cd "$(dirname "$0")/../.."
[ -n "$1" ] && export KIEBITZ_FUZZ_BIN_DIR="$1"
KIEBITZ_FUZZ_STRIDE=1 KIEBITZ_FUZZ_DEADLINE_MS=10000 KIEBITZ_FUZZ_JOBS=2 \
  nice -n 10 cargo test --release --test fuzz_cli -- --nocapture
