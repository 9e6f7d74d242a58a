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

import math
from collections.abc import Iterable, Mapping
from typing import Protocol, runtime_checkable

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import DraughtsError, InvalidSquareError
from draughts.move import Move
from draughts.rules import Ruleset
from draughts.rules.geometry import Geometry


class _Piece(Protocol):
    @property
    def color(self) -> Color: ...
    @property
    def king(self) -> bool: ...


@runtime_checkable
class PositionLike(Protocol):
    """What the renderer reads of a position (a :class:`~draughts.Position` is one): its
    ruleset, its pieces by square, its FEN. Positions draw themselves with this module, so it
    names the shape it reads instead of importing them."""

    @property
    def ruleset(self) -> Ruleset: ...
    def pieces(self) -> Mapping[int, _Piece]: ...
    def fen(self) -> str: ...


@runtime_checkable
class BoardLike(Protocol):
    """What the renderer reads of a game (a :class:`~draughts.Board` is one): its current
    position and its last move."""

    @property
    def position(self) -> PositionLike: ...
    def peek(self) -> Move: ...
    def __len__(self) -> int: ...


__all__ = ["DEFAULT_COLORS", "BoardLike", "PositionLike", "board"]

DEFAULT_COLORS: Mapping[str, str] = {
    "light": "#f0d9b5",
    "dark": "#a1704a",
    "margin": "#3b2a1e",
    "coordinate": "#f0d9b5",
    "number": "#f8f3ea",
    "number_halo": "#3b2415",
    "white": "#fbf8f0",
    "white_edge": "#4a4a4a",
    "black": "#2a2a2a",
    "black_edge": "#0a0a0a",
    "crown": "#d4a017",
    "last_move": "#cdd26a",
    "highlight": "#5b9bd5",
    "arrow": "#1f7a3a",
}
"""The default colours; any of them can be replaced through ``colors=``."""

Square = int | str
"""A square number, or a name the ruleset parses (``"c3"``)."""


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities (what ``xml.sax.saxutils.escape`` does: that module
    imports ``urllib.request`` and so the network stack, which positions, importing this module,
    should not pay for)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, as ``xml.sax.saxutils.quoteattr`` writes it."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def number(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Frame:
    """Where each board coordinate lands in the picture."""

    def __init__(self, geometry: Geometry, size: float, coordinates: bool, flipped: bool) -> None:
        self.geometry = geometry
        self.margin = size * 0.05 if coordinates else 0.0
        # The longer side of a rectangle spans ``size``; the other is as long as its squares make it.
        self.square = (size - 2 * self.margin) / max(geometry.width, geometry.height)
        self.width = 2 * self.margin + self.square * geometry.width
        self.height = 2 * self.margin + self.square * geometry.height
        self.flipped = flipped

    def corner(self, x: int, y: int) -> tuple[float, float]:
        """Top-left corner of the square on file ``x``, rank ``y``."""
        column = self.geometry.width - 1 - x if self.flipped else x
        row = y if self.flipped else self.geometry.height - 1 - y
        return self.margin + column * self.square, self.margin + row * self.square

    def centre(self, square: int) -> tuple[float, float]:
        x, y = self.geometry.coords[square]
        left, top = self.corner(x, y)
        return left + self.square / 2, top + self.square / 2


def _colors(overrides: Mapping[str, str] | None) -> dict[str, str]:
    colors = dict(DEFAULT_COLORS)
    if overrides is None:
        return colors
    unknown = sorted(set(overrides) - set(colors))
    if unknown:
        raise DraughtsError(f"unknown colors {unknown}; known: {', '.join(DEFAULT_COLORS)}")
    for key, value in overrides.items():
        if not isinstance(value, str) or not value.strip():
            raise DraughtsError(f"color {key!r} = {value!r} must be a non-empty CSS colour text")
        colors[key] = value
    return colors


