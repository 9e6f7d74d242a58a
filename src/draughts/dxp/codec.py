"""The DXP message codec: one frozen class per message type, :func:`encode` and :func:`decode`.

Every DXP message is printable ASCII: a one-letter header, then fixed-width fields (numbers
zero-padded, names space-padded to 32 characters); on the wire each message ends with a ``\\0``
byte. :func:`decode` takes one frame without its terminator and checks every field, so a garbled
frame is a :class:`~draughts.errors.DXPError` that quotes it, never a crash further on.
"""

from __future__ import annotations

import attrs

from draughts.errors import DXPError

__all__ = [
    "BACK_NOT_SUPPORTED",
    "GAME_ACCEPTED",
    "MAX_FRAME",
    "NAME_WIDTH",
    "PROTOCOL_VERSION",
    "REASON_DRAW",
    "REASON_I_LOSE",
    "REASON_I_WIN",
    "REASON_UNKNOWN",
    "STOP_NEXT_GAME",
    "STOP_NO_MORE",
    "BackAccept",
    "BackRequest",
    "Chat",
    "GameAccept",
    "GameEnd",
    "GameRequest",
    "Message",
    "MoveMessage",
    "decode",
    "encode",
    "encode_text",
]

NAME_WIDTH = 32
"""Width of the initiator's and follower's name fields."""

PROTOCOL_VERSION = 1
"""The protocol version this codec speaks (the two digits after ``R``)."""

MAX_FRAME = 1024
"""Longest frame accepted (the longest legal message, a GAMEREQ with a position, has 94 characters;
chat text is free but bounded here so a peer cannot make us buffer without end)."""

GAME_ACCEPTED = 0
"""GAMEACC acceptance code: game accepted (1: version refused, 2: this game refused, 3: refused always)."""

REASON_UNKNOWN, REASON_I_LOSE, REASON_DRAW, REASON_I_WIN = 0, 1, 2, 3
"""GAMEEND reasons, from the sender's side."""

STOP_NEXT_GAME, STOP_NO_MORE = 0, 1
"""GAMEEND stop codes: a next game is welcome, or not."""

BACK_NOT_SUPPORTED = 1
"""BACKACC acceptance code this library sends: taking moves back is not supported (0: accepted, 2: refused)."""


def _garbled(frame: str, why: str) -> DXPError:
    return DXPError(f"garbled DXP frame {frame[:100]!r}: {why}")


def _name(value: str) -> str:
    """``value`` as a name field: ASCII, cut or space-padded to 32 characters."""
    text = value.encode("ascii", "replace").decode("ascii")
    text = "".join(c if " " <= c <= "~" else "?" for c in text)
    return text[:NAME_WIDTH].ljust(NAME_WIDTH)


def _digits(frame: str, start: int, width: int, what: str) -> int:
    field = frame[start : start + width]
    if len(field) != width or not field.isascii() or not field.isdigit():
        raise _garbled(frame, f"{what} must be {width} digits, got {field!r}")
    return int(field)


