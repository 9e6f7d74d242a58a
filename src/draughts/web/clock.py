"""A game's clock: each side's time and an increment per move, kept and enforced by the server.

The server is the only timekeeper: a player's time runs from the moment the position was
shown (the previous move was answered) until the server receives their move, so a slow
connection costs its own player, and a page's countdown is only a display of what the server
says. The clock starts with the first move (the first move is free, as on lidraughts: no time
taken, no increment); after each later move the mover gets the increment. A side whose time is
up when the server next hears of the game -- any request -- has lost on time: the game ends, the
other side wins.

Going back in the game (undo, a click on an earlier ply) puts both clocks back to what they
showed after that ply, so a take-back against the computer does not cost time.
"""

from __future__ import annotations

from array import array
from typing import Any

from draughts.color import Color

__all__ = ["GameClock"]


class GameClock:
    """Both sides' clocks of one game.

    Args:
        initial: Seconds each side starts with.
        increment: Seconds added to a side's time after each of its moves.
    """

    __slots__ = ("_history", "_left", "flagged", "increment", "initial", "running", "since")

    def __init__(self, initial: float, increment: float) -> None:
        self.initial = initial
        self.increment = increment
        self._left = [initial, initial]  # by Color: what each side had when its clock last stopped
        self._history = array("d")  # both sides' times after each ply of the line
        self.running: Color | None = None
        """The side whose time is running (None: before the first move, and once the game is over)."""
        self.since = 0.0
        """When the running side's time started running (the store's clock)."""
        self.flagged: Color | None = None
        """The side that lost on time, if one has."""

    def left(self, color: Color, now: float) -> float:
        """Seconds ``color`` has at ``now``."""
        spent = now - self.since if self.running is color else 0.0
        return max(0.0, self._left[int(color)] - spent)

    def check(self, now: float) -> bool:
        """Whether the running side's time is up at ``now``; if so the clock marks it as flagged."""
        if self.flagged is None and self.running is not None and self.left(self.running, now) <= 0:
            self._left[int(self.running)] = 0.0
            self.flagged, self.running = self.running, None
        return self.flagged is not None

    def moved(self, mover: Color, played: float, now: float, ply: int, *, over: bool) -> None:
        """``mover``'s move, received at ``played``, is on the board at ``now`` (ply ``ply`` of the line).

        The mover's time stops at ``played`` and gets the increment; the other side's starts at
        ``now`` unless the game is ``over``.
        """
        if self.running is mover:
            self._left[int(mover)] = max(0.0, self._left[int(mover)] - (played - self.since)) + self.increment
        del self._history[2 * (ply - 1) :]
        self._history.extend(self._left)
        self.running = None if over else mover.opponent
        self.since = now

    def went_to(self, ply: int, turn: Color, now: float, *, over: bool) -> None:
        """The game went back or forward to ``ply`` of its line, ``turn`` to move: the clocks as they were then."""
        if ply == 0:
            self._left = [self.initial, self.initial]
        else:
            self._left = list(self._history[2 * (ply - 1) : 2 * ply])
        self.running = None if over or ply == 0 else turn
        self.since = now

    def stop(self) -> None:
        """The game is over (not on time): no clock runs."""
        self.running = None

    def control(self) -> str:
        """The time control in PDN's TimeControl form, seconds + increment (``"300+3"``)."""
        return f"{self.initial:g}+{self.increment:g}"

    def json(self, now: float) -> dict[str, Any]:
        """What the page shows: each side's seconds now, which clock runs, who lost on time."""
        return {
            "initial": self.initial,
            "increment": self.increment,
            "white": round(self.left(Color.WHITE, now), 3),
            "black": round(self.left(Color.BLACK, now), 3),
            "running": None if self.running is None else str(self.running),
            "flagged": None if self.flagged is None else str(self.flagged),
        }

    @property
    def nbytes(self) -> int:
        """Roughly the memory the clock holds, in bytes."""
        return 200 + self._history.itemsize * len(self._history)
