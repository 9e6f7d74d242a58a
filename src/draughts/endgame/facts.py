"""Facts about a ruleset's game read from its built tables, for the comparison tables.

:func:`draughts.compare.rules_table` adds these rows when given a tables directory
(``draughts compare ... --tablebases DIR``), and ``draughts overview --tablebases DIR`` these
columns (:func:`column_label`). A cell reads ``not built`` where the table a fact
needs is not in the directory: a fact is never guessed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from draughts.endgame.errors import TablebaseError
from draughts.endgame.material import Material
from draughts.endgame.tablebase import Tablebase
from draughts.rules import Ruleset

__all__ = [
    "COLUMNS_NOTE",
    "MOST_KINGS",
    "NOT_BUILT",
    "NO_KINGS",
    "REFERENCE_MATERIALS",
    "FactRow",
    "column_label",
    "fact_rows",
    "kings_needed",
    "won_share",
]

REFERENCE_MATERIALS = ("KvK", "KKvK", "KKKvK", "MvK")
"""The materials whose won share the comparison shows (first player's side first)."""
MOST_KINGS = 4
"""The most kings tried against a lone king."""
NOT_BUILT = "not built"
NO_KINGS = "no kings (crowning wins)"
"""The cell of a material with kings under a ruleset where the first king ends the game."""

FactRow = tuple[str, str, tuple[str, ...]]
"""``(key, label, cells)``: one row, one cell per ruleset."""


def _won_share(tb: Tablebase, material: str) -> tuple[int, int] | None:
    """Wins and positions of ``material`` with the first player to move (None: not built)."""
    try:
        stats = tb.stats(material)
    except TablebaseError:
        return None
    side = stats[tb.rules.first_to_move.name.lower()]
    return int(side["win"]), int(side["positions"])


def kings_needed(tb: Tablebase) -> str:
    """The fewest kings that beat a lone king from most positions (more than half, the kings to
    move), as text with the share; ``not built`` where a table it needs is missing."""
    if tb.rules.crowning_wins:
        return NO_KINGS
    for kings in range(1, MOST_KINGS + 1):
        material = Material((0, kings), (0, 1)).name
        counts = _won_share(tb, material)
        if counts is None:
            return f"{NOT_BUILT} ({material})" if kings > 1 else NOT_BUILT
        wins, positions = counts
        if 2 * wins > positions:
            return f"{kings} ({wins / positions:.1%} of {material} won)"
    return f"more than {MOST_KINGS}"


def won_share(tb: Tablebase, material: str) -> str:
    """The share of ``material``'s positions the first player, to move, wins."""
    if tb.rules.crowning_wins and "K" in material.upper():
        return NO_KINGS
    counts = _won_share(tb, material)
    if counts is None:
        return NOT_BUILT
    wins, positions = counts
    return f"{wins / positions:.1%}"


def column_label(key: str) -> str:
    """A short heading for the fact row ``key`` where facts are columns (``draughts overview``):
    ``kings to beat K``, ``KKvK won``.

    >>> column_label("tablebase_won_KKvK"), column_label("tablebase_kings_needed")
    ('KKvK won', 'kings to beat K')
    """
    if key == "tablebase_kings_needed":
        return "kings to beat K"
    return key.removeprefix("tablebase_won_") + " won"


COLUMNS_NOTE = (
    "From the endgame tables: kings to beat K = the fewest kings that beat a lone king from more than half "
    "of the positions, the kings to move; XvY won = the share of XvY's positions the first player, to move, "
    f"wins; '{NOT_BUILT}' where a table it needs is not in the directory."
)
"""What the fact columns of ``draughts overview --tablebases`` mean, printed under the table."""


def fact_rows(rulesets: Sequence[Ruleset], directory: str | os.PathLike[str] | None = None) -> list[FactRow]:
    """The tablebase rows of a comparison of ``rulesets``, from the tables in ``directory``
    (default: :func:`~draughts.endgame.default_directory`)."""
    bases = [Tablebase(rules, directory) for rules in rulesets]
    rows: list[FactRow] = [
        ("tablebase_kings_needed", "Kings needed to beat a lone king (tables)", tuple(map(kings_needed, bases)))
    ]
    for material in REFERENCE_MATERIALS:
        rows.append(
            (
                f"tablebase_won_{material}",
                f"{material} won, first player to move (tables)",
                tuple(won_share(tb, material) for tb in bases),
            )
        )
    return rows
