#!/usr/bin/env python3
"""Resident memory and answer time of large hash tables (hardening row F4/F16).

For each engine binary in DIR: `setoption name Hash value 4096` + `isready`, a 1 s search,
`ucinewgame` + `isready`; for kiebitz-chess also XBoard `memory 16000` + `ping`. Prints a
Markdown table of the resident set (VmRSS) and how long `readyok`/`pong` took.

usage: scripts/studies/hash-memory.py DIR [DIR ...]   (e.g. target/release)
"""
import subprocess
import sys
import time


def rss_mib(p):
    with open(f"/proc/{p.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return -1


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        t = time.time()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine quit")
            if line.startswith(prefix):
                return (time.time() - t) * 1000

    def step(self, line, answer):
        self.send(line)
        ms = self.wait(answer)
        return f"{ms:.0f} ms, {rss_mib(self.p)} MiB"

    def close(self):
        self.p.kill()
        self.p.wait()


def uci_row(path):
    e = Engine(path)
    e.send("uci")
    e.wait("uciok")
    e.send("setoption name Hash value 4096")
    cells = [e.step("isready", "readyok")]
    e.send("position startpos")
    e.send("go movetime 1000")
    e.wait("bestmove")
    cells.append(e.step("isready", "readyok"))
    e.send("ucinewgame")
    cells.append(e.step("isready", "readyok"))
    e.close()
    return cells


def xboard_row(path):
    e = Engine(path)
    e.send("xboard")
    e.send("protover 2")
    e.wait("feature done=1")
    e.send("memory 16000")
    cells = [e.step("ping 1", "pong")]
    e.send("new")
    e.send("st 1")
    e.send("go")
    e.wait("move ")
    cells.append(e.step("ping 2", "pong"))
    e.send("new")
    cells.append(e.step("ping 3", "pong"))
    e.close()
    return cells


def main():
    print("| build | engine | setting | before a search | after a 1 s search | after a new game |")
    print("|---|---|---|---|---|---|")
    for d in sys.argv[1:]:
        for name in ["chess", "raeuber", "pawns", "crash", "chamaeleon"]:
            path = f"{d}/kiebitz-{name}"
            print(f"| {d} | {name} | Hash 4096 | " + " | ".join(uci_row(path)) + " |", flush=True)
        print(f"| {d} | chess | XBoard memory 16000 | " + " | ".join(xboard_row(f"{d}/kiebitz-chess")) + " |", flush=True)


if __name__ == "__main__":
    main()
