"""Benchmark the endgame tablebase builds: time and positions per second per material, peak
memory, table size on disk, and how the cost grows with the number of pieces.

Each variant is built in a process of its own (so its peak RSS is its own), into a fresh
temporary directory, material by material in dependency order, with every material of at most
``--pieces`` pieces. The time of a material is the CPU time of its solving (the statistics and
the file not counted), read from the table's header (``build_cpu_seconds``, process time of the
worker that built it), so a busy machine slows the wall clock but not the figure; positions per
second count the material's positions (both sides to move, holes not counted). With ``--workers N`` the
independent materials are built in N processes (the peak RSS is then the largest worker's, and
the workers' CPU time, statistics and files included, is reported beside the solving's). The
1-minute load average at the start and the end says how busy the machine was: CPU seconds hold
on a shared machine, the wall clock does not.
With ``--phases`` (one worker) the result also gives each phase of the build its wall clock, CPU
time and threads kept busy (CPU over wall): ``read`` (the smaller tables read and checked),
``native`` (the native solve), ``solve`` (both and the conversions), ``read twin`` and ``mirror``
(a material made from its twin), ``statistics``, ``pack`` and ``write`` (the table's file), the
wall outside every material's task (``between``), and the native solves that left the most thread
time idle; the tables are then written in turn (without it, a build in one process writes each
table while it solves the next).
``--materials`` builds named materials (and every smaller one they need) instead of every
material up to ``--pieces``: one large material's rate and memory, where all of them do not fit.
Each result says which native build ran (``native``); ``--threads`` sets the threads of each
native solve.

    python benchmarks/endgame.py --quick   # American, Russian, International up to 3 pieces
    python benchmarks/endgame.py --variants american --pieces 4 --workers 2 --json out.json
    python benchmarks/endgame.py --variants international --materials KKKvK
    python benchmarks/endgame.py --variants russian --materials MKKvKK --isolate --threads 2
    python benchmarks/endgame.py --variants american --pieces 5 --threads 2 --phases

``--isolate`` measures each named material in a process of its own, once what it needs is built:
its own peak RSS (and the RSS before it, Python and the library), so bytes an entry, CPU and wall.
``--project VARIANT PIECES`` projects a whole build from such measured rates (``--rates``:
positions per CPU second and bytes an entry of materials with men and of kings only), without
building anything: CPU, critical path, wall clock on ``--workers``, the largest material's memory.

Colour symmetry: where the ruleset allows it, builds make one material of each colour-swapped pair
from the other's table (rows say ``mirrored_from``; the summary gives the solved and the mirrored
materials' CPU apart), ``--isolate`` also measures each named material's twin made that way, and
``--project`` counts such materials at ``mirror`` positions a CPU second (``--rates
...,mirror=2e7,mirror_bytes=16``); ``--no-symmetry`` solves every material.

    python benchmarks/endgame.py --project international 5 --workers 2 \
        --rates men=1.1e6,kings=6.9e5,men_bytes=20,kings_bytes=59,base_mib=26
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def build(
    variant: str,
    pieces: int,
    workers: int,
    materials: list[str] | None = None,
    keep: str | None = None,
    max_positions: int | None = None,
    symmetry: bool = True,
    record_phases: bool = False,
) -> dict[str, Any]:
    """Build every material of ``variant`` up to ``pieces`` (or ``materials`` and what they need)
    in a fresh directory (``symmetry``: one of each colour-swapped pair made from the other,
    where the ruleset allows it); the figures (``record_phases``: also each phase's, the
    tables then written in turn, see :func:`phase_figures`)."""
    from concurrent.futures import ProcessPoolExecutor

    import draughts
    from draughts.endgame import Tablebase, phases

    asked: dict[str, Any] = {"material": materials} if materials else {"pieces": pieces}
    phases.record(record_phases and workers == 1)  # a pool's workers would time theirs in their own processes

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() if keep is None else contextlib.nullcontext(keep) as directory:
        tb = Tablebase(variant, directory, **({"max_positions": max_positions} if max_positions else {}))
        started, cpu = time.monotonic(), time.process_time()
        if workers > 1:
            with ProcessPoolExecutor(workers) as pool:
                built = tb.build(**asked, executor=pool, symmetry=symmetry)
        else:
            built = tb.build(**asked, symmetry=symmetry)
        wall, own_cpu = time.monotonic() - started, time.process_time() - cpu
        rows = []
        for material in built:
            table = tb.table(material)
            positions = table.indexer.positions()
            seconds = float(table.header["build_cpu_seconds"])
            rows.append(
                {
                    "material": material.name,
                    "pieces": material.pieces,
                    "entries": table.indexer.size,
                    "positions": positions,
                    "cpu_seconds": seconds,
                    "positions_per_second": round(positions / seconds) if seconds else None,
                    "bytes": tb.path(material).stat().st_size,
                    "mirrored_from": table.header.get("mirrored_from"),
                }
            )
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = max(
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    )
    return {
        "variant": variant,
        "pieces": max((row["pieces"] for row in rows), default=0),
        "materials_asked": materials,
        "workers": workers,
        "threads": os.environ.get("DRAUGHTS_ENDGAME_THREADS"),
        "native": draughts.NATIVE,
        "wall_seconds": round(wall, 1),
        "parent_cpu_seconds": round(own_cpu, 1),
        "peak_rss_mib": round(peak / 1024, 1),
        "solve_cpu_seconds": round(sum(row["cpu_seconds"] for row in rows), 1),
        "workers_cpu_seconds": round(children.ru_utime + children.ru_stime, 1),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        **phase_figures(phases.recorded(), wall),
        "materials": rows,
    }


TOP_PHASES = ("solve", "read twin", "mirror", "statistics", "pack", "write")
"""The phases of a material's task (``draughts.endgame.phases``); "read" (the smaller tables) and
"native" (the native solve) are parts of "solve"."""


def phase_figures(recorded: list[tuple[str, str, float, float]], wall: float) -> dict[str, Any]:
    """Per phase the wall clock, the CPU time and the threads it kept busy (CPU over wall); the
    wall outside every material's task ("between": scheduling, checks, Python between materials);
    and the native solves that left the most thread time idle (wall times threads minus CPU)."""
    if not recorded:
        return {}
    threads = int(os.environ.get("DRAUGHTS_ENDGAME_THREADS") or os.cpu_count() or 1)
    totals: dict[str, list[float]] = {}
    for _, name, seconds, cpu in recorded:
        total = totals.setdefault(name, [0.0, 0.0])
        total[0] += seconds
        total[1] += cpu
    figures = {
        name: {"wall_seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "busy": round(cpu / seconds, 2)}
        for name, (seconds, cpu) in totals.items()
        if seconds > 0
    }
    inside = sum(totals.get(name, [0.0])[0] for name in TOP_PHASES)
    solves = [(material, seconds, cpu) for material, name, seconds, cpu in recorded if name == "native"]
    idle = sorted(
        ((seconds * threads - cpu, material, seconds, cpu) for material, seconds, cpu in solves), reverse=True
    )
    return {
        "phases": figures,
        "between_seconds": round(wall - inside, 1),
        "idle_solves": [
            {"material": name, "wall_seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "idle": round(lost, 2)}
            for lost, name, seconds, cpu in idle[:8]
        ],
    }


def _status(field: str) -> int:
    """A field of ``/proc/self/status`` in KiB (``VmHWM``: this process's peak RSS; unlike
    ``ru_maxrss``, not inherited from the process that forked it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def solve_one(variant: str, material: str, directory: str) -> dict[str, Any]:
    """Build one material whose dependencies are in ``directory`` (in this fresh process): its wall
    and CPU time, and this process's peak RSS, before the build (Python, the library, nothing
    read) and at the end."""
    from draughts.endgame import build_material

    return _measured(variant, material, directory, build_material, mirrored=False)


def mirror_one(variant: str, material: str, directory: str) -> dict[str, Any]:
    """Make one material's table from its twin's in ``directory`` (colour symmetry): its CPU
    time and rate, as :func:`solve_one` gives a solve's."""
    from draughts.endgame.tablebase import mirror_material

    return _measured(variant, material, directory, mirror_material, mirrored=True)


def _measured(variant: str, material: str, directory: str, make: Any, *, mirrored: bool) -> dict[str, Any]:
    """Run ``make(rules, material, directory)`` once and return what it took (time, memory, rate)."""
    from draughts.endgame import Material, Tablebase
    from draughts.endgame.index import Indexer

    tb = Tablebase(variant, directory)
    parsed = Material.parse(material)
    before = _status("VmRSS")
    started, cpu = time.monotonic(), time.process_time()
    make(tb.rules, parsed, Path(directory))
    wall, seconds = time.monotonic() - started, time.process_time() - cpu
    peak = _status("VmHWM")
    indexer = Indexer(tb.rules, parsed)
    return {
        "material": material,
        "pieces": parsed.pieces,
        "men": bool(parsed.first[0] or parsed.second[0]),
        "entries": indexer.size,
        "positions": indexer.positions(),
        "wall_seconds": round(wall, 2),
        "cpu_seconds": round(seconds, 2),
        "positions_per_second": round(indexer.positions() / seconds) if seconds else None,
        "base_rss_mib": round(before / 1024, 1),
        "peak_rss_mib": round(peak / 1024, 1),
        "bytes_per_entry": round((peak - before) * 1024 / indexer.size, 1),
        "bytes": tb.path(parsed).stat().st_size,
        "mirrored_from": parsed.mirrored().name if mirrored else None,
    }


def isolated(variant: str, materials: list[str], threads: int | None, mirror: bool = True) -> dict[str, Any]:
    """Each of ``materials`` built in a process of its own once what it needs is built (not
    measured): per material its own peak memory, time and rate; then (``mirror``, where the
    ruleset is colour-symmetric) its twin made from it, likewise."""
    from draughts.endgame import Material, Tablebase, dependencies
    from draughts.endgame.symmetry import colour_symmetric

    rows = []
    with tempfile.TemporaryDirectory() as directory:
        tb = Tablebase(variant, directory)
        for material in materials:
            parsed = Material.parse(material)
            tb.build([item for item in dependencies(tb.rules, [parsed]) if item != parsed])
            env = dict(os.environ)
            if threads:
                env["DRAUGHTS_ENDGAME_THREADS"] = str(threads)
            command = [sys.executable, __file__, "--solve-one", variant, material, directory]
            output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
            rows.append(json.loads(output.strip().splitlines()[-1]))
            twin = parsed.mirrored()
            if mirror and twin != parsed and colour_symmetric(tb.rules):
                command = [sys.executable, __file__, "--mirror-one", variant, twin.name, directory]
                output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
                rows.append(json.loads(output.strip().splitlines()[-1]))
    return {"variant": variant, "threads": threads, "load_average": round(os.getloadavg()[0], 2), "isolated": rows}


def isolated_summary(result: dict[str, Any]) -> list[str]:
    """Text lines of :func:`isolated`: one per material."""
    lines = [
        f"{result['variant']}: each material in its own process, {result['threads'] or 'all'} thread(s), "
        f"load average {result['load_average']}"
    ]
    for row in result["isolated"]:
        how = f" (mirrored from {row['mirrored_from']})" if row.get("mirrored_from") else ""
        lines.append(
            f"  {row['material']}{how}: {row['entries']:,} entries, {row['cpu_seconds']} s CPU, "
            f"{row['wall_seconds']} s wall, "
            f"{row['positions_per_second']:,} positions/s, peak RSS {row['peak_rss_mib']} MiB "
            f"({row['base_rss_mib']} MiB before: {row['bytes_per_entry']} bytes an entry)"
        )
    return lines


def project(variant: str, pieces: int, rates: dict[str, float], workers: int, symmetry: bool = True) -> dict[str, Any]:
    """A build of every material up to ``pieces`` of ``variant``, projected from measured
    ``rates``: positions per CPU second of materials with men (``men``) and of kings only
    (``kings``), and bytes an entry of each (``men_bytes``, ``kings_bytes``) with ``base_mib``
    per process; with ``symmetry`` (where the ruleset allows it), one material of each
    colour-swapped pair is made from its twin at ``mirror`` positions a CPU second and
    ``mirror_bytes`` an entry. The CPU is the positions over the rate; the wall clock on ``workers`` workers
    is the larger of the CPU shared between them and the critical path (the longest chain of
    materials that wait for each other); a worker's memory is that of the largest material."""
    from draughts.endgame import dependencies, materials_up_to
    from draughts.endgame.index import Indexer
    from draughts.endgame.symmetry import mirrored_pairs
    from draughts.rules.names import get_variant

    rules = get_variant(variant)
    graph = dependencies(rules, materials_up_to(rules, pieces))
    mirrored = mirrored_pairs(rules, graph, lambda _: False) if symmetry else {}
    cost: dict[Any, float] = {}
    memory: dict[Any, float] = {}
    for material in graph:
        indexer = Indexer(rules, material)
        kind = "men" if material.first[0] or material.second[0] else "kings"
        if material in mirrored:
            graph[material] = [mirrored[material]]
            cost[material] = indexer.positions() / rates.get("mirror", 1e7)
            memory[material] = rates["base_mib"] * 2**20 + indexer.size * rates.get("mirror_bytes", 16)
            continue
        cost[material] = indexer.positions() / rates[kind]
        memory[material] = rates["base_mib"] * 2**20 + indexer.size * rates[f"{kind}_bytes"]
    path: dict[Any, float] = {}

    def longest(material: Any) -> float:
        if material not in path:
            path[material] = cost[material] + max((longest(dep) for dep in graph[material]), default=0.0)
        return path[material]

    critical = max(longest(material) for material in graph)
    cpu = sum(cost.values())
    largest = max(memory, key=memory.__getitem__)
    parts = parts_memory(rules, largest, rates)
    return {
        "variant": variant,
        "pieces": pieces,
        "materials": len(graph),
        "mirrored": len(mirrored),
        "entries": sum(Indexer(rules, m).size for m in graph),
        "cpu_seconds": round(cpu),
        "critical_path_seconds": round(critical),
        "workers": workers,
        "wall_seconds": round(max(cpu / workers, critical)),
        "largest": largest.name,
        "largest_entries": Indexer(rules, largest).size,
        "worker_memory_gib": round(memory[largest] / 2**30, 1),
        "parts": parts,
        "rates": rates,
    }


def parts_memory(rules: Any, material: Any, rates: dict[str, float]) -> dict[str, Any] | None:
    """The memory of ``material`` built in parts (``build_on_dask``'s ``part_entries``): a part
    holds the values of the next level of slices, 6 bytes an entry, and its frames (one part's
    entries at ``men_bytes``); the assembly holds the table's values (4 bytes an entry) and its
    packed sections (about 5 bits an entry) while it writes the file; streamed
    (``draughts.endgame.assembly``), one part's values at a time (about 8 bytes an entry: its
    sections and a copy of its distances) and a buffer of 4 M entries. None: not built in parts."""
    from draughts.endgame.index import Indexer
    from draughts.endgame.solve import native_solver
    from draughts.endgame.within import men_advance

    advance = men_advance(rules)
    white_men, black_men, _, _ = material.counts(rules)
    if advance is None or not white_men + black_men:
        return None
    indexer = Indexer(rules, material)
    span = 2 * indexer.radix[2] * indexer.radix[3]
    levels = [len(level) * span for level in native_solver(rules, material).slice_levels(advance)]
    part = rates.get("part_entries", 2**26)
    base = rates["base_mib"] * 2**20
    worker = base + 6 * max(levels) + min(part, max(levels)) * rates["men_bytes"]
    return {
        "levels": len(levels),
        "largest_level_entries": max(levels),
        "part_worker_gib": round(worker / 2**30, 1),
        "assembly_gib": round((base + 8 * min(part, max(levels)) + 6 * 2**22) / 2**30, 1),
        "assembly_whole_gib": round((base + indexer.size * (4 + 5 / 8)) / 2**30, 1),
    }


def project_summary(result: dict[str, Any]) -> str:
    """One line of :func:`project`."""
    return (
        f"{result['variant']} up to {result['pieces']} pieces: {result['materials']} materials "
        f"({result.get('mirrored', 0)} mirrored from their twins), "
        f"{result['entries']:,} entries, {result['cpu_seconds']:,} s CPU, critical path "
        f"{result['critical_path_seconds']:,} s, {result['workers']} workers: {result['wall_seconds'] / 60:,.0f} min "
        f"wall; largest {result['largest']} ({result['largest_entries']:,} entries): "
        f"{result['worker_memory_gib']} GiB in its worker"
        + (
            f"; in parts ({parts['levels']} levels, the largest {parts['largest_level_entries']:,} entries): "
            f"{parts['part_worker_gib']} GiB a part's worker, {parts['assembly_gib']} GiB the assembly's "
            f"(streamed; {parts['assembly_whole_gib']} GiB held whole)"
            if (parts := result.get("parts"))
            else ""
        )
    )


def summary(result: dict[str, Any]) -> list[str]:
    """Text lines: per piece count the materials, CPU time, positions/s and bytes; the total."""
    if result.get("materials_asked"):
        asked = ", ".join(result["materials_asked"]) + " and what they need"
    else:
        asked = f"up to {result['pieces']} pieces"
    build = f"native {result['native']}" if result.get("native") else "pure Python"
    lines = [
        f"{result['variant']}: {asked}, {result['workers']} worker(s), {result.get('threads') or 'all'} thread(s), "
        f"{build}, wall {result['wall_seconds']} s, peak RSS {result['peak_rss_mib']} MiB",
        f"  solving {result.get('solve_cpu_seconds')} s CPU, workers {result.get('workers_cpu_seconds')} s CPU "
        f"(statistics and files included), load average {result.get('load_average')} (start, end)",
    ]
    if result.get("phases"):
        solves = result["idle_solves"]
        lines.append(
            "  phases (wall s / CPU s / threads busy): "
            + ", ".join(
                f"{name} {figure['wall_seconds']}/{figure['cpu_seconds']}/{figure['busy']}"
                for name, figure in result["phases"].items()
            )
            + f"; between materials {result['between_seconds']} s wall"
        )
        lines.append(
            "  most idle solves (wall s, CPU s): "
            + ", ".join(f"{row['material']} {row['wall_seconds']}/{row['cpu_seconds']}" for row in solves)
        )
    by_pieces: dict[int, list[dict[str, Any]]] = {}
    for row in result["materials"]:
        by_pieces.setdefault(row["pieces"], []).append(row)
    for count, rows in sorted(by_pieces.items()):
        seconds = sum(row["cpu_seconds"] for row in rows)
        positions = sum(row["positions"] for row in rows)
        size = sum(row["bytes"] for row in rows)
        rate = positions / seconds if seconds else 0
        mirrored = [row for row in rows if row.get("mirrored_from")]
        solved = [row for row in rows if not row.get("mirrored_from")]
        solved_seconds = sum(row["cpu_seconds"] for row in solved)
        solved_positions = sum(row["positions"] for row in solved)
        lines.append(
            f"  {count} pieces: {len(rows)} materials, {positions:,} positions, {seconds:.1f} s CPU, "
            f"{rate:,.0f} positions/s, {size:,} bytes on disk"
            + (
                f"; {len(solved)} solved ({solved_seconds:.1f} s CPU, "
                f"{solved_positions / solved_seconds if solved_seconds else 0:,.0f} positions/s), "
                f"{len(mirrored)} mirrored ({seconds - solved_seconds:.1f} s CPU)"
                if mirrored
                else ""
            )
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["american", "russian", "international"])
    parser.add_argument("--pieces", type=int, default=3)
    parser.add_argument("--materials", nargs="+", help="build these materials (and what they need) instead")
    parser.add_argument("--quick", action="store_true", help="American, Russian and International up to 3 pieces")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--threads", type=int, help="threads of each native solve (DRAUGHTS_ENDGAME_THREADS; default: the CPUs)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--keep",
        metavar="DIR",
        help="build in DIR (one subdirectory per variant) and keep the tables: a run stopped early "
        "leaves the tables it finished, each with its CPU time in its header",
    )
    parser.add_argument(
        "--isolate",
        action="store_true",
        help="with --materials: build what they need first, then each in a process of its own (its own peak memory)",
    )
    parser.add_argument(
        "--project",
        nargs=2,
        action="append",
        metavar=("VARIANT", "PIECES"),
        help="project a build of every material up to PIECES from the rates given (--rates): CPU, wall, memory",
    )
    parser.add_argument(
        "--rates",
        default="men=1e6,kings=1e6,men_bytes=12,kings_bytes=42,base_mib=60",
        help="measured rates for --project: positions per CPU second and bytes an entry, with men and kings only",
    )
    parser.add_argument(
        "--max-positions",
        type=int,
        help="the largest material a build accepts (Tablebase's max_positions; International 5 pieces: 250000000)",
    )
    parser.add_argument(
        "--phases",
        action="store_true",
        help="also the wall and CPU time of each phase of the build (read, solve, mirror, statistics, pack, "
        "write) and the solves that left threads idle; the tables are then written in turn, not beside the next solve",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: measure one variant, print JSON
    parser.add_argument("--solve-one", nargs=3, help=argparse.SUPPRESS)  # internal: VARIANT MATERIAL DIR
    parser.add_argument("--mirror-one", nargs=3, help=argparse.SUPPRESS)  # internal: VARIANT MATERIAL DIR
    parser.add_argument(
        "--no-symmetry",
        action="store_true",
        help="solve every material, none made from its colour-swapped twin (builds and projections)",
    )
    args = parser.parse_args()
    if args.solve_one:
        print(json.dumps(solve_one(*args.solve_one)))
        return
    if args.mirror_one:
        print(json.dumps(mirror_one(*args.mirror_one)))
        return
    symmetry = not args.no_symmetry
    if args.project:
        rates = {key: float(value) for key, value in (item.split("=") for item in args.rates.split(","))}
        projected = [project(variant, int(count), rates, args.workers, symmetry) for variant, count in args.project]
        for result in projected:
            print(project_summary(result), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(projected, indent=1))
        return
    if args.isolate:
        results = []
        for variant in args.variants:
            result = isolated(variant, args.materials or [], args.threads, symmetry)
            results.append(result)
            print("\n".join(isolated_summary(result)), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1))
        return
    if args.quick:
        args.variants, args.pieces, args.materials = ["american", "russian", "international"], 3, None
    if args.one:
        keep = None if args.keep is None else str(Path(args.keep) / args.one)
        print(
            json.dumps(
                build(
                    args.one, args.pieces, args.workers, args.materials, keep, args.max_positions, symmetry, args.phases
                )
            )
        )
        return
    results = []
    for variant in args.variants:
        command = [sys.executable, __file__, "--one", variant, "--pieces", str(args.pieces)]
        command += ["--workers", str(args.workers)]
        if args.materials:
            command += ["--materials", *args.materials]
        if args.keep:
            command += ["--keep", args.keep]
        if args.max_positions:
            command += ["--max-positions", str(args.max_positions)]
        if args.no_symmetry:
            command += ["--no-symmetry"]
        if args.phases:
            command += ["--phases"]
        env = dict(os.environ)
        if args.threads:
            env["DRAUGHTS_ENDGAME_THREADS"] = str(args.threads)
        output = subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout
        result = json.loads(output.strip().splitlines()[-1])
        results.append(result)
        print("\n".join(summary(result)), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
