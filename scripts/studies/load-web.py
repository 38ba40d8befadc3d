#!/usr/bin/env python3
"""A bounded load test of kiebitz-web under hostile clients (docs/hardening.md, round 4).

    python3 scripts/studies/load-web.py [--bin target/release/kiebitz-web] [--clients 200]
        [--seconds 60] [--hostile-share 0.5] [--hostile-conns 2] [--spread]
        [-- SERVER FLAGS ...]

Starts the server on a free loopback port, then runs for --seconds:
- well-behaved clients (each from its own address 127.0.1.x, as separate users would be):
  chess games of up to 40 plies: reads of the state, random legal moves, a 5 ms engine move
  every sixth turn,
  the status and the game list; one request a connection, as a page's fetch would;
- hostile clients (all from 127.0.0.1, one attacker; --spread: each from its own address
  127.0.2.x), each holding --hostile-conns connections at once (2: 200 in all, beyond the
  server's 128), each connection in turn: a slowloris head (a header byte every second, never finished),
  a POST whose body stalls after one byte, 4 KiB of garbage, a silent connection; each
  reconnects 0.2 s after the server closes it.
Prints each well-behaved request kind's count, statuses, p50, p99 and max latency, the hostile
connections made and how long the server took to close them, and the server's resident
memory (VmRSS) before and after; the last line is the summary as JSON. Linux only (the
127.0.0.0/8 source addresses and /proc). Exit status 1 when a well-behaved request failed
(no answer, 5xx) or took over 10 s.
"""

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def connect(host, port, source):
    return await asyncio.open_connection(host, port, local_addr=(source, 0))


async def request(port, source, method, path, body=None, timeout=30.0):
    """One request with Connection: close: (status, parsed JSON or None, seconds)."""
    started = time.monotonic()
    data = b"" if body is None else json.dumps(body).encode()
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    ).encode()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(connect("127.0.0.1", port, source), timeout)
        writer.write(head + data)
        raw = await asyncio.wait_for(reader.read(), timeout - (time.monotonic() - started))
    except (OSError, asyncio.TimeoutError):
        return 0, None, time.monotonic() - started
    finally:
        if writer is not None:
            writer.close()
    took = time.monotonic() - started
    text = raw.decode("utf-8", "replace")
    head, _, rest = text.partition("\r\n\r\n")
    parts = head.split()
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    if "transfer-encoding: chunked" in head.lower():
        rest = unchunk(rest)
    try:
        return status, json.loads(rest), took
    except ValueError:
        return status, None, took


def unchunk(text):
    out, rest = [], text
    while rest:
        size, _, rest = rest.partition("\r\n")
        n = int(size.split(";")[0] or "0", 16)
        if n == 0:
            break
        out.append(rest[:n])
        rest = rest[n + 2 :]
    return "".join(out)


async def well_behaved(port, source, deadline, record, errors, rng):
    async def call(kind, method, path, body=None):
        status, answer, took = await request(port, source, method, path, body)
        record.append((kind, status, took))
        if status == 0 or status >= 500:
            why = (answer or {}).get("error", "no answer") if isinstance(answer, dict) else "?"
            errors[why] = errors.get(why, 0) + 1
        return status, answer

    while time.monotonic() < deadline:
        status, state = await call("new", "POST", "/api/new", {"game": "chess"})
        if status != 201 or not state:
            await asyncio.sleep(0.5)
            continue
        gid = state["id"]
        for turn in range(40):
            if time.monotonic() >= deadline:
                return
            status, state = await call("state", "GET", f"/api/game/{gid}")
            legal = (state or {}).get("legal") or []
            if not legal:
                break
            if turn % 6 == 5:
                await call("engine", "POST", f"/api/game/{gid}/engine", {"movetime_ms": 5})
            else:
                mv = rng.choice(legal)["move"]
                await call("move", "POST", f"/api/game/{gid}/move", {"move": mv})
            if turn % 4 == 0:
                await call("status", "GET", "/api/status")
            await asyncio.sleep(rng.uniform(0.05, 0.3))
        await call("games", "GET", "/api/games")


