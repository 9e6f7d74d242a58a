"""Benchmark perft from every variant's start position: leaf nodes, seconds, nodes per second.

Runs the seven federation variants and the American no-forced-capture house rule (or the
variants named with ``--variant``) at depth 7 on 8x8 boards and 6 on 10x10 (or ``--depth``),
in the default "dedup" convention and, with ``--paths``, also in the "keep" convention. Each
count is checked against the published start-position numbers where they exist; a mismatch
makes the script exit with status 1. ``--quick`` runs small depths in both conventions, to check
in CI that the script still works. The peak memory of the process (``resource``) is reported
after the deepest run; ``--tracemalloc`` also measures the Python heap of that run (run once
more, untimed: tracing makes perft several times slower).

``--compare`` measures the other Python draughts libraries in the same run and prints the
ratios the project's performance goals are stated in (see ``docs/performance.rst``). Both peers
also import as ``draughts``, so the script creates one virtual environment for each (under
``--venv-dir``, default ``~/.cache/polydraughts-bench``), pip-installs ``py-draughts==1.10.1`` and
``pydraughts==0.6.7`` there on first use, and runs them in subprocesses; they never enter the
environment polydraughts runs in. Every peer is timed on the same position at the same depth,
with its perft counting the last ply without playing it:

* py-draughts through its public API (``legal_moves``, ``push``, ``pop``), and its internal
  hand-written International generator ``draughts.engines.turbo.perft_from_board``;
* pydraughts (``Board.legal_moves``, ``push``, ``pop``) at a small depth (``--peer-depth``, it
  manages about 1,500 leaves a second), as leaves per second.

Times are CPU seconds of the measuring process (``time.process_time``) by default, so that other
work on a shared machine disturbs the ratios less; ``--clock wall`` uses wall-clock time.

Uses only the standard library and ``draughts`` (the peers live in their own environments)::

    PYTHONPATH=src python benchmarks/perft.py
    PYTHONPATH=src python benchmarks/perft.py --variant russian --depth 8 --paths
    PYTHONPATH=src python benchmarks/perft.py --quick
    PYTHONPATH=src python benchmarks/perft.py --compare --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
import venv
from collections.abc import Callable, Sequence
from pathlib import Path
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


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def timed_perft(rules: draughts.Ruleset, depth: int, paths: bool, repeat: int, clock: str = "wall") -> Run:
    """perft of the start position of ``rules``, the best time of ``repeat`` runs."""
    start = draughts.Position.initial(rules)
    now = CLOCKS[clock]
    best = float("inf")
    leaves = 0
    for _ in range(repeat):
        began = now()
        leaves = draughts.perft(start, depth, paths=paths)
        best = min(best, now() - began)
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
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also time py-draughts 1.10.1 and pydraughts 0.6.7 (each in a virtual environment of its own) "
        "and print the ratios of the performance goals",
    )
    parser.add_argument(
        "--venv-dir",
        type=Path,
        default=Path.home() / ".cache" / "polydraughts-bench",
        help="where --compare keeps the peers' virtual environments (default: ~/.cache/polydraughts-bench)",
    )
    parser.add_argument(
        "--peer-depth", type=int, default=5, help="perft depth for pydraughts with --compare (default 5)"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="SRC",
        help="also time another source tree of polydraughts (its src folder, e.g. a checkout of an older "
        "commit) on the same runs, alternating with this one, and print the ratio (an A/B of two versions)",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default=None,
        help="'cpu' (process CPU time) or 'wall' (default: wall, or cpu with --compare)",
    )
    args = parser.parse_args(argv)
    if args.depth is not None and args.depth < 1:
        parser.error(f"--depth {args.depth} must be at least 1")
    if args.repeat < 1:
        parser.error(f"--repeat {args.repeat} must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.compare:
        return compare(args)
    try:
        rulesets = [draughts.get_variant(name) for name in (args.variant or DEFAULT_VARIANTS)]
    except draughts.UnknownVariantError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    table = QUICK_DEPTH if args.quick else DEFAULT_DEPTH
    conventions = (False, True) if args.paths or args.quick else (False,)

    print(
        f"polydraughts {draughts.__version__}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}, "
        f"generator: {'compiled (mypyc)' if draughts.COMPILED else 'Python source'}"
    )
    header = f"{'variant':<16}{'depth':>5}  {'convention':<10}{'leaves':>14}{'seconds':>10}{'leaves/s':>12}  check"
    if args.baseline:
        header += f"{'baseline/s':>14}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    runs: list[Run] = []
    total = 0.0
    for rules in rulesets:
        depth = depth_for(rules, table, args.depth)
        for paths in conventions:
            clock = args.clock or "wall"
            if args.baseline:
                run, base = alternate(rules, depth, paths, args.repeat, clock, args.baseline)
            else:
                run = timed_perft(rules, depth, paths, args.repeat, clock)
            runs.append(run)
            total += run.seconds
            rate = run.leaves / run.seconds if run.seconds > 0 else float("inf")
            line = (
                f"{rules.name:<16}{depth:>5}  {run.convention:<10}{run.leaves:>14,}{run.seconds:>10.3f}"
                f"{rate:>12,.0f}  {run.check}"
            )
            if args.baseline:
                base_rate = base.leaves / base.seconds if base.seconds > 0 else float("inf")
                agree = "" if base.leaves == run.leaves else f"  (baseline counts {base.leaves:,})"
                line += f"{base_rate:>14,.0f}{rate / base_rate:>8.2f}{agree}"
            print(line, flush=True)
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


# --- --baseline: an A/B of two source trees, timed alternately ---

BASELINE_SCRIPT = r"""
import json, sys, time, draughts
name, depth, paths, clock = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
now = time.process_time if clock == "cpu" else time.perf_counter
start = draughts.Position.initial(name)
began = now()
leaves = draughts.perft(start, depth, paths=paths)
print(json.dumps({"leaves": leaves, "seconds": now() - began}))
"""


def alternate(
    rules: draughts.Ruleset, depth: int, paths: bool, repeat: int, clock: str, baseline: Path
) -> tuple[Run, Run]:
    """``rules``'s perft timed in this tree and in the ``baseline`` source tree, one after the other
    ``repeat`` times (so that both meet the same machine load), the best of each."""
    env = {**os.environ, "PYTHONPATH": str(baseline.resolve())}
    ours = theirs = float("inf")
    leaves = base_leaves = 0
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", BASELINE_SCRIPT, rules.name, str(depth), "1" if paths else "0", clock],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        result = json.loads(done.stdout)
        base_leaves, theirs = result["leaves"], min(theirs, result["seconds"])
        run = timed_perft(rules, depth, paths, 1, clock)
        leaves, ours = run.leaves, min(ours, run.seconds)
    return Run(rules, depth, paths, leaves, ours), Run(rules, depth, paths, base_leaves, theirs)


# --- --compare: the peers, each in a virtual environment of its own ---

PEERS = {"py-draughts": "py-draughts==1.10.1", "pydraughts": "pydraughts==0.6.7"}

# Run by the peers' interpreters: prints {"leaves": n, "seconds": best} as JSON. The perft of each
# counts the last ply as the length of the legal move list, without playing it.
PEER_SCRIPT = r"""
import json, sys, time
kind, variant, depth, repeat, clock = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
now = time.process_time if clock == "cpu" else time.perf_counter

