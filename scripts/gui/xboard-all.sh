#!/usr/bin/env bash
# XBoard 4.9 with every kiebitz engine: one engine-against-itself game each under Xvfb
# (scripts/gui/xboard-smoke.sh), for Räuberschach, pawn chess 5×5 and 6×6 with e.p., and chess.
#
# Usage: scripts/gui/xboard-all.sh OUTDIR [--screenshots]
#   OUTDIR/<name>/ gets each game's game.pgn, xboard.debug and screenshots;
#   --screenshots also copies each final board (cropped) to docs/img/xboard-kiebitz-<name>.png.
# Needs the release binaries (cargo build --release) and the Debian packages xboard, xvfb,
# imagemagick. Takes 1-3 minutes (XBoard clock 0:20 a side by default, XBOARD_SMOKE_TC).
# Each game's engine moves (coordinates, from xboard.debug) are replayed under kiebitz's own
# rules with `kiebitz-match --check-pgn`, which must reach the result XBoard saved (XBoard
# accepts any result claim, so its PGN alone proves nothing about the result).
# Exit status: 0 if every game ended with a result, no forfeit and the right result; else the
# first failure's xboard-smoke status, or 4 when a result is wrong.
set -uo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 1 ]] || { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 64; }
OUT=$1 SHOTS=${2:-}
status=0
# Replays OUTDIR/NAME's game under kiebitz's rules: GAME [--variant V]
check() {
    local dir=$1
    shift
    local res moves
    res=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$dir/game.pgn" | tail -1)
    moves=$(grep -E '^[0-9]+ <(first |second): move ' "$dir/xboard.debug" | awk '{print $NF}' | tr '\n' ' ')
    printf '[Event "XBoard"]\n[Variant "%s"]\n[Result "%s"]\n\n%s %s\n' \
        "${VARIANT_TAG}" "$res" "$moves" "$res" >"$dir/coord.pgn"
    target/release/kiebitz-match "$@" --check-pgn "$dir/coord.pgn"
}
run() {  # name engine variant [extra xboard options]
    local name=$1 engine=$2 variant=$3
    shift 3
    scripts/gui/xboard-smoke.sh "target/release/$engine" "$variant" "$OUT/$name" "$@"
    local s=$?
    if (( s == 0 )); then
        local game=(--game pawns --variant "$variant")
        [[ $engine == kiebitz-raeuber ]] && game=(--game raeuberschach)
        [[ $engine == kiebitz-chess ]] && game=(--game chess)
        local tag=$variant
        [[ $variant == normal ]] && tag=chess
        VARIANT_TAG=$tag check "$OUT/$name" "${game[@]}" || s=4
    fi
    echo "xboard-all: $name exit $s"
    (( s != 0 && status == 0 )) && status=$s
    if [[ $SHOTS == --screenshots && -f $OUT/$name/screen-board.png ]]; then
        cp "$OUT/$name/screen-board.png" "docs/img/xboard-kiebitz-$name.png"
    fi
}
run raeuberschach kiebitz-raeuber raeuberschach
run pawns5 kiebitz-pawns pawns5
run pawns6ep kiebitz-pawns pawns6ep
# Chess games run long: with 20 s sudden death the latency of XBoard under Xvfb on a busy
# machine (about 0.1 s a move, measured in xboard.debug) can flag an engine after 70 moves,
# so chess gets an increment and XBoard's draw adjudication after 80 moves.
XBOARD_SMOKE_TC=0:20 XBOARD_SMOKE_INC=0.2 run chess kiebitz-chess normal -adjudicateDrawMoves 80
exit $status
