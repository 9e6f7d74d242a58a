"""What the capture-search tests need of the native core beyond the public API.

The search's limits are Rust constants (``native/core/src/capture.rs``), not Python attributes a
test could patch: :func:`capture_constant` reads them from the source, so that a test states its
expectations in the core's own units (states between two checks of the abort hook, the bound
on states, the number of paths past which a search starts again pruned) and follows them when
they change. The other helpers observe the search from outside: how many paths it finds before
precedence, every path it lists without pruning, and how often it calls the abort hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import attrs

import draughts
from draughts import Position
from draughts._core.generator import abort_when

CAPTURE_RS = Path(__file__).resolve().parents[1] / "native" / "core" / "src" / "capture.rs"
"""The native capture search's source (its constants are read from it)."""

T = TypeVar("T")

Identity = tuple[int, int, frozenset[int]]


def capture_constant(name: str) -> int:
    """The value of ``pub const NAME: <int type> = <value>;`` in the native capture search."""
    found = re.search(rf"^pub const {name}: \w+ = ([0-9_]+);$", CAPTURE_RS.read_text(), re.MULTILINE)
    if found is None:
        raise LookupError(f"no constant {name} in {CAPTURE_RS}")
    return int(found.group(1).replace("_", ""))


CHECK_EVERY = capture_constant("CHECK_EVERY")
"""States a search expands between two checks of its bound and calls of the abort hook."""
MAX_STATES = capture_constant("MAX_STATES")
"""States one search may expand before it raises :class:`~draughts.CaptureSearchLimitError`."""
EXPLOSION = capture_constant("EXPLOSION")
"""Paths a search that needs one path per move may find before it starts again pruned."""


def counting_hook_calls(call: Callable[[], T]) -> tuple[int, T]:
    """How often ``call`` calls the abort hook (once every :data:`CHECK_EVERY` states' worth of
    work of a capture search), and its result: the search's work in the core's own units."""
    calls: list[int] = []
    with abort_when(lambda: calls.append(1)):
        result = call()
    return len(calls), result


def free_choice(position: Position) -> Position:
    """``position`` under its ruleset without precedence: every capture stays legal."""
    rules = attrs.evolve(position.ruleset, name=f"{position.ruleset.name}-free", precedence=())
    return Position.from_fen(rules, position.fen())


def raw_paths(position: Position) -> int:
    """How many capture paths the search finds before precedence (the count a search compares
    with :data:`EXPLOSION`): the perft "keep" count of the same position under free choice."""
    return draughts.perft(free_choice(position), 1, paths=True)


def every_path(position: Position) -> list[tuple[Identity, tuple[int, ...], tuple[int, ...]]]:
    """Every legal capture path, ``(identity, path, captured in order)``: the listing in the perft
    "keep" convention, which never prunes (it must give every path)."""
    moves, _ = position.generator.legal(*position.node, True)
    return [((move.start, move.end, frozenset(move.captured)), move.path, move.captured) for move in moves]


def first_paths(position: Position) -> dict[Identity, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each legal move's first path in square order (what a move lists), from :func:`every_path`:
    ``identity -> (path, captured in order)``."""
    best: dict[Identity, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for identity, path, captured in every_path(position):
        best[identity] = min(best.get(identity, (path, captured)), (path, captured))
    return best
