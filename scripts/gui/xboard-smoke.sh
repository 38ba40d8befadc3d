#!/usr/bin/env bash
# XBoard smoke test: one engine-vs-engine game in XBoard 4.9 under its own Xvfb.
#
# Usage: scripts/gui/xboard-smoke.sh ENGINE_CMD VARIANT OUTDIR [extra xboard options...]
#
#   ENGINE_CMD  command line of a CECP (XBoard protocol) engine, one string, e.g.
#               "target/release/kiebitz-raeuber" or "/usr/games/fairymax"; it plays both sides
#   VARIANT     XBoard variant name: normal (chess), raeuberschach, pawns6, pawns8ep, ...
#               (XBoard's legality testing stays on; docs/xboard.md says what engines send)
#   OUTDIR      created if missing; receives game.pgn, xboard.debug (all protocol traffic),
#               screen-start.png (a few seconds in), screen.png (at the end), screen-board.png
#               (the end, cropped to XBoard's window), xboard.log
#
# Environment: XBOARD_SMOKE_TC (XBoard -tc, default 0:20 = 20 s a side),
#   XBOARD_SMOKE_INC (-inc seconds, default 0), XBOARD_SMOKE_TIMEOUT (seconds before giving
#   up, default 180), XBOARD_SMOKE_SHOT (seconds before the first screenshot, default 3),
#   XBOARD_SMOKE_SIZE (XBoard -boardSize, default Medium), XBOARD (default xboard on PATH,
#   else /usr/games/xboard).
#
# Exit status: 0 the game ended with a result and no engine was forfeited by XBoard;
#   1 no result (time-out, crash, or no move was made); 2 XBoard forfeited an engine
#   (illegal move, false claim); 3 a required program is missing; 64 bad usage.
# Always starts its own Xvfb on a free display (works with CI=true and no DISPLAY) and
# stops everything it started on exit.
set -uo pipefail

