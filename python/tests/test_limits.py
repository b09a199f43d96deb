"""What the package refuses, and how: parameters of the wrong type or out
of range raise an error naming the parameter and what it takes (never a
bare OverflowError, never a silent truncation), and a search stops on
Ctrl-C at once.
"""

import _thread
import signal
import threading
import time

import pytest

import mancala_solver as ms


@pytest.fixture
def sigint():
    """Python's own SIGINT handler (a shell that starts a job in the
    background leaves SIGINT ignored for it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_query_search_at_once(tmp_path, sigint):
    o = ms.Oracle(db=tmp_path, build_limit=0)
    threading.Timer(0.3, _thread.interrupt_main).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        o.query("kalah:6:6", time_ms=20_000)
    assert time.monotonic() - start < 3
    # The oracle answers again afterwards.
    assert not o.query("kalah:6:6", time_ms=50)["exact"]


def test_time_budgets_have_a_documented_bound(tmp_path):
    o = ms.Oracle(db=tmp_path, build_limit=0)
    day = ms.MAX_QUERY_MS
    assert day == 86_400_000
    with pytest.raises(ValueError, match=r"time_ms=1000000000: .*0 to 86400000"):
        o.query("kalah:6:6", time_ms=10**9)
    with pytest.raises(ms.BadInput, match="time_ms"):
        o.query("kalah:6:6", time_ms=-1)
    for name in ["solve_ms", "agent_ms"]:
        with pytest.raises(ms.BadInput, match=f"{name}=86400001"):
            ms.Oracle(db=tmp_path, **{name: day + 1})
    with pytest.raises(ms.BadInput, match="search_ms"):
        o.grade("kalah:3:2", "greedy", positions=5, search_ms=day + 1)
    with pytest.raises(ms.BadInput, match=r"time_ms=.*0 to 1000000000000"):
        o.solve("kalah:4:3", time_ms=ms.MAX_SOLVE_MS + 1)
    # The bounds themselves are accepted.
    assert ms.Oracle(db=tmp_path, solve_ms=day, agent_ms=day)
    assert o.solve("kalah:2:2", time_ms=ms.MAX_SOLVE_MS)["solution"]["exact"]


def test_db_none_is_the_default_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    o = ms.Oracle(db=None)
    assert o.query("kalah:3:2")["exact"]
    assert (tmp_path / "db").is_dir() and not (tmp_path / "None").exists()
    for bad in ["", 5, 1.5, ["db"]]:
        with pytest.raises((TypeError, ValueError), match="db"):
            ms.Oracle(db=bad)
    assert not (tmp_path / "5").exists()


def test_floats_for_whole_numbers_are_refused_naming_the_parameter(tmp_path):
    o = ms.Oracle(db=tmp_path)
    calls = {
        "missing": lambda: o.table_values("kalah:2:2", [[1, 0, 1, 0, 1, 0]], missing=1.7),
        "solve_ms": lambda: ms.Oracle(db=tmp_path, solve_ms=1.5),
        "build_limit": lambda: ms.Oracle(db=tmp_path, build_limit=1e6),
        "tt_mb": lambda: ms.Oracle(db=tmp_path, tt_mb=8.0),
        "time_ms": lambda: o.query("kalah:2:2", time_ms=10.0),
        "seed": lambda: o.agent_move("kalah:2:2", "random", seed=1.0),
        "max_seeds": lambda: o.build_tables("kalah:2:2", 2.0),
        "games": lambda: o.match("kalah:2:2", "greedy", "random", games=4.0),
        "positions": lambda: o.grade("kalah:2:2", "greedy", positions=5.0),
        "threads": lambda: o.solve("kalah:2:2", threads=1.0),
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=f"{name} must be a whole number"):
            call()
    # A bool is not a count either; numpy's integers are.
    with pytest.raises(TypeError, match="seed"):
        o.agent_move("kalah:2:2", "random", seed=True)
    np = pytest.importorskip("numpy")
    uncovered = ms.Oracle(db=tmp_path / "empty", build_limit=0)
    assert uncovered.table_values("kalah:4:3", [[3, 3, 3, 3, 0, 3, 3, 3, 3, 0]], missing=np.int32(-7)).tolist() == [-7]
    assert o.match("kalah:2:2", "greedy", "random", games=np.int64(2))["games"] == 2


def test_out_of_range_whole_numbers_name_the_parameter_and_its_range(tmp_path):
    o = ms.Oracle(db=tmp_path)
    cases = [
        ("missing", r"missing=2147483648: .*-2147483648 to 2147483647",
         lambda: o.table_values("kalah:2:2", [[1, 0, 1, 0, 1, 0]], missing=2**31)),
        ("missing", "missing", lambda: o.table_move_values("kalah:2:2", [[1, 0, 1, 0, 1, 0]], missing=-(2**31) - 1)),
        ("seed", r"seed=-1: .*0 to 18446744073709551615", lambda: o.agent_move("kalah:2:2", "random", seed=-1)),
        ("seed", "seed", lambda: o.match("kalah:2:2", "greedy", "random", games=2, seed=2**64)),
        ("seed", "seed", lambda: o.grade("kalah:2:2", "greedy", positions=5, seed=-5)),
        ("build_limit", "build_limit=-1", lambda: ms.Oracle(db=tmp_path, build_limit=-1)),
        ("tt_mb", r"tt_mb=0: .*1 to 1048576", lambda: ms.Oracle(db=tmp_path, tt_mb=0)),
        ("tt_mb", "tt_mb", lambda: ms.Oracle(db=tmp_path, tt_mb=2**80)),
        ("games", r"games=0: .*1 to 1000000000", lambda: o.match("kalah:2:2", "greedy", "random", games=0)),
        ("games", "games", lambda: o.match("kalah:2:2", "greedy", "random", games=2**70)),
        ("positions", "positions=-3", lambda: o.grade("kalah:2:2", "greedy", positions=-3)),
        ("max_seeds", "max_seeds=0", lambda: o.build_tables("kalah:2:2", 0)),
        ("max_seeds", "max_seeds", lambda: o.build_tables("kalah:2:2", 2**64)),
        ("threads", "threads=-1", lambda: o.solve("kalah:2:2", threads=-1)),
        ("threads", "threads", lambda: o.build_tables("kalah:2:2", 2, threads=2**40)),
    ]
    for name, pattern, call in cases:
        with pytest.raises(ms.BadInput, match=pattern) as e:
            call()
        assert isinstance(e.value, ValueError) and name in str(e.value)


def test_other_arguments_of_the_wrong_type_name_the_parameter(tmp_path):
    o = ms.Oracle(db=tmp_path)
    with pytest.raises(TypeError, match="progress"):
        o.build_tables("kalah:2:2", 2, progress="not a function")
    with pytest.raises(TypeError, match="checkpoint"):
        o.solve("kalah:2:2", checkpoint=3)
    with pytest.raises(TypeError, match="resume"):
        o.solve("kalah:2:2", resume=["x"])

