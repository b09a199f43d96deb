"""The OpenSpiel bridge (`mancala_solver.openspiel`) against OpenSpiel's own
`mancala` and `oware`: every position, legal move set, end and result of
random games agree; the exact values agree with the engine's; the perfect
bot never gives away a won position; OpenSpiel's MCTS runs on the exact
evaluator.

Needs OpenSpiel (`pip install open_spiel`); skipped without it unless
MANCALA_REQUIRE_OPENSPIEL is set (as `.ci/run` does).
"""

import os
import random
import warnings

import pytest

import mancala_solver as ms

if os.environ.get("MANCALA_REQUIRE_OPENSPIEL"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

from mancala_solver import openspiel as bridge  # noqa: E402
from mancala_solver.openspiel_compare import compare_random_games  # noqa: E402


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    return ms.Oracle(db=tmp_path_factory.mktemp("db"), solve_ms=2000)


def oware(houses, seeds):
    return pyspiel.load_game("oware", {"num_houses_per_player": houses, "num_seeds_per_house": seeds})


def test_the_games_map_to_the_rule_sets_they_play():
    assert bridge.engine_game(pyspiel.load_game("mancala")) == "kalah:6:4:capture-needs-opposite"
    assert bridge.engine_game(oware(6, 4)) == "awari:6:4:grand-slam-captures-nothing"
    with pytest.raises(ms.BadInput, match="tic_tac_toe"):
        bridge.engine_game(pyspiel.load_game("tic_tac_toe"))


def test_boards_and_actions_are_read_from_both_sides():
    s = pyspiel.load_game("mancala").new_initial_state()
    s.apply_action(3)  # player 0's third pit: 4 seeds, the last in the store
    assert bridge.engine_position(s) == "4 4 0 5 5 5 1 4 4 4 4 4 4 0"
    assert s.current_player() == 0 and bridge.engine_move(s, 3) == 2
    s.apply_action(1)
    assert s.current_player() == 1
    assert bridge.engine_position(s) == "4 4 4 4 4 4 0 0 5 1 6 6 5 1"
    assert [bridge.engine_move(s, a) for a in s.legal_actions()] == [0, 1, 2, 3, 4, 5]
    assert bridge.openspiel_action(s, 0) == 8
    o = oware(3, 3).new_initial_state()
    o.apply_action(0)
    assert o.current_player() == 1
    assert bridge.engine_position(o) == "4 3 3 [0] 0 4 4 [0]"


@pytest.mark.parametrize(
    "name,games,seed",
    [("mancala", 250, 1), ("oware:6:4", 110, 2), ("oware:3:3", 150, 3), ("oware:4:2", 100, 4)],
)
def test_random_games_agree_position_by_position(oracle, name, games, seed):
    game = pyspiel.load_game("mancala") if name == "mancala" else oware(*map(int, name.split(":")[1:]))
    c = compare_random_games(game, oracle, games=games, seed=seed)
    assert c.agree, c.disagreements[:5]
    assert c.games == games
    if name in ("mancala", "oware:6:4"):
        assert c.positions >= 10_000
    if name != "mancala":
        # Both ways OpenSpiel ends an Oware game early are met and counted.
        assert c.ended_by_majority > 0


def test_exact_values_are_the_engines(oracle):
    game = oware(3, 3)
    exact = bridge.ExactOracle(oracle)
    s = game.new_initial_state()
    a = oracle.query("awari:3:3:grand-slam-captures-nothing")
    assert exact.value(s) == a["final_difference"]
    values = exact.action_values(s)
    assert sorted(values) == s.legal_actions()
    assert max(values.values()) == exact.value(s)
    assert all(values[b] == exact.value(s) for b in exact.best_actions(s))
    r = exact.returns(s)
    assert r[0] == -r[1] and r[0] == (a["value"] > 0) - (a["value"] < 0)


class _no_warning:
    def __enter__(self):
        self.c = warnings.catch_warnings()
        self.c.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        self.c.__exit__(*exc)


def play_out(state, bots):
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


# The bot's first look at each game builds its tables and says so
# (TablesWarning, checked by test_the_first_use_of_a_game_builds_its_tables
# and others); here that is expected, not news.
@pytest.mark.filterwarnings("ignore::mancala_solver.TablesWarning")
def test_the_perfect_bot_keeps_every_won_position_against_mcts(oracle):
    from open_spiel.python.algorithms import mcts
    import numpy as np

    exact = bridge.ExactOracle(oracle)
    rng = random.Random(7)
    checked = 0
    for g in range(80):
        game = [oware(3, 3), oware(4, 2), oware(3, 4)][g % 3]
        if checked < 6:
            # A position a few random moves into the game, won for the
            # player to move, whose perfect play ends the game (not in a
            # repetition, where OpenSpiel's rule differs from the engine's).
            s = game.new_initial_state()
            for _ in range(rng.randrange(0, 14)):
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal() or exact.value(s) <= 0 or exact.analysis(s)["pv_end"] == "repetition":
                continue
            p = s.current_player()
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(g))
            bots = [None, None]
            bots[p] = bridge.PerfectBot(exact, player_id=p)
            bots[1 - p] = mcts.MCTSBot(game, 2.0, 100, evaluator, random_state=np.random.RandomState(g))
            r = play_out(s, bots)
            assert r[p] > 0, (s.history(), r)
            checked += 1
    assert checked >= 5


