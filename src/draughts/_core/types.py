"""The shapes the move generator's pieces pass to each other (type aliases only, no code).

A **node** is five ints ``(own, opp, kings, color, state)``: the pieces of the side to move and
of the other side, both sides' kings, the side to move (0 White, 1 Black) and the rule state
(:mod:`draughts._core.state`, which names these two shapes). Squares are single bits in the layout of
:mod:`draughts._core.tables`.

A **move** for counting and playing is three xor masks ``(moved, captured, crowned)``
(:data:`Compact`): after it the mover's pieces are ``own ^ moved``, the opponent's
``opp ^ captured`` and the kings ``kings ^ crowned``.

Kept apart from the pieces so that each imports the shapes and none imports another for them (the
capture search, the resolver and the generator used to import each other for them).
"""

from __future__ import annotations

from collections.abc import Callable

from draughts._core.state import Compact as Compact
from draughts._core.state import Node as Node
from draughts.move import Move

RawCapture = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]
"""A capture as the search finds it: ``(start, end, captured, promotes, order, path)`` (single bits;
``order`` the captured bits in capture order and ``path`` the landing bits PDN 3.0 restriction 9
names, both empty unless recorded)."""

CaptureSearch = Callable[[int, int, int, int, int, int, bool, bool], list[RawCapture]]
"""``search(color, men, kings, opponents, opponent_kings, empty, record, every_path)``: the capture
paths; every one of them, or (``every_path`` False) at least one of each move, which lets the search
prune routes that reach the same state twice."""

PublicQuiet = tuple[int, Move, Compact]
"""A quiet move for the public API: a rank by start and end square, the Move, its xor masks."""
QuietMoves = tuple[list[Move], list[Compact]]
"""Moves for the public API, in move order: the Moves, and the xor masks of each."""
PublicEntry = tuple[tuple[int, int, tuple[int, ...]], Move, Compact]
"""A move for the public API with its sort key (start, end, path squares) and its xor masks."""
QuietChunk = tuple[tuple[Move, ...], tuple[Compact, ...], tuple[int, ...]]
"""The steps of the men of one chunk of rows, in move order: Moves, xor masks and ranks."""
