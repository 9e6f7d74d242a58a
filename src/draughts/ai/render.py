"""Positions as RGB pictures (numpy arrays), for ``render_mode="rgb_array"`` and video recorders.

Drawn with numpy alone, in the colours of :data:`draughts.svg.DEFAULT_COLORS`, White at the
bottom: the playable squares are dark, men are discs, kings discs with a gold ring.

>>> import draughts
>>> from draughts.ai.render import rgb_array
>>> picture = rgb_array(draughts.Position.initial("italian"), cell=10)
>>> picture.shape, picture.dtype.name
((80, 80, 3), 'uint8')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.position import Position
from draughts.svg import DEFAULT_COLORS

__all__ = ["rgb_array"]


def _rgb(text: str) -> tuple[int, int, int]:
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


_LIGHT = _rgb(DEFAULT_COLORS["light"])
_DARK = _rgb(DEFAULT_COLORS["dark"])
_LAST = _rgb(DEFAULT_COLORS["last_move"])
_CROWN = _rgb(DEFAULT_COLORS["crown"])
_PIECE = {
    Color.WHITE: (_rgb(DEFAULT_COLORS["white"]), _rgb(DEFAULT_COLORS["white_edge"])),
    Color.BLACK: (_rgb(DEFAULT_COLORS["black"]), _rgb(DEFAULT_COLORS["black_edge"])),
}


def rgb_array(position: Position, *, cell: int = 32, last_move: Move | None = None) -> npt.NDArray[np.uint8]:
    """The position as an ``(size * cell, size * cell, 3)`` ``uint8`` picture, White at the bottom.

    Args:
        position: What to draw.
        cell: Pixels per square (at least 4).
        last_move: A move whose path squares are shaded.
    """
    if not isinstance(position, Position):
        raise TypeError(f"rgb_array needs a Position, not {excerpt(position)}")
    if isinstance(cell, bool) or not isinstance(cell, int) or cell < 4:
        raise DraughtsError(f"cell {excerpt(cell)} must be a whole number of pixels, at least 4")
    geo = position.ruleset.geometry
    image = np.empty((geo.height * cell, geo.width * cell, 3), dtype=np.uint8)
    image[:] = _LIGHT
    shaded = set(last_move.path) if last_move is not None else set()
    centre = (cell - 1) / 2
    yy, xx = np.mgrid[0:cell, 0:cell]
    distance = np.hypot(yy - centre, xx - centre)
    radius = cell * 0.4
    edge = distance <= radius
    body = distance <= radius - max(1.0, cell / 16)
    ring = (distance <= radius * 0.6) & (distance >= radius * 0.6 - max(1.5, cell / 12))
    pieces = position.pieces()
    for square in range(1, geo.squares + 1):
        x, y = geo.coords[square]
        top, left = (geo.height - 1 - y) * cell, x * cell
        tile = image[top : top + cell, left : left + cell]
        tile[:] = _LAST if square in shaded else _DARK
        piece = pieces.get(square)
        if piece is None:
            continue
        fill, outline = _PIECE[piece.color]
        tile[edge] = outline
        tile[body] = fill
        if piece.king:
            tile[ring] = _CROWN
    return image
