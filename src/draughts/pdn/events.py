"""The events of a game for visitors (:mod:`draughts.pdn.visitor`): the visitor interface.

Kept apart from the reader and the model: :mod:`draughts.pdn.game` walks a tree for a visitor
(:func:`~draughts.pdn.game.walk`) and the reader visits tags before any move is replayed, and both
import this module, which imports neither.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Generic, TypeVar

from draughts.move import Move
from draughts.position import Position

__all__ = ["SKIP", "BaseVisitor", "ResultT", "SkipType", "begin_headers"]

ResultT = TypeVar("ResultT")
"""What a visitor makes of a game (:meth:`~draughts.pdn.events.BaseVisitor.result`'s type)."""


class SkipType(enum.Enum):
    """The type of :data:`~draughts.pdn.events.SKIP`."""

    SKIP = "SKIP"


SKIP = SkipType.SKIP
"""Returned by :meth:`BaseVisitor.end_headers` to skip a game's movetext (no move is replayed), or by
:meth:`BaseVisitor.begin_variation` to skip a variation and everything in it."""


class BaseVisitor(Generic[ResultT]):
    """The events of one game; every method but :meth:`result` does nothing by default.

    For each game, in this order: :meth:`begin_game`; :meth:`visit_header` for each tag, in file
    order; :meth:`end_headers`; then, unless it returned :data:`~draughts.pdn.events.SKIP`,
    :meth:`visit_start` with the start position and the movetext's events; :meth:`visit_result`;
    :meth:`end_game`. In the movetext, :meth:`visit_move` comes with the position *before* the move; its NAGs
    (:meth:`visit_nag`) and comment (:meth:`visit_comment`) follow it. A variation, an alternative
    to the move just visited, is :meth:`begin_variation` ... :meth:`end_variation`; a comment in a
    variation before its first move is that move's starting comment, and a comment before the
    game's first move is the root's. Comments hold their ``%`` commands as text
    (:func:`draughts.pdn.commands.split_commands` reads them).
    """

    def begin_game(self) -> None:
        """A new game starts: reset whatever the last game left."""

    def visit_header(self, name: str, value: str) -> None:
        """A tag, as written."""

    def end_headers(self) -> SkipType | None:
        """The tags are over; return :data:`~draughts.pdn.events.SKIP` to skip the movetext (no move is replayed)."""
        return None

    def visit_start(self, position: Position) -> None:
        """The start position (the FEN tag's, or the initial position of the game's rules)."""

    def visit_move(self, position: Position, move: Move) -> None:
        """``move``, legal in ``position`` (the position before it)."""

    def visit_nag(self, nag: str) -> None:
        """A NAG (``$1``) or mark (``!?``) of the move just visited."""

    def visit_comment(self, comment: str) -> None:
        """A comment: after the move just visited, or before the first move of a variation or the game."""

    def begin_variation(self) -> SkipType | None:
        """A variation starts, an alternative to the move just visited.

        Return :data:`~draughts.pdn.events.SKIP` to skip it and everything in it."""
        return None

    def end_variation(self) -> None:
        """The variation ends: the next events go on after the move it was an alternative to."""

    def visit_result(self, result: str) -> None:
        """The game's result (normalised, as :attr:`Game.result <draughts.pdn.Game.result>`)."""

    def end_game(self) -> None:
        """The game is over."""

    def result(self) -> ResultT:
        """What the visitor made of the game."""
        raise NotImplementedError


def begin_headers(visitor: BaseVisitor[ResultT], headers: Iterable[tuple[str, str]]) -> bool:
    """A game's start and its tags (``(name, value)`` pairs) for ``visitor``; whether it wants the
    movetext (:meth:`~draughts.pdn.events.BaseVisitor.end_headers` did not return
    :data:`~draughts.pdn.events.SKIP`). Shared by :func:`~draughts.pdn.events.accept` and
    :func:`draughts.pdn.visitor.read_with`, so the two give the same events."""
    visitor.begin_game()
    for name, value in headers:
        visitor.visit_header(name, value)
    return visitor.end_headers() is not SKIP
