"""Endgame tablebases for any ruleset: every position of a small material solved exactly.

>>> import tempfile, draughts
>>> from draughts.endgame import Tablebase
>>> tb = Tablebase("russian", tempfile.mkdtemp())
>>> tb.build("KvK")
[Material('KvK')]
>>> tb.probe(draughts.Position.from_fen("russian", "W:WKc1:BKf8"))
Verdict(result='draw', plies=None, within_rules='draw')
>>> tb.probe(draughts.Position.from_fen("russian", "B:WKc3:BKd4"))  # Black takes: White has nothing left
Verdict(result='win', plies=1, within_rules='win')

See :doc:`/endgame` for the conventions (materials, index, distances, draw rules, files).
"""

from __future__ import annotations

from draughts.endgame.cluster import build_on_dask
from draughts.endgame.errors import TablebaseError, TablebaseFileError
from draughts.endgame.material import Material, build_order, dependencies, materials_up_to
from draughts.endgame.probe import NodeProbe
from draughts.endgame.storage import ruleset_key
from draughts.endgame.table import Table
from draughts.endgame.tablebase import Tablebase, Verdict, build_material, default_directory

__all__ = [
    "Material",
    "NodeProbe",
    "Table",
    "Tablebase",
    "TablebaseError",
    "TablebaseFileError",
    "Verdict",
    "build_material",
    "build_on_dask",
    "build_order",
    "default_directory",
    "dependencies",
    "materials_up_to",
    "ruleset_key",
]
