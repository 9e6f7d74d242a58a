"""perft: count the leaf nodes of the legal-move tree, the standard test of a move generator.

Counting works on raw bitboards, never builds :class:`~draughts.Move` objects, and counts the
last ply without making moves (bulk counting). Two conventions exist for captures that take the
same pieces by different paths:

* ``paths=False`` (default, "dedup"): moves with the same start, end and set of captured pieces
  count once, as :meth:`Position.legal_moves` lists them (Bik's BikDam, dctl's drop-duplicates);
* ``paths=True`` ("keep"): every capture path counts (OEIS A133046, Halbersma 2010), a path being
  what PDN 3.0 restriction 9 distinguishes.
"""

from __future__ import annotations

from draughts._legal import legal_candidates
from draughts._tables import Tables, compile_rules
from draughts.color import Color
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.movegen import count_quiet_moves, has_capture, make_move
from draughts.position import Position


def _count(tables: Tables, color: int, own: int, opponents: int, kings: int, depth: int, paths: bool) -> int:
    if depth == 1:
        empty = tables.board & ~(own | opponents)
        own_kings = own & kings
        if not has_capture(tables, color, own & ~kings, own_kings, opponents, opponents & kings, empty):
            return count_quiet_moves(tables, color, own & ~kings, own_kings, empty)
        return len(legal_candidates(tables, color, own, opponents, kings, paths=paths))
    total = 0
    for move in legal_candidates(tables, color, own, opponents, kings, paths=paths):
        child_own, child_opponents, child_kings = make_move(own, opponents, kings, move)
        total += _count(tables, 1 - color, child_opponents, child_own, child_kings, depth - 1, paths)
    return total


def _sides(position: Position) -> tuple[int, int]:
    if position.turn is Color.WHITE:
        return position.white, position.black
    return position.black, position.white


def perft(position: Position, depth: int, *, paths: bool = False) -> int:
    """Number of move sequences of length ``depth`` from ``position`` (draw rules ignored).

    >>> import draughts
    >>> draughts.perft(draughts.Position.initial("international"), 3)
    658

    Args:
        position: The root position.
        depth: Plies to look ahead (0 counts the root itself).
        paths: Count every capture path separately (the "keep" convention).
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise DraughtsError(f"perft depth {depth!r} must be a non-negative integer")
    if depth == 0:
        return 1
    own, opponents = _sides(position)
    return _count(compile_rules(position.ruleset), position.turn, own, opponents, position.kings, depth, paths)


def divide(position: Position, depth: int, *, paths: bool = False) -> list[tuple[Move, int]]:
    """perft split by root move: ``[(move, leaves below it), ...]`` in generation order.

    With ``paths``, each capture path is its own entry (two entries may then compare equal as
    moves, since a :class:`~draughts.Move` is identified by start, end and captured set).
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise DraughtsError(f"divide depth {depth!r} must be a positive integer")
    tables = compile_rules(position.ruleset)
    own, opponents = _sides(position)
    square = tables.square_of_bit
    result = []
    for candidate in legal_candidates(tables, position.turn, own, opponents, position.kings, paths=paths):
        move = Move(
            square[candidate.start],
            square[candidate.end],
            tuple(square[bit] for bit in candidate.captured),
            tuple(square[bit] for bit in candidate.path),
            candidate.promotes,
        )
        if depth == 1:
            result.append((move, 1))
            continue
        child_own, child_opponents, child_kings = make_move(own, opponents, position.kings, candidate)
        count = _count(tables, 1 - position.turn, child_opponents, child_own, child_kings, depth - 1, paths)
        result.append((move, count))
    return result
