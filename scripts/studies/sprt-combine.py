#!/usr/bin/env python3
"""Pools the pentanomial pair counts of several kiebitz-match PGN files of the same test
(same engines, same budget, colour-swapped pairs from one opening each) and prints the
pooled Elo and the SPRT log-likelihood ratio, computed as kiebitz-match and fishtest do it
(generalized SPRT on the pentanomial counts, maximum-likelihood distributions, empty buckets
as 0.001 pairs).

A test stopped for time and resumed with a new seed is the same sequential test paused:
pooling its runs is valid when nothing but the seed changed.

usage: sprt-combine.py NEW_NAME ELO0 ELO1 FILE.pgn [FILE.pgn ...]
"""
import math
import re
import sys


def games(path):
    """(round, fen, white, black, result) of every game of a PGN file."""
    tags = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.strip() == "" and "Result" in tags and "Round" in tags:
            yield (int(tags["Round"]), tags.get("FEN", ""), tags["White"], tags["Black"],
                   tags["Result"])
            tags = {}


def score(result, white, new):
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    return points if white == new else 1.0 - points


def pairs(path, new):
    """The pair buckets (0 = LL … 4 = WW) of NEW over the pairs (rounds 2k-1, 2k), in order."""
    by_round = {g[0]: g for g in games(path)}
    out = []
    for r in sorted(by_round):
        if r % 2 == 0 or r + 1 not in by_round:
            continue
        a, b = by_round[r], by_round[r + 1]
        if a[1] != b[1]:
            sys.exit(f"{path}: rounds {r} and {r + 1} do not share an opening")
        out.append(int(round((score(a[4], a[2], new) + score(b[4], b[2], new)) * 2)))
    return out


def penta(buckets):
    """Pentanomial counts [LL, LD, DD+WL, WD, WW]."""
    return [buckets.count(i) for i in range(5)]


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mle(scores, probs, s):
    f = lambda t: sum(p * (a - s) / (1.0 + t * (a - s)) for a, p in zip(scores, probs))
    lo, hi = -1.0 / (scores[-1] - s), -1.0 / (scores[0] - s)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    return [p / (1.0 + t * (a - s)) for a, p in zip(scores, probs)]


def llr(counts, elo0, elo1):
    c = [x if x else 1e-3 for x in counts]
    n = sum(c)
    probs = [x / n for x in c]
    scores = [i / 4.0 for i in range(5)]
    p0 = mle(scores, probs, score_from_elo(elo0))
    p1 = mle(scores, probs, score_from_elo(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def pair_elo(counts):
    n = sum(counts)
    scores = [i / 4.0 for i in range(5)]
    mean = sum(s * c for s, c in zip(scores, counts)) / n
    var = sum(c * (s - mean) ** 2 for s, c in zip(scores, counts)) / n
    err = 1.959964 * math.sqrt(var / n)
    elo = lambda s: -400.0 * math.log10(1.0 / s - 1.0)
    return elo(mean), elo(mean + err) - elo(mean)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    new, elo0, elo1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    lower, upper = math.log(0.05 / 0.95), math.log(0.95 / 0.05)
    sequence = []
    for path in sys.argv[4:]:
        b = pairs(path, new)
        c = penta(b)
        e, err = pair_elo(c)
        print(f"{path}: pairs {sum(c)}, ptnml {c}, pair Elo {e:+.1f} ± {err:.1f}, "
              f"LLR {llr(c, elo0, elo1):.2f}")
        sequence += b
    # The sequential test over the runs in the order given: it stops at the first crossing.
    stop = len(sequence)
    for n in range(1, len(sequence) + 1):
        value = llr(penta(sequence[:n]), elo0, elo1)
        if value >= upper or value <= lower:
            stop = n
            break
    total = penta(sequence[:stop])
    e, err = pair_elo(total)
    value = llr(total, elo0, elo1)
    verdict = "H1 accepted" if value >= upper else "H0 accepted" if value <= lower else "continue"
    print(f"pooled, in order: pairs {sum(total)} of {len(sequence)} ({2 * sum(total)} games), "
          f"ptnml {total}, pair Elo {e:+.1f} ± {err:.1f}, LLR {value:.2f} "
          f"(bounds {lower:.2f}, {upper:.2f}) — {verdict}")


if __name__ == "__main__":
    main()
