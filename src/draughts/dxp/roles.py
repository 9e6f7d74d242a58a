"""The two DXP roles over TCP: :func:`listen` (the follower, a server) and :func:`connect` (the initiator),
and a DXP follower as a :class:`~draughts.players.Player` of someone else's game (:class:`DXPFollower`).

Both roles play with a :class:`~draughts.players.Player` (:func:`level_player` makes one of the built-in
engine), keep a referee board per game and, given a path, append every finished game to a PDN file.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable
from pathlib import Path

from draughts.board import Board
from draughts.color import BLACK, WHITE, Color
from draughts.dxp import codec
from draughts.dxp.board_text import (
    check_board,
    color_letter,
    find_move,
    letter_color,
    move_message,
    parse_position_field,
    position_field,
)
from draughts.dxp.codec import BackAccept, BackRequest, Chat, GameAccept, GameEnd, GameRequest, MoveMessage
from draughts.dxp.session import LOG, Connection, DXPRecord, peer_timeout, play_game, time_control
from draughts.errors import DXPConnectionError, DXPError
from draughts.players.base import Choice, Clock, Player, Resigned
from draughts.players.builtin import EnginePlayer
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.files import resolve_ruleset

__all__ = ["DECLINE_GAME", "DEFAULT_PORT", "connect", "level_player", "listen"]

DEFAULT_PORT = 27531
"""The DXP port."""

DECLINE_GAME = 2
"""GAMEACC code for a game this follower cannot play (a position its ruleset does not allow)."""


def level_player(level: str = "intermediate", seed: int | None = 0) -> EnginePlayer:
    """The built-in engine at ``level`` as a player, its search cut to the clock's share."""
    from draughts.players.spec import parse_player

    spec = parse_player(level if ":" in level else f"level:{level}", accepted=("level",), command="DXP")
    return EnginePlayer(spec.engine(seed), spec.text)


def _record(record: DXPRecord, pdn: str | Path | None, games: list[DXPRecord]) -> None:
    games.append(record)
    LOG.info("DXP game %d: %s (%s)", len(games), record.result, record.termination)
    if pdn is not None:
        record.append_pdn(pdn)


def _answer(conn: Connection, request: GameRequest, ruleset: Ruleset, name: str) -> Board | None:
    """Accept ``request`` (the board to play on) or decline it (None).

    A start where the game is already over (an empty board, a side without pieces or moves) is
    declined: accepted, it would be recorded as a finished game nobody played.

    Raises:
        DXPConnectionError: the answer cannot be sent (the peer is gone).
    """
    try:
        start = (
            Position.initial(ruleset) if request.position is None else parse_position_field(ruleset, request.position)
        )
        board = Board.from_position(start)
        if board.outcome() is not None:
            raise DXPError(f"the requested start {request.position!r} is a finished game ({board.result()})")
    except DXPError as error:
        LOG.error("declined a DXP game request: %s", error)
        conn.send(GameAccept(name, DECLINE_GAME))
        return None
    conn.send(GameAccept(name, codec.GAME_ACCEPTED))
    return board


def listen(
    player: Player,
    *,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    games: int = 1,
    ruleset: Ruleset | str = "international",
    name: str = "polydraughts",
    pdn: str | Path | None = None,
    timeout: float | None = 600.0,
    ready: Callable[[tuple[str, int]], None] | None = None,
) -> list[DXPRecord]:
    """Be a DXP follower: answer ``games`` game requests (over one or more connections), then return.

    Args:
        player: Chooses our moves.
        host, port: Where to listen (port 0: any free port; ``ready`` hears which).
        games: Game requests to answer before returning (declined ones, and games whose
            connection failed before the peer made a move, do not count).
        ruleset: The rules of the games (50 squares).
        name: Our name in GAMEACC.
        pdn: Append each finished game to this PDN file.
        timeout: Most seconds to wait for a peer's message when the request sets no clock.
        ready: Called with the bound address once the server listens.

    Raises:
        DXPError: the ruleset is not a 10x10 one.
    """
    rules = resolve_ruleset(ruleset)
    check_board(rules)
    records: list[DXPRecord] = []
    with socket.create_server((host, port)) as server:
        address = server.getsockname()
        LOG.info("DXP follower listening on %s:%d", address[0], address[1])
        if ready is not None:
            ready((address[0], address[1]))
        while len(records) < games:
            sock, peer = server.accept()
            conn = Connection(sock)
            try:
                _serve_connection(conn, player, rules, name, games, records, pdn, timeout)
            except DXPError as error:  # one peer's fault ends its connection, never the follower
                LOG.error("DXP follower: the connection from %s ended: %s", peer[0], error)
            finally:
                conn.close()
    return records


