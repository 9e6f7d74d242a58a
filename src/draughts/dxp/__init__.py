"""DXP (DamExchange): play International draughts engines over TCP, in both roles.

DXP is the protocol of Scan, Kingsrow International, Moby Dam, Tornado and the DXC100 client: an
*initiator* connects (port 27531 by default) and requests games, a *follower* accepts them. Messages
are ``\\0``-terminated ASCII frames with fixed-width fields:

=========  ======  ==========================================================================
message    header  fields
=========  ======  ==========================================================================
GAMEREQ    ``R``   version ``01``, initiator name (32), follower colour ``W``/``Z``, minutes (3),
                   moves (3), setup ``A`` (initial) or ``B`` + side to move + 50 squares
GAMEACC    ``A``   follower name (32), code (0 accepted, 1 version, 2 this game, 3 always refused)
MOVE       ``M``   seconds used (4), from (2), to (2), number captured (2), captured squares (2 each)
GAMEEND    ``E``   reason (0 unknown, 1 I lose, 2 draw, 3 I win), stop code (0 next game welcome, 1 no)
CHAT       ``C``   text
BACKREQ    ``B``   move number (3), colour to move
BACKACC    ``K``   code (0 accepted, 1 not supported, 2 refused); polydraughts answers 1
=========  ======  ==========================================================================

A MOVE names a move by its identity (from, to, captured squares): it is mapped to the one legal
move with that identity on a referee :class:`~draughts.Board`; an illegal one, a garbled frame, a
message out of turn or a dropped connection ends that game with an error in the ``draughts.dxp``
log, a GAMEEND to the peer and a record that says so, never an exception out of the game loop.

**Boards.** DXP describes 10x10 boards only: rulesets with 50 squares (International, Frisian,
Frysk!, Killer, Antidraughts, Breakthrough and their house-rule versions) are played in their own
numbering; any other ruleset raises :class:`~draughts.errors.DXPError` before a socket is opened.

Modules: ``codec`` (messages), ``board_text`` (positions and moves), ``session`` (one game on a
connection), ``roles`` (:func:`listen`, :func:`connect`, and :class:`DXPFollower`, a follower as a
player of a match); the command ``draughts dxp`` lives in ``draughts.cli.dxp``.

>>> from draughts import dxp
>>> dxp.encode(dxp.MoveMessage(3, 32, 28))
b'M0003322800\\x00'
>>> dxp.decode("M000127180122")
MoveMessage(seconds=1, start=27, end=18, captured=(22,))
"""

from __future__ import annotations

from draughts.dxp.board_text import find_move, move_message, parse_position_field, position_field
from draughts.dxp.codec import (
    BackAccept,
    BackRequest,
    Chat,
    GameAccept,
    GameEnd,
    GameRequest,
    Message,
    MoveMessage,
    decode,
    encode,
)
from draughts.dxp.roles import DEFAULT_PORT, DXPFollower, connect, level_player, listen
from draughts.dxp.session import Connection, DXPRecord, play_game
from draughts.errors import DXPConnectionError, DXPError

__all__ = [
    "DEFAULT_PORT",
    "BackAccept",
    "BackRequest",
    "Chat",
    "Connection",
    "DXPConnectionError",
    "DXPError",
    "DXPFollower",
    "DXPRecord",
    "GameAccept",
    "GameEnd",
    "GameRequest",
    "Message",
    "MoveMessage",
    "connect",
    "decode",
    "encode",
    "find_move",
    "level_player",
    "listen",
    "move_message",
    "parse_position_field",
    "play_game",
    "position_field",
]
