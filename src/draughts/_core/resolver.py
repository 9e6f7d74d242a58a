"""The capture-priority resolver: which of the generator's capture paths are legal.

The ruleset's precedence criteria (:class:`~draughts.Criterion`) form a lexicographic key on the
facts of each capture (:class:`~draughts.CaptureFacts`); only the captures with the best key are
legal. Then paths with one FMJD identity (start, end, set of captured pieces) are merged, unless
every path is wanted (the perft "keep" convention). Mandatory capture is the generator's business.
"""

from __future__ import annotations

from draughts._core.tables import Tables
from draughts._core.types import CaptureSearch, RawCapture
from draughts.rules import CaptureFacts

_make = tuple.__new__  # builds the NamedTuple without its Python-level __new__


def facts(raw: RawCapture, kings: int, order: bool, recorded: bool) -> CaptureFacts:
    """What the precedence criteria may compare about ``raw`` (``kings``: all kings before the move).

    The capture order is filled only when ``order`` asks for it; without a recorded order there
    were no kings to meet (see :func:`legal_captures`), so it is all men.
    """
    start, _, captured, _, jumped, _ = raw
    taken = captured.bit_count()
    pattern: tuple[bool, ...] = ()
    if order:
        pattern = tuple([bool(bit & kings) for bit in jumped]) if recorded else (False,) * taken
    return _make(CaptureFacts, (taken, (captured & kings).bit_count(), bool(start & kings), pattern))


def best(tables: Tables, raws: list[RawCapture], kings: int, recorded: bool) -> list[RawCapture]:
    """The captures with the best precedence key (all of them under free choice)."""
    key = tables.capture_key
    if key is None or len(raws) < 2:
        return raws
    order = tables.needs_order
    keys = [key(facts(raw, kings, order, recorded)) for raw in raws]
    top = max(keys)
    return [raw for raw, value in zip(raws, keys, strict=True) if value == top]


def deduplicate(raws: list[RawCapture]) -> list[RawCapture]:
    """One capture per identity (start, end, captured set), keeping the first generated."""
    if len(raws) < 2:
        return raws
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for raw in raws:
        identity = (raw[0], raw[1], raw[2])
        if identity not in seen:
            seen.add(identity)
            unique.append(raw)
    return unique


def legal_captures(
    tables: Tables,
    search: CaptureSearch,
    color: int,
    own: int,
    opponents: int,
    kings: int,
    paths: bool,
    record: bool,
    every_path: bool | None = None,
) -> list[RawCapture]:
    """The legal captures of the side owning ``own`` (precedence applied; de-duplicated unless ``paths``).

    The capture order is recorded when ``record`` asks for it, or when a criterion compares it and
    there are kings to meet. ``every_path`` (default: ``paths``) False lets a search that finds a
    flood of paths prune routes to states it has met (see :mod:`draughts._core.capture`): then at least the path
    that comes first in square order is kept for each move, which is all the public API shows.
    """
    recorded = record or (tables.needs_order and bool(opponents & kings))
    raws = search(
        color,
        own & ~kings,
        own & kings,
        opponents,
        opponents & kings,
        tables.board & ~(own | opponents),
        recorded,
        paths if every_path is None else every_path,
    )
    raws = best(tables, raws, kings, recorded)
    return raws if paths else deduplicate(raws)
