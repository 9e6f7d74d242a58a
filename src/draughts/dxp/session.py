"""One DXP game over a connection, the same for the initiator and the follower.

Both sides keep a :class:`~draughts.Board` as referee: every MOVE received is mapped to the one legal
move with its identity (:func:`~draughts.dxp.board_text.find_move`) and pushed, every move sent comes
from the board's legal moves. A game ends:

* by the rules (the board's :meth:`~draughts.Board.outcome`): we send GAMEEND with our reason and wait
  a moment for the peer's; a GAMEEND that crosses ours needs no answer;
* by the peer's GAMEEND (a resignation, a draw offer taken, its own view of the end): we answer with
  one of ours;
* by an error: a garbled frame, an illegal or ambiguous move, a message out of turn, a dropped or
  silent connection. The error goes to the ``draughts.dxp`` log, a GAMEEND (reason unknown) goes to the
  peer when the line still works, and the game's record says how it ended; nothing is raised.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from pathlib import Path

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.dxp.board_text import find_move, move_message
from draughts.dxp.codec import (
    BACK_NOT_SUPPORTED,
    MAX_FRAME,
    REASON_DRAW,
    REASON_I_LOSE,
    REASON_I_WIN,
    REASON_UNKNOWN,
    STOP_NEXT_GAME,
    BackAccept,
    BackRequest,
    Chat,
    GameEnd,
    Message,
    MoveMessage,
    decode,
    encode,
)
from draughts.errors import DXPConnectionError, DXPError
from draughts.players.base import Player, TimeControl
from draughts.results import result_for

__all__ = ["END_WAIT", "LOG", "Connection", "DXPRecord", "peer_timeout", "play_game", "time_control"]

LOG = logging.getLogger("draughts.dxp")

END_WAIT = 5.0
"""Seconds to wait for the peer's GAMEEND after ours."""

MOVE_WAIT_CAP = 600.0
"""Most seconds we wait for one peer move when the caller sets no ``timeout`` of its own: the
GAMEREQ's clock is the peer's word, and a 999-minute clock must not buy the peer hours a move."""


class Connection:
    """A DXP connection over a TCP socket: ``\\0``-terminated frames, decoded one at a time."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._buffer = bytearray()
        self._chat_head: bytes | None = None  # the kept start of a too-long CHAT whose rest is skipped

    def send(self, message: Message) -> None:
        """Send one message.

        Raises:
            DXPConnectionError: the connection is gone.
        """
        LOG.debug("send %r", message)
        try:
            self.sock.sendall(encode(message))
        except OSError as error:
            raise DXPConnectionError(f"cannot send to the DXP peer: {error}") from None

    def receive(self, timeout: float | None) -> Message:
        """The next message, waiting at most ``timeout`` seconds (None: without end).

        A CHAT longer than a frame may be (``MAX_FRAME``, 1,024 characters) is cut to its
        first characters and logged, never an error: chat is free text, and a long greeting must
        not end a game. Its characters outside printable ASCII read as ``?``.

        Raises:
            DXPConnectionError: the peer closed the connection, reset it or stayed silent.
            DXPError: the frame is garbled (the rest of the stream stays readable).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if self._chat_head is not None:
                cut = self._buffer.find(b"\0")
                if cut >= 0:
                    del self._buffer[: cut + 1]
                    head, self._chat_head = self._chat_head, None
                    LOG.warning("a DXP chat longer than %d characters: kept its first %d", MAX_FRAME, MAX_FRAME - 1)
                    return _chat(head)
                self._buffer.clear()  # the rest of the long chat: skipped, never kept
            elif b"\0" in self._buffer:
                frame, _, rest = bytes(self._buffer).partition(b"\0")
                self._buffer[:] = rest
                if frame.startswith(b"C"):
                    if len(frame) > MAX_FRAME:
                        LOG.warning("a DXP chat of %d characters: kept its first %d", len(frame) - 1, MAX_FRAME - 1)
                    return _chat(frame[:MAX_FRAME])
                message = decode(frame)
                LOG.debug("received %r", message)
                return message
            elif len(self._buffer) > MAX_FRAME:
                if self._buffer.startswith(b"C"):
                    self._chat_head = bytes(self._buffer[:MAX_FRAME])
                    self._buffer.clear()
                    continue
                frame = bytes(self._buffer[:100])
                self._buffer.clear()
                raise DXPError(f"garbled DXP frame {frame!r}: no terminator within {MAX_FRAME} bytes")
            self._buffer += self._read(deadline, timeout)

    def _read(self, deadline: float | None, timeout: float | None) -> bytes:
        """The next bytes from the socket, by ``deadline``."""
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise DXPConnectionError(f"the DXP peer sent nothing for {timeout:g} s")
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(4096)
        except TimeoutError:
            raise DXPConnectionError(f"the DXP peer sent nothing for {timeout:g} s") from None
        except OSError as error:
            raise DXPConnectionError(f"the DXP connection failed: {error}") from None
        if not data:
            raise DXPConnectionError("the DXP peer closed the connection")
        return data

    def close(self) -> None:
        """Close the socket."""
        with contextlib.suppress(OSError):
            self.sock.close()


