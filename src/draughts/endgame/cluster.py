"""The material DAG of a tablebase build as one Dask task graph (the distributed extra).

:meth:`Tablebase.build <draughts.endgame.Tablebase.build>` with an executor submits a material
once every table it needs is on disk, waiting for them in this process. :func:`build_on_dask`
hands the whole graph to a Dask scheduler instead: one task per material, whose arguments are the
futures of the materials it depends on, so the scheduler itself starts a material when its
dependencies are done, on whichever worker is free, and the client only waits for the end. Each
task reads its dependencies' tables from the directory and writes its own file (the workers share
nothing but the directory: on several machines, a shared file system), so the files are those of a
local build, byte for byte.

Memory: a worker builds one material at a time per thread; a material with men is solved slice
by slice (:func:`draughts.endgame.solve.solve`), so a worker needs about 6 bytes an entry of the
largest material it builds plus its working slices and the packed tables of the materials it
reads (see the Speed section of :doc:`/endgame`). Give workers one thread each, and as many
workers per machine as its memory holds of the largest material.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from draughts.endgame.index import Indexer
from draughts.endgame.material import Material, dependencies
from draughts.endgame.parts import assemble, part_plan, solve_part
from draughts.endgame.symmetry import mirrored_pairs
from draughts.endgame.tablebase import Tablebase, build_material, mirror_material
from draughts.rules import Ruleset

__all__ = ["DEFAULT_PART_ENTRIES", "build_on_dask", "graph_of"]

DEFAULT_PART_ENTRIES = 1 << 26
"""Materials of more entries than this are built in parts (64 M entries: a part takes a few
hundred MiB besides the next level's values)."""


def graph_of(
    tb: Tablebase, material: Any = None, *, pieces: int | None = None, symmetry: bool = True
) -> dict[Material, list[Material]]:
    """The materials a build still needs (tables on disk left out), each with the ones among
    them it depends on (checked as :meth:`Tablebase.plan` checks them, before anything runs); a
    material made from its colour-swapped twin (``symmetry``, as :meth:`Tablebase.build`)
    depends on the twin alone."""
    return _plan(tb, material, pieces, symmetry)[0]


def _plan(
    tb: Tablebase, material: Any, pieces: int | None, symmetry: bool
) -> tuple[dict[Material, list[Material]], dict[Material, Material]]:
    """:func:`graph_of`, and the materials made from their twins, each with its twin."""
    waves = tb.plan(material, pieces=pieces)
    todo = [item for wave in waves for item in wave if not tb.has(item)]
    full = dependencies(tb.rules, todo)
    mirrored = mirrored_pairs(tb.rules, todo, tb.has) if symmetry else {}
    for item, twin in mirrored.items():
        full[item] = [twin]
    wanted = set(todo)
    return {item: [dep for dep in full[item] if dep in wanted] for item in todo}, mirrored


def _task(ruleset: Ruleset, material: Material, directory: str, *done: str) -> str:
    """One material's build; ``done``: the names its dependencies' tasks returned (unused: they
    are arguments so that Dask runs this task after them)."""
    return build_material(ruleset, material, Path(directory))


def _mirror_task(ruleset: Ruleset, material: Material, directory: str, *done: str) -> str:
    """One material's table made from its twin's (``done``: the twin's task's name, unused)."""
    return mirror_material(ruleset, material, Path(directory))


def _part_task(
    ruleset: Ruleset, material: Material, directory: str, where: tuple[int, int, int], slices: list[int], *done: str
) -> str:
    """One part of a material (see ``draughts.endgame.parts``); ``where``: its level, its
    number in the level, and how many parts the next level has (their files it reads); ``done``:
    what the tasks it waits for returned (unused)."""
    level, number, after = where
    return solve_part(ruleset, material, Path(directory), level, number, slices, after)


def _assemble_task(
    ruleset: Ruleset, material: Material, directory: str, parts: list[list[list[int]]], *done: str
) -> str:
    """A material's table from its parts, once they are all done."""
    return assemble(ruleset, material, Path(directory), parts)


def build_on_dask(
    tb: Tablebase,
    client: Any,
    material: Material | str | Iterable[Material | str] | None = None,
    *,
    pieces: int | None = None,
    part_entries: int | None = DEFAULT_PART_ENTRIES,
    symmetry: bool = True,
) -> list[Material]:
    """Build on the workers of a Dask ``client`` (a ``distributed.Client``) the tables of
    ``material`` and every smaller one it needs (or every material up to ``pieces``), as one task
    graph; returns the materials built, in the order of :meth:`Tablebase.build`.

    A material of more than ``part_entries`` entries that is solved by slices (men that only move
    forward) is built in parts of at most that many entries, each a task
    (``draughts.endgame.parts``): a part waits for the parts of the next level of its material
    and for the smaller materials; the material's table is written by one more task once its parts
    are done. ``None``: every material one task. With ``symmetry`` (where the ruleset allows
    it, as :meth:`Tablebase.build`) a material whose colour-swapped twin is solved is made from
    the twin's table by one task.

    Raises:
        ~draughts.endgame.TablebaseError: as :meth:`Tablebase.plan` (before anything is
            submitted); the first task's error, re-raised here, if a build fails.
    """
    from draughts.endgame import storage

    graph, mirrored = _plan(tb, material, pieces, symmetry)
    run = uuid.uuid4().hex[:12]  # keys of this run only: nothing of an earlier run is reused
    storage.remove_stale(tb.directory)
    tb.directory.mkdir(parents=True, exist_ok=True)
    futures: dict[Material, Any] = {}

    def submit(item: Material) -> Any:
        if item not in futures:
            deps = [submit(dep) for dep in graph[item]]
            key = f"endgame-{item.name}-{run}"
            if item in mirrored:
                futures[item] = client.submit(
                    _mirror_task, tb.rules, item, str(tb.directory), *deps, key=key, pure=False
                )
                return futures[item]
            size = Indexer(tb.rules, item).size
            parts = None if part_entries is None or size <= part_entries else part_plan(tb.rules, item, part_entries)
            if parts is None:
                futures[item] = client.submit(_task, tb.rules, item, str(tb.directory), *deps, key=key, pure=False)
            else:
                futures[item] = submit_parts(item, parts, deps, key)
        return futures[item]

    def submit_parts(item: Material, parts: list[list[list[int]]], deps: list[Any], key: str) -> Any:
        after: list[Any] = []  # the parts of the level above (solved before)
        every: list[Any] = []
        for level in range(len(parts) - 1, -1, -1):
            level_futures = []
            for number, slices in enumerate(parts[level]):
                where = (level, number, len(after))
                level_futures.append(
                    client.submit(
                        _part_task,
                        tb.rules,
                        item,
                        str(tb.directory),
                        where,
                        slices,
                        *deps,
                        *after,
                        key=f"{key}-part-{level}-{number}",
                        pure=False,
                    )
                )
            after = level_futures
            every += level_futures
        return client.submit(_assemble_task, tb.rules, item, str(tb.directory), parts, *every, key=key, pure=False)

    for item in graph:
        submit(item)
    client.gather(list(futures.values()))
    return list(graph)
