#!/usr/bin/env python3
"""Depth statistics per engine from kiebitz-match N-seat records (PGN-like, with the
[<Seat>Depths "…"] tags): median over all moves, the mean of each game's median (the paper's
"median depth" in decimals), and the mean over the first 40 turns (the mean over all moves is
inflated by endgames with few pieces, where the search reaches the end of the game).

usage: scripts/studies/chamaeleon-depths.py RECORDS.pgn
"""
import re
import statistics
import sys
from collections import defaultdict

SEATS = ["South", "West", "North", "East"]


def games(path):
    tags = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.startswith("[Event") is False and tags and line.strip() == "" and "Termination" in tags:
            yield tags
            tags = {}
    if tags:
        yield tags


def main():
    alld = defaultdict(list)
    early = defaultdict(list)
    medians = defaultdict(list)
    players = None
    for g in games(sys.argv[1]):
        players = int(g.get("Players", "4"))
        for seat in SEATS:
            if seat not in g or seat + "Depths" not in g:
                continue
            d = [int(x) for x in g[seat + "Depths"].split()]
            if not d:
                continue
            e = g[seat]
            alld[e] += d
            # A seat's k-th own move is turn ≈ k·players; keep the first 40 turns.
            early[e] += d[: max(1, 40 // players)]
            medians[e].append(statistics.median(d))
    print("%-10s %7s %14s %16s" % ("Engine", "Median", "Mean of medians", "Mean (turns<40)"))
    for e in sorted(alld):
        print("%-10s %7.1f %14.2f %16.2f" % (e, statistics.median(alld[e]),
              statistics.mean(medians[e]), statistics.mean(early[e])))


if __name__ == "__main__":
    main()
