"""Games kept on the server between requests, and their expiry.

A :class:`GameSession` is one board of the page: a main line of moves from a root position and a
cursor in it, so undo, redo and clicking a ply only move the cursor, and a different move played
after an undo replaces the rest of the line. The :class:`SessionStore` hands sessions out by
random ids, forgets those left alone longer than their time to live, and keeps at most a fixed
number (the least recently used goes first).

Sessions are only touched from the event loop; a search gets a copy of the board and its answer
is applied only if the session's :attr:`~GameSession.version` has not moved meanwhile.
"""

from __future__ import annotations

import datetime
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from draughts._text import excerpt
from draughts.board import Board, Outcome
from draughts.errors import IllegalMoveError
from draughts.move import Move
from draughts.notation import move_text
from draughts.pdn import Game, result_for, write_game
from draughts.rules import Ruleset
from draughts.svg import board as svg_board
from draughts.web.views import Json, RequestError, move_json, outcome_json, variant_json

__all__ = ["MAX_PLIES", "GameSession", "SessionStore"]

MAX_PLIES = 2_000
"""Longest line a session keeps (draw rules end real games long before)."""

_ID_LENGTH = 22  # secrets.token_urlsafe(16)


class GameSession:
    """One game on the server: a line of moves from a root position, and a cursor in it.

    Args:
        session_id: The id the store hands out.
        rules: The ruleset.
        fen: The root position (default: the start position); lidraughts clock fields are read.
        headers: PDN tags kept for the export.

    Attributes:
        id: The session's id.
        board: The game up to the cursor (its root is the line's start).
        line: Every move of the line, those after the cursor included.
        headers: PDN tags of an imported game, written back on export.
        claimed: The draw claimed at the cursor, if any.
        version: Goes up with every change, so a request made on an old state can be refused.
        touched: When the session was last used (the store's clock).
    """

    def __init__(self, session_id: str, rules: Ruleset, fen: str | None = None, headers: dict[str, str] | None = None):
        self.id = session_id
        self.board = Board(rules, fen)
        self.line: list[Move] = []
        self.headers: dict[str, str] = dict(headers or {})
        self.claimed: Outcome | None = None
        self.version = 0
        self.touched = 0.0
        self._history: list[Json] | None = None

    # --- state ---

    @property
    def rules(self) -> Ruleset:
        """The ruleset of the game."""
        return self.board.ruleset

    @property
    def cursor(self) -> int:
        """Plies of the line played on the board (0 = the root position)."""
        return len(self.board)

    def outcome(self) -> Outcome | None:
        """How the game stands ended at the cursor: a claimed draw, else the board's outcome."""
        return self.claimed or self.board.outcome()

    def _changed(self, *, line: bool = False) -> None:
        self.version += 1
        self.claimed = None
        if line:
            self._history = None

    # --- moving in the line ---

    def goto(self, ply: int) -> None:
        """Put the cursor on ``ply`` of the line (0 = the root)."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self.line):
            raise RequestError(f"ply {ply!r} is not in the game (0 to {len(self.line)})")
        if ply == self.cursor:
            return
        while self.cursor > ply:
            self.board.pop()
        while self.cursor < ply:
            self.board.push(self.line[self.cursor])
        self._changed()

    def undo(self) -> None:
        """One ply back (nothing to undo is an error)."""
        if self.cursor == 0:
            raise RequestError("nothing to undo: the game is at its first position", status=409)
        self.goto(self.cursor - 1)

    def redo(self) -> None:
        """One ply forward along the line (nothing to redo is an error)."""
        if self.cursor == len(self.line):
            raise RequestError("nothing to redo: the game is at the end of its line", status=409)
        self.goto(self.cursor + 1)

    def play(self, move: Move) -> None:
        """Play a legal ``move`` at the cursor; a move other than the line's next one replaces the rest.

        Raises:
            RequestError: the game is over, or the line is at its length limit.
            IllegalMoveError: ``move`` is not legal at the cursor.
        """
        outcome = self.outcome()
        if outcome is not None:
            raise RequestError(f"the game is over ({outcome.rule}, {outcome.result}); undo to play on", status=409)
        if not self.board.is_legal(move):
            raise IllegalMoveError(f"{move!r} is not legal in {self.board.fen()} ({self.rules.name})")
        if self.cursor >= MAX_PLIES:
            raise RequestError(f"the game has reached {MAX_PLIES} plies, the most a session keeps", status=409)
        cursor = self.cursor
        self.board.push(move)
        same = cursor < len(self.line) and self.line[cursor] == move and self.line[cursor].path == move.path
        if not same:
            del self.line[cursor:]
            self.line.append(move)
        self._changed(line=not same)

    def claim_draw(self) -> Outcome:
        """End the game with the draw a claim gives now.

        Raises:
            RequestError: no claimable draw (or the game is already over).
        """
        if self.outcome() is not None:
            raise RequestError("the game is already over", status=409)
        if not self.board.can_claim_draw():
            raise RequestError(f"no draw can be claimed in {self.board.fen()} ({self.rules.name})", status=409)
        outcome = self.board.claim_draw()
        self.version += 1
        self.claimed = outcome
        return outcome

    def reset(self, rules: Ruleset, fen: str | None) -> None:
        """Start again from ``fen`` (default: the start position) under ``rules``."""
        board = Board(rules, fen)
        self.board = board
        self.line = []
        self.headers = {}
        self._changed(line=True)

    # --- PDN ---

    def to_game(self) -> Game:
        """The whole line as a PDN game, with the result of the line's end."""
        end = self.board.copy()
        for move in self.line[self.cursor :]:
            end.push(move)
        outcome = self.claimed if self.cursor == len(self.line) and self.claimed else end.outcome()
        result = "*" if outcome is None else result_for(self.rules, outcome.winner)
        headers = {"Event": "polydraughts web board", "Date": datetime.date.today().strftime("%Y.%m.%d")}
        headers.update(self.headers)
        headers["Result"] = result
        return Game(self.rules, headers, self.board.root(), list(self.line), result)

    def export_pdn(self) -> str:
        """The line as PDN text (see :func:`draughts.pdn.write_game`)."""
        return write_game(self.to_game())

    def load_game(self, game: Game) -> None:
        """Replace the game with ``game`` (read from PDN), the cursor at its end.

        Raises:
            RequestError: the game is longer than a session keeps.
        """
        if len(game.moves) > MAX_PLIES:
            raise RequestError(f"the game has {len(game.moves)} plies; a session keeps at most {MAX_PLIES}")
        board = Board.from_position(game.start)
        for move in game.moves:
            board.push(move)
        self.board = board
        self.line = list(game.moves)
        self.headers = {name: value for name, value in game.headers.items() if name not in ("GameType", "SetUp", "FEN")}
        self._changed(line=True)

    # --- the JSON the page reads ---

    def history(self) -> list[Json]:
        """Every ply of the line: its number, the side that played it, its text."""
        if self._history is None:
            walk = self.board.copy()
            while len(walk):
                walk.pop()
            entries = []
            for index, move in enumerate(self.line, 1):
                entries.append(
                    {
                        "ply": index,
                        "number": walk.fullmove_number,
                        "side": str(walk.turn),
                        "text": move_text(walk.position, move),
                    }
                )
                walk.push(move)
            self._history = entries
        return self._history

    def state(self, *, flipped: bool = False, numbers: bool = False, size: float = 560) -> Json:
        """What the page shows: the board (SVG), FEN, legal moves, line, outcome and claimable draw."""
        position = self.board.position
        outcome = self.outcome()
        last = self.board.peek() if len(self.board) else None
        previous = self.board.positions()[-2] if last is not None else None
        claimable = outcome is None and self.board.can_claim_draw()
        claim_rule = self.board.claim_draw().rule if claimable else None
        return {
            "id": self.id,
            "version": self.version,
            "variant": variant_json(self.rules),
            "fen": position.fen(),
            "turn": str(position.turn),
            "ply": self.cursor,
            "plies": len(self.line),
            "fullmove_number": self.board.fullmove_number,
            "moves": [] if outcome is not None else [move_json(position, move) for move in position.legal_moves()],
            "history": self.history(),
            "last_move": None if last is None or previous is None else move_json(previous, last),
            "outcome": outcome_json(outcome, claimed=self.claimed is not None),
            "can_claim_draw": claimable,
            "claim_rule": claim_rule,
            "flipped": flipped,
            "numbers": numbers,
            "svg": svg_board(position, flipped=flipped, square_numbers=numbers, last_move=last, size=size),
        }


