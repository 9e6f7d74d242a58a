"""Benchmark perft from every variant's start position: leaf nodes, seconds, nodes per second.

Runs the seven federation variants and the American no-forced-capture house rule (or the
variants named with ``--variant``) at depth 7 on 8x8 boards and 6 on 10x10 (or ``--depth``),
in the default "dedup" convention and, with ``--paths``, also in the "keep" convention. Each
count is checked against the published start-position numbers where they exist; a mismatch
makes the script exit with status 1. ``--quick`` runs small depths in both conventions, to check
in CI that the script still works. The peak memory of the process (``resource``) is reported
after the deepest run; ``--tracemalloc`` also measures the Python heap of that run (run once
more, untimed: tracing makes perft several times slower).

Uses only the standard library and ``draughts``::

    PYTHONPATH=src python benchmarks/perft.py
    PYTHONPATH=src python benchmarks/perft.py --variant russian --depth 8 --paths
    PYTHONPATH=src python benchmarks/perft.py --quick
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import tracemalloc
from collections.abc import Sequence
from typing import NamedTuple

import draughts

if sys.platform != "win32":
    import resource

DEFAULT_DEPTH = {8: 7, 10: 6}  # by board size; other sizes use the smallest of these
QUICK_DEPTH = {8: 5, 10: 4}
DEFAULT_VARIANTS = (*draughts.VARIANTS, "american-nfc")

# Published start-position perft (see docs/perft.rst for the sources), depth -> count, per
# convention; the no-forced-capture numbers are unpublished, from one independent program.
_D7 = {1: 7, 2: 49, 3: 302, 4: 1469}
_ENGLISH = {**_D7, 5: 7361, 6: 36768, 7: 179740, 8: 845931, 9: 3963680}
_ITALIAN = {**_D7, 5: 7361, 6: 36473, 7: 177532, 8: 828783, 9: 3860875}
_SPANISH = {**_D7, 5: 7361, 6: 36473, 7: 177532, 8: 828783, 9: 3860866}
_CZECH = {**_D7, 5: 7361, 6: 36768, 7: 179740, 8: 845931, 9: 3963671}
PUBLISHED: dict[str, dict[str, dict[int, int]]] = {
    "american": {"dedup": _ENGLISH, "keep": _ENGLISH},
    "italian": {"dedup": _ITALIAN, "keep": _ITALIAN},
    "spanish": {"dedup": _SPANISH, "keep": _SPANISH},
    "czech": {"dedup": _CZECH, "keep": _CZECH},
    "russian": {
        "dedup": {**_D7, 5: 7482, 6: 37986, 7: 190146, 8: 929899, 9: 4570586},
        "keep": {**_D7, 5: 7482, 6: 37986, 7: 190146, 8: 929905, 9: 4570667},
    },
    "brazilian": {
        "dedup": {**_D7, 5: 7473, 6: 37628, 7: 187302, 8: 907830, 9: 4431766},
        "keep": {**_D7, 5: 7473, 6: 37628, 7: 187302, 8: 907836, 9: 4431847},
    },
    "international": {
        "dedup": {1: 9, 2: 81, 3: 658, 4: 4265, 5: 27117, 6: 167140, 7: 1049442, 8: 6483961},
        "keep": {1: 9, 2: 81, 3: 658, 4: 4265, 5: 27117, 6: 167140, 7: 1049442, 8: 6483971},
    },
    "american-nfc": {
        "dedup": {1: 7, 2: 49, 3: 379, 4: 2872, 5: 23582, 6: 189143, 7: 1583148},
    },
}


class Run(NamedTuple):
    """One timed perft."""

    rules: draughts.Ruleset
    depth: int
    paths: bool
    leaves: int
    seconds: float

    @property
    def convention(self) -> str:
        return "keep" if self.paths else "dedup"

    @property
    def check(self) -> str:
        """``ok``, ``MISMATCH (expected n)`` or ``-`` when no reference number exists."""
        expected = PUBLISHED.get(self.rules.name, {}).get(self.convention, {}).get(self.depth)
        if expected is None:
            return "-"
        return "ok" if expected == self.leaves else f"MISMATCH (expected {expected:,})"


def depth_for(rules: draughts.Ruleset, table: dict[int, int], override: int | None) -> int:
    """The depth to run ``rules`` at: ``override``, or the table's depth for its board size."""
    if override is not None:
        return override
    return table.get(rules.board_size, min(table.values()))


