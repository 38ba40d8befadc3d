#!/usr/bin/env python3
"""The damaged-file census: for each kind of file covered, N random corruptions (bit flips,
truncation, appended garbage, a zeroed range), each given to the engine binary that reads it
as a child process with a timeout, and counted as accepted-and-correct, refused-with-message,
crash, hang or accepted-but-wrong (against the answer the intact file gives).

Kinds covered: Syzygy tables (kiebitz-chess over UCI: `SyzygyPath`, then a search of a
position of the damaged table's material), proofs (`kiebitz-raeuber check-proof`: the verdict
line), Räuberschach table files (`kiebitz-raeuber tables --pieces 2`, which reads the files
back: the file must come out as the intact one), NNUE networks (`EvalFile`: the search must
match the intact network's), opening books (`BookFile`: the move played must be legal), PGN
files (`book build --pgn`), CRASH! databases (`kiebitz-crash --db`: the search must match),
df-pn checkpoints (`solve --checkpoint`: the verdict must match), units manifests (`units
merge`: the merged, checked proof's verdict), and since round 5 the antichess tables' file
(`kiebitz-antichess tables --check`, also with the checksum forged anew after the damage),
training records (`train --data`, judged by a decoder of its own), compact certificates with
lemmas (`kiebitz-pawns check-proof`) and units' result files (`units merge`). "Another
claim": a file whose format carries no checksum (a book, a PGN, training records, a proof
whose checker verified what the damaged file claims) accepted with another content, which is
its word, not a fault. The binaries are those in target/release.

    nice python3 scripts/studies/damaged-files.py [--trials 1000] [--seed 1] [--kinds a,b]
        [--bin-dir target/release]

Exit code 1 when any trial crashed, hung or was accepted wrong.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, "target", "release")
TIMEOUT = 20

# A position of each test table's material (white has the first side's pieces).
SYZYGY_FENS = {
    "KQvK": "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
    "KRvK": "8/8/8/4k3/8/8/8/3RK3 w - - 0 1",
    "KBvK": "8/8/8/4k3/8/8/8/3BK3 w - - 0 1",
    "KNvK": "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",
    "KPvK": "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "KQvKR": "8/8/8/4k3/8/8/2r5/3QK3 w - - 0 1",
    "KRvKR": "8/8/8/4k3/8/8/2r5/3RK3 w - - 0 1",
    "KRvKB": "8/8/8/4k3/8/8/2b5/3RK3 w - - 0 1",
    "KRvKN": "8/8/8/4k3/8/8/2n5/3RK3 w - - 0 1",
    "KBNvK": "8/8/8/4k3/8/8/8/2BNK3 w - - 0 1",
    "KRvKP": "8/8/8/4k3/4p3/8/8/3RK3 w - - 0 1",
}


def corrupt(data, rng):
    """A damaged copy of `data` and the kind of damage."""
    data = bytearray(data)
    kind = rng.choice(["flip", "truncate", "append", "zero"])
    if kind == "flip" and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == "truncate" and data:
        del data[rng.randrange(len(data)):]
    elif kind == "append":
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 256)))
    elif data:
        start = rng.randrange(len(data))
        end = min(len(data), start + rng.randint(1, 256))
        if any(data[start:end]):
            data[start:end] = bytes(end - start)
        else:  # already zero there: flip a bit instead, so the file always changes
            data[start] ^= 1
    return kind, bytes(data)


def run(cmd, stdin="", timeout=TIMEOUT):
    """(exit code or 'hang', stdout, stderr) of `cmd`."""
    try:
        r = subprocess.run(cmd, input=stdin.encode(), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", "", ""
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def crashed(rc, err):
    return rc != "hang" and (rc < 0 or rc in (101, 134, 139) or "panicked" in err)


def damaged_run(path, bad, good, command):
    """`command()` with `bad` written at `path`; `good` is put back after it."""
    with open(path, "wb") as f:
        f.write(bad)
    try:
        return command()
    finally:
        with open(path, "wb") as f:
            f.write(good)


def judged(kind, rc, err, accepted):
    """A trial's outcome from a run that reports a refusal by its exit code: hang, crash,
    refused (with a message; silent is wrong), else `accepted()`'s word."""
    if rc == "hang":
        return kind, "hang"
    if crashed(rc, err):
        return kind, "crash"
    if rc != 0:
        return kind, "refused" if err.strip() else "wrong"
    return kind, accepted()


