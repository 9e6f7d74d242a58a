"""Colour symmetry (issue 38 §2): a table made from its colour-swapped twin's is the table a
solve of it writes, value for value and statistic for statistic, in every ruleset of the
checksums file (every material up to four pieces behind ``slow``), and a ruleset whose board
treats the colours differently solves every material."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

import draughts
from draughts.endgame import Material, Tablebase, dependencies, materials_up_to, storage
from draughts.endgame.errors import TablebaseError
from draughts.endgame.solve import native_solver
from draughts.endgame.symmetry import colour_symmetric, mirrored_pairs, turn_bits
from draughts.endgame.tablebase import mirror_material
from draughts.errors import DraughtsError
from draughts.rules import Ruleset

CHECKSUMS = json.loads((Path(__file__).parent.parent / "data" / "endgame_checksums.json").read_text())["tables"]


def _file(tb: Tablebase, material: Material) -> tuple[dict[str, Any], bytes]:
    """A table file's header (its build time and origin left out) and values."""
    header, body = storage.read(tb.path(material), tb.key, material)
    header.pop("build_cpu_seconds")
    header.pop("mirrored_from", None)
    return header, body


def _check_every_pair(rules: Ruleset, pieces: int, tmp_path: Path) -> int:
    """Solve every material up to ``pieces`` (no symmetry), then make each one that has a twin
    from the twin alone and compare the files; the pairs compared."""
    solved = Tablebase(rules, tmp_path / "solved")
    built = solved.build(pieces=pieces, symmetry=False)
    made = Tablebase(rules, tmp_path / "made")
    pairs = 0
    for material in built:
        twin = material.mirrored()
        if twin == material:
            continue
        made.directory.mkdir(exist_ok=True)
        shutil.copy(solved.path(twin), made.path(twin))
        mirror_material(rules, material, made.directory)
        assert _file(made, material) == _file(solved, material), material.name
        assert storage.read(made.path(material), made.key, material)[0]["mirrored_from"] == twin.name
        shutil.rmtree(made.directory)
        pairs += 1
    return pairs


@pytest.mark.parametrize(
    ("variant", "pieces"),
    [
        ("american", 3),
        ("russian", 3),
        ("breakthrough", 3),
        pytest.param("american", 4, marks=pytest.mark.slow),
        pytest.param("russian", 4, marks=pytest.mark.slow),
        pytest.param("international", 4, marks=pytest.mark.slow),
        pytest.param("italian", 4, marks=pytest.mark.slow),
        pytest.param("antidraughts", 4, marks=pytest.mark.slow),
        pytest.param("breakthrough", 4, marks=pytest.mark.slow),
    ],
)
def test_a_mirrored_table_is_the_solved_one(variant: str, pieces: int, tmp_path: Path) -> None:
    rules = draughts.get_variant(variant)
    assert colour_symmetric(rules)
    pairs = _check_every_pair(rules, pieces, tmp_path)
    assert pairs >= 2


def test_mirrored_within_codes_of_men_and_every_count_are_the_solved_ones(tmp_path: Path) -> None:
    """Russian on 6x6 with its own draw rules: within-the-rules codes for materials with men
    (counted in plies since a man moved and in the material), every table of up to 4 pieces."""
    rules = attrs.evolve(draughts.get_variant("russian"), name="russian-6", board_size=6, rows_per_side=2)
    assert colour_symmetric(rules)
    assert _check_every_pair(rules, 4, tmp_path) >= 10


@pytest.mark.parametrize(("variant", "material"), [("american", "MvMM"), ("russian", "MKvM"), ("italian", "MKvM")])
def test_a_build_mirrors_and_the_checksums_hold(variant: str, material: str, tmp_path: Path) -> None:
    tb = Tablebase(variant, tmp_path)
    built = tb.build(Material.parse(material))
    mirrored = [item for item in built if "mirrored_from" in storage.read(tb.path(item), tb.key, item)[0]]
    assert mirrored  # the build made some tables from their twins
    for item in built:
        header, body = storage.read(tb.path(item), tb.key, item)
        if (item.first[0] or item.second[0]) and header["within"]:  # men: no such codes in the reference
            body = body[: -storage.packed_size(header["entries"], 2)]
        assert hashlib.sha256(body).hexdigest() == CHECKSUMS[variant][item.name], item.name


