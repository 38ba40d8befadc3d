#!/usr/bin/env bash
# Builds the public Syzygy generator (github.com/syzygy1/tb, GPL-2, used here as a tool only: its
# source is never part of kiebitz) and generates the 3- and 4-men tables kiebitz's tablebase
# tests use: KQvK, KRvK, KPvK, KRvKP, KQvKR, KBNvK and every table they convert into by a
# capture or a promotion (a table needs those of its successors, found through $RTPATH).
#
#   scripts/build/build-syzygy-tables.sh [OUT_DIR] [TB_SOURCE]
#
# OUT_DIR: where the .rtbw/.rtbz files go (default tests/data/syzygy). TB_SOURCE: a checkout of
# the generator, or a bare git directory of it (default: $SYZYGY_TB_SRC, else a clone). The
# generator compresses its temporary files with the LZ4 copy it ships, so neither libzstd nor
# liblz4 headers are needed. Takes about 4 minutes on one busy core; tables already in OUT_DIR
# are kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-tests/data/syzygy}")
src=${2:-${SYZYGY_TB_SRC:-}}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

if [ -z "$src" ]; then
    git clone --quiet https://github.com/syzygy1/tb "$work/tb"
elif [ -d "$src/src" ]; then
    cp -r "$src" "$work/tb"
else
    mkdir "$work/tb"
    git --git-dir="$src" archive HEAD | tar -x -C "$work/tb"
fi
cd "$work/tb/src"
# Portable build: magic bitboards instead of BMI2, LZ4 instead of zstd, no LTO.
sed -i -e 's/^FLAGS = -DBMI2/FLAGS = -DMAGIC/' \
    -e 's/^FLAGS += -DUSE_ZSTD/#&/' -e 's/^LDFLAGS += -lzstd/#&/' \
    -e 's/-flto=auto//' -e 's/-march=native//' \
    -e 's/^FLAGS += -DCOMPRESSION_THREADS=6/FLAGS += -DCOMPRESSION_THREADS=1/' Makefile
# The two programs share object files: build them one after the other.
nice -n 10 make rtbgen >/dev/null
nice -n 10 make rtbgenp >/dev/null
gen=$PWD

cd "$out"
export RTPATH="$out"
# Successors first: a table is generated from the WDL tables it converts into.
for table in KQvK KRvK KBvK KNvK KPvK KQvKR KRvKR KRvKB KRvKN KBNvK KRvKP; do
    if [ -f "$table.rtbw" ] && [ -f "$table.rtbz" ]; then
        continue
    fi
    case $table in
        *P*) prog=rtbgenp ;;
        *) prog=rtbgen ;;
    esac
    echo "generating $table" >&2
    nice -n 10 "$gen/$prog" --threads 1 "$table" >/dev/null
done
ls -l "$out" >&2
