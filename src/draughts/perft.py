"""perft: count the leaf nodes of the legal-move tree, the standard test of a move generator.

Two conventions exist for captures that take the same pieces by different paths:

* ``paths=False`` (default, "dedup"): moves with the same start, end and set of captured pieces
  count once, as :attr:`Position.legal_moves <draughts.Position.legal_moves>` lists them (Bik's
  BikDam, dctl's drop-duplicates);
* ``paths=True`` ("keep"): every capture path counts (OEIS A133046, Halbersma 2010), a path being
  what PDN 3.0 restriction 9 distinguishes.

perft runs in the native core (``native/core/src/perft.rs``): a recursion over the one move
generator that plays moves above the last two plies and counts those in bulk, without the
interpreter lock (Ctrl-C interrupts it). Nothing here knows a rule; every ruleset, named or custom,
runs the same code. Draw rules are ignored; a position where the game is over (no legal move, or a
breakthrough won) has no moves and so no leaves below it.

``perft`` and ``divide`` accept any ``concurrent.futures.Executor`` to spread the work over
processes or machines: the root position is expanded to a split depth and the subtrees are
counted as independent jobs (positions and rulesets pickle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from draughts._text import excerpt
from draughts.errors import DraughtsError
from draughts.move import Move
from draughts.position import Position

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["DEEPEST", "divide", "perft"]


def _check_position(position: object, what: str) -> None:
    if not isinstance(position, Position):
        raise TypeError(
            f"{what} needs a Position, not {excerpt(position)}; e.g. {what}(draughts.Position.initial('russian'), 5)"
        )


DEEPEST = 200
"""The deepest perft: the count recurses one stack frame per ply. Published counts stop below
depth 20 and a tree that deep with more than one line per ply never finishes, so a deeper request
is refused with a clear error."""


def _check_depth(depth: object, minimum: int, what: str) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < minimum:
        kind = "non-negative" if minimum == 0 else "positive"
        raise DraughtsError(f"{what} depth {excerpt(depth)} must be a {kind} integer")
    if depth > DEEPEST:
        raise DraughtsError(f"{what} depth {excerpt(depth)} is deeper than {DEEPEST}, the deepest perft counts")
    return depth


def _count_position(position: Position, depth: int, paths: bool) -> int:
    """perft of one position, in this process (the unit of work sent to executors)."""
    return position.generator.native.perft(position.node, depth, paths)


def perft(position: Position, depth: int, *, paths: bool = False, executor: Executor | None = None) -> int:
    """Number of move sequences of length ``depth`` from ``position`` (draw rules ignored).

    >>> import draughts
    >>> draughts.perft(draughts.Position.initial("international"), 3)
    658

    Args:
        position: The root position.
        depth: Plies to look ahead (0 counts the root itself).
        paths: Count every capture path separately (the "keep" convention).
        executor: A ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, Dask's
            ``Client.get_executor()``, ...) to count subtrees in parallel; the result is the same.
    """
    _check_position(position, "perft")
    _check_depth(depth, 0, "perft")
    if executor is not None and depth >= 2:
        return sum(count for _, count in _parallel_divide(position, depth, paths, executor))
    return _count_position(position, depth, paths)


def _root_moves(position: Position, paths: bool) -> list[tuple[Move, Position]]:
    """Each legal root move (each path with ``paths``) and the position it leads to."""
    return position.children(paths=paths)


def divide(
    position: Position, depth: int, *, paths: bool = False, executor: Executor | None = None
) -> list[tuple[Move, int]]:
    """perft split by root move: ``[(move, leaves below it), ...]`` in the order of ``legal_moves``.

    With ``paths``, each capture path is its own entry (two entries may then compare equal as
    moves, since a :class:`~draughts.Move` is identified by start, end and captured set).
    With ``executor``, the subtrees are counted in parallel (see :func:`perft`).
    """
    _check_position(position, "divide")
    _check_depth(depth, 1, "divide")
    if executor is not None and depth >= 2:
        return _parallel_divide(position, depth, paths, executor)
    return [(move, _count_position(child, depth - 1, paths)) for move, child in _root_moves(position, paths)]


def _parallel_divide(position: Position, depth: int, paths: bool, executor: Executor) -> list[tuple[Move, int]]:
    """divide with the subtrees counted as jobs on ``executor``.

    Each root move's subtree is split further, one ply at a time, until there are enough jobs to
    keep the workers busy (about 8 per worker for uneven subtrees) or the remaining depth gets
    small; each job is a (position, depth) pair that pickles cheaply.
    """
    roots = _root_moves(position, paths)
    remaining = depth - 1
    # Jobs per root move: the positions below it at the split depth.
    groups: list[list[Position]] = [[child] for _, child in roots]
    target = 8 * _workers(executor)
    while remaining > 3 and sum(len(group) for group in groups) < target:
        groups = [[grandchild for child in group for _, grandchild in _root_moves(child, paths)] for group in groups]
        remaining -= 1
    futures = [[executor.submit(_count_position, job, remaining, paths) for job in group] for group in groups]
    return [(move, sum(future.result() for future in group)) for (move, _), group in zip(roots, futures, strict=True)]


def _workers(executor: Executor) -> int:
    """A guess of how many jobs ``executor`` runs at once (for splitting the work).

    A process or thread pool says it (``_max_workers``); Dask's ``ClientExecutor`` has a client
    whose ``nthreads()`` counts the threads of every worker, so the split grows with the cluster.
    """
    for name in ("_max_workers", "max_workers"):
        value = getattr(executor, name, None)
        if isinstance(value, int) and value > 0:
            return value
    nthreads = getattr(getattr(executor, "_client", None), "nthreads", None)
    if callable(nthreads):
        try:
            threads = sum(nthreads().values())
        except Exception:  # a client that cannot answer: fall back to the guess
            threads = 0
        if isinstance(threads, int) and threads > 0:
            return threads
    return 8
