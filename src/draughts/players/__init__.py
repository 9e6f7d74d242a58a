"""Who plays a game: one :class:`Player` protocol, one player syntax, one :class:`TimeControl`.

Everything that chooses moves -- the built-in engine, a random mover, a Hub engine, a DXP
follower -- is a :class:`Player`: ``choose(board, clock)`` answers a move and its score,
``close(board)`` frees what it holds. The terminal game, the lab, the match referee, the DXP roles
and the web board ask players for moves this way.

Players are named by text in one syntax, read by :func:`parse_player` for every command
(``draughts play``, ``lab``, ``match``, the web board): ``human``, ``random``, ``level:NAME``,
``depth:N``, ``nodes:N``, ``time:S``, ``hub:CMD``, ``dxp:HOST:PORT`` (see
:mod:`draughts.players.spec`). :func:`draughts.players.factory.make_player` makes any of them; it
lives apart because it makes the Hub and DXP players, which sit above this package.

>>> from draughts.players import parse_player
>>> parse_player("computer:strong").text
'level:strong'
>>> parse_player("depth:3").limit
Limit(depth=3, nodes=None, time=None)
"""

from __future__ import annotations

from draughts.players.base import Choice, Clock, Player, Resigned, TimeControl, share_seconds
from draughts.players.builtin import EnginePlayer, RandomPlayer
from draughts.players.spec import FORMS, KINDS, PlayerSpec, PlayerSpecError, parse_player

__all__ = [
    "FORMS",
    "KINDS",
    "Choice",
    "Clock",
    "EnginePlayer",
    "Player",
    "PlayerSpec",
    "PlayerSpecError",
    "RandomPlayer",
    "Resigned",
    "TimeControl",
    "parse_player",
    "share_seconds",
]
