#!/usr/bin/env python3
"""Checks the move lists of the XBoard scenarios (scripts/gui/xboard-scenarios/*.json) against a
small independent rules model of Räuberschach and pawn chess, so that what XBoard accepts or
rejects in those scenarios is measured against games known to be legal.

For each scenario it replays `moves` from the start position of the `setup` line and checks
  - every move is legal (or, with "legal": false, that some move is illegal), and
  - at the end the game is decided with the claimed `result` (or, with "claim_true": false,
    that the claim is not what the rules say).
Scenarios of other games (ordinary chess) are skipped.

Usage: check-xboard-scenarios.py [SCENARIO.json ...]   (default: all scenarios)
Exit status 0 when every scenario meets its expectation.
"""

import glob
import json
import os
import re
import sys

FILES = "abcdefgh"


def parse_fen(board_part, height):
    """FEN board field -> {(file, rank): piece letter}, rank 0 = rank 1."""
    board = {}
    for i, row in enumerate(board_part.split("/")):
        rank, file = height - 1 - i, 0
        for ch in re.findall(r"\d+|.", row):
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, rank)] = ch
                file += 1
    return board


def sq(file, rank):
    return f"{FILES[file]}{rank + 1}"


def parse_move(m):
    mt = re.fullmatch(r"([a-h])(\d)([a-h])(\d)([a-z]?)", m)
    if not mt:
        raise ValueError(f"bad move {m}")
    f1, r1, f2, r2, promo = mt.groups()
    return (FILES.index(f1), int(r1) - 1), (FILES.index(f2), int(r2) - 1), promo


class Raeuber:
    """Räuberschach 6x6: forced capture, king not royal, no move = the side to move wins."""

    STEPS = {
        "N": [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
        "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
        "R": [(1, 0), (-1, 0), (0, 1), (0, -1)],
    }
    STEPS["Q"] = STEPS["B"] + STEPS["R"]
    STEPS["K"] = STEPS["Q"]

    def __init__(self, board):
        self.board, self.white, self.w, self.h = board, True, 6, 6

    def own(self, p):
        return p.isupper() == self.white

    def moves(self):
        caps, quiet = [], []
        for (f, r), p in list(self.board.items()):
            if not self.own(p):
                continue
            kind = p.upper()
            if kind == "P":
                d = 1 if self.white else -1
                last = self.h - 1 if self.white else 0
                if not 0 <= r + d < self.h:
                    continue
                promo = "q" if r + d == last else ""
                if (f, r + d) not in self.board:
                    quiet.append(sq(f, r) + sq(f, r + d) + promo)
                for df in (-1, 1):
                    t = (f + df, r + d)
                    if t in self.board and not self.own(self.board[t]):
                        caps.append(sq(f, r) + sq(*t) + promo)
                continue
            for df, dr in self.STEPS[kind]:
                t = (f + df, r + dr)
                while 0 <= t[0] < self.w and 0 <= t[1] < self.h:
                    if t in self.board:
                        if not self.own(self.board[t]):
                            caps.append(sq(f, r) + sq(*t))
                        break
                    quiet.append(sq(f, r) + sq(*t))
                    if kind in "NK":
                        break
                    t = (t[0] + df, t[1] + dr)
        return caps or quiet

    def play(self, m):
        legal = self.moves()
        if m not in legal and m + "q" not in legal:
            return False
        fr, to, promo = parse_move(m)
        p = self.board.pop(fr)
        if p.upper() == "P" and to[1] in (0, self.h - 1):
            p = "Q" if self.white else "q"
        self.board[to] = p
        self.white = not self.white
        return True

    def result(self):
        if self.moves():
            return None
        return "1-0" if self.white else "0-1"


class Pawns:
    """Pawn chess WxH: last rank wins, no move = draw, optional double step / en passant."""

    def __init__(self, board, w, h, doublestep, enpassant):
        self.board, self.white, self.w, self.h = board, True, w, h
        self.ds, self.ep, self.ep_square = doublestep or enpassant, enpassant, None

    def winner(self):
        for (f, r), p in self.board.items():
            if p == "P" and r == self.h - 1:
                return "1-0"
            if p == "p" and r == 0:
                return "0-1"
        return None

    def moves(self):
        if self.winner():
            return []
        me = "P" if self.white else "p"
        d, base = (1, 0) if self.white else (-1, self.h - 1)
        out = []
        for (f, r), p in self.board.items():
            if p != me:
                continue
            if (f, r + d) not in self.board:
                out.append(sq(f, r) + sq(f, r + d))
                two = (f, r + 2 * d)
                if self.ds and r == base and 0 <= two[1] < self.h and two not in self.board:
                    out.append(sq(f, r) + sq(*two))
            for df in (-1, 1):
                t = (f + df, r + d)
                if 0 <= t[0] < self.w and (
                    (t in self.board and self.board[t] != me) or (self.ep and t == self.ep_square)
                ):
                    out.append(sq(f, r) + sq(*t))
        return out

    def play(self, m):
        if m not in self.moves():
            return False
        fr, to, _ = parse_move(m)
        p = self.board.pop(fr)
        if fr[0] != to[0] and to not in self.board:  # en passant
            self.board.pop((to[0], fr[1]))
        self.board[to] = p
        self.ep_square = (fr[0], (fr[1] + to[1]) // 2) if abs(to[1] - fr[1]) == 2 else None
        self.white = not self.white
        return True

    def result(self):
        if self.winner():
            return self.winner()
        return None if self.moves() else "1/2-1/2"


def game_for(sc):
    m = re.search(r"\) (\d)x(\d)\+0_\w+ (\S+)", sc.get("setup", ""))
    if not m:
        return None
    w, h, fen = int(m.group(1)), int(m.group(2)), m.group(3)
    board = parse_fen(fen, h)
    variant = sc["variant"]
    if variant == "raeuberschach":
        return Raeuber(board)
    if variant.startswith("pawns"):
        return Pawns(board, w, h, variant.endswith(("d", "ep")), variant.endswith("ep"))
    return None


def check(path):
    sc = json.load(open(path, encoding="utf-8"))
    game = game_for(sc)
    if game is None:
        return True, "skipped (no rules model for this game)"
    for ply, m in enumerate(sc["moves"]):
        if not game.play(m):
            if sc.get("legal", True):
                return False, f"ply {ply + 1} {m} is illegal"
            return True, f"illegal at ply {ply + 1} {m}, as intended"
    if not sc.get("legal", True):
        return False, "every move is legal, but the scenario says it is not"
    claimed = sc["result"].split()[0]
    decided = game.result()
    if sc.get("claim_true", True):
        if decided != claimed:
            return False, f"claims {claimed}, the rules say {decided or 'game not over'}"
        return True, f"{len(sc['moves'])} legal plies, {decided}"
    if decided == claimed:
        return False, f"the claim {claimed} is true, but the scenario says it is false"
    return True, f"{len(sc['moves'])} legal plies, false claim {claimed} as intended"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "xboard-scenarios", "*.json")))
    ok_all = True
    for p in paths:
        ok, why = check(p)
        ok_all &= ok
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(p):34} {why}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
