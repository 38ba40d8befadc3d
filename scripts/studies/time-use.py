#!/usr/bin/env python3
"""How much of its clock each engine of a kiebitz-match PGN used: per engine, the mean
seconds spent in a game and the mean seconds a move by move number (moves 1-5, 6-10, 11-15,
16-20, 21 and later), then the mean depth reached in the same buckets, read from the move
comments (`{+0.35/12 0.084s}`; book moves carry no time and are left out). Räuberschach at 2+0.02 showed that the engine spent about half of its
clock (docs/search-log.md, session 9).

usage: time-use.py FILE.pgn
"""
import collections
import re
import sys


def main(path):
    games = open(path, encoding="utf-8").read().split("[Event ")[1:]
    per_move = collections.defaultdict(lambda: collections.defaultdict(list))
    per_game = collections.defaultdict(list)
    depths = collections.defaultdict(lambda: collections.defaultdict(list))
    for game in games:
        white = re.search(r'\[White "([^"]+)"\]', game).group(1)
        black = re.search(r'\[Black "([^"]+)"\]', game).group(1)
        body = game.split("\n\n", 1)[1]
        moves = re.findall(r"\{([^}]*?)([0-9.]+)s\}", body)
        used = {white: 0.0, black: 0.0}
        for i, (head, t) in enumerate(moves):
            depth = re.search(r"/(\d+)", head)
            depth = depth and depth.group(1)
            name = white if i % 2 == 0 else black
            bucket = min(i // 2 // 5, 4)
            per_move[name][bucket].append(float(t))
            used[name] += float(t)
            if depth:
                depths[name][bucket].append(int(depth))
        for name, t in used.items():
            per_game[name].append(t)
    labels = ["1-5", "6-10", "11-15", "16-20", "21-"]
    for name in per_move:
        spent = sum(per_game[name]) / len(per_game[name])
        buckets = " ".join(
            f"moves {labels[k]}: {sum(v) / len(v):.3f} s ({len(v)})"
            for k, v in sorted(per_move[name].items())
        )
        print(f"{name}: {spent:.2f} s a game; {buckets}")
        deep = " ".join(
            f"moves {labels[k]}: {sum(v) / len(v):.1f}"
            for k, v in sorted(depths[name].items())
        )
        print(f"{name}: mean depth {deep}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
