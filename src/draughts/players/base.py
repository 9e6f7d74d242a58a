"""What every player of a game shares: the :class:`Player` protocol, the :class:`Clock` it is given
and the :class:`TimeControl` a referee keeps.

A player is asked for moves by whoever keeps the game (the terminal game, the lab, the match
referee, a DXP session): :meth:`Player.choose` gets a copy of the board (its game not over) and
the side's clock (None: no clock), and answers the move with the player's own score of the
position for the side to move (None: it gives none). :meth:`Player.close` gets the final board
and frees what the player holds (a Hub engine's process, a DXP connection); players that hold
nothing make it a no-op.
"""

from __future__ import annotations

import math
from typing import Protocol

import attrs

from draughts._text import excerpt
from draughts.board import Board
from draughts.engine.score import Score
from draughts.errors import DraughtsError, InvalidLimitError
from draughts.move import Move

__all__ = [
    "CLOCK_MOVES",
    "CLOCK_SECONDS",
    "MIN_SECONDS",
    "MOVES_TO_GO",
    "Choice",
    "Clock",
    "Player",
    "Resigned",
    "TimeControl",
    "share_seconds",
]

Choice = tuple[Move, Score | None]
"""A player's move and its score of the position it moved from, for the side to move (None: no score)."""

CLOCK_SECONDS = 10.0**9
"""The most seconds a clock holds (about 31 years, what the Hub protocol writes): more is no limit."""
CLOCK_MOVES = 10**18 - 1
"""The most moves a clock counts to the next control (18 digits, what the Hub protocol writes)."""
MIN_SECONDS = 0.01
"""The least time a move gets from a clock: an empty clock still gets a move played."""
MOVES_TO_GO = 30
"""The moves a clock without a move count is shared over (sudden death)."""


class Resigned(DraughtsError):
    """A player gave the game up (a DXP follower's GAMEEND "I lose"): raised out of :meth:`Player.choose`."""


class Player(Protocol):
    """Anything that chooses moves in a game: the built-in engine, a random mover, a Hub engine,
    a DXP follower (see the module notes for who calls what)."""

    @property
    def name(self) -> str:
        """The player's name in tables, records and PDN tags (its player text, ``level:strong``)."""
        ...

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
        """The move to play on ``board`` (a copy; its game not over) with ``clock`` left, and the
        player's score of the position for the side to move (None: it gives none).

        Raises:
            Resigned: the player gives the game up.
        """
        ...

    def close(self, board: Board) -> None:
        """The game is over (``board`` as the keeper of the game ended it): free what the player holds."""
        ...


def share_seconds(left: float, inc: float = 0.0, moves: int | None = None) -> float:
    """The seconds one move gets: the time ``left`` (before this move's increment) shared over the
    ``moves`` to go (``MOVES_TO_GO`` (30) when None), plus the increment, never more than nine tenths
    of the clock once the increment is added, nor less than ``MIN_SECONDS`` (nor more than
    ``CLOCK_SECONDS``).

    >>> share_seconds(60.0, 1.0, 20)
    4.0
    """
    left = max(left, 0.0)
    seconds = min(left / (moves or MOVES_TO_GO) + inc, 0.9 * (left + inc))
    # Huge finite values add up to an infinity (1e308 + 1e308): no search needs years.
    return min(max(seconds, MIN_SECONDS), CLOCK_SECONDS)


