"""Exact solving of one material by retrograde analysis over the library's one move generator.

No move is generated backwards. The solver walks every position of the material once, forwards:

1. it generates the position's legal moves (the native generator of ``draughts._native``,
   the same one :class:`~draughts.Position` uses) and plays each. A move that stays in the
   material (a quiet king or man move) is an *edge*, stored reversed: the child lists the parent.
   A move that leaves it (a capture, a crowning) is an *exit* whose value is known already: from
   the table of the smaller material, or from the rules when the game is over (the side to move
   has no piece left; a crowning that wins a breakthrough game).
2. Then the values spread backwards, level by level in plies (a bucket queue). A position with no
   legal move is decided at 0 plies: lost, or won where :attr:`~draughts.Ruleset.no_move_wins`.
   A position with a child lost in ``n`` plies is won in ``n + 1`` (the first such child found is
   the nearest, since levels are taken in increasing order); a position all of whose children are
   won is lost in one ply more than the longest of them, as soon as the last child is decided.
   Whatever is never decided is a draw: neither side can force the end of the game.

The values are pure game-theoretic (no move-count draw rules): "win in ``n`` plies" means the
side to move can force the end of the game by the ruleset's own win conditions within ``n``
plies, and no faster against the best defence; a loss is as long as the loser can make it.

The work runs natively (``draughts-core``'s ``endgame`` module, through ``draughts._native.Endgame``):
the walk is split between threads, the values do not depend on how. The tables of the smaller
materials go over as their files' packed sections, so no Python runs per position; a lookup that
is not a table lookup (:class:`TableLookup`) is called per exit, on one thread.
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from draughts._core.native import capture_key, native_precedence, native_spec, precedence_callback
from draughts.endgame.codes import LOSS, WIN
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
from draughts.endgame.phases import phase
from draughts.endgame.within import men_advance, native_plan
from draughts.rules import Ruleset

if TYPE_CHECKING:
    from draughts._native import Endgame

__all__ = ["Lookup", "Solved", "TableLookup", "Value", "default_workers", "native_solver", "solve", "terminal_value"]

Value = tuple[int, int]
"""``(code, plies)`` of one position."""
Lookup = Callable[[int, int, int, int], tuple[int, int, int]]
"""The value of a position of another material: ``(own, opp, kings, color)`` of the side to move
give ``(code, plies, within)``, ``within`` its code under the draw rules (see :func:`solve`)."""

PackedTable = tuple[tuple[int, int, int, int], bytes, bytes, int, "bytes | None"]
"""A smaller material's table as the native solver reads it: ``(counts, codes, plies,
plies_bits, within)``, counts ``(white men, black men, white kings, black kings)``, the sections
packed as in the files."""


@runtime_checkable
class TableLookup(Protocol):
    """A lookup that reads built tables: it can hand them over whole (``draughts.endgame.tablebase``)."""

    def __call__(self, own: int, opp: int, kings: int, turn: int) -> tuple[int, int, int]: ...

    def packed(self, materials: list[Material]) -> tuple[list[PackedTable], bool]:
        """The tables of ``materials`` that are built, and whether one is missing."""
        ...


class Solved:
    """The values of one material: a code and a distance per index, and the codes under the
    draw rules where they were asked for."""

    def __init__(self, indexer: Indexer, codes: bytearray, plies: array[int], within: bytearray | None) -> None:
        self.indexer = indexer
        self.codes = codes
        self.plies = plies
        self.within = within

    @classmethod
    def of_native(cls, indexer: Indexer, results: tuple[bytes, bytes, bytes | None, int]) -> Solved:
        """The values a native solve (or mirror) returned: codes, distances (2 bytes each,
        little-endian), codes within the rules, and a count left unused."""
        codes, plies, within, _ = results
        distances = array("H")
        distances.frombytes(plies)
        if sys.byteorder != "little":  # pragma: no cover - the native side writes little-endian
            distances.byteswap()
        return cls(indexer, bytearray(codes), distances, None if within is None else bytearray(within))

    def value(self, white: int, black: int, kings: int, turn: int) -> Value:
        """The value of a position of this material for the side to move."""
        index = self.indexer.index(white, black, kings, turn)
        return self.codes[index], self.plies[index]


def terminal_value(ruleset: Ruleset, own: int, kings: int) -> Value | None:
    """The value for the side to move of a position where the game is over before any move is
    looked at: a king on the board where crowning wins (the king's owner has won, and it is not
    the side to move in any position reached by a move), or no piece left for the side to move."""
    if ruleset.crowning_wins and kings:
        return (LOSS, 0) if not kings & own else (WIN, 0)
    if not own:
        return (WIN, 0) if ruleset.no_move_wins else (LOSS, 0)
    return None


def default_workers() -> int:
    """Threads a solve uses unless told: ``$DRAUGHTS_ENDGAME_THREADS``, else the CPUs this
    process may run on."""
    explicit = os.environ.get("DRAUGHTS_ENDGAME_THREADS", "")
    if explicit.isdigit() and int(explicit) > 0:
        return int(explicit)
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def native_solver(ruleset: Ruleset, material: Material) -> Endgame:
    """The native solver of ``material`` under ``ruleset`` (the ruleset compiled as
    ``draughts._core.native.native_rules`` compiles it)."""
    from draughts._native import Endgame

    callback = None
    key = capture_key(ruleset)
    if native_precedence(ruleset) is None and key is not None:
        callback = precedence_callback(key, ruleset.precedence)
    return Endgame(native_spec(ruleset), material.counts(ruleset), callback)


def solve(
    ruleset: Ruleset,
    material: Material,
    lookup: Lookup,
    within: bool = False,
    *,
    workers: int | None = None,
    sliced: bool = True,
) -> Solved:
    """Solve every position of ``material`` under ``ruleset``.

    Memory (native): per entry of what is solved at once about 15 bytes (codes, distances,
    counts, offsets, seeds), per move inside it 4 bytes; the verdicts within the rules add about
    5 bytes per entry, times the values of the count of plies since a man moved where both
    counts matter (``draughts.endgame.within``). A material with men is solved ``sliced``: what
    is solved at once is a frame of slices (one placement of the men, the kings placed every way
    around them), a frame per thread, and the whole material keeps 6 bytes an entry (its values
    and the budgets of its verdicts within the rules).

    Args:
        ruleset: The ruleset (without rule state in this material: checked by the caller).
        material: The material.
        lookup: The value of any position of a smaller material (the tables built before). A
            :class:`TableLookup` hands its tables over whole; any other callable is called per
            exit, and the solve then runs on one thread.
        within: Also give the verdicts within the draw rules, counts at 0 (for rulesets
            :func:`draughts.endgame.within.known` accepts).
        workers: Threads (default :func:`default_workers`).
        sliced: Solve a material with men slice by slice of the men's placement, furthest first
            (where men only move forward): the same values, in a fraction of the memory (the
            values, about 6 bytes an entry, and the working arrays of the slices being solved).
    """
    indexer = Indexer(ruleset, material)
    tables: list[PackedTable] = []
    fallback: Lookup | None = lookup
    if isinstance(lookup, TableLookup):
        tables, missing = lookup.packed(material.successors(ruleset))
        if not missing:
            fallback = None  # every exit is answered natively: no Python per position
    plan: dict[str, Any] | None = native_plan(ruleset, material, indexer) if within else None
    slices = men_advance(ruleset) if sliced else None
    with phase(material.name, "native"):
        results = native_solver(ruleset, material).solve(tables, plan, workers or default_workers(), fallback, slices)
    return Solved.of_native(indexer, results)
