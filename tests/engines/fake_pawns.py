#!/usr/bin/env python3
"""A tiny pawn-chess engine for kiebitz-match's tests, over UCI or XBoard.

It plays a winning pawn arrival if it has one, else a capture, else a random legal move
(seeded by the position, so games are reproducible). No double step, no en passant.
The first argument chooses a misbehaviour:
  normal   plays properly
  illegal  answers every search with an illegal move (a1a1)
  crash    plays one move, then exits on the next search
  hang     never answers a search
  slow     answers every search after 0.8 s, whatever the clock says
  gloomy   plays properly but reports a score of -5.00 (for resign adjudication)
  fairy    behaves like Fairy-Stockfish with a variant file (UCI only): it starts in `chess`,
           lists the pawn variants only in its answer to a `uci` sent after `VariantPath`, and
           every `uci` resets the variant to `chess`; searching `chess` it plays e2e4
  ponder   plays properly over UCI, offers the option Ponder, answers `bestmove X ponder Y`
           (Y the opponent's likeliest move after every other search, another legal move in
           between, so a fake opponent makes some guesses come true and not others), waits
           after `go ponder` for `ponderhit` (then answers at once) or `stop`; it writes every
           line it reads ("< …") and sends ("> …") to the file named by the second argument
  deafponder  like ponder, but never answers the `stop` of a ponder search
"""
import copy
import random
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "normal"
PONDER = MODE in ("ponder", "deafponder")
LOG = open(sys.argv[2], "a") if PONDER and len(sys.argv) > 2 else None


def log(line):
    if LOG:
        LOG.write(line + "\n")
        LOG.flush()


def start_fen(n):
    return "/".join(["p" * n] + [str(n)] * (n - 2) + ["P" * n]) + " w - - 0 1"


def parse_fen(fen):
    fields = fen.split()
    rows = fields[0].split("/")
    h = len(rows)
    board = {}
    w = 0
    for i, row in enumerate(rows):
        rank = h - 1 - i
        f = 0
        num = ""
        for c in row + "/":
            if c.isdigit():
                num += c
                continue
            if num:
                f += int(num)
                num = ""
            if c in "Pp":
                board[(f, rank)] = c
                f += 1
        w = max(w, f)
    return board, w, h, fields[1] if len(fields) > 1 else "w"


def sq(f, r):
    return "abcdefgh"[f] + str(r + 1)


def legal(board, w, h, side):
    me, them, d, goal = ("P", "p", 1, h - 1) if side == "w" else ("p", "P", -1, 0)
    # A pawn on its goal line has ended the game.
    if any(v == "P" and r == h - 1 for (f, r), v in board.items()):
        return []
    if any(v == "p" and r == 0 for (f, r), v in board.items()):
        return []
    moves = []
    for (f, r), v in sorted(board.items()):
        if v != me:
            continue
        t = r + d
        if 0 <= t < h:
            if (f, t) not in board:
                moves.append(((f, r), (f, t)))
            for df in (-1, 1):
                if 0 <= f + df < w and board.get((f + df, t)) == them:
                    moves.append(((f, r), (f + df, t)))
    return moves


class Game:
    def __init__(self):
        self.n = 6
        self.set_fen(start_fen(self.n))

    def set_fen(self, fen):
        self.board, self.w, self.h, self.side = parse_fen(fen)
        self.history = []

    def play(self, text):
        a = ("abcdefgh".index(text[0]), int(text[1]) - 1)
        b = ("abcdefgh".index(text[2]), int(text[3]) - 1)
        self.board[b] = self.board.pop(a)
        self.side = "b" if self.side == "w" else "w"
        self.history.append(text)

    def choose(self):
        moves = legal(self.board, self.w, self.h, self.side)
        if not moves:
            return None
        goal = self.h - 1 if self.side == "w" else 0
        wins = [m for m in moves if m[1][1] == goal]
        caps = [m for m in moves if m[1] in self.board]
        pool = wins or caps or moves
        rng = random.Random(" ".join(self.history) + str(sorted(self.board.items())))
        a, b = rng.choice(pool)
        return sq(*a) + sq(*b)


def variant_size(name):
    digits = "".join(c for c in name if c.isdigit())
    return int(digits) if digits else 6


def search(game, searches):
    if MODE == "hang":
        return None
    if MODE == "crash" and searches >= 1:
        sys.exit(3)
    if MODE == "illegal":
        return "a1a1"
    if MODE == "slow":
        time.sleep(0.8)
    return game.choose() or "0000"


