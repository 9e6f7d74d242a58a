"""The draw rules, applied by the native core (``native/core/src/drawrules.rs``, written once):
what a :class:`~draughts.Board` counts (repetition, move-count and endgame rules) and when an
endgame rule applies, for the game (:meth:`draughts.Board.outcome`) and for the endgame
tablebases (their verdicts within the rules).

This module turns a ruleset's :class:`~draughts.DrawRules` into the native
``draughts._native.DrawRules`` (:func:`compiled`, once per ruleset) and keeps the one condition the
native side cannot decide alone: a shot in the air (Frisian art. 21) needs the legal moves, so the
native side asks :func:`shot_in_the_air` back, and only when everything else about the rule holds.

An :class:`~draughts.EndgameRule` has conditions on the material (numbers of pieces, who has
kings, the stronger and the weaker side) and two on where the pieces stand: the weaker side's lone
king on the long diagonal (Russian "main road") and no shot in the air.
"""

from __future__ import annotations

import functools
from typing import Any

import draughts._native as _native  # the extension module (a .pyi in the source tree)
from draughts import _caches
from draughts._core import Tables
from draughts.color import Color
from draughts.position import Position
from draughts.rules import EndgameRule, MoveCountRule, Ruleset

__all__ = [
    "CAPTURE",
    "CROWNING",
    "MAN_MOVED",
    "Side",
    "applies",
    "compiled",
    "depends_on_placement",
    "material_applies",
    "shot_in_the_air",
    "weak_sides",
]

Side = tuple[int, int]
"""One side's material as the rules write it: ``(kings, men)``."""

MAN_MOVED: int = _native.DRAW_MAN_MOVED
"""The event bit of a man's move (what a move did, as ``_native.DrawCounter.push`` takes it)."""
CAPTURE: int = _native.DRAW_CAPTURE
"""The event bit of a capture."""
CROWNING: int = _native.DRAW_CROWNING
"""The event bit of a crowning."""


def compiled(position: Position) -> _native.DrawRules:
    """The draw rules of ``position``'s ruleset, compiled for its board (once per ruleset): what a
    board's counter (``compiled(root).counter(...)``) and :func:`applies` run on."""
    return position.tables.derived(_compile)


def material_applies(rule: EndgameRule, white: Side, black: Side) -> bool:
    """Whether the rule's conditions on the material hold (it may still depend on where the
    pieces stand: :func:`depends_on_placement`)."""
    return _alone(rule).material_applies(0, white, black)


def depends_on_placement(rule: EndgameRule) -> bool:
    """Whether the rule looks at where the pieces stand, not only at the material."""
    return _alone(rule).depends_on_placement(0)


def applies(rule: EndgameRule, position: Position) -> bool:
    """Whether the rule applies to ``position`` (its count aside)."""
    rules, index = _rules_with(rule, position)
    return rules.applies(index, position.node, functools.partial(shot_in_the_air, position))


def weak_sides(rule: EndgameRule, white: Side, black: Side) -> tuple[Color, ...] | None:
    """The colours ``rule`` can take as its weaker side in a material of ``(kings, men)`` per
    side: empty if the material does not match, None if the rule names no weaker side (what the
    native endgame solver needs to decide the rule position by position)."""
    return _weak_sides(rule, white, black)


def _weak_sides(rule: EndgameRule, white: Side, black: Side) -> tuple[Color, ...] | None:
    """The colours the rule can take as its weaker side (empty: the material does not match;
    None: the rule names no stronger or weaker side, so the material matches as a whole)."""
    if rule.total_pieces and sum(white) + sum(black) not in rule.total_pieces:
        return ()
    if rule.both_have_kings and not (white[0] and black[0]):
        return ()
    if not (rule.strong or rule.weak or rule.strong_min_kings):
        return None
    weak = []
    for strong_side, weak_side, weak_color in ((white, black, Color.BLACK), (black, white, Color.WHITE)):
        if rule.strong and strong_side not in rule.strong:
            continue
        if strong_side[0] < rule.strong_min_kings:
            continue
        if rule.weak and weak_side not in rule.weak:
            continue
        weak.append(weak_color)
    return tuple(weak)


