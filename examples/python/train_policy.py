"""Train a small policy on exact targets from one batch look-up.

Positions of random games are drawn with the engine (`Oracle.play`); one
call to `Oracle.table_move_values` gives every move's exact value for all
of them at once, without a Python loop. A softmax policy that is linear in
the position's counts (numpy only) is trained to put its probability on
the optimal moves, then evaluated on held-out positions against the exact
values: the share of perfect moves and the mean loss per move, next to a
uniform random policy's.

    pip install . numpy
    python examples/python/train_policy.py                  # Kalah(4,3)
    python examples/python/train_policy.py --game awari:4:3 --positions 50000
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import mancala_solver as ms


def counts_of(position: str, m: int) -> list:
    """A position's 2m + 2 counts (Awari's board-only form: captured 0)."""
    c = [int(x.strip("[]")) for x in position.split()]
    return c[:m] + [0] + c[m:] + [0] if len(c) == 2 * m else c


def sample(oracle: ms.Oracle, game: str, n: int, seed: int) -> np.ndarray:
    """`n` positions met in random games of `game`, game over excluded."""
    rng = random.Random(seed)
    m = int(game.split(":")[1])
    out = []
    while len(out) < n:
        r = oracle.start(game)
        while not r["game_over"] and len(out) < n:
            out.append(counts_of(r["position"], m))
            r = oracle.play(game, r["position"], str(rng.choice(r["legal_moves"])))
    return np.array(out, dtype=np.uint8)


def features(x: np.ndarray) -> np.ndarray:
    """Counts scaled, each pit's count one-hot up to 8, and a bias."""
    m = (x.shape[1] - 2) // 2
    pits = np.concatenate([x[:, :m], x[:, m + 1 : 2 * m + 1]], axis=1)
    onehot = (np.minimum(pits, 8)[:, :, None] == np.arange(9)).reshape(len(x), -1)
    return np.concatenate([x / 10.0, onehot, np.ones((len(x), 1))], axis=1).astype(np.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="kalah:4:3")
    ap.add_argument("--positions", type=int, default=20_000)
    ap.add_argument("--epochs", type=int, default=300)
    ap.add_argument("--db", default="db")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    oracle = ms.Oracle(db=args.db)
    x = sample(oracle, args.game, args.positions, args.seed)
    t = time.perf_counter()
    values = oracle.table_move_values(args.game, x)  # (N, m), ms.MISSING where illegal
    print(f"{len(x)} positions of {args.game}: every move's exact value in {time.perf_counter() - t:.3f} s (one call)")
    legal = values != ms.MISSING
    keep = legal.any(axis=1)
    x, values, legal = x[keep], values[keep], legal[keep]
    best = np.where(legal, values, np.iinfo(np.int32).min).max(axis=1)
    optimal = legal & (values == best[:, None])
    target = optimal / optimal.sum(axis=1, keepdims=True)

    f = features(x)
    cut = int(0.8 * len(f))
    rng = np.random.RandomState(args.seed)
    w = rng.normal(0, 0.01, size=(f.shape[1], values.shape[1])).astype(np.float32)

    def policy(fx, lx):
        z = fx @ w
        z = np.where(lx, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)

    for epoch in range(args.epochs):
        p = policy(f[:cut], legal[:cut])
        grad = f[:cut].T @ (p - target[:cut]) / cut
        w -= 2.0 * grad
        if epoch % 100 == 0 or epoch == args.epochs - 1:
            loss = -(target[:cut] * np.log(p + 1e-12)).sum(axis=1).mean()
            print(f"epoch {epoch:4d}: cross-entropy {loss:.3f}")

    test = slice(cut, None)
    choice = policy(f[test], legal[test]).argmax(axis=1)
    rows = np.arange(len(choice))
    lost = best[test] - values[test][rows, choice]
    uniform_loss = ((best[test][:, None] - values[test]) * legal[test]).sum(axis=1) / legal[test].sum(axis=1)
    uniform_perfect = (optimal[test].sum(axis=1) / legal[test].sum(axis=1)).mean()
    print(f"held-out positions: {len(choice)}")
    print(f"trained policy: {100 * (lost == 0).mean():.1f}% perfect moves, mean loss {lost.mean():.2f} seeds a move")
    print(f"uniform random: {100 * uniform_perfect:.1f}% perfect moves, mean loss {uniform_loss.mean():.2f} seeds a move")


if __name__ == "__main__":
    main()
