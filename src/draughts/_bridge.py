"""The library's internal interface to a position's bitboards and to the move generator.

A :class:`~draughts.Position` keeps its pieces as three bitboards (White's pieces, Black's, the
kings) in the bit layout of its ruleset's :class:`~draughts._core.tables.Tables`, plus the side to
move and the rule state (:mod:`draughts._core.state`); it keeps its legal moves, once listed,
beside the xor masks the generator plays them with. The public API gives squares, pieces and
:class:`~draughts.Move` objects. The library's own fast paths (the board's draw counters and
repetition test, perft, the engine, PDN replay, notation, the AI tensors) need the bitboards
and the generator's nodes instead: they get them here and only here, never through a
position's private attributes (``tests/project/test_repository.py`` checks it with an AST scan).

Nothing here checks its input: these are for positions the library built, on the hot paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from draughts._core import MoveGenerator, Tables
from draughts._core.state import Compact, Node
from draughts.color import Color
from draughts.move import Move
from draughts.rules import Ruleset

if TYPE_CHECKING:  # annotations only: positions import this module, not the other way
    from draughts.position import Position

__all__ = [
    "Compact",
    "Node",
    "child",
    "children",
    "generator_of",
    "is_king_on",
    "legal_moves",
    "make",
    "masks",
    "moves",
    "node",
    "path_moves",
    "tables_of",
]


def node(position: Position) -> Node:
    """The generator's node of ``position``: ``(own, opp, kings, color, state)``, side to move first."""
    return position._node()


def masks(position: Position) -> tuple[int, int, int]:
    """``(white, black, kings)``: the bitboards of ``position`` (in :func:`tables_of`'s bit layout)."""
    return position._white, position._black, position._kings


def generator_of(position: Position) -> MoveGenerator:
    """The move generator of ``position``'s ruleset (the one its moves come from)."""
    return position._gen


def tables_of(position: Position) -> Tables:
    """The compiled tables of ``position``'s ruleset (its bit layout, :meth:`Tables.derived
    <draughts._core.tables.Tables.derived>` for what a module makes once per ruleset)."""
    return position._gen.tables


# The three calls every ply makes (``push``, ``play``, a board's legal moves) are the position's own
# methods, bound here when positions register (below): a wrapper around each cost every ply a call.
legal_moves: Callable[[Position], tuple[Move, ...]]
"""``legal_moves(position)``: the legal moves of ``position`` in order (listed once per position)."""

moves: Callable[[Position], tuple[tuple[Move, ...], list[Compact]]]
"""``moves(position)``: the legal moves of ``position`` in order, and the xor masks each is played
with (listed once; the library reads the list, never changes it)."""

child: Callable[[Position, Compact], Position]
"""``child(position, compact)``: the position after the move whose xor masks are ``compact`` (one
of :data:`moves`' second list)."""


def children(position: Position, *, paths: bool) -> list[tuple[Move, Position]]:
    """Each legal move (each capture path with ``paths``) and the position after it, in move order."""
    return position._children(paths=paths)


def path_moves(position: Position) -> tuple[Move, ...]:
    """Each capture path as a move of its own (moves equal by identity may repeat), in move order."""
    return position._path_moves()


def is_king_on(position: Position, square: int) -> bool:
    """Whether a king stands on ``square`` (a valid square number: not checked)."""
    return bool(position._kings >> position._gen.tables.bit_of_square[square] & 1)


_position_class: type[Position]
"""The Position class, handed over by :mod:`draughts.position` when it is imported: positions
import this module, so this module cannot import them (that would close an import loop)."""


def register_position_class(cls: type[Position]) -> None:
    """Called once by :mod:`draughts.position`, right after it defines :class:`~draughts.Position`."""
    global _position_class, legal_moves, moves, child
    _position_class = cls
    legal_moves, moves, child = cls._legal_moves, cls._moves, cls._child


def make(rules: Ruleset, white: int, black: int, kings: int, turn: Color, state: int = 0) -> Position:
    """A position from bitboards the library built itself (already valid: not checked)."""
    return _position_class._make(rules, white, black, kings, turn, state)
