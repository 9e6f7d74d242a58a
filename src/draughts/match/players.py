"""The players of a match game: the built-in engine, an external Hub engine, a DXP follower.

Each is made for one game by :meth:`EngineSpec.player <draughts.match.EngineSpec.player>`
and asked for moves by the referee (:func:`~draughts.match.play_task`), which keeps the
board and the clocks: :meth:`MatchPlayer.move` gets a copy of the board and the side's
:class:`~draughts.hub.client.Clock` (None without a time control) and answers a move with the
engine's score (for adjudication by scores; a DXP follower gives none);
:meth:`MatchPlayer.close` gets the final board and releases the engine. Any exception out of
``move`` forfeits the game for that side.
"""

from __future__ import annotations

import contextlib
import shlex
import socket
import time
from collections.abc import Mapping
from typing import Protocol

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.engine import Limit
from draughts.engine.score import Score
from draughts.errors import DraughtsError, DXPConnectionError, DXPError
from draughts.hub.client import Clock, HubResult
from draughts.move import Move


class Resigned(DraughtsError):
    """The engine gave the game up (a DXP follower's GAMEEND "I lose")."""


class MatchPlayer(Protocol):
    """One side of one match game."""

    def move(self, board: Board, clock: Clock | None) -> tuple[Move, Score | None]:
        """The move to play on ``board`` (a copy; its game is not over) with ``clock`` left, and the
        engine's score of it for the side to move (None: it gave none)."""
        ...

    def close(self, board: Board) -> None:
        """The game is over (``board`` as the referee ended it): release the engine."""
        ...


def clock_budget(clock: Clock) -> float:
    """Seconds one move gets from ``clock``: the Hub server's share (``draughts.hub.levels.clock_seconds``)."""
    from draughts.hub.levels import clock_seconds
    from draughts.hub.protocol import seconds_text

    args = {"time": seconds_text(clock.time), "inc": seconds_text(clock.inc)}
    if clock.moves is not None:
        args["moves"] = str(clock.moves)
    return clock_seconds(args)


class BuiltIn:
    """The built-in engine at a level; a clock or a per-move time replaces the level's own time."""

    def __init__(self, level: str, limit: Limit) -> None:
        from draughts.engine import get_level

        self.engine = get_level(level).engine()
        self.limit = attrs.evolve(self.engine.limit, time=limit.time) if limit.time else self.engine.limit
        if limit.depth:
            self.limit = attrs.evolve(self.limit, depth=limit.depth)

    def move(self, board: Board, clock: Clock | None) -> tuple[Move, Score | None]:
        limit = self.limit if clock is None else attrs.evolve(self.limit, time=clock_budget(clock))
        result = self.engine.search(board, limit)
        assert result.move is not None  # the referee asks only while the game goes on
        return result.move, Score.from_search(result.score)

    def close(self, board: Board) -> None:
        pass


class Hub:
    """An external Hub engine, one process per game: the clock goes as ``level time= inc=``.

    Under a clock the client waits for the move ``grace`` seconds past the time on the clock (the
    referee's margin and a second), not its usual 30: a hung engine loses on time promptly.
    """

    def __init__(self, command: str, ruleset: str, params: Mapping[str, str], limit: Limit, grace: float = 1.0) -> None:
        from draughts.hub.client import HubEngine

        self.hub = HubEngine(shlex.split(command), timeout=30.0)
        try:
            self.hub.init(ruleset, dict(params))
        except BaseException:
            self.hub.process.kill()
            raise
        self.limit = None if not (limit.depth or limit.nodes or limit.time) else limit
        self.grace = grace

    def move(self, board: Board, clock: Clock | None) -> tuple[Move, Score | None]:
        if clock is None:
            return _scored(self.hub.go(board, self.limit))
        usual, self.hub.timeout = self.hub.timeout, self.grace
        try:
            return _scored(self.hub.go(board, self.limit, clock=clock))
        finally:
            self.hub.timeout = usual

    def close(self, board: Board) -> None:
        try:
            self.hub.quit(timeout=2.0)
        except Exception:
            self.hub.process.kill()


def _scored(result: HubResult) -> tuple[Move, Score | None]:
    """The move of a Hub answer and the score of its last ``info`` line that has one."""
    scores = [info.score for info in result.infos if info.score is not None]
    return result.move, scores[-1] if scores else None


DXP_END_WAIT = 2.0
"""Seconds to wait for a DXP follower's GAMEEND after ours."""


