"""``benchmarks/endgame.py``'s measured and projected figures (issue 38 §2): ``--isolate`` builds
a material in a process of its own and reports its own peak memory; ``--project`` adds up the
positions of every material over the rates given, without building anything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import draughts
from draughts.endgame import Material, dependencies, materials_up_to
from draughts.endgame.index import Indexer

SCRIPT = Path(__file__).parent.parent.parent / "benchmarks" / "endgame.py"


def _run(*args: str, out: Path) -> list[dict[str, Any]]:
    subprocess.run([sys.executable, str(SCRIPT), *args, "--json", str(out)], check=True, capture_output=True)
    result: list[dict[str, Any]] = json.loads(out.read_text())
    return result


def test_a_projection_adds_up_the_materials(tmp_path: Path) -> None:
    rates = "men=1000,kings=500,men_bytes=10,kings_bytes=40,base_mib=0"
    args = ("--project", "american", "3", "--rates", rates, "--workers", "2", "--no-symmetry")
    (result,) = _run(*args, out=tmp_path / "p.json")
    rules = draughts.get_variant("american")
    graph = dependencies(rules, materials_up_to(rules, 3))
    with_men = [m for m in graph if m.first[0] or m.second[0]]
    cpu = sum(Indexer(rules, m).positions() for m in with_men) / 1000
    cpu += sum(Indexer(rules, m).positions() for m in graph if m not in with_men) / 500
    assert result["materials"] == len(graph) == 16
    assert result["cpu_seconds"] == round(cpu)
    assert result["entries"] == sum(Indexer(rules, m).size for m in graph)
    assert result["critical_path_seconds"] <= result["cpu_seconds"]
    assert result["wall_seconds"] == max(round(cpu / 2), result["critical_path_seconds"])


def test_a_projection_makes_one_of_each_colour_swapped_pair_from_the_other(tmp_path: Path) -> None:
    rates = "men=1000,kings=500,men_bytes=10,kings_bytes=40,base_mib=0,mirror=100000"
    (result,) = _run("--project", "american", "3", "--rates", rates, "--workers", "2", out=tmp_path / "p.json")
    rules = draughts.get_variant("american")
    graph = dependencies(rules, materials_up_to(rules, 3))
    made = {m for m in graph if m.mirrored() != m and m.mirrored() < m}
    assert len(made) == result["mirrored"] == 7  # 16 materials, MvM and KvK their own twins
    cpu = sum(Indexer(rules, m).positions() for m in made) / 100_000
    for m in set(graph) - made:
        cpu += Indexer(rules, m).positions() / (1000 if m.first[0] or m.second[0] else 500)
    assert result["cpu_seconds"] == round(cpu)


def test_a_projection_gives_the_memory_of_a_material_in_parts(tmp_path: Path) -> None:
    """A part's worker holds the largest level of slices (6 bytes an entry) and one part; the
    levels add up to the material's placements with men that do not overlap."""
    rates = "men=1000,kings=500,men_bytes=100,kings_bytes=1,base_mib=0,part_entries=1000"  # the largest has men
    (result,) = _run("--project", "russian", "4", "--rates", rates, "--workers", "2", out=tmp_path / "p.json")
    rules = draughts.get_variant("russian")
    largest = Indexer(rules, Material.parse(result["largest"]))
    parts = result["parts"]
    assert parts["largest_level_entries"] <= largest.size
    assert parts["part_worker_gib"] == round((6 * parts["largest_level_entries"] + 1000 * 100) / 2**30, 1)
    assert parts["assembly_whole_gib"] == round(largest.size * (4 + 5 / 8) / 2**30, 1)
    assert parts["assembly_gib"] == round((8 * 1000 + 6 * 2**22) / 2**30, 1)  # one part and the buffer
    assert parts["levels"] > 1


def test_an_isolated_build_reports_its_own_memory(tmp_path: Path) -> None:
    (result,) = _run("--variants", "american", "--materials", "MvK", "--isolate", "--threads", "1", out=tmp_path / "i")
    row, twin = result["isolated"]  # MvK solved, then KvM made from it
    assert row["material"] == "MvK"
    assert row["mirrored_from"] is None
    assert row["entries"] == Indexer(draughts.get_variant("american"), Material.parse("MvK")).size
    assert row["peak_rss_mib"] >= row["base_rss_mib"] > 0
    assert row["bytes"] > 0
    assert (twin["material"], twin["mirrored_from"], twin["entries"]) == ("KvM", "MvK", row["entries"])
