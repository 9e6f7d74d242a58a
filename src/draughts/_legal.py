"""Legal moves: the generator's candidates passed through the resolver.

The single place where :mod:`draughts.movegen` and :mod:`draughts.precedence` meet; positions
and perft both call it.
"""

from __future__ import annotations

from draughts._tables import Tables
from draughts.movegen import Candidate, captures, has_capture, quiet_moves
from draughts.precedence import resolve


def legal_candidates(
    tables: Tables, color: int, own: int, opponents: int, kings: int, *, paths: bool = False
) -> list[Candidate]:
    """The legal moves of ``color`` (quiet moves and captures, resolved by the ruleset).

    ``own`` and ``opponents`` are the pieces of the side to move and of the other side, ``kings``
    the kings of both. With ``paths``, every capture path is kept (perft "keep" convention).
    """
    empty = tables.board & ~(own | opponents)
    own_kings = own & kings
    own_men = own & ~kings
    opponent_kings = opponents & kings
    quiet: list[Candidate] = []
    found: list[Candidate] = []
    if has_capture(tables, color, own_men, own_kings, opponents, opponent_kings, empty):
        found = captures(tables, color, own_men, own_kings, opponents, opponent_kings, empty)
    if not found or not tables.capture_mandatory:
        quiet = quiet_moves(tables, color, own_men, own_kings, empty)
    return resolve(tables.rules, quiet, found, kings, paths=paths)
