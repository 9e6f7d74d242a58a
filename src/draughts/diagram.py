"""Text diagrams of positions for terminals and doctests.

Positions draw themselves with this module (``str(position)``), so it reads them through a
protocol, the shape it reads, instead of importing them (as :mod:`draughts.svg` does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from draughts.rules import Ruleset

__all__ = ["text_diagram"]


class _Piece(Protocol):
    @property
    def symbol(self) -> str: ...


class _Drawable(Protocol):
    """What a text diagram reads of a position (a :class:`~draughts.Position` is one)."""

    @property
    def ruleset(self) -> Ruleset: ...
    def pieces(self) -> Mapping[int, _Piece]: ...


def text_diagram(position: _Drawable, *, numbers: bool = False, flipped: bool = False) -> str:
    """The board as text, White at the bottom (Black with ``flipped``).

    Men are ``w``/``b``, kings ``W``/``B``, empty playing squares ``.``; files and ranks are
    labelled. With ``numbers`` each playing square also shows its number, occupied or not
    (``w32``, ``.28``), so a player can read the square of every piece.

    >>> import draughts
    >>> print(text_diagram(draughts.Position.from_fen("american", "W:W21,K30:B9")))
      +-----------------+
    8 |   .   .   .   . |
    7 | .   .   .   .   |
    6 |   b   .   .   . |
    5 | .   .   .   .   |
    4 |   .   .   .   . |
    3 | w   .   .   .   |
    2 |   .   .   .   . |
    1 | .   W   .   .   |
      +-----------------+
        a b c d e f g h
    """
    geometry = position.ruleset.geometry
    pieces = position.pieces()
    digits = len(str(geometry.squares))
    width = digits + 1 if numbers else 1
    rows = range(geometry.height) if flipped else range(geometry.height - 1, -1, -1)
    files = range(geometry.width - 1, -1, -1) if flipped else range(geometry.width)
    label_width = len(str(geometry.height))
    border = " " * label_width + " +" + "-" * ((width + 1) * geometry.width + 1) + "+"
    lines = [border]
    for y in rows:
        cells = []
        for x in files:
            if not geometry.is_playable(x, y):
                cells.append(" " * width)
                continue
            square = geometry.square_at(x, y)
            piece = pieces.get(square)
            symbol = "." if piece is None else piece.symbol
            cells.append(symbol + str(square).rjust(digits) if numbers else symbol)
        lines.append(f"{y + 1:>{label_width}} | {' '.join(cells)} |")
    lines.append(border)
    file_labels = " ".join(chr(ord("a") + x).rjust(width) for x in files)
    lines.append(" " * (label_width + 3) + file_labels)
    return "\n".join(lines)