if kind == "pydraughts":
    from draughts import Board
    def make():
        return Board(variant)
    def legal(board):
        return board.legal_moves()
else:
    import draughts
    boards = {"international": draughts.StandardBoard, "russian": draughts.RussianBoard,
              "brazilian": draughts.BrazilianBoard, "american": draughts.AmericanBoard}
    def make():
        return boards[variant]()
    def legal(board):
        return board.legal_moves

def perft(board, depth):
    moves = legal(board)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total

if kind == "py-draughts-turbo":
    from draughts.engines.turbo import perft_from_board as count
else:
    count = perft
best, leaves = float("inf"), 0
for _ in range(repeat):
    board = make()
    began = now()
    leaves = count(board, depth)
    best = min(best, now() - began)
print(json.dumps({"leaves": leaves, "seconds": best}))
"""


class Row(NamedTuple):
    """One line of the comparison: our perft against a peer's, with the goal for the ratio."""

    variant: str
    depth: int
    peer: str
    peer_kind: str  # "py-draughts-api", "py-draughts-turbo", "pydraughts"
    peer_variant: str | None  # the peer's name for the variant; None = the peer lacks it
    peer_depth: int
    goal: float | None  # required ratio, None for an informative row


ROWS = (
    Row("international", 7, "py-draughts 1.10.1 API", "py-draughts-api", "international", 7, 2),
    Row("russian", 8, "py-draughts 1.10.1 API", "py-draughts-api", "russian", 8, 2),
    Row("brazilian", 8, "py-draughts 1.10.1 API", "py-draughts-api", "brazilian", 8, 2),
    Row("international", 8, "py-draughts 1.10.1 turbo", "py-draughts-turbo", "international", 8, 1),
    Row("american", 8, "pydraughts 0.6.7", "pydraughts", "english", 0, 1000),
    Row("italian", 8, "pydraughts 0.6.7", "pydraughts", "italian", 0, 1000),
    Row("spanish", 8, "pydraughts 0.6.7", "pydraughts", None, 0, 1000),
    Row("czech", 8, "pydraughts 0.6.7", "pydraughts", None, 0, 1000),
    Row("american", 8, "py-draughts 1.10.1 API", "py-draughts-api", "american", 8, None),
)


