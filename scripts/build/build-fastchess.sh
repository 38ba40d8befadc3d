#!/usr/bin/env bash
# Builds fastchess from source (Debian ships no package) and installs it at
# $PREFIX/fastchess (default /work/fastchess). Needs a git dir of
# github.com/Disservin/fastchess (GIT_DIR, default the local mirror) or network
# access to clone it; g++ and make (C++17).
#   scripts/build/build-fastchess.sh            # build and install
#   GIT_DIR=/path/to/fastchess.git REV=74deac23 scripts/build/build-fastchess.sh
set -euo pipefail
GIT_DIR_SRC=${GIT_DIR:-/work/.mirror/Disservin+fastchess/repo}
REV=${REV:-HEAD}
PREFIX=${PREFIX:-/work/fastchess}
SRC=${SRC:-$PREFIX/src}

mkdir -p "$PREFIX"
if [ ! -d "$SRC" ]; then
    if [ -d "$GIT_DIR_SRC" ]; then
        git clone -q "$GIT_DIR_SRC" "$SRC"
    else
        git clone -q https://github.com/Disservin/fastchess "$SRC"
    fi
    git -C "$SRC" checkout -q "$REV"
fi
# The makefile takes the commit for --version from git, so build in a clone, not an archive.
nice -n 10 make -C "$SRC" -j "$(nproc)"
cp "$SRC/fastchess" "$PREFIX/fastchess"
"$PREFIX/fastchess" --version | head -1
