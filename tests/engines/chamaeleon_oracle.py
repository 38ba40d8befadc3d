#!/usr/bin/env python3
"""A second, independent move generator for Chamäleon Schach (docs/rules.md §10), written
differently from the engine's (dictionaries of (file, rank) coordinates, the role table
spelled out, no bitboards), used as an oracle by tests/perft_chamaeleon.rs.

Commands on stdin, one per line; one answer line each on stdout:
  perft DEPTH TEXT          -> the number of move paths (passes count as moves)
  walk PLAYERS SEED         -> a random game from the start: "move|text-after;move|text-after;..."
"""
import random
import sys

SEATS = "swne"
PIECES = "RYGB"
ROLE = {  # piece letter -> role on red, yellow, green, blue (docs/rules.md §10's table)
    "R": ["N", "B", "R", "Q"],
    "Y": ["B", "N", "Q", "R"],
    "G": ["R", "Q", "N", "B"],
    "B": ["Q", "R", "B", "N"],
}
STEPS = {
    "N": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
    "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)],
    "R": [(1, 0), (-1, 0), (0, 1), (0, -1)],
}
STEPS["Q"] = STEPS["B"] + STEPS["R"]


def colour(x, y):
    return (x + y) % 2 + 2 * ((x // 2 + y // 2) % 2)


def sqname(x, y):
    return "abcdefgh"[x] + str(y + 1)


class Pos:
    def __init__(self, pieces, area, seats, tomove, turn):
        self.pieces = pieces  # (x, y) -> (seat letter, piece letter)
        self.area = area  # [x0, x1, y0, y1]
        self.seats = seats
        self.tomove = tomove
        self.turn = turn

    @staticmethod
    def parse(text):
        board, area, seats, tomove, turn = text.split()
        pieces = {}
        for i, row in enumerate(board.split("/")):
            y = 7 - i
            x = 0
            j = 0
            while j < len(row):
                c = row[j]
                if c.isdigit():
                    x += int(c)
                    j += 1
                else:
                    pieces[(x, y)] = (c, row[j + 1])
                    x += 1
                    j += 2
        a, b = area.split("-")
        ar = ["abcdefgh".index(a[0]), "abcdefgh".index(b[0]), int(a[1]) - 1, int(b[1]) - 1]
        return Pos(pieces, ar, seats, tomove, int(turn))

    @staticmethod
    def start(players):
        seats = {2: "sn", 3: "swn", 4: "swne"}[players]
        layout = {
            "s": [(0, 0), (1, 0), (2, 0), (3, 0)],
            "w": [(0, 4), (0, 5), (0, 6), (0, 7)],
            "n": [(7, 7), (6, 7), (5, 7), (4, 7)],
            "e": [(7, 3), (7, 2), (7, 1), (7, 0)],
        }
        pieces = {}
        for s in seats:
            for letter, xy in zip(PIECES, layout[s]):
                pieces[xy] = (s, letter)
        return Pos(pieces, [0, 7, 0, 7], seats, "s", 0)

    def text(self):
        rows = []
        for y in range(7, -1, -1):
            row, empty = "", 0
            for x in range(8):
                if (x, y) in self.pieces:
                    if empty:
                        row += str(empty)
                        empty = 0
                    s, p = self.pieces[(x, y)]
                    row += s + p
                else:
                    empty += 1
            if empty:
                row += str(empty)
            rows.append(row)
        x0, x1, y0, y1 = self.area
        return "%s %s-%s %s %s %d" % (
            "/".join(rows), sqname(x0, y0), sqname(x1, y1), self.seats, self.tomove, self.turn)

    def alive(self):
        return [s for s in SEATS if any(v[0] == s for v in self.pieces.values())]

    def over(self):
        return len(self.alive()) <= 1 or self.turn >= 100

    def inside(self, x, y):
        x0, x1, y0, y1 = self.area
        return x0 <= x <= x1 and y0 <= y <= y1

    def moves(self):
        if self.over():
            return []
        out = []
        for (x, y), (s, p) in sorted(self.pieces.items()):
            if s != self.tomove:
                continue
            role = ROLE[p][colour(x, y)]
            for dx, dy in STEPS[role]:
                k = 1
                while True:
                    tx, ty = x + k * dx, y + k * dy
                    if not self.inside(tx, ty):
                        break
                    occupant = self.pieces.get((tx, ty))
                    if occupant is None or occupant[0] != s:
                        out.append(((x, y), (tx, ty)))
                    if occupant is not None or role == "N":
                        break
                    k += 1
        return out or [None]

    def play(self, mv):
        pieces = dict(self.pieces)
        area = list(self.area)
        if mv is not None:
            frm, to = mv
            pieces[to] = pieces.pop(frm)
            changed = True
            while changed:
                changed = False
                for side in range(4):
                    while True:
                        x0, x1, y0, y1 = area
                        if side < 2:
                            if x1 - x0 + 1 <= 3:
                                break
                            line = x0 if side == 0 else x1
                            if any(x == line and y0 <= y <= y1 for (x, y) in pieces):
                                break
                            area[side] += 1 if side == 0 else -1
                        else:
                            if y1 - y0 + 1 <= 3:
                                break
                            line = y0 if side == 2 else y1
                            if any(y == line for (x, y) in pieces):
                                break
                            area[side] += 1 if side == 2 else -1
                        changed = True
        nxt = Pos(pieces, area, self.seats, self.tomove, self.turn + 1)
        alive = nxt.alive()
        i = SEATS.index(self.tomove)
        for k in range(1, 5):
            s = SEATS[(i + k) % 4]
            if s in alive:
                nxt.tomove = s
                break
        return nxt


def movetext(mv):
    return "0000" if mv is None else sqname(*mv[0]) + sqname(*mv[1])


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = pos.moves()
    if depth == 1:
        return len(ms)
    return sum(perft(pos.play(m), depth - 1) for m in ms)


def main():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "perft":
            print(perft(Pos.parse(" ".join(words[2:])), int(words[1])), flush=True)
        elif words[0] == "walk":
            seed = int(words[2])
            rng = random.Random(seed)
            greed = 0.7 if seed % 2 == 0 else 0.02
            pos = Pos.start(int(words[1]))
            steps = []
            while True:
                ms = pos.moves()
                if not ms:
                    break
                # Prefer captures now and then, so that games end by elimination too.
                caps = [m for m in ms if m is not None and m[1] in pos.pieces]
                m = rng.choice(caps) if caps and rng.random() < greed else rng.choice(ms)
                pos = pos.play(m)
                steps.append(movetext(m) + "|" + pos.text())
            print(";".join(steps), flush=True)
        else:
            print("error: unknown command", flush=True)


if __name__ == "__main__":
    main()