def _square(rules: Ruleset, square: Square, what: str) -> int:
    try:
        return rules.parse_square(square)
    except InvalidSquareError as error:
        raise InvalidSquareError(f"{what}: {error}") from None


def _move_squares(rules: Ruleset, move: Move | tuple[Square, Square], what: str) -> tuple[int, ...]:
    """The path of a Move or a ``(from, to)`` pair, as square numbers."""
    if isinstance(move, Move):
        return tuple(_square(rules, square, what) for square in move.path)
    if isinstance(move, tuple) and len(move) == 2:
        return tuple(_square(rules, square, what) for square in move)
    raise DraughtsError(f"{what} {move!r} must be a Move or a (from, to) pair of squares")


def _attrs(**values: object) -> str:
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        text = number(value) if isinstance(value, float) else str(value)
        parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return " ".join(parts)


def _crown(cx: float, cy: float, radius: float) -> str:
    """A five-point crown path centred on ``(cx, cy)``."""
    k = radius * 0.5
    points = [(-1.0, 0.55), (-1.1, -0.5), (-0.55, 0.0), (0.0, -0.75), (0.55, 0.0), (1.1, -0.5), (1.0, 0.55)]
    return "M " + " L ".join(f"{number(cx + k * px)} {number(cy + k * py)}" for px, py in points) + " Z"


def _arrow(frame: _Frame, path: tuple[int, ...], color: str, cls: str) -> str:
    """An arrow along ``path`` (square centres), its head at the last square."""
    points = [frame.centre(square) for square in path]
    width = frame.square * 0.14
    head = frame.square * 0.36
    tag = _attrs(class_=cls, data_from=path[0], data_to=path[-1])
    if len(points) < 2 or points[-1] == points[-2]:
        cx, cy = points[-1]
        ring = _attrs(cx=cx, cy=cy, r=frame.square * 0.42, fill="none", stroke=color, stroke_width=width)
        return f'<g {tag} opacity="0.8"><circle {ring}/></g>'
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * frame.square * 0.12, y1 - uy * frame.square * 0.12)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    line_points = [*points[:-1], base]
    line = _attrs(
        points=" ".join(f"{number(x)},{number(y)}" for x, y in line_points),
        fill="none",
        stroke=color,
        stroke_width=width,
        stroke_linecap="round",
        stroke_linejoin="round",
    )
    half = head * 0.55
    triangle = [tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half)]
    polygon = _attrs(points=" ".join(f"{number(x)},{number(y)}" for x, y in triangle), fill=color)
    return f'<g {tag} opacity="0.8"><polyline {line}/><polygon {polygon}/></g>'


def _squares(frame: _Frame, palette: Mapping[str, str]) -> list[str]:
    """The board cells, the playing ones dark and numbered in ``data-square``."""
    geometry, sq = frame.geometry, frame.square
    out = ['<g class="squares">']
    for y in range(geometry.height):
        for x in range(geometry.width):
            left, top = frame.corner(x, y)
            playable = geometry.is_playable(x, y)
            cell = _attrs(
                class_="square dark" if playable else "square light",
                data_square=geometry.square_at(x, y) if playable else None,
                x=left,
                y=top,
                width=sq,
                height=sq,
                fill=palette["dark" if playable else "light"],
            )
            out.append(f"<rect {cell}/>")
    out.append("</g>")
    return out


def _shade(frame: _Frame, square: int, cls: str, color: str) -> str:
    """A translucent square under the pieces (last move, highlight)."""
    sq = frame.square
    left, top = frame.corner(*frame.geometry.coords[square])
    shaded = _attrs(class_=cls, data_square=square, x=left, y=top, width=sq, height=sq, fill=color)
    return f'<rect {shaded} fill-opacity="0.6"/>'


