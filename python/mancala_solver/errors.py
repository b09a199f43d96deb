"""The exceptions of mancala_solver: the engine's messages, by kind."""

import json
from typing import Any, Dict, Optional


class MancalaError(Exception):
    """Any error of the engine; the message is the command line's."""


class BadInput(MancalaError, ValueError):
    """A bad game, position, move line or agent spec, or a parameter out
    of its range."""


class InternalError(MancalaError):
    """A fault of the engine, not of the input or the data: a bug (a check
    that should have held) or a worker thread that failed. Not a
    ``BadInput``: the same call may work again; report it."""


class TablesError(MancalaError):
    """Endgame tables missing, damaged, built under other rules, or too
    large to build here."""


class OutOfMemoryBudget(MancalaError, MemoryError):
    """Work that would need more memory than its budget."""


class Stopped(MancalaError):
    """Work stopped before its end."""


class Unproven(Stopped):
    """An answer that would be a guess: the search proved only bounds in
    the time it had, so the value or the best move is not known.

    ``lower`` and ``upper``: the proven bounds of the value (for the side
    to move, in the convention of the call that raised); ``best_move_so_far``:
    the move the search would play (a guess, never proven), when there is
    one. The calls that raise it take ``allow_unproven=True`` to answer
    with that guess instead, flagged as unproven."""

    def __init__(
        self, message: str, lower: Optional[int] = None, upper: Optional[int] = None, best_move_so_far: Any = None
    ) -> None:
        super().__init__(message)
        self.lower = lower
        self.upper = upper
        self.best_move_so_far = best_move_so_far


class UnprovenMoveWarning(UserWarning):
    """A move played under ``allow_unproven=True`` that is not proven
    best (the search ran out of time): the best so far."""


class TablesWarning(UserWarning):
    """The endgame tables a game's answers need: being built on first use
    (with what it costs), or missing (with the one call that builds
    them)."""


class CheckpointError(MancalaError):
    """A solve's checkpoint that cannot be written (a missing or read-only
    directory, refused before the solve; a full disk, found when the
    checkpoint is written at the solve's end or stop) or read (a damaged
    file, or one made for another position).

    ``result``: when the solve ran but its last checkpoint was not written,
    the solve's report (the dict ``Oracle.solve`` returns: the solution or
    the proven bounds); else None. When Ctrl-C stopped the solve, the
    ``KeyboardInterrupt`` is the error's ``__cause__``."""

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        if isinstance(result, str):
            result = json.loads(result)
        self.result: Optional[Dict[str, Any]] = result
