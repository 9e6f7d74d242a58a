"""Games kept on the server between requests: compact, bounded in number and in memory.

A :class:`GameSession` is one board of the page: a root position, a main line of moves and a
cursor in it, so undo, redo and clicking a ply only move the cursor, and a different move played
after an undo replaces the rest of the line. The session holds no position: only the root's FEN
and each move's squares (a :class:`Line`, a few bytes a ply), so that a game of 2,000 plies
costs tens of kilobytes, not megabytes; the worker that answers a request rebuilds the board from
them (and keeps recent boards in a bounded cache, see :mod:`draughts.web.tasks`).

The :class:`SessionStore` hands sessions out by random ids, forgets those left alone longer than
their time to live, and bounds both their number and the memory they hold together: past either,
the least recently used sessions go first.

Sessions are only touched from the event loop. A request sends a :class:`Snapshot` to a worker
and applies the answer only if the session's :attr:`~GameSession.version` has not moved
meanwhile (else 409), so two racing requests cannot both change a game.
"""

from __future__ import annotations

import secrets
import sys
import time
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from draughts._text import excerpt
from draughts.rules import Ruleset
from draughts.web.clock import GameClock
from draughts.web.views import RequestError

__all__ = ["MAX_PLIES", "GameSession", "Line", "SessionStore", "Snapshot"]

MAX_PLIES = 2_000
"""Longest line a session keeps (draw rules end real games long before)."""

_ID_LENGTH = 22  # secrets.token_urlsafe(16)
_BASE_BYTES = 1_500  # a session's objects besides its line, headers and clock, measured (see docs/web.rst)


