#!/usr/bin/env bash
# Build Fairy-Stockfish from a source checkout, outside the repository, for the Räuberschach
# matches and suites (docs/raeuber.md, "The anchor").
#
#   scripts/build/build-fairy-stockfish.sh [SOURCE] [OUT]
#
# SOURCE (or $FSF_SRC): a Fairy-Stockfish work tree (with src/Makefile) or a bare git
#   directory (its HEAD is exported with `git archive`).
# OUT (or $FSF_OUT, default /work/fsf/fairy-stockfish): where the binary goes; next to it,
#   OUT.commit holds the source commit and OUT.id the `id name` line the binary reports.
# ARCH (default x86-64-bmi2 when the CPU has BMI2, else x86-64-modern), JOBS (default 2).
#
# The script never writes into this repository; neither the code nor the binary is committed.
set -euo pipefail
src=${1:-${FSF_SRC:-}}
out=${2:-${FSF_OUT:-/work/fsf/fairy-stockfish}}
[ -n "$src" ] || { sed -n '2,13p' "$0" >&2; exit 2; }
[ -d "$src" ] || { echo "no such source directory: $src" >&2; exit 1; }
if grep -qw bmi2 /proc/cpuinfo 2>/dev/null; then default_arch=x86-64-bmi2; else default_arch=x86-64-modern; fi
arch=${ARCH:-$default_arch}
build=$(mktemp -d /tmp/fsf-build.XXXXXX)
trap 'rm -rf "$build"' EXIT
if [ -f "$src/src/Makefile" ]; then
    commit=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
    cp -r "$src/." "$build/"
elif git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; then
    commit=$(git --git-dir="$src" rev-parse HEAD)
    git --git-dir="$src" archive HEAD | tar -x -C "$build"
else
    echo "$src is neither a Fairy-Stockfish work tree nor a git directory" >&2
    exit 1
fi
echo "building Fairy-Stockfish $commit with ARCH=$arch" >&2
make -C "$build/src" -j"${JOBS:-2}" build ARCH="$arch" >"$build/make.log" 2>&1 || {
    tail -30 "$build/make.log" >&2
    exit 1
}
mkdir -p "$(dirname "$out")"
cp "$build/src/stockfish" "$out"
echo "$commit" > "$out.commit"
id=$(printf 'uci\nquit\n' | "$out" | grep -m1 '^id name' || true)
echo "$id" > "$out.id"
echo "built $out" >&2
echo "commit $commit"
echo "$id"
