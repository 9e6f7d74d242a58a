"""Positions and moves between polydraughts and DXP.

DXP describes a 10x10 board: 50 squares, ``e`` empty, ``w``/``z`` men and ``W``/``Z`` kings (``z``:
zwart, black), with ``W`` or ``Z`` for the side to move first. A ruleset whose board has 50 playable
squares (International, Frisian, Frysk!, their house-rule versions) travels in its own square
numbering; every other board raises :class:`~draughts.errors.DXPError` up front, because no DXP peer
could read it.
"""

from __future__ import annotations

from draughts.color import BLACK, WHITE, Color
from draughts.dxp.codec import MoveMessage
from draughts.errors import DXPError
from draughts.move import Move
from draughts.position import Piece, Position
from draughts.rules import Ruleset

__all__ = [
    "DXP_SQUARES",
    "check_board",
    "color_letter",
    "find_move",
    "letter_color",
    "move_message",
    "parse_position_field",
    "position_field",
]

DXP_SQUARES = 50


def check_board(ruleset: Ruleset) -> None:
    """Refuse a ruleset DXP cannot carry.

    Raises:
        DXPError: the board does not have 50 playable squares.
    """
    if ruleset.squares != DXP_SQUARES or ruleset.shape != "10x10":
        raise DXPError(
            f"DXP carries 10x10 boards (50 squares) only; {ruleset.name!r} is played on {ruleset.shape} "
            f"({ruleset.squares} squares)"
        )


def color_letter(color: Color) -> str:
    """``W`` for White, ``Z`` for Black."""
    return "W" if color is WHITE else "Z"


def letter_color(letter: str) -> Color:
    """The colour of a ``W``/``Z`` field."""
    return WHITE if letter == "W" else BLACK


_CHARS = {(WHITE, False): "w", (WHITE, True): "W", (BLACK, False): "z", (BLACK, True): "Z"}
_PIECES = {char: Piece(color, king) for (color, king), char in _CHARS.items()}


def position_field(position: Position) -> str:
    """``position`` as GAMEREQ's setup-B field: the side to move, then squares 1-50."""
    check_board(position.ruleset)
    pieces = position.pieces()
    squares = "".join("e" if (p := pieces.get(s)) is None else _CHARS[p.color, p.king] for s in range(1, 51))
    return color_letter(position.turn) + squares


def parse_position_field(ruleset: Ruleset, field: str) -> Position:
    """The position of a setup-B field under ``ruleset``.

    Raises:
        DXPError: the board is not 10x10, or the position is impossible under the ruleset.
    """
    check_board(ruleset)
    pieces = {square: _PIECES[char] for square, char in enumerate(field[1:], start=1) if char != "e"}
    try:
        return Position.from_pieces(ruleset, pieces, letter_color(field[0]))
    except ValueError as error:
        raise DXPError(f"DXP position {field!r} is not a position of {ruleset.name}: {error}") from None


def move_message(move: Move, seconds: float) -> MoveMessage:
    """The MOVE message of ``move``, made in ``seconds``."""
    return MoveMessage(max(0, round(seconds)), move.start, move.end, tuple(sorted(move.captured)))


def find_move(position: Position, message: MoveMessage) -> Move:
    """The one legal move of ``position`` with the message's from, to and captured squares.

    Raises:
        DXPError: no legal move has that identity (an illegal move), or more than one does.
    """
    identity = (message.start, message.end, frozenset(message.captured))
    matches = [move for move in position.legal_moves() if move.identity == identity]
    if not matches:
        captured = "".join(f"x{square}" for square in message.captured)
        raise DXPError(f"illegal DXP move {message.start}-{message.end}{captured} in {position.fen()}")
    if len(matches) > 1:  # moves are one per identity in every built-in ruleset; a custom one may differ
        raise DXPError(f"ambiguous DXP move {message!r}: {len(matches)} legal moves match it in {position.fen()}")
    return matches[0]
