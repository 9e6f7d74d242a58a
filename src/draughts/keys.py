"""Stable 64-bit position keys (Zobrist hashing), fixed across versions, platforms and bit layouts.

A position's key is what a game database indexes positions by and what an opening book is sorted
on (:mod:`draughts.db`), so it must never change: a database written today is read by every later
version, and the native core computes the same numbers. This module is its definition, in pure
Python; :meth:`draughts.Position.key` calls :func:`position_key`.

The definition
--------------
All arithmetic is on unsigned 64-bit integers (modulo ``2**64``).

**The words.** ``word(i)``, for a whole number ``i >= 0``, is output number ``i`` (counting from 0)
of the splitmix64 generator seeded with :data:`SEED`::

    z = (SEED + (i + 1) * 0x9E3779B97F4A7C15) mod 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
    word(i) = z ^ (z >> 31)

``SEED`` is ``0x6472617567687473``, the ASCII bytes of ``draughts`` read big-endian.

**The key** of a position is the exclusive or of these words:

* for every piece, ``word(4 * square + 2 * colour + kind)``, where ``square`` is the square's
  number in the ruleset's numbering (1, 2, ...; :attr:`Ruleset.numbering
  <draughts.Ruleset.numbering>`, whatever the bit layout of any implementation), ``colour`` is 0
  for White and 1 for Black, and ``kind`` is 0 for a man and 1 for a king;
* ``word(0)`` when Black is to move (nothing when White is);
* the rule state: where the ruleset limits consecutive king moves (Frisian), for each colour
  with a count running (:meth:`Position.king_moves <draughts.Position.king_moves>` gives the
  king's ``square`` and its ``count``), ``word(2**40 + square * 2**20 + colour * 2**19 + count)``.

Piece words use indices from 4 to ``4 * 676 + 3`` (676 squares on the largest board), the rule
state's lie above ``2**40``: no two features share a word. The ruleset itself is not in the key:
the same pieces under two rulesets have one key, so a database or a book keeps the ruleset
beside it (:mod:`draughts.db` does). Equal positions have equal keys (a position's rule state is
kept in one canonical form); different positions collide with probability about ``2**-64``.

>>> import draughts
>>> hex(draughts.Position.initial("international").key())
'0xdeffb658852002d1'
>>> hex(word(0))
'0x2dd153031fdeeea3'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol

from draughts.color import Color
from draughts.rules import Ruleset
from draughts.rules.geometry import LAST_SQUARE

if TYPE_CHECKING:
    from draughts.move import Move

__all__ = [
    "GAMMA",
    "SEED",
    "TURN_INDEX",
    "Keyed",
    "key_after",
    "piece_index",
    "piece_word",
    "position_key",
    "state_index",
    "word",
]

SEED: Final = 0x6472617567687473
"""The seed of the splitmix64 stream the words come from: ``b"draughts"`` read as a big-endian integer."""
GAMMA: Final = 0x9E3779B97F4A7C15
"""splitmix64's increment (the golden ratio in 64 bits)."""
TURN_INDEX: Final = 0
"""The index of the word that stands for Black to move."""
_MASK: Final = (1 << 64) - 1
_STATE_BASE: Final = 1 << 40


class Keyed(Protocol):
    """What a key reads of a position (a :class:`~draughts.Position` is one; named here, not
    imported, since the position module calls this one)."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def turn(self) -> Color: ...
    def squares(self, color: Color, *, kings: bool | None = None) -> list[int]: ...
    def king_moves(self, color: Color) -> tuple[int, int] | None: ...
    def is_king_at(self, square: int | str) -> bool: ...
    def play(self, move: Move) -> Keyed: ...


def word(index: int) -> int:
    """Output number ``index`` (from 0) of splitmix64 seeded with :data:`SEED`: the key's building block."""
    z = (SEED + (index + 1) * GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def piece_index(square: int, color: Color, king: bool) -> int:
    """The index of the word of a piece: ``4 * square + 2 * colour + kind``."""
    return 4 * square + 2 * int(color) + int(king)


def state_index(square: int, color: Color, count: int) -> int:
    """The index of the word of a running king-move count: ``2**40 + square * 2**20 + colour * 2**19 + count``."""
    return _STATE_BASE + (square << 20) + (int(color) << 19) + count


def piece_word(square: int, color: Color, king: bool) -> int:
    """The word a piece adds to the key (from the table, made once)."""
    return _PIECES[piece_index(square, color, king)]


_PIECES: Final = tuple(word(index) for index in range(4 * (LAST_SQUARE + 1)))
"""Every piece word, by index: the table a key is made from."""
_TURN: Final = word(TURN_INDEX)


def position_key(position: Keyed) -> int:
    """The stable 64-bit key of ``position`` (see the module's definition), an int in ``[0, 2**64)``."""
    table = _PIECES
    key = _TURN if position.turn is Color.BLACK else 0
    for color in (Color.WHITE, Color.BLACK):
        base = 2 * int(color)
        for square in position.squares(color, kings=False):
            key ^= table[4 * square + base]
        for square in position.squares(color, kings=True):
            key ^= table[4 * square + base + 1]
        if position.ruleset.king_move_limit:
            running = position.king_moves(color)
            if running is not None:
                key ^= word(state_index(running[0], color, running[1]))
    return key


def key_after(position: Keyed, key: int, move: Move) -> int:
    """The key of ``position.play(move)`` from ``key``, ``position``'s, without walking the board.

    The update Zobrist keys are made for: the moving piece leaves its start, arrives on its end (a
    king if it is one or is crowned), the captured pieces go and the side to move changes. Where
    the ruleset keeps a rule state (a king-move limit) the new position's key is computed whole.
    ``move`` must be legal in ``position`` (nothing is checked).
    """
    if position.ruleset.king_move_limit:
        return position_key(position.play(move))
    table = _PIECES
    color = position.turn
    base = 2 * int(color)
    king = position.is_king_at(move.start)
    key ^= _TURN ^ table[4 * move.start + base + king] ^ table[4 * move.end + base + (king or move.promotes)]
    other = 2 - base
    for square in move.captured:
        key ^= table[4 * square + other + position.is_king_at(square)]
    return key