def _serve_connection(
    conn: Connection,
    player: Player,
    rules: Ruleset,
    name: str,
    games: int,
    records: list[DXPRecord],
    pdn: str | Path | None,
    timeout: float | None,
) -> None:
    deadline = None if timeout is None else time.monotonic() + timeout  # for the next GAMEREQ
    while len(records) < games:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            LOG.error("DXP follower: no game request within %g s; the connection is closed", timeout)
            return
        try:
            message = conn.receive(left)
        except DXPConnectionError:
            return
        except DXPError as error:
            LOG.error("DXP follower: %s", error)
            continue
        if isinstance(message, Chat):
            LOG.info("DXP chat: %s", message.text)
            continue
        if not isinstance(message, GameRequest):
            LOG.warning("DXP follower: ignored %r outside a game", message)
            continue
        board = _answer(conn, message, rules, name)
        if board is None:
            continue
        clock = time_control(message.minutes, message.moves)
        last = len(records) + 1 == games
        record = play_game(
            conn,
            board,
            letter_color(message.follower_color),
            player,
            names=(name, message.name),
            clock=clock,
            timeout=peer_timeout(clock, timeout),
            stop_code=codec.STOP_NO_MORE if last else codec.STOP_NEXT_GAME,
        )
        if _connection_lost(record) and not _peer_moved(record):
            LOG.warning(
                "DXP follower: the game with %s ended before the peer's first move (%s): not counted",
                message.name,
                record.error,
            )
            return
        _record(record, pdn, records)
        if record.stop or _connection_lost(record):
            return
        deadline = None if timeout is None else time.monotonic() + timeout


def _connection_lost(record: DXPRecord) -> bool:
    """Whether the game ended with the connection gone (or unusable)."""
    return record.error is not None


def _peer_moved(record: DXPRecord) -> bool:
    """Whether the peer sent a move in the game, legal or not (a game it never moved in was never played).

    Our own first move does not count: whether it goes out before a peer's reset arrives is a
    race, and a peer that requests a game, has us move first and resets would otherwise use up a
    ``games`` follower's games without playing one. An illegal move counts: the peer played, and
    lost the game by it.
    """
    return record.peer_moves > 0


