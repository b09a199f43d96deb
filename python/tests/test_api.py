"""The Python package against the engine: published values, the command
line's answers, errors, interrupts and the GIL.

Run with `pytest python/tests` after `pip install .` (docs/python.md).
Set MANCALA_BIN to a `mancala` binary to compare with the command line.
"""

import _thread
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

import mancala_solver as ms


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    return ms.Oracle(db=tmp_path_factory.mktemp("db"), solve_ms=300)


def rule_sets():
    """Every game and rule set of the registry, as game names of 3 pits
    and 2 seeds (small enough to build their tables at once)."""
    out = []
    for g in ms.games():
        if g["table_pits"] is None:
            continue
        for rules in g["table_rules"] or [None]:
            out.append(f"{g['name']}:3:2" + (f":{rules}" if rules and rules != "default" else ""))
    return out


def random_positions(oracle, game, count, seed):
    """Positions met in random games from the start of `game`."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        r = oracle.start(game)
        for _ in range(rng.randrange(1, 30)):
            if r["game_over"]:
                break
            r = oracle.play(game, r["position"], str(rng.choice(r["legal_moves"])))
        out.append(r["position"])
    return out


def test_the_registry_lists_every_game():
    names = [g["name"] for g in ms.games()]
    for name in ["kalah", "awari", "oware", "awale", "vai-lung-thlan", "ohvalhu"]:
        assert name in names
    kalah = next(g for g in ms.games() if g["name"] == "kalah")
    assert kalah["pits"] == [1, 10]
    assert "capture-needs-opposite" in kalah["rules"]
    assert kalah["table_rules"] == kalah["rules"]
    vlt = next(g for g in ms.games() if g["name"] == "vai-lung-thlan")
    assert "skip-origin" in vlt["rules"] and vlt["table_rules"] == ["default"]
    assert ms.version()


def test_positions_round_trip(oracle):
    for game in rule_sets():
        for position in random_positions(oracle, game, 5, 1):
            again = oracle.play(game, position)
            assert again["position"] == position


@pytest.mark.parametrize(
    "game, value",
    [
        ("kalah:4:3", 8),
        ("awari:2:2", 2),
        ("awari:3:2", 3),
        ("oware:2:4", -10),
        ("oware:3:3", 11),
    ],
)
def test_published_start_values(oracle, game, value):
    a = oracle.query(game)
    assert a["exact"] and a["value"] == value
    assert max(m["value"] for m in a["moves"]) == value
    assert oracle.value(game) == value
    # The principal variation replays to the game's end or a repetition.
    end = oracle.play(game, None, a["pv"])
    assert end["game_over"] or a.get("pv_end") == "repetition"


@pytest.mark.skipif(not os.environ.get("MANCALA_BIN"), reason="set MANCALA_BIN to a mancala binary")
def test_values_equal_the_command_lines(oracle, tmp_path):
    binary = os.environ["MANCALA_BIN"]
    checked = 0
    for game in rule_sets():
        for position in random_positions(oracle, game, 100, 7):
            mine = oracle.query(game, position)
            out = subprocess.run(
                [binary, "query", game, position, "--json", "--db", str(tmp_path)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            theirs = json.loads(out)
            for field in ["value", "exact", "moves", "best_moves", "best_move", "pv", "verdict"]:
                assert mine[field] == theirs[field], (game, position, field)
            checked += 1
    assert checked >= 100 * len(rule_sets())


def test_bad_input_is_a_value_error_with_the_command_lines_message(oracle):
    with pytest.raises(ms.BadInput) as e:
        oracle.play("kalah:6:4", "1 2 x")
    assert isinstance(e.value, ValueError)
    assert 'entry 3 ("x") is not a whole number' in str(e.value)
    with pytest.raises(ms.BadInput, match="unknown game"):
        oracle.query("chess:8:8")
    with pytest.raises(ms.BadInput, match="unknown agent"):
        oracle.check_agent("kalah:6:4", "foo")
    with pytest.raises(ms.BadInput):
        oracle.play("kalah:4:3", None, "9")


def test_a_damaged_table_is_a_tables_error(tmp_path):
    o = ms.Oracle(db=tmp_path)
    assert o.value("kalah:2:2") is not None
    table = sorted(tmp_path.glob("kalah-*.tbl"))[-1]
    data = bytearray(table.read_bytes())
    data[len(data) // 2] ^= 0xFF
    table.write_bytes(bytes(data))
    with pytest.raises(ms.TablesError):
        ms.Oracle(db=tmp_path).query("kalah:2:2")


def test_agents_play_legal_moves(oracle):
    for agent in ["random", "greedy", "alphabeta:4", "mcts:200", "perfect"]:
        r = oracle.start("kalah:4:3")
        m = oracle.agent_move("kalah:4:3", agent, r["position"], seed=3)
        assert m["move"] in r["legal_moves"]
    assert oracle.check_agent("kalah:4:3", "alphabeta:4") == "alphabeta:4"


def test_a_search_out_of_time_gives_proven_bounds(oracle, tmp_path):
    a = oracle.query("kalah:6:7", time_ms=100)
    assert not a["exact"] and a["value"] is None
    assert -84 <= a["lower"] < a["upper"] <= 84
    with pytest.raises(ms.Stopped, match="between"):
        ms.Oracle(db=tmp_path, solve_ms=50, build_limit=0).value("kalah:6:7")


def test_books_say_how_much_of_their_turns_they_hold():
    # The books of 3, 4 and 5 seeds hold all their turns, and so do the
    # 6-seed ones (their first turn, 12 positions).
    books = {b["game"]: b for b in ms.books()}
    assert books["kalah:6:4"]["complete"] and books["kalah:6:4"]["held_within_turns"] == 1282
    six = books["kalah:6:6"]
    assert six["complete"]
    assert (six["held_within_turns"], six["within_turns"]) == (12, 12)
    cno = books["kalah:6:6:capture-needs-opposite"]
    assert cno["complete"]
    assert (cno["held_within_turns"], cno["within_turns"]) == (12, 12)
    ewme = books["kalah:6:6:end-when-mover-empty"]
    assert ewme["complete"]
    assert (ewme["held_within_turns"], ewme["within_turns"]) == (12, 12)


def test_the_capture_needs_opposite_kalah_6_6_book_answers_its_first_turn(tmp_path):
    # Kalah(6,6) under capture-needs-opposite: the book holds the start
    # (+4) and every opening move (+4, +2, 0, 0, 0, -2); after pit 0's
    # extra turn the position (+4) and every move: pit 2, the best (+4),
    # and pits 1, 3, 4 and 5 (+2, 0, 0, -2).
    o = ms.Oracle(db=tmp_path, solve_ms=100, build_limit=0)
    a = o.query("kalah:6:6:capture-needs-opposite")
    assert a["source"] == "book" and a["exact"] and a["value"] == 4
    assert a["best_move"] == 0
    assert [(m["exact"], m["value"]) for m in a["moves"]] == [
        (True, 4), (True, 2), (True, 0), (True, 0), (True, 0), (True, -2)]
    assert o.value("kalah:6:6:capture-needs-opposite") == 4
    after = "0 7 7 7 7 7 1 6 6 6 6 6 6 0"
    a = o.query("kalah:6:6:capture-needs-opposite", after)
    assert a["source"] == "book" and a["exact"] and a["value"] == 4
    assert a["best_move"] == 2
    assert [(m["exact"], m["move"], m["value"]) for m in a["moves"]] == [
        (True, 1, 2), (True, 2, 4), (True, 3, 0), (True, 4, 0), (True, 5, -2)]
    # value and best_move read the book at once, without the search's time.
    slow = ms.Oracle(db=tmp_path, solve_ms=60_000, build_limit=0)
    start = time.monotonic()
    assert slow.value("kalah:6:6:capture-needs-opposite") == 4
    assert slow.best_move("kalah:6:6:capture-needs-opposite") == 0
    assert time.monotonic() - start < 1.0


def test_a_position_a_book_holds_in_part_answers_its_value_at_once(tmp_path):
    # After South's pit 0 (an extra turn) and pit 2, the best line, North
    # is to move: the book holds the position (-4 for North) and North's
    # best move (pit 3), not North's other moves, which lie beyond its
    # first turn. The search bounds those by the position's value.
    after = "7 7 7 6 6 6 0 0 7 0 8 8 8 2"
    o = ms.Oracle(db=tmp_path, solve_ms=100, build_limit=0)
    a = o.query("kalah:6:6:capture-needs-opposite", after)
    assert a["source"] == "book" and a["exact"] and a["value"] == -4
    assert a["best_move"] == 3
    assert all(m["upper"] <= -4 for m in a["moves"])
    assert [(m["move"], m["value"]) for m in a["moves"] if m["exact"]] == [(3, -4)]
    slow = ms.Oracle(db=tmp_path, solve_ms=60_000, build_limit=0)
    start = time.monotonic()
    assert slow.value("kalah:6:6:capture-needs-opposite", after) == -4
    assert slow.best_move("kalah:6:6:capture-needs-opposite", after) == 3
    assert time.monotonic() - start < 1.0


def test_long_calls_release_the_gil(tmp_path):
    # Two searches of 600 ms on two threads end together, in well under
    # the 1.2 s they would take one after the other.
    o = ms.Oracle(db=tmp_path, build_limit=0)
    o.query("kalah:6:7", time_ms=50)
    done = []

    def search():
        o.query("kalah:6:7", time_ms=600)
        done.append(time.monotonic())

    start = time.monotonic()
    threads = [threading.Thread(target=search) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 2
    assert max(done) - start < 1.05, max(done) - start


def test_ctrl_c_stops_an_agent_at_once(tmp_path):
    # A shell that starts a job in the background ignores SIGINT for it, and
    # then Python has no handler to raise KeyboardInterrupt: install it.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        o = ms.Oracle(db=tmp_path, agent_ms=60_000)
        threading.Timer(0.3, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            o.agent_move("kalah:10:12", "mcts:200000")
        assert time.monotonic() - start < 2.0
    finally:
        signal.signal(signal.SIGINT, previous)


def counts_of(position, m):
    """A position's 2m + 2 counts (brackets dropped; Awari's board-only
    form given captured totals of 0)."""
    out = [int(c.strip("[]")) for c in position.split()]
    if len(out) == 2 * m:
        out = out[:m] + [0] + out[m:] + [0]
    return out


@pytest.mark.parametrize(
    "game", ["kalah:4:3", "awari:3:3", "oware:3:2:grand-slam-captures-nothing", "awari:3:3:grand-slam-captures-nothing", "ohvalhu:3:2"]
)
def test_batch_values_are_the_queries_values(oracle, game):
    np = pytest.importorskip("numpy")
    positions = random_positions(oracle, game, 200, 11)
    m = int(game.split(":")[1])
    values = oracle.table_values(game, np.array([counts_of(p, m) for p in positions]))
    assert values.dtype == np.int32 and values.shape == (len(positions),)
    moves = oracle.table_move_values(game, np.array([counts_of(p, m) for p in positions]))
    assert moves.dtype == np.int32 and moves.shape == (len(positions), m)
    for p, v, mv in zip(positions, values, moves):
        a = oracle.query(game, p)
        assert v == a["value"], (game, p)
        want = [ms.MISSING] * m
        for move in a["moves"]:
            want[move["move"]] = move["value"]
        assert mv.tolist() == want, (game, p)
    # One row alone, any integer type.
    assert oracle.table_values(game, counts_of(positions[0], m)).tolist() == [values[0]]


def test_batch_bad_input_and_missing_values(tmp_path):
    np = pytest.importorskip("numpy")
    o = ms.Oracle(db=tmp_path, build_limit=0)
    start = [3, 3, 3, 3, 0, 3, 3, 3, 3, 0]
    over = [0, 0, 0, 0, 5, 0, 0, 0, 0, 7]
    assert o.table_values("kalah:4:3", [start, over]).tolist() == [ms.MISSING, -2]
    assert o.table_values("kalah:4:3", [start], missing=-1).tolist() == [-1]
    assert o.table_move_values("kalah:4:3", [start, over], missing=-1).tolist() == [[-1] * 4] * 2
    with pytest.raises(ms.BadInput, match="each position takes 10"):
        o.table_values("kalah:4:3", [[1, 2, 3]])
    with pytest.raises(ms.BadInput, match="each position takes 10"):
        o.table_move_values("kalah:4:3", [[1, 2, 3]])
    with pytest.raises(ms.BadInput, match="from 0 to 255"):
        o.table_values("kalah:4:3", [[300] + start[1:]])
    with pytest.raises(ms.BadInput, match="row 1"):
        o.table_values("kalah:4:3", np.array([start, [250] * 10]))
    with pytest.raises(ms.BadInput):
        o.table_values("kalah:4:3", np.zeros((2, 10)))


def test_the_training_example_learns_from_exact_targets(tmp_path):
    pytest.importorskip("numpy")
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "train_policy.py")
    out = subprocess.run(
        [sys.executable, script, "--db", str(tmp_path), "--positions", "4000", "--epochs", "200"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    share = {}
    for line in out.stdout.splitlines():
        for who in ("trained policy", "uniform random"):
            if line.startswith(who):
                share[who] = float(line.split(":")[1].split("%")[0])
    # The exact targets teach it something: far above chance.
    assert share["trained policy"] > share["uniform random"] + 15, out.stdout


def readme_python_blocks():
    readme = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")
    text = open(readme).read()
    return [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]


def test_the_readmes_python_examples_run(tmp_path):
    blocks = readme_python_blocks()
    assert len(blocks) == 2
    for block in blocks:
        if "pyspiel" in block and not os.environ.get("MANCALA_REQUIRE_OPENSPIEL"):
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                continue
        out = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        # Each line the example prints is the one its comment shows.
        shown = [line.split("# ", 1)[1].split(":")[0].strip() for line in block.splitlines() if line.startswith("print(") and "# " in line]
        for want in shown:
            assert any(line.startswith(want) for line in lines), (want, out.stdout)


def test_an_internal_fault_is_not_bad_input():
    """A fault of the engine (a failed worker thread, a bug) raises
    InternalError, a MancalaError that is not a BadInput (nor a
    ValueError): the input was not at fault. Bad input stays BadInput."""
    from mancala_solver import _native

    with pytest.raises(ms.InternalError) as e:
        _native._raise_error_of_kind("internal")
    assert isinstance(e.value, ms.MancalaError)
    assert not isinstance(e.value, (ms.BadInput, ValueError))
    assert "internal error: a search thread failed" in str(e.value)
    with pytest.raises(ms.BadInput, match="give one"):
        _native._raise_error_of_kind("usage")


def test_a_bad_game_name_has_the_command_lines_message(oracle):
    """One reader of game names: the package's message is the engine's,
    the one the command line shows."""
    for name, words in [
        ("chess:8:8", 'unknown game "chess"'),
        ("kalah:x:4", 'pits per side "x" is not a whole number'),
        ("kalah:6:4:nonesuch", 'unknown rules "nonesuch"'),
    ]:
        with pytest.raises(ms.BadInput) as e:
            oracle.play(name)
        assert f'bad game "{name}": {words}' in str(e.value)
