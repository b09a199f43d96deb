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
    >>> exact = ExactOracle(Oracle(db="db"))
    >>> exact.value(game.new_initial_state())      # for the player to move
    >>> bot = PerfectBot(exact)                     # a pyspiel.Bot

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

import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import MAX_GAMES, Oracle, _whole
from .errors import BadInput

__all__ = [
    "ExactOracle",
    "PerfectBot",
    "ExactEvaluator",
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
    """Exact values of OpenSpiel states from an `Oracle` (its tables, and
    for Kalah its search within the oracle's time). Values are the engine's:
    the final score difference, the player to move's minus the opponent's,
    under perfect play."""

    def __init__(self, oracle: Optional[Oracle] = None, **oracle_args: Any) -> None:
        self.oracle = oracle if oracle is not None else Oracle(**oracle_args)

    def analysis(self, state: Any, *, time_ms: Optional[int] = None) -> Dict[str, Any]:
        """The engine's ``query`` of ``state`` (a dict: value, each move's
        value, best moves, principal variation, exact or bounds)."""
        return self.oracle.query(engine_game(state.get_game()), engine_position(state), time_ms=time_ms)

    def value(self, state: Any) -> int:
        """The final score difference for the player to move under perfect
        play (Oware: captured seeds included); raises ``Stopped`` when
        only bounds are proven in the oracle's time. At a finished game,
        the difference OpenSpiel's result is decided by (from the player
        whose turn it would be)."""
        if state.is_terminal():
            b = board(state)
            if _short_name(state.get_game()) == "mancala":
                return sum(b.pits) + b.store - sum(b.opponent_pits) - b.opponent_store
            return b.store - b.opponent_store
        a = self.analysis(state)
        if not a["exact"]:
            from .errors import Stopped

            raise Stopped(f"not solved in the time given: the value is between {a['lower']} and {a['upper']}")
        return a["final_difference"]

    def returns(self, state: Any) -> List[float]:
        """The result of perfect play from ``state`` under the engine's
        rules, as OpenSpiel's ``returns()`` writes one: ``[r0, r1]``, each
        1, 0 or -1. It is OpenSpiel's own result except where OpenSpiel's
        Oware ends a game at a repetition (see the module's text)."""
        if state.is_terminal():
            return list(state.returns())
        v = _sign(self.value(state))
        p = state.current_player()
        return [float(v), float(-v)] if p == 0 else [float(-v), float(v)]

    def action_values(self, state: Any) -> Dict[int, Optional[int]]:
        """Each legal action's value for the player to move (the final
        score difference after playing it, as `value`), ``None`` for a
        move whose value was not proven in the oracle's time."""
        a = self.analysis(state)
        banked = a["final_difference"] - a["value"] if a["exact"] else self._banked(state)
        out: Dict[int, Optional[int]] = {}
        for mv in a["moves"]:
            v = mv["value"]
            out[openspiel_action(state, mv["move"])] = None if v is None else v + banked
        return out

    @staticmethod
    def _banked(state: Any) -> int:
        if _short_name(state.get_game()) == "mancala":
            return 0  # Kalah values include the stores
        b = board(state)
        return b.store - b.opponent_store

    def best_actions(self, state: Any) -> List[int]:
        """Every optimal action (empty when the game is over or no move's
        value is proven)."""
        a = self.analysis(state)
        return sorted(openspiel_action(state, p) for p in a["best_moves"])

    def best_action(self, state: Any) -> int:
        """An optimal action (the engine's choice among equals)."""
        a = self.analysis(state)
        if a["best_move"] is None:
            raise BadInput("the game is over: there is no move to play")
        return openspiel_action(state, a["best_move"])


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the OpenSpiel bridge needs OpenSpiel: pip install open_spiel") from e
    return pyspiel


def PerfectBot(exact: ExactOracle, *, player_id: Optional[int] = None) -> Any:
    """A ``pyspiel.Bot`` that plays perfectly: the engine's best move (the
    optimal move that makes progress where several keep the value; in
    games with cycles, choosing at random among them can loop forever).
    ``player_id`` is what ``player_id()`` answers, when given."""
    if player_id is not None:
        player_id = _whole("player_id", player_id, 0, 1)
    pyspiel = _pyspiel()

    class _PerfectBot(pyspiel.Bot):
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

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
            action = exact.best_action(state)
            return [(action, 1.0)], action

        def step(self, state: Any) -> int:
            return exact.best_action(state)

    return _PerfectBot()


class ExactEvaluator:
    """An evaluator for OpenSpiel's MCTS (``open_spiel.python.algorithms.
    mcts.MCTSBot``): a state's returns under perfect play (1, 0 or -1 for
    each player; where only bounds are proven, their common sign or 0),
    and a uniform prior."""

    def __init__(self, exact: ExactOracle) -> None:
        self.exact = exact

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        a = self.exact.analysis(state)
        banked = self.exact._banked(state)
        lo, hi = a["lower"] + banked, a["upper"] + banked
        v = 1.0 if lo > 0 else -1.0 if hi < 0 else 0.0
        return np.array([v, -v] if state.current_player() == 0 else [-v, v])

    def prior(self, state: Any) -> List[Tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


@dataclass
class Comparison:
    """What `compare_random_games` found: positions compared, games, and
    every disagreement (the first few written out)."""

    game: str
    games: int = 0
    positions: int = 0
    moves: int = 0
    disagreements: List[str] = field(default_factory=list)
    ended_by_majority: int = 0
    ended_by_repetition: int = 0
    repetition_results_differ: int = 0

    @property
    def agree(self) -> bool:
        return not self.disagreements


def compare_random_games(
    game: Any, oracle: Oracle, *, games: int = 100, seed: int = 0, max_moves: int = 1000
) -> Comparison:
    """Play ``games`` random games in OpenSpiel and replay every move in the
    engine: each position (board, captured totals, side to move), each set
    of legal moves, each end of game and each result must agree. Known
    differences of the rules (see the module's text) are counted, not
    reported: Oware games OpenSpiel ends at a majority of captures (the
    engine must agree on the winner) and at a repetition (the engine's
    result of the same position under its endless-play rule is counted
    when it differs)."""
    games = _whole("games", games, 0, MAX_GAMES)
    max_moves = _whole("max_moves", max_moves, 1, MAX_GAMES)
    rng = random.Random(_whole("seed", seed, 0, 2**64 - 1))
    spec = engine_game(game)
    oware = _short_name(game) == "oware"
    out = Comparison(spec)
    for g in range(games):
        state = game.new_initial_state()
        ours = oracle.start(spec)
        last_mover = 0
        # Oware: the boards (player to move, counts) since the last capture.
        seen: set = set()
        for ply in range(max_moves):
            out.positions += 1
            where = f"game {g} (seed {seed}), ply {ply}"
            if state.is_terminal():
                _compare_end(state, ours, last_mover, oware, where, out, seen)
                break
            if ours["game_over"]:
                out.disagreements.append(f"{where}: the engine's game is over, OpenSpiel's is not ({ours['position']})")
                break
            if _counts_of(ours["position"], oware) != board(state).counts():
                out.disagreements.append(f"{where}: OpenSpiel {engine_position(state)!r}, engine {ours['position']!r}")
                break
            if oware:
                key = _key(board(state))
                if seen and next(iter(seen))[1] != key[1]:
                    seen.clear()  # a capture: OpenSpiel forgets the boards before it
                seen.add(key)
            legal = state.legal_actions()
            if sorted(engine_move(state, a) for a in legal) != sorted(ours["legal_moves"]):
                out.disagreements.append(
                    f"{where}: legal moves in {ours['position']}: OpenSpiel {legal}, engine {ours['legal_moves']}"
                )
                break
            action = rng.choice(legal)
            last_mover = state.current_player()
            pit = engine_move(state, action)
            ours = oracle.play(spec, ours["position"], str(pit))
            state.apply_action(action)
            out.moves += 1
        out.games += 1
    return out


def _counts_of(position: str, oware: bool) -> List[int]:
    """The ``2m + 2`` counts of a position in the engine's notation (an
    Oware board written without brackets has captured totals of 0)."""
    c = [int(x.strip("[]")) for x in position.split()]
    if oware and "[" not in position:
        m = len(c) // 2
        c = [*c[:m], 0, *c[m:], 0]
    return c


def _key(b: Board) -> Tuple[int, Tuple[int, int], Tuple[int, ...]]:
    """An Oware board as OpenSpiel compares them for a repetition: the
    player to move, the scores (player 0's first) and the houses."""
    if b.player == 0:
        return (0, (b.store, b.opponent_store), b.pits + b.opponent_pits)
    return (1, (b.opponent_store, b.store), b.opponent_pits + b.pits)


def _compare_end(
    state: Any, ours: Dict[str, Any], last_mover: int, oware: bool, where: str, out: Comparison, seen: set
) -> None:
    """The end of a game: OpenSpiel's ``state`` is terminal, ``ours`` is the
    engine's report of the same position after ``last_mover``'s move (its
    "south")."""
    r = state.returns()
    south = sum(ours["south"]) + ours["stores"][0]
    north = sum(ours["north"]) + ours["stores"][1]
    totals = [0, 0]
    totals[last_mover], totals[1 - last_mover] = south, north
    captured = [0, 0]
    captured[last_mover], captured[1 - last_mover] = ours["stores"]
    b = board(state)
    want = [0, 0]
    want[b.player] = sum(b.pits) + b.store
    want[1 - b.player] = sum(b.opponent_pits) + b.opponent_store
    if ours["game_over"]:
        # Every seed counted: each player's row and store.
        if totals != want or _sign(totals[0] - totals[1]) != _sign(r[0]):
            out.disagreements.append(
                f"{where}: the end: OpenSpiel {want} and returns {r}, engine {totals} ({ours['position']})"
            )
        return
    if not oware:
        out.disagreements.append(f"{where}: OpenSpiel's game is over, the engine's is not ({ours['position']})")
        return
    half = sum(totals) / 2
    if max(captured) > half or captured[0] == half == captured[1]:
        # OpenSpiel stops at a majority of captures: the winner is decided.
        out.ended_by_majority += 1
        if _sign(r[0]) != _sign(captured[0] - captured[1]):
            out.disagreements.append(f"{where}: OpenSpiel returns {r} at a majority in {ours['position']}")
    else:
        # A repetition: OpenSpiel gives each row's seeds to its owner; the
        # engine's endless-play rule splits them (the captures decide). The
        # board the last move left (the engine's, not yet collected) must
        # have been seen since the last capture.
        c = _counts_of(ours["position"], True)
        m = len(c) // 2 - 1
        player = last_mover if ours["to_move"] == "south" else 1 - last_mover
        mover = Board(player, tuple(c[:m]), c[m], tuple(c[m + 1 : 2 * m + 1]), c[2 * m + 1])
        if _key(mover) not in seen:
            out.disagreements.append(f"{where}: OpenSpiel ended the game in {ours['position']} without a repetition")
            return
        out.ended_by_repetition += 1
        if _sign(r[0]) != _sign(captured[0] - captured[1]):
            out.repetition_results_differ += 1
