"""A move: one quiet step or one whole capture sequence."""

from __future__ import annotations

import attrs


@attrs.frozen(eq=False)
class Move:
    """A legal move, in the variant's square numbers.

    Equality and hash are the FMJD identity: start, end and the *set* of captured squares. Two
    capture paths that take the same pieces from the same start to the same end are one move;
    :attr:`path` (carried for notation and display) does not enter equality.

    Attributes:
        start: Square the piece leaves.
        end: Square the piece stops on (equal to ``start`` for a capture that comes back).
        captured: Squares of the captured pieces, in the order they are jumped.
        path: ``start``, every landing or turning square PDN 3.0 names (restriction 9), ``end``.
        promotes: Whether the moving man is crowned by this move.
    """

    start: int
    end: int
    captured: tuple[int, ...] = ()
    path: tuple[int, ...] = attrs.field(default=())
    promotes: bool = False

    def __attrs_post_init__(self) -> None:
        if not self.path:
            object.__setattr__(self, "path", (self.start, self.end))

    @property
    def is_capture(self) -> bool:
        """Whether the move captures."""
        return bool(self.captured)

    @property
    def identity(self) -> tuple[int, int, frozenset[int]]:
        """``(start, end, frozenset(captured))``: what makes two moves the same move."""
        return self.start, self.end, frozenset(self.captured)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.identity == other.identity

    def __hash__(self) -> int:
        return hash(self.identity)

    def __repr__(self) -> str:
        parts = [f"start={self.start}", f"end={self.end}"]
        if self.captured:
            parts.append(f"captured={self.captured!r}")
        if self.path != (self.start, self.end):
            parts.append(f"path={self.path!r}")
        if self.promotes:
            parts.append("promotes=True")
        return f"Move({', '.join(parts)})"