class SessionStore:
    """Sessions by id, each forgotten ``ttl`` seconds after its last use; at most ``capacity`` of them.

    Args:
        ttl: Seconds a session lives after its last use.
        capacity: Most sessions kept; creating one more drops the least recently used.
        clock: Monotonic seconds (tests pass a fake one).
    """

    def __init__(self, ttl: float = 3600.0, capacity: int = 1000, clock: Callable[[], float] = time.monotonic) -> None:
        if ttl <= 0 or capacity < 1:
            raise ValueError(f"ttl {ttl!r} and capacity {capacity!r} must be positive")
        self.ttl = ttl
        self.capacity = capacity
        self._clock = clock
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()

    def __len__(self) -> int:
        self._expire()
        return len(self._sessions)

    def _expire(self) -> None:
        deadline = self._clock() - self.ttl
        while self._sessions:
            oldest = next(iter(self._sessions.values()))
            if oldest.touched > deadline:
                break
            del self._sessions[oldest.id]

    def create(self, rules: Ruleset, fen: str | None = None) -> GameSession:
        """A new session (raises like :class:`~draughts.Board` on a bad FEN, before storing anything)."""
        self._expire()
        session = GameSession(secrets.token_urlsafe(16), rules, fen)
        while len(self._sessions) >= self.capacity:
            self._sessions.popitem(last=False)
        session.touched = self._clock()
        self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> GameSession:
        """The live session ``session_id``, marked as used now.

        Raises:
            RequestError: (404) no such session, or it has expired.
        """
        self._expire()
        session = self._sessions.get(session_id) if _valid_id(session_id) else None
        if session is None:
            idle = f"{self.ttl / 60:g} minutes"
            raise RequestError(f"no game {excerpt(session_id)} on this server (games expire after {idle} unused)", 404)
        session.touched = self._clock()
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
