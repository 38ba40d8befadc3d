"""A Fairy-Stockfish process speaking UCI, set up for Räuberschach from
tests/data/fairy-variants.ini; shared by the scripts/raeuber-*.py tools.

    from fairy_uci import Fairy
    fs = Fairy(hash_mb=64)        # FAIRY environment variable or the given default path
    fs.send("go depth 10"); lines = fs.until("bestmove")
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Fairy:
    def __init__(self, hash_mb=16, default="/work/fsf/fairy-stockfish"):
        path = os.environ.get("FAIRY", default)
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send(f"setoption name VariantPath value {ROOT}/tests/data/fairy-variants.ini")
        self.send("setoption name UCI_Variant value raeuberschach")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.until("readyok")

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("fairy-stockfish exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