def _chat(frame: bytes) -> Chat:
    """The CHAT of ``frame`` (its ``C`` first), any byte outside printable ASCII read as ``?``."""
    text = "".join(chr(b) if 32 <= b <= 126 else "?" for b in frame[1:])
    message = Chat(text)
    LOG.debug("received %r", message)
    return message


@attrs.define
class DXPRecord:
    """How one DXP game went.

    Attributes:
        board: The game, as the referee board played it.
        color: Our colour.
        our_name: Our name in the handshake.
        peer_name: The peer's name from the handshake.
        result: The PDN result (``*`` when an error ended the game before the rules did).
        termination: How it ended, in words (``"rules: no legal move"``, ``"peer's GAMEEND (peer loses)"``,
            ``"error: illegal DXP move ..."``).
        error: The error that ended the game, if one did.
        stop: The peer asked for no further game.
        peer_moves: MOVE messages the peer sent, legal or not (none: the peer never played).
    """

    board: Board
    color: Color
    our_name: str
    peer_name: str
    result: str = "*"
    termination: str = ""
    error: str | None = None
    stop: bool = False
    peer_moves: int = 0

    def headers(self) -> dict[str, str]:
        """PDN tags of the game: the players, the result and how it ended."""
        white, black = (self.our_name, self.peer_name) if self.color is Color.WHITE else (self.peer_name, self.our_name)
        return {
            "Event": "DXP game",
            "Date": time.strftime("%Y.%m.%d", time.gmtime()),
            "White": white,
            "Black": black,
            "Result": self.result,
            "Termination": self.termination,
        }

    def append_pdn(self, path: str | Path) -> None:
        """Append the game to the PDN file ``path`` (created when missing)."""
        from draughts.pdn.game import Game
        from draughts.pdn.writer import write_game

        game = Game.from_board(self.board, self.headers(), self.result)
        text = write_game(game)
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")


def _our_reason(board: Board, color: Color) -> int:
    outcome = board.outcome()
    if outcome is None:
        return REASON_UNKNOWN
    if outcome.winner is None:
        return REASON_DRAW
    return REASON_I_WIN if outcome.winner is color else REASON_I_LOSE


def _peer_result(board: Board, color: Color, reason: int) -> str:
    """The PDN result a peer's GAMEEND reason gives (the peer plays ``color.opponent``).

    A resignation or a draw is the peer's to give; a win is not the peer's to take: "I win" counts
    only where the referee board shows the peer winning, else the result stays ``*`` (a peer
    claiming a win at ply 0 must not score it).
    """
    if reason == REASON_DRAW:
        return result_for(board.ruleset, None)
    if reason == REASON_I_LOSE:
        return result_for(board.ruleset, color)
    outcome = board.outcome()
    if reason == REASON_I_WIN and outcome is not None and outcome.winner is color.opponent:
        return result_for(board.ruleset, color.opponent)
    return "*"


_PEER_REASONS = {
    REASON_UNKNOWN: "no reason",
    REASON_I_LOSE: "peer loses",
    REASON_DRAW: "draw",
    REASON_I_WIN: "peer wins",
}