class Syzygy:
    """Syzygy tables through kiebitz-chess over UCI."""

    name = "Syzygy tables (.rtbw/.rtbz), kiebitz-chess SyzygyPath"

    def __init__(self, work):
        self.dir = os.path.join(work, "syzygy")
        shutil.copytree(os.path.join(ROOT, "tests", "data", "syzygy"), self.dir)
        self.files = sorted(os.listdir(self.dir))
        self.baseline = {m: self.search(fen) for m, fen in SYZYGY_FENS.items()}

    def search(self, fen):
        out = run(
            [os.path.join(BIN, "kiebitz-chess")],
            f"uci\nsetoption name SyzygyPath value {self.dir}\nisready\n"
            f"position fen {fen}\ngo depth 2\n",
        )
        rc, stdout, _ = out
        if rc == "hang":
            return out, None
        lines = stdout.splitlines()
        note = next((l for l in lines if l.startswith("info string Syzygy")), "")
        last = [l for l in lines if l.startswith("info depth")][-1:]
        score = last[0].split(" score ")[1].split(" nodes")[0] if last else ""
        best = next((l.split()[1] for l in lines if l.startswith("bestmove")), "")
        return out, (note, score, best)

    def trial(self, rng):
        name = rng.choice(self.files)
        path = os.path.join(self.dir, name)
        with open(path, "rb") as f:
            good = f.read()
        kind, bad = corrupt(good, rng)
        with open(path, "wb") as f:
            f.write(bad)
        try:
            material = name.split(".")[0]
            (rc, _, err), got = self.search(SYZYGY_FENS[material])
        finally:
            with open(path, "wb") as f:
                f.write(good)
        if rc == "hang":
            return kind, "hang"
        if crashed(rc, err):
            return kind, "crash"
        if name in got[0] and "left out as damaged" in got[0]:
            return kind, "refused"
        _, want = self.baseline[material]
        return kind, "correct" if got[1:] == want[1:] else "wrong"


class Proof:
    """A Räuberschach proof through kiebitz-raeuber check-proof."""

    name = "proof files, kiebitz-raeuber check-proof"

    def __init__(self, work):
        self.path = os.path.join(work, "trial.proof")
        src = os.path.join(ROOT, "src", "games", "raeuber", "data", "proofs",
                           "raeuber-1f3-black-wins.proof")
        with open(src, "rb") as f:
            self.good = f.read()
        with open(self.path, "wb") as f:
            f.write(self.good)
        rc, self.verdict, _ = run([os.path.join(BIN, "kiebitz-raeuber"), "check-proof", self.path])
        assert rc == 0 and self.verdict.startswith("proof holds"), self.verdict

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        rc, out, err = run([os.path.join(BIN, "kiebitz-raeuber"), "check-proof", self.path])

        def accepted():
            # Accepted: the same claim is correct (the checker verified it); another claim is
            # counted apart, as a claim the damaged file made and the checker verified.
            return "correct" if out == self.verdict else "other claim"

        return judged(kind, rc, err, accepted)


class RaeuberTables:
    """Räuberschach table files read back by kiebitz-raeuber tables."""

    name = "Räuberschach table files (.krt), kiebitz-raeuber tables"

    def __init__(self, work):
        self.dir = os.path.join(work, "raeuber")
        rc, _, err = run([os.path.join(BIN, "kiebitz-raeuber"), "tables", "--pieces", "2",
                          "--dir", self.dir, "--threads", "1"])
        assert rc == 0, err
        self.files = sorted(os.listdir(self.dir))
        self.good = {}
        for n in self.files:
            with open(os.path.join(self.dir, n), "rb") as f:
                self.good[n] = f.read()

    def trial(self, rng):
        name = rng.choice(self.files)
        path = os.path.join(self.dir, name)
        kind, bad = corrupt(self.good[name], rng)
        with open(path, "wb") as f:
            f.write(bad)
        rc, _, err = run([os.path.join(BIN, "kiebitz-raeuber"), "tables", "--pieces", "2",
                          "--dir", self.dir, "--threads", "1"])
        with open(path, "rb") as f:
            after = f.read()
        with open(path, "wb") as f:
            f.write(self.good[name])
        if rc == "hang":
            return kind, "hang"
        if crashed(rc, err):
            return kind, "crash"
        if after == self.good[name]:
            # Built again from scratch: the damaged file was refused (the run says so).
            return kind, "refused" if "1 signatures built" in err else "wrong"
        return kind, "wrong"


