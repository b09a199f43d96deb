"""The engine's exact values for OpenSpiel's mancala games.

OpenSpiel (``pyspiel``) registers two games of the family: ``mancala``, a
Kalah(6,4), and ``oware`` (``num_houses_per_player`` pits a side,
``num_seeds_per_house`` seeds a pit). This module reads their states as the
engine's positions under the rule set OpenSpiel plays, and answers with
the engine's values:

    >>> import pyspiel
    >>> from mancala_solver import Oracle
    >>> from mancala_solver.openspiel import ExactOracle, PerfectBot
    >>> game = pyspiel.load_game("oware", {"num_houses_per_player": 3, "num_seeds_per_house": 3})
    >>> exact = ExactOracle(Oracle(db="db"))        # builds the tables a game needs on its first use
    >>> exact.value(game.new_initial_state())      # for the player to move
    >>> bot = PerfectBot(exact)                     # a pyspiel.Bot: raises where its move is not proven

``pyspiel`` is imported only by what needs it (the bot and the
evaluator); the conversions read a state through its public methods.

The mapping, and where the rules differ, is in ``docs/python.md``
("OpenSpiel"): OpenSpiel's ``mancala`` is the engine's
``kalah:6:4:capture-needs-opposite`` exactly; its ``oware`` captures pits
of 2 or 3 seeds, as Awari does, and lets a grand slam be played capturing
nothing: the engine's ``awari:M:N:grand-slam-captures-nothing``, except
for how a repeated position ends the game (OpenSpiel: each player takes
the seeds of their own row at the first repetition since the last
capture; the engine: endless play splits the seeds left). OpenSpiel also
stops an Oware game as soon as one player has captured more than half the
seeds, which decides the same winner.
"""

from __future__ import annotations

import time
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from . import MAX_QUERY_MS, MAX_TT_MB, Oracle, _whole
from .errors import BadInput, TablesWarning, Unproven, UnprovenMoveWarning

__all__ = [
    "ExactOracle",
    "PerfectBot",
    "ExactEvaluator",
    "scaled_return",
    "Board",
    "engine_game",
    "board",
    "engine_position",
    "engine_move",
    "openspiel_action",
    "Comparison",
    "compare_random_games",
]


def _short_name(game: Any) -> str:
    return game.get_type().short_name


def engine_game(game: Any) -> str:
    """The engine's name of the rule set an OpenSpiel game plays:
    ``"kalah:6:4:capture-needs-opposite"`` for ``mancala``,
    ``"awari:M:N:grand-slam-captures-nothing"`` for ``oware`` (whose
    captures take 2 or 3 seeds, as Awari's)."""
    name = _short_name(game)
    if name == "mancala":
        return "kalah:6:4:capture-needs-opposite"
    if name == "oware":
        p = game.get_parameters()
        return f"awari:{p['num_houses_per_player']}:{p['num_seeds_per_house']}:grand-slam-captures-nothing"
    raise BadInput(f"OpenSpiel's {name!r} is not a mancala game the engine plays (it knows 'mancala' and 'oware')")


@dataclass(frozen=True)
class Board:
    """An OpenSpiel state's board, seen from ``player`` (the player to move,
    or the one who would be after a finished game): their pits in sowing
    order and their store (Kalah) or captured total (Oware), then the
    opponent's."""

    player: int
    pits: Tuple[int, ...]
    store: int
    opponent_pits: Tuple[int, ...]
    opponent_store: int

    def counts(self) -> List[int]:
        """The ``2m + 2`` counts of `Oracle.table_values`'s rows."""
        return [*self.pits, self.store, *self.opponent_pits, self.opponent_store]


