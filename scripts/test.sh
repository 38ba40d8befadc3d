#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what the tests need, then format, lint, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
# tests/cli_play.rs drives `play` in a real terminal through tmux; install it where apt exists.
if ! command -v tmux >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux; } >/dev/null ||
            echo "test.sh: could not install tmux; tests/cli_play.rs needs it" >&2
    else
        echo "test.sh: no tmux and no apt-get; install tmux for tests/cli_play.rs" >&2
    fi
fi
# tests/web_e2e.rs drives kiebitz-web's page in Debian's headless Chromium over WebDriver.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; } >/dev/null ||
            echo "test.sh: could not install chromium; tests/web_e2e.rs will skip" >&2
    else
        echo "test.sh: no chromium and no apt-get; tests/web_e2e.rs will skip" >&2
    fi
fi
bash scripts/fmt.sh --check
# The quick profile: release's optimisation without fat LTO (Cargo.toml), so the suite's ~70
# test binaries and the engines build in a fraction of the time; the results are the same.
cargo clippy --profile quick --all-targets -- -D warnings
cargo test --profile quick
