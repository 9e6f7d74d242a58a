"""The Hub protocol: drive external draughts engines, and serve the polydraughts engine to Hub GUIs.

Hub (version 2, as Scan 3 and the Hub GUI speak it) is a line protocol over an engine's standard
input and output. Every line is ``<command> <arg>=<value> ...``; a value is quoted with double
quotes when it holds a space or ``=`` or is empty, and an argument without ``=`` is a flag. Both
sides ignore commands and arguments they do not know. A session::

    GUI                                   engine
    hub                                   id name=... version=...
                                          param name=variant value=international type=enum values="..."
                                          wait
    set-param name=variant value=russian
    init                                  ready
    pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww
    level depth=6                         (or nodes=<n>, move-time=<s>, [moves=<n>] time=<s> [inc=<s>], infinite)
    go think                              info depth=6 score=0.12 nodes=5230 time=0.31 pv="..."
                                          done move=22-18 ponder=11-15
    quit

A search always ends with ``done``; ``stop`` ends it early, ``ponder-hit`` turns a ``go ponder``
search into an ordinary one, and ``ping`` is answered ``pong`` (also during a search).
``new-game`` clears the engine's tables and ``error message="..."`` reports a problem.

**Positions** (``pos pos=...``): the side to move (``W`` or ``B``), then one character per square
in the ruleset's square numbering, square 1 first: ``w``/``b`` for men, ``W``/``B`` for kings,
``e`` for an empty square. For International draughts that is Scan's 51 characters; on 8x8 boards
it is 33 characters, in the numbering FEN uses (Russian, Brazilian and Czech: 1 = b8 as seen from
White, 32 = g1). An optional ``moves="..."`` lists moves played from that position (for repetition
detection).

**Moves** are written with square numbers in the same numbering: ``32-28`` for a quiet move; a
capture as its start, its end and then every captured square in any order, joined by ``x``
(``28x19x23``: from 28 to 19, taking 23). :func:`hub_move_text` writes them and
:func:`parse_hub_move` reads them (:mod:`draughts.notation`'s ``move_text`` and ``parse_move``
write and read the variant's own notation).

**Variants** travel in the engine parameter ``variant`` (Scan calls International ``normal``):
:class:`HubEngine` sets it before ``init`` when the engine declares it, and the server declares
every named variant and its no-forced-capture house rule.

**Errors** say whose fault they are: :class:`HubError` (a :class:`~draughts.DraughtsError`,
hence a :class:`ValueError`) for bad input, a malformed line or a request that cannot be served;
:class:`HubEngineError` (a :class:`RuntimeError`, as python-chess's ``EngineError``) for an engine
that failed, with :class:`HubEngineTerminatedError` when its process has gone and
:class:`HubEngineTimeoutError` when it did not answer in time.

The package's modules, one concern each: ``protocol`` (the line codec and the numbers in
values), ``text`` (positions and moves), ``variant_names`` (the ``variant`` parameter),
``process`` and ``client`` (:class:`HubEngine`), ``levels`` and ``server`` (:func:`serve`, the
``draughts hub`` command). Everything public is importable from :mod:`draughts.hub` itself.

>>> import draughts
>>> from draughts import hub
>>> hub.position_text(draughts.Position.initial("international"))
'Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww'
>>> pos = draughts.Position.from_fen("russian", "W:Wc3,e3:Bd4")  # c3 = 22, d4 = 18, e3 = 23
>>> hub.position_text(pos)
'Weeeeeeeeeeeeeeeeebeeewweeeeeeeee'
>>> [hub.hub_move_text(pos, m) for m in pos.legal_moves()]
['22x15x18', '23x14x18']
>>> hub.parse_hub_move(draughts.Position.from_fen("international", "W:WK47:B14,19,29,31,42"), "47x36x31x14x29x42")
Move(start=47, end=36, captured=(42, 29, 14, 31), path=(47, 38, 20, 9, 36))
"""

from __future__ import annotations

from draughts.errors import HubEngineError, HubEngineTerminatedError, HubEngineTimeoutError, HubError
from draughts.hub.client import HubEngine, HubParam, HubPlayer, HubResult
from draughts.hub.info import HubInfo, parse_info
from draughts.hub.protocol import format_line, parse_line
from draughts.hub.server import serve
from draughts.hub.text import hub_move_text, parse_hub_move, parse_position, position_text

__all__ = [
    "HubEngine",
    "HubEngineError",
    "HubEngineTerminatedError",
    "HubEngineTimeoutError",
    "HubError",
    "HubInfo",
    "HubParam",
    "HubPlayer",
    "HubResult",
    "format_line",
    "hub_move_text",
    "parse_hub_move",
    "parse_info",
    "parse_line",
    "parse_position",
    "position_text",
    "serve",
]