def uci_search(options, fen, depth):
    """kiebitz-chess over UCI with `options` set: (exit code, stderr, the `info string` lines,
    the last score, the best move)."""
    sets = "".join(f"setoption name {n} value {v}\n" for n, v in options)
    rc, out, err = run(
        [os.path.join(BIN, "kiebitz-chess")],
        f"uci\n{sets}isready\nposition fen {fen}\ngo depth {depth}\n",
    )
    if rc == "hang":
        return rc, err, "", "", ""
    lines = out.splitlines()
    notes = "\n".join(l for l in lines if l.startswith("info string"))
    last = [l for l in lines if l.startswith("info depth")][-1:]
    score = last[0].split(" score ")[1].split(" nodes")[0] if last else ""
    best = next((l.split()[1] for l in lines if l.startswith("bestmove")), "")
    return rc, err, notes, score, best


MIDDLE_GAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


class EvalFile:
    """A chess network through kiebitz-chess `EvalFile`: a refused file must be reported (the
    network in use stays); an accepted one must evaluate as the intact file does."""

    name = "NNUE networks, kiebitz-chess EvalFile"

    def __init__(self, work):
        self.path = os.path.join(work, "trial.nnue")
        with open(os.path.join(ROOT, "nets", "chess-3.nnue"), "rb") as f:
            self.good = f.read()
        with open(self.path, "wb") as f:
            f.write(self.good)
        self.baseline = uci_search([("EvalFile", self.path)], MIDDLE_GAME, 3)[3:]

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        rc, err, notes, score, best = uci_search([("EvalFile", self.path)], MIDDLE_GAME, 3)
        if rc == "hang":
            return kind, "hang"
        if crashed(rc, err):
            return kind, "crash"
        if "info string error" in notes:
            return kind, "refused"
        return kind, "correct" if (score, best) == self.baseline else "wrong"


class Book:
    """A Polyglot book through kiebitz-chess `BookFile` with `OwnBook`: a refused file must be
    reported; whatever the engine plays must be legal (python-chess judges). The format has no
    checksum: a changed move or weight that is still legal is the book's word, counted apart."""

    name = "opening books (Polyglot .bin), kiebitz-chess BookFile"

    def __init__(self, work):
        self.path = os.path.join(work, "trial.bin")
        rc, _, err = run([os.path.join(BIN, "kiebitz-chess"), "book", "build", "--pgn",
                          os.path.join(ROOT, "tests", "data", "book-games.pgn"), "--out",
                          self.path, "--max-ply", "12", "--min-games", "1"])
        assert rc == 0, err
        with open(self.path, "rb") as f:
            self.good = f.read()
        self.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        self.baseline = self.play()[4]

    def play(self):
        opts = [("OwnBook", "true"), ("BookVariety", "0"), ("BookFile", self.path)]
        return uci_search(opts, self.fen, 1)

    def trial(self, rng):
        import chess

        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        rc, err, notes, _, best = self.play()
        if rc == "hang":
            return kind, "hang"
        if crashed(rc, err):
            return kind, "crash"
        if "info string error" in notes:
            return kind, "refused"
        board = chess.Board(self.fen)
        if not best or chess.Move.from_uci(best) not in board.legal_moves:
            return kind, "wrong"
        return kind, "correct" if best == self.baseline else "other claim"


class Pgn:
    """A PGN file given to `kiebitz-chess book build`: refused with a message, or a book built
    from what it says (the same book as the intact file's, or another: counted apart)."""

    name = "PGN files, kiebitz-chess book build --pgn"

    def __init__(self, work):
        self.pgn = os.path.join(work, "trial.pgn")
        self.out = os.path.join(work, "pgn-trial.bin")
        with open(os.path.join(ROOT, "tests", "data", "book-games.pgn"), "rb") as f:
            self.good = f.read()
        with open(self.pgn, "wb") as f:
            f.write(self.good)
        rc, _, err = self.build()
        assert rc == 0, err
        with open(self.out, "rb") as f:
            self.baseline = f.read()

    def build(self):
        if os.path.exists(self.out):
            os.remove(self.out)
        return run([os.path.join(BIN, "kiebitz-chess"), "book", "build", "--pgn", self.pgn,
                    "--out", self.out, "--max-ply", "12", "--min-games", "1"])

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.pgn, "wb") as f:
            f.write(bad)
        rc, _, err = self.build()

        def accepted():
            with open(self.out, "rb") as f:
                built = f.read()
            return "correct" if built == self.baseline else "other claim"

        return judged(kind, rc, err, accepted)


