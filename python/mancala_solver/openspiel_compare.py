"""OpenSpiel's games against the engine's, move by move: `compare_random_games`
plays random games in OpenSpiel and replays them in the engine, comparing
every position, legal move set, end and result (docs/python.md,
"Differences found, and how they were found"). Imported by
``mancala_solver.openspiel``, which hands these names on."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

from . import MAX_GAMES, Oracle, _whole
from .openspiel import Board, _short_name, _sign, board, engine_game, engine_move, engine_position

__all__ = ["Comparison", "compare_random_games"]


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