def board(state: Any) -> Board:
    """The board of an OpenSpiel ``mancala`` or ``oware`` state, seen from
    the player to move (after the game's end: from the player whose turn
    it would be)."""
    name = _short_name(state.get_game())
    if name == "mancala":
        # Observation: board[0..14] (0 player 1's store, 1-6 player 0's
        # pits, 7 player 0's store, 8-13 player 1's pits), the player whose
        # turn it is, the move number.
        t = [int(round(x)) for x in state.observation_tensor(0)]
        b, p = t[:14], t[14]
        south, north = tuple(b[1:7]), tuple(b[8:14])
        if p == 0:
            return Board(0, south, b[7], north, b[0])
        return Board(1, north, b[0], south, b[7])
    if name == "oware":
        # Observation string: "player | score0 score1 | houses 0..2m-1"
        # (player 0's houses first, each row in sowing order).
        head, scores, houses = state.observation_string(0).split("|")
        p = int(head)
        s = [int(x) for x in scores.split()]
        h = [int(x) for x in houses.split()]
        m = len(h) // 2
        own, other = tuple(h[p * m:(p + 1) * m]), tuple(h[(1 - p) * m:(2 - p) * m])
        return Board(p, own, s[p], other, s[1 - p])
    raise BadInput(f"OpenSpiel's {name!r} is not a mancala game the engine plays (it knows 'mancala' and 'oware')")


def engine_position(state: Any) -> str:
    """The engine's notation of an OpenSpiel state, from the side to move
    (Oware with its captured totals in brackets)."""
    b = board(state)
    if _short_name(state.get_game()) == "oware":
        return " ".join([*map(str, b.pits), f"[{b.store}]", *map(str, b.opponent_pits), f"[{b.opponent_store}]"])
    return " ".join(map(str, b.counts()))


def engine_move(state: Any, action: int) -> int:
    """The engine's pit (0 = the mover's first pit in sowing order) of an
    OpenSpiel action in ``state``."""
    if _short_name(state.get_game()) == "mancala":
        return action - 1 if state.current_player() == 0 else action - 8
    return action


def openspiel_action(state: Any, pit: int) -> int:
    """The OpenSpiel action of the engine's ``pit`` in ``state``."""
    if _short_name(state.get_game()) == "mancala":
        return pit + 1 if state.current_player() == 0 else pit + 8
    return pit


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


