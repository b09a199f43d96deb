"""Long work from Python: table builds with progress, solves with
checkpoints, matches and grades, and how each stops (Ctrl-C, a callback
that raises) without losing what was written.
"""

import _thread
import os
import signal
import threading
import time

import pytest

import mancala_solver as ms


def test_a_build_reports_each_table_and_keeps_them(tmp_path):
    o = ms.Oracle(db=tmp_path, build_limit=0)
    events = []
    r = o.build_tables("kalah:3:2", 8, progress=events.append)
    assert [t["seeds"] for t in r["tables"]] == list(range(1, 9))
    assert not any(t["found"] for t in r["tables"])
    kinds = [e["event"] for e in events]
    assert kinds[0] == "build_plan"
    assert [e["seeds"] for e in events if e["event"] == "table_built"] == list(range(1, 9))
    # The oracle reads them at once, though its own limit builds nothing.
    assert o.query("kalah:3:2", "1 1 1 0 1 1 1 0")["source"] == "tables"
    again = o.build_tables("kalah:3:2", 8)
    assert all(t["found"] for t in again["tables"])


def test_a_callback_that_raises_stops_the_build_between_tables(tmp_path):
    o = ms.Oracle(db=tmp_path)
    game = "awari:4:3:grand-slam-captures-nothing"

    def progress(e):
        if e["event"] == "table_built":
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        o.build_tables(game, 18, progress=progress)
    tables = [f for f in os.listdir(tmp_path) if f.endswith(".tbl")]
    assert not [f for f in os.listdir(tmp_path) if "tmp" in f]
    written = sorted(int(f.split("-k")[1].split(".")[0]) for f in tables)
    # The callback runs between polls: the build stopped at the table after
    # the one it was told of, or a few later on a fast machine, never
    # inside one.
    assert written == list(range(1, len(written) + 1)) and 1 <= len(written) < 18, written
    # Going on keeps them and builds the rest.
    r = o.build_tables(game, 18)
    assert [t["found"] for t in r["tables"]] == [True] * len(written) + [False] * (18 - len(written))


def test_bad_builds_are_clear_errors(tmp_path):
    o = ms.Oracle(db=tmp_path)
    with pytest.raises(ms.BadInput, match="no endgame tables"):
        o.build_tables("kalah:8:2", 4)
    with pytest.raises(ms.BadInput, match="bad game"):
        o.build_tables("chess:8:8", 4)


def test_a_solve_is_exact_or_keeps_its_bounds_and_resumes(tmp_path):
    o = ms.Oracle(db=tmp_path, build_limit=2_000_000)
    r = o.solve("kalah:4:3")
    assert r["solution"]["exact"] and r["solution"]["value"] == 8
    assert r["solution"]["pv"]
    ckpt = tmp_path / "k64.ckpt"
    seen = []
    r = o.solve("kalah:6:4", time_ms=400, checkpoint=ckpt, threads=1, progress=seen.append)
    s = r["solution"]
    assert not s["exact"] and s["value"] is None and s["lower"] <= s["upper"]
    assert ckpt.exists() and not r["resumed"]
    assert any(e["event"] == "checkpoint_saved" for e in seen)
    r = o.solve("kalah:6:4", time_ms=400, resume=ckpt, checkpoint=ckpt, threads=1)
    assert r["resumed"]
    assert r["solution"]["lower"] >= s["lower"] and r["solution"]["upper"] <= s["upper"]
    with pytest.raises(ms.BadInput, match="Kalah's"):
        o.solve("awari:6:4")


def test_a_match_and_a_grade_report_as_the_command_line(tmp_path):
    o = ms.Oracle(db=tmp_path)
    games = []
    m = o.match("kalah:4:3", "greedy", "random", games=40, seed=3, progress=games.append)
    assert m["games"] == 40 and m["a"] == "greedy"
    assert m["a_wins"] + m["draws"] + m["b_wins"] == 40 and m["a_wins"] > 30
    dones = [e["done"] for e in games if e["event"] == "advance"]
    assert dones == sorted(dones) and dones[-1] == 40  # in order, the last one whole
    # The same seed plays the same games.
    again = o.match("kalah:4:3", "greedy", "random", games=40, seed=3)
    assert (again["a_wins"], again["average_difference"]) == (m["a_wins"], m["average_difference"])
    g = o.grade("kalah:4:3", "perfect", positions=60, seed=2)
    assert g["positions"] == 60 and g["optimal_share"]["value"] == 1.0 and g["mean_loss"]["value"] == 0
    r = o.grade("kalah:4:3", "random", positions=60, seed=2)
    assert r["optimal_share"]["value"] < 1 and r["mean_loss"]["value"] > 0
    with pytest.raises(ms.BadInput):
        o.match("kalah:4:3", "greedy", "nonsense:3")


def test_ctrl_c_stops_a_match(tmp_path):
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        o = ms.Oracle(db=tmp_path)
        threading.Timer(0.5, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            o.match("kalah:6:6", "mcts:2s", "mcts:2s", games=1000)
        # The agents in the games under way stop thinking at once.
        assert time.monotonic() - start < 3
    finally:
        signal.signal(signal.SIGINT, previous)
