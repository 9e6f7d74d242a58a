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
ratios the project's performance goals are stated in (see ``docs/performance.rst``). Two peers
also import as ``draughts``, so every peer gets a virtual environment of its own (under
``~/.cache/polydraughts-bench``; ``--install-peers`` pip-installs ``py-draughts==1.10.1``,
``pydraughts==0.6.7`` and ``dame-rs==0.2.0`` there on first use), and runs in subprocesses; they never enter the
environment polydraughts runs in. Every peer is timed on the same position at the same depth,
with its perft counting the last ply without playing it:

* py-draughts through its public API (``legal_moves``, ``push``, ``pop``), and its internal
  hand-written International generator ``draughts.engines.turbo.perft_from_board``;
* pydraughts (``Board.legal_moves``, ``push``, ``pop``) at a small depth (``--peer-depth``, it
  manages about 1,500 leaves a second), as leaves per second;
* dame-rs 0.2.0 (Rust, International only; ``dame.perft``, the same "dedup" convention, its counts
  compared with ours), International depth 8 against the native core, goal 1.0x (issue 37).

Beside them the native core's rates alone for Russian, Frisian, Turkish, Canadian and a custom
ruleset (:data:`CUSTOM`): a generic engine should lose little to its specialised cases.
``--peer NAME`` keeps only that peer's rows (and the rates alone). Our side counts with
``draughts.perft`` once the Python API runs the native core; until then (the Python generator
still in ``draughts._core``) with the native core's own perft,
``draughts._core.native.native_rules(rules).perft(node, depth)``; the output says which.

Times are CPU seconds of the measuring process (``time.process_time``) by default, so that other
work on a shared machine disturbs the ratios less; ``--clock wall`` uses wall-clock time.

Uses only the standard library and ``draughts`` (the peers live in their own environments)::

    PYTHONPATH=src python benchmarks/perft.py
    PYTHONPATH=src python benchmarks/perft.py --variant russian --depth 8 --paths
    PYTHONPATH=src python benchmarks/perft.py --quick
    PYTHONPATH=src python benchmarks/perft.py --compare --repeat 3
    PYTHONPATH=src python benchmarks/perft.py --compare --peer dame-rs --install-peers
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import attrs

import draughts
from draughts import CapturedRemoval, CapturePromotion, KingsEarliest, MostValue
from draughts.rules.files import ruleset_to_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rounds  # the shared method: sides, processes, interleaved rounds

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
        help="a variant name or alias (repeatable; default: the seven variants and american-nfc, or with "
        "--compare the rows of the goals)",
    )
    parser.add_argument("--depth", type=int, help="one depth for every variant (default: 7 on 8x8, 6 on 10x10)")
    parser.add_argument("--paths", action="store_true", help="also count in the 'keep' convention (every path)")
    parser.add_argument("--quick", action="store_true", help="small depths, both conventions (for CI)")
    parser.add_argument(
        "--tracemalloc", action="store_true", help="measure the Python heap of the deepest run (slow, untimed)"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="time the sides (source, compiled, py-draughts, pydraughts) on new positions every round, each in "
        "its own process, and print the ratios of the performance goals",
    )
    parser.add_argument(
        "--positions", type=int, default=4, help="positions per round with --compare (default 4, new every round)"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="'cpu' (process CPU time, the default) or 'wall'",
    )
    parser.add_argument(
        "--peer",
        action="append",
        choices=sorted(rounds.PEERS),
        help="with --compare, only the rows of this peer (repeatable) and our rates alone",
    )
    rounds.add_options(parser, rounds=5)
    args = parser.parse_args(argv)
    rounds.check_options(parser, args)
    if args.depth is not None and args.depth < 1:
        parser.error(f"--depth {args.depth} must be at least 1")
    if args.positions < 1:
        parser.error(f"--positions {args.positions} must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.compare or args.baseline or args.compiled_python or os.environ.get(rounds.VARIABLES["compiled"]):
        return compare(args)
    return check(args)


def check(args: argparse.Namespace) -> int:
    """perft of each start position against the published counts, timed once (this process)."""
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
        f"generator: Python source (native core built: {(draughts.NATIVE or {}).get('profile')}); one timing per count "
        "(speed: --compare)"
    )
    header = f"{'variant':<16}{'depth':>5}  {'convention':<10}{'leaves':>14}{'seconds':>10}{'leaves/s':>12}  check"
    print(header)
    print("-" * len(header))
    runs: list[Run] = []
    total = 0.0
    for rules in rulesets:
        depth = depth_for(rules, table, args.depth)
        for paths in conventions:
            run = timed_perft(rules, depth, paths, 1, args.clock)
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