def connect(
    player: Player,
    address: tuple[str, int],
    *,
    games: int = 1,
    ruleset: Ruleset | str = "international",
    name: str = "polydraughts",
    minutes: int = 0,
    moves: int = 0,
    start: Position | None = None,
    pdn: str | Path | None = None,
    timeout: float | None = 600.0,
) -> list[DXPRecord]:
    """Be a DXP initiator: request ``games`` games of the follower at ``address``, alternating colours.

    We play White in the first game. A connection lost in a game ends that game (its record says so)
    and the next game connects again. When the follower's GAMEEND says it wants no more games, or a
    later game cannot start, the games played so far are returned (the log says why there are fewer).

    Raises:
        DXPError: the first game cannot start: the follower declined it, or cannot be reached; the
            ruleset is not 10x10.
    """
    rules = resolve_ruleset(ruleset)
    check_board(rules)
    root = Position.initial(rules) if start is None else start
    field = None if start is None else position_field(root)
    records: list[DXPRecord] = []
    conn: Connection | None = None
    try:
        for index in range(games):
            ours = WHITE if index % 2 == 0 else BLACK
            try:
                if conn is None:
                    conn = _reach(address, timeout)
                request = GameRequest(name, "Z" if ours is WHITE else "W", minutes, moves, field)
                peer_name = _request_game(conn, request, timeout)
            except DXPError as error:
                if not records:
                    raise
                LOG.error("DXP initiator: game %d of %d not played: %s", index + 1, games, error)
                break
            clock = time_control(minutes, moves)
            record = play_game(
                conn,
                Board.from_position(root),
                ours,
                player,
                names=(name, peer_name),
                clock=clock,
                timeout=peer_timeout(clock, timeout),
                stop_code=codec.STOP_NO_MORE if index + 1 == games else codec.STOP_NEXT_GAME,
            )
            _record(record, pdn, records)
            if record.stop and index + 1 < games:
                LOG.warning("DXP initiator: %s wants no more games; %d of %d played", peer_name, len(records), games)
                break
            if _connection_lost(record):
                conn.close()
                conn = None
    finally:
        if conn is not None:
            conn.close()
    return records


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

    def __init__(
        self,
        address: tuple[str, int],
        board: Board,
        color: Color,
        minutes: int,
        timeout: float,
        *,
        name: str = "dxp",
    ) -> None:
        check_board(board.ruleset)
        self.name = name
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
            if answer.code != codec.GAME_ACCEPTED:
                raise DXPError(f"the DXP follower {answer.name!r} declined the game (code {answer.code})")
        except BaseException:
            self.conn.close()
            raise
        self.peer = answer.name

    def _send_moves(self, board: Board) -> None:
        for move in board.move_stack[self.sent :]:
            self.conn.send(move_message(move, 0.0))
        self.sent = len(board.move_stack)

    def choose(self, board: Board, clock: Clock | None = None) -> Choice:
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
                if message.reason == codec.REASON_I_LOSE:
                    raise Resigned(f"{self.peer} resigned (DXP GAMEEND)")
                raise DXPError(
                    f"{self.peer} ended the game (GAMEEND reason {message.reason}) where the referee plays on"
                )
            if isinstance(message, BackRequest):
                self.conn.send(BackAccept(1))  # not supported
            elif not isinstance(message, Chat):
                raise DXPError(f"unexpected DXP message during a game: {message!r}")

    def close(self, board: Board) -> None:
        with contextlib.suppress(DXPError):
            self._send_moves(board)
            outcome = board.outcome()
            reason = codec.REASON_UNKNOWN  # a forfeit or an adjudication: the referee's result, not ours to claim
            if outcome is not None:  # our GAMEEND speaks for the follower's opponent
                if outcome.winner is None:
                    reason = codec.REASON_DRAW
                else:
                    reason = codec.REASON_I_LOSE if outcome.winner is self.color else codec.REASON_I_WIN
            self.conn.send(GameEnd(reason, 1))
            deadline = time.monotonic() + DXP_END_WAIT
            while (left := deadline - time.monotonic()) > 0:
                if isinstance(self.conn.receive(left), GameEnd):
                    break
        self.conn.close()


def _reach(address: tuple[str, int], timeout: float | None) -> Connection:
    """A connection to the follower at ``address``.

    Raises:
        DXPConnectionError: it cannot be reached.
    """
    try:
        return Connection(socket.create_connection(address, timeout=timeout))
    except OSError as error:
        raise DXPConnectionError(f"cannot reach the DXP follower at {address[0]}:{address[1]}: {error}") from None


def _request_game(conn: Connection, request: GameRequest, timeout: float | None) -> str:
    """Send ``request`` and return the follower's name from its acceptance; chat meanwhile does
    not restart the wait.

    Raises:
        DXPError: the follower declined, answered something else, or did not answer in time.
    """
    conn.send(request)
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise DXPConnectionError(f"the DXP follower did not answer the game request within {timeout:g} s")
        answer = conn.receive(left)
        if not isinstance(answer, Chat):
            break
    if not isinstance(answer, GameAccept):
        raise DXPError(f"the DXP follower answered a game request with {answer!r}")
    if answer.code != codec.GAME_ACCEPTED:
        raise DXPError(f"the DXP follower {answer.name!r} declined the game (code {answer.code})")
    return answer.name