def test_the_perfect_bot_gives_its_policy(oracle):
    exact = bridge.ExactOracle(oracle)
    s = oware(3, 3).new_initial_state()
    bot = bridge.PerfectBot(exact, player_id=0)
    assert bot.provides_policy() and bot.player_id() == 0
    assert bot.get_policy(s) == [(exact.best_action(s), 1.0)]
    assert bot.step(s) == exact.best_action(s) == 0  # the engine's best move at the start
    # Perfect play by both sides: the engine's value, +1 for player 0, ends
    # in a repetition, which OpenSpiel scores by the seeds in each row: there
    # player 0 loses (the documented difference of the rules).
    assert exact.value(s) == 1 and exact.analysis(s)["pv_end"] == "repetition"
    assert pyspiel.evaluate_bots(s, [bot, bridge.PerfectBot(exact)], 1) == [-1.0, 1.0]


def test_the_perfect_bot_plays_mancala_endings(tmp_path):
    # Kalah(6,4) late in a game: the search over small tables (not the
    # 6-pit tables up to 20 seeds its first use would build).
    o = ms.Oracle(db=tmp_path, solve_ms=3000, build_limit=3_000_000)
    exact = bridge.ExactOracle(o, build_tables=False)
    game = pyspiel.load_game("mancala")
    rng = random.Random(3)
    played = 0
    while played < 4:
        s = game.new_initial_state()
        while not s.is_terminal() and sum(bridge.board(s).pits + bridge.board(s).opponent_pits) > 12:
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        with pytest.warns(ms.TablesWarning, match=r"ExactOracle.prepare\(game\) builds them") if not played else _no_warning():
            v = exact.value(s)
        p = s.current_player()
        bots = [bridge.PerfectBot(exact), bridge.PerfectBot(exact)]
        r = play_out(s, bots)
        # Perfect play by both sides reaches the value's result.
        assert r[p] == (v > 0) - (v < 0), (v, r)
        played += 1


def test_openspiel_mcts_runs_on_the_exact_evaluator(oracle):
    from open_spiel.python.algorithms import mcts
    import numpy as np

    game = oware(3, 3)
    exact = bridge.ExactOracle(oracle)
    evaluator = bridge.ExactEvaluator(exact)
    bot = mcts.MCTSBot(game, 2.0, 200, evaluator, random_state=np.random.RandomState(1))
    rng = random.Random(5)
    kept = total = 0
    for _ in range(20):
        s = game.new_initial_state()
        for _ in range(rng.randrange(0, 8)):
            if not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal() or exact.value(s) <= 0:
            continue
        values = exact.action_values(s)
        total += 1
        kept += values[bot.step(s)] > 0
    # With exact leaves the search keeps a win in every won position.
    assert total > 0 and kept == total, (kept, total)