# --- --compare: sides in processes of their own, new positions every round ---

# Run by a polydraughts side: perft of each FEN, CPU (or wall) time of the whole batch. The
# ruleset is a name, or a rule file's JSON text (the custom row). perft is draughts.perft once the
# Python API runs the native core (no Python generator left in draughts._core); until then the
# native core's own perft through draughts._core.native (a tree without it: draughts.perft).
OURS = r"""
import json, sys, time
import draughts
job = json.loads(sys.stdin.read())
now = time.process_time if job["clock"] == "cpu" else time.perf_counter
if job.get("ruleset"):
    from draughts.rules.files import ruleset_from_text
    rules = ruleset_from_text(job["ruleset"], "json")
else:
    rules = draughts.get_variant(job["variant"])
positions = [draughts.Position.from_fen(rules, fen) for fen in job["fens"]]
try:
    import draughts._core.movegen  # the Python generator: the API does not run the native core yet
    from draughts._core.native import native_rules
except ImportError:
    perft, through = draughts.perft, "draughts.perft"
else:
    native = native_rules(rules)
    def perft(position, depth):
        return native.perft(position.node, depth)
    through = "draughts._core.native.native_rules(rules).perft (the API still runs the Python generator)"
perft(draughts.Position.initial(rules), 2)  # the ruleset's tables, untimed
began = now()
counts = [perft(position, job["depth"]) for position in positions]
seconds = now() - began
print(json.dumps({"counts": counts, "seconds": seconds, "native": draughts.NATIVE, "file": draughts.__file__,
                  "library": "polydraughts", "version": draughts.__version__, "through": through}))
"""

# Run by dame-rs' interpreter: its perft (International only) of each FEN.
DAME = r"""
import importlib.metadata, json, sys, time
import dame
job = json.loads(sys.stdin.read())
now = time.process_time if job["clock"] == "cpu" else time.perf_counter
boards = [dame.Board(fen) for fen in job["fens"]]
dame.perft(boards[0], 2)  # warm, untimed
began = now()
counts = [dame.perft(board, job["depth"]) for board in boards]
seconds = now() - began
print(json.dumps({"counts": counts, "seconds": seconds, "library": "dame-rs",
                  "version": importlib.metadata.version("dame-rs")}))
"""

# Run by the peers' interpreters; each perft counts the last ply as the length of the move list.
PEER = r"""
import importlib.metadata, json, sys, time
job = json.loads(sys.stdin.read())
now = time.process_time if job["clock"] == "cpu" else time.perf_counter
kind = job["kind"]
if kind == "pydraughts":
    from draughts import Board
    def make(fen):
        return Board(job["board"], fen)
    def legal(board):
        return board.legal_moves()
else:
    import draughts
    def make(fen):
        return getattr(draughts, job["board"]).from_fen(fen)
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

if kind == "turbo":
    from draughts.engines.turbo import perft_from_board as count
else:
    count = perft
boards = [make(fen) for fen in job["fens"]]
legal(make(job["fens"][0]))  # its tables, untimed
began = now()
counts = [count(board, job["depth"]) for board in boards]
seconds = now() - began
library = "pydraughts" if kind == "pydraughts" else "py-draughts"
print(json.dumps({"counts": counts, "seconds": seconds, "library": library,
                  "version": importlib.metadata.version(library)}))
"""


class Row(NamedTuple):
    """One line of the comparison: our perft against a peer's, with the goal for the ratio."""

    variant: str
    depth: int
    peer: str  # the peer side: "py-draughts", "pydraughts", "dame-rs"; "-" for our rate alone
    kind: str  # how the peer counts: "api", "turbo", "pydraughts", "dame"
    board: str | None  # the peer's name for the variant; None = the peer lacks it
    peer_depth: int
    goal: float | None  # required ratio, None for an informative row
    label: str

    @property
    def peer_job(self) -> str:
        return f"{self.peer} {self.kind} {self.board} {self.peer_depth}"


