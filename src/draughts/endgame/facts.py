"""Facts about a ruleset's game read from its built tables, for the comparison tables.

:func:`draughts.compare.rules_table` adds these rows when given a tables directory
(``draughts compare ... --tablebases DIR``), and ``draughts overview --tablebases DIR`` these
columns (:func:`column_label`). A cell reads ``not built`` where the table a fact
needs is not in the directory: a fact is never guessed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from draughts.endgame.errors import TablebaseError
from draughts.endgame.material import Material
from draughts.endgame.tablebase import Tablebase, default_directory
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
MOST = 0.9
"""The share of positions a material must win to count as winning "from most positions"."""
NOT_BUILT = "not built"
NO_KINGS = "no kings (crowning wins)"
"""The cell of a material with kings under a ruleset where the first king ends the game."""

FactRow = tuple[str, str, tuple[str, ...]]
"""``(key, label, cells)``: one row, one cell per ruleset."""


def _counts(tb: Tablebase, material: str) -> dict[str, int] | None:
    """``material``'s counts with the first player to move (None: not built): positions, win,
    draw, loss, and ``within_win`` / ``within_draw`` / ``within_loss`` where the table knows them."""
    try:
        stats = tb.stats(material)
    except TablebaseError:
        return None
    side = stats[tb.rules.first_to_move.name.lower()]
    counts = {key: int(side[key]) for key in ("positions", "win", "draw", "loss")}
    for key, value in (side.get("within_rules") or {}).items():
        counts[f"within_{key}"] = int(value)
    return counts


def material_counts(tb: Tablebase, material: str) -> dict[str, Any]:
    """``material``'s figures with the first player to move, for ``draughts endgame compare``:
    ``positions``, ``win``, ``draw``, ``loss``, ``longest_win`` (plies) and ``within_rules`` (the
    same counts under the draw rules, counts just reset; None where the table does not know them).

    Raises:
        TablebaseError: the table is not built.
    """
    side = tb.stats(material)[tb.rules.first_to_move.name.lower()]
    within = side.get("within_rules")
    return {
        **{key: int(side[key]) for key in ("positions", "win", "draw", "loss")},
        "longest_win": int(side["longest_win"] or 0),
        "within_rules": None if not within else {key: int(within[key]) for key in ("win", "draw", "loss")},
    }


def _won_share(tb: Tablebase, material: str) -> tuple[int, int] | None:
    """Wins and positions of ``material`` with the first player to move (None: not built)."""
    counts = _counts(tb, material)
    return None if counts is None else (counts["win"], counts["positions"])


def kings_needed(tb: Tablebase, share: float = MOST) -> str:
    """The fewest kings that win against a lone king from at least ``share`` of the positions
    (the kings to move), as text with the share they win; ``share=1``: from every position.

    Not "more than half" (issue 40 §3): three kings win 91.9% of Russian KKKvK and 52.8% of
    International's, and a threshold of one half called both "3". A material that falls short is
    named with its share (``more than 3 (KKKvK: 52.8% won); KKKKvK not built``).
    """
    if tb.rules.crowning_wins:
        return NO_KINGS
    short = ""
    for kings in range(1, MOST_KINGS + 1):
        material = Material((0, kings), (0, 1)).name
        counts = _won_share(tb, material)
        if counts is None:
            return f"{short}; {material} not built" if short else NOT_BUILT
        wins, positions = counts
        if wins >= share * positions:
            return f"{kings} ({material}: {wins / positions:.1%} won)"
        short = f"more than {kings} ({material}: {wins / positions:.1%} won)"
    return short


def won_share(tb: Tablebase, material: str) -> str:
    """The share of ``material``'s positions the first player, to move, wins, and the share it
    wins within the draw rules where the table knows it (``91.9% (65.2% within the rules)``)."""
    if tb.rules.crowning_wins and "K" in material.upper():
        return NO_KINGS
    counts = _counts(tb, material)
    if counts is None:
        return NOT_BUILT
    text = f"{counts['win'] / counts['positions']:.1%}"
    if "within_win" in counts and counts["within_win"] != counts["win"]:
        text += f" ({counts['within_win'] / counts['positions']:.1%} within the rules)"
    return text


def column_label(key: str) -> str:
    """A short heading for the fact row ``key`` where facts are columns (``draughts overview``):
    ``kings to win 90% vs K``, ``KKvK won``.

    >>> column_label("tablebase_won_KKvK"), column_label("tablebase_kings_needed")
    ('KKvK won', 'kings to win 90% vs K')
    """
    if key == "tablebase_kings_needed":
        return f"kings to win {MOST:.0%} vs K"
    if key == "tablebase_kings_every":
        return "kings to win all vs K"
    return key.removeprefix("tablebase_won_") + " won"


COLUMNS_NOTE = (
    f"From the endgame tables: kings to win {MOST:.0%} vs K = the fewest kings that beat a lone king from "
    f"{MOST:.0%} of the positions or more, the kings to move (with the share they win); kings to win all = "
    "from every position; XvY won = the share of XvY's positions the first player, to move, wins (and within "
    f"the draw rules, where it differs); '{NOT_BUILT}' where a table it needs is not in the directory."
)
"""What the fact columns of ``draughts overview --tablebases`` mean, printed under the table."""


def no_tables(rulesets: Sequence[Ruleset], directory: str | os.PathLike[str] | None = None) -> str | None:
    """Why ``directory`` (default: the cache ``draughts endgame build`` fills) has nothing to say
    about ``rulesets``, in one line with the command that builds their tables; None when it holds
    a table of one of them. A comparison prints this once rather than ``not built`` in every cell."""
    path = default_directory() if directory is None else Path(directory)
    first = rulesets[0].name if rulesets else "VARIANT"
    build = f"draughts endgame build {first} KKKvK" + ("" if directory is None else f" --tablebases {path}")
    if not path.is_dir():
        return f"no endgame tables: {str(path)!r} is not a directory (build some with: {build})"
    for rules in rulesets:
        tb = Tablebase(rules, path)
        if any(tb.path(material).exists() for material in (*REFERENCE_MATERIALS, "KKKKvK")):
            return None
    names = ", ".join(rules.name for rules in rulesets)
    return f"no endgame tables of {names} in {str(path)!r} (build some with: {build})"


def fact_rows(rulesets: Sequence[Ruleset], directory: str | os.PathLike[str] | None = None) -> list[FactRow]:
    """The tablebase rows of a comparison of ``rulesets``, from the tables in ``directory``
    (default: :func:`~draughts.endgame.default_directory`)."""
    bases = [Tablebase(rules, directory) for rules in rulesets]
    rows: list[FactRow] = [
        (
            "tablebase_kings_needed",
            f"Fewest kings that win from {MOST:.0%} of positions against a lone king (tables)",
            tuple(kings_needed(tb) for tb in bases),
        ),
        (
            "tablebase_kings_every",
            "Fewest kings that win from every position against a lone king (tables)",
            tuple(kings_needed(tb, 1.0) for tb in bases),
        ),
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