def test_the_grading_example_prints_a_table(tmp_path):
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "grade_openspiel.py")
    out = subprocess.run(
        [sys.executable, script, "--db", str(tmp_path), "--games", "2", "--budgets", "10,40"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| MCTS simulations | phase |")
    alls = [r for r in rows if "| all |" in r]
    assert [r.split("|")[1].strip() for r in alls] == ["10", "40"]
    for r in alls:
        decisions = int(r.split("|")[3].split()[0])
        assert decisions > 10, r


def test_the_perfect_bot_raises_where_its_move_is_not_proven(tmp_path):
    # The start of OpenSpiel's Oware (6 houses of 4 seeds): no tables, 300
    # ms of search prove only bounds. The bot played pit 0 silently.
    exact = bridge.ExactOracle(db=tmp_path, solve_ms=300, build_tables=False)
    s = oware(6, 4).new_initial_state()
    with pytest.warns(ms.TablesWarning):
        a = exact.analysis(s)
    assert not a["exact"]
    bot = bridge.PerfectBot(exact)
    with pytest.raises(ms.Unproven, match="not proven") as e:
        bot.step(s)
    assert e.value.lower < e.value.upper and e.value.best_move_so_far in s.legal_actions()
    with pytest.raises(ms.Unproven):
        bot.step_with_policy(s)
    with pytest.raises(ms.Unproven):
        exact.best_action(s)
    with pytest.raises(ms.Unproven):
        exact.best_actions(s)
    with pytest.raises(ms.Unproven):
        exact.value(s)
    with pytest.raises(ms.Unproven):
        exact.returns(s)
    assert all(v is None for v in exact.action_values(s).values())
    bounds = exact.action_bounds(s)
    assert sorted(bounds) == s.legal_actions() and all(lo < hi for lo, hi in bounds.values())
    # Under the documented option it plays the best move so far, flagged.
    flagged = bridge.PerfectBot(exact, allow_unproven=True)
    with pytest.warns(ms.UnprovenMoveWarning, match="not proven"):
        policy, action = flagged.step_with_policy(s)
    assert policy == [(action, 1.0)] and action == e.value.best_move_so_far
    assert flagged.last_move_proven is False and flagged.unproven_moves == 1
    assert exact.best_action(s, allow_unproven=True) == action
    with pytest.raises(TypeError):
        bridge.PerfectBot(exact, allow_unproven="yes")


def test_a_proven_move_is_played_without_a_flag(oracle):
    exact = bridge.ExactOracle(oracle)
    s = oware(3, 3).new_initial_state()
    bot = bridge.PerfectBot(exact, allow_unproven=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ms.UnprovenMoveWarning)
        bot.step(s)
    assert bot.last_move_proven is True and bot.unproven_moves == 0


def test_the_first_use_of_a_game_builds_its_tables(tmp_path):
    game = oware(4, 2)
    exact = bridge.ExactOracle(db=tmp_path / "db")
    plan = exact.table_plan(game)
    assert plan["game"] == "awari:4:2:grand-slam-captures-nothing"
    assert plan["seeds"] == plan["game_seeds"] == 16 and not plan["ready"] and plan["positions"] > 0
    s = game.new_initial_state()
    with pytest.warns(ms.TablesWarning, match="building them once"):
        v = exact.value(s)
    assert exact.table_plan(game)["ready"]
    assert v == exact.oracle.query("awari:4:2:grand-slam-captures-nothing")["final_difference"]
    assert exact.analysis(s)["source"] == "tables"
    with _no_warning():
        exact.value(s)  # once only


def test_without_building_the_first_use_says_how_in_one_line(tmp_path):
    game = oware(4, 2)
    # (build_limit=0: the oracle builds nothing on demand either.)
    exact = bridge.ExactOracle(db=tmp_path / "db", build_tables=False, solve_ms=100, build_limit=0)
    s = game.new_initial_state()
    with pytest.warns(ms.TablesWarning) as w:
        exact.analysis(s)
    (message,) = [str(x.message) for x in w]
    assert "\n" not in message and "ExactOracle.prepare(game)" in message and "awari:4:2" in message
    assert not exact.table_plan(game)["ready"]
    plan = exact.prepare(game)
    assert plan["ready"] and plan["on_disk"] == 16


def test_mancala_needs_the_capture_needs_opposite_tables(tmp_path):
    plan = bridge.ExactOracle(db=tmp_path).table_plan(pyspiel.load_game("mancala"))
    assert plan["game"] == "kalah:6:4:capture-needs-opposite" and plan["rules"] == "capture-needs-opposite"
    assert (plan["pits"], plan["seeds"], plan["game_seeds"]) == (6, 20, 48)
    # Every 6-pit table of 1 to 20 seeds (docs/tables.md).
    assert plan["positions"] == 225_332_381 and plan["on_disk"] == 0


@pytest.mark.parametrize("book", [b for b in ms.books() if b["game"] == "kalah:6:4:capture-needs-opposite"])
def test_the_start_of_mancala_is_exact_from_the_books(tmp_path, book):
    # Runs once the engine embeds a book of OpenSpiel's mancala: its start
    # is answered at once, exactly, with no table and no search.
    exact = bridge.ExactOracle(db=tmp_path, build_tables=False, solve_ms=0)
    s = pyspiel.load_game("mancala").new_initial_state()
    with pytest.warns(ms.TablesWarning):
        a = exact.analysis(s)
    assert a["exact"] and a["source"] == "book"
    values = exact.action_values(s)
    assert all(v is not None for v in values.values()) and max(values.values()) == exact.value(s)
    assert bridge.PerfectBot(exact).step(s) in exact.best_actions(s)


def test_the_evaluator_gives_exact_margins_scaled_to_returns(oracle):
    # OpenSpiel's Oware with 3 houses of 3 seeds lies wholly in the tables:
    # every leaf is exact, the margin kept (a loss by 2 below a loss by 1),
    # under a millisecond a leaf.
    game = oware(3, 3)
    exact = bridge.ExactOracle(oracle)
    ev = bridge.ExactEvaluator(exact)
    rng = random.Random(9)
    seen = set()
    for _ in range(12):
        s = game.new_initial_state()
        while not s.is_terminal():
            v = exact.value(s)
            r = ev.evaluate(s)
            p = s.current_player()
            assert r[p] == pytest.approx(bridge.scaled_return(v, 18, 0.25)) and r[1 - p] == -r[p], (v, r)
            seen.add(v)
            s.apply_action(rng.choice(s.legal_actions()))
    assert {-2, -1, 0, 1, 2} <= seen
    returns = [ev_value for ev_value in (bridge.scaled_return(v, 18, 0.25) for v in sorted(seen))]
    assert returns == sorted(set(returns)), "a larger margin is a larger return"
    assert all((r > 0) == (v > 0) and (r < 0) == (v < 0) for v, r in zip(sorted(seen), returns))
    assert bridge.scaled_return(-1, 18, 0) == bridge.scaled_return(-2, 18, 0) == -1.0
    stats = ev.stats()
    assert set(stats) == {"tables"}, stats
    assert stats["tables"]["ms_per_leaf"] < 1.0, stats


class _Constant:
    """A fallback evaluator that always says ``v`` for player 0."""

    def __init__(self, v):
        self.v, self.calls = v, 0

    def evaluate(self, state):
        self.calls += 1
        return [self.v, -self.v]


def test_the_evaluator_searches_above_the_tables_and_estimates_only_there(tmp_path):
    # Kalah(6,4) under OpenSpiel's rules with tables up to 8 seeds only:
    # positions of 10 to 14 seeds are searched, and the search finishes.
    o = ms.Oracle(db=tmp_path, solve_ms=5000)
    o.build_tables("kalah:6:4:capture-needs-opposite", 8)
    exact = bridge.ExactOracle(o, build_tables=False)
    fallback = _Constant(0.3)
    ev = bridge.ExactEvaluator(exact, search_ms=5000, fallback=fallback)
    game = pyspiel.load_game("mancala")
    rng = random.Random(4)
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ms.TablesWarning)
        while checked < 6:
            s = game.new_initial_state()
            while not s.is_terminal() and sum(bridge.board(s).pits + bridge.board(s).opponent_pits) > 14:
                s.apply_action(rng.choice(s.legal_actions()))
            if s.is_terminal() or sum(bridge.board(s).pits + bridge.board(s).opponent_pits) < 10:
                continue
            lo, hi, source = ev.bounds(s)
            assert source == "search" and lo == hi == exact.value(s)
            r = ev.evaluate(s)
            assert r[s.current_player()] == pytest.approx(bridge.scaled_return(lo, 48, 0.25))
            checked += 1
    assert fallback.calls == 0
    assert ev.stats()["cached search"]["leaves"] == checked
    # Not searched: the fallback's estimate, within the bounds of any game.
    quick = bridge.ExactEvaluator(exact, search_ms=0, fallback=fallback)
    s = game.new_initial_state()
    # The start and its first turns are in the opening book: play on.
    while quick.bounds(s)[2] == "book":
        s.apply_action(rng.choice(s.legal_actions()))
    assert quick.bounds(s)[2] == "none"
    r = quick.evaluate(s)
    assert fallback.calls == 1 and list(r) == [0.3, -0.3]
    assert set(quick.stats()) == {"not searched, estimated"}
    with pytest.raises(ms.BadInput, match="margin_weight"):
        bridge.ExactEvaluator(exact, margin_weight=2)
