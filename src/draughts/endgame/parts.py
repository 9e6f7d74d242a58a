"""A material solved in parts, each a task of its own (a distributed build: :mod:`draughts.endgame.cluster`).

A material with men is solved slice by slice of the men's placement (:func:`draughts.endgame.solve.solve`),
level by level of how far the men have come, furthest first: a man's move takes a slice of one
level to one of the next, so the slices of a level are independent of each other and need only the
next level solved. Here a level's slices are cut into *parts* of at most ``part_entries`` entries;
a part is solved in a process of its own (``draughts._native.Endgame.solve_part``) from the tables
of the smaller materials and the values of the next level's parts, read from their files, and
writes its own file. When every part is done, :func:`assemble` writes the material's table from
them, the same file a whole build writes (the values are each the unique game-theoretic value).

Memory: a part holds the values of the next level (about 6 bytes an entry) and its own frames,
not the whole material; the assembly holds one part's values at a time and writes the file as a
stream (:mod:`draughts.endgame.assembly`).

Part files live in ``.parts-<material>`` in the tables' directory and are removed once the table
is written.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import time
from pathlib import Path
from typing import Any

from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
from draughts.endgame.solve import native_solver
from draughts.endgame.within import keeps_within, men_advance, native_plan
from draughts.rules import Ruleset

__all__ = ["assemble", "part_plan", "parts_directory", "solve_part"]


def parts_directory(directory: Path, material: Material) -> Path:
    """Where the part files of ``material`` go."""
    return directory / f".parts-{material.name}"


def part_plan(ruleset: Ruleset, material: Material, part_entries: int) -> list[list[list[int]]] | None:
    """The parts of ``material``: per level (nearest first) its slices cut into parts of at most
    ``part_entries`` entries (one slice at least); None where the material is not solved by slices
    (no men, or men that may move sideways or back)."""
    advance = men_advance(ruleset)
    white_men, black_men, _, _ = material.counts(ruleset)
    if advance is None or not white_men + black_men:
        return None
    indexer = Indexer(ruleset, material)
    per = indexer.radix[2] * indexer.radix[3]
    group = max(1, part_entries // (2 * per))
    levels = native_solver(ruleset, material).slice_levels(advance)
    return [[level[i : i + group] for i in range(0, len(level), group)] for level in levels]


def _write(path: Path, header: dict[str, Any], sections: list[bytes]) -> None:
    text = json.dumps({**header, "sizes": [len(s) for s in sections]}).encode()
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    with temporary.open("wb") as out:
        out.write(struct.pack("<I", len(text)) + text)
        for section in sections:
            out.write(section)
    temporary.replace(path)


def _read(path: Path) -> tuple[dict[str, Any], list[bytes]]:
    data = path.read_bytes()
    (length,) = struct.unpack_from("<I", data)
    header: dict[str, Any] = json.loads(data[4 : 4 + length])
    sections, at = [], 4 + length
    for size in header["sizes"]:
        sections.append(data[at : at + size])
        at += size
    return header, sections


def _part_path(directory: Path, material: Material, level: int, number: int) -> Path:
    return parts_directory(directory, material) / f"{level}-{number}.part"


def solve_part(
    ruleset: Ruleset, material: Material, directory: Path, level: int, number: int, slices: list[int], after: int
) -> str:
    """Solve one part (``slices`` of ``level``) from the smaller materials' tables in ``directory``
    and the ``after`` part files of the next level, and write its part file; returns its path."""
    from draughts.endgame.tablebase import Tablebase, _lookup

    started = time.process_time()
    lookup = _lookup(Tablebase(ruleset, directory))
    tables, missing = lookup.packed(material.successors(ruleset))
    within = keeps_within(ruleset)
    indexer = Indexer(ruleset, material)
    plan = native_plan(ruleset, material, indexer) if within else None
    held: list[int] = []
    codes, plies, known_within, budgets = bytearray(), bytearray(), bytearray(), bytearray()
    for next_number in range(after):
        header, sections = _read(_part_path(directory, material, level + 1, next_number))
        held += header["slices"]
        codes += sections[0]
        plies += sections[1]
        known_within += sections[2]
        budgets += sections[3]
    known = (held, bytes(codes), bytes(plies), bytes(known_within) if within else None, bytes(budgets))
    from draughts.endgame.solve import default_workers

    result = native_solver(ruleset, material).solve_part(
        tables, plan, default_workers(), lookup if missing else None, slices, known
    )
    part_codes, part_plies, part_within, part_budgets, edges = result
    path = _part_path(directory, material, level, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = {"slices": slices, "cpu_seconds": time.process_time() - started, "edges": edges}
    _write(path, header, [part_codes, part_plies, part_within or b"", part_budgets])
    return str(path)


def assemble(ruleset: Ruleset, material: Material, directory: Path, parts: list[list[list[int]]]) -> str:
    """Write ``material``'s table from its part files (then removed), streamed part by part
    (:mod:`draughts.endgame.assembly`: the table is never held whole); returns the material's name."""
    from draughts.endgame.assembly import PartFile, write_streamed
    from draughts.endgame.tablebase import Tablebase, build_extra

    started = time.process_time()
    files = [
        PartFile(_part_path(directory, material, level, number))
        for level, level_parts in enumerate(parts)
        for number in range(len(level_parts))
    ]
    seconds = sum(float(part.header["cpu_seconds"]) for part in files) + time.process_time() - started
    base = Tablebase(ruleset, directory)
    extra = build_extra(ruleset, material, keeps_within(ruleset), seconds)
    write_streamed(ruleset, base.path(material), base.key, Indexer(ruleset, material), files, extra)
    shutil.rmtree(parts_directory(directory, material), ignore_errors=True)
    return material.name