def _shading(frame: _Frame, palette: Mapping[str, str], last: tuple[int, ...], highlighted: list[int]) -> list[str]:
    """The shading under the pieces: the last move (its ends, and its path if it jumped), then
    the highlighted squares."""
    out: list[str] = []
    if last:
        color = palette["last_move"]
        out.append('<g class="last-move-squares">')
        out.extend(_shade(frame, square, "last-move", color) for square in dict.fromkeys((last[0], last[-1])))
        if len(last) > 2:
            centres = " ".join(f"{number(cx)},{number(cy)}" for cx, cy in map(frame.centre, last))
            line = _attrs(
                class_="last-move-path",
                points=centres,
                fill="none",
                stroke=color,
                stroke_width=frame.square * 0.08,
                stroke_linejoin="round",
            )
            out.append(f"<polyline {line}/>")
        out.append("</g>")
    if highlighted:
        out.append('<g class="highlights">')
        out.extend(_shade(frame, square, "highlight", palette["highlight"]) for square in dict.fromkeys(highlighted))
        out.append("</g>")
    return out


def _pieces(frame: _Frame, palette: Mapping[str, str], position: PositionLike) -> list[str]:
    """The pieces: a man is a disc with a rim; a king adds a second ring and a crown."""
    rules = position.ruleset
    sq = frame.square
    out = ['<g class="pieces">']
    radius = sq * 0.4
    for square, piece in position.pieces().items():
        cx, cy = frame.centre(square)
        color = "white" if piece.color is Color.WHITE else "black"
        kind = "king" if piece.king else "man"
        fill, edge = palette[color], palette[f"{color}_edge"]
        group = _attrs(
            class_=f"piece {color} {kind}",
            data_square=square,
            data_name=rules.square_name(square),
            data_piece=f"{color}-{kind}",
        )
        disc = _attrs(cx=cx, cy=cy, r=radius, fill=fill, stroke=edge, stroke_width=sq * 0.03)
        rim_stroke = palette["white_edge"] if piece.color is Color.WHITE else palette["white"]
        rim = _attrs(cx=cx, cy=cy, r=radius * 0.72, fill="none", stroke=rim_stroke, stroke_width=sq * 0.02)
        parts = [f"<circle {disc}/>", f'<circle {rim} stroke-opacity="0.5"/>']
        if piece.king:
            ring = _attrs(
                class_="king-ring",
                cx=cx,
                cy=cy,
                r=radius * 0.86,
                fill="none",
                stroke=palette["crown"],
                stroke_width=sq * 0.035,
            )
            crown = _attrs(class_="crown", d=_crown(cx, cy, radius), fill=palette["crown"], stroke=edge)
            parts.extend([f"<circle {ring}/>", f'<path {crown} stroke-width="{number(sq * 0.015)}"/>'])
        out.append(f"<g {group}>{''.join(parts)}</g>")
    out.append("</g>")
    return out


def _square_numbers(frame: _Frame, palette: Mapping[str, str]) -> list[str]:
    """Square numbers above the pieces, light with a dark halo, so that they read on dark
    squares, white pieces and black pieces alike."""
    geometry, sq = frame.geometry, frame.square
    out = ['<g class="square-numbers">']
    font = sq * 0.22
    for square in range(1, geometry.squares + 1):
        left, top = frame.corner(*geometry.coords[square])
        text = _attrs(
            class_="square-number",
            data_square=square,
            x=left + sq * 0.06,
            y=top + sq * 0.06 + font * 0.8,
            font_size=font,
            font_family="sans-serif",
            fill=palette["number"],
            stroke=palette["number_halo"],
            stroke_width=font * 0.22,
            paint_order="stroke",
        )
        out.append(f"<text {text}>{square}</text>")
    out.append("</g>")
    return out


def _label(cls: str, x: float, y: float, font: float, palette: Mapping[str, str], text: str) -> str:
    """One file or rank label in the margin, centred on ``(x, y)``."""
    label = _attrs(
        class_=cls,
        x=x,
        y=y,
        font_size=font,
        font_family="sans-serif",
        fill=palette["coordinate"],
        text_anchor="middle",
        dominant_baseline="central",
    )
    return f"<text {label}>{text}</text>"


