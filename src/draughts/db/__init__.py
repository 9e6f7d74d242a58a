"""Game collections as a database: import, opening explorer, position and pattern search, opening books, shots.

One SQLite file (Python's own ``sqlite3``, no server) holds the games of any rulesets: their
tags, results and moves, where each came from (file, number, first line), and every position of
every game under its stable 64-bit key (:meth:`draughts.Position.key`, defined in
:mod:`draughts.keys`) with the move played from it. ``docs/database.rst`` shows the commands.

* :class:`Database`: :meth:`~Database.import_files` (parallel over an executor, resumable, one
  transaction per file, duplicates recognised), :meth:`~Database.explore` (the moves played from a
  position, with games and results), :meth:`~Database.find` (the games where a position occurred),
  :meth:`~Database.search` (a :class:`~draughts.db.pattern.Pattern`: pieces on squares, material,
  side to move).
* :mod:`draughts.db.book`: opening books in a documented binary format, built from a database.
* :mod:`draughts.db.shots`: tactical shots found in the games and verified by the engine.
"""

from __future__ import annotations

from draughts.db.database import Database, Exploration, ExplorerMove, GameHit, Occurrences
from draughts.db.importer import FileImport, ImportReport
from draughts.db.pattern import Pattern
from draughts.errors import DatabaseError, PatternError

__all__ = [
    "Database",
    "DatabaseError",
    "Exploration",
    "ExplorerMove",
    "FileImport",
    "GameHit",
    "ImportReport",
    "Occurrences",
    "Pattern",
    "PatternError",
]
