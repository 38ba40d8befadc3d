#!/usr/bin/env bash
# XBoard 4.9 with every kiebitz engine: one engine-against-itself game each under Xvfb
# (scripts/xboard-smoke.sh), for Räuberschach, pawn chess 5×5 and 6×6 with e.p., and chess.
#
# Usage: scripts/xboard-all.sh OUTDIR [--screenshots]
#   OUTDIR/<name>/ gets each game's game.pgn, xboard.debug and screenshots;
#   --screenshots also copies each final board (cropped) to docs/img/xboard-kiebitz-<name>.png.
# Needs the release binaries (cargo build --release) and the Debian packages xboard, xvfb,
# imagemagick. Takes 1-3 minutes (XBoard clock 0:20 a side by default, XBOARD_SMOKE_TC).
# Exit status: 0 if every game ended with a result and no forfeit, else the first failure's
# xboard-smoke status.
set -uo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 64; }
OUT=$1 SHOTS=${2:-}
status=0
run() {  # name engine variant [extra xboard options]
    local name=$1 engine=$2 variant=$3
    shift 3
    scripts/xboard-smoke.sh "target/release/$engine" "$variant" "$OUT/$name" "$@"
    local s=$?
    echo "xboard-all: $name exit $s"
    (( s != 0 && status == 0 )) && status=$s
    if [[ $SHOTS == --screenshots && -f $OUT/$name/screen-board.png ]]; then
        cp "$OUT/$name/screen-board.png" "docs/img/xboard-kiebitz-$name.png"
    fi
}
run raeuberschach kiebitz-raeuber raeuberschach
run pawns5 kiebitz-pawns pawns5
run pawns6ep kiebitz-pawns pawns6ep
run chess kiebitz-chess normal
exit $status
