"""The verdicts within the rules: what the move-count and endgame draw rules do to exact play.

A game under those rules is drawn once a count reaches its limit (:meth:`draughts.Board.outcome`:
a player with no move has lost first). Inside one material two counts matter, both restarted by
the capture or crowning that leaves it (and made the material):

* ``e``, plies since the material arose: the endgame rules count it, and so do move-count rules
  that a man's move does not restart (Italian's);
* ``k``, plies since a man last moved: the move-count rules a man's move restarts (the 25-move
  rule). Without men on the board it is ``e``.

The verdict asked for is the one with both counts at 0. It is exact, by the same retrograde
spreading as the pure values (:mod:`draughts.endgame.solve`), over *budgets* instead of distances:
the budget of a won (lost) position is the largest count at which it is still won (lost). A won
position's budget is its limit less one, or a lost child's budget less one (a ply passes), the
larger over its moves; a lost position's is the smaller over its moves, every move reaching a won
child. A capture or crowning restarts the counts: its child's verdict within the rules decides,
at any budget. Budgets are taken largest first, so the first a position is given is its own.

Which count is the budget depends on the material (:class:`Plan`):

* ``"ply"``: one count, ``e`` (no men; or men, but the ``k`` limit can never be reached before the
  ``e`` limit; or no rule counts men's moves). Limits may differ from position to position (the
  Russian main road, Frisian's shot in the air).
* ``"men"``: ``k`` alone (no rule counts ``e`` here): a man's move restarts the budget. Men only
  move forward, so positions are taken by how far their men have come, furthest first: a man's
  move always reaches a position already decided.
* ``"both"``: each position is taken once per value of ``k`` (``e`` is the budget): exact, and
  that many times the work.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from draughts import drawrules
from draughts._core.tables import VECTORS, compile_rules
from draughts.color import Color
from draughts.endgame.material import Material
from draughts.position import Position
from draughts.rules import EndgameRule, Ruleset

if TYPE_CHECKING:
    from draughts.endgame.index import Indexer

__all__ = [
    "EXIT_DRAWS",
    "EXIT_WINS",
    "INF",
    "NO_MOVE_LOST",
    "NO_MOVE_WON",
    "Plan",
    "known",
    "men_advance",
    "native_plan",
    "plan_of",
]

INF = 0x7FFF
"""A budget no count limits (the largest value of the signed 2-byte arrays budgets live in)."""

EXIT_WINS, EXIT_DRAWS, NO_MOVE_LOST, NO_MOVE_WON = 1, 2, 4, 8
"""Per position, what its moves out of the material and the end of the game say (bits)."""


@attrs.frozen
class Plan:
    """How the draw rules count in one material (limits in plies; :data:`INF`: none).

    Attributes:
        counts: ``"ply"``, ``"men"`` or ``"both"`` (see the module's text).
        count_limit: The limit of ``k`` (plies since a man moved): its budget is ``count_limit - 1``.
        material_limit: The limit of ``e`` wherever the pieces stand.
        placement: The endgame rules of this material that depend on where the pieces stand, with
            their limits (only those shorter than ``material_limit``).
    """

    counts: str
    count_limit: int
    material_limit: int
    placement: tuple[tuple[int, EndgameRule], ...]

    def cap(self, ruleset: Ruleset, white: int, black: int, kings: int, turn: int) -> int:
        """The largest ``e`` budget of a position: its ``e`` limit less one (-1: drawn at once)."""
        limit = self.material_limit
        if self.placement:
            position = Position.from_bitboards(ruleset, white, black, kings, Color(turn))
            for plies, rule in self.placement:
                if plies < limit and drawrules.applies(rule, position):
                    limit = plies
        return INF if limit == INF else limit - 1


def known(ruleset: Ruleset) -> bool:
    """Whether verdicts within the rules can be given: every count restarts when a capture or a
    crowning leaves a material (else a smaller material's verdict would depend on the count it
    is entered with, which its table does not hold)."""
    return all(
        rule.reset_by_capture and (rule.reset_by_man_move or rule.reset_by_promotion)
        for rule in ruleset.draw_rules.move_counts
    )


def has_draw_rules(ruleset: Ruleset) -> bool:
    """Whether the ruleset has move-count or endgame draw rules (repetition aside)."""
    return bool(ruleset.draw_rules.move_counts or ruleset.draw_rules.endgames)


def keeps_within(ruleset: Ruleset) -> bool:
    """Whether a table of ``ruleset`` carries the verdicts within the rules: it has draw rules,
    and the solve knows them all (:func:`known`)."""
    return has_draw_rules(ruleset) and known(ruleset)


def plan_of(ruleset: Ruleset, material: Material) -> Plan:
    """How the draw rules count in ``material`` (for rulesets :func:`known` accepts)."""
    draws = ruleset.draw_rules
    count = min((2 * rule.moves for rule in draws.move_counts if rule.reset_by_man_move), default=INF)
    fixed = min((2 * rule.moves for rule in draws.move_counts if not rule.reset_by_man_move), default=INF)
    white_men, black_men, white_kings, black_kings = material.counts(ruleset)
    white, black = (white_kings, white_men), (black_kings, black_men)  # the rules write (kings, men)
    placement = []
    for rule in draws.endgames:
        if drawrules.material_applies(rule, white, black):
            if drawrules.depends_on_placement(rule):
                placement.append((2 * rule.moves, rule))
            else:
                fixed = min(fixed, 2 * rule.moves)
    if not white_men + black_men:
        fixed, count = min(fixed, count), INF  # no man can move: k is e
    elif fixed <= count:
        count = INF  # every e limit comes first (k <= e)
    shorter = tuple((plies, rule) for plies, rule in placement if plies < fixed)
    if count == INF:
        counts = "ply"
    elif fixed == INF and not shorter and _men_only_advance(ruleset):
        counts = "men"
    else:
        counts = "both"
    return Plan(counts, count, fixed, shorter)


def _men_only_advance(rules: Ruleset) -> bool:
    """Whether every quiet move of a man takes it a row further (none sideways or back)."""
    tables = compile_rules(rules)
    return all(
        VECTORS[direction][1] * (1 if color == 0 else -1) > 0
        for color in (0, 1)
        for direction, _, _ in tables.man_moves[color]
    )


def men_advance(ruleset: Ruleset) -> tuple[list[int], list[int]] | None:
    """Per colour and bit of the generator's layout, how far a man there has come (rows from its
    own side), where every quiet move of a man takes it a row further; None where a man may move
    sideways or back (then no order of the men's placements is safe to solve in)."""
    if not _men_only_advance(ruleset):
        return None
    tables = compile_rules(ruleset)
    top = ruleset.height - 1
    rows = [ruleset.geometry.coords[square][1] if square else 0 for square in tables.square_of_bit]
    return rows, [top - row for row in rows]


def native_plan(ruleset: Ruleset, material: Material, indexer: Indexer) -> dict[str, Any]:
    """The plan of ``material`` as the native solver takes it (``draughts._native.Endgame.solve``):
    the counts, the ``k`` limit, the cap where no rule looks at the placement, and the rules
    that do (:func:`draughts.drawrules.applies` with its conditions on the material already
    decided here: the weaker sides it may take, whether it needs a lone king of one of them on
    the long diagonal, whether a shot in the air stops it), so that each position's cap is
    computed in the native walk; for ``"men"`` plans, how far a man on each bit has come."""
    plan = plan_of(ruleset, material)
    uniform = plan.count_limit if plan.counts == "men" else plan.material_limit
    tables = compile_rules(ruleset)
    geometry = ruleset.geometry
    advance = men_advance(ruleset) if plan.counts == "men" else None
    white_men, black_men, white_kings, black_kings = material.counts(ruleset)
    placement = []
    for plies, rule in plan.placement:
        weak = drawrules.weak_sides(rule, (white_kings, white_men), (black_kings, black_men))
        if weak == ():
            continue  # the material does not match: never applies
        colors = None if weak is None else [int(color) for color in weak]
        placement.append((plies, colors, rule.weak_king_on_main_diagonal, rule.no_shot))
    width, corners = geometry.width, geometry.bottom_left_playable
    diagonal = []  # the long diagonal, joining the two playable corners (drawrules' main road)
    for square in range(1, ruleset.squares + 1):
        x, y = geometry.coords[square]
        if (x == y) if corners else (x + y == width - 1):
            diagonal.append(tables.bit_of_square[square])
    return {
        "counts": plan.counts,
        "count_limit": plan.count_limit,
        "caps": INF if uniform == INF else uniform - 1,
        "advance": advance,
        "placement": placement,
        "material_limit": plan.material_limit,
        "diagonal": diagonal,
    }
