"""Exact values for mancala games, in process: the engine of the
`mancala` command line (Kalah, Awari, Oware, Awale, Vai Lung Thlan,
Ohvalhu) as a Python package.

    >>> import mancala_solver as ms
    >>> oracle = ms.Oracle(db="db")
    >>> oracle.query("kalah:4:3")["value"]
    8

Games are named as on the command line: ``"kalah:6:4"``,
``"kalah:6:4:capture-needs-opposite"``, ``"awari:6:4"``, ``"oware:4:3"``.
Positions are strings in the game's notation, seen from the side to move.
Answers are dicts with the fields of ``mancala ... --json``.
"""

from __future__ import annotations

import json
import operator
import os
from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Union

from . import _native
from .errors import (
    BadInput,
    CheckpointError,
    InternalError,
    MancalaError,
    OutOfMemoryBudget,
    Stopped,
    TablesError,
    TablesWarning,
    Unproven,
    UnprovenMoveWarning,
)

#: The value `Oracle.table_values` gives a position its tables do not cover.
MISSING = -(2**31)

#: Longest time budget of a query, in milliseconds: a day, as ``mancala
#: query --time`` (``time_ms`` of `Oracle.query`; ``solve_ms``, ``agent_ms``
#: and ``search_ms``). Longer searches are `Oracle.solve`'s.
MAX_QUERY_MS = 86_400_000

#: Longest time budget of a solve, in milliseconds: 10^12 (10^9 seconds,
#: as ``mancala solve --time``).
MAX_SOLVE_MS = 10**12

#: Largest transposition table of a search, in MiB (1 TiB).
MAX_TT_MB = 1 << 20

#: Most games of a match and positions of a grading.
MAX_GAMES = 10**9

#: The table directory of ``Oracle(db=None)``: ``db`` under the current
#: directory, as on the command line.
DEFAULT_DB = "db"

__all__ = [
    "MISSING",
    "MAX_QUERY_MS",
    "MAX_SOLVE_MS",
    "MAX_TT_MB",
    "MAX_GAMES",
    "DEFAULT_DB",
    "Oracle",
    "games",
    "books",
    "version",
    "InternalError",
    "MancalaError",
    "BadInput",
    "TablesError",
    "OutOfMemoryBudget",
    "Stopped",
    "Unproven",
    "CheckpointError",
    "UnprovenMoveWarning",
    "TablesWarning",
]

_U64 = 2**64 - 1


def games() -> List[Dict[str, Any]]:
    """Every game of the registry: name, pits per side, pits with tables,
    rule sets, and whether positions write the stores in brackets."""
    return json.loads(_native.games())


def books() -> List[Dict[str, Any]]:
    """The opening books compiled into the engine (exact values of the
    positions near a Kalah start; `Oracle.query` and `Oracle.exact_values`
    answer from them first): each one's ``game``, ``rules``, ``pits``,
    ``turns`` from the start, ``positions`` and ``root``, and how much of
    its turns it holds: ``held_within_turns`` of the ``within_turns``
    positions there (``complete`` when all; a book still being proven, or
    one whose proof has not reached every move after an extra turn, holds
    fewer). Empty when the engine was built without books."""
    return json.loads(_native.books())


def version() -> str:
    """The engine's version."""
    return _native.version()