async def hostile_once(port, source, kind, closes):
    """One hostile connection of `kind`, held until the server closes it (at most 120 s)."""
    try:
        reader, writer = await connect("127.0.0.1", port, source)
    except OSError:
        await asyncio.sleep(0.2)
        return
    opened = time.monotonic()

    async def until_closed():
        while await reader.read(4096):
            pass

    async def feed():
        if kind == "slowloris":
            writer.write(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            while True:
                await asyncio.sleep(1.0)
                writer.write(b"X-a: b\r\n")
        elif kind == "stalled-body":
            writer.write(
                b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
        elif kind == "garbage":
            writer.write(os.urandom(4096))
        await asyncio.sleep(3600)

    feeder = asyncio.ensure_future(feed())
    try:
        await asyncio.wait_for(until_closed(), 120)
        closes.append((kind, time.monotonic() - opened))
    except (OSError, asyncio.TimeoutError):
        closes.append((kind, time.monotonic() - opened))
    finally:
        feeder.cancel()
        writer.close()


async def hostile(port, source, deadline, closes, rng):
    kinds = ["slowloris", "stalled-body", "garbage", "silent"]
    while time.monotonic() < deadline:
        kind = rng.choice(kinds)
        left = deadline - time.monotonic()
        try:
            await asyncio.wait_for(hostile_once(port, source, kind, closes), max(left, 0.1))
        except asyncio.TimeoutError:
            pass
        # A short pause, so that the clients' own CPU stays small beside the server's.
        await asyncio.sleep(0.2)


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def report(record, errors, closes, rss_before, rss_after, args):
    print(f"{'kind':<8} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  statuses")
    kinds = sorted({k for k, _, _ in record})
    for kind in kinds + ["all"]:
        rows = [r for r in record if kind in ("all", r[0])]
        took = [t for _, _, t in rows]
        statuses = {}
        for _, s, _ in rows:
            statuses[s] = statuses.get(s, 0) + 1
        print(
            f"{kind:<8} {len(rows):>6} {1000 * quantile(took, 0.5):>8.1f} "
            f"{1000 * quantile(took, 0.99):>8.1f} {1000 * max(took, default=0):>8.1f}  "
            f"{dict(sorted(statuses.items()))}"
        )
    for kind in sorted({k for k, _ in closes}):
        held = [t for k, t in closes if k == kind]
        print(
            f"hostile {kind:<13} {len(held):>5} connections, closed after "
            f"p50 {quantile(held, 0.5):.1f} s, max {max(held):.1f} s"
        )
    for why, n in sorted(errors.items()):
        print(f"failed well-behaved requests: {n} x {why}")
    print(f"server RSS: {rss_before / 1024:.1f} MiB before, {rss_after / 1024:.1f} MiB after")
    took = [t for _, _, t in record]
    failed = [r for r in record if r[1] == 0 or r[1] >= 500]
    summary = {
        "clients": args.clients,
        "seconds": args.seconds,
        "hostile": int(args.clients * args.hostile_share),
        "hostile_conns": args.hostile_conns,
        "spread": args.spread,
        "requests": len(record),
        "failed": len(failed),
        "p99_ms": round(1000 * quantile(took, 0.99), 1),
        "max_ms": round(1000 * max(took, default=0), 1),
        "hostile_connections": len(closes),
        "rss_mib_before": round(rss_before / 1024, 1),
        "rss_mib_after": round(rss_after / 1024, 1),
    }
    print(json.dumps(summary))
    return 1 if failed or summary["max_ms"] > 10_000 else 0


async def run(args, port):
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    record, errors, closes = [], {}, []
    n_hostile = int(args.clients * args.hostile_share)
    tasks = []
    for i in range(args.clients - n_hostile):
        source = f"127.0.1.{1 + i % 250}"
        client_rng = random.Random(rng.random())
        tasks.append(well_behaved(port, source, deadline, record, errors, client_rng))
    for i in range(n_hostile * args.hostile_conns):
        source = f"127.0.2.{1 + i // args.hostile_conns % 250}" if args.spread else "127.0.0.1"
        tasks.append(hostile(port, source, deadline, closes, random.Random(rng.random())))
    await asyncio.gather(*tasks)
    return record, errors, closes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/kiebitz-web")
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--hostile-share", type=float, default=0.5)
    ap.add_argument("--hostile-conns", type=int, default=2)
    ap.add_argument("--spread", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("server_flags", nargs="*")
    args = ap.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [args.bin, "--listen", f"127.0.0.1:{port}", *args.server_flags],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        if "serving on" not in line:
            sys.exit(f"load-web: the server did not start: {line.strip()}")
        time.sleep(0.5)
        rss_before = rss_kib(server.pid)
        record, errors, closes = asyncio.run(run(args, port))
        rss_after = rss_kib(server.pid)
        status = report(record, errors, closes, rss_before, rss_after, args)
    finally:
        server.terminate()
        server.wait(10)
    sys.exit(status)


if __name__ == "__main__":
    main()