def _range(frame: str, value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise _garbled(frame, f"{what} {value} is outside {low}..{high}")
    return value


@attrs.frozen
class GameRequest:
    """GAMEREQ (``R``): the initiator asks for a game.

    Attributes:
        name: The initiator's name.
        follower_color: ``"W"`` or ``"Z"`` (zwart, black): the colour the follower is to play.
        minutes: Thinking time per side for ``moves`` moves (0: no clock).
        moves: Moves to be played in that time.
        position: None for the initial position (setup ``A``), else ``W``/``Z`` for the side to move
            and 50 characters ``e w z W Z`` for squares 1-50 (setup ``B``).
    """

    name: str
    follower_color: str
    minutes: int
    moves: int
    position: str | None = None


@attrs.frozen
class GameAccept:
    """GAMEACC (``A``): the follower's answer; ``code`` 0 accepts (see ``GAME_ACCEPTED``)."""

    name: str
    code: int


@attrs.frozen
class MoveMessage:
    """MOVE (``M``): seconds the mover used, from and to squares, and the captured squares."""

    seconds: int
    start: int
    end: int
    captured: tuple[int, ...] = ()


@attrs.frozen
class GameEnd:
    """GAMEEND (``E``): ``reason`` from the sender's side (0 unknown, 1 I lose, 2 draw, 3 I win), and a
    ``stop`` code (0 a next game is welcome, 1 no more games)."""

    reason: int
    stop: int = STOP_NEXT_GAME


@attrs.frozen
class Chat:
    """CHAT (``C``): free text."""

    text: str


@attrs.frozen
class BackRequest:
    """BACKREQ (``B``): take moves back to move number ``move`` with ``color`` (``W``/``Z``) to move."""

    move: int
    color: str


@attrs.frozen
class BackAccept:
    """BACKACC (``K``): 0 accepted, 1 not supported, 2 refused."""

    code: int


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept
"""Any DXP message."""


def encode_text(message: Message) -> str:
    """``message`` as its frame's text, without the terminating ``\\0``.

    Raises:
        DXPError: a field does not fit its width (a square above 99, more than 99 captures ...).
    """
    if isinstance(message, GameRequest):
        setup = "A" if message.position is None else "B" + message.position
        text = (
            f"R{PROTOCOL_VERSION:02d}{_name(message.name)}{message.follower_color}"
            f"{message.minutes:03d}{message.moves:03d}{setup}"
        )
    elif isinstance(message, GameAccept):
        text = f"A{_name(message.name)}{message.code:d}"
    elif isinstance(message, MoveMessage):
        squares = "".join(f"{square:02d}" for square in message.captured)
        text = (
            f"M{min(message.seconds, 9999):04d}{message.start:02d}{message.end:02d}{len(message.captured):02d}{squares}"
        )
    elif isinstance(message, GameEnd):
        text = f"E{message.reason:d}{message.stop:d}"
    elif isinstance(message, Chat):
        text = "C" + "".join(c if " " <= c <= "~" else "?" for c in message.text)[: MAX_FRAME - 1]
    elif isinstance(message, BackRequest):
        text = f"B{message.move:03d}{message.color}"
    else:
        text = f"K{message.code:d}"
    try:
        decode(text)
    except DXPError as error:
        raise DXPError(f"cannot encode {message!r}: {error}") from None
    return text


def encode(message: Message) -> bytes:
    """``message`` as bytes for the socket, ``\\0``-terminated."""
    return encode_text(message).encode("ascii") + b"\0"


def _game_request(frame: str) -> GameRequest:
    if len(frame) not in (43, 94):
        raise _garbled(frame, f"a GAMEREQ has 43 or 94 characters, not {len(frame)}")
    version = _digits(frame, 1, 2, "the protocol version")
    if version != PROTOCOL_VERSION:
        raise _garbled(frame, f"protocol version {version} is not {PROTOCOL_VERSION}")
    color = frame[35]
    if color not in "WZ":
        raise _garbled(frame, f"the follower's colour must be W or Z, got {color!r}")
    minutes = _digits(frame, 36, 3, "the thinking time")
    moves = _digits(frame, 39, 3, "the number of moves")
    setup = frame[42]
    if setup == "A" and len(frame) == 43:
        return GameRequest(frame[3:35].rstrip(), color, minutes, moves)
    if setup != "B" or len(frame) != 94:
        raise _garbled(frame, "the setup must be A alone or B with a side to move and 50 squares")
    position = frame[43:]
    if position[0] not in "WZ" or set(position[1:]) - set("ewzWZ"):
        raise _garbled(frame, "a setup B position is W or Z, then 50 of e, w, z, W, Z")
    return GameRequest(frame[3:35].rstrip(), color, minutes, moves, position)


def _move(frame: str) -> MoveMessage:
    seconds = _digits(frame, 1, 4, "the time")
    start = _range(frame, _digits(frame, 5, 2, "the from square"), 1, 99, "from square")
    end = _range(frame, _digits(frame, 7, 2, "the to square"), 1, 99, "to square")
    count = _digits(frame, 9, 2, "the number of captures")
    if len(frame) != 11 + 2 * count:
        raise _garbled(frame, f"{count} captures need {11 + 2 * count} characters, not {len(frame)}")
    captured = tuple(
        _range(frame, _digits(frame, 11 + 2 * i, 2, "a captured square"), 1, 99, "captured square")
        for i in range(count)
    )
    if len(set(captured)) != count:
        raise _garbled(frame, "a square is captured twice")
    return MoveMessage(seconds, start, end, captured)


def _fixed(frame: str, length: int, what: str) -> None:
    if len(frame) != length:
        raise _garbled(frame, f"a {what} has {length} characters, not {len(frame)}")


def decode(frame: str | bytes) -> Message:
    """The message of one frame (without its ``\\0``).

    Raises:
        DXPError: not ASCII, an unknown header, a field of the wrong width or out of range.
    """
    if isinstance(frame, bytes):
        try:
            frame = frame.decode("ascii")
        except UnicodeDecodeError:
            raise DXPError(f"garbled DXP frame {frame[:100]!r}: not ASCII") from None
    if not frame or len(frame) > MAX_FRAME:
        raise _garbled(frame, f"a frame has 1 to {MAX_FRAME} characters")
    if any(not " " <= c <= "~" for c in frame):
        raise _garbled(frame, "control or non-ASCII characters")
    header = frame[0]
    if header == "R":
        return _game_request(frame)
    if header == "A":
        _fixed(frame, 34, "GAMEACC")
        return GameAccept(frame[1:33].rstrip(), _range(frame, _digits(frame, 33, 1, "the code"), 0, 3, "code"))
    if header == "M":
        return _move(frame)
    if header == "E":
        _fixed(frame, 3, "GAMEEND")
        reason = _range(frame, _digits(frame, 1, 1, "the reason"), 0, 3, "reason")
        return GameEnd(reason, _range(frame, _digits(frame, 2, 1, "the stop code"), 0, 1, "stop code"))
    if header == "C":
        return Chat(frame[1:])
    if header == "B":
        _fixed(frame, 5, "BACKREQ")
        if frame[4] not in "WZ":
            raise _garbled(frame, "the colour to move must be W or Z")
        return BackRequest(_digits(frame, 1, 3, "the move number"), frame[4])
    if header == "K":
        _fixed(frame, 2, "BACKACC")
        return BackAccept(_range(frame, _digits(frame, 1, 1, "the code"), 0, 2, "code"))
    raise _garbled(frame, f"unknown message type {header!r} (known: R A M E C B K)")