def test_a_build_mirrors_only_pairs_and_from_a_built_twin(tmp_path: Path) -> None:
    rules = draughts.get_variant("russian")
    tb = Tablebase(rules, tmp_path)
    todo = list(dependencies(rules, [Material.parse("MKvK")]))
    pairs = mirrored_pairs(rules, todo, tb.has)
    assert pairs == {item: item.mirrored() for item in todo if item.mirrored() in todo and item.mirrored() < item}
    tb.build("KKvK")
    # KvKK's twin is built: it is made from it even when asked alone.
    assert mirrored_pairs(rules, [Material.parse("KvKK")], tb.has) == {Material.parse("KvKK"): Material.parse("KKvK")}
    assert tb.build("KvKK") == [Material.parse("KvKK")]
    assert storage.read(tb.path("KvKK"), tb.key, Material.parse("KvKK"))[0]["mirrored_from"] == "KKvK"
    # MvK's twin is not built nor asked for: MvK is solved.
    assert mirrored_pairs(rules, [Material.parse("MvK")], tb.has) == {}


def test_the_turn_is_a_permutation_that_swaps_the_crowning_rows() -> None:
    for variant in ("american", "international", "russian", "frisian", "canadian"):
        rules = draughts.get_variant(variant)
        turn = turn_bits(rules)
        assert [turn[bit] for bit in turn] == list(range(len(turn)))  # its own inverse
        assert colour_symmetric(rules), variant


def _tall(diagonal_rule: bool) -> Ruleset:
    """Russian on 8 x 9 (a board the colour swap reflects instead of turning), with or without
    its draw rule on a lone king on the long diagonal."""
    russian = draughts.get_variant("russian")
    endgames = tuple(
        rule for rule in russian.draw_rules.endgames if diagonal_rule or not rule.weak_king_on_main_diagonal
    )
    return attrs.evolve(
        russian,
        name="russian-8x9",
        board_size=(8, 9),
        pdn_gametype=None,
        draw_rules=attrs.evolve(russian.draw_rules, endgames=endgames),
    )


def test_a_rule_on_the_long_diagonal_off_a_turned_board_solves_every_material(tmp_path: Path) -> None:
    asymmetric, symmetric = _tall(True), _tall(False)
    assert any(rule.weak_king_on_main_diagonal for rule in asymmetric.draw_rules.endgames)
    assert not colour_symmetric(asymmetric)
    assert colour_symmetric(symmetric)
    todo = materials_up_to(asymmetric, 3)
    assert mirrored_pairs(asymmetric, todo, lambda _: True) == {}
    assert mirrored_pairs(symmetric, todo, lambda _: False)
    tb = Tablebase(asymmetric, tmp_path)
    tb.build("KvKK")
    with pytest.raises(TablebaseError, match="russian-8x9 treats the colours differently"):
        mirror_material(asymmetric, Material.parse("KKvK"), tmp_path)
    assert not tb.has("KKvK")


def test_the_native_mirror_refuses_sections_of_another_size(tmp_path: Path) -> None:
    rules = draughts.get_variant("american")
    tb = Tablebase(rules, tmp_path)
    tb.build("KKvK", symmetry=False)
    codes, plies, within = tb.table("KKvK").sections()
    bits = tb.table("KKvK").header["plies_bits"]
    native = native_solver(rules, Material.parse("KvKK"))
    native.mirror(codes, plies, bits, within, turn_bits(rules))  # the right sizes: accepted
    with pytest.raises(DraughtsError, match="not those of"):
        native.mirror(codes[:-2], plies, bits, within, turn_bits(rules))
    with pytest.raises(DraughtsError, match="not a permutation"):
        native.mirror(codes, plies, bits, within, [0] * len(turn_bits(rules)))
    with pytest.raises(DraughtsError, match="not those of"):  # a twin of another size
        native_solver(rules, Material.parse("KvKKK")).mirror(codes, plies, bits, within, turn_bits(rules))