def _number_text(value: object) -> str:
    """``value`` quoted for a message, even an int too long for :func:`repr` (past 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1000:
        return f"an integer of about {int(value.bit_length() * math.log10(2)):,} digits"
    return excerpt(value)


def _check_seconds(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not (number and 0 <= value <= CLOCK_SECONDS):  # type: ignore[operator]  # NaN compares false: refused
        raise InvalidLimitError(
            f"clock {attribute.name} {_number_text(value)} must be a number of seconds from 0 to {CLOCK_SECONDS:.0e}"
        )


def _check_moves(instance: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= CLOCK_MOVES):
        raise InvalidLimitError(
            f"clock moves {_number_text(value)} must be None or a whole number from 1 to {CLOCK_MOVES:,}"
        )


@attrs.frozen
class Clock:
    """A side's clock as it is about to move (what :meth:`Player.choose` gets; a Hub engine is sent
    it as ``level [moves=...] time=... [inc=...]`` and shares its time out itself).

    Attributes:
        time: Seconds left on the clock, without this move's increment (the player adds it before
            the move, as the Hub protocol says). At most 10**9 (about 31 years).
        inc: Seconds added to the clock before each move (Fischer time control).
        moves: Moves left to play before the next time control, or None for sudden death.

    Raises:
        ~draughts.DraughtsError: (``InvalidLimitError``) a time that is not a number of seconds
            from 0 to 10**9 (a huge integer, NaN, an infinity, a negative), or moves that are not
            a positive whole number.
    """

    time: float = attrs.field(validator=_check_seconds)
    inc: float = attrs.field(default=0.0, validator=_check_seconds)
    moves: int | None = attrs.field(default=None, validator=_check_moves)

    def budget(self) -> float:
        """Seconds the next move gets from this clock (:func:`share_seconds`)."""
        return share_seconds(self.time, self.inc, self.moves)


def _seconds(text: str, what: str, whole: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise DraughtsError(f"time control {excerpt(whole)}: {what} {excerpt(text)} is not a number of seconds from 0")
    return value


def _check_control(control: TimeControl) -> None:
    if not (math.isfinite(control.base) and 0 < control.base <= CLOCK_SECONDS):
        raise DraughtsError(f"time control base {control.base!r} must be above 0 seconds, at most {CLOCK_SECONDS:.0e}")
    if not (math.isfinite(control.inc) and 0 <= control.inc <= CLOCK_SECONDS):
        raise DraughtsError(f"time control increment {control.inc!r} must not be negative")
    if not (math.isfinite(control.margin) and control.margin >= 0):
        raise DraughtsError(f"time margin {control.margin!r} must be a number of seconds from 0")
    if isinstance(control.moves, bool) or not isinstance(control.moves, int) or not 0 <= control.moves <= 10**6:
        raise DraughtsError(f"time control moves {control.moves!r} must be a whole number from 0 (the whole game)")


@attrs.frozen
class TimeControl:
    """The time rule of a game, the same for both sides: ``base`` seconds on each clock, ``inc``
    added at each move, and, with ``moves``, the base given again after every ``moves`` moves (a
    repeating control, as DXP's "minutes for moves"; 0: the base is for the whole game).

    As in the Hub protocol, the increment is added when the move starts: a side about to move has
    its clock plus ``inc`` to spend, and keeps what it does not use. A side whose move takes more
    than that (beyond ``margin`` seconds of grace) loses on time.

    >>> TimeControl.parse("5+0.5", minutes=True)
    TimeControl(base=300.0, inc=0.5, margin=0.0, moves=0)
    """

    base: float
    inc: float = 0.0
    margin: float = 0.0
    moves: int = 0

    def __attrs_post_init__(self) -> None:
        _check_control(self)

    @classmethod
    def parse(cls, text: str, *, minutes: bool = False, margin: float = 0.0) -> TimeControl:
        """``SECONDS[+INC]``, or ``MIN[+INC]`` with ``minutes``; the increment in seconds.

        Raises:
            ~draughts.DraughtsError: a base that is not a number above 0, an increment below 0.
        """
        base, plus, inc = text.strip().partition("+")
        seconds = _seconds(base, "the base", text) * (60 if minutes else 1)
        increment = _seconds(inc, "the increment", text) if plus else 0.0
        if seconds <= 0:
            raise DraughtsError(f"time control {excerpt(text)}: the base must be above 0")
        return cls(seconds, increment, margin)

    @property
    def text(self) -> str:
        """The PDN ``TimeControl`` tag: ``[MOVES/]SECONDS[+INC]`` (``300+2``, ``50/600``)."""
        text = f"{self.base:g}+{self.inc:g}" if self.inc else f"{self.base:g}"
        return f"{self.moves}/{text}" if self.moves else text

    def clock(self, used: float, played: int) -> Clock:
        """A side's clock after it played ``played`` moves that took ``used`` seconds: the base (given
        again for each control begun), the increments of the moves played, less the time used.

        >>> TimeControl(600, moves=50).clock(used=30.0, played=50)
        Clock(time=1170.0, inc=0.0, moves=50)
        """
        periods = played // self.moves + 1 if self.moves else 1
        left = min(max(self.base * periods + self.inc * played - used, 0.0), CLOCK_SECONDS)
        return Clock(left, self.inc, self.moves - played % self.moves if self.moves else None)