class ExactOracle:
    """Exact values of OpenSpiel states from an `Oracle` (its books, its
    tables, and above them its search within the oracle's time). Values
    are the engine's: the final score difference, the player to move's
    minus the opponent's, under perfect play. No answer is a guess: where
    only bounds are proven, `value` and the best actions raise `Unproven`
    and `action_values` give None.

    The first use of a game builds the tables its rule set needs
    (`Oracle.table_plan`: OpenSpiel's ``mancala``, the engine's
    ``kalah:6:4:capture-needs-opposite``, takes the 6-pit tables up to 20
    seeds, 225 million positions and 107 MB, about 20 s on two busy
    cores), once, saying so in a `TablesWarning`; `prepare` does it ahead.
    With ``build_tables=False`` nothing is built, and a `TablesWarning`
    names the call that would build them. ``progress`` gets the build's
    events (as `Oracle.build_tables`'s). Without ``oracle``, one is made
    from ``oracle_args`` (`Oracle`'s parameters)."""

    def __init__(
        self,
        oracle: Optional[Oracle] = None,
        *,
        build_tables: bool = True,
        progress: Any = None,
        **oracle_args: Any,
    ) -> None:
        self.oracle = oracle if oracle is not None else Oracle(**oracle_args)
        if not isinstance(build_tables, bool):
            raise TypeError(f"build_tables must be True or False, not {build_tables!r}")
        self.build_tables = build_tables
        self.progress = progress
        # The engine's games whose tables were seen to (their plans).
        self._plans: Dict[str, Dict[str, Any]] = {}

    def table_plan(self, game: Any) -> Dict[str, Any]:
        """`Oracle.table_plan` of the engine's rule set for the OpenSpiel
        ``game``: the tables it needs, what is on disk, what is left."""
        return self.oracle.table_plan(engine_game(game))

    def prepare(self, game: Any, *, threads: Optional[int] = None, progress: Any = None) -> Dict[str, Any]:
        """Build the tables the OpenSpiel ``game``'s rule set needs
        (`table_plan`) if they are missing: the plan afterwards. Done once
        by the first use of a game anyway, unless ``build_tables=False``."""
        spec = engine_game(game)
        plan = self.oracle.prepare(spec, threads=threads, progress=progress if progress is not None else self.progress)
        self._plans[spec] = plan
        return plan

    def _game(self, state: Any) -> str:
        """The engine's rule set of ``state``'s game, its tables seen to on
        first use."""
        game = state.get_game()
        spec = engine_game(game)
        if spec in self._plans:
            return spec
        plan = self.oracle.table_plan(spec)
        if not plan["ready"]:
            what = (
                f"{_short_name(game)!r} plays {spec}, whose tables ({plan['pits']} pits, up to {plan['seeds']} "
                f"seeds: {plan['positions']:,} positions, about {_mb(plan['disk_bytes'])}) are not in "
                f"{self.oracle.db}"
            )
            if self.build_tables:
                _warn(f"building them once: OpenSpiel's {what}", TablesWarning)
                plan = self.prepare(game)
            else:
                _warn(
                    f"OpenSpiel's {what}: ExactOracle.prepare(game) builds them; without them the answers come "
                    "from the search alone, often only bounds",
                    TablesWarning,
                )
        self._plans[spec] = plan
        return spec

    def analysis(self, state: Any, *, time_ms: Optional[int] = None) -> Dict[str, Any]:
        """The engine's ``query`` of ``state`` (a dict: value, each move's
        value, best moves, principal variation, exact or bounds, source)."""
        return self.oracle.query(self._game(state), engine_position(state), time_ms=time_ms)

    def value(self, state: Any) -> int:
        """The final score difference for the player to move under perfect
        play (Oware: captured seeds included); raises `Unproven` (a
        ``Stopped``) when only bounds are proven in the oracle's time. At a
        finished game, the difference OpenSpiel's result is decided by (from
        the player whose turn it would be)."""
        if state.is_terminal():
            b = board(state)
            if _short_name(state.get_game()) == "mancala":
                return sum(b.pits) + b.store - sum(b.opponent_pits) - b.opponent_store
            return b.store - b.opponent_store
        a = self.analysis(state)
        if not a["exact"]:
            banked = self._banked(state)
            raise Unproven(
                f"not solved in the time given: the value is between {a['lower'] + banked} and {a['upper'] + banked}",
                a["lower"] + banked,
                a["upper"] + banked,
                None if a["best_move"] is None else openspiel_action(state, a["best_move"]),
            )
        return a["final_difference"]

    def returns(self, state: Any) -> List[float]:
        """The result of perfect play from ``state`` under the engine's
        rules, as OpenSpiel's ``returns()`` writes one: ``[r0, r1]``, each
        1, 0 or -1 (`Unproven` when the result is not proven). It is
        OpenSpiel's own result except where OpenSpiel's Oware ends a game
        at a repetition (see the module's text)."""
        if state.is_terminal():
            return list(state.returns())
        a = self.analysis(state)
        banked = self._banked(state)
        lo, hi = a["lower"] + banked, a["upper"] + banked
        if lo > 0 or hi < 0 or lo == hi:
            v = _sign(lo) if lo > 0 or lo == hi else -1
        else:
            raise Unproven(f"the result is not proven in the time given: the value is between {lo} and {hi}", lo, hi)
        p = state.current_player()
        return [float(v), float(-v)] if p == 0 else [float(-v), float(v)]

    def action_values(self, state: Any) -> Dict[int, Optional[int]]:
        """Each legal action's value for the player to move (the final
        score difference after playing it, as `value`), ``None`` for a
        move whose value was not proven in the oracle's time
        (`action_bounds` has what is proven)."""
        return {a: (lo if lo == hi else None) for a, (lo, hi) in self.action_bounds(state).items()}

    def action_bounds(self, state: Any) -> Dict[int, Tuple[int, int]]:
        """Each legal action's proven bounds ``(lower, upper)`` on its value
        for the player to move (as `action_values`; equal when exact)."""
        a = self.analysis(state)
        banked = self._banked(state)
        return {openspiel_action(state, mv["move"]): (mv["lower"] + banked, mv["upper"] + banked) for mv in a["moves"]}

    @staticmethod
    def _banked(state: Any) -> int:
        if _short_name(state.get_game()) == "mancala":
            return 0  # Kalah values include the stores
        b = board(state)
        return b.store - b.opponent_store

    def best_actions(self, state: Any) -> List[int]:
        """Every optimal action (empty when the game is over); raises
        `Unproven` when the value is not proven in the oracle's time."""
        a = self.analysis(state)
        if not a["exact"] and len(a["moves"]) > 1:
            raise _unproven_move(state, a)
        return sorted(openspiel_action(state, p) for p in (a["best_moves"] or [m["move"] for m in a["moves"]]))

    def best_action(self, state: Any, *, allow_unproven: bool = False) -> int:
        """An optimal action (the engine's choice among equals: in games
        with cycles, one that makes progress). Raises `Unproven` when the
        search proved only bounds in the oracle's time (its
        ``best_move_so_far`` is the action with the best proven lower
        bound); with ``allow_unproven=True`` returns that action, a guess."""
        return self._best(state, allow_unproven)[0]

    def _best(self, state: Any, allow_unproven: bool) -> Tuple[int, bool]:
        """The action to play, and whether it is proven best."""
        a = self.analysis(state)
        if a["best_move"] is None:
            raise BadInput("the game is over: there is no move to play")
        proven = a["exact"] or len(a["moves"]) == 1
        if not proven and not allow_unproven:
            raise _unproven_move(state, a)
        return openspiel_action(state, a["best_move"]), proven


