"""The shapes the library passes to the native move generator (type aliases only, no code).

A **node** is five ints ``(own, opp, kings, color, state)``: the pieces of the side to move and
of the other side, both sides' kings, the side to move (0 White, 1 Black) and the rule state
(:mod:`draughts._core.rulestate`). Squares are single bits in the layout of
:mod:`draughts._core.tables`.

A **move** for counting and playing is three xor masks ``(moved, captured, crowned)``
(:data:`Compact`): after it the mover's pieces are ``own ^ moved``, the opponent's
``opp ^ captured`` and the kings ``kings ^ crowned``.
"""

from __future__ import annotations

Node = tuple[int, int, int, int, int]
"""``(own, opp, kings, color, state)``: the side to move's pieces, the other side's, all kings, 0/1, rule state."""
Compact = tuple[int, int, int]
"""A move as three xor masks ``(moved, captured, crowned)``."""
