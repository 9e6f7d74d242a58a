"""A game as the database stores it: :class:`GameRecord`, made from a PDN game in a worker process.

Everything that costs CPU (replaying the moves, writing them in the variant's notation, the key
of every position, the code of every move) is done here, where an import's worker processes run
it in parallel; the process that owns the database file only writes the rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

import attrs

from draughts.color import Color
from draughts.db.moves import move_code
from draughts.keys import key_after
from draughts.notation import move_text
from draughts.pdn import Game
from draughts.results import normalise_result

__all__ = ["NONE", "OUTCOMES", "GameRecord", "outcome_of", "record_of"]

OUTCOMES = ("white", "draws", "black", "none")
"""The outcome columns, by the number the database stores: White won, a draw, Black won, no result."""
NONE = 3
"""The outcome of a game without a result (``*``, ``0-0``, a match score)."""

_DUPLICATE_TAGS = ("White", "Black", "Date", "Event", "Round")
"""The tags that, with the rules, the start, the moves and the result, make a game the same game."""


def outcome_of(game: Game) -> int:
    """0 when White won, 1 for a draw, 2 when Black won, 3 (:data:`NONE`) for no result."""
    normal = normalise_result(game.result)
    if normal is None or normal in ("*", "0-0"):
        return NONE
    winner = game.winner
    if winner is None:
        return 1
    return 0 if winner is Color.WHITE else 2


@attrs.frozen
class GameRecord:
    """One game, ready to be written: its tags, result, moves, and the key of each position.

    Attributes:
        variant: The ruleset's name.
        headers: The tags as read.
        result: The result, normalised by the PDN reader.
        outcome: 0/1/2/3 (see :data:`OUTCOMES`).
        start_fen: The start position's FEN.
        moves: Each move of the main line in the variant's notation.
        codes: Each move's code (:func:`~draughts.db.moves.move_code`).
        keys: The key of the position before each move, then of the final position (one more
            than there are moves).
        turns: The side to move (0 White, 1 Black) before each move.
        index: The game's number in its file.
        line: The game's first line in its file.
        digest: What makes two games the same game (:func:`digest`).
    """

    variant: str
    headers: Mapping[str, str]
    result: str
    outcome: int
    start_fen: str
    moves: tuple[str, ...]
    codes: tuple[int, ...]
    keys: tuple[int, ...]
    turns: tuple[int, ...]
    index: int
    line: int
    digest: bytes


def digest(variant: str, headers: Mapping[str, str], start_fen: str, moves: tuple[str, ...], result: str) -> bytes:
    """16 bytes that equal games share: the rules, the start, the moves, the result, and the tags
    White, Black, Date, Event and Round (the same moves by other players are another game)."""
    tags = [headers.get(tag, "") for tag in _DUPLICATE_TAGS]
    text = json.dumps([variant, start_fen, list(moves), result, tags], ensure_ascii=False)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def record_of(game: Game) -> GameRecord:
    """The record of a game read by :mod:`draughts.pdn` (its main line; side lines are not stored)."""
    position = game.position
    key = position.key()
    keys = [key]
    moves: list[str] = []
    codes: list[int] = []
    turns: list[int] = []
    for node in game.mainline():
        move = node.move
        if move is None:
            continue
        moves.append(move_text(position, move))
        codes.append(move_code(move))
        turns.append(int(position.turn))
        key = key_after(position, key, move)
        keys.append(key)
        position = node.position
    headers = dict(game.headers)
    start = game.position.fen()
    variant = game.ruleset.name
    return GameRecord(
        variant,
        headers,
        game.result,
        outcome_of(game),
        start,
        tuple(moves),
        tuple(codes),
        tuple(keys),
        tuple(turns),
        game.index or 0,
        game.line or 0,
        digest(variant, headers, start, tuple(moves), game.result),
    )