def _unproven_move(state: Any, a: Dict[str, Any]) -> Unproven:
    banked = ExactOracle._banked(state)
    lo, hi = a["lower"] + banked, a["upper"] + banked
    guess = openspiel_action(state, a["best_move"])
    return Unproven(
        f"the best move of {engine_position(state)!r} is not proven in the oracle's time (the value is between "
        f"{lo} and {hi}; the best so far is action {guess}): give the search more time (Oracle(solve_ms=...)), "
        "or pass allow_unproven=True to play that guess flagged as unproven",
        lo,
        hi,
        guess,
    )


def _warn(message: str, category: type) -> None:
    """``warnings.warn``, attributed to the first caller outside this
    package (the user's line)."""
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(0), 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == here:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB" if n >= 1e6 else f"{n / 1e3:,.0f} kB"


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the OpenSpiel bridge needs OpenSpiel: pip install open_spiel") from e
    return pyspiel


def PerfectBot(exact: ExactOracle, *, player_id: Optional[int] = None, allow_unproven: bool = False) -> Any:
    """A ``pyspiel.Bot`` that plays perfectly: the engine's best move, proven
    (from the books, the tables or a search that finished in the oracle's
    time; the optimal move that makes progress where several keep the
    value: in games with cycles, choosing at random among them can loop
    forever). Where the search proves only bounds in its time, the move is
    not known to be best, and the bot raises `Unproven` (a ``Stopped``:
    give the oracle more time, ``Oracle(solve_ms=...)``, or larger tables).

    ``allow_unproven=True`` plays the best move so far there instead (the
    move with the best proven lower bound), flagged: an
    `UnprovenMoveWarning` is issued, the bot's ``last_move_proven`` is
    False and its ``unproven_moves`` counts such moves. ``player_id`` is
    what ``player_id()`` answers, when given."""
    if player_id is not None:
        player_id = _whole("player_id", player_id, 0, 1)
    if not isinstance(allow_unproven, bool):
        raise TypeError(f"allow_unproven must be True or False, not {allow_unproven!r}")
    pyspiel = _pyspiel()

    class _PerfectBot(pyspiel.Bot):
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            #: Whether the last move played was proven best.
            self.last_move_proven: Optional[bool] = None
            #: Moves played that were not proven best (allow_unproven).
            self.unproven_moves = 0
            self.allow_unproven = allow_unproven

        def player_id(self) -> int:
            return -1 if player_id is None else player_id

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return True

        def get_policy(self, state: Any) -> List[Tuple[int, float]]:
            return self.step_with_policy(state)[0]

        def step_with_policy(self, state: Any) -> Tuple[List[Tuple[int, float]], int]:
            action, proven = exact._best(state, self.allow_unproven)
            self.last_move_proven = proven
            if not proven:
                self.unproven_moves += 1
                _warn(
                    f"PerfectBot played action {action} in {engine_position(state)!r}, the best so far, not proven "
                    "best in the oracle's time (allow_unproven=True)",
                    UnprovenMoveWarning,
                )
            return [(action, 1.0)], action

        def step(self, state: Any) -> int:
            return self.step_with_policy(state)[1]

    return _PerfectBot()