usage() { sed -n '2,/^set /{/^set /d;s/^# \{0,1\}//;p}' "$0" >&2; exit 64; }
[[ $# -ge 3 ]] || usage
ENGINE_CMD=$1 VARIANT=$2 OUTDIR=$3
shift 3
EXTRA=("$@")

TC=${XBOARD_SMOKE_TC:-0:20}
INC=${XBOARD_SMOKE_INC:-0}
TIMEOUT=${XBOARD_SMOKE_TIMEOUT:-180}
SHOT=${XBOARD_SMOKE_SHOT:-3}
SIZE=${XBOARD_SMOKE_SIZE:-Medium}
XBOARD=${XBOARD:-$(command -v xboard || echo /usr/games/xboard)}

for prog in "$XBOARD" Xvfb import convert setsid; do
    if ! command -v "$prog" >/dev/null 2>&1; then
        echo "xboard-smoke: '$prog' not found; install the Debian packages xboard, xvfb and imagemagick" >&2
        exit 3
    fi
done

mkdir -p "$OUTDIR" || exit 64
OUTDIR=$(cd "$OUTDIR" && pwd)
rm -f "$OUTDIR"/game.pgn "$OUTDIR"/xboard.debug "$OUTDIR"/screen-start.png "$OUTDIR"/screen.png "$OUTDIR"/screen-board.png
mkdir -p "$OUTDIR/home"

XVFB_PID= XB_PID=
cleanup() {
    if [[ -n $XB_PID ]]; then
        # xboard runs in its own session (setsid): its process group holds it and the engines
        kill -TERM -- "-$XB_PID" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$XB_PID" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$XB_PID" 2>/dev/null
        wait "$XB_PID" 2>/dev/null
    fi
    if [[ -n $XVFB_PID ]]; then
        kill -TERM "$XVFB_PID" 2>/dev/null
        wait "$XVFB_PID" 2>/dev/null
    fi
    rm -f "$OUTDIR/.display"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Xvfb picks a free display itself and writes its number to fd 3.
: >"$OUTDIR/.display"
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$OUTDIR/.display" 2>"$OUTDIR/xvfb.log" &
XVFB_PID=$!
for _ in $(seq 100); do [[ -s $OUTDIR/.display ]] && break; sleep 0.1; done
if [[ ! -s $OUTDIR/.display ]]; then
    echo "xboard-smoke: Xvfb did not start (see $OUTDIR/xvfb.log)" >&2
    exit 1
fi
export DISPLAY=":$(tr -d '[:space:]' <"$OUTDIR/.display")"
export HOME="$OUTDIR/home"  # keeps XBoard's settings file out of the user's home

ARGS=(-fcp "$ENGINE_CMD" -scp "$ENGINE_CMD" -variant "$VARIANT" -mode TwoMachines
      -tc "$TC" -inc "$INC" -boardSize "$SIZE" -saveGameFile "$OUTDIR/game.pgn"
      -debug -nameOfDebugFile "$OUTDIR/xboard.debug"
      -xexit -saveSettingsOnExit false "${EXTRA[@]}")
echo "xboard-smoke: DISPLAY=$DISPLAY $XBOARD $(printf '%q ' "${ARGS[@]}")"
setsid "$XBOARD" "${ARGS[@]}" >"$OUTDIR/xboard.log" 2>&1 &
XB_PID=$!

result() { [[ -f $OUTDIR/game.pgn ]] && sed -n 's/^\[Result "\(1-0\|0-1\|1\/2-1\/2\)"\]$/\1/p' "$OUTDIR/game.pgn" | tail -1; }
# XBoard's own record of the game end in the debug file: "GameEnds(27, REASON, 4)";
# 26 = White wins, 27 = Black wins, 28 = draw (0 is the reset at start-up).
game_end() { [[ -f $OUTDIR/xboard.debug ]] && grep -m1 -E '^GameEnds\((26|27|28), ' "$OUTDIR/xboard.debug"; }

start=$SECONDS shot_done=0 res= ended=
while (( SECONDS - start < TIMEOUT )); do
    if (( !shot_done && SECONDS - start >= SHOT )); then
        import -window root "$OUTDIR/screen-start.png" 2>>"$OUTDIR/xboard.log"
        shot_done=1
    fi
    res=$(result)
    [[ -n $res ]] && break
    ended=$(game_end)
    if [[ -n $ended ]]; then
        sleep 1; res=$(result)  # XBoard writes the PGN right after GameEnds (none if no move was made)
        break
    fi
    kill -0 "$XB_PID" 2>/dev/null || break
    sleep 0.5
done
sleep 1  # let XBoard draw the final position
(( shot_done )) || import -window root "$OUTDIR/screen-start.png" 2>>"$OUTDIR/xboard.log"
import -window root "$OUTDIR/screen.png" 2>>"$OUTDIR/xboard.log"
convert "$OUTDIR/screen.png" -trim +repage "$OUTDIR/screen-board.png" 2>>"$OUTDIR/xboard.log"

if [[ -n $res ]]; then
    # the termination comment XBoard writes before the result, e.g. {Xboard adjudication: Stalemate}
    why=$(tr '\n' ' ' <"$OUTDIR/game.pgn" | sed -n 's/.*{\([^}]*\)} *\(1-0\|0-1\|1\/2-1\/2\) *$/\1/p')
elif [[ -n $ended ]]; then
    why=$(sed -E 's/^GameEnds\([0-9]+, (.*), [0-9]+\)$/\1/' <<<"$ended")
    echo "xboard-smoke: the game ended without a saved game: $why" >&2
else
    echo "xboard-smoke: FAIL no result after $((SECONDS - start)) s (see $OUTDIR/xboard.debug)" >&2
    exit 1
fi
case $why in
    *Forfeit* | *"False win claim"* | *"False draw claim"* | *"False illegal"* | *llegal*)
        echo "xboard-smoke: FAIL XBoard forfeited an engine: $why" >&2
        exit 2 ;;
esac
if [[ -z $res ]]; then
    echo "xboard-smoke: FAIL no saved game in $OUTDIR/game.pgn" >&2
    exit 1
fi
echo "xboard-smoke: result $res {$why}"
exit 0
