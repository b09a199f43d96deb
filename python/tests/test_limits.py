"""What the package refuses, and how: parameters of the wrong type or out
of range raise an error naming the parameter and what it takes (never a
bare OverflowError, never a silent truncation), a search stops on Ctrl-C
at once, and a checkpoint that cannot be written is an error.
"""

import _thread
import os
import signal
import subprocess
import sys
import textwrap
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
        o.query("kalah:6:7", time_ms=20_000)
    assert time.monotonic() - start < 3
    # The oracle answers again afterwards.
    assert not o.query("kalah:6:7", time_ms=50)["exact"]


def test_time_budgets_have_a_documented_bound(tmp_path):
    o = ms.Oracle(db=tmp_path, build_limit=0)
    day = ms.MAX_QUERY_MS
    assert day == 86_400_000
    with pytest.raises(ValueError, match=r"time_ms=1000000000: .*0 to 86400000"):
        o.query("kalah:6:7", time_ms=10**9)
    with pytest.raises(ms.BadInput, match="time_ms"):
        o.query("kalah:6:7", time_ms=-1)
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


def test_a_checkpoint_in_a_missing_directory_is_refused_before_the_solve(tmp_path):
    o = ms.Oracle(db=tmp_path / "db")
    start = time.monotonic()
    with pytest.raises(ms.CheckpointError, match="does not exist") as e:
        o.solve("kalah:6:4", time_ms=5_000, checkpoint=tmp_path / "no" / "such" / "c.ckpt", threads=1)
    assert time.monotonic() - start < 4  # refused before searching
    assert isinstance(e.value, ms.MancalaError)
    with pytest.raises(ms.CheckpointError, match="a directory"):
        o.solve("kalah:4:3", checkpoint=tmp_path)


def test_a_checkpoint_to_resume_that_is_damaged_or_foreign_is_a_checkpoint_error(tmp_path):
    o = ms.Oracle(db=tmp_path / "db")
    ckpt = tmp_path / "k32.ckpt"
    assert o.solve("kalah:3:2", checkpoint=ckpt)["solution"]["exact"]
    with pytest.raises(ms.CheckpointError, match="made for"):
        o.solve("kalah:3:3", resume=ckpt)
    damaged = tmp_path / "damaged.ckpt"
    damaged.write_bytes(b"not a checkpoint")
    with pytest.raises(ms.CheckpointError, match="damaged.ckpt"):
        o.solve("kalah:3:2", resume=damaged)


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_a_checkpoint_in_a_read_only_directory_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(ms.CheckpointError, match="cannot be written"):
            ms.Oracle(db=tmp_path / "db").solve("kalah:4:3", checkpoint=ro / "c.ckpt")
    finally:
        ro.chmod(0o755)


# A file system that fills while the solve runs: the process may write no
# file above 64 KiB (RLIMIT_FSIZE), so the tables (written before) fit and
# the last checkpoint of a 6-pit search, hundreds of KiB, does not.
FULL_DISK = textwrap.dedent(
    """
    import _thread, json, resource, signal, sys, threading
    import mancala_solver as ms

    db, ckpt, how = sys.argv[1:4]
    o = ms.Oracle(db=db, build_limit=0)
    o.build_tables("kalah:6:4", 2)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, resource.RLIM_INFINITY))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if how == "interrupt":
        threading.Timer(1.0, _thread.interrupt_main).start()
        time_ms = 60_000
    else:
        time_ms = 1_000
    try:
        o.solve("kalah:6:4", time_ms=time_ms, checkpoint=ckpt, threads=1)
        print(json.dumps({"raised": None}))
    except BaseException as e:
        r = getattr(e, "result", None)
        print(json.dumps({
            "raised": type(e).__name__, "message": str(e),
            "cause": type(e.__cause__).__name__ if e.__cause__ else None,
            "lower": r and r["solution"]["lower"], "upper": r and r["solution"]["upper"],
            "stopped": r and r["stopped"],
        }))
    """
)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE and SIGXFSZ as on Linux")
@pytest.mark.parametrize("how", ["time", "interrupt"])
def test_a_checkpoint_the_full_disk_refuses_raises_with_the_result(tmp_path, how):
    import json

    out = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(tmp_path / "db"), str(tmp_path / "c.ckpt"), how],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["raised"] == "CheckpointError", r
    assert "was not written" in r["message"] and "c.ckpt" in r["message"], r
    # The search's proven bounds are not lost with it.
    assert -48 <= r["lower"] <= r["upper"] <= 48
    if how == "interrupt":
        assert r["cause"] == "KeyboardInterrupt" and r["stopped"], r
    assert not (tmp_path / "c.ckpt").exists() and not list(tmp_path.glob(".c.ckpt.tmp-*"))