def _coordinates(frame: _Frame, palette: Mapping[str, str]) -> list[str]:
    """File letters along the top and bottom margins, rank numbers along the left and right."""
    sq = frame.square
    out = ['<g class="coordinates">']
    font = frame.margin * 0.6
    rows = (frame.margin * 0.5, frame.height - frame.margin * 0.5)
    columns = (frame.margin * 0.5, frame.width - frame.margin * 0.5)
    for x in range(frame.geometry.width):
        left, _ = frame.corner(x, 0)
        label = chr(ord("a") + x)
        out.extend(_label("coordinate file", left + sq / 2, edge_y, font, palette, label) for edge_y in rows)
    for y in range(frame.geometry.height):
        _, top = frame.corner(0, y)
        out.extend(_label("coordinate rank", edge_x, top + sq / 2, font, palette, str(y + 1)) for edge_x in columns)
    out.append("</g>")
    return out


def board(
    position_or_board: PositionLike | BoardLike,
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
        size: Width and height in pixels, margins included (of a rectangular board, its longer side;
            the other is as long as its squares make it).
        flipped: Draw the board from Black's side (Black at the bottom).
        coordinates: Label files (``a``...) and ranks (``1``...) in a margin around the board.
        square_numbers: Write each playing square's number, in the variant's numbering, in its
            corner.
        last_move: A Move (its whole path is drawn) or a ``(from, to)`` pair whose squares are
            shaded. With a Board, None means the board's last move.
        arrows: Moves or ``(from, to)`` pairs drawn as arrows.
        highlight: Squares (numbers or names) to shade.
        colors: Replacements for :data:`DEFAULT_COLORS` entries (CSS colour text).

    Every argument is checked before any drawing starts; the layers are then stacked bottom to
    top: margin, squares, shading, pieces, square numbers, arrows, coordinates.

    Raises:
        DraughtsError: not a Position or Board, a bad size, an unknown colour key, or a square
            that is not on the board (:class:`~draughts.InvalidSquareError`).
    """
    if isinstance(position_or_board, PositionLike):
        position: PositionLike = position_or_board
    elif isinstance(position_or_board, BoardLike):
        position = position_or_board.position
        if last_move is None and len(position_or_board):
            last_move = position_or_board.peek()
    else:
        raise DraughtsError(f"{position_or_board!r} is neither a Position nor a Board")
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 16 <= size <= 100_000:
        raise DraughtsError(f"size {excerpt(size)} must be a number of pixels from 16 to 100000")
    rules = position.ruleset
    palette = _colors(colors)
    frame = _Frame(rules.geometry, float(size), coordinates, flipped)
    last = _move_squares(rules, last_move, "last_move") if last_move is not None else ()
    arrow_paths = [_move_squares(rules, arrow, "arrow") for arrow in arrows]
    highlighted = [_square(rules, square, "highlight") for square in highlight]

    title = f"{rules.title} ({rules.name}): {position.fen()}"
    root = _attrs(
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {number(frame.width)} {number(frame.height)}",
        width=number(frame.width),
        height=number(frame.height),
        class_="draughts-board",
        data_variant=rules.name,
        data_flipped="true" if flipped else "false",
    )
    out = [f"<svg {root}>", f"<title>{escape(title)}</title>"]
    if coordinates:
        out.append(f"<rect {_attrs(x=0.0, y=0.0, width=frame.width, height=frame.height, fill=palette['margin'])}/>")
    out.extend(_squares(frame, palette))
    out.extend(_shading(frame, palette, last, highlighted))
    out.extend(_pieces(frame, palette, position))
    if square_numbers:
        out.extend(_square_numbers(frame, palette))
    if arrow_paths:
        out.append('<g class="arrows">')
        out.extend(_arrow(frame, path, palette["arrow"], "arrow") for path in arrow_paths)
        out.append("</g>")
    if coordinates:
        out.extend(_coordinates(frame, palette))
    out.append("</svg>")
    return "\n".join(out)
