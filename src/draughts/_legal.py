"""Legal moves: the generator's candidates passed through the resolver.

The single place where :mod:`draughts.movegen` and :mod:`draughts.precedence` meet; positions
and perft both call it. Positions get :class:`~draughts.movegen.Candidate` objects (with paths);
perft gets the legal captures as compact xor masks, or only their number.
"""

from __future__ import annotations

from draughts._tables import Tables
from draughts.movegen import (
    Candidate,
    RawCapture,
    compact,
    has_capture,
    quiet_moves,
    raw_captures,
    to_candidate,
)
from draughts.precedence import best_raw, deduplicate_raw


def legal_raw_captures(
    tables: Tables, color: int, own: int, opponents: int, kings: int, paths: bool, record: bool = False
) -> list[RawCapture]:
    """The legal captures (precedence applied, de-duplicated unless ``paths``) as raw tuples.

    Call only when :func:`~draughts.movegen.has_capture` is true (it is not checked again).
    """
    key = tables.capture_key
    raws = raw_captures(
        tables,
        color,
        own & ~kings,
        own & kings,
        opponents,
        opponents & kings,
        tables.board & ~(own | opponents),
        # The "kings met earliest" key reads the capture order only if there are kings to meet.
        record or (tables.record_order and bool(opponents & kings)),
    )
    if key is not None:
        raws = best_raw(key, raws, kings)
    if not paths:
        raws = deduplicate_raw(raws)
    return raws


def legal_compact_captures(
    tables: Tables, color: int, own: int, opponents: int, kings: int, paths: bool
) -> list[tuple[int, int, int]]:
    """The legal captures as ``(moved, captured, crowned)`` xor masks (see :func:`~draughts.movegen.compact`)."""
    return [compact(raw, kings) for raw in legal_raw_captures(tables, color, own, opponents, kings, paths)]


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
    found: list[Candidate] = []
    if has_capture(tables, color, own_men, own_kings, opponents, opponents & kings, empty):
        found = [
            to_candidate(raw, kings)
            for raw in legal_raw_captures(tables, color, own, opponents, kings, paths, record=True)
        ]
        if tables.capture_mandatory:
            return found
    return [*quiet_moves(tables, color, own_men, own_kings, empty), *found]
