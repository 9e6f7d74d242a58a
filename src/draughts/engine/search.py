"""The engine's recursion: alpha-beta and quiescence search on the generator's nodes, run natively.

:class:`draughts.engine.Engine` owns the search (limits, the root, iterative deepening, levels,
in :mod:`draughts.engine.root`); the part that runs per node is the native core's
(``native/core/src/search.rs``, ``draughts._native.Searcher``): principal-variation alpha-beta
with a transposition table kept between searches, quiescence over captures (and a ply more
against a threatened capture or crowning), move ordering (table move, killers, history, most
captured first), forward pruning, late-move reductions, repetitions, the tablebase probe, and the
limits (nodes; the clock and the stop flag read every few hundred nodes and inside long capture
generations). This module names the constants both sides share and :func:`searcher`, the
native searcher of a ruleset.
"""

from __future__ import annotations

from draughts._core.native import native_rules
from draughts._native import Searcher
from draughts.rules import Ruleset

__all__ = [
    "CHECK_EVERY",
    "EXACT",
    "INF",
    "LOWER",
    "MATE",
    "MATE_BOUND",
    "MAX_DEPTH",
    "NO_PV",
    "PRUNE",
    "THREATS",
    "UPPER",
    "Searcher",
    "Stopped",
    "searcher",
]

MATE = 1_000_000
"""The score of a won game (less the plies to the win)."""
MATE_BOUND = MATE - 10_000
"""Scores beyond this are wins or losses in a number of plies."""
INF = MATE + 1
MAX_DEPTH = 64
"""The deepest iteration (a ply count the recursion's per-ply tables are sized for)."""
EXACT, LOWER, UPPER = 0, 1, 2
"""Transposition-table flags: the stored score is exact, a lower bound or an upper bound."""
NO_PV: tuple[tuple[int, int, int], ...] = ()

CHECK_EVERY = 256
"""Nodes between two looks at the clock and the stop flag (the native search's interval)."""
THREATS = 1
"""How many times on one line the quiescence search looks a ply further because the opponent
threatens a capture or a crowning."""
PRUNE = 10
"""Forward pruning: at a quiet node ``depth`` plies from the horizon (3 or more), a search of
``2/5`` of the depth that beats beta by ``PRUNE * depth`` ends the node."""


class Stopped(Exception):
    """A limit was reached inside the search."""


def searcher(ruleset: Ruleset, hash_size: int) -> Searcher:
    """A native searcher of ``ruleset`` with an empty transposition table of at most ``hash_size`` entries."""
    return Searcher(native_rules(ruleset), hash_size)
