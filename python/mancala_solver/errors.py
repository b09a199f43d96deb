"""The exceptions of mancala_solver: the engine's messages, by kind."""


class MancalaError(Exception):
    """Any error of the engine; the message is the command line's."""


class BadInput(MancalaError, ValueError):
    """A bad game, position, move line or agent spec, or a parameter out
    of its range."""


class TablesError(MancalaError):
    """Endgame tables missing, damaged, built under other rules, or too
    large to build here."""


class OutOfMemoryBudget(MancalaError, MemoryError):
    """Work that would need more memory than its budget."""


class Stopped(MancalaError):
    """Work stopped before its end."""