class CrashDb:
    """A CRASH! database through `kiebitz-crash --db` over UCI: refused at start with a message,
    or a search that answers as with the intact database."""

    name = "CRASH! databases, kiebitz-crash --db"
    FEN = "W1W1.......B2 w"

    def __init__(self, work):
        self.path = os.path.join(work, "trial.db")
        rc, _, err = run([os.path.join(BIN, "kiebitz-crash"), "analyze", "--n", "2", "--cells",
                          "10", "--out", self.path])
        assert rc == 0, err
        with open(self.path, "rb") as f:
            self.good = f.read()
        self.baseline = self.search()[3]

    def search(self):
        rc, out, err = run([os.path.join(BIN, "kiebitz-crash"), "--db", self.path],
                           f"uci\nisready\nposition fen {self.FEN}\ngo depth 4\n")
        lines = [l for l in out.splitlines() if l.startswith(("info depth", "bestmove"))]
        return rc, out, err, lines[-2:]

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        rc, _, err, answer = self.search()
        same = self.judged(answer) == self.judged(self.baseline)
        return judged(kind, rc, err, lambda: "correct" if same else "wrong")

    @staticmethod
    def judged(lines):
        """The score of the last `info depth` line and the best move (no times or speeds)."""
        score = [l.split(" score ")[1].split(" nodes")[0] for l in lines if " score " in l]
        return score[-1:], [l for l in lines if l.startswith("bestmove")]


class Checkpoint:
    """A df-pn checkpoint through `kiebitz-raeuber solve --checkpoint`: refused with a message,
    or resumed to the same verdict as from the intact checkpoint."""

    name = "df-pn checkpoints (.dfpn), kiebitz-raeuber solve --checkpoint"
    FEN = "r1kb1r/ppqppp/3n2/6/PPPPPP/RQKB1R w - - 0 1"

    def __init__(self, work):
        self.dir = os.path.join(work, "checkpoint")
        rc, _, err = self.solve()
        assert rc == 0, err
        self.good = {}
        for n in ("white.dfpn", "black.dfpn"):
            with open(os.path.join(self.dir, n), "rb") as f:
                self.good[n] = f.read()
        self.verdict = self.result(self.solve()[1])

    def solve(self):
        return run([os.path.join(BIN, "kiebitz-raeuber"), "solve", "--fen", self.FEN,
                    "--nodes", "20000", "--hash", "1", "--checkpoint", self.dir])

    @staticmethod
    def result(out):
        return next((l for l in out.splitlines() if l.startswith("result")), "")

    def trial(self, rng):
        for n, data in self.good.items():
            with open(os.path.join(self.dir, n), "wb") as f:
                f.write(data)
        name = rng.choice(sorted(self.good))
        kind, bad = corrupt(self.good[name], rng)
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(bad)
        rc, out, err = self.solve()

        def accepted():
            # Resumed from a damaged entry or not: the verdict must be the intact checkpoint's.
            return "correct" if self.result(out) == self.verdict else "wrong"

        return judged(kind, rc, err, accepted)


class UnitsManifest:
    """A units manifest through `kiebitz-raeuber units merge`: refused with a message, or a
    merged and checked proof; the intact manifest's verdict is correct, another root's a claim
    the damaged manifest made and the checker verified."""

    name = "units manifests, kiebitz-raeuber units merge"
    FEN = "r1kb1r/ppqppp/3n2/6/PPPPPP/RQKB1R w - - 0 1"

    def __init__(self, work):
        self.dir = os.path.join(work, "units")
        self.out = os.path.join(work, "units.proof")
        raeuber = os.path.join(BIN, "kiebitz-raeuber")
        for cmd in (["split", "--plies", "1", "--fen", self.FEN],
                    ["work", "--hash", "16", "--nodes", "200000"]):
            rc, _, err = run([raeuber, "units", cmd[0], "--dir", self.dir] + cmd[1:])
            assert rc == 0, err
        self.manifest = os.path.join(self.dir, "manifest")
        with open(self.manifest, "rb") as f:
            self.good = f.read()
        rc, out, err = self.merge()
        assert rc == 0, err
        self.verdict = self.claim(out + err)
        assert self.verdict, out

    def merge(self):
        return run([os.path.join(BIN, "kiebitz-raeuber"), "units", "merge", "--dir", self.dir,
                    "--out", self.out])

    @staticmethod
    def claim(said):
        line = next((l for l in said.splitlines() if " from " in l and "checked" in l), "")
        return line.split(":")[0]

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        rc, out, err = damaged_run(self.manifest, bad, self.good, self.merge)

        def accepted():
            said = self.claim(err + out)
            if said == self.verdict:
                return "correct"
            return "other claim" if said else "wrong"

        return judged(kind, rc, err, accepted)


