#!/usr/bin/env bash
# The fast tier (docs/testing.md): what a contributor runs after a change, in a few minutes
# once built — format, the library's unit tests, perft of every game against its references,
# the UCI and XBoard protocol sessions, and the house's checks (layers, function lengths, the
# docs). The whole suite, as CI runs it, is scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/fmt.sh --check
tests=(--lib)
for t in tests/perft_*.rs tests/protocol_uci.rs tests/protocol_xboard.rs tests/layers.rs \
    tests/fn_lengths.rs tests/docs_check.rs; do
    tests+=(--test "$(basename "$t" .rs)")
done
cargo test --profile quick "${tests[@]}"
