"""Moves as 64-bit codes: how the database and opening books store a move without its position.

A move's code is ``start * 2**48 + end * 2**32 + tag``: its start and end square numbers and a
32-bit tag of the pieces it captures, the CRC-32 (``zlib.crc32``) of the captured squares sorted
in increasing order, each written as two bytes big-endian; 0 for a move that captures nothing (a
CRC of 0 is written as 1). That is the FMJD identity of a move (start, end, the set of captured
pieces), so two capture paths that take the same pieces are one code, as they are one
:class:`~draughts.Move`. A code is turned back into a move by the position it is played in.

>>> import draughts
>>> from draughts.db.moves import move_code, code_squares
>>> move = draughts.Board("international").parse_text("32-28")
>>> code_squares(move_code(move))
(32, 28, 0)
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from draughts.move import Move
    from draughts.position import Position

__all__ = ["code_squares", "move_code", "move_of_code"]


def _tag(captured: tuple[int, ...]) -> int:
    if not captured:
        return 0
    data = b"".join(square.to_bytes(2, "big") for square in sorted(captured))
    return zlib.crc32(data) or 1


def move_code(move: Move) -> int:
    """The 64-bit code of ``move``: start, end and a tag of its captured squares."""
    return (move.start << 48) | (move.end << 32) | _tag(move.captured)


def code_squares(code: int) -> tuple[int, int, int]:
    """``(start, end, tag)`` of a move code."""
    return code >> 48, (code >> 32) & 0xFFFF, code & 0xFFFFFFFF


def move_of_code(position: Position, code: int) -> Move | None:
    """The legal move of ``position`` whose code is ``code``, or None."""
    for move in position.legal_moves:
        if move_code(move) == code:
            return move
    return None
