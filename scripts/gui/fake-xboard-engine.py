#!/usr/bin/env python3
"""A scripted CECP v2 (XBoard protocol) engine for testing XBoard set-ups.

It knows no rules: it replays a fixed, hand-checked move list from a scenario file and
claims the scenario's result at the end. It sends the scenario's `feature`, `setup` and
`piece` lines, so one can find out what XBoard accepts for an engine-defined variant
before the real engines speak the protocol.

Usage: fake-xboard-engine.py SCENARIO.json [LOGFILE]

Scenario keys:
  variant   variant name announced in `feature variants=...` (string)
  features  extra `feature` arguments sent before done=1 (list of strings, optional)
  setup     line sent in reply to `variant NAME`, e.g. "setup (P...) 6x6+0_giveaway FEN"
  pieces    `piece` lines sent after the setup line (list, optional)
  moves     the game, one move per ply in the engine's notation (list of strings)
  result    result claim sent when the moves are used up, e.g. "1-0 {White has no move}"
  claim     "next" (default): the engine on move after the last ply sends the result;
            "mover": the engine that plays the last ply sends it right after its move
  delay     seconds to wait before each move (float, optional, default 0.2)
Keys read only by scripts/gui/xboard-research.sh: expect_exit (exit status of
scripts/gui/xboard-smoke.sh), expect_result (PGN result), xboard_args (extra XBoard options).

Every line in and out is appended to LOGFILE (default: no log) with the process id.
"""

import json
import os
import sys
import time


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: fake-xboard-engine.py SCENARIO.json [LOGFILE]", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        sc = json.load(f)
    logf = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None
    pid = os.getpid()

    def log(direction: str, line: str) -> None:
        if logf:
            logf.write(f"{time.time():.3f} {pid} {direction} {line}\n")
            logf.flush()

    def send(line: str) -> None:
        log(">", line)
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    moves = sc["moves"]
    claim = sc.get("claim", "next")
    delay = float(sc.get("delay", 0.2))
    ply = 0  # plies played so far
    force = True
    my_side = 1  # 0 white, 1 black; `new` makes the engine play Black
    over = False

    def side_to_move() -> int:
        return ply % 2

    def think() -> None:
        nonlocal ply, over
        if over or force or side_to_move() != my_side:
            return
        if ply >= len(moves):
            send(sc["result"])
            over = True
            return
        time.sleep(delay)
        send("move " + moves[ply])
        ply += 1
        if ply >= len(moves) and claim == "mover":
            send(sc["result"])
            over = True

    for raw in sys.stdin:
        line = raw.strip()
        log("<", line)
        if not line:
            continue
        cmd, _, arg = line.partition(" ")
        if cmd == "protover":
            feats = [
                'myname="fake-cecp"',
                f'variants="{sc["variant"]}"',
                "setboard=1",
                "usermove=1",
                "ping=1",
                "sigint=0",
                "sigterm=0",
                "colors=0",
                "analyze=0",
                "time=1",
                "reuse=1",
            ] + sc.get("features", [])
            send("feature " + " ".join(feats))
            send("feature done=1")
        elif cmd == "variant":
            if sc.get("setup"):
                send(sc["setup"])
            for p in sc.get("pieces", []):
                send(p)
        elif cmd == "new":
            ply, force, my_side, over = 0, False, 1, False
        elif cmd == "force":
            force = True
        elif cmd == "go":
            force = False
            my_side = side_to_move()
            think()
        elif cmd == "playother":
            force = False
            my_side = 1 - side_to_move()
        elif cmd == "usermove":
            expected = moves[ply] if ply < len(moves) else None
            if arg != expected:
                log("!", f"ply {ply}: got {arg}, script has {expected}")
            ply += 1
            think()
        elif cmd == "ping":
            send("pong " + arg)
        elif cmd == "result":
            over = True
        elif cmd == "quit":
            break
        # everything else (level, time, otim, post, hard, computer, ...) is ignored
    return 0


if __name__ == "__main__":
    sys.exit(main())
