"""A move: one quiet step or one whole capture sequence."""

from __future__ import annotations

from typing import Any

import attrs

from draughts import _slots
from draughts._text import excerpt
from draughts.errors import InvalidMoveError
from draughts.rules.geometry import LAST_SQUARE

__all__ = ["Move", "trusted_move"]


def _square(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        hint = ""
        if isinstance(value, str):
            hint = " (read text with Board.parse_text or Ruleset.parse_square)"
        raise InvalidMoveError(f"Move {field} {excerpt(value)} must be a square number{hint}")
    if not 1 <= value <= LAST_SQUARE:  # no board has more squares; a huge int is quoted by size
        raise InvalidMoveError(f"Move {field} {excerpt(value)} must be a square number from 1 to {LAST_SQUARE}")
    return value


def _squares(value: object, field: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
        raise InvalidMoveError(f"Move {field} {excerpt(value)} must be a tuple of square numbers")
    return tuple(_square(item, field) for item in value)


@attrs.frozen(eq=False, init=False)
class Move:
    """A legal move, in the variant's square numbers.

    Equality and hash are the FMJD identity: start, end and the *set* of captured squares. Two
    capture paths that take the same pieces from the same start to the same end are one move;
    :attr:`path` (carried for notation and display) does not enter equality.

    ``str(move)`` is the long form in numbers (``"32-28"``, ``"28x19x10"``): a move alone does not
    know its variant's separators or square names; ``board.move_text(move)`` writes it as the
    variant does.

    Attributes:
        start: Square the piece leaves.
        end: Square the piece stops on (equal to ``start`` for a capture that comes back).
        captured: Squares of the captured pieces, in the order they are jumped.
        path: ``start``, every landing or turning square PDN 3.0 names (restriction 9), ``end``.
        promotes: Whether the moving man is crowned by this move.
    """

    start: int
    end: int
    captured: tuple[int, ...]
    path: tuple[int, ...]
    promotes: bool
    _key: tuple[int, int, frozenset[int]] = attrs.field(init=False, repr=False)
    _hash: int = attrs.field(init=False, repr=False)

    def __init__(
        self,
        start: int,
        end: int,
        captured: tuple[int, ...] | list[int] = (),
        path: tuple[int, ...] | list[int] = (),
        promotes: bool = False,
    ) -> None:
        start = _square(start, "start")
        end = _square(end, "end")
        captured = _squares(captured, "captured")
        path = _squares(path, "path") or (start, end)
        if path[0] != start or path[-1] != end:
            raise InvalidMoveError(f"Move path {excerpt(path)} must run from start {start} to end {end}")
        if not isinstance(promotes, bool):
            raise InvalidMoveError(f"Move promotes {excerpt(promotes)} must be True or False")
        _fill(self, start, end, captured, path, promotes)

    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
        return bool(self.captured)

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        """``(start, end, frozenset(captured))``: what makes two moves the same move."""
        return self._key

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Move:  # the common case first: this is called in every legal-move lookup
            return self._key == other._key
        if not isinstance(other, Move):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if self.captured:
            return "x".join(map(str, self.path))
        return f"{self.start}-{self.end}"

    def __repr__(self) -> str:
        parts = [f"start={self.start}", f"end={self.end}"]
        if self.captured:
            parts.append(f"captured={self.captured!r}")
        if self.path != (self.start, self.end):
            parts.append(f"path={self.path!r}")
        if self.promotes:
            parts.append("promotes=True")
        return f"Move({', '.join(parts)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (self.start, self.end, self.captured, self.path, self.promotes))


def trusted_move(start: int, end: int, captured: tuple[int, ...], path: tuple[int, ...], promotes: bool) -> Move:
    """A move built by the library itself from valid squares: no checks (the generator's fast path;
    not public API)."""
    move: Move = _new(Move)
    _fill(move, start, end, captured, path, promotes)
    return move


def _fill(move: Move, start: int, end: int, captured: tuple[int, ...], path: tuple[int, ...], promotes: bool) -> None:
    key = (start, end, frozenset(captured))
    _set_start(move, start)
    _set_end(move, end)
    _set_captured(move, captured)
    _set_path(move, path)
    _set_promotes(move, promotes)
    _set_key(move, key)
    _set_hash(move, hash(key))


# The generator builds moves by the thousand: their slots are set directly (see draughts._slots).
_set_start, _set_end, _set_captured, _set_path, _set_promotes, _set_key, _set_hash = _slots.setters(
    Move, "start", "end", "captured", "path", "promotes", "_key", "_hash"
)

_new = _slots.new