def scaled_return(value: float, total_seeds: int, margin_weight: float) -> float:
    """A final score difference ``value`` (for one player, of a game of
    ``total_seeds`` seeds) as a return in OpenSpiel's range: the result
    (1 win, 0 draw, -1 loss) weighted ``1 - margin_weight``, plus the
    margin ``value / total_seeds`` weighted ``margin_weight``. Every win
    is above every draw and every loss below it, and a win by 2 is above a
    win by 1 (with ``margin_weight`` 0, the result alone)."""
    return (1.0 - margin_weight) * _sign(value) + margin_weight * value / total_seeds


class ExactEvaluator:
    """An evaluator for OpenSpiel's MCTS (``open_spiel.python.algorithms.
    mcts.MCTSBot``): each leaf's value from what the engine proves of it,
    and a uniform prior.

    A leaf is looked up first in the opening books and the tables on disk
    (one native call, no search: well under a millisecond) and its exact
    final score difference ``v`` becomes the returns ``scaled_return(v)``
    for the player to move, ``-scaled_return(v)`` for the other: the
    result weighted ``1 - margin_weight``, the margin ``v / total seeds``
    weighted ``margin_weight``, so that MCTS tells a loss by 1 from a loss
    by 2 and never ranks a loss above a draw. Where neither reaches, a
    search of the value alone for at most ``search_ms`` (a transposition
    table of ``tt_mb`` MiB) gives the exact value or proven bounds; where
    it proves only bounds, or is not tried, ``fallback`` (by default one
    random roll-out, as OpenSpiel's ``RandomRolloutEvaluator``) estimates
    the leaf, its value kept within the proven bounds. Searches stop at a
    seed count where fewer than a quarter of them prove the value (after 8
    tries; one in 32 leaves there is still searched), so a position far
    above the tables costs a roll-out, not a wasted search. Searches'
    answers are kept (up to ``cache`` positions) for the next moves' trees.

    ``stats()`` counts the leaves by where their value came from, with the
    time each took (docs/python.md has the measured cost per leaf). The
    tables a game needs are seen to on its first leaf, as `ExactOracle`
    does; looking up never builds a table mid-search (the look-ups use an
    oracle of their own over the same directory with ``build_limit`` 0).
    """

    def __init__(
        self,
        exact: ExactOracle,
        *,
        search_ms: int = 5,
        tt_mb: int = 2,
        margin_weight: float = 0.25,
        fallback: Any = None,
        cache: int = 100_000,
        random_state: Any = None,
    ) -> None:
        self.exact = exact
        self.search_ms = _whole("search_ms", search_ms, 0, MAX_QUERY_MS, " (a day)")
        self.tt_mb = _whole("tt_mb", tt_mb, 1, MAX_TT_MB)
        if isinstance(margin_weight, bool) or not isinstance(margin_weight, (int, float)) or not 0 <= margin_weight <= 1:
            raise BadInput(f"margin_weight={margin_weight!r}: give a number from 0 (the result alone) to 1")
        self.margin_weight = float(margin_weight)
        self.cache = _whole("cache", cache, 0, 10**9)
        if fallback is None:
            from open_spiel.python.algorithms import mcts

            fallback = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        self.fallback = fallback
        self._oracle = Oracle(db=exact.oracle.db, build_limit=0, tt_mb=self.tt_mb)
        self._known: "OrderedDict[Tuple[str, Tuple[int, ...]], Tuple[int, int, str]]" = OrderedDict()
        # Seeds in play -> [searches tried, proved, leaves not searched].
        self._tries: Dict[int, List[int]] = {}
        self._stats: Dict[str, List[float]] = {}

    def _worth_searching(self, seeds: int) -> bool:
        t = self._tries.setdefault(seeds, [0, 0, 0])
        if t[0] < 8 or 4 * t[1] >= t[0]:
            return True
        t[2] += 1
        return t[2] % 32 == 0

    def bounds(self, state: Any) -> Tuple[int, int, str]:
        """What is proven of the final score difference of ``state`` for
        the player to move: ``(lower, upper, source)``, source one of
        ``"book"``, ``"tables"``, ``"search"`` (exact or bounds),
        ``"none"`` (not searched: the bounds of any game from there) or
        ``"game_over"``."""
        spec = self.exact._game(state)
        b = board(state)
        counts = b.counts()
        key = (spec, tuple(counts))
        known = self._known.get(key)
        if known is None:
            native = self._oracle._native
            # The books and tables first (a look-up on this thread), then
            # a search where it is worth one.
            known = native.value_bounds(spec, counts, 0, self.tt_mb)
            seeds = sum(b.pits) + sum(b.opponent_pits)
            if known[2] == "none" and self.search_ms > 0 and self._worth_searching(seeds):
                known = native.value_bounds(spec, counts, self.search_ms, self.tt_mb)
                t = self._tries[seeds]
                t[0] += 1
                t[1] += known[0] == known[1]
                if self.cache:
                    self._known[key] = known
                    if len(self._known) > self.cache:
                        self._known.popitem(last=False)
        else:
            self._known.move_to_end(key)
            known = (known[0], known[1], "cached " + known[2])
        lo, hi, source = known
        banked = 0 if _short_name(state.get_game()) == "mancala" else b.store - b.opponent_store
        return lo + banked, hi + banked, source

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        start = (time.perf_counter(), time.process_time())
        if state.is_terminal():
            self._count("terminal", start)
            return np.array(state.returns(), dtype=float)
        lo, hi, source = self.bounds(state)
        b = board(state)
        total = sum(b.pits) + b.store + sum(b.opponent_pits) + b.opponent_store
        w = self.margin_weight
        if lo == hi:
            v = scaled_return(lo, total, w)
        else:
            estimate = float(self.fallback.evaluate(state)[state.current_player()])
            v = min(max(estimate, scaled_return(lo, total, w)), scaled_return(hi, total, w))
            source = ("not searched" if source == "none" else source) + ", estimated"
        self._count(source, start)
        return np.array([v, -v] if state.current_player() == 0 else [-v, v])

    def prior(self, state: Any) -> List[Tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]

    def _count(self, source: str, start: Tuple[float, float]) -> None:
        s = self._stats.setdefault(source, [0, 0.0, 0.0])
        s[0] += 1
        s[1] += time.perf_counter() - start[0]
        s[2] += time.process_time() - start[1]

    def stats(self) -> Dict[str, Dict[str, float]]:
        """The leaves evaluated so far by where their value came from
        (``"book"``, ``"tables"``, ``"search"``, ``"cached search"``, with
        ``", estimated"`` those the fallback estimated within proven
        bounds, ``"not searched, estimated"`` those it estimated alone;
        ``"terminal"``): ``{"leaves": n, "ms_per_leaf": mean wall-clock
        time, "cpu_ms_per_leaf": mean CPU time of the process}`` (on a busy
        machine the CPU time is the cost; the wall-clock time waits for the
        cores too)."""
        return {
            k: {"leaves": n, "ms_per_leaf": 1000 * t / n, "cpu_ms_per_leaf": 1000 * c / n}
            for k, (n, t, c) in sorted(self._stats.items())
        }

