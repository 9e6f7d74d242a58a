"""The capture-priority resolver: which generated moves are legal.

Pure functions over generator candidates, separate from the generator so each can be tested on
its own. The ruleset's precedence criteria form a lexicographic key; only the captures with the
best key are legal. Mandatory capture removes quiet moves when a capture exists; without it
(the no-forced-capture house rule) quiet moves stay beside the best captures. Finally moves with
one FMJD identity (start, end, set of captured pieces) are merged, unless paths are wanted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from draughts.rules import Precedence, Ruleset

if TYPE_CHECKING:  # imported for annotations only: the compiled tables import this module
    from draughts.movegen import Candidate, RawCapture


def _kings_in(captured: tuple[int, ...], kings: int) -> tuple[int, ...]:
    return tuple(kings >> bit & 1 for bit in captured)


_CRITERIA: dict[Precedence, Callable[[Candidate, int], object]] = {
    Precedence.MOST_PIECES: lambda move, kings: len(move.captured),
    Precedence.WITH_KING: lambda move, kings: move.with_king,
    Precedence.MOST_KINGS: lambda move, kings: sum(_kings_in(move.captured, kings)),
    Precedence.KINGS_EARLIEST: lambda move, kings: _kings_in(move.captured, kings),
}


def precedence_key(precedence: Sequence[Precedence], move: Candidate, kings: int) -> tuple[object, ...]:
    """The sort key of a capture under ``precedence``: larger is preferred.

    ``kings`` is the bitboard of kings on the board before the move.
    """
    return tuple(_CRITERIA[criterion](move, kings) for criterion in precedence)


def best_captures(precedence: Sequence[Precedence], moves: Sequence[Candidate], kings: int) -> list[Candidate]:
    """The captures whose precedence key is the best (all of them when ``precedence`` is empty)."""
    if not precedence or len(moves) < 2:
        return list(moves)
    keys = [precedence_key(precedence, move, kings) for move in moves]
    best = max(keys)
    return [move for move, key in zip(moves, keys, strict=True) if key == best]


def identity(move: Candidate) -> tuple[int, int, int]:
    """The FMJD identity of a move: start, end and the set of captured pieces (as a bit mask)."""
    captured = 0
    for bit in move.captured:
        captured |= 1 << bit
    return move.start, move.end, captured


def deduplicate(moves: Iterable[Candidate]) -> list[Candidate]:
    """One move per identity, keeping the first path generated."""
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for move in moves:
        key = identity(move)
        if key not in seen:
            seen.add(key)
            unique.append(move)
    return unique


def resolve(
    rules: Ruleset,
    quiet: Sequence[Candidate],
    captures: Sequence[Candidate],
    kings: int,
    *,
    paths: bool = False,
) -> list[Candidate]:
    """The legal moves among the generated ``quiet`` moves and ``captures``.

    Args:
        rules: The ruleset (``capture_mandatory`` and ``precedence`` are read).
        quiet: Every quiet move.
        captures: Every complete capture path.
        kings: Bitboard of all kings before the move (for the king criteria).
        paths: Keep every capture path (the perft "keep" convention) instead of one move per identity.
    """
    chosen = best_captures(rules.precedence, captures, kings)
    if not paths:
        chosen = deduplicate(chosen)
    if chosen and rules.capture_mandatory:
        return chosen
    return [*quiet, *chosen]


# --- the same resolver on raw captures (bit masks), for perft and the generator glue ---

_RAW_CRITERIA: dict[Precedence, Callable[[RawCapture, int], object]] = {
    Precedence.MOST_PIECES: lambda raw, kings: raw[2].bit_count(),
    Precedence.WITH_KING: lambda raw, kings: bool(raw[0] & kings),
    Precedence.MOST_KINGS: lambda raw, kings: (raw[2] & kings).bit_count(),
    # Without recorded order there were no kings to take (see _legal.legal_raw_captures): all zeros.
    Precedence.KINGS_EARLIEST: lambda raw, kings: (
        tuple([1 if bit & kings else 0 for bit in raw[4]]) if raw[4] else (0,) * raw[2].bit_count()
    ),
}


def needs_order(precedence: Sequence[Precedence]) -> bool:
    """Whether ``precedence`` compares the capture order (raw captures must then be recorded)."""
    return Precedence.KINGS_EARLIEST in precedence


def raw_key_function(precedence: Sequence[Precedence]) -> Callable[[RawCapture, int], object] | None:
    """The key of a raw capture under ``precedence`` (larger is preferred); None for free choice.

    The key orders captures exactly as :func:`precedence_key` orders their candidates; a single
    criterion is used as a bare value rather than a one-element tuple.
    """
    criteria = [_RAW_CRITERIA[criterion] for criterion in precedence]
    if not criteria:
        return None
    if len(criteria) == 1:
        return criteria[0]
    if len(criteria) == 2:
        first, second = criteria
        return lambda raw, kings: (first(raw, kings), second(raw, kings))
    return lambda raw, kings: tuple([criterion(raw, kings) for criterion in criteria])


def best_raw(key: Callable[[RawCapture, int], object] | None, raws: list[RawCapture], kings: int) -> list[RawCapture]:
    """The raw captures with the best ``key`` (all of them without a key)."""
    if key is None or len(raws) < 2:
        return raws
    keys = [key(raw, kings) for raw in raws]
    best = max(keys)  # type: ignore[type-var]
    return [raw for raw, value in zip(raws, keys, strict=True) if value == best]


def deduplicate_raw(raws: list[RawCapture]) -> list[RawCapture]:
    """One raw capture per identity (start, end, captured set), keeping the first generated."""
    if len(raws) < 2:
        return raws
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for raw in raws:
        identity_key = (raw[0], raw[1], raw[2])
        if identity_key not in seen:
            seen.add(identity_key)
            unique.append(raw)
    return unique