def fnv1a(data):
    """FNV-1a, 64 bits: the checksum the antichess tables and the networks end with."""
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class AntichessTables:
    """The antichess tables' file through `kiebitz-antichess tables --check`: refused with a
    message, or accepted with the intact file's census (a file whose every value agrees with
    its moves one ply down is the exact one). With `forge`, each damage is followed by a
    checksum computed anew, as a forger would: only the value check stands in the way."""

    name = "antichess tables (antichess-3.tables), kiebitz-antichess tables --check"
    MAGIC_LEN = len(b"kiebitz antichess endgame tables, up to 3 pieces, format 1\n")

    def __init__(self, work, forge=False):
        self.forge = forge
        if forge:
            self.name = self.name.replace("--check", "--check, checksum forged")
        self.dir = os.path.join(work, "antichess")
        rc, _, err = run([os.path.join(BIN, "kiebitz-antichess"), "tables", "--dir", self.dir],
                         timeout=600)
        assert rc == 0, err
        self.path = os.path.join(self.dir, "antichess-3.tables")
        with open(self.path, "rb") as f:
            self.good = f.read()
        rc, self.census, err = self.check()
        assert rc == 0, err

    def check(self):
        return run([os.path.join(BIN, "kiebitz-antichess"), "tables", "--dir", self.dir,
                    "--check"], timeout=300)

    def trial(self, rng):
        if self.forge:
            body = self.good[self.MAGIC_LEN:-8]
            kind, bad = corrupt(body, rng)
            if len(bad) == len(body):
                kind += "+checksum"
                bad = self.good[:self.MAGIC_LEN] + bad + fnv1a(bad).to_bytes(8, "little")
            else:
                bad = self.good[:self.MAGIC_LEN] + bad + self.good[-8:]
        else:
            kind, bad = corrupt(self.good, rng)
        rc, out, err = damaged_run(self.path, bad, self.good, self.check)

        def accepted():
            same = out.split(", read and")[0] == self.census.split(", read and")[0]
            return "correct" if same else "wrong"

        return judged(kind, rc, err, accepted)


class AntichessForged(AntichessTables):
    def __init__(self, work):
        super().__init__(work, forge=True)


