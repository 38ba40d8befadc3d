#!/usr/bin/env bash
# Builds cutechess-cli from source (Debian ships no package) and installs it at
# $PREFIX/cutechess-cli (default /work/cutechess). Needs a git dir of
# github.com/cutechess/cutechess (GIT_DIR, default the local mirror) or network
# access to clone it.
#   scripts/build/build-cutechess.sh            # build and install
#   GIT_DIR=/path/to/cutechess.git REV=5e84232b scripts/build/build-cutechess.sh
set -euo pipefail
GIT_DIR_SRC=${GIT_DIR:-/work/.mirror/cutechess+cutechess/repo}
REV=${REV:-HEAD}
PREFIX=${PREFIX:-/work/cutechess}
SRC=${SRC:-$PREFIX/src}
BUILD=$PREFIX/build

if ! command -v cmake >/dev/null || ! dpkg -s qt6-base-dev qt6-svg-dev >/dev/null 2>&1; then
    echo "installing build dependencies (qt6-base-dev qt6-svg-dev cmake g++)" >&2
    apt-get update
    apt-get install -y qt6-base-dev qt6-svg-dev cmake g++ make
fi

mkdir -p "$PREFIX"
if [ ! -d "$SRC" ]; then
    if [ -d "$GIT_DIR_SRC" ]; then
        mkdir -p "$SRC"
        git --git-dir="$GIT_DIR_SRC" archive "$REV" | tar -x -C "$SRC"
    else
        git clone https://github.com/cutechess/cutechess "$SRC"
        git -C "$SRC" checkout "$REV"
    fi
fi

# Only the command-line client: no GUI, no tests.
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF
nice -n 10 cmake --build "$BUILD" --target cli -j "$(nproc)"
cp "$BUILD/cutechess-cli" "$PREFIX/cutechess-cli"
"$PREFIX/cutechess-cli" --version | head -1
