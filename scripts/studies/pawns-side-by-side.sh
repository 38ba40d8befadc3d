#!/usr/bin/env bash
# The pawn game N×N with en passant solved by the public solver sliedes/pawnsonly and by
# kiebitz-pawns, one after the other in one run, each under `/usr/bin/time -v`; prints the
# value, user + system CPU, wall time and peak memory of each, and the ratios
# (docs/solved.md, "Beside the public solver").
#
#   scripts/studies/pawns-side-by-side.sh PAWNSONLY_SRC [N] [KIEBITZ_PAWNS] [TABLE_MB] [KIEBITZ_MB]
#
# PAWNSONLY_SRC: a checkout of github.com/sliedes/pawnsonly (its N, thread count and table
# size are constants in pawnsonly.cpp: a copy is built with N, two threads, a table of about
# TABLE_MB (default 4096), and for N = 7 the search constants its author left for 7×7 in the
# source's comments; DEBUG=false in the environment also turns off its own consistency
# checks). KIEBITZ_PAWNS: default target/release/kiebitz-pawns. kiebitz runs `solve --variant
# pawngameNep --hash KIEBITZ_MB (default TABLE_MB) --threads 2 --root-only --budget 36000`
# (the root's value, as pawnsonly gives it).
set -euo pipefail
src=${1:?usage: pawns-side-by-side.sh PAWNSONLY_SRC [N] [KIEBITZ_PAWNS] [TABLE_MB]}
n=${2:-7}
kp=${3:-target/release/kiebitz-pawns}
mb=${4:-4096}
kmb=${5:-$mb}
work=$(mktemp -d /tmp/pawnsonly-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.cpp "$src"/*.hpp "$src"/Makefile "$work"/
# Entries of 4 bytes: the table's element count for about $mb MiB (pawnsonly wants a prime;
# an odd count is close enough for timing).
entries=$(( (mb << 20) / 4 | 1 ))
sed -i -E "s/^static constexpr int N = [0-9]+;/static constexpr int N = $n;/;
  s/^static constexpr size_t TP_TABLE_SIZE = [0-9]+;.*/static constexpr size_t TP_TABLE_SIZE = $entries;/;
  s/^static constexpr int NUM_THREADS = [0-9]+;/static constexpr int NUM_THREADS = 2;/" "$work/pawnsonly.cpp"
if [ "$n" = 7 ]; then
  sed -i -E "s/^static constexpr int VERBOSE_DEPTH = [0-9]+;/static constexpr int VERBOSE_DEPTH = 3;/;
    s/^static constexpr int PARALLEL_DEPTH = [0-9]+;/static constexpr int PARALLEL_DEPTH = 10;/;
    s/^static constexpr int CUT_MIN_DEPTH = [0-9]+;/static constexpr int CUT_MIN_DEPTH = 0;/;
    s/^static constexpr int PARALLEL_MIN_DEPTH = [0-9]+;/static constexpr int PARALLEL_MIN_DEPTH = 0;/" "$work/pawnsonly.cpp"
fi
if [ "${DEBUG:-true}" = false ]; then
  sed -i -E "s/^static constexpr bool DEBUG = true;/static constexpr bool DEBUG = false;/" "$work/pawnsonly.cpp"
fi
make -s -C "$work" pawnsonly > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
measure() { # name, command...: prints "name user sys wall_s peak_mb"
  local name=$1; shift
  /usr/bin/time -v "$@" > "$work/$name.out" 2> "$work/$name.time"
  awk -v name="$name" -F': ' '
    /User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {m=$2/1024}
    /Elapsed/ {n=split($2,t,":"); w=(n==3)?t[1]*3600+t[2]*60+t[3]:t[1]*60+t[2]}
    END {printf "%s %.2f %.2f %.2f %.0f\n", name, u, s, w, m}' "$work/$name.time"
}
a=$(measure pawnsonly "$work/pawnsonly")
b=$(measure kiebitz "$kp" solve --variant "pawngame${n}ep" --hash "$kmb" --threads 2 --root-only --budget 36000)
echo "pawnsonly says: $(grep -E 'result=' "$work/pawnsonly.out" | tail -1)"
echo "kiebitz says:   $(grep -E '^result' "$work/kiebitz.out")"
printf '%-10s %9s %9s %9s %9s %9s\n' program user_s sys_s cpu_s wall_s peak_MB
for r in "$a" "$b"; do
  read -r name u s w m <<< "$r"
  printf '%-10s %9.2f %9.2f %9.2f %9.2f %9s\n' "$name" "$u" "$s" "$(echo "$u + $s" | bc)" "$w" "$m"
done
read -r _ au as aw _ <<< "$a"; read -r _ bu bs bw _ <<< "$b"
echo "pawnsonly / kiebitz: CPU $(echo "scale=2; ($au + $as) / ($bu + $bs)" | bc)x, wall $(echo "scale=2; $aw / $bw" | bc)x"
