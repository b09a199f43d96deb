"""The Awale MCTS study's power calculation, recomputed (stdlib only):

    python3 benches/study-001/power.py

The study wants, when agent A's true points share is pi_A = 0.75, a 95%
chance that its test declares the agents of different strength, and
reports the number of games R's `exactci::powerBinom` gives for that, 49
(then plays 50, an even number). Assumptions, from the text and from
`powerBinom`'s defaults (the text names the function and no option):
null share p0 = 0.5, alternative p1 = 0.75, significance level 0.05,
power 0.95, `alternative = "two.sided"` with `strict = FALSE`: the exact
binomial test at 2.5% in each tail, only rejections towards p1 counted;
the smallest N that reaches the power, found by counting N up from 1
(power is not monotone in N, so a larger N can fall below it again). A
draw is half a point, so the test is read on points as the study does.

Prints that N, the same search for the one-sided test at 5% (the test
the study then applies), and, at the study's 50 games, the thresholds of
its "stronger" relation (at least 32 points, p = 0.0325) and of "weakly
stronger" (more than 18), with the power of each test.
"""

from math import comb

P0, P1, LEVEL, POWER = 0.5, 0.75, 0.05, 0.95


def upper_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def critical(n: int, alpha: float) -> int:
    """The least k with P(X >= k | p0) <= alpha (n + 1 if none)."""
    return next((k for k in range(n + 1) if upper_tail(n, k, P0) <= alpha), n + 1)


def power(n: int, alpha: float) -> float:
    """The chance under p1 of a rejection towards it, at one-tail level alpha."""
    k = critical(n, alpha)
    return upper_tail(n, k, P1) if k <= n else 0.0


def smallest_n(alpha: float) -> int:
    return next(n for n in range(1, 1000) if power(n, alpha) >= POWER)


def main() -> None:
    two = smallest_n(LEVEL / 2)
    one = smallest_n(LEVEL)
    print(f"p0 = {P0}, p1 = {P1}, level {LEVEL}, power {POWER}")
    print()
    print("| test | smallest N | points needed | power at that N |")
    print("|---|---:|---:|---:|")
    print(f"| two-sided exact, 2.5% a tail (powerBinom's default) | {two} | {critical(two, LEVEL / 2)} | {power(two, LEVEL / 2):.4f} |")
    print(f"| one-sided exact, 5% | {one} | {critical(one, LEVEL)} | {power(one, LEVEL):.4f} |")
    print()
    print("| N | two-sided: points needed | power | one-sided: points needed | power |")
    print("|---:|---:|---:|---:|---:|")
    for n in range(44, 53):
        print(f"| {n} | {critical(n, LEVEL / 2)} | {power(n, LEVEL / 2):.4f} | {critical(n, LEVEL)} | {power(n, LEVEL):.4f} |")
    k = critical(50, LEVEL)
    print()
    print(f"published: N = 49. recomputed: N = {two} (powerBinom's default test); {one} with the one-sided test")
    print(f"at 50 games: stronger from {k} points (p = {upper_tail(50, k, P0):.4f}), "
          f"weakly stronger from more than {50 - k} points; power of the study's test at 50 games {power(50, LEVEL):.4f}")


if __name__ == "__main__":
    main()