def guess(game, mv, searches):
    """The opponent's expected reply after our move mv, or None if it has none."""
    after = copy.deepcopy(game)
    after.play(mv)
    likely = after.choose()
    others = sorted(sq(*a) + sq(*b) for a, b in legal(after.board, after.w, after.h, after.side))
    if searches % 2 == 1:
        others = [m for m in others if m != likely] or others
        return others[0] if others else None
    return likely


def bestmove(game, searches):
    """`bestmove X [ponder Y]` for the ponder modes."""
    mv = game.choose() or "0000"
    reply = guess(game, mv, searches) if mv != "0000" else None
    return "bestmove " + mv + (" ponder " + reply if reply else "")


def uci(out):
    game = Game()
    searches = 0
    # The fairy mode's state: the variant file set, the variant chosen.
    variant_path = None
    variant = "chess" if MODE == "fairy" else None

    def announce():
        out("id name fake-pawns-" + MODE)
        if MODE == "fairy":
            out("option name VariantPath type string default <empty>")
            known = ["chess"] + (["pawns4", "pawns5", "pawns6"] if variant_path else [])
            out("option name UCI_Variant type combo default chess" + "".join(" var " + v for v in known))
        else:
            out("option name UCI_Variant type combo default pawns6 var pawns4 var pawns5 var pawns6")
        if PONDER:
            out("option name Ponder type check default false")
        out("uciok")

    pondering = False
    announce()
    for line in sys.stdin:
        tok = line.split()
        if not tok:
            continue
        log("< " + line.strip())
        if PONDER and tok[0] == "go" and "ponder" in tok:
            pondering = True
        elif PONDER and tok[0] == "go":
            out(bestmove(game, searches))
            searches += 1
        elif tok[0] == "ponderhit" and pondering:
            pondering = False
            out(bestmove(game, searches))
            searches += 1
        elif tok[0] == "stop" and pondering:
            pondering = False
            if MODE != "deafponder":
                out(bestmove(game, searches))
        elif tok[0] == "isready":
            out("readyok")
        elif tok[0] == "uci" and MODE == "fairy":
            variant = "chess"
            announce()
        elif tok[0] == "setoption" and "VariantPath" in tok and MODE == "fairy":
            variant_path = tok[-1]
        elif tok[0] == "setoption" and "UCI_Variant" in tok:
            if MODE == "fairy":
                if tok[-1] == "chess" or (variant_path and tok[-1].startswith("pawns")):
                    variant = tok[-1]
            game.n = variant_size(tok[-1])
        elif tok[0] == "position":
            moves = tok[tok.index("moves") + 1:] if "moves" in tok else []
            if tok[1] == "startpos":
                game.set_fen(start_fen(game.n))
            else:
                end = tok.index("moves") if "moves" in tok else len(tok)
                game.set_fen(" ".join(tok[2:end]))
            for m in moves:
                game.play(m)
        elif tok[0] == "go":
            mv = "e2e4" if variant == "chess" else search(game, searches)
            searches += 1
            if mv is not None:
                score = -500 if MODE == "gloomy" else 0
                out("info depth 1 score cp %d nodes 1 pv %s" % (score, mv))
                out("bestmove " + mv)
        elif tok[0] == "quit":
            return


def xboard(out):
    game = Game()
    searches = 0
    force = True
    for line in sys.stdin:
        tok = line.split()
        if not tok:
            continue
        cmd = tok[0]
        if cmd == "protover":
            out('feature myname="fake-pawns-%s" usermove=1 setboard=1 ping=1 '
                'variants="pawns4,pawns5,pawns6" sigint=0 done=1' % MODE)
        elif cmd == "new":
            game.set_fen(start_fen(game.n))
            force = False
        elif cmd == "variant":
            game.n = variant_size(tok[1])
            game.set_fen(start_fen(game.n))
        elif cmd == "setboard":
            game.set_fen(" ".join(tok[1:]))
        elif cmd == "force":
            force = True
        elif cmd == "ping":
            out("pong " + tok[1])
        elif cmd == "usermove":
            game.play(tok[1])
        elif cmd == "go":
            force = False
            mv = search(game, searches)
            searches += 1
            if mv is not None:
                out("1 %d 0 1 %s" % (-500 if MODE == "gloomy" else 0, mv))
                out("move " + mv)
                if mv != "a1a1" and mv != "0000":
                    game.play(mv)
        elif cmd == "quit":
            return
    del force


def main():
    def out(s):
        log("> " + s)
        sys.stdout.write(s + "\n")
        sys.stdout.flush()

    first = sys.stdin.readline().strip()
    if first == "uci":
        uci(out)
    elif first == "xboard":
        xboard(out)


if __name__ == "__main__":
    main()
