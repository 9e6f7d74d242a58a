"""The capture-priority resolver: which generated moves are legal.

Pure functions over generator candidates, separate from the generator so each can be tested on
its own. The ruleset's precedence criteria form a lexicographic key; only the captures with the
best key are legal. Mandatory capture removes quiet moves when a capture exists; without it
(the no-forced-capture house rule) quiet moves stay beside the best captures. Finally moves with
one FMJD identity (start, end, set of captured pieces) are merged, unless paths are wanted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from draughts.movegen import Candidate
from draughts.rules import Precedence, Ruleset


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