class _Game:
    """The loop of one game (see the module notes)."""

    def __init__(
        self, conn: Connection, record: DXPRecord, player: Player, control: TimeControl | None, timeout: float | None
    ) -> None:
        self.conn = conn
        self.record = record
        self.player = player
        self.control = control
        self.used = 0.0
        self.played = 0
        self.timeout = timeout
        self.stop_code = STOP_NEXT_GAME
        self._deadline: float | None = None  # when the peer's move is due; CHAT and BACKREQ do not move it

    def run(self) -> DXPRecord:
        board, record = self.record.board, self.record
        try:
            while board.outcome() is None:
                if board.turn is record.color:
                    self._our_move()
                elif self._their_message():
                    return record
            self._end_by_rules()
        except DXPError as error:
            self._fail(error)
        return record

    def _our_move(self) -> None:
        board = self.record.board
        started = time.monotonic()
        clock = None if self.control is None else self.control.clock(self.used, self.played)
        move, _ = self.player.choose(board.copy(), clock)
        if not board.is_legal(move):  # our own player's bug: end the game rather than send it
            raise DXPError(f"our player chose {move!r}, not a legal move")
        seconds = time.monotonic() - started
        self.used += seconds
        self.played += 1
        self.conn.send(move_message(move, seconds))
        board.push(move)

    def _their_message(self) -> bool:
        """Read and apply one message of the peer; True when it ended the game."""
        board, record = self.record.board, self.record
        try:
            message = self.conn.receive(self._time_left())
        except DXPConnectionError:
            self._time_left()  # a wait cut by the deadline says so (it raises past it)
            raise
        if isinstance(message, MoveMessage):
            record.peer_moves += 1
            board.push(find_move(board.position, message))
            self._deadline = None
            return False
        if isinstance(message, GameEnd):
            record.stop = message.stop == 1
            record.result = _peer_result(board, record.color, message.reason)
            record.termination = f"peer's GAMEEND ({_PEER_REASONS[message.reason]})"
            if message.reason == REASON_I_WIN and record.result == "*":
                record.termination = "peer's GAMEEND (peer claims a win the board does not show)"
            self.conn.send(GameEnd(_our_reason(board, record.color), self.stop_code))
            return True
        if isinstance(message, Chat):
            LOG.info("DXP chat from %s: %s", record.peer_name, message.text)
            return False
        if isinstance(message, BackRequest):
            self.conn.send(BackAccept(BACK_NOT_SUPPORTED))
            return False
        raise DXPError(f"unexpected DXP message during a game: {message!r}")

    def _time_left(self) -> float | None:
        """Seconds left for the peer's move (None: no limit), counted from when it became due.

        Raises:
            DXPConnectionError: the time is up (messages other than a move came meanwhile).
        """
        if self.timeout is None:
            return None
        now = time.monotonic()
        if self._deadline is None:
            self._deadline = now + self.timeout
        left = self._deadline - now
        if left <= 0:
            raise DXPConnectionError(f"the DXP peer sent no move within {self.timeout:g} s")
        return left

    def _end_by_rules(self) -> None:
        board, record = self.record.board, self.record
        outcome = board.outcome()
        assert outcome is not None
        record.result = board.result()
        record.termination = f"rules: {outcome.termination.value}"
        self.conn.send(GameEnd(_our_reason(board, record.color), self.stop_code))
        deadline = time.monotonic() + END_WAIT
        while (left := deadline - time.monotonic()) > 0:  # the peer's GAMEEND, if it sends one
            try:
                message = self.conn.receive(left)
            except DXPError:
                return
            if isinstance(message, GameEnd):
                record.stop = message.stop == 1
                return

    def _fail(self, error: DXPError) -> None:
        record = self.record
        LOG.error("DXP game against %s ended by an error: %s", record.peer_name or "the peer", error)
        record.error = str(error)
        record.termination = f"error: {error}"
        record.result = "*"
        if not isinstance(error, DXPConnectionError):
            with contextlib.suppress(DXPError):
                self.conn.send(GameEnd(REASON_UNKNOWN, self.stop_code))


def play_game(
    conn: Connection,
    board: Board,
    color: Color,
    player: Player,
    *,
    names: tuple[str, str],
    clock: TimeControl | None = None,
    timeout: float | None = None,
    stop_code: int = STOP_NEXT_GAME,
) -> DXPRecord:
    """Play one game on ``conn`` from ``board`` with ``player`` as ``color``; never raises for the peer's faults.

    Args:
        conn: The connection, handshake done.
        board: The start (the referee: it receives every move of the game).
        color: Our colour.
        player: Chooses our moves.
        names: Our name and the peer's.
        clock: Our time control (default: none): the player gets its clock before each move.
        timeout: Most seconds to wait for a peer's message (None: without end).
        stop_code: What our GAMEEND says about a next game.
    """
    record = DXPRecord(board, color, names[0], names[1])
    game = _Game(conn, record, player, clock, timeout)
    game.stop_code = stop_code
    LOG.info("DXP game: we play %s against %s", color, names[1])  # white/black: W and Z are the wire's letters
    return game.run()


def peer_timeout(clock: TimeControl | None, default: float | None) -> float | None:
    """How long to wait for the peer's move: its whole budget and a minute, but never more than
    ``default`` (:data:`MOVE_WAIT_CAP` when ``default`` is None); without a clock, ``default``.

    The clock is the peer's word (GAMEREQ), so it only ever shortens the wait: a peer asking for
    999 minutes does not hold us 60,060 s a move.
    """
    if clock is not None:
        return min(clock.base + 60.0, MOVE_WAIT_CAP if default is None else default)
    return default


def time_control(minutes: int, moves: int) -> TimeControl | None:
    """GAMEREQ's time control: ``minutes`` for ``moves`` moves, the same again after them (0 moves:
    the minutes are for the whole game; 0 minutes: no clock)."""
    return TimeControl(minutes * 60.0, moves=max(moves, 0)) if minutes > 0 else None