class DXPFollower:
    """A DXP follower at ``host:port``, one connection per game: we are its initiator.

    The GAMEREQ gives the follower its colour and the game's start position (setup ``B`` when the
    game does not start from the initial position), and the time control as whole minutes
    (DXP has no increment: the base time rounded up, for all moves); the opponent's moves are sent
    as MOVE messages, the follower's are mapped to the one legal move with their identity. A
    GAMEEND "I lose" from the follower is a resignation; any other GAMEEND before the referee
    sees the game over, a garbled frame, an illegal move or a dropped connection forfeits.
    """

    def __init__(self, address: tuple[str, int], board: Board, color: Color, minutes: int, timeout: float) -> None:
        from draughts.dxp.board_text import check_board, color_letter, position_field
        from draughts.dxp.codec import GAME_ACCEPTED, Chat, GameAccept, GameRequest
        from draughts.dxp.session import Connection

        check_board(board.ruleset)
        self.timeout = timeout
        self.color = color
        self.sent = len(board.move_stack)  # the moves the follower has: those of the start it is given
        try:
            sock = socket.create_connection(address, timeout=timeout)
        except OSError as error:
            raise DXPConnectionError(f"cannot reach the DXP follower at {address[0]}:{address[1]}: {error}") from None
        self.conn = Connection(sock)
        try:
            start = board.position
            field = None if start == type(start).initial(board.ruleset) else position_field(start)
            self.conn.send(GameRequest("polydraughts match", color_letter(color), minutes, 0, field))
            answer = self.conn.receive(timeout)
            while isinstance(answer, Chat):
                answer = self.conn.receive(timeout)
            if not isinstance(answer, GameAccept):
                raise DXPError(f"the DXP follower answered a game request with {answer!r}")
            if answer.code != GAME_ACCEPTED:
                raise DXPError(f"the DXP follower {answer.name!r} declined the game (code {answer.code})")
        except BaseException:
            self.conn.close()
            raise
        self.name = answer.name

    def _send_moves(self, board: Board) -> None:
        from draughts.dxp.board_text import move_message

        for move in board.move_stack[self.sent :]:
            self.conn.send(move_message(move, 0.0))
        self.sent = len(board.move_stack)

    def move(self, board: Board, clock: Clock | None) -> tuple[Move, Score | None]:
        from draughts.dxp.board_text import find_move
        from draughts.dxp.codec import REASON_I_LOSE, BackAccept, BackRequest, Chat, GameEnd, MoveMessage

        self._send_moves(board)
        wait = self.timeout if clock is None else clock.time + clock.inc + self.timeout
        deadline = time.monotonic() + wait  # one deadline for the move: CHAT and BACKREQ do not restart it
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DXPConnectionError(f"{self.name} sent no move within {wait:g} s")
            message = self.conn.receive(left)
            if isinstance(message, MoveMessage):
                move = find_move(board.position, message)
                self.sent += 1
                return move, None  # DXP carries no score
            if isinstance(message, GameEnd):
                if message.reason == REASON_I_LOSE:
                    raise Resigned(f"{self.name} resigned (DXP GAMEEND)")
                raise DXPError(
                    f"{self.name} ended the game (GAMEEND reason {message.reason}) where the referee plays on"
                )
            if isinstance(message, BackRequest):
                self.conn.send(BackAccept(1))  # not supported
            elif not isinstance(message, Chat):
                raise DXPError(f"unexpected DXP message during a game: {message!r}")

    def close(self, board: Board) -> None:
        from draughts.dxp.codec import REASON_DRAW, REASON_I_LOSE, REASON_I_WIN, REASON_UNKNOWN, GameEnd

        with contextlib.suppress(DXPError):
            self._send_moves(board)
            outcome = board.outcome()
            reason = REASON_UNKNOWN  # a forfeit or an adjudication: the referee's result, not ours to claim
            if outcome is not None:  # our GAMEEND speaks for the follower's opponent
                if outcome.winner is None:
                    reason = REASON_DRAW
                else:
                    reason = REASON_I_LOSE if outcome.winner is self.color else REASON_I_WIN
            self.conn.send(GameEnd(reason, 1))
            deadline = time.monotonic() + DXP_END_WAIT
            while (left := deadline - time.monotonic()) > 0:
                if isinstance(self.conn.receive(left), GameEnd):
                    break
        self.conn.close()
