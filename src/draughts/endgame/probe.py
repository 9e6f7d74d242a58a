"""Probing from inside the engine's search: exact scores at nodes whose material is built.

The engine's recursion (:class:`draughts.engine.search.Searcher`) works on bit masks and cannot
afford a :class:`~draughts.Position` per node, so it asks a :class:`NodeProbe` made once per
search: a node's material is read from its piece counts, looked up among the tables on disk
(opened on first use, a material that is not built remembered as such) and, if built, ranked
and read directly. A material whose table is missing but whose mirror's is built
(``KvKKK`` and ``KKKvK``) is read from the mirror, the masks turned round as
:meth:`~draughts.Position.mirror` turns a position.

The score is the pure game-theoretic value of the tables (no move-count draw rules, as the
search itself counts none): a draw scores 0, a win in ``n`` plies at ``ply`` plies from the root
``MATE - ply - n``, a loss the negation, so the search compares them with its own mates.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from draughts._core.tables import compile_rules
from draughts.endgame import storage
from draughts.endgame.codes import LOSS, WIN
from draughts.endgame.errors import TablebaseError
from draughts.endgame.material import Material
from draughts.endgame.table import Table
from draughts.engine.search import MATE
from draughts.rules import Ruleset

__all__ = ["Counts", "NodeProbe", "built_materials", "node_probe"]


class _Tablebase(Protocol):
    """What a probe reads of a :class:`~draughts.endgame.Tablebase` (which makes its probes with
    this module, so it names the shape instead of importing the class): its rules, their key in
    file names, its directory, and its tables."""

    rules: Ruleset
    key: str
    directory: Path

    def table(self, material: Material | str) -> Table: ...


Counts = tuple[int, int, int, int]
"""``(white men, black men, white kings, black kings)``."""


class NodeProbe:
    """The engine search's probe of one tablebase, made once per search
    (:meth:`Tablebase.node_probe`).

    Calling it with a node ``(own, opp, kings, color, ply)`` (bit masks of the generator's layout)
    gives the node's exact score for the side to move, or None where neither the node's material
    nor its mirror is built: 0 for a draw, ``MATE - ply - n`` for a win in ``n`` plies, the
    negation for a loss. A material's table is opened on first use; one not built is remembered.

    Attributes:
        pieces: The most pieces of any built material (nodes with more are never probed).
    """

    def __init__(self, tablebase: _Tablebase) -> None:
        self.tablebase = tablebase
        rules = tablebase.rules
        self.built = built_materials(tablebase)
        self.pieces = max((material.pieces for material in self.built), default=0)
        self.entries: dict[Counts, tuple[Table, bool] | None] = {}
        tables = compile_rules(rules)
        geometry = rules.geometry
        self.turned = [
            1 << tables.bit_of_square[geometry.rotate(square)] if square else 0 for square in tables.square_of_bit
        ]
        """Per bit of the generator's layout, the bit of the square opposite (the board turned 180°)."""

    def __call__(self, own: int, opp: int, kings: int, color: int, ply: int) -> int | None:
        white, black = (own, opp) if color == 0 else (opp, own)
        men = ~kings
        counts = (
            (white & men).bit_count(),
            (black & men).bit_count(),
            (white & kings).bit_count(),
            (black & kings).bit_count(),
        )
        entries = self.entries
        if counts in entries:
            entry = entries[counts]
        else:
            entry = entries[counts] = self._open(counts)
        if entry is None:
            return None
        table, mirrored = entry
        if mirrored:
            white, black, kings, color = self._turn(black), self._turn(white), self._turn(kings), color ^ 1
        code, plies = table.value(white, black, kings, color)
        if code == WIN:
            return MATE - ply - plies
        if code == LOSS:
            return ply + plies - MATE
        return 0

    def _turn(self, mask: int) -> int:
        turned, out = self.turned, 0
        while mask:
            low = mask & -mask
            out |= turned[low.bit_length() - 1]
            mask ^= low
        return out

    def _open(self, counts: Counts) -> tuple[Table, bool] | None:
        rules = self.tablebase.rules
        white_men, black_men, white_kings, black_kings = counts
        if not (white_men + white_kings and black_men + black_kings):
            return None  # the game is over: the search scores it
        material = Material.of_counts(rules, (white_men, white_kings), (black_men, black_kings))
        for candidate, mirrored in ((material, False), (material.mirrored(), True)):
            if candidate in self.built:
                try:
                    return self.tablebase.table(candidate), mirrored
                except TablebaseError:
                    continue  # a damaged file answers nothing (probe() says why)
        return None


def built_materials(tablebase: _Tablebase) -> set[Material]:
    """The materials whose table files of this tablebase's rules are in its directory (not yet checked)."""
    suffix = storage.file_name(Material((0, 1), (0, 1)), tablebase.key).split(".", 1)[1]
    found: set[Material] = set()
    try:
        paths = list(tablebase.directory.glob(f"*.{suffix}"))
    except OSError:
        return found
    for path in paths:
        try:
            found.add(Material.parse(path.name.split(".", 1)[0]))
        except TablebaseError:
            continue
    return found


def node_probe(tablebase: _Tablebase, ruleset: Ruleset) -> NodeProbe | None:
    """A probe of ``tablebase`` for searches under ``ruleset`` (None: other rules, or nothing built)."""
    if ruleset is not tablebase.rules and ruleset != tablebase.rules and storage.ruleset_key(ruleset) != tablebase.key:
        return None
    probe = NodeProbe(tablebase)
    return probe if probe.pieces else None
