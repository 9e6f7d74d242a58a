"""Pattern search: positions with given pieces on given squares, given material, a given side to move.

A :class:`Pattern` is written as text in the command line's ``--pattern``, ``--material`` and
``--turn`` (read with :meth:`Pattern.parse`): each word a symbol then squares, separated by commas,
in the variant's notation. ``w`` a white man, ``W`` a white king, ``b`` and ``B`` Black's, ``e`` an
empty square. Material counts the same symbols (``w12 b11 W0``: 12 white men, 11 black men, no
white king; a symbol not named is free).

>>> from draughts.db.pattern import Pattern
>>> import draughts
>>> pattern = Pattern.parse("international", "w28 e23", material="w20")
>>> pattern.matches(draughts.Position.initial("international").play(
...     draughts.Board("international").parse_text("32-28")))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import DraughtsError, PatternError
from draughts.move import Move
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["SYMBOLS", "Pattern"]

SYMBOLS = "wWbBe"
"""A white man, a white king, a black man, a black king, an empty square."""

_MATERIAL = {"w": (Color.WHITE, False), "W": (Color.WHITE, True), "b": (Color.BLACK, False), "B": (Color.BLACK, True)}


@attrs.frozen
class Pattern:
    """What a position must have to match: pieces (or emptiness) on squares, material, side to move.

    Attributes:
        ruleset: The rules whose games are searched.
        squares: ``{square number: symbol}`` (one of ``w``, ``W``, ``b``, ``B``, ``e``).
        material: ``{symbol: count}`` for ``w``, ``W``, ``b``, ``B``: exact counts.
        turn: The side to move, or None for either.
    """

    ruleset: Ruleset
    squares: Mapping[int, str] = attrs.field(factory=dict)
    material: Mapping[str, int] = attrs.field(factory=dict)
    turn: Color | None = None

    @classmethod
    def parse(
        cls, ruleset: Ruleset | str, pieces: str = "", *, material: str = "", turn: Color | str | None = None
    ) -> Pattern:
        """A pattern from its text (see the module's notes); ``turn`` ``"white"``/``"black"`` or a colour.

        Raises:
            ~draughts.errors.PatternError: a word that does not read, a square twice with two symbols.
        """
        rules = resolve_ruleset(ruleset)
        squares: dict[int, str] = {}
        for symbol, square in _words(rules, pieces, with_squares=True):
            if squares.setdefault(square, symbol) != symbol:
                raise PatternError(f"square {rules.square_name(square)} is both {squares[square]} and {symbol}")
        counts = {symbol: int(count) for symbol, count in _words(rules, material, with_squares=False)}
        return cls(rules, squares, counts, _turn(turn))

    def matches(self, position: Position) -> bool:
        """Whether ``position`` has everything the pattern asks for."""
        if self.turn is not None and position.turn is not self.turn:
            return False
        for square, symbol in self.squares.items():
            piece = position.piece_at(square)
            if (piece.symbol if piece is not None else "e") != symbol:
                return False
        for symbol, count in self.material.items():
            color, king = _MATERIAL[symbol]
            if position.material(color)[0 if king else 1] != count:
                return False
        return True

    def first_match(self, positions: Iterable[tuple[Position, Move | None]]) -> int | None:
        """The first ply (0: the start) whose position matches, or None."""
        for ply, (position, _) in enumerate(positions):
            if self.matches(position):
                return ply
        return None


def _turn(turn: Color | str | None) -> Color | None:
    if turn is None or isinstance(turn, Color):
        return turn
    named = {"white": Color.WHITE, "w": Color.WHITE, "black": Color.BLACK, "b": Color.BLACK}
    if turn.lower() not in named:
        raise PatternError(f"side to move {excerpt(turn)} must be white or black")
    return named[turn.lower()]


def _words(rules: Ruleset, text: str, *, with_squares: bool) -> Iterable[tuple[str, int]]:
    """``(symbol, square)`` for each square of each word (``with_squares``), else ``(symbol, count)``."""
    for word in text.replace(";", " ").split():
        symbol, rest = word[0], word[1:]
        allowed = SYMBOLS if with_squares else "wWbB"
        if symbol not in allowed or not rest:
            what = "pieces" if with_squares else "material"
            raise PatternError(
                f"{what} word {excerpt(word)}: a symbol ({', '.join(allowed)}) then "
                + ("squares separated by commas, e.g. w28,32" if with_squares else "a count, e.g. w12")
            )
        if not with_squares:
            if not rest.isdigit() or len(rest) > 4:
                raise PatternError(f"material word {excerpt(word)}: the count must be a whole number")
            yield symbol, int(rest)
            continue
        for item in rest.split(","):
            try:
                yield symbol, rules.parse_square(item)
            except DraughtsError as error:
                raise PatternError(f"pieces word {excerpt(word)}: {error}") from None
