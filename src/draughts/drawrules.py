"""When an endgame draw rule applies: its conditions, read in one place for the game
(:meth:`draughts.Board.outcome`) and for the endgame tablebases (their verdicts within the rules).

An :class:`~draughts.EndgameRule` has conditions on the material (numbers of pieces, who has
kings, the stronger and the weaker side) and two on where the pieces stand: the weaker side's lone
king on the long diagonal (Russian "main road") and no shot in the air (Frisian art. 21).
"""

from __future__ import annotations

from draughts.color import Color
from draughts.position import Position
from draughts.rules import EndgameRule

__all__ = ["Side", "applies", "depends_on_placement", "material_applies", "weak_sides"]

Side = tuple[int, int]
"""One side's material as the rules write it: ``(kings, men)``."""


def material_applies(rule: EndgameRule, white: Side, black: Side) -> bool:
    """Whether the rule's conditions on the material hold (it may still depend on where the
    pieces stand: :func:`depends_on_placement`)."""
    return _weak_sides(rule, white, black) != ()


def depends_on_placement(rule: EndgameRule) -> bool:
    """Whether the rule looks at where the pieces stand, not only at the material."""
    return rule.no_shot or rule.weak_king_on_main_diagonal


def applies(rule: EndgameRule, position: Position) -> bool:
    """Whether the rule applies to ``position`` (its count aside)."""
    white, black = position.material(Color.WHITE), position.material(Color.BLACK)
    weak = _weak_sides(rule, white, black)
    if weak == () or (rule.no_shot and _shot_in_the_air(position)):
        return False
    if weak is None or not rule.weak_king_on_main_diagonal:
        return True
    return any(_lone_king_on_main_diagonal(position, color) for color in weak)


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


def _shot_in_the_air(position: Position) -> bool:
    """Whether the side to move can capture, or every move of it lets the opponent capture."""
    moves = position.legal_moves()
    if any(move.captured for move in moves):
        return True
    return bool(moves) and all(position.play(move).has_capture() for move in moves)


def _lone_king_on_main_diagonal(position: Position, color: Color) -> bool:
    kings = position.squares(color, kings=True)
    if len(kings) != 1:
        return False
    geometry = position.ruleset.geometry
    x, y = geometry.coords[kings[0]]
    # The long diagonal joins the two playable corners.
    return x == y if geometry.bottom_left_playable else x + y == geometry.size - 1
