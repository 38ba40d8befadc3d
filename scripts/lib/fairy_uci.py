"""UCI engines over pipes for the Räuberschach tools in scripts/matches/ and scripts/studies/ (each
puts scripts/lib/ on sys.path): `Uci`, any engine, and `Fairy`,
a Fairy-Stockfish process set up for Räuberschach from tests/data/fairy-variants.ini.

    from fairy_uci import Fairy, Uci
    fs = Fairy(hash_mb=64)        # FAIRY environment variable or the given default path
    fs.send("go depth 10"); lines = fs.until("bestmove")
    kb = Uci("target/release/kiebitz-raeuber")
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Uci:
    """An engine process: commands in, lines out (`stderr` and `env` as for `subprocess`)."""

    def __init__(self, path, env=None, stderr=None):
        self.path = path
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=stderr, text=True, bufsize=1, env=env)

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"{self.path} exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")


class Fairy(Uci):
    """Fairy-Stockfish (the FAIRY environment variable, else `default`) playing Räuberschach."""

    def __init__(self, hash_mb=16, default="/work/fsf/fairy-stockfish"):
        super().__init__(os.environ.get("FAIRY", default))
        self.send(f"setoption name VariantPath value {ROOT}/tests/data/fairy-variants.ini")
        self.send("setoption name UCI_Variant value raeuberschach")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.until("readyok")

    def fen(self):
        """The FEN of the current position (`d`, read up to an `isready` so that the lines
        Fairy-Stockfish prints after `Checkers:` are never left for the next command)."""
        self.send("d")
        self.send("isready")
        return next(l[5:] for l in self.until("readyok") if l.startswith("Fen: "))

    def legal(self):
        """The legal moves of the current position in UCI notation (`go perft 1`)."""
        self.send("go perft 1")
        lines = self.until("Nodes searched")
        return [l.split(":")[0] for l in lines if re.match(r"^[a-z]\d+[a-z]\d+\w*: ", l)]

    def san_to_uci(self, fen, moves, san):
        """The UCI text of the move written `san` (Räuberschach SAN as kiebitz-match writes
        it: `Nf3`, `dxc3`, `bxc1=Q`) after `moves` (UCI) from `fen`; None if none matches."""
        if re.match(r"^[a-z]\d+[a-z]\d+[a-z]?$", san):
            return san
        m = re.match(r"^([KQRBN])?([a-l])?(\d+)?x?([a-l]\d+)(?:=?([QRBNK]))?[+#!?]*$", san)
        if not m:
            return None
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        board = {}
        ranks = self.fen().split()[0].split("/")
        for i, row in enumerate(ranks):
            f = 0
            for part in re.findall(r"\d+|.", row):
                if part.isdigit():
                    f += int(part)
                else:
                    board[f"{chr(97 + f)}{len(ranks) - i}"] = part.upper()
                    f += 1
        piece, from_file, from_rank, to, promo = m.groups()
        found = []
        for u in self.legal():
            um = re.match(r"^([a-z]\d+)([a-z]\d+)([a-z]?)$", u)
            if not um or um.group(2) != to or board.get(um.group(1)) != (piece or "P"):
                continue
            if from_file and um.group(1)[0] != from_file:
                continue
            if from_rank and um.group(1)[1:] != from_rank:
                continue
            if promo and um.group(3) and um.group(3).upper() != promo:
                continue
            found.append(u)
        return found[0] if len(found) == 1 else None