def peer_python(venv_dir: Path, peer: str) -> Path:
    """The interpreter of ``peer``'s virtual environment, creating and filling it on first use."""
    home = venv_dir / peer
    python = home / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    requirement = PEERS[peer]
    wanted = requirement.split("==")[1]
    check = [str(python), "-c", f"import importlib.metadata as m; print(m.version({peer!r}))"]
    if python.exists():
        found = subprocess.run(check, capture_output=True, text=True)
        if found.returncode == 0 and found.stdout.strip() == wanted:
            return python
    print(f"creating {home} with {requirement} ...", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(home)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", requirement], check=True)
    return python


def run_peer(
    python: Path, script: Path, kind: str, variant: str, depth: int, repeat: int, clock: str
) -> dict[str, float]:
    """Run one peer perft in ``python``'s environment; ``{"leaves": ..., "seconds": ...}``."""
    # Run from an empty directory so that no 'draughts' package but the peer's can be imported.
    with tempfile.TemporaryDirectory() as cwd:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        done = subprocess.run(
            [str(python), str(script), kind, variant, str(depth), str(repeat), clock],
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            check=True,
        )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace) -> int:
    """Time polydraughts and its peers on the rows of the performance goals; print the table."""
    clock = args.clock or "cpu"
    pythons = {peer: peer_python(args.venv_dir, peer) for peer in PEERS}
    print(
        f"polydraughts {draughts.__version__}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}; {clock} time, best of {args.repeat}"
    )
    ours: dict[tuple[str, int], Run] = {}
    peers: dict[tuple[str, str, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "peer_perft.py"
        script.write_text(PEER_SCRIPT, encoding="utf-8")
        for row in ROWS:
            key = (row.variant, row.depth)
            if key not in ours:
                ours[key] = timed_perft(draughts.get_variant(row.variant), row.depth, False, args.repeat, clock)
            if row.peer_variant is not None:
                depth = row.peer_depth or args.peer_depth
                peer_key = (row.peer_kind, row.peer_variant, depth)
                if peer_key not in peers:
                    python = pythons["pydraughts" if row.peer_kind == "pydraughts" else "py-draughts"]
                    peers[peer_key] = run_peer(
                        python, script, row.peer_kind, row.peer_variant, depth, args.repeat, clock
                    )
    fastest_8x8 = max(
        (result["leaves"] / result["seconds"], name)
        for (kind, name, _), result in peers.items()
        if kind == "pydraughts"
    )
    header = (
        "| variant, depth | polydraughts leaves/s | peer | peer depth | peer leaves/s | ratio | goal | note |\n"
        "| --- | ---: | --- | ---: | ---: | ---: | --- | --- |"
    )
    print(header)
    failures = 0
    for row in ROWS:
        run = ours[(row.variant, row.depth)]
        rate = run.leaves / run.seconds
        depth = row.peer_depth or args.peer_depth
        notes = []
        if row.peer_variant is None:
            peer_rate, name = fastest_8x8
            notes.append(f"pydraughts has no {row.variant} rules: compared with its fastest 8x8 rate ({name})")
            peer_depth = str(depth)
        else:
            result = peers[(row.peer_kind, row.peer_variant, depth)]
            peer_rate = result["leaves"] / result["seconds"]
            peer_depth = str(depth)
            expected = (
                draughts.perft(draughts.Position.initial(row.variant), depth) if depth != row.depth else run.leaves
            )
            if result["leaves"] != expected:
                notes.append(f"peer counts {int(result['leaves']):,}, the correct count is {expected:,}")
            if row.goal is None:
                notes.append("informative (peer count wrong: its captures are optional)")
        ratio = rate / peer_rate
        if row.goal is None:
            goal = "-"
        else:
            met = ratio >= row.goal
            failures += not met
            goal = f">= {row.goal:g}x {'met' if met else 'MISSED'}"
        ratio_text = f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.2f}x"
        print(
            f"| {row.variant} {row.depth} | {rate:,.0f} | {row.peer} | {peer_depth} | {peer_rate:,.0f} | "
            f"{ratio_text} | {goal} | {'; '.join(notes)} |",
            flush=True,
        )
    deepest = max(ours.values(), key=lambda run: (run.depth, run.leaves))
    label = f"{deepest.rules.name} perft({deepest.depth})"
    rss = peak_rss_mib()
    if rss is not None:
        print(f"peak memory (process RSS over all our runs, the deepest being {label}): {rss:.1f} MiB")
    if args.tracemalloc:
        print(f"peak Python heap during {label} (tracemalloc, untimed rerun): {traced_peak_kib(deepest):.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
