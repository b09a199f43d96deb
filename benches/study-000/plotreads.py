"""The five-game study's rates read off its lost plots (figures 5.1 to 5.24:
MCTS against BMM, ABMM and HMM at several budgets and depths, and MCTS
with epsilon-greedy play-outs against HMM), each played as a match of 50
games. Stdlib only:

    python3 benches/study-000/plotreads.py [MANCALA] [--games N] [--raw DIR] [--threads T]

The text gives no exact figure for these, only words ("close to 100%",
"over 80%", "between 20% and 50%", ...). Each claim below names the range
of win shares its words say (the reading is in the table), and is tested
by one match, or by one match in each game it names: it agrees when the
Wilson 95% interval of the measured share meets the range in every one of
its matches, and differs when it does not. The matches are played as
run.py plays the MCTS tables: MCTSn is `rovaris-uct:n` (random play-outs,
or `:playout=eps-greedy:eps=E` for figures 5.21 to 5.24), BMMd and ABMMd
`alphabeta:d` (plain minimax chooses the same move in every position, so
one match stands for both: the BMM and ABMM claims of one game are one
match, counted once in docs/REPRODUCTION.md), HMMd `rovaris-heuristic:d`;
no random opening (MCTS is not deterministic); Awari and Oware ended by
repetition with each side taking its own seeds; seed 1; sides alternating.
N games a match (default 50). Raw JSON reports go to DIR (default
target/study-000-plots); a report of the same command there is reused.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reports import cached_run, wilson  # noqa: E402

GAMES = {"awari": "awari:6:4", "oware": "oware:6:4", "vlt": "vai-lung-thlan:6:5", "kalah": "kalah:6:4"}
NAMES = {"awari": "Awari", "oware": "Oware", "vlt": "Vai Lung Thlan", "kalah": "Kalah"}
FOUR = ["awari", "oware", "vlt", "kalah"]


def uct(budget, eps=None):
    return f"rovaris-uct:{budget}" + ("" if eps is None else f":playout=eps-greedy:eps={eps}")


# (id, the study's numbers it stands for, the text, MCTS agent, opponent,
#  games, whose share ("mcts" or "hmm"), the range read, in %)
CLAIMS = [
    ("bmm1", "MCTS1000 v BMM1 and v ABMM1 (2)", "MCTS1000 is close to 100% winrate against BMM1 and ABMM1",
     uct(1000), "alphabeta:1", FOUR, "mcts", (90, 100)),
    ("bmm4", "MCTS4000 v BMM4 and v ABMM4 in Awari, Oware, Vai Lung Thlan (6)",
     "MCTS4000 has a winrate over 80% in these games", uct(4000), "alphabeta:4",
     ["awari", "oware", "vlt"], "mcts", (80, 100)),
    ("bmm4k", "MCTS4000 v BMM4 and v ABMM4 in Kalah (2)",
     "In the game Kalah, MCTS4000 performs similarly to BMM4 and ABMM4 (read: 40 to 60%)", uct(4000),
     "alphabeta:4", ["kalah"], "mcts", (40, 60)),
    ("bmm8o", "MCTS4000 v BMM8 and v ABMM8 in Oware (2)", "in Oware, MCTS has a winrate higher than 50%",
     uct(4000), "alphabeta:8", ["oware"], "mcts", (50, 100)),
    ("bmm8", "MCTS4000 v BMM8 and v ABMM8 in Awari and Vai Lung Thlan (4)",
     "in Awari, Vai Lung Thlan and Kalah ... between 20% and 50%", uct(4000), "alphabeta:8",
     ["awari", "vlt"], "mcts", (20, 50)),
    ("bmm8k", "MCTS4000 v BMM8 and v ABMM8 in Kalah (2)",
     "in the game Kalah it is a little over 20% (read: 20 to 30%)", uct(4000), "alphabeta:8", ["kalah"],
     "mcts", (20, 30)),
    ("hmm1", "MCTS4000 v HMM1 in Awari, Oware, Kalah (3)",
     "MCTS4000 obtains only a winrate of about 80% in Awari, Oware, and Kalah (read: 75 to 85%)", uct(4000),
     "rovaris-heuristic:1", ["awari", "oware", "kalah"], "mcts", (75, 85)),
    ("hmm1v", "MCTS4000 v HMM1 in Vai Lung Thlan (1)",
     "in Vai Lung Thlan the winrate of MCTS4000 is closer to 100% (read: 90 to 100%)", uct(4000),
     "rovaris-heuristic:1", ["vlt"], "mcts", (90, 100)),
    ("eps-a1", "figure 5.21a (1)",
     "Awari, HMM1: MCTS needs at least 500 iterations and more than 70% of greedy simulated actions to win "
     "slightly more than half (read: MCTS500, eps = 0.2, wins 50 to 60%)", uct(500, 0.2),
     "rovaris-heuristic:1", ["awari"], "mcts", (50, 60)),
    ("eps-a4", "figure 5.21 at depth 4 (1)",
     "Awari, HMM4: MCTS with 1000 iterations needs at least 50% of greedy simulated actions to win slightly "
     "more than half (read: MCTS1000, eps = 0.5, wins 50 to 60%)", uct(1000, 0.5), "rovaris-heuristic:4",
     ["awari"], "mcts", (50, 60)),
    ("eps-ok1", "figures 5.22a and 5.24a (1)",
     "Oware and Kalah: MCTS wins more than 50% when HMM's depth is 1 and MCTS employs at least 250 "
     "iterations using more than 50% of greedy simulated actions (read: MCTS250, eps = 0.4)", uct(250, 0.4),
     "rovaris-heuristic:1", ["oware", "kalah"], "mcts", (50, 100)),
    ("eps-v4", "figure 5.23 at depth 4 (1)",
     "Vai Lung Thlan: with a depth of 4, HMM winning rate goes slightly below 50% as the random simulated "
     "actions increase (read: HMM4's share against MCTS1000 with random play-outs, 40 to 50%)", uct(1000, 1),
     "rovaris-heuristic:4", ["vlt"], "hmm", (40, 50)),
    ("eps-v8", "figure 5.23 at depth 8 (1)",
     "Vai Lung Thlan: with a depth of 8 HMM maintains a winning rate way above 50% (read: HMM8's share "
     "against MCTS1000 with random play-outs, above 60%)", uct(1000, 1), "rovaris-heuristic:8", ["vlt"],
     "hmm", (60, 100)),
]
# The conclusion "the best epsilon value for Awari is 0": MCTS1000 with
# greedy play-outs (eps = 0) against HMM4 does at least as well as with
# random ones (eps = 1); it differs only when eps = 1 scores significantly
# more (the two-sided two-proportion test at 5%).
BEST_EPS = ("eps-best", "chapter 6 (1)", "the best epsilon value for Awari is 0", 1000, "rovaris-heuristic:4",
            "awari")


def play(args, mcts, opponent, game):
    cmd = ["match", mcts, opponent, "--game", GAMES[game], "--games", str(args["games"]), "--seed", "1",
           "--random-opening", "0", "--json"]
    if game in ("awari", "oware"):
        cmd += ["--repetition", "own-side"]
    name = "-".join(x.replace(":", "_").replace("=", "_") for x in (mcts, opponent, game))
    return cached_run(args["bin"], cmd, os.path.join(args["raw"], name + ".json"), False, args["threads"])


def main() -> None:
    argv = sys.argv[1:]
    opt = lambda name, default: argv[argv.index(name) + 1] if name in argv else default
    args = {"games": int(opt("--games", 50)), "raw": opt("--raw", "target/study-000-plots"),
            "threads": int(opt("--threads", 0))}
    values = {opt(n, None) for n in ("--games", "--raw", "--threads")}
    rest = [a for a in argv if not a.startswith("--") and a not in values]
    args["bin"] = rest[0] if rest else "target/release/mancala"
    os.makedirs(args["raw"], exist_ok=True)
    print(f"The rates read off the lost plots, {args['games']} games a match, seed 1")
    print()
    print("| claim | stands for | the text | game | share of | range read | measured (W/D/L) | Wilson 95% | verdict |")
    print("|---|---|---|---|---|---|---|---|---|")
    agree = 0
    for cid, stands, words, mcts, opponent, games, whose, (lo_r, hi_r) in CLAIMS:
        ok_all = True
        for game in games:
            r = play(args, mcts, opponent, game)
            n = r["games"]
            w, l = (r["a_wins"], r["b_wins"]) if whose == "mcts" else (r["b_wins"], r["a_wins"])
            lo, hi = wilson(w, n)
            ok = 100 * hi >= lo_r and 100 * lo <= hi_r
            ok_all &= ok
            print(f"| {cid} | {stands} | {words} | {NAMES[game]} | {'MCTS' if whose == 'mcts' else 'HMM'} "
                  f"| {lo_r:g}-{hi_r:g}% | {100 * w / n:.1f}% ({w}/{r['draws']}/{l}) | {100 * lo:.1f}-{100 * hi:.1f} "
                  f"| {'agrees' if ok else 'differs'} |", flush=True)
        agree += ok_all
    cid, stands, words, budget, opponent, game = BEST_EPS
    r0 = play(args, uct(budget, 0), opponent, game)
    r1 = play(args, uct(budget, 1), opponent, game)
    from reports import two_sample_p  # noqa: E402
    p = two_sample_p(r0["a_wins"], r0["games"], r1["a_wins"], r1["games"])
    ok = not (r1["a_wins"] / r1["games"] > r0["a_wins"] / r0["games"] and p < 0.05)
    agree += ok
    print(f"| {cid} | {stands} | {words} | {NAMES[game]} | MCTS | eps 0 not below eps 1 "
          f"| eps 0: {100 * r0['a_wins'] / r0['games']:.1f}% ({r0['a_wins']}/{r0['draws']}/{r0['b_wins']}); "
          f"eps 1: {100 * r1['a_wins'] / r1['games']:.1f}% ({r1['a_wins']}/{r1['draws']}/{r1['b_wins']}) "
          f"| p = {p:.2g} | {'agrees' if ok else 'differs'} |", flush=True)
    print()
    print(f"{agree} of {len(CLAIMS) + 1} claims agree (a claim agrees when every one of its matches does)")


if __name__ == "__main__":
    main()
