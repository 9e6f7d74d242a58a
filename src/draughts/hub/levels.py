"""What the server's ``level`` lines mean: the search limit of the next ``go``.

A ``level`` line sets the forms it names (``depth=``, ``nodes=``, ``move-time=``, or the clock
``[moves=] time= [inc=]``); lines add up until ``level infinite`` clears them, and the next
``pos`` or ``go`` forgets them, as in Scan.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from draughts.engine import InvalidLimitError, Limit
from draughts.hub.protocol import MAX_SECONDS, read_count, read_seconds
from draughts.players.base import MIN_SECONDS, MOVES_TO_GO, share_seconds

__all__: list[str] = []


@attrs.frozen
class LevelLimits:
    """The limits the ``level`` lines since the last search have set (None: not set)."""

    depth: int | None = None
    nodes: int | None = None
    seconds: float | None = None

    def limit(self) -> Limit:
        """The search limit these give (``Limit()``, no limit at all, after ``level infinite`` alone)."""
        return Limit(depth=self.depth, nodes=self.nodes, time=self.seconds)


def clock_seconds(args: Mapping[str, str]) -> float:
    """The time one move gets from ``time=`` (without this move's increment), ``moves=`` and ``inc=``.

    The clock is shared as every player's clock is (:func:`draughts.players.share_seconds`): over
    the moves to go (30 without ``moves=``), plus the increment, never more than nine tenths of what
    is on the clock once the increment is added (nor less than ``MIN_SECONDS``).
    """
    left = max(read_seconds("time", args["time"], negative=True), 0.0)  # a GUI may send an overrun clock
    inc = read_seconds("inc", args["inc"]) if "inc" in args else 0.0
    to_go = MOVES_TO_GO
    if "moves" in args:
        to_go = read_count("moves", args["moves"], least=0) or MOVES_TO_GO  # moves=0: not given, as Scan reads it
    return _bounded(share_seconds(left, inc, to_go))


def _bounded(seconds: float) -> float:
    # Huge finite values add up to an infinity (time=1e308 inc=1e308): no search needs years.
    return min(max(seconds, MIN_SECONDS), MAX_SECONDS)


def read_level(args: Mapping[str, str], current: LevelLimits | None) -> LevelLimits | None:
    """The limits after a ``level`` line with ``args``, added to ``current``; ``current`` if it names none.

    All or nothing: a bad value raises before anything is taken.

    Raises:
        InvalidLimitError: a value that is not a positive count or a number of seconds, or
            ``moves=``/``inc=`` without ``time=``.
    """
    given = "infinite" in args
    limits = LevelLimits() if current is None or given else current
    if "depth" in args:
        limits = attrs.evolve(limits, depth=read_count("depth", args["depth"]))
        given = True
    if "nodes" in args:
        limits = attrs.evolve(limits, nodes=read_count("nodes", args["nodes"]))
        given = True
    if "move-time" in args:
        limits = attrs.evolve(limits, seconds=_bounded(read_seconds("move-time", args["move-time"])))
        given = True
    if "time" in args:
        limits = attrs.evolve(limits, seconds=clock_seconds(args))
        given = True
    elif "moves" in args or "inc" in args:
        raise InvalidLimitError("moves= and inc= need time= (the time left on the clock)")
    return limits if given else current
