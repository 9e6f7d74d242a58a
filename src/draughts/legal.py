"""The legal moves of a position or a game, as one collection type.

:attr:`Position.legal_moves <draughts.Position.legal_moves>` and :attr:`Board.legal_moves
<draughts.Board.legal_moves>` both give a :class:`LegalMoves`: sized, iterable, indexable, with
``in`` and :meth:`~LegalMoves.count`, as python-chess users expect. On a board it is *live*: it
always shows the moves of the board's current position, while each iteration walks the moves of
the position it started in (so pushing inside a loop over it is safe). Calling it returns the
moves as a tuple, a snapshot that never changes.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, cast, overload

from draughts._native import MoveView
from draughts.move import Move
from draughts.notation import Notatable, move_text

__all__ = ["LegalMoves"]


class LegalMoves(MoveView, Collection[Move]):
    """The legal moves of a position, ordered by start square, end square and path.

    >>> import draughts
    >>> board = draughts.Board("russian")
    >>> moves = board.legal_moves
    >>> moves.count(), draughts.Move(22, 18) in moves, [board.move_text(m) for m in moves][:3]
    (7, True, ['a3-b4', 'c3-b4', 'c3-d4'])
    >>> board.push(moves[2])
    >>> moves.count()  # live: now Black's moves
    7
    >>> type(moves())  # calling it takes a snapshot
    <class 'tuple'>

    ``LegalMoves(source, owner)``: ``source()`` lists the current legal moves of ``owner`` (a
    position, or a board's current position). The collection methods (``len``, ``in``, iteration,
    indexing, calling) are native (``draughts._native.MoveView``): they read a position's moves
    (a position's view has the position itself as its source, a board's the board's list of
    positions) or call ``source`` with no Python frame in between, as a position's moves are asked
    for once per ply.
    """

    __slots__ = ()

    if TYPE_CHECKING:

        def __init__(self, source: Callable[[], tuple[Move, ...]], owner: object) -> None: ...

        def __call__(self) -> tuple[Move, ...]:
            """The moves as a tuple: a snapshot, unaffected by later pushes."""

        def __len__(self) -> int: ...

        def __iter__(self) -> Iterator[Move]: ...

        def __contains__(self, move: object) -> bool: ...

        @overload
        def __getitem__(self, index: int) -> Move: ...

        @overload
        def __getitem__(self, index: slice) -> tuple[Move, ...]: ...

        def __getitem__(self, index: int | slice) -> Move | tuple[Move, ...]: ...

    def count(self) -> int:
        """The number of legal moves."""
        return len(self)

    def _moves(self) -> tuple[Move, ...]:
        return self()

    def _position(self) -> Notatable:
        """The position whose moves these are (for a board's view, its current one)."""
        return cast("Notatable", self._owner)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves):
            return self._moves() == other._moves()
        if isinstance(other, (tuple, list)):
            return self._moves() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # live, so unhashable

    def __repr__(self) -> str:
        """The moves as the variant writes them (``c3-d4`` in Russian, ``32-28`` in International)."""
        position = self._position()
        moves = self()
        shown = ", ".join(move_text(position, move) for move in moves[:12])
        more = ", ..." if len(moves) > 12 else ""
        return f"<LegalMoves ({len(moves)}): {shown}{more}>"
