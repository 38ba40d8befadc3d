#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need, then format, lint, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
cargo fmt --all -- --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