class Records:
    """Training records through `kiebitz-chess train`: refused with a message, or trained on.
    Records carry no checksum, so an accepted file is its own word ("another claim") where
    every whole record is one of chess (codes 0 to 11 on 64 squares, reserved bytes zero, no
    code past the pieces: judged here, apart from the engine); an accepted file with a record
    that is not is wrong."""

    name = "training records (datagen), kiebitz-chess train --data"

    def __init__(self, work):
        self.path = os.path.join(work, "records.bin")
        self.out = os.path.join(work, "records.nnue")
        rc, _, err = run([os.path.join(BIN, "kiebitz-chess"), "datagen", "--out", self.path,
                          "--positions", "200", "--nodes", "200", "--hard-nodes", "2000"],
                         timeout=300)
        assert rc == 0, err
        with open(self.path, "rb") as f:
            self.good = f.read()

    @staticmethod
    def valid(data):
        for at in range(0, len(data) - len(data) % 32, 32):
            r = data[at:at + 32]
            occ = int.from_bytes(r[0:8], "little")
            count = bin(occ).count("1")
            if count > 32 or r[26] > 2 or r[27] > 1 or r[30] or r[31]:
                return False
            nibbles = [(r[8 + i // 2] >> (4 * (i % 2))) & 15 for i in range(32)]
            if any(n >= 12 for n in nibbles[:count]) or any(nibbles[count:]):
                return False
        return True

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        if os.path.exists(self.out):
            os.remove(self.out)
        rc, _, err = run([os.path.join(BIN, "kiebitz-chess"), "train", "--data", self.path,
                          "--out", self.out, "--epochs", "1", "--hidden", "16"])
        return judged(kind, rc, err, lambda: "other claim" if self.valid(bad) else "wrong")


class CompactCertificate:
    """A compact certificate whose lines end at lemmas (pawn game 5×5, `solve --compact
    --lemmas`) through `kiebitz-pawns check-proof`: refused with a message, the same verdict,
    or another claim the checker verified."""

    name = "compact certificates with lemmas, kiebitz-pawns check-proof"

    def __init__(self, work):
        self.path = os.path.join(work, "compact.proof")
        rc, _, err = run([os.path.join(BIN, "kiebitz-pawns"), "solve", "--variant",
                          "pawngame5", "--proof", self.path, "--compact", "--lemmas"],
                         timeout=300)
        assert rc == 0, err
        files = sorted(f for f in os.listdir(work) if f.startswith("compact.proof"))
        self.path = os.path.join(work, files[0])
        with open(self.path, "rb") as f:
            self.good = f.read()
        rc, self.verdict, err = run([os.path.join(BIN, "kiebitz-pawns"), "check-proof",
                                     self.path])
        assert rc == 0, err

    def trial(self, rng):
        kind, bad = corrupt(self.good, rng)
        with open(self.path, "wb") as f:
            f.write(bad)
        rc, out, err = run([os.path.join(BIN, "kiebitz-pawns"), "check-proof", self.path])
        same = out == self.verdict
        return judged(kind, rc, err, lambda: "correct" if same else "other claim")


class UnitResults:
    """A unit's result files (values and checked certificates of the win/draw/loss solver)
    through `kiebitz-pawns units merge --out`: refused with a message, or merged to the intact
    results' verdict (the merged certificates are checked); a value no certificate backs that
    changes the verdict is wrong."""

    name = "unit result files (values, certificates), kiebitz-pawns units merge"

    def __init__(self, work):
        self.dir = os.path.join(work, "unit-results")
        self.out = os.path.join(work, "unit-results.proof")
        pawns = os.path.join(BIN, "kiebitz-pawns")
        for cmd in (["split", "--variant", "pawns5ep", "--moves", "a1a2", "--plies", "2"],
                    ["work", "--certificates"]):
            rc, _, err = run([pawns, "units", cmd[0], "--dir", self.dir] + cmd[1:], timeout=300)
            assert rc == 0, err
        self.files = sorted(f for f in os.listdir(self.dir) if f.startswith("unit-"))
        self.good = {}
        for n in self.files:
            with open(os.path.join(self.dir, n), "rb") as f:
                self.good[n] = f.read()
        rc, out, err = self.merge()
        assert rc == 0, err
        self.verdict = out.splitlines()[0]

    def merge(self):
        return run([os.path.join(BIN, "kiebitz-pawns"), "units", "merge", "--dir", self.dir,
                    "--out", self.out])

    def trial(self, rng):
        name = rng.choice(self.files)
        path = os.path.join(self.dir, name)
        kind, bad = corrupt(self.good[name], rng)
        rc, out, err = damaged_run(path, bad, self.good[name], self.merge)
        same = rc == 0 and out.splitlines()[:1] == [self.verdict]
        return judged(kind, rc, err, lambda: "correct" if same else "wrong")


KINDS = {
    "syzygy": Syzygy,
    "proof": Proof,
    "raeuber-tables": RaeuberTables,
    "evalfile": EvalFile,
    "book": Book,
    "pgn": Pgn,
    "crash-db": CrashDb,
    "checkpoint": Checkpoint,
    "units": UnitsManifest,
    "antichess-tables": AntichessTables,
    "antichess-forged": AntichessForged,
    "records": Records,
    "compact": CompactCertificate,
    "unit-results": UnitResults,
}
OUTCOMES = ["correct", "refused", "other claim", "crash", "hang", "wrong"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--bin-dir", default=BIN, help="where the engine binaries are")
    args = ap.parse_args()
    globals()["BIN"] = args.bin_dir
    rng = random.Random(args.seed)
    print("| kind | trials | accepted, correct | refused with message | accepted, another claim "
          "| crash | hang | accepted, wrong | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    bad = 0
    with tempfile.TemporaryDirectory(prefix="kiebitz-census-") as work:
        for key in args.kinds.split(","):
            kind = KINDS[key](work)
            counts = {o: 0 for o in OUTCOMES}
            start = time.time()
            for i in range(args.trials):
                damage, outcome = kind.trial(rng)
                counts[outcome] += 1
                if outcome in ("crash", "hang", "wrong"):
                    print(f"  {key} trial {i} ({damage}): {outcome}", file=sys.stderr)
            bad += counts["crash"] + counts["hang"] + counts["wrong"]
            cells = " | ".join(str(counts[o]) for o in OUTCOMES)
            print(f"| {kind.name} | {args.trials} | {cells} | {time.time() - start:.0f} |",
                  flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
