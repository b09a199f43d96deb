"""The ledger's statistics (stdlib only): the two-proportion test and
Holm's step-down correction of benches/reports.py, the smallest difference
a comparison detects, and the two-sided rank test of two samples."""

import math
import os
import sys
from itertools import combinations

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from reports import holm, two_sample_p  # noqa: E402,F401

Z_975 = 1.959963984540054
Z_80 = 0.8416212335729143


def phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def power(p0, p1, n0, n1):
    """Power of the pooled two-sided two-proportion z test at 5% when the
    published share is p0 over n0 games and the true measured one p1 over
    n1 (normal approximation)."""
    pbar = (p0 * n0 + p1 * n1) / (n0 + n1)
    se0 = math.sqrt(pbar * (1 - pbar) * (1 / n0 + 1 / n1))
    se1 = math.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
    if se1 == 0:
        return 1.0 if abs(p1 - p0) > Z_975 * se0 else 0.0
    return phi((abs(p1 - p0) - Z_975 * se0) / se1)


def mdd(p0, n0, n1):
    """The smallest difference from p0 that the test detects with 80%
    power, the larger of the two directions' (a direction in which even the
    whole room left in [0, 1] is not detected is left out; 1 when neither
    direction is detected)."""
    found = []
    for sign in (1, -1):
        room = (1 - p0) if sign > 0 else p0
        if room <= 1e-9 or power(p0, p0 + sign * room, n0, n1) < 0.8:
            continue
        lo, hi = 0.0, room
        for _ in range(60):
            mid = (lo + hi) / 2
            if power(p0, p0 + sign * mid, n0, n1) >= 0.8:
                hi = mid
            else:
                lo = mid
        found.append(hi)
    return max(found) if found else 1.0


def rank_test(a, b):
    """Two-sided p of the Wilcoxon-Mann-Whitney rank-sum test of samples a
    and b (mid-ranks for ties): exact over every split of the pooled ranks
    when there are at most 200,000 of them, else the normal approximation
    with the tie correction."""
    pooled = sorted(a + b)
    rank = {}
    i = 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j] == pooled[i]:
            j += 1
        rank[pooled[i]] = (i + j + 1) / 2
        i = j
    ranks = [rank[x] for x in pooled]
    n1, n2 = len(a), len(b)
    w = sum(rank[x] for x in b)
    mean = n2 * (n1 + n2 + 1) / 2
    if math.comb(n1 + n2, n2) <= 200_000:
        dev = abs(w - mean) - 1e-9
        hits = total = 0
        for pick in combinations(range(n1 + n2), n2):
            s = sum(ranks[k] for k in pick)
            total += 1
            hits += abs(s - mean) >= dev
        return hits / total
    ties = sum(t ** 3 - t for t in (pooled.count(x) for x in set(pooled)))
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var == 0:
        return 1.0
    z = (abs(w - mean) - 0.5) / math.sqrt(var)
    return math.erfc(max(z, 0) / math.sqrt(2))


def rank_mdd(sd, n1, n2):
    """The smallest shift of location the rank test detects with 80% power
    at 5%, in the unit of the samples (normal approximation; the rank test's
    efficiency against the t test, 3/pi, taken into account)."""
    return (Z_975 + Z_80) * sd * math.sqrt(1 / n1 + 1 / n2) * math.sqrt(math.pi / 3)