ROWS = (
    Row("international", 5, "py-draughts", "api", "StandardBoard", 5, 2, "py-draughts 1.10.1 API"),
    Row("russian", 6, "py-draughts", "api", "RussianBoard", 6, 2, "py-draughts 1.10.1 API"),
    Row("brazilian", 6, "py-draughts", "api", "BrazilianBoard", 6, 2, "py-draughts 1.10.1 API"),
    Row("international", 5, "py-draughts", "turbo", "StandardBoard", 5, 1, "py-draughts 1.10.1 turbo"),
    Row("american", 6, "pydraughts", "pydraughts", "english", 3, 1000, "pydraughts 0.6.7"),
    Row("italian", 6, "pydraughts", "pydraughts", "italian", 3, 1000, "pydraughts 0.6.7"),
    Row("spanish", 6, "pydraughts", "pydraughts", None, 3, 1000, "pydraughts 0.6.7 (no Spanish: fastest 8x8)"),
    Row("czech", 6, "pydraughts", "pydraughts", None, 3, 1000, "pydraughts 0.6.7 (no Czech: fastest 8x8)"),
    Row("american", 6, "py-draughts", "api", "AmericanBoard", 6, None, "py-draughts 1.10.1 API (captures optional)"),
    Row("international", 8, "dame-rs", "dame", "Board", 8, 1, "dame-rs 0.2.0 perft (Rust, International only)"),
    Row("russian", 10, "-", "-", None, 10, None, "our rate alone (no peer)"),
    Row("frisian", 9, "-", "-", None, 9, None, "our rate alone (no peer)"),
    Row("turkish", 8, "-", "-", None, 8, None, "our rate alone (no peer)"),
    Row("canadian", 8, "-", "-", None, 8, None, "our rate alone (no peer)"),
    Row("custom", 8, "-", "-", None, 8, None, "our rate alone: CUSTOM (no variant has its rules)"),
)
"""The rows of the goals: depths chosen so that one side's batch of a round takes about a second
(with the Python generator; the native rows: a fraction of a second natively, several for dame-rs)."""

CUSTOM = attrs.evolve(
    draughts.get_variant("international"),
    name="custom",
    title="International board, value precedence, immediate removal, king-move limit",
    precedence=(MostValue(man=2, king=3), KingsEarliest()),
    captured_removal=CapturedRemoval.IMMEDIATE,
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,
    men_capture_kings=False,
    king_move_limit=3,
    pdn_gametype=None,
)
"""The custom row's ruleset: a point of the rule space no named variant sits on (every rule built in)."""


def ruleset_of(name: str) -> draughts.Ruleset:
    """The ruleset of a row: ``custom`` is :data:`CUSTOM`, any other name a variant."""
    return CUSTOM if name == CUSTOM.name else draughts.get_variant(name)


