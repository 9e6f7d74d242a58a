"""The two sides of a draughts game."""

from __future__ import annotations

import enum

__all__ = ["BLACK", "WHITE", "Color"]


class Color(enum.IntEnum):
    """A side. White always sits at the bottom of the board as polydraughts draws it.

    In English/American checkers the dark side ("Black", or "Red" on many sets) starts;
    that is the ruleset's :attr:`~draughts.Ruleset.first_to_move`, not a change of frame.

    **One meaning: a Color is a side, not a number.** Compare sides with ``is`` (``turn is
    WHITE``). Two conversions exist, each for one purpose, and they do not agree with each other
    the way numbers would:

    * ``bool(color)`` asks "is it White?", as python-chess's ``if board.turn:`` does (there
      ``WHITE`` is ``True``); code ported from python-chess keeps working;
    * ``int(color)`` (or using it as an index) gives the side's index, White 0 and Black 1, for
      per-side tables (``crown_row[color]``) and the generator's nodes.

    So ``WHITE == 0`` (the index) and yet ``bool(WHITE)`` is True: ``Color`` is an ``IntEnum``
    for the index only, and arithmetic or truth tests on the index are never what a side means.
    Both behaviours stay as they are (users rely on each); neither is deprecated.

    >>> bool(WHITE), bool(BLACK), int(WHITE), int(BLACK)
    (True, False, 0, 1)
    >>> WHITE is Color(0), ("white", "black")[BLACK]
    (True, 'black')
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
