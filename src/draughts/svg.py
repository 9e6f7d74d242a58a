"""SVG pictures of positions, each variant drawn the way its players see it.

:func:`board` returns a standalone ``<svg>`` document (no external resources, no scripts) that a
browser, a notebook or a document can show as it is; :class:`~draughts.Position` and
:class:`~draughts.Board` use it for Jupyter's ``_repr_svg_``.

The picture follows the ruleset's geometry: the playing squares are the dark ones, so the
inverted Italian and Spanish boards have a light square in each player's near-left corner;
square numbers (``square_numbers=True``) sit on the squares the variant's numbering gives them;
files and ranks are labelled on the edges. White is at the bottom unless ``flipped``.

Everything a program may want to find carries a class and data attributes, so an SVG is easy
to test or style:

* ``<rect class="square dark" data-square="23">`` (light squares: ``class="square light"``);
* ``<g class="piece white king" data-square="23" data-piece="white-king">`` (``man`` or ``king``,
  ``white`` or ``black``; ``data-piece`` is one of ``white-man``, ``white-king``, ``black-man``,
  ``black-king``); kings carry a ``<path class="crown">`` and a second ring, men do not;
* ``<text class="square-number" data-square="23">``, ``<text class="coordinate file">`` /
  ``"coordinate rank"``;
* ``<rect class="last-move" data-square>``, ``<rect class="highlight" data-square>``,
  ``<g class="arrow" data-from data-to>``.

>>> import draughts, draughts.svg
>>> svg = draughts.svg.board(draughts.Position.initial("italian"), size=240)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.count('class="piece ')
(True, 24)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from draughts import _drawing
from draughts._drawing import Square, draw
from draughts.board import Board
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.position import Position

__all__ = ["DEFAULT_COLORS", "board"]

DEFAULT_COLORS: Mapping[str, str] = _drawing.DEFAULT_COLORS
"""The default colours; any of them can be replaced through ``colors=``."""


def board(
    position_or_board: Position | Board,
    *,
    size: float = 400,
    flipped: bool = False,
    coordinates: bool = True,
    square_numbers: bool = False,
    last_move: Move | tuple[Square, Square] | None = None,
    arrows: Iterable[Move | tuple[Square, Square]] = (),
    highlight: Iterable[Square] = (),
    colors: Mapping[str, str] | None = None,
) -> str:
    """The position as a standalone SVG document.

    Args:
        position_or_board: A :class:`~draughts.Position`, or a :class:`~draughts.Board` (its
            current position, and its last move unless ``last_move`` is given).
        size: Width and height in pixels, margins included.
        flipped: Draw the board from Black's side (Black at the bottom).
        coordinates: Label files (``a``...) and ranks (``1``...) in a margin around the board.
        square_numbers: Write each playing square's number, in the variant's numbering, in its
            corner.
        last_move: A Move (its whole path is drawn) or a ``(from, to)`` pair whose squares are
            shaded. With a Board, None means the board's last move.
        arrows: Moves or ``(from, to)`` pairs drawn as arrows.
        highlight: Squares (numbers or names) to shade.
        colors: Replacements for :data:`DEFAULT_COLORS` entries (CSS colour text).

    Raises:
        DraughtsError: not a Position or Board, a bad size, an unknown colour key, or a square
            that is not on the board (:class:`~draughts.InvalidSquareError`).
    """
    if isinstance(position_or_board, Board):
        position = position_or_board.position
        if last_move is None and len(position_or_board):
            last_move = position_or_board.peek()
    elif isinstance(position_or_board, Position):
        position = position_or_board
    else:
        raise DraughtsError(f"{position_or_board!r} is neither a Position nor a Board")
    return draw(
        position,
        size=size,
        flipped=flipped,
        coordinates=coordinates,
        square_numbers=square_numbers,
        last_move=last_move,
        arrows=arrows,
        highlight=highlight,
        colors=colors,
    )
