"""The move generator of a ruleset, as the library calls it: the native core's entry points.

A **node** is five ints ``(own, opp, kings, color, state)`` and a **move** for counting and
playing is three xor masks ``(moved, captured, crowned)`` (:mod:`draughts._core.types`). Every rule
is applied by the native core (``native/core``, the extension module ``draughts._native``): the
ruleset is compiled there once (:func:`draughts._core.native.native_rules`) and
:class:`MoveGenerator` holds the compiled rules' methods, so that a position, perft, the engine
and the endgame solver call the core with no Python layer in between.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from draughts._core.native import native_rules
from draughts._core.tables import Tables, compile_rules
from draughts._core.types import Compact, Node
from draughts._native import identity_index
from draughts.move import Move
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from draughts._native import Rules

__all__ = ["MoveGenerator", "abort_when", "build_move_generator", "move_index"]


class MoveGenerator(NamedTuple):
    """The move generator of one ruleset (build with :func:`build_move_generator`): the native
    compiled rules and their entry points, with the Python view of the tables beside them."""

    tables: Tables
    """The ruleset's bit layout and step tables as Python sees them (squares, crowning rows)."""
    native: Rules
    """The compiled rules of the native core (perft, rule state, the methods below)."""
    moves: Callable[[int, int, int, int, int], list[Compact]]
    """``moves(own, opp, kings, color, state)``: the legal moves as xor masks (captures first)."""
    paths: Callable[[int, int, int, int, int], list[Compact]]
    """The same, one per capture path (the perft "keep" convention)."""
    play: Callable[[int, int, int, int, int, Compact], Node]
    """``play(own, opp, kings, color, state, move)``: the node after ``move``, sides swapped."""
    count1: Callable[[int, int, int, int, int, bool], int]
    """``count1(own, opp, kings, color, state, paths)``: the number of legal moves (perft 1), in bulk."""
    count2: Callable[[int, int, int, int, int, bool], int]
    """``count2(...)``: the number of two-move sequences (perft 2), mostly in bulk."""
    legal: Callable[[int, int, int, int, int, bool], tuple[tuple[Move, ...], tuple[Compact, ...]]]
    """``legal(own, opp, kings, color, state, paths)``: the legal moves as :class:`~draughts.Move`
    objects in move order and the xor masks each is played with; with ``paths`` one per capture
    path, else one per move (its first path in square order). Each Move is made once per ruleset."""
    captures: Callable[..., list[Compact]]
    """``captures(own, opp, kings, color[, state])``: the legal captures as xor masks, empty if
    there is none (whether capturing is mandatory or not), for the engine's quiescence search."""
    can_capture: Callable[..., bool]
    """``can_capture(own, opp, kings, color[, state])``: whether ``captures`` is not empty."""


def build_move_generator(rules: Ruleset) -> MoveGenerator:
    """The move generator of ``rules`` (built once per compiled ruleset).

    Raises:
        InvalidRulesetError: the native core refuses the rules (a value beyond its limits).
    """
    return compile_rules(rules).derived(_build)


def _build(tables: Tables) -> MoveGenerator:
    native = native_rules(tables.rules)
    # In the order of MoveGenerator's fields after ``tables`` and ``native``.
    entry_points = (native.moves, native.paths, native.play_move, native.count1, native.count2)
    return MoveGenerator(tables, native, *entry_points, native.legal_moves, native.captures, native.can_capture)


def move_index(moves: tuple[object, ...], move: object) -> int:
    """Where ``move`` is in ``moves`` (a position's legal moves), or -1: by identity first (a move
    taken from the legal moves, the usual case: a native loop with no ``__eq__`` call), then by
    equality."""
    index = identity_index(moves, move)
    if index >= 0:
        return index
    for index, candidate in enumerate(moves):
        if candidate == move:
            return index
    return -1


@contextlib.contextmanager
def abort_when(hook: Callable[[], Any]) -> Iterator[None]:
    """Within the block, long capture searches of this thread call ``hook`` every few thousand
    states; ``hook`` raises to abandon the search (the exception reaches the caller of the
    generator, and nothing is left half-changed: a search builds only its own result)."""
    import draughts._native as native  # the extension module, loaded with the rules

    previous = native.swap_abort_hook(hook)
    try:
        yield
    finally:
        native.swap_abort_hook(previous)
