"""Who plays a game: one :class:`Player` protocol, one player syntax, one :class:`TimeControl`.

Everything that chooses moves -- the built-in engine, a random mover, a Hub engine, a DXP
follower -- is a :class:`Player`: ``choose(board, clock)`` answers a move and its score,
``close(board)`` frees what it holds. The terminal game, the lab, the match referee and the DXP
roles and the web board ask players for moves this way (the board shows the search behind the
engine's move, :attr:`EnginePlayer.last`, and stops it on request, :attr:`EnginePlayer.stop`).
The AI environments read their players' text with :func:`parse_player` too and search with the
engine it names (:meth:`PlayerSpec.engine`) themselves: an environment draws its random mover's
moves from its own seeded generator.

Players are named by text in one syntax, read by one function, :func:`parse_player`, for every
command (``draughts play``, ``lab``, ``match``, the web board); each command says which kinds it
can play (a person plays only in ``draughts play`` and on the web board):

==================  ===========================================================================
``human``           a person, typing moves (``draughts play``, the web board)
``random``          uniform among the legal moves, no evaluation
``level:NAME``      the built-in engine at a level: ``beginner``, ``intermediate``, ``strong``
``depth:N``         the built-in engine, full evaluation, no randomness, N plies a move
``nodes:N``         the same, N nodes a move (reproducible, as ``depth:N``)
``time:S``          the same, S seconds a move (not reproducible)
``hub:CMD``         an external Hub engine, the command line ``CMD`` started for each game
``dxp:HOST:PORT``   a DXP follower at ``HOST:PORT``, one connection per game (``draughts match``)
==================  ===========================================================================

Earlier spellings are read silently as what they meant: ``computer`` (also ``engine``, ``cpu``)
for ``level:intermediate``, ``computer:NAME`` for ``level:NAME``, and a bare level name such as
``strong`` for ``level:strong``. ``draughts.players.factory.make_player`` makes any of them; it
lives apart (this package does not import it) because it makes the Hub and DXP players, which sit
above this package.

>>> from draughts.players import parse_player
>>> parse_player("computer:strong").text
'level:strong'
>>> parse_player("depth:3").limit
Limit(depth=3, nodes=None, time=None, threads=1)
"""

from __future__ import annotations

from draughts.players.base import Choice, Clock, Player, Resigned, TimeControl, share_seconds
from draughts.players.builtin import EnginePlayer, RandomPlayer
from draughts.players.spec import FORMS, KINDS, PlayerSpec, parse_player

__all__ = [
    "FORMS",
    "KINDS",
    "Choice",
    "Clock",
    "EnginePlayer",
    "Player",
    "PlayerSpec",
    "RandomPlayer",
    "Resigned",
    "TimeControl",
    "parse_player",
    "share_seconds",
]
