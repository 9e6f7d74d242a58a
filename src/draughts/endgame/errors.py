"""The errors of the endgame tablebases (each a :class:`~draughts.DraughtsError`)."""

from __future__ import annotations

from draughts.errors import DraughtsError

__all__ = ["TablebaseError", "TablebaseFileError"]


class TablebaseError(DraughtsError):
    """A tablebase request that cannot be met: a bad material name, a ruleset or material the
    tables cannot hold, a table not built, a position outside the table."""


class TablebaseFileError(TablebaseError):
    """A table file that is damaged, incomplete or made for other rules: it is never read."""
