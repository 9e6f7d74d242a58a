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

from draughts.endgame.material import Material, dependencies
from draughts.endgame.tablebase import Tablebase, build_material
from draughts.rules import Ruleset

__all__ = ["build_on_dask", "graph_of"]


def graph_of(tb: Tablebase, material: Any = None, *, pieces: int | None = None) -> dict[Material, list[Material]]:
    """The materials a build still needs (tables on disk left out), each with the ones among
    them it depends on (checked as :meth:`Tablebase.plan` checks them, before anything runs)."""
    waves = tb.plan(material, pieces=pieces)
    todo = [item for wave in waves for item in wave if not tb.has(item)]
    full = dependencies(tb.rules, todo)
    wanted = set(todo)
    return {item: [dep for dep in full[item] if dep in wanted] for item in todo}


def _task(ruleset: Ruleset, material: Material, directory: str, *done: str) -> str:
    """One material's build; ``done``: the names its dependencies' tasks returned (unused: they
    are arguments so that Dask runs this task after them)."""
    return build_material(ruleset, material, Path(directory))


def build_on_dask(
    tb: Tablebase,
    client: Any,
    material: Material | str | Iterable[Material | str] | None = None,
    *,
    pieces: int | None = None,
) -> list[Material]:
    """Build on the workers of a Dask ``client`` (a ``distributed.Client``) the tables of
    ``material`` and every smaller one it needs (or every material up to ``pieces``), as one task
    graph; returns the materials built, in the order of :meth:`Tablebase.build`.

    Raises:
        ~draughts.endgame.TablebaseError: as :meth:`Tablebase.plan` (before anything is
            submitted); the first task's error, re-raised here, if a build fails.
    """
    from draughts.endgame import storage

    graph = graph_of(tb, material, pieces=pieces)
    run = uuid.uuid4().hex[:12]  # keys of this run only: nothing of an earlier run is reused
    storage.remove_stale(tb.directory)
    tb.directory.mkdir(parents=True, exist_ok=True)
    futures: dict[Material, Any] = {}

    def submit(item: Material) -> Any:
        if item not in futures:
            deps = [submit(dep) for dep in graph[item]]
            key = f"endgame-{item.name}-{run}"
            futures[item] = client.submit(_task, tb.rules, item, str(tb.directory), *deps, key=key, pure=False)
        return futures[item]

    for item in graph:
        submit(item)
    client.gather(list(futures.values()))
    return list(graph)
