"""How perft and the PDN collection map scale on a Dask cluster: 1 worker against N, on this machine.

For each worker count (``--workers``, default 1 and 2) the script starts a ``LocalCluster`` of that
many worker processes with one thread each (no dashboard), warms every worker up (the ruleset
tables are compiled once per process), then times, in wall-clock seconds, best of ``--repeat``:

* perft of a variant's start position (``--variant``, ``--depth``; default International 7) split
  over the cluster with ``executor=client.get_executor()``, checked against the published count;
* :func:`draughts.pdn.collection.replay_files` over a directory of PDN files (``--games``; default the
  samples in ``tests/data/games``), one job per file. With ``--folder-variants`` (the default) each
  sub-folder is named after its variant (``english`` = American checkers), as in the samples.

The same work is timed in this process without a cluster ("serial"), and the speed-up of each
worker count is printed against one worker, with the CPU seconds that all the working processes
spent (the work plus the overheads: pickling, the workers' own event loops). The load average of
the machine is printed after each measurement: on a shared machine, other people's work takes
cores too, and wall-clock speed-ups then understate what free cores give. Last, the largest
file's share of the map's CPU time bounds its speed-up on any number of workers (one job per file).

Needs the ``distributed`` extra (``pip install -e ".[distributed]"``)::

    python benchmarks/cluster.py                                   # International 7, the samples
    python benchmarks/cluster.py --depth 8 --games /path/to/games --repeat 3
    python benchmarks/cluster.py --quick                           # CI: small, checks it runs
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple, TypeVar

from distributed import Client, LocalCluster

import draughts
from draughts.pdn.collection import CollectionReport, replay_files

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "data" / "games"
FOLDER_VARIANTS = {"english": "american"}
PUBLISHED = {("international", 6): 167140, ("international", 7): 1049442, ("international", 8): 6483961}

T = TypeVar("T")


def folder_variant(path: Path) -> str | None:
    """The variant a sample sub-folder is named after (None: each game's tags)."""
    name = FOLDER_VARIANTS.get(path.parent.name, path.parent.name)
    return name if name in draughts.VARIANTS else None


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min)"


class Timing(NamedTuple):
    """The best of several runs: wall-clock seconds, and CPU seconds of each process that worked."""

    wall: float
    cpu: list[float]

    @property
    def cpu_total(self) -> float:
        """CPU seconds of all the processes that worked: the work done, overheads included."""
        return sum(self.cpu)


def cpu_seconds(client: Client | None) -> list[float]:
    """CPU seconds used so far by each worker process (or by this process, without a cluster)."""
    if client is None:
        return [time.process_time()]
    return [seconds for _, seconds in sorted(client.run(time.process_time).items())]


def best(repeat: int, client: Client | None, job: Callable[[], T]) -> tuple[Timing, T]:
    """The run of ``job`` with the shortest wall-clock time among ``repeat``, and its result."""
    timings = []
    result: T
    for _ in range(repeat):
        before = cpu_seconds(client)
        started = time.perf_counter()
        result = job()
        wall = time.perf_counter() - started
        timings.append(Timing(wall, [after - then for after, then in zip(cpu_seconds(client), before, strict=True)]))
    return min(timings), result


def measure(
    client: Client | None, position: draughts.Position, depth: int, games: Path, repeat: int
) -> tuple[Timing, int, Timing, CollectionReport]:
    # pure=False: every run computes again, none reuses the results of the run before
    executor = None if client is None else client.get_executor(pure=False)
    variant = folder_variant if games.is_dir() else None
    # Warm-up: every worker compiles the tables of every ruleset it meets, once.
    draughts.perft(position, min(depth, 5), executor=executor)
    replay_files(games, variant, executor=executor)
    perft_time, count = best(repeat, client, lambda: draughts.perft(position, depth, executor=executor))
    print(f"    perft({depth}) = {count:,}: {describe(perft_time)}   [{load()}]", flush=True)
    map_time, report = best(repeat, client, lambda: replay_files(games, variant, executor=executor))
    print(
        f"    {len(report.files)} files, {report.games:,} games, {report.moves:,} moves: {describe(map_time)}   "
        f"[{load()}]",
        flush=True,
    )
    return perft_time, count, map_time, report


def describe(timing: Timing) -> str:
    cpu = " + ".join(f"{seconds:.2f}" for seconds in timing.cpu)
    return f"{timing.wall:.2f} s wall, CPU s per process {cpu}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="international")
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--games", type=Path, default=SAMPLES, help="a directory of PDN files (default: the samples)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default: 1 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    parser.add_argument("--quick", action="store_true", help="depth 5, one run each: check that the script works")
    args = parser.parse_args(argv)
    if args.quick:
        args.depth, args.repeat = 5, 1

    position = draughts.Position.initial(args.variant)
    print(
        f"polydraughts {draughts.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs; "
        f"{args.variant} perft({args.depth}); PDN files under {args.games}; wall-clock seconds, best of {args.repeat}"
    )
    print("  serial (this process, no cluster)", flush=True)
    rows = {0: measure(None, position, args.depth, args.games, args.repeat)}
    for workers in args.workers:
        print(f"  LocalCluster: {workers} worker process{'es' if workers > 1 else ''}, 1 thread each", flush=True)
        with (
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,
        ):
            client.wait_for_workers(workers, timeout=120)
            rows[workers] = measure(client, position, args.depth, args.games, args.repeat)

    failed = False
    expected = PUBLISHED.get((args.variant, args.depth))
    serial_report = rows[0][3]
    print()
    print(f"{'':<12}{'perft':>28}{'PDN map':>28}")
    print(f"{'run':<12}" + f"{'wall s':>9}{'speed-up':>9}{'CPU s':>10}" * 2)
    base = rows.get(1, rows[0])
    for workers, (perft_time, count, map_time, report) in rows.items():
        name = "serial" if workers == 0 else f"{workers} worker{'s' if workers > 1 else ''}"
        cells = [
            f"{timing.wall:>9.2f}{reference.wall / timing.wall:>8.2f}x{timing.cpu_total:>10.2f}"
            for timing, reference in ((perft_time, base[0]), (map_time, base[2]))
        ]
        print(f"{name:<12}" + "".join(cells))
        if (expected is not None and count != expected) or count != rows[0][1] or report != serial_report:
            print(f"  {name}: the result differs from the serial run or the published count", file=sys.stderr)
            failed = True
    print("speed-up: wall-clock, against 1 worker. CPU s: all the processes that worked (the overheads included).")
    files = sorted(serial_report.files, key=lambda file: file.seconds, reverse=True)
    total = sum(file.seconds for file in files)
    if total > 0:
        largest = files[0]
        print(
            f"PDN map: the largest job, {largest.path.name}, is {largest.seconds / total:.1%} of the serial CPU time: "
            f"no number of workers reads this collection more than {total / largest.seconds:.1f}x faster."
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
