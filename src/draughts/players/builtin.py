"""The players that need nothing outside the library: :class:`RandomPlayer` and :class:`EnginePlayer`."""

from __future__ import annotations

import secrets

import attrs

from draughts._native import Rng
from draughts.board import Board
from draughts.engine import Engine, Limit, SearchResult, StopSignal
from draughts.errors import GameOverError
from draughts.players.base import Choice, Clock

__all__ = ["EnginePlayer", "RandomPlayer"]


class RandomPlayer:
    """Uniform among the legal moves (one per FMJD identity), no score; the same moves for one ``seed``.

    Its choices come from :class:`draughts._native.Rng` (splitmix64), the generator the native
    game loop draws the random player's moves from, so a seeded game is the same on both paths.
    """

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.seed = secrets.randbits(64) if seed is None else seed
        self._random = Rng(self.seed)

    def __getstate__(self) -> dict[str, int | str]:
        # The native generator does not pickle: its state does (``Rng(state)`` goes on from it).
        return {"name": self.name, "seed": self.seed, "state": self._random.state}

    def __setstate__(self, state: dict[str, int | str]) -> None:
        self.name = str(state["name"])
        self.seed = int(state["seed"])
        self._random = Rng(int(state["state"]))

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        moves = board.legal_moves()
        return moves[self._random.below(len(moves))], None

    def close(self, board: Board) -> None:
        pass


class EnginePlayer:
    """The built-in engine: its own limit, or under a clock the clock's share (:meth:`Clock.budget
    <draughts.players.Clock.budget>`) as its time; its score is its search's.

    Attributes:
        stop: A flag another thread or process may set to end a search early (the web board's
            stop button; ``is_set()``, as ``threading.Event``), or None: the engine's own.
        last: The last search, whole (its line, depth and nodes, which the web board shows), or
            None before the first move.
    """

    def __init__(self, engine: Engine, name: str = "engine", *, stop: StopSignal | None = None) -> None:
        self.name = name
        self.engine = engine
        self.stop = stop
        self.last: SearchResult | None = None

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        """The search's move and score (see :class:`~draughts.players.Player`).

        Raises:
            ~draughts.errors.GameOverError: the game on ``board`` is over (:attr:`last` says how it
                scored: no move, the end's score).
        """
        limit: Limit = self.engine.limit
        if clock is not None:
            limit = attrs.evolve(limit, time=clock.budget())
        if self.stop is None:
            result = self.engine.search(board, limit)
        else:
            result = self.engine.search(board, limit, stop=self.stop)
        self.last = result
        if result.move is None:
            raise GameOverError(f"{self.name} found no move in {board.fen()!r}: the game is over")
        return result.move, result.score

    def close(self, board: Board) -> None:
        pass