def shot_in_the_air(position: Position) -> bool:
    """Whether the side to move can capture, or every move of it lets the opponent capture."""
    moves = position.legal_moves()
    if any(move.captured for move in moves):
        return True
    return bool(moves) and all(position.play(move).has_capture() for move in moves)


def _rules_with(rule: EndgameRule, position: Position) -> tuple[_native.DrawRules, int]:
    """Compiled rules holding ``rule``, and its index there: the ruleset's own (the usual case),
    else ``rule`` alone on ``position``'s board (made once per rule and board)."""
    endgames = position.ruleset.draw_rules.endgames
    for index, known in enumerate(endgames):
        if known is rule:
            return compiled(position), index
    if rule in endgames:
        return compiled(position), endgames.index(rule)
    tables = position.tables
    foreign = tables.derived(_foreign_rules)
    found = foreign.get(rule)
    if found is None:
        if len(foreign) >= _caches.DRAW_COUNTERS:
            foreign.clear()
        found = foreign[rule] = _native.DrawRules(_spec(tables.rules, (), (rule,), tables))
    return found, 0


def _foreign_rules(tables: Tables) -> dict[EndgameRule, _native.DrawRules]:
    return {}


def _compile(tables: Tables) -> _native.DrawRules:
    draws = tables.rules.draw_rules
    return _native.DrawRules(_spec(tables.rules, draws.move_counts, draws.endgames, tables))


@functools.lru_cache(maxsize=256)
def _alone(rule: EndgameRule) -> _native.DrawRules:
    """``rule`` alone, for the questions on the material (no board)."""
    return _native.DrawRules(_spec(None, (), (rule,), None))


def _spec(
    rules: Ruleset | None,
    move_counts: tuple[MoveCountRule, ...],
    endgames: tuple[EndgameRule, ...],
    tables: Tables | None,
) -> dict[str, Any]:
    """The dictionary ``_native.DrawRules`` compiles: the ruleset's repetition rule (none without
    a ruleset), the rules given, and the board's width and long diagonal."""
    draws = None if rules is None else rules.draw_rules
    diagonal = tables is not None and any(rule.weak_king_on_main_diagonal for rule in endgames)
    return {
        "repetitions": (draws.repetitions or 0) if draws else 0,
        "repetition_claim": draws.repetition_claim if draws else False,
        "move_counts": [(rule.moves, _resets(rule), rule.claim) for rule in move_counts],
        "endgames": [_endgame(rule) for rule in endgames],
        "bits": tables.board.bit_length() if tables else 64,
        "main_diagonal": _main_diagonal(tables) if tables and diagonal else 0,
    }


def _resets(rule: MoveCountRule) -> int:
    return (
        (MAN_MOVED if rule.reset_by_man_move else 0)
        | (CAPTURE if rule.reset_by_capture else 0)
        | (CROWNING if rule.reset_by_promotion else 0)
    )


def _endgame(rule: EndgameRule) -> dict[str, Any]:
    return {
        "moves": rule.moves,
        "strong": list(rule.strong),
        "weak": list(rule.weak),
        "strong_min_kings": rule.strong_min_kings,
        "total_pieces": list(rule.total_pieces),
        "both_have_kings": rule.both_have_kings,
        "weak_king_on_main_diagonal": rule.weak_king_on_main_diagonal,
        "no_shot": rule.no_shot,
    }


def _main_diagonal(tables: Tables) -> int:
    """The bits of the long diagonal, the one joining the two playable corners."""
    geometry = tables.rules.geometry
    mask = 0
    for square, (x, y) in enumerate(geometry.coords[1:], start=1):
        # The long diagonal joins the two playable corners (of a rectangle: starts in a near corner).
        if (x == y) if geometry.bottom_left_playable else (x + y == geometry.width - 1):
            mask |= 1 << tables.bit_of_square[square]
    return mask
