"""The players that need nothing outside the library: :class:`RandomPlayer` and :class:`EnginePlayer`."""

from __future__ import annotations

import random

import attrs

from draughts.board import Board
from draughts.engine import Engine, Limit
from draughts.errors import DraughtsError
from draughts.players.base import Choice, Clock

__all__ = ["EnginePlayer", "RandomPlayer"]


class RandomPlayer:
    """Uniform among the legal moves (one per FMJD identity), no score; the same moves for one ``seed``."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self._random = random.Random(seed)

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        moves = list(board.legal_moves())
        return moves[self._random.randrange(len(moves))], None

    def close(self, board: Board) -> None:
        pass


class EnginePlayer:
    """The built-in engine: its own limit, or under a clock the clock's share (:meth:`Clock.budget
    <draughts.players.Clock.budget>`) as its time; its score is its search's."""

    def __init__(self, engine: Engine, name: str = "engine") -> None:
        self.name = name
        self.engine = engine

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        limit: Limit = self.engine.limit
        if clock is not None:
            limit = attrs.evolve(limit, time=clock.budget())
        result = self.engine.search(board, limit)
        if result.move is None:
            raise DraughtsError(f"{self.name} found no move in {board.fen()!r}: the game is over")
        return result.move, result.score

    def close(self, board: Board) -> None:
        pass
