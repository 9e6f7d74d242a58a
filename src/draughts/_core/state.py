"""Rule state: what a node's ``state`` holds, how a move updates it, and the copy-make of a node.

A node is ``(own, opp, kings, color, state)`` (see :mod:`draughts._core.movegen`). ``state`` is
the rule state a ruleset keeps in positions beyond the pieces and the side to move; it is ``0``
where the ruleset keeps none. This module is the only place that knows its layout: the
generator, perft, the engine's search and :class:`~draughts.Position` ask a :class:`RuleState`
(one per compiled ruleset, :attr:`Tables.state <draughts._core.tables.Tables.state>`) to read,
write and update it.

The one rule state today is the **king-move limit** (:attr:`Ruleset.king_move_limit
<draughts.Ruleset.king_move_limit>`, Frisian's three): per side, the king that made the last quiet
moves in a row and how many. Each side has a field of :attr:`RuleState.width` bits at
``width * color``; its low :attr:`RuleState.count_bits` bits hold the count and the bits above the
king's bit index plus one (``0``: no count running). Both widths come from the ruleset (the
count's from the limit, the index's from the board), so every count the limit allows and every
square fit: nothing wraps, whatever the limit.

**Copy-make.** Where the ruleset keeps no state (:attr:`RuleState.keeps` is False), a move
``(moved, captured, crowned)`` leads from ``(own, opp, kings, color, 0)`` to ``(opp ^ captured,
own ^ moved, kings ^ crowned, 1 - color, 0)``: three xors and a swap. :meth:`RuleState.play` is
that, plus the state's update where there is one. The hot loops of perft and the search may
write the stateless form inline (a call costs more than the xors), guarded by
:attr:`RuleState.keeps`, and nowhere else.

A new rule state is added here, and only here: its bits in the layout, its update in
:meth:`RuleState.next`, what it forbids in :meth:`RuleState.movable_kings` (or a sibling), its
canonical form in :meth:`RuleState.canonical` (so that equal positions have equal states), and its
FEN field (:meth:`RuleState.fen_field`, :meth:`RuleState.read_fen_field`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from draughts._text import excerpt
from draughts.errors import InvalidFenError, InvalidPositionError
from draughts.rules import Ruleset

FEN_TAG: Final = "+"
"""The first character of the FEN field of the king-move counts (lidraughts' form)."""

Node = tuple[int, int, int, int, int]
"""``(own, opp, kings, color, state)``: the side to move's pieces, the other side's, all kings, 0/1, rule state."""
Compact = tuple[int, int, int]
"""A move as three xor masks ``(moved, captured, crowned)``."""


class RuleState:
    """The rule state of one ruleset: its layout, its update after a move, and the copy-make of a node.

    Built by :func:`rule_state` (once per compiled ruleset, kept in its tables).
    """

    limit: Final[int]
    """The king-move limit (0 for none: the ruleset keeps no state)."""
    keeps: Final[bool]
    """Whether nodes carry any state (else ``state`` is always 0 and a move is its three xors)."""
    count_bits: Final[int]
    """Bits of one side's count (enough for the limit itself)."""
    width: Final[int]
    """Bits of one side's field (the count, then the king's bit index plus one)."""

    def __init__(self, limit: int, bit_of_square: Sequence[int], square_of_bit: Sequence[int]) -> None:
        """``limit``: the king-move limit (0 for none); the board's square-to-bit maps (see the tables)."""
        self.limit = limit
        self.keeps = limit > 0
        self.count_bits = limit.bit_length()
        self.width = self.count_bits + (len(square_of_bit) + 1).bit_length()
        self._bit_of_square = bit_of_square
        self._square_of_bit = square_of_bit
        self._square_digits = max(2, len(str(len(bit_of_square) - 1)))
        self._count_mask = (1 << self.count_bits) - 1
        self._side_mask = (1 << self.width) - 1

    def __repr__(self) -> str:
        return f"RuleState(limit={self.limit}, width={self.width})"

    # --- the layout ---

    def value(self, color: int, index: int, count: int) -> int:
        """``color``'s field holding a count of ``count`` quiet moves by the king on bit ``index``
        (0 if ``count`` is 0: no count running), shifted into place."""
        if not count:
            return 0
        return (((index + 1) << self.count_bits) | count) << (self.width * color)

    def side(self, state: int, color: int) -> tuple[int, int]:
        """``(bit index of the tracked king or -1, count)`` of ``color`` in ``state``."""
        field = (state >> (self.width * color)) & self._side_mask
        return (field >> self.count_bits) - 1, field & self._count_mask

    def canonical(self, white: int, black: int, kings: int, state: int) -> int:
        """``state`` without the counts that cannot matter: a side without men, or no king on the square."""
        kept = 0
        for color, mask in ((0, white), (1, black)):
            index, count = self.side(state, color)
            if count and mask & ~kings and (mask & kings) >> index & 1:
                kept |= self.value(color, index, count)
        return kept

    # --- what the state forbids ---

    def movable_kings(self, own: int, kings: int, color: int, state: int) -> int:
        """The kings of the side to move that may make a quiet move (the king-move limit applied)."""
        own_kings = own & kings
        if self.keeps and own_kings and own & ~kings:
            index, count = self.side(state, color)
            if count >= self.limit and index >= 0:
                own_kings &= ~(1 << index)
        return own_kings

    # --- the update and copy-make ---

    def next(self, own: int, opp: int, kings: int, color: int, state: int, moved: int, captured: int) -> int:
        """The state after a move (``moved``, ``captured`` as in a :data:`Compact`).

        The mover's count goes up on a quiet move of the same king, starts at 1 for another king,
        and is cleared by a man's move or a capture; a side's count is also cleared when it has no
        men left or its tracked king is gone (so that equal positions have equal states).
        """
        if not self.keeps:
            return 0
        start = moved & own
        mover = 0
        if not captured and start & kings:
            index, count = self.side(state, color)
            end = moved ^ start
            count = count + 1 if index >= 0 and start >> index & 1 else 1
            if own & ~kings:
                mover = self.value(color, end.bit_length() - 1, count)
        other = 1 - color
        index, count = self.side(state, other)
        left = opp ^ captured
        kept = self.value(other, index, count) if count and left & ~kings and (left >> index) & 1 else 0
        return mover | kept

    def play(self, own: int, opp: int, kings: int, color: int, state: int, move: Compact) -> Node:
        """The node after ``move``: pieces updated, sides swapped, the state updated (copy-make)."""
        moved, captured, crowned = move
        if self.keeps:
            state = self.next(own, opp, kings, color, state, moved, captured)
        return opp ^ captured, own ^ moved, kings ^ crowned, 1 - color, state

    # --- squares and text: what positions, FEN and users see ---

    def king_moves(self, state: int, color: int) -> tuple[int, int] | None:
        """``(square, count)`` of ``color``'s tracked king, or None when no count is running."""
        index, count = self.side(state, color)
        return (self._square_of_bit[index], count) if count else None

    def from_square(self, rules: Ruleset, color: int, square: int | str, count: object) -> int:
        """``color``'s field for ``count`` quiet moves by the king on ``square`` (number or name), checked.

        Raises:
            InvalidPositionError: the ruleset keeps no count, or ``count`` is not 0 to the limit.
        """
        if not self.keeps:
            raise InvalidPositionError(f"{rules.name} keeps no count of king moves")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= self.limit:
            raise InvalidPositionError(f"king-move count {excerpt(count)} must be 0 to {self.limit}")
        return self.value(color, self._bit_of_square[rules.parse_square(square)], count)

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


"""The state of every node of a ruleset that keeps none."""
