"""A material solved in parts, each on its own (issue 38 §2: slices as tasks of a distributed
build): the parts, solved level by level from the next level's part files, assemble into the file
a whole build writes, value for value, in rulesets whose draw rules count in each way."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from draughts.endgame import Material, Tablebase, assembly, dependencies, storage
from draughts.endgame.index import Indexer
from draughts.endgame.parts import assemble, part_plan, parts_directory, solve_part


def _body(tb: Tablebase, material: Material) -> tuple[dict[str, object], bytes]:
    header, body = storage.read(tb.path(material), tb.key, material)
    header.pop("build_cpu_seconds")
    return header, body


@pytest.mark.parametrize(
    ("variant", "material"),
    [
        ("russian", "MKvK"),  # "both" counts: plies in the material and since a man moved
        ("russian", "MvMK"),
        ("american", "MMvK"),  # the count a man's move restarts
        ("italian", "MKvM"),  # a count a man's move does not restart
        ("breakthrough", "MvMM"),  # no draw rules
    ],
)
def test_parts_assemble_into_the_whole_builds_file(variant: str, material: str, tmp_path: Path) -> None:
    parsed = Material.parse(material)
    whole = Tablebase(variant, tmp_path / "whole")
    whole.build(parsed)
    tb = Tablebase(variant, tmp_path / "parts")
    tb.build([item for item in dependencies(tb.rules, [parsed]) if item != parsed])
    parts = part_plan(tb.rules, parsed, 3000)
    assert parts is not None
    assert sum(len(level) for level in parts) > len(parts) > 2  # several levels, several parts in some
    for level in range(len(parts) - 1, -1, -1):
        after = len(parts[level + 1]) if level + 1 < len(parts) else 0
        for number, slices in enumerate(parts[level]):
            solve_part(tb.rules, parsed, tb.directory, level, number, slices, after)
    assert assemble(tb.rules, parsed, tb.directory, parts) == parsed.name
    assert _body(tb, parsed) == _body(whole, parsed)
    assert not parts_directory(tb.directory, parsed).exists()


def _parts_of(variant: str, material: Material, directory: Path, part_entries: int) -> tuple[Tablebase, list[Any]]:
    """The part files of ``material``, solved level by level (its dependencies built whole)."""
    tb = Tablebase(variant, directory)
    tb.build([item for item in dependencies(tb.rules, [material]) if item != material])
    parts = part_plan(tb.rules, material, part_entries)
    assert parts is not None
    for level in range(len(parts) - 1, -1, -1):
        after = len(parts[level + 1]) if level + 1 < len(parts) else 0
        for number, slices in enumerate(parts[level]):
            solve_part(tb.rules, material, tb.directory, level, number, slices, after)
    return tb, parts


def test_the_assembly_streams_the_file_in_small_pieces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Packed a few entries at a time (the carry between pieces: not whole groups of eight), the
    file is still the whole build's; and the assembly's memory is far below the table's entries
    (it held 4 bytes an entry, and its packed copy, before it streamed)."""
    parsed = Material.parse("MKKvK")
    whole = Tablebase("russian", tmp_path / "whole")
    whole.build(parsed)
    tb, parts = _parts_of("russian", parsed, tmp_path / "parts", 20_000)
    monkeypatch.setattr(assembly, "_BUFFER", 13)
    entries = Indexer(tb.rules, parsed).size
    tracemalloc.start()
    try:
        assemble(tb.rules, parsed, tb.directory, parts)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert _body(tb, parsed) == _body(whole, parsed)
    assert peak < entries, f"{peak:,} bytes traced for {entries:,} entries"  # was over 4.6 bytes an entry


def test_kings_only_and_sideways_men_are_not_cut() -> None:
    from draughts.rules.names import get_variant

    assert part_plan(get_variant("russian"), Material.parse("KKvK"), 100) is None
    assert part_plan(get_variant("turkish"), Material.parse("MvK"), 100) is None


def test_unrank_inverts_the_index_and_gives_holes() -> None:
    from draughts.rules.names import get_variant

    rules = get_variant("russian")
    for name in ("MvM", "MKvMK", "KKvK"):
        indexer = Indexer(rules, Material.parse(name))
        holes = 0
        for rank in range(0, indexer.placements, max(1, indexer.placements // 5000)):
            placement = indexer.unrank(rank)
            if placement is None:
                holes += 1
                continue
            assert indexer.index(*placement, 0) == rank
        assert (holes > 0) == (name != "KKvK")
