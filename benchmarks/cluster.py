"""How perft and the PDN collection map scale on a Dask cluster: 1 worker against N, on this machine.

For each worker count (``--workers``, default 1 and 2) the script starts a ``LocalCluster`` of that
many worker processes with one thread each (no dashboard), warms every worker up (the ruleset
tables are compiled once per process), then times, in wall-clock seconds, best of ``--repeat``:

* perft of a variant's start position (``--variant``, ``--depth``; default International 7) split
  over the cluster with ``executor=client.get_executor()``, checked against the published count;
* :func:`draughts.collection.replay_files` over a directory of PDN files (``--games``; default the
  samples in ``tests/data/games``), one job per file. With ``--folder-variants`` (the default) each
  sub-folder is named after its variant (``english`` = American checkers), as in the samples.

The same work is timed in this process without a cluster ("serial"), and the speed-up of each
worker count is printed against one worker. The load average of the machine is printed before
and after each measurement: on a shared machine, other people's work takes cores too.

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
from concurrent.futures import Executor
from pathlib import Path
from typing import TypeVar

from distributed import Client, LocalCluster

import draughts
from draughts.collection import CollectionReport, replay_files

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


def best(repeat: int, job: Callable[[], T]) -> tuple[float, T]:
    """The shortest wall-clock time of ``repeat`` runs of ``job``, and its result."""
    times = []
    result: T
    for _ in range(repeat):
        started = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - started)
    return min(times), result


def measure(
    executor: Executor | None, position: draughts.Position, depth: int, games: Path, repeat: int
) -> tuple[float, int, float, CollectionReport]:
    variant = folder_variant if games.is_dir() else None
    # Warm-up: every worker compiles the tables of every ruleset it meets, once.
    draughts.perft(position, min(depth, 5), executor=executor)
    replay_files(games, variant, executor=executor)
    perft_seconds, count = best(repeat, lambda: draughts.perft(position, depth, executor=executor))
    print(f"    perft({depth}) = {count:,} in {perft_seconds:.2f} s   [{load()}]", flush=True)
    map_seconds, report = best(repeat, lambda: replay_files(games, variant, executor=executor))
    print(
        f"    {len(report.files)} files, {report.games:,} games, {report.moves:,} moves in {map_seconds:.2f} s   "
        f"[{load()}]",
        flush=True,
    )
    return perft_seconds, count, map_seconds, report


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
            # pure=False: every run computes again, none reuses the results of the run before
            executor = client.get_executor(pure=False)
            rows[workers] = measure(executor, position, args.depth, args.games, args.repeat)

    failed = False
    expected = PUBLISHED.get((args.variant, args.depth))
    serial_report = rows[0][3]
    print()
    print(f"{'run':<12}{'perft s':>9}{'speed-up':>10}{'PDN map s':>11}{'speed-up':>10}")
    base = rows.get(1, rows[0])
    for workers, (perft_seconds, count, map_seconds, report) in rows.items():
        name = "serial" if workers == 0 else f"{workers} worker{'s' if workers > 1 else ''}"
        print(
            f"{name:<12}{perft_seconds:>9.2f}{base[0] / perft_seconds:>9.2f}x"
            f"{map_seconds:>11.2f}{base[2] / map_seconds:>9.2f}x"
        )
        if (expected is not None and count != expected) or count != rows[0][1] or report != serial_report:
            print(f"  {name}: the result differs from the serial run or the published count", file=sys.stderr)
            failed = True
    print("(speed-up against 1 worker)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
