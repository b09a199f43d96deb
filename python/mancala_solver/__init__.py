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
from os import PathLike
from typing import Any, Dict, List, Optional, Union

from . import _native
from .errors import BadInput, MancalaError, OutOfMemoryBudget, Stopped, TablesError

#: The value `Oracle.table_values` gives a position its tables do not cover.
MISSING = -(2**31)

__all__ = [
    "MISSING",
    "Oracle",
    "games",
    "version",
    "MancalaError",
    "BadInput",
    "TablesError",
    "OutOfMemoryBudget",
    "Stopped",
]


def games() -> List[Dict[str, Any]]:
    """Every game of the registry: name, pits per side, pits with tables,
    rule sets, and whether positions write the stores in brackets."""
    return json.loads(_native.games())


def version() -> str:
    """The engine's version."""
    return _native.version()


class Oracle:
    """The engine over a directory of endgame tables.

    Tables are built there on first use while a width's tables hold at most
    ``build_limit`` positions; above the tables, Kalah is searched for
    ``solve_ms`` milliseconds (exact when the search ends, else proven
    bounds). Long calls release the GIL and stop on Ctrl-C.
    """

    def __init__(
        self,
        db: Union[str, PathLike] = "db",
        *,
        solve_ms: int = 2000,
        build_limit: int = 20_000_000,
        tt_mb: int = 64,
        agent_ms: int = 2000,
    ) -> None:
        self._native = _native.Oracle(str(db), solve_ms, build_limit, tt_mb, agent_ms)

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
        when a search of ``time_ms`` did not finish."""
        return json.loads(self._native.query(game, position, time_ms))

    def value(self, game: str, position: Optional[str] = None) -> int:
        """The exact value of ``position``; raises ``Stopped`` when only
        bounds are proven in the oracle's time."""
        a = self.query(game, position)
        if not a["exact"]:
            raise Stopped(
                f"not solved in the time given: the value is between {a['lower']} and {a['upper']}"
            )
        return a["value"]

    def best_move(self, game: str, position: Optional[str] = None) -> Optional[int]:
        """The move to play (None when the game is over)."""
        return self.query(game, position)["best_move"]

    def agent_move(
        self, game: str, agent: str, position: Optional[str] = None, *, seed: int = 1
    ) -> Dict[str, Any]:
        """The move ``agent`` (a spec as on the command line:
        ``"alphabeta:6"``, ``"mcts:2000"``, ``"perfect"``) chooses, and the
        position after it."""
        return json.loads(self._native.agent_move(game, agent, position, seed))

    def check_agent(self, game: str, agent: str) -> str:
        """``agent`` as the engine writes it; raises ``BadInput`` when it
        cannot play ``game`` here."""
        return self._native.check_agent(game, agent)

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
        import numpy as np

        a = np.asarray(positions)
        if a.ndim == 1:
            a = a[None, :]
        if a.ndim != 2 or not np.issubdtype(a.dtype, np.integer):
            raise BadInput(f"positions must be a 2-d array of integer counts, not {a.dtype} of shape {a.shape}")
        if a.size and (a.min() < 0 or a.max() > 255):
            raise BadInput("counts must be from 0 to 255")
        a = np.ascontiguousarray(a, dtype=np.uint8)
        return self._native.table_values(game, a, int(missing))