def round_positions(rules: draughts.Ruleset, seed: int, count: int) -> list[str]:
    """``count`` distinct positions of a round: random openings of 4 to 10 plies from ``seed``, as FENs."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        position = draughts.Position.initial(rules)
        for _ in range(rng.randint(4, 10)):
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(rng.choice(moves))
        fen = position.fen(numeric=True)
        if position.legal_moves() and fen not in fens:
            fens.append(fen)
    return fens


def compare(args: argparse.Namespace) -> int:
    """Time the sides round by round on new positions; print each row's ratio, median and range."""
    rows = [row for row in ROWS if not args.variant or row.variant in args.variant]
    if args.peer:
        rows = [row for row in rows if row.peer in args.peer or row.peer == "-"]
    if args.depth is not None:
        rows = [row._replace(depth=args.depth, peer_depth=min(row.peer_depth, args.depth)) for row in rows]
    peers = sorted({row.peer for row in rows} - {"-"})
    sides = rounds.find_sides(rounds.wanted_sides(args, peers=peers), args)
    by_name = {side.name: side for side in sides}
    ours = [side for side in sides if side.polydraughts]
    jobs = [
        f"{side.name} {variant} {depth}"
        for side in ours
        for variant, depth in dict.fromkeys((row.variant, row.depth) for row in rows)
    ]
    jobs += list(dict.fromkeys(row.peer_job for row in rows if row.board and row.peer in by_name))
    fens: dict[tuple[str, int], list[str]] = {}

    def positions(variant: str, number: int) -> list[str]:
        if (variant, number) not in fens:
            fens[variant, number] = round_positions(ruleset_of(variant), args.seed + number, args.positions)
        return fens[variant, number]

    def run(job: str, number: int) -> dict[str, Any]:
        name, *rest = job.split(" ")
        work = {"clock": args.clock, "fens": None}
        if by_name[name].polydraughts:
            variant, depth = rest[0], int(rest[1])
            text = ruleset_to_text(CUSTOM, "json") if variant == CUSTOM.name else None
            job = {**work, "variant": variant, "ruleset": text, "depth": depth, "fens": positions(variant, number)}
            return rounds.run_worker(by_name[name], OURS, job)
        kind, board, depth = rest[0], rest[1], int(rest[2])
        row = next(row for row in rows if row.peer_job == job)
        return rounds.run_worker(
            by_name[name],
            DAME if kind == "dame" else PEER,
            {**work, "kind": kind, "board": board, "depth": depth, "fens": positions(row.variant, number)},
        )

    print(
        f"perft of {args.positions} new positions per round (random openings), {args.rounds} interleaved rounds "
        f"from seed {args.seed}, every side its own process, {args.clock} time; leaves/s and ratios: median "
        "(range) over the rounds"
    )
    results = rounds.interleave(args.rounds, jobs, run)
    print(rounds.build_text(sides, results))
    for side in ours:
        first = next((found[0] for job, found in results.items() if job.startswith(f"{side.name} ") and found), {})
        print(f"  {side.name} counts through {first.get('through', '?')}")
    return report(rows, ours, results, args)


def report(
    rows: Sequence[Row], ours: Sequence[rounds.Side], results: dict[str, list[dict[str, Any]]], args: argparse.Namespace
) -> int:
    """The table of rows: each of our sides' rate against the row's peer, with the goal's verdict."""

    def rates(job: str) -> list[float]:
        return [sum(found["counts"]) / found["seconds"] for found in results[job]]

    fastest: list[float] | None = None
    pydraughts_jobs = [job for job in results if job.startswith("pydraughts ")]
    if pydraughts_jobs:
        fastest = [max(values) for values in zip(*(rates(job) for job in pydraughts_jobs), strict=True)]
    print("| variant, depth | side | leaves/s | peer | peer depth | peer leaves/s | ratio | goal | note |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | --- | --- |")
    for row in rows:
        peer: list[float] | None = None
        notes = []
        if row.peer == "-":
            for side in ours:
                mine_rates = rates(f"{side.name} {row.variant} {row.depth}")
                print(
                    f"| {row.variant} {row.depth} | {side.name} | {rounds.Spread.of(mine_rates).text('', 0)} | "
                    f"{row.label} | - | - | - | - | |"
                )
            continue
        if row.board is None:
            peer = fastest
        elif row.peer_job in results:
            peer = rates(row.peer_job)
            if row.peer_depth == row.depth and ours:
                mine = [found["counts"] for found in results[f"{ours[0].name} {row.variant} {row.depth}"]]
                theirs = [found["counts"] for found in results[row.peer_job]]
                if mine != theirs:
                    notes.append("peer's counts differ" + (" (its captures are optional)" if row.goal is None else ""))
        for side in ours:
            mine_rates = rates(f"{side.name} {row.variant} {row.depth}")
            line = (
                f"| {row.variant} {row.depth} | {side.name} | {rounds.Spread.of(mine_rates).text('', 0)} | {row.label} "
            )
            if peer is None:
                print(line + f"| - | missing | - | - | {'; '.join(notes)} |")
                continue
            spread = rounds.ratios(mine_rates, peer)
            digits = 0 if spread.median >= 100 else 2
            goal = "-" if row.goal is None else f">= {row.goal:g}x {'met' if spread.median >= row.goal else 'MISSED'}"
            if row.goal is not None and spread.median >= row.goal > spread.low:
                goal += " (not in every round)"
            print(
                line + f"| {row.peer_depth} | {rounds.Spread.of(peer).text('', 0)} | {spread.text('x', digits)} | "
                f"{goal} | {'; '.join(notes)} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
