"""Colour symmetry: one table of each colour-swapped pair solved, the other made from it.

A material and its twin with the colours exchanged (``MKKvK`` and ``KvMKK``) hold the same game:
a position of one, with the colours exchanged, the board turned (:meth:`Geometry.rotate
<draughts.rules.geometry.Geometry.rotate>`, as :meth:`Position.mirror <draughts.Position.mirror>`
turns it) and the other side to move, is a position of the other with the same value, distance
and verdict within the rules for the side to move. So a build solves one of each pair and makes
the other by mapping its indices to the solved one's (native, a permutation, no search): of
Russian's 155 materials up to six pieces, 82 are solved.

Whether a ruleset allows it is derived from its fields (:func:`colour_symmetric`), never from its
name. Everything a :class:`~draughts.Ruleset` says about moves is written from the owner's side
(:class:`~draughts.rules.ruleset.Directions` "seen from its owner", the capture precedence, the
draw rules by stronger and weaker side), and ``first_to_move`` only names the materials; what can
treat the colours differently is the board: ``board_size``, ``board_squares`` and
``bottom_left_playable`` decide whether the turn maps the board onto itself and each side's
crowning row onto the other's, and an endgame draw rule with ``weak_king_on_main_diagonal``
needs the long diagonal to be its own image (it is under a 180° turn, not under the reflection a
board such as 8 x 9 turns by).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from draughts._core.tables import compile_rules
from draughts.endgame.material import Material
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from draughts.endgame.table import Table

__all__ = ["colour_symmetric", "mirrored", "mirrored_pairs", "turn_bits"]


def turn_bits(ruleset: Ruleset) -> list[int]:
    """Per bit of the generator's layout, the bit the colour swap's turn of the board sends it
    to (bits off the board stay where they are)."""
    tables = compile_rules(ruleset)
    turn = list(range(len(tables.square_of_bit)))
    geometry = ruleset.geometry
    for square in range(1, ruleset.squares + 1):
        turn[tables.bit_of_square[square]] = tables.bit_of_square[geometry.rotate(square)]
    return turn


def _turned(mask: int, turn: list[int]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << turn[low.bit_length() - 1]
        mask ^= low
    return out


def _long_diagonal(ruleset: Ruleset) -> int:
    """The bits of the long diagonal, joining the two playable corners (the draw rules' main road)."""
    tables = compile_rules(ruleset)
    geometry = ruleset.geometry
    mask = 0
    for square in range(1, ruleset.squares + 1):
        x, y = geometry.coords[square]
        if (x == y) if geometry.bottom_left_playable else (x + y == geometry.width - 1):
            mask |= 1 << tables.bit_of_square[square]
    return mask


def colour_symmetric(ruleset: Ruleset) -> bool:
    """Whether the colour swap maps every rule of ``ruleset`` onto itself (see the module
    docstring for the fields that decide it): the board's turn maps the board onto itself and
    White's crowning row onto Black's, and, where an endgame draw rule asks for a king on the
    long diagonal, the diagonal onto itself."""
    tables = compile_rules(ruleset)
    turn = turn_bits(ruleset)
    white_row, black_row = tables.crown_row
    if _turned(tables.board, turn) != tables.board or _turned(white_row, turn) != black_row:
        return False
    if any(rule.weak_king_on_main_diagonal for rule in ruleset.draw_rules.endgames):
        diagonal = _long_diagonal(ruleset)
        return _turned(diagonal, turn) == diagonal
    return True


def mirrored_pairs(
    ruleset: Ruleset, todo: Iterable[Material], built: Callable[[Material], bool]
) -> dict[Material, Material]:
    """The materials of ``todo`` to make from their twins, each with its twin: where the ruleset
    is colour-symmetric, of a pair both to build the larger (by :class:`Material`'s order) is
    made from the smaller, and a material whose twin is ``built`` already is made from it."""
    items = list(todo)
    if not colour_symmetric(ruleset):
        return {}
    wanted = set(items)
    out: dict[Material, Material] = {}
    for material in items:
        twin = material.mirrored()
        if twin == material:
            continue
        if (twin in wanted and twin < material) or (twin not in wanted and built(twin)):
            out[material] = twin
    return out


def mirrored(ruleset: Ruleset, material: Material, source: Table) -> tuple[bytes, bytes, bytes | None, int]:
    """The native mirror of ``source``'s values (its sections freed as soon as it returns)."""
    from draughts.endgame.solve import default_workers, native_solver

    codes, plies, within = source.sections()
    bits = source.header["plies_bits"]
    return native_solver(ruleset, material).mirror(codes, plies, bits, within, turn_bits(ruleset), default_workers())
