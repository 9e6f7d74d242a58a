"""A player that plays from an opening book while the position is in it, then lets another player move."""

from __future__ import annotations

import os
import random

from draughts.board import Board
from draughts.db.book import Book
from draughts.players.base import Choice, Clock, Player

__all__ = ["BookPlayer"]


class BookPlayer:
    """``player`` with an opening book: a book move, drawn by weight, while the game is in the book
    (and at most ``plies`` plies into it), else ``player``'s move.

    Args:
        player: Who moves when the book has nothing (the engine, a Hub engine ...).
        book: The book (a :class:`~draughts.db.book.Book` or its path); of the game's rules.
        seed: Seed of the draw among book moves (None: different every time).
        plies: Play from the book only in the first ``plies`` plies of the game (None: no limit).

    Attributes:
        book_moves: How many moves came from the book (in every game this player played).
    """

    def __init__(
        self,
        player: Player,
        book: Book | str | os.PathLike[str],
        *,
        seed: int | None = 0,
        plies: int | None = None,
    ) -> None:
        self.player = player
        self.book = book if isinstance(book, Book) else Book(book)
        self.name = player.name
        self.plies = plies
        self.book_moves = 0
        self._random = random.Random(seed)

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        if self.plies is None or board.ply() < self.plies:
            move = self.book.choose(board.position, self._random)
            if move is not None:
                self.book_moves += 1
                return move, None
        return self.player.choose(board, clock)

    def close(self, board: Board) -> None:
        self.player.close(board)