class Line:
    """A line of moves, each as its path of squares, packed in arrays of 16-bit square numbers.

    >>> line = Line([(32, 28), (19, 23), (28, 19, 10)])
    >>> len(line), line.path(2), line.paths()[:1]
    (3, (28, 19, 10), [(32, 28)])
    >>> line.truncate(1); len(line)
    1
    """

    __slots__ = ("_ends", "_squares")

    def __init__(self, paths: Iterable[Sequence[int]] = ()) -> None:
        self._squares = array("H")
        self._ends = array("I")
        for path in paths:
            self.append(path)

    def __len__(self) -> int:
        return len(self._ends)

    def path(self, ply: int) -> tuple[int, ...]:
        """The squares of move ``ply`` (counted from 0)."""
        start = self._ends[ply - 1] if ply else 0
        return tuple(self._squares[start : self._ends[ply]])

    def paths(self) -> list[tuple[int, ...]]:
        """Every move's squares."""
        return [self.path(ply) for ply in range(len(self))]

    def append(self, path: Sequence[int]) -> None:
        """Add a move at the end."""
        self._squares.extend(path)
        self._ends.append(len(self._squares))

    def truncate(self, plies: int) -> None:
        """Keep the first ``plies`` moves."""
        if plies < len(self):
            del self._squares[self._ends[plies - 1] if plies else 0 :]
            del self._ends[plies:]

    def copy(self) -> Line:
        line = Line()
        line._squares = array("H", self._squares)
        line._ends = array("I", self._ends)
        return line

    @property
    def nbytes(self) -> int:
        """The memory the line holds, in bytes."""
        return sys.getsizeof(self._squares) + sys.getsizeof(self._ends) + 64

    def __reduce__(self) -> tuple[Any, ...]:
        return (_line_from, (self._squares.tobytes(), self._ends.tobytes()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and self._squares == other._squares and self._ends == other._ends

    __hash__ = None  # type: ignore[assignment]  # a line changes

    def __repr__(self) -> str:
        return f"Line({self.paths()!r})"


def _line_from(squares: bytes, ends: bytes) -> Line:
    line = Line()
    line._squares.frombytes(squares)
    line._ends.frombytes(ends)
    return line


@attrs.frozen
class Snapshot:
    """What a worker needs to rebuild a session's game: sent with each of its requests.

    Attributes:
        id: The session's id (the workers' cache key).
        rules: The ruleset.
        root: The FEN of the first position (lidraughts clock fields too), None for the start position.
        line: The moves of the main line.
        cursor: Plies of the line on the board.
        claimed: Whether a draw was claimed at the cursor.
    """

    id: str
    rules: Ruleset
    root: str | None
    line: Line
    cursor: int
    claimed: bool


class GameSession:
    """One game on the server: a root, a line of moves, a cursor in it; see the module notes.

    Attributes:
        id: The session's id.
        rules: The ruleset.
        root: The FEN of the first position (None: the start position).
        line: Every move of the line, those after the cursor included.
        cursor: Plies of the line played on the board (0 = the root position).
        headers: PDN tags of an imported game, written back on export.
        claimed: Whether a draw was claimed at the cursor.
        clock: The game's clock, None for an untimed game.
        version: Goes up with every change, so a request made on an old state can be refused.
        touched: When the session was last used (the store's clock).
    """

    __slots__ = ("claimed", "clock", "cursor", "headers", "id", "line", "root", "rules", "touched", "version")

    def __init__(self, session_id: str, rules: Ruleset, root: str | None = None) -> None:
        self.id = session_id
        self.rules = rules
        self.root = root
        self.line = Line()
        self.cursor = 0
        self.headers: dict[str, str] = {}
        self.claimed = False
        self.clock: GameClock | None = None
        self.version = 0
        self.touched = 0.0

    def snapshot(self) -> Snapshot:
        """The game as a worker rebuilds it."""
        return Snapshot(self.id, self.rules, self.root, self.line.copy(), self.cursor, self.claimed)

    def changed(self) -> None:
        """Count a change: requests made on the earlier state are refused."""
        self.version += 1

    def replace(
        self, rules: Ruleset, root: str | None, line: Line | None = None, headers: dict[str, str] | None = None
    ) -> None:
        """A new game in this session: ``rules`` from ``root``, ``line`` played (the cursor at its end).

        The caller counts the change (:meth:`changed`) unless the session is new."""
        self.rules = rules
        self.root = root
        self.line = Line() if line is None else line
        self.cursor = len(self.line)
        self.headers = dict(headers or {})
        self.claimed = False

    @property
    def nbytes(self) -> int:
        """Roughly the memory the session holds, in bytes (what the store's memory bound counts)."""
        size = _BASE_BYTES + self.line.nbytes + len(self.root or "")
        size += sum(len(name) + len(value) + 100 for name, value in self.headers.items())
        if self.clock is not None:
            size += self.clock.nbytes
        return size


class SessionStore:
    """Sessions by id, each forgotten ``ttl`` seconds after its last use; at most ``capacity`` of
    them, holding at most ``memory`` bytes together (as :attr:`GameSession.nbytes` counts them).

    Args:
        ttl: Seconds a session lives after its last use.
        capacity: Most sessions kept; one more drops the least recently used.
        memory: Most bytes the sessions hold together; past it the least recently used go.
        clock: Monotonic seconds (tests pass a fake one).
    """

    def __init__(
        self,
        ttl: float = 3600.0,
        capacity: int = 1000,
        clock: Callable[[], float] = time.monotonic,
        memory: int = 32 * 2**20,
    ) -> None:
        if ttl <= 0 or capacity < 1 or memory < 1:
            raise ValueError(f"ttl {ttl!r}, capacity {capacity!r} and memory {memory!r} must be positive")
        self.ttl = ttl
        self.capacity = capacity
        self.memory = memory
        self.clock = clock
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()

    def __len__(self) -> int:
        self._expire()
        return len(self._sessions)

    @property
    def nbytes(self) -> int:
        """The memory the live sessions hold together, as :attr:`GameSession.nbytes` counts it."""
        return sum(session.nbytes for session in self._sessions.values())

    def _expire(self) -> None:
        deadline = self.clock() - self.ttl
        while self._sessions:
            oldest = next(iter(self._sessions.values()))
            if oldest.touched > deadline:
                break
            del self._sessions[oldest.id]

    def bound(self, keep: GameSession | None = None) -> None:
        """Drop the least recently used sessions until the count and the memory are within bounds
        (``keep``, the session just used, goes last: alone it always fits, see :data:`MAX_PLIES`)."""
        self._expire()
        total = self.nbytes
        while self._sessions and (len(self._sessions) > self.capacity or total > self.memory):
            oldest = next(iter(self._sessions.values()))
            if oldest is keep:
                break
            total -= oldest.nbytes
            del self._sessions[oldest.id]

    @staticmethod
    def new_id() -> str:
        """A fresh random session id."""
        return secrets.token_urlsafe(16)

    def create(self, rules: Ruleset, root: str | None = None) -> GameSession:
        """A new session, stored (its root is not checked: the app has a worker read it first)."""
        return self.add(GameSession(self.new_id(), rules, root))

    def add(self, session: GameSession) -> GameSession:
        """Store ``session`` (made with :meth:`new_id`), dropping the least recently used beyond the bounds."""
        self._expire()
        session.touched = self.clock()
        self._sessions[session.id] = session
        self.bound(session)
        return session

    def get(self, session_id: str) -> GameSession:
        """The live session ``session_id``, marked as used now.

        Raises:
            RequestError: (404) no such session, or it has expired or been dropped.
        """
        self._expire()
        session = self._sessions.get(session_id) if _valid_id(session_id) else None
        if session is None:
            idle = f"{self.ttl / 60:g} minutes"
            raise RequestError(
                f"no game {excerpt(session_id)} on this server (games expire after {idle} unused, "
                "and the oldest go when the server holds too many)",
                404,
            )
        session.touched = self.clock()
        self._sessions.move_to_end(session_id)
        return session

    def delete(self, session_id: str) -> None:
        """Forget ``session_id`` (an unknown id is an error, like :meth:`get`)."""
        self.get(session_id)
        del self._sessions[session_id]


def _valid_id(text: Any) -> bool:
    return (
        isinstance(text, str)
        and len(text) == _ID_LENGTH
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in text)
    )