class Oracle:
    """The engine over a directory of endgame tables.

    Tables are built there on first use while a width's tables hold at most
    ``build_limit`` positions; above the tables, Kalah is searched for
    ``solve_ms`` milliseconds (exact when the search ends, else proven
    bounds). ``db=None`` is the default directory, ``db`` under the current
    one. Long calls release the GIL and stop on Ctrl-C. Whole-number
    parameters take ints (numpy's too), never floats or bools, within the
    ranges docs/python.md lists ("Parameters"): else ``TypeError`` or
    ``BadInput`` (a ``ValueError``) naming the parameter.
    """

    def __init__(
        self,
        db: Optional[Union[str, PathLike]] = DEFAULT_DB,
        *,
        solve_ms: int = 2000,
        build_limit: int = 20_000_000,
        tt_mb: int = 64,
        agent_ms: int = 2000,
    ) -> None:
        #: The table directory.
        self.db = _path("db", DEFAULT_DB if db is None else db)
        self._native = _native.Oracle(
            self.db,
            _whole("solve_ms", solve_ms, 0, MAX_QUERY_MS, " (a day; longer searches are solve's)"),
            _whole("build_limit", build_limit, 0, _U64),
            _whole("tt_mb", tt_mb, 1, MAX_TT_MB),
            _whole("agent_ms", agent_ms, 0, MAX_QUERY_MS, " (a day)"),
        )
        self._tt_mb = _whole("tt_mb", tt_mb, 1, MAX_TT_MB)

    def start(self, game: str) -> Dict[str, Any]:
        """The start position of ``game``."""
        return self.play(game)

    def play(self, game: str, position: Optional[str] = None, moves: str = "") -> Dict[str, Any]:
        """The position after ``moves`` (the game's notation: ``"2-51"``)
        from ``position`` (the start when None): pits, stores, side to
        move, legal moves, whether the game is over."""
        return json.loads(self._native.play(game, position, moves))

    def query(
        self, game: str, position: Optional[str] = None, *, time_ms: Optional[int] = None
    ) -> Dict[str, Any]:
        """The value of ``position`` (the start when None) for the side to
        move, every legal move's value, the best move and the principal
        variation; ``exact`` False with proven ``lower``/``upper`` bounds
        when a search of ``time_ms`` (at most `MAX_QUERY_MS`, a day; the
        oracle's ``solve_ms`` when None) did not finish. Ctrl-C stops the
        search at once with ``KeyboardInterrupt``."""
        time_ms = _optional_whole("time_ms", time_ms, 0, MAX_QUERY_MS, " (a day; longer searches are solve's)")
        return json.loads(self._native.query(game, position, time_ms))

    def _book_known(self, game: str, position: Optional[str]) -> Optional[Dict[str, Any]]:
        """What the opening books know of ``position`` without a search
        (None when nothing)."""
        known = self._native.book_known(game, position)
        return None if known is None else json.loads(known)

    def value(self, game: str, position: Optional[str] = None) -> int:
        """The exact value of ``position``; raises `Unproven` (a
        ``Stopped``, with the proven ``lower`` and ``upper`` bounds) when
        only bounds are proven in the oracle's time. A position an opening
        book holds (also one still being proven) answers at once."""
        a = self._book_known(game, position)
        if a is None or not a["exact"]:
            a = self.query(game, position)
        if not a["exact"]:
            raise Unproven(
                f"not solved in the time given: the value is between {a['lower']} and {a['upper']}",
                a["lower"],
                a["upper"],
                a["best_move"],
            )
        return a["value"]

    def best_move(
        self, game: str, position: Optional[str] = None, *, allow_unproven: bool = False
    ) -> Optional[int]:
        """A best move of ``position`` (None when the game is over), proven:
        from the books or tables, or a search that finished. When the
        search proved only bounds in the oracle's time, raises `Unproven`
        (its ``best_move_so_far`` is the move with the best proven lower
        bound); with ``allow_unproven=True`` returns that move instead, a
        guess (``query`` tells which by ``exact``). A position an opening
        book holds (also one still being proven) answers at once."""
        a = self._book_known(game, position)
        if a is None or a["best_move"] is None:
            a = self.query(game, position)
        if a["exact"] or a["best_move"] is None or len(a["moves"]) == 1:
            return a["best_move"]
        if allow_unproven:
            return a["best_move"]
        raise Unproven(
            f"the best move is not proven in the time given (the value is between {a['lower']} and "
            f"{a['upper']}; the best so far is pit {a['best_move']}): give the search more time "
            "(query's time_ms, the oracle's solve_ms), or pass allow_unproven=True to get that guess",
            a["lower"],
            a["upper"],
            a["best_move"],
        )

    def agent_move(
        self,
        game: str,
        agent: str,
        position: Optional[str] = None,
        *,
        seed: int = 1,
        allow_unproven: bool = False,
    ) -> Dict[str, Any]:
        """The move ``agent`` (a spec as on the command line:
        ``"alphabeta:6"``, ``"mcts:2000"``, ``"perfect"``) chooses, and the
        position after it. ``exact`` says whether the move is proven best
        (the perfect agent from the tables or a finished search, or a
        forced move) and ``value`` then the position's exact value. The
        perfect agent whose search ran out of time raises `Unproven`
        (``best_move_so_far`` its move); with ``allow_unproven=True`` its
        move comes back with ``exact`` False and ``value`` an estimate."""
        r = json.loads(self._native.agent_move(game, agent, position, _whole("seed", seed, 0, _U64)))
        if not r["exact"] and r["agent"].split(":")[0] == "perfect" and not allow_unproven:
            raise Unproven(
                f"{r['agent']}: its move is not proven best in its time (the best so far is pit "
                f"{r['move']}, {r['value_kind']}): give it more time (perfect:TIME, up to the "
                "oracle's agent_ms), or pass allow_unproven=True to get that move",
                best_move_so_far=r["move"],
            )
        return r

    def check_agent(self, game: str, agent: str) -> str:
        """``agent`` as the engine writes it; raises ``BadInput`` when it
        cannot play ``game`` here."""
        return self._native.check_agent(game, agent)

    def build_tables(
        self,
        game: str,
        max_seeds: int,
        *,
        threads: Optional[int] = None,
        progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> Dict[str, Any]:
        """Build (or finish building) the tables of ``game`` for 1 to
        ``max_seeds`` seeds in the oracle's directory, whatever its
        ``build_limit``: the report of ``mancala build --json`` (each table's
        positions, bytes and seconds). Tables already there are checked and
        kept. ``progress`` is called with each event as a dict (``{"event":
        "table_built", "seeds": 12, ...}``). Ctrl-C stops the build before
        the next table and raises ``KeyboardInterrupt``; every table
        written is whole and kept, so calling again goes on."""
        return json.loads(
            self._native.build_tables(
                game,
                _whole("max_seeds", max_seeds, 1, _native.MAX_TABLE_SEEDS),
                _threads(threads),
                _callback(progress),
            )
        )

    def solve(
        self,
        game: str,
        position: Optional[str] = None,
        *,
        time_ms: Optional[int] = None,
        checkpoint: Optional[Union[str, PathLike]] = None,
        resume: Optional[Union[str, PathLike]] = None,
        threads: Optional[int] = None,
        progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> Dict[str, Any]:
        """Solve a Kalah position (the start when None) with the search over
        the oracle's tables, on every core unless ``threads`` says: a dict
        with ``solution`` (``value``, ``exact``, ``lower``, ``upper``,
        ``best_move``, ``pv``, ``stats``, ...), ``stopped`` and ``resumed``.
        A stopped solve keeps its proven bounds (``value`` is None then:
        never an estimate) and, with ``checkpoint``, writes a file that
        ``resume`` goes on from. A solve
        ended by ``time_ms`` (at most `MAX_SOLVE_MS`) returns its proven
        bounds (``value`` None); Ctrl-C raises ``KeyboardInterrupt`` once
        the checkpoint is written. A checkpoint that cannot be written
        raises `CheckpointError`: before the solve when its directory is
        missing or refuses a file, else at its end, with the solve's report
        as the error's ``result`` (and the ``KeyboardInterrupt`` as its
        cause when Ctrl-C stopped it). ``progress`` gets the search's
        status about once a second."""
        r = json.loads(
            self._native.solve(
                game,
                position,
                _optional_whole("time_ms", time_ms, 0, MAX_SOLVE_MS, " (10^9 seconds)"),
                None if checkpoint is None else _path("checkpoint", checkpoint),
                None if resume is None else _path("resume", resume),
                _threads(threads),
                _callback(progress),
            )
        )
        if not r["solution"]["exact"]:
            r["solution"]["value"] = None
        return r

    def match(
        self,
        game: str,
        a: str,
        b: str,
        *,
        games: int = 100,
        seed: int = 1,
        progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> Dict[str, Any]:
        """Play ``games`` games between agents ``a`` and ``b`` (specs as on
        the command line; A is South in the even-numbered games) on every
        core: the report of ``mancala match --json`` (wins, draws, score
        with its interval, times). Ctrl-C stops it (``KeyboardInterrupt``)."""
        return json.loads(
            self._native.run_match(
                game, a, b, _whole("games", games, 1, MAX_GAMES), _whole("seed", seed, 0, _U64), _callback(progress)
            )
        )

    def grade(
        self,
        game: str,
        agent: str,
        *,
        positions: int = 1000,
        seed: int = 1,
        search_ms: int = 2000,
        progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> Dict[str, Any]:
        """Grade ``agent`` against perfect play, as ``mancala grade --json``:
        the share of perfect moves and the mean loss per move, with
        intervals, overall and by phase, on ``positions`` of its decisions
        (valued by the tables and, in Kalah, Awari and Oware, the exact
        search for ``search_ms`` a position)."""
        return json.loads(
            self._native.grade(
                game,
                agent,
                _whole("positions", positions, 1, MAX_GAMES),
                _whole("seed", seed, 0, _U64),
                _whole("search_ms", search_ms, 0, MAX_QUERY_MS, " (a day)"),
                _callback(progress),
            )
        )

    def table_values(self, game: str, positions: Any, *, missing: int = MISSING) -> Any:
        """The values of many positions at once, from the tables, as a numpy
        ``int32`` array: ``positions`` is an array of shape ``(N, 2m + 2)``
        (or one row), each row a position's counts in the notation's order
        (the mover's ``m`` pits and store, then the opponent's), seen from
        the side to move. Each value is ``query(...)["value"]``'s, or
        ``missing`` where the tables do not cover the position (the tables
        the batch needs are built first when they are within
        ``build_limit``, as for ``query``). Runs on every core without the
        GIL; needs numpy."""
        return self._native.table_values(game, _counts(positions), _missing(missing))

    def exact_values(self, game: str, positions: Any, *, missing: int = MISSING) -> Any:
        """`table_values`, and each position the tables leave ``missing``
        looked up in the opening books compiled into the engine (`books`:
        Kalah openings): every value exact, as ``query`` gives it. Needs
        numpy."""
        return self._native.exact_values(game, _counts(positions), _missing(missing))

    def value_bounds(
        self, game: str, counts: Any, *, time_ms: int = 0, tt_mb: Optional[int] = None
    ) -> Dict[str, Any]:
        """What is proven of one position's value, given as its ``2m + 2``
        counts (a row of `table_values`), in ``query``'s convention: a dict
        with ``lower``, ``upper``, ``exact``, ``value`` (None unless exact)
        and ``source`` (``"game_over"``, ``"book"``, ``"tables"``,
        ``"search"``, or ``"none"``: the bounds of any game from there).
        From the books or tables first (tables built on demand within
        ``build_limit``); else a search of the value alone (not each move's,
        as ``query`` does: a fraction of its cost) for at most ``time_ms``
        (0: no search) on one thread, with a transposition table of
        ``tt_mb`` MiB (the oracle's ``tt_mb`` when None). Kalah, Awari and
        Oware have the search; the other games raise ``BadInput`` above
        their tables unless ``time_ms`` is 0."""
        row = [_whole(f"counts[{i}]", c, 0, 255) for i, c in enumerate(_sequence("counts", counts))]
        lo, hi, source = self._native.value_bounds(
            game,
            row,
            _whole("time_ms", time_ms, 0, MAX_QUERY_MS, " (a day)"),
            self._tt_mb if tt_mb is None else _whole("tt_mb", tt_mb, 1, MAX_TT_MB),
        )
        return {"lower": lo, "upper": hi, "exact": lo == hi, "value": lo if lo == hi else None, "source": source}

    def table_plan(self, game: str) -> Dict[str, Any]:
        """The endgame tables that make ``game``'s positions fast to answer,
        as the command line builds them on first use (Kalah's 6-pit tables
        up to 20 seeds, narrower boards' up to about 900 million positions;
        the other games' up to 300 million): ``game``, ``pits``, ``seeds``
        (tables of 1 to ``seeds`` seeds), ``on_disk`` (the most seeds of
        those in the oracle's directory), ``positions`` and ``disk_bytes``
        (about) left to build, and ``ready``. `prepare` builds them."""
        return json.loads(self._native.table_plan(game))

    def prepare(
        self,
        game: str,
        *,
        threads: Optional[int] = None,
        progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    ) -> Dict[str, Any]:
        """Build what `table_plan` says ``game`` needs and is missing (a
        build of the plan's ``positions``: the 6-pit Kalah tables up to 20
        seeds take about 20 s on two busy cores and 107 MB), as
        `build_tables`; the plan afterwards, ``ready``. Nothing to do when
        it is ready already."""
        plan = self.table_plan(game)
        if not plan["ready"]:
            self.build_tables(plan["game"], plan["seeds"], threads=threads, progress=progress)
            plan = self.table_plan(game)
        return plan

    def table_move_values(self, game: str, positions: Any, *, missing: int = MISSING) -> Any:
        """Every move's value for many positions at once, from the tables:
        ``positions`` as for `table_values`; the answer is a numpy ``int32``
        array of shape ``(N, m)``, entry ``[i, p]`` the value of playing
        pit ``p`` in position ``i`` for the side to move (``query(...)``'s
        move value), or ``missing`` where ``p`` is not a legal move or the
        tables do not cover the position. Runs on every core without the
        GIL; needs numpy."""
        return self._native.table_move_values(game, _counts(positions), _missing(missing))


def _callback(progress: Optional[Callable[[Dict[str, Any]], None]]) -> Any:
    """``progress`` as the native module calls it (with a JSON string)."""
    if progress is None:
        return None
    if not callable(progress):
        raise TypeError(f"progress must be a function taking one dict, or None, not {type(progress).__name__}")
    return lambda text: progress(json.loads(text))


def _whole(name: str, value: Any, lo: int, hi: int, note: str = "") -> int:
    """``value`` as a whole number from ``lo`` to ``hi``: ``TypeError``
    for anything but an int (numpy's too; not a bool, not a float, which
    would be truncated), ``BadInput`` out of the range, naming ``name``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number, not a bool ({value!r})")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__} {value!r}") from None
    if not lo <= n <= hi:
        raise BadInput(f"{name}={n}: give a whole number from {lo} to {hi}{note}")
    return n


def _optional_whole(name: str, value: Any, lo: int, hi: int, note: str = "") -> Optional[int]:
    return None if value is None else _whole(name, value, lo, hi, note)


def _threads(threads: Any) -> Optional[int]:
    """Worker threads: None or 0 for all cores, at most four a core."""
    return _optional_whole("threads", threads, 0, _native.max_threads(), " (0 for all cores; at most four a core)")


def _missing(missing: Any) -> int:
    return _whole("missing", missing, -(2**31), 2**31 - 1, " (an int32)")


def _path(name: str, value: Any) -> str:
    """A path parameter as a string: a ``str`` or an ``os.PathLike``, not
    empty."""
    if not isinstance(value, (str, PathLike)):
        raise TypeError(f"{name} must be a path (a str or an os.PathLike), not {type(value).__name__} {value!r}")
    text = os.fspath(value)
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a path as text, not {type(text).__name__}")
    if not text:
        raise BadInput(f"{name} is empty: give a directory or file name")
    return text


def _sequence(name: str, value: Any) -> List[Any]:
    """``value`` as a list (a list, tuple or numpy array of numbers)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(f"{name} must be a sequence of whole numbers, not {type(value).__name__}")
    return list(value)


def _numpy() -> Any:
    """numpy, or an ImportError saying how to install it."""
    try:
        import numpy
    except ImportError as e:
        raise ImportError(
            "the batch look-ups take and give numpy arrays: install numpy, "
            "pip install 'mancala-solver[numpy]' (or pip install numpy)"
        ) from e
    return numpy


def _counts(positions: Any) -> Any:
    """``positions`` as a C-contiguous ``uint8`` array of rows, checked."""
    np = _numpy()

    a = np.asarray(positions)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or not np.issubdtype(a.dtype, np.integer):
        raise BadInput(f"positions must be a 2-d array of integer counts, not {a.dtype} of shape {a.shape}")
    if a.size and (a.min() < 0 or a.max() > 255):
        raise BadInput("counts must be from 0 to 255")
    a = np.ascontiguousarray(a, dtype=np.uint8)
    return a
