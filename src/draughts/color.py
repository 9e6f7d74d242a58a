"""The two sides of a draughts game."""

from __future__ import annotations

import enum


class Color(enum.IntEnum):
    """A side. White always sits at the bottom of the board as polydraughts draws it.

    In English/American checkers the dark side ("Black", or "Red" on many sets) starts;
    that is the ruleset's :attr:`~draughts.Ruleset.first_to_move`, not a change of frame.

    As in python-chess, **White is truthy and Black falsy**: ``if board.turn:`` means "if White is
    to move". As an int, White is 0 and Black 1 (``int(color)`` indexes per-side tables).

    >>> bool(WHITE), bool(BLACK), int(WHITE), int(BLACK)
    (True, False, 0, 1)
    """

    WHITE = 0
    BLACK = 1

    def __bool__(self) -> bool:
        return self is Color.WHITE

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @property
    def letter(self) -> str:
        """``"W"`` or ``"B"``, as FEN and PDN write the side."""
        return "W" if self is Color.WHITE else "B"

    def __str__(self) -> str:
        return self.name.lower()


WHITE = Color.WHITE
BLACK = Color.BLACK
