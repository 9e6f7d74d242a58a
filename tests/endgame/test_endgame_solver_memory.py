"""The solver's values stay byte for byte what they were, and its memory stays a few bytes per position.

``tests/data/endgame_checksums.json`` holds the SHA-256 of the values of every table a build of a
few small materials makes (six rulesets, with and without draw rules, men and kings, a losing and
a breakthrough ruleset), computed with the solver as it was before it stored its work compactly
(arrays indexed by position instead of lists of Python objects): any change of the solver that
changes a single value, distance or within-the-rules code fails here. That solver gave
within-the-rules codes for materials without men only; for materials with men (whose codes are
checked in ``test_endgame_within.py``) the values and distances are compared, the codes left out.
"""

from __future__ import annotations

import hashlib
import json
import tracemalloc
from pathlib import Path

import pytest

from draughts.endgame import Material, Tablebase, dependencies, storage
from draughts.endgame.index import Indexer
from draughts.endgame.solve import solve
from draughts.endgame.tablebase import _lookup

CHECKSUMS = json.loads((Path(__file__).parent.parent / "data" / "endgame_checksums.json").read_text())["tables"]


@pytest.mark.parametrize(
    ("variant", "material"),
    [
        ("american", "MKvK"),
        ("russian", "KKvK"),
        ("international", "MvM"),
        pytest.param("american", "MvMM", marks=pytest.mark.slow),
        pytest.param("russian", "MKvM", marks=pytest.mark.slow),
        pytest.param("italian", "MKvM", marks=pytest.mark.slow),
        pytest.param("antidraughts", "KKvK", marks=pytest.mark.slow),
        pytest.param("breakthrough", "MvMM", marks=pytest.mark.slow),
    ],
)
def test_tables_are_byte_identical_to_the_reference(variant: str, material: str, tmp_path: Path) -> None:
    tb = Tablebase(variant, tmp_path)
    built = tb.build(material)
    assert built
    for item in built:
        header, body = storage.read(tb.path(item), tb.key, item)
        if (item.first[0] or item.second[0]) and header["within"]:  # men: no such codes in the reference
            body = body[: -storage.packed_size(header["entries"], 2)]
        assert hashlib.sha256(body).hexdigest() == CHECKSUMS[variant][item.name], item.name


def test_solver_memory_is_a_few_bytes_per_position(tmp_path: Path) -> None:
    """Traced allocations while solving American KKvK (29,760 positions, the table of KvK
    loaded as it goes): under 100 bytes a position (51 now). The solver that kept its moves in
    arrays of 8-byte integers, three times, and its queues in lists of Python ints took 176."""
    tb = Tablebase("american", tmp_path)
    material = Material.parse("KKvK")
    tb.build([item for item in dependencies(tb.rules, [material]) if item != material])
    positions = Indexer(tb.rules, material).positions()
    tracemalloc.start()
    try:
        solved = solve(tb.rules, material, _lookup(tb))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert solved.codes.count(1) > 0  # it did solve: some positions are won
    assert peak / positions < 100, f"{peak / positions:.0f} bytes per position"
