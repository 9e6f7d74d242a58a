"""A material solved in parts, each on its own (issue 38 §2: slices as tasks of a distributed
build): the parts, solved level by level from the next level's part files, assemble into the file
a whole build writes, value for value, in rulesets whose draw rules count in each way."""

from __future__ import annotations

from pathlib import Path

import pytest

from draughts.endgame import Material, Tablebase, dependencies, storage
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


def test_kings_only_and_sideways_men_are_not_cut() -> None:
    from draughts.rules.names import get_variant

    assert part_plan(get_variant("russian"), Material.parse("KKvK"), 100) is None
    assert part_plan(get_variant("turkish"), Material.parse("MvK"), 100) is None
