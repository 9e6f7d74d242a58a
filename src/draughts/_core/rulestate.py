"""Rule state as positions, FEN and users see it: whether a ruleset keeps one, its FEN field,
the king-move counts by square.

A node's ``state`` (:mod:`draughts._core.types`) is the rule state a ruleset keeps in positions
beyond the pieces and the side to move, ``0`` where it keeps none. Its bit layout, its update after
a move and what it forbids belong to the native core (``native/core/src/state.rs``), which this
module asks for values: the text around it (the FEN field, checked counts and squares) is here.

The one rule state today is the **king-move limit** (:attr:`Ruleset.king_move_limit
<draughts.Ruleset.king_move_limit>`, Frisian's three): per side, the king that made the last quiet
moves in a row and how many.
"""

from __future__ import annotations

from typing import Final

from draughts._core.native import native_rules
from draughts._text import excerpt
from draughts.errors import InvalidFenError, InvalidPositionError
from draughts.rules import Ruleset

FEN_TAG: Final = "+"
"""The first character of the FEN field of the king-move counts (lidraughts' form)."""


class RuleState:
    """The rule state of one ruleset as text and squares (built once per compiled ruleset, kept in
    its tables); the values come from the native core."""

    limit: Final[int]
    """The king-move limit (0 for none: the ruleset keeps no state)."""
    keeps: Final[bool]
    """Whether nodes carry any state (else ``state`` is always 0 and a move is its three xors)."""

    def __init__(self, rules: Ruleset, squares: int) -> None:
        """``rules``: the ruleset; ``squares``: how many squares its board numbers."""
        self.limit = rules.king_move_limit or 0
        self.keeps = self.limit > 0
        self._rules = rules
        self._square_digits = max(2, len(str(squares)))

    def __repr__(self) -> str:
        return f"RuleState(limit={self.limit})"

    def canonical(self, white: int, black: int, kings: int, state: int) -> int:
        """``state`` without the counts that cannot matter: a side without men, or no king on the square."""
        if not self.keeps:
            return 0
        return native_rules(self._rules).canonical(white, black, kings, state)

    def king_moves(self, state: int, color: int) -> tuple[int, int] | None:
        """``(square, count)`` of ``color``'s tracked king, or None when no count is running."""
        if not state:
            return None
        return native_rules(self._rules).king_moves(state, color)

    def from_square(self, rules: Ruleset, color: int, square: int | str, count: object) -> int:
        """``color``'s field for ``count`` quiet moves by the king on ``square`` (number or name), checked.

        Raises:
            InvalidPositionError: the ruleset keeps no count, or ``count`` is not 0 to the limit.
        """
        if not self.keeps:
            raise InvalidPositionError(f"{rules.name} keeps no count of king moves")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= self.limit:
            raise InvalidPositionError(f"king-move count {excerpt(count)} must be 0 to {self.limit}")
        if not count:
            return 0
        return native_rules(rules).state_value(color, rules.parse_square(square), count)

    def fen_field(self, state: int) -> str:
        """lidraughts' ``+<count><square>+<count><square>`` (Black's first), or "" with no count running.

        The square has two digits (three on boards of 100 squares or more), so that the count
        before it may have any number of digits (``+1021``: ten moves by the king on 21).
        """
        if not state:
            return ""
        fields = []
        for color in (1, 0):
            moves = self.king_moves(state, color)
            fields.append("+0" if moves is None else f"+{moves[1]}{moves[0]:0{self._square_digits}d}")
        return "".join(fields)

    def read_fen_field(self, rules: Ruleset, fen: str, field: str) -> int:
        """The state of a FEN field written as :meth:`fen_field` writes it (a count of 0 needs no
        square; a square written by name follows the count's digits, ``+3e5``).

        Raises:
            InvalidFenError: the field does not parse; InvalidPositionError, InvalidSquareError:
                a count past the limit, a square off the board.
        """
        parts = field.split(FEN_TAG)[1:]
        if len(parts) != 2:
            raise InvalidFenError(
                f"FEN {excerpt(fen)}: king-move field {excerpt(field)} must be '+<n><square>+<n><square>'"
            )
        state = 0
        for color, part in zip((1, 0), parts, strict=True):
            digits = len(part) - len(part.lstrip("0123456789"))
            if digits == len(part):  # all digits: the square is the last ones
                width = self._square_digits
                digits = len(part) - width if len(part) > width else min(1, len(part))
            significant = part[:digits].lstrip("0") or "0"
            if not digits or len(significant) > len(str(self.limit)):
                raise InvalidFenError(
                    f"FEN {excerpt(fen)}: king-move count in {excerpt(field)} must be a number from 0 to {self.limit}"
                )
            count = int(significant)
            if count:
                if digits == len(part):
                    raise InvalidFenError(
                        f"FEN {excerpt(fen)}: a king-move count needs the king's square ({excerpt(field)})"
                    )
                state |= self.from_square(rules, color, part[digits:], count)
        return state
