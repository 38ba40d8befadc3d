#!/usr/bin/env bash
# Formats the crate, or checks it with --check. `cargo fmt` alone does not reach the game
# folders: their modules are declared inside the games registry macro (src/games/mod.rs), which
# rustfmt does not expand, so every tracked Rust file is also given to rustfmt by name.
set -euo pipefail
cd "$(dirname "$0")/.."
check=()
[ "${1:-}" = "--check" ] && check=(--check)
cargo fmt --all -- "${check[@]}"
git ls-files -z 'src/games/*.rs' | xargs -0 rustfmt --edition 2024 "${check[@]}"
