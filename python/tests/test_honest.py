"""No answer presents a guess as a proof (issue 61): where the engine
proves only bounds in the time it has, the calls that would give a best
move or a value raise `Unproven` (a `Stopped`, with the bounds and the
best move so far), or, under the documented `allow_unproven=True`, give
the guess flagged as such."""

import warnings

import pytest

import mancala_solver as ms


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    # No tables for Kalah(6,6) and 50 ms of search: its start is never
    # solved here.
    return ms.Oracle(db=tmp_path_factory.mktemp("db"), solve_ms=50, build_limit=2_000_000, agent_ms=2000)


def test_unproven_is_a_stopped_with_the_bounds():
    assert issubclass(ms.Unproven, ms.Stopped) and issubclass(ms.Unproven, ms.MancalaError)
    e = ms.Unproven("x", -3, 5, 2)
    assert (e.lower, e.upper, e.best_move_so_far) == (-3, 5, 2)


def test_value_raises_unproven_with_the_bounds(oracle):
    with pytest.raises(ms.Unproven) as e:
        oracle.value("kalah:6:7")
    assert e.value.lower < e.value.upper
    assert e.value.best_move_so_far in range(6)


def test_best_move_raises_where_it_is_a_guess(oracle):
    with pytest.raises(ms.Unproven, match="allow_unproven=True") as e:
        oracle.best_move("kalah:6:7")
    assert e.value.lower < e.value.upper
    guess = oracle.best_move("kalah:6:7", allow_unproven=True)
    assert guess in range(6)
    # Proven moves come back as before: the tables, and a finished game.
    assert oracle.best_move("kalah:3:3") == oracle.query("kalah:3:3")["best_move"]
    assert oracle.best_move("kalah:3:1", "0 0 0 3 0 1 0 0") is None


def test_a_perfect_agent_move_says_whether_it_is_proven(oracle):
    # From the tables (built by the query): proven, its value exact.
    assert oracle.query("kalah:3:3")["source"] == "tables"
    r = oracle.agent_move("kalah:3:3", "perfect")
    assert r["exact"] and r["value"] == 2 and "tables" in r["value_kind"]
    # Above the tables, with too little time: a guess, raised ...
    with pytest.raises(ms.Unproven, match="not proven best") as e:
        oracle.agent_move("kalah:6:7", "perfect:20ms")
    assert e.value.best_move_so_far in range(6)
    # ... or given, flagged, when asked for.
    r = oracle.agent_move("kalah:6:7", "perfect:20ms", allow_unproven=True)
    assert not r["exact"] and "estimated" in r["value_kind"]
    # A forced move is proven best, whatever the time.
    r = oracle.agent_move("kalah:6:7", "perfect:20ms", "0 0 0 0 0 1 30 9 9 9 9 9 6 0")
    assert r["exact"] and r["move"] == 5
    # The other agents never claim a proof.
    assert not oracle.agent_move("kalah:4:3", "alphabeta:4")["exact"]


def test_a_stopped_solve_gives_no_move_or_line_as_proven(oracle):
    r = oracle.solve("kalah:6:7", time_ms=100, threads=1)
    s = r["solution"]
    assert not s["exact"]
    assert s["value"] is None and s["best_move"] is None and s["pv"] is None and s["pv_turns"] is None
    assert s["best_move_so_far"] in range(6)
    assert s["lower"] <= s["estimate"] <= s["upper"]
    done = oracle.solve("kalah:3:2")["solution"]
    assert done["exact"] and done["best_move"] == done["best_move_so_far"] and done["estimate"] is None
    assert done["pv"] and done["value"] is not None


def test_query_keeps_bounds_and_says_its_move_is_a_guess(oracle):
    a = oracle.query("kalah:6:7")
    assert not a["exact"] and a["value"] is None and a["best_moves"] == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # A proven answer warns of nothing.
        assert oracle.query("kalah:3:3")["exact"]
