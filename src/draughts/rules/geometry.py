"""Board geometry: playable squares, numbering schemes and square names.

Coordinates are ``(x, y)`` with ``x`` the file (0 = a, White's left) and ``y`` the rank
(0 = White's back row), always seen from White. A board is ``width`` files by ``height`` ranks
(equal on the square boards of most variants; 10 x 8 for Spantsiretti's 80-square game). On a
board of dark squares a square is playable when ``x + y`` has the parity that makes the
bottom-left corner playable, or the other parity for the inverted boards of Italian and Spanish;
on a board that uses every square (Turkish draughts) all ``width * height`` squares are playable.
A board of dark squares has an even width, so every rank holds ``width / 2`` squares and the two
sides set up the same number of men; its height may be odd (dctl's 10 x 11).

Squares are numbered 1..N in the variant's scheme (:class:`Numbering`): square 1 sits in one
corner as seen from White and rows are read horizontally away from it. PDN calls these N1/N2
from the starting player's side; :meth:`Geometry.pdn_corner` converts. How the move generator lays
the squares out in bits is its own business (``draughts._core``), not part of this module.
"""

from __future__ import annotations

import enum
import functools
import re
from typing import Any

import attrs

from draughts import _caches
from draughts._text import excerpt, number
from draughts.errors import InvalidRulesetError, InvalidSquareError

__all__ = [
    "LARGEST_BOARD",
    "LAST_SQUARE",
    "BoardSquares",
    "Geometry",
    "Numbering",
    "SquareNames",
    "board_shape",
    "check_size",
    "geometry",
    "stored_size",
]


class Numbering(enum.Enum):
    """Where square 1 sits, seen from White; rows are read horizontally away from that corner."""

    TOP_LEFT = "top-left"
    """1 = the first playable square of the far row, left to right (PDN N2 for International,
    Italian; English "N1 from Black" is the same)."""
    TOP_RIGHT = "top-right"
    """1 = the last playable square of the far row, read right to left."""
    BOTTOM_LEFT = "bottom-left"
    """1 = White's near-left playable square, read left to right, bottom to top."""
    BOTTOM_RIGHT = "bottom-right"
    """1 = White's near-right playable square, read right to left, bottom to top (Spanish N1)."""


class BoardSquares(enum.Enum):
    """Which squares of the board are played on."""

    DARK = "the dark squares"
    """Half the squares, in a chequer pattern (every variant but the Turkish family)."""
    ALL = "every square"
    """All ``width * height`` squares (Turkish and Armenian draughts)."""


class SquareNames(enum.Enum):
    """How players write squares."""

    NUMERIC = "numeric"
    """Square numbers in the variant's :class:`Numbering` (``"32"``)."""
    ALGEBRAIC = "algebraic"
    """File letter and rank number, ``a1`` at White's near-left corner (``"c3"``)."""


LARGEST_BOARD = 26
"""The most squares per side of a board: algebraic names give each file a letter, a to z."""

LAST_SQUARE = LARGEST_BOARD * LARGEST_BOARD
"""The highest square number of any board (26x26, every square played): a bound for checking input."""

_ALGEBRAIC = re.compile(r"([a-z])([1-9][0-9]?)")
_PDN_CORNER = {
    Numbering.BOTTOM_LEFT: 0,
    Numbering.BOTTOM_RIGHT: 1,
    Numbering.TOP_LEFT: 2,
    Numbering.TOP_RIGHT: 3,
}
_ROTATED = {
    Numbering.BOTTOM_LEFT: Numbering.TOP_RIGHT,
    Numbering.TOP_RIGHT: Numbering.BOTTOM_LEFT,
    Numbering.BOTTOM_RIGHT: Numbering.TOP_LEFT,
    Numbering.TOP_LEFT: Numbering.BOTTOM_RIGHT,
}


