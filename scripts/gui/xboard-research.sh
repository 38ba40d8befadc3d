#!/usr/bin/env bash
# Replays the XBoard scenarios (scripts/gui/xboard-scenarios/*.json) with the scripted engine
# scripts/gui/fake-xboard-engine.py through scripts/gui/xboard-smoke.sh and checks that XBoard 4.9
# reacts as docs/xboard.md says: the smoke test's exit status (`expect_exit`) and the game
# result (`expect_result`), with the scenario's extra XBoard options (`xboard_args`).
#
# Usage: scripts/gui/xboard-research.sh OUTDIR [SCENARIO.json ...]   (default: all scenarios)
# Prints one line per scenario; exits non-zero if any scenario differs from its expectation.
set -uo pipefail
[[ $# -ge 1 ]] || { echo "usage: $0 OUTDIR [SCENARIO.json ...]" >&2; exit 64; }
mkdir -p "$1" || exit 64
OUT=$(realpath "$1"); shift
SCEN=()
for sc in "$@"; do SCEN+=("$(realpath "$sc")"); done
cd "$(dirname "$0")/../.."
[[ ${#SCEN[@]} -gt 0 ]] || SCEN=("$PWD"/scripts/gui/xboard-scenarios/*.json)
fail=0
for sc in "${SCEN[@]}"; do
    name=$(basename "$sc" .json)
    mapfile -t meta < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["variant"]); print(d.get("expect_exit", 0)); print(d.get("expect_result", ""))
print(" ".join(d.get("xboard_args", [])))' "$sc")
    variant=${meta[0]} want_exit=${meta[1]} want_res=${meta[2]}
    read -r -a xargs_ <<<"${meta[3]}"
    XBOARD_SMOKE_TIMEOUT=${XBOARD_SMOKE_TIMEOUT:-60} scripts/gui/xboard-smoke.sh \
        "python3 $PWD/scripts/gui/fake-xboard-engine.py $sc $OUT/$name/engine.log" \
        "$variant" "$OUT/$name" "${xargs_[@]}" >"$OUT/$name.log" 2>&1
    got_exit=$?
    got_res=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$OUT/$name/game.pgn" 2>/dev/null | tail -1)
    verdict=ok
    [[ $got_exit == "$want_exit" ]] || verdict=DIFFERS
    [[ -z $want_res || $got_res == "$want_res" ]] || verdict=DIFFERS
    [[ $verdict == ok ]] || fail=1
    printf '%-32s %-14s exit %s (want %s) result %-8s %s | %s\n' "$name" "$variant" "$got_exit" \
        "$want_exit" "${got_res:--}" "$verdict" "$(grep -h 'xboard-smoke: \(result\|FAIL\)' "$OUT/$name.log" | tail -1)"
done
exit $fail