def timed_perft(rules: draughts.Ruleset, depth: int, paths: bool, repeat: int) -> Run:
    """perft of the start position of ``rules``, the best time of ``repeat`` runs."""
    start = draughts.Position.initial(rules)
    best = float("inf")
    leaves = 0
    for _ in range(repeat):
        began = time.perf_counter()
        leaves = draughts.perft(start, depth, paths=paths)
        best = min(best, time.perf_counter() - began)
    return Run(rules, depth, paths, leaves, best)


def peak_rss_mib() -> float | None:
    """The peak resident memory of this process so far, in MiB (None where unknown)."""
    if sys.platform == "win32":
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB elsewhere


def traced_peak_kib(run: Run) -> float:
    """The peak Python heap (tracemalloc) while repeating ``run``, in KiB."""
    start = draughts.Position.initial(run.rules)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        draughts.perft(start, run.depth, paths=run.paths)
        return tracemalloc.get_traced_memory()[1] / 1024
    finally:
        tracemalloc.stop()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/perft.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="a variant name or alias (repeatable; default: the seven variants and american-nfc)",
    )
    parser.add_argument("--depth", type=int, help="one depth for every variant (default: 7 on 8x8, 6 on 10x10)")
    parser.add_argument("--paths", action="store_true", help="also count in the 'keep' convention (every path)")
    parser.add_argument("--quick", action="store_true", help="small depths, both conventions (for CI)")
    parser.add_argument("--repeat", type=int, default=1, help="time each run this many times, keep the best")
    parser.add_argument(
        "--tracemalloc", action="store_true", help="measure the Python heap of the deepest run (slow, untimed)"
    )
    args = parser.parse_args(argv)
    if args.depth is not None and args.depth < 1:
        parser.error(f"--depth {args.depth} must be at least 1")
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat} must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        rulesets = [draughts.get_variant(name) for name in (args.variant or DEFAULT_VARIANTS)]
    except draughts.UnknownVariantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    table = QUICK_DEPTH if args.quick else DEFAULT_DEPTH
    conventions = (False, True) if args.paths or args.quick else (False,)

    print(
        f"polydraughts {draughts.__version__}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}"
    )
    header = f"{'variant':<16}{'depth':>5}  {'convention':<10}{'leaves':>14}{'seconds':>10}{'leaves/s':>12}  check"
    print(header)
    print("-" * len(header))
    runs: list[Run] = []
    total = 0.0
    for rules in rulesets:
        depth = depth_for(rules, table, args.depth)
        for paths in conventions:
            run = timed_perft(rules, depth, paths, args.repeat)
            runs.append(run)
            total += run.seconds
            rate = run.leaves / run.seconds if run.seconds > 0 else float("inf")
            print(
                f"{rules.name:<16}{depth:>5}  {run.convention:<10}{run.leaves:>14,}{run.seconds:>10.3f}"
                f"{rate:>12,.0f}  {run.check}",
                flush=True,
            )
    print("-" * len(header))
    leaves = sum(run.leaves for run in runs)
    print(f"{'total':<33}{leaves:>14,}{total:>10.3f}{leaves / total if total > 0 else 0:>12,.0f}")

    deepest = max(runs, key=lambda run: (run.depth, run.leaves))
    label = f"{deepest.rules.name} perft({deepest.depth}, {deepest.convention})"
    rss = peak_rss_mib()
    if rss is not None:
        print(f"peak memory (process RSS, all runs including the deepest, {label}): {rss:.1f} MiB")
    if args.tracemalloc:
        print(f"peak Python heap during {label} (tracemalloc, untimed rerun): {traced_peak_kib(deepest):.1f} KiB")

    mismatches = [run for run in runs if run.check.startswith("MISMATCH")]
    for run in mismatches:
        print(f"error: {run.rules.name} perft({run.depth}, {run.convention}) = {run.leaves:,}: {run.check}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