@attrs.frozen
class Geometry:
    """The squares of one board shape and numbering, with every conversion precomputed.

    Build one with :func:`geometry` (cached); rulesets expose theirs as ``ruleset.geometry``.
    """

    width: int
    height: int
    bottom_left_playable: bool
    numbering: Numbering
    square_names: SquareNames
    board_squares: BoardSquares
    #: ``coords[sq]`` = (x, y) of square ``sq`` (index 0 unused).
    coords: tuple[tuple[int, int], ...] = attrs.field(repr=False)
    names: tuple[str, ...] = attrs.field(repr=False)
    _by_name: dict[str, int] = attrs.field(repr=False, eq=False)
    _by_coords: dict[tuple[int, int], int] = attrs.field(repr=False, eq=False)

    @property
    def size(self) -> int:
        """Squares per side of a square board (code written for square boards reads this).

        Raises:
            InvalidSquareError: the board is a rectangle (read ``width`` and ``height``).
        """
        if self.width != self.height:
            raise InvalidSquareError(f"the {self.shape} board is not square: read its width and height")
        return self.width

    @property
    def shape(self) -> str:
        """``"10x8"``: width by height, as players and PDN's GameType write it."""
        return f"{self.width}x{self.height}"

    @property
    def squares(self) -> int:
        """Number of playable squares."""
        return len(self.coords) - 1

    @property
    def parity(self) -> int:
        """Parity of ``x + y`` on playable squares of a dark-squares board."""
        return 0 if self.bottom_left_playable else 1

    def is_playable(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is on the board and playable."""
        return (x, y) in self._by_coords

    def square_at(self, x: int, y: int) -> int:
        """Square number at ``(x, y)``; :class:`InvalidSquareError` if not playable."""
        square = self._by_coords.get((x, y))
        if square is None:
            raise InvalidSquareError(f"({x}, {y}) is not a playable square of the {self.shape} board")
        return square

    def check(self, square: int) -> int:
        """Return ``square`` if it is a square number of this board, else raise."""
        if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= self.squares:
            raise InvalidSquareError(f"square {excerpt(square)} is not on the board (expected 1..{self.squares})")
        return square

    def name(self, square: int) -> str:
        """The text a player writes for ``square`` (``"32"`` or ``"c3"``)."""
        self.check(square)
        if self.square_names is SquareNames.ALGEBRAIC:
            return self.algebraic(square)
        return str(square)

    def algebraic(self, square: int) -> str:
        """The algebraic name of ``square`` (``a1`` = White's near-left corner)."""
        return self.names[self.check(square)]

    def parse(self, text: str | int) -> int:
        """Square number from a number (``"29"``, ``29``) or an algebraic name (``"a1"``).

        Numbers are accepted in every variant, names on every board, leading zeros and
        surrounding spaces are tolerated as real game files have them.
        """
        if isinstance(text, int) and not isinstance(text, bool):
            return self.check(text)
        if not isinstance(text, str):
            raise InvalidSquareError(f"square {excerpt(text)} is neither a number nor a name")
        cleaned = text.strip().lower()
        if cleaned.isascii() and cleaned.isdigit():
            value = number(cleaned)
            if value is not None and 1 <= value <= self.squares:
                return value
            raise InvalidSquareError(f"square {excerpt(text)} is not on the board (expected 1..{self.squares})")
        if _ALGEBRAIC.fullmatch(cleaned):
            square = self._by_name.get(cleaned)
            if square is None:
                raise InvalidSquareError(f"square {text!r} is not a playable square of the {self.shape} board")
            return square
        raise InvalidSquareError(f"square {excerpt(text)} is neither a number nor an algebraic name like 'c3'")

    def rotate(self, square: int) -> int:
        """The square colour mirroring puts ``square`` on: a 180° turn of the board, or on a board
        of dark squares whose turn would land on light squares (an even width by an odd height, as
        10 x 11) the reflection across the middle rank, which the rules' left-right symmetry makes
        equivalent."""
        x, y = self.coords[self.check(square)]
        turned = (self.width - 1 - x, self.height - 1 - y)
        if turned in self._by_coords:
            return self._by_coords[turned]
        return self.square_at(x, self.height - 1 - y)

    def pdn_corner(self, first_to_move_is_white: bool) -> int:
        """PDN GameType corner digit (0 bottom-left, 1 bottom-right, 2 top-left, 3 top-right).

        PDN reads the corner from the starting player's side, so a Black-first game turns it.
        """
        numbering = self.numbering if first_to_move_is_white else _ROTATED[self.numbering]
        return _PDN_CORNER[numbering]


def _ordered_coords(width: int, height: int, parity: int | None, numbering: Numbering) -> list[tuple[int, int]]:
    top = numbering in (Numbering.TOP_LEFT, Numbering.TOP_RIGHT)
    left = numbering in (Numbering.TOP_LEFT, Numbering.BOTTOM_LEFT)
    rows = range(height - 1, -1, -1) if top else range(height)
    files = list(range(width)) if left else list(range(width - 1, -1, -1))
    return [(x, y) for y in rows for x in files if parity is None or (x + y) % 2 == parity]


def _side(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 4 <= value <= LARGEST_BOARD


def stored_size(value: Any) -> int | tuple[int, int]:
    """A board size as a :class:`~draughts.Ruleset` stores it: a ``[width, height]`` list (rule
    files) as a tuple, a square pair as its side (``(10, 10)`` and ``10`` make equal rulesets),
    anything else as it is, for :func:`board_shape` to quote."""
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(value, tuple) and len(value) == 2 and value[0] == value[1] and type(value[0]) is int:
        return int(value[0])
    return value  # type: ignore[no-any-return]


def check_size(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    """The validator of ``Ruleset.board_size``: attrs runs it
    once every field is set, so the ruleset's ``board_squares`` decides whether an odd width is
    allowed.

    Raises:
        InvalidRulesetError: not a board :func:`board_shape` accepts, quoting it.
    """
    try:
        board_shape(value, getattr(instance, "board_squares", None), "board_size")
    except InvalidSquareError as error:
        raise InvalidRulesetError(str(error)) from None


def board_shape(size: object, board_squares: object = BoardSquares.DARK, what: str = "board size") -> tuple[int, int]:
    """``(width, height)`` of a board size: a number (a square board) or a ``(width, height)`` pair.

    Each side is from 4 to :data:`LARGEST_BOARD` squares (algebraic names give every file a letter);
    a board of dark squares has an even width (see the module) and, if square, an even side.

    Raises:
        InvalidSquareError: anything else, quoting it (``what`` names it).
    """
    if isinstance(size, (tuple, list)) and len(size) == 2 and all(_side(side) for side in size):
        width, height = size
        if board_squares is BoardSquares.ALL or width % 2 == 0:
            return width, height
        raise InvalidSquareError(
            f"{what} {excerpt(size)}: a board of dark squares needs an even width "
            "(on an odd one the two sides would set up different numbers of men)"
        )
    if _side(size) and isinstance(size, int) and size % 2 == 0:
        return size, size
    pair = "" if isinstance(size, int) else f" or a (width, height) pair of numbers from 4 to {LARGEST_BOARD}"
    raise InvalidSquareError(f"{what} {excerpt(size)} must be an even number from 4 to {LARGEST_BOARD}{pair}")


@functools.lru_cache(maxsize=_caches.GEOMETRIES)
def geometry(
    size: int | tuple[int, int],
    bottom_left_playable: bool = True,
    numbering: Numbering = Numbering.TOP_LEFT,
    square_names: SquareNames = SquareNames.NUMERIC,
    board_squares: BoardSquares = BoardSquares.DARK,
) -> Geometry:
    """The (cached) :class:`Geometry` of a board of ``size`` (a side, or ``(width, height)``)."""
    width, height = board_shape(size, board_squares)
    parity = None if board_squares is BoardSquares.ALL else (0 if bottom_left_playable else 1)
    ordered = _ordered_coords(width, height, parity, numbering)
    names = [""] + [f"{chr(ord('a') + x)}{y + 1}" for x, y in ordered]
    return Geometry(
        width=width,
        height=height,
        bottom_left_playable=bottom_left_playable,
        numbering=numbering,
        square_names=square_names,
        board_squares=board_squares,
        coords=((-1, -1), *ordered),
        names=tuple(names),
        by_name={name: square for square, name in enumerate(names) if square},
        by_coords={coords: square for square, coords in enumerate(ordered, 1)},
    )
