"""Positions and moves as Hub writes them: one character per square, and moves in square numbers.

A position is the side to move (``W`` or ``B``), then one character per square in the ruleset's
numbering, square 1 first: ``w``/``b`` for men, ``W``/``B`` for kings, ``e`` for an empty square.
A move is ``32-28`` when quiet; a capture is its start, its end and then every captured square in
any order, joined by ``x`` (``28x19x23``: from 28 to 19, taking 23). That is not the notation
:mod:`draughts.notation` writes (``28x19``, or ``c3:e5`` on algebraic boards), hence the names
:func:`hub_move_text` and :func:`parse_hub_move`.
"""

from __future__ import annotations

import re

from draughts._text import excerpt, number
from draughts.color import Color
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidPositionError
from draughts.move import Move
from draughts.notation import matching_moves
from draughts.position import Piece, Position
from draughts.rules import Ruleset
from draughts.rules.names import get_variant

__all__ = ["hub_move_text", "parse_hub_move", "parse_position", "position_text"]

_PIECE_CHARS = {
    (Color.WHITE, False): "w",
    (Color.BLACK, False): "b",
    (Color.WHITE, True): "W",
    (Color.BLACK, True): "B",
}
_CHAR_PIECES = {char: Piece(color, king) for (color, king), char in _PIECE_CHARS.items()}
_HUB_MOVE = re.compile(r"[0-9]+(?:[-x][0-9]+)+")


def position_text(position: Position) -> str:
    """``position`` in Hub's format: the side to move, then one character per square (1 first)."""
    pieces = position.pieces()
    squares = []
    for square in range(1, position.ruleset.squares + 1):
        piece = pieces.get(square)
        squares.append("e" if piece is None else _PIECE_CHARS[piece.color, piece.king])
    return position.turn.letter + "".join(squares)


def parse_position(ruleset: Ruleset | str, text: str) -> Position:
    """The position a Hub ``pos`` value describes under ``ruleset``.

    Raises:
        InvalidPositionError: wrong length, an unknown character, or an impossible position.
    """
    rules = get_variant(ruleset)
    if not isinstance(text, str):
        raise TypeError(f"a Hub position is text, not {type(text).__name__}")
    text = text.strip()
    if len(text) != rules.squares + 1:
        raise InvalidPositionError(
            f"Hub position {excerpt(text)} has {len(text):,} characters; {rules.name} needs {rules.squares + 1} "
            "(the side to move, then one per square)"
        )
    if text[0] not in "WB":
        raise InvalidPositionError(f"Hub position {excerpt(text)} must start with the side to move, 'W' or 'B'")
    pieces = {}
    for square, char in enumerate(text[1:], 1):
        if char == "e":
            continue
        piece = _CHAR_PIECES.get(char)
        if piece is None:
            raise InvalidPositionError(
                f"Hub position {excerpt(text)}: square {square} is {char!r}, not one of w b W B e"
            )
        pieces[square] = piece
    return Position.from_pieces(rules, pieces, Color.WHITE if text[0] == "W" else Color.BLACK)


def move_squares_text(move: Move) -> str:
    """``move`` in Hub notation, unchecked: for moves known to be legal (an engine's own answer)."""
    if not move.captured:
        return f"{move.start}-{move.end}"
    return "x".join(str(square) for square in (move.start, move.end, *move.captured))


def hub_move_text(position: Position, move: Move) -> str:
    """``move`` (legal in ``position``) in Hub notation: numbers, captured squares after the end.

    >>> pos = Position.from_fen("russian", "W:Wc3,e3:Bd4")  # c3 = 22, d4 = 18, e3 = 23
    >>> [hub_move_text(pos, m) for m in pos.legal_moves()]
    ['22x15x18', '23x14x18']

    Raises:
        IllegalMoveError: ``move`` is not legal in ``position``.
    """
    if not position.is_legal(move):
        raise IllegalMoveError(f"{move!r} is not legal in {position.fen()} ({position.ruleset.name})")
    return move_squares_text(move)


def _hub_squares(position: Position, text: str) -> tuple[int, int, list[int]]:
    """Start, end and sorted captured squares of Hub move text, each a square of the board."""
    squares = []
    for part in re.split(r"[-x]", text):
        square = number(part)  # not int(): past CPython's 4,300-digit limit that is a plain ValueError
        if square is None or square > position.ruleset.squares:
            raise IllegalMoveError(
                f"Hub move {excerpt(text)} names a square {position.ruleset.name} does not have "
                f"(1 to {position.ruleset.squares})"
            )
        squares.append(square)
    return squares[0], squares[1], sorted(squares[2:])


def parse_hub_move(position: Position, text: str) -> Move:
    """The legal move of ``position`` a Hub move names (start, end, captured squares in any order).

    Text in another notation the library reads (:func:`draughts.notation.matching_moves`) is
    accepted when it names exactly one legal move.

    >>> parse_hub_move(Position.from_fen("international", "W:WK47:B14,19,29,31,42"), "47x36x31x14x29x42")
    Move(start=47, end=36, captured=(42, 29, 14, 31), path=(47, 38, 20, 9, 36))

    Raises:
        InvalidMoveError: ``text`` is no move text.
        IllegalMoveError: no legal move matches.
        AmbiguousMoveError: text in another notation matches several legal moves.
    """
    if not isinstance(text, str):
        raise TypeError(f"a Hub move is text, not {type(text).__name__}")
    cleaned = text.strip()
    if _HUB_MOVE.fullmatch(cleaned):
        start, end, captured = _hub_squares(position, cleaned)
        for move in position.legal_moves():
            if move.start == start and move.end == end and sorted(move.captured) == captured:
                return move
    found = matching_moves(position, cleaned)
    if len(found) == 1:
        return found[0]
    where = f"{position.fen()} ({position.ruleset.name})"
    if len(found) > 1:
        raise AmbiguousMoveError(f"Hub move {excerpt(text)} matches {len(found)} legal moves in {where}")
    raise IllegalMoveError(f"Hub move {excerpt(text)} is not legal in {where}")
