"""A process forked after the parent used the engine works: `fork` is how
multiprocessing starts its workers on Linux (and so PyTorch's DataLoader).

The engine's parallel work runs on threads, and a forked child has none of
its parent's threads: work handed to a pool made in the parent would wait
forever. Each child here has a deadline, so that such a hang fails the
test instead of stopping the suite.
"""

import multiprocessing
import queue

import pytest

import mancala_solver as ms

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="this system cannot fork"
)

#: Rows enough for several of the batch's parallel chunks (4096 rows
#: each): a batch of one chunk runs on the calling thread alone.
ROWS = 3 * 4096 + 5

#: Seconds a child may take before it counts as hung.
DEADLINE = 120


def batch(np):
    """ROWS positions of Kalah(4,3), all inside its tables."""
    start = [3, 3, 3, 3, 0, 3, 3, 3, 3, 0]
    over = [0, 0, 0, 0, 5, 0, 0, 0, 0, 7]
    return np.array([start, over] * (ROWS // 2) + [start])


def _child(results, work, args):
    try:
        results.put(("ok", work(*args)))
    except BaseException as e:  # reported to the parent, whatever it is
        results.put(("error", f"{type(e).__name__}: {e}"))


def in_forked_child(work, *args):
    """``work(*args)`` in a child forked from this process: its answer, or
    a test failure if the child raised or hung past the deadline."""
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    child = ctx.Process(target=_child, args=(results, work, args))
    child.start()
    try:
        kind, value = results.get(timeout=DEADLINE)
    except queue.Empty:
        pytest.fail(f"the forked child did not finish {work.__name__} in {DEADLINE} s: it hangs")
    finally:
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
    assert kind == "ok", value
    return value


def _inherited_oracle_batch(oracle, rows):
    return oracle.table_values("kalah:4:3", rows).tolist(), oracle.table_move_values("kalah:4:3", rows).tolist()


def _new_oracle_work(db):
    np = __import__("numpy")
    o = ms.Oracle(db=db)
    out = {"values": o.table_values("kalah:4:3", batch(np)).tolist()}
    out["query"] = o.query("kalah:4:3")["value"]
    # Work that builds tables, searches and plays on worker threads.
    out["build"] = [t["seeds"] for t in o.build_tables("awari:3:2", 4, threads=2)["tables"]]
    out["solve"] = o.solve("kalah:4:3", threads=2)["solution"]["value"]
    out["match"] = o.match("kalah:3:2", "greedy", "random", games=8)["games"]
    out["grade"] = o.grade("kalah:3:2", "greedy", positions=20)["positions"]
    out["agent"] = o.agent_move("kalah:4:3", "perfect")["move"]
    return out


def test_a_forked_child_works_after_the_parent_used_the_engine(tmp_path):
    np = pytest.importorskip("numpy")
    o = ms.Oracle(db=tmp_path / "parent")
    rows = batch(np)
    # The parent's batches run on the engine's worker threads.
    values = o.table_values("kalah:4:3", rows).tolist()
    moves = o.table_move_values("kalah:4:3", rows).tolist()
    assert values[:2] == [8, -2]
    assert in_forked_child(_inherited_oracle_batch, o, rows) == (values, moves)
    got = in_forked_child(_new_oracle_work, str(tmp_path / "child"))
    assert got["values"] == values and got["query"] == 8 and got["solve"] == 8
    assert got["build"] == [1, 2, 3, 4] and got["match"] == 8 and got["grade"] == 20
    assert got["agent"] in o.start("kalah:4:3")["legal_moves"]
    # And the parent goes on as before.
    assert o.table_values("kalah:4:3", rows).tolist() == values


#: The oracle a pool's workers inherit (an oracle cannot be pickled).
_INHERITED = {}


def _pool_worker(rows):
    return _INHERITED["oracle"].table_values("kalah:4:3", rows).tolist()


def test_children_of_a_fork_pool_each_work(tmp_path):
    # As a DataLoader's workers do: several forked workers at once, each
    # with the parent's oracle.
    np = pytest.importorskip("numpy")
    o = _INHERITED["oracle"] = ms.Oracle(db=tmp_path)
    rows = batch(np)
    want = o.table_values("kalah:4:3", rows).tolist()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        pending = [pool.apply_async(_pool_worker, (rows,)) for _ in range(4)]
        try:
            got = [p.get(timeout=DEADLINE) for p in pending]
        except multiprocessing.TimeoutError:
            pool.terminate()
            pytest.fail(f"forked pool workers did not answer in {DEADLINE} s: they hang")
    assert got == [want] * 4
