"""A second, naive solver agrees with the tablebases on every position of small materials.

The naive solver shares nothing with :mod:`draughts.endgame` but the rules: it enumerates the
positions of a material on the test oracle's mailbox board (``tests/naive.py``), collects every
position they can reach with the oracle's own move generator, and decides them by forward
search, level by level: a position is won in ``n`` plies if a move reaches a position lost in
``n - 1``; it is lost in ``n`` if every move reaches a position won in at most ``n - 1`` (and one
in exactly ``n - 1``); the game is over where the oracle says so (``naive.winner``). Whatever no
level decides is drawn. No retrograde step, no index, no table file.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import attrs
import pytest

import draughts
import naive
from draughts import BLACK, WHITE, CapturedRemoval, CapturePromotion, Color, Directions, KingRange, Piece, Position
from draughts.endgame import Material, Tablebase
from draughts.rules import Precedence, Ruleset

Value = tuple[str, int | None]


def material_states(rules: Ruleset, material: Material) -> list[naive.State]:
    """Every position of ``material`` (both sides to move), men only where they can stand."""
    coords = rules.geometry.coords
    squares = range(1, rules.squares + 1)
    white_men, black_men, white_kings, black_kings = material.counts(rules)
    top = rules.board_size - 1
    white_area = [s for s in squares if coords[s][1] != top]
    black_area = [s for s in squares if coords[s][1] != 0]
    states = []
    for wm in itertools.combinations(white_area, white_men):
        for bm in itertools.combinations([s for s in black_area if s not in wm], black_men):
            free = [s for s in squares if s not in wm and s not in bm]
            for wk in itertools.combinations(free, white_kings):
                for bk in itertools.combinations([s for s in free if s not in wk], black_kings):
                    board = {coords[s]: (WHITE, False) for s in wm}
                    board.update({coords[s]: (BLACK, False) for s in bm})
                    board.update({coords[s]: (WHITE, True) for s in wk})
                    board.update({coords[s]: (BLACK, True) for s in bk})
                    states.extend(naive.State(rules, board, turn) for turn in (WHITE, BLACK))
    return states


def naive_values(roots: list[naive.State]) -> dict[naive.State, Value]:
    """The value of every position reachable from ``roots``, by forward levels."""
    ids: dict[naive.State, int] = {}
    children: list[list[int] | None] = []  # None: the game is over there
    values: list[Value | None] = []
    todo = list(roots)
    for state in todo:
        ids.setdefault(state, len(ids))
    done = 0
    states = list(ids)
    while done < len(states):
        state = states[done]
        done += 1
        winner = naive.winner(state)
        if winner is not None:
            children.append(None)
            values.append(("win" if winner is state.turn else "loss", 0))
            continue
        kids = []
        for move in naive.moves(state):
            kid = naive.play(state, move)
            if kid not in ids:
                ids[kid] = len(ids)
                states.append(kid)
            kids.append(ids[kid])
        children.append(kids)
        values.append(None)
    level = 0
    while True:
        level += 1
        decided = {}
        for number, kids in enumerate(children):
            if kids is None or values[number] is not None:
                continue
            known = [values[kid] for kid in kids]
            if any(value == ("loss", level - 1) for value in known):
                decided[number] = ("win", level)
            elif all(value is not None and value[0] == "win" for value in known):
                decided[number] = ("loss", level)
        if not decided:
            break
        for number, value in decided.items():
            values[number] = value
    return {state: values[number] or ("draw", None) for state, number in ids.items()}


def position_of(state: naive.State) -> Position:
    pieces = {square: Piece(color, king) for square, (color, king) in state.pieces().items()}
    return Position.from_pieces(state.rules, pieces, state.turn)


def random_ruleset(seed: int) -> Ruleset:
    """A user-defined 8x8 ruleset with random rule fields (printed in the test id by its seed)."""
    pick = random.Random(seed).choice
    return attrs.evolve(
        draughts.get_variant(pick(["american", "russian", "italian", "czech"])),
        name=f"random{seed}",
        title="random",
        first_to_move=pick([WHITE, BLACK]),
        men_capture=pick([Directions.DIAGONAL_FORWARD, Directions.DIAGONAL]),
        men_capture_kings=pick([True, False]),
        king_range=pick(list(KingRange)),
        capture_promotion=pick(list(CapturePromotion)),
        capture_mandatory=pick([True, False]),
        precedence=pick([(), (Precedence.MOST_PIECES,), (Precedence.WITH_KING, Precedence.MOST_PIECES)]),
        captured_removal=pick(list(CapturedRemoval)),
        pdn_gametype=None,
    )


CASES = [
    ("american", ["KvK", "MvK", "KvM", "MvM"]),
    ("italian", ["MvK", "KvM", "MvM"]),  # men cannot take kings
    ("russian", ["KvK", "MvK", "MvM"]),
    pytest.param("international", ["KvK", "MvK"], marks=pytest.mark.slow),
    ("american-losing", ["KvK", "MvK", "MvM"]),  # no move wins
    ("russian-breakthrough", ["MvM"]),  # crowning wins
    ("random7", ["KvK", "MvK", "MvM"]),
    ("random11", ["KvK", "KvM", "MvM"]),
]


def _id(case: object) -> str:
    return str(case.values[0] if hasattr(case, "values") else case[0])  # type: ignore[index]


def rules_of(name: str) -> Ruleset:
    return random_ruleset(int(name[6:])) if name.startswith("random") else draughts.get_variant(name)


@pytest.mark.parametrize(("variant", "materials"), CASES, ids=[_id(case) for case in CASES])
def test_naive_solver_agrees_on_every_position(variant: str, materials: list[str], tmp_path: Path) -> None:
    rules = rules_of(variant)
    tb = Tablebase(rules, tmp_path)
    tb.build(materials)
    for name in materials:
        states = material_states(rules, Material.parse(name))
        assert len(states) == tb.table(name).indexer.positions()
        values = naive_values(states)
        for state in states:
            verdict = tb.probe(position_of(state))
            assert (verdict.result, verdict.plies) == values[state], (name, position_of(state).fen())
        # The best moves are exactly the moves that keep the naive value.
        for state in states[:: max(1, len(states) // 40)]:
            position = position_of(state)
            expected = values[state]
            best = tb.best_moves(position)
            for move in position.legal_moves():
                child = values[naive.state_of(position.play(move))]
                keeps = child == ("draw", None) if expected[0] == "draw" else _next(expected) == child
                assert (move in best) == keeps, (position.fen(), move)


def _next(value: Value) -> Value:
    result, plies = value
    assert plies is not None
    return ("loss" if result == "win" else "win", plies - 1)


def test_random_rulesets_differ() -> None:
    assert rules_of("random7") != rules_of("random11")
    assert all(rules_of(_id(case)).first_to_move in (Color.WHITE, Color.BLACK) for case in CASES)
