"""The board's Explorer panel behind ``GET /api/explorer`` (``draughts serve --database DB``).

It answers, for the position shown, the moves played from it in the database's games, with their
games and results, and the first games that reached it: :meth:`draughts.db.Database.explore`'s
JSON. The file is opened read-only for each question, in a worker process.
"""

from __future__ import annotations

import os
from typing import Any

from draughts.db import Database
from draughts.position import Position
from draughts.rules import Ruleset

__all__ = ["GAMES", "explore"]

GAMES = 5
"""The games reached that the panel lists."""


def explore(rules: Ruleset, fen: str, path: str) -> dict[str, Any]:
    """The explorer's answer for ``fen`` under ``rules`` in the database at ``path``."""
    position = Position.from_fen(rules, fen)
    if not os.path.exists(path):
        return {"fen": position.fen(), "moves": [], "count": 0, "games": []}
    with Database(path, readonly=True) as database:
        return database.explore(position, games=GAMES).to_dict()
