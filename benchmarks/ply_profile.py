"""Where a ply's time goes on the per-move path, on distinct random games.

By default (phases), each round records ``--games`` new seeded random games (every position's FEN
and the index of the move chosen), then times the same plies step by step, each step in a new
process of each side (``source``, the checkout with its native extension, and ``baseline`` for an
A/B; ``--compiled-python`` named the former mypyc build, which is gone), the rounds interleaved
as in ``benchmarks/rounds.py``:

* ``generator``: the native generator's legal moves alone (``position.generator.legal``, the
  ``Rules.legal_moves`` call, internal);
* ``legal_moves()``: the public call, which adds the ``Move`` tuple and the collection;
* ``+ play``: and ``position.play`` of the chosen move (the next position built);
* ``Board``: the whole game through ``list(board.legal_moves)`` and ``board.push`` (the move stack
  and the draw counters on top);
* ``random choice``: ``rng.choice`` of each ply's move list, what a random playout adds.

Every position is new to the process that times it (built from its FEN before the clock starts),
so no move list computed by an earlier step serves a later one. The differences between steps say
what each layer costs per ply: median (range) over the rounds, microseconds of CPU time.

``--profile`` instead runs :mod:`cProfile` (CPU time as its clock) over distinct games in this
process and lists the functions by their own time per ply; profiling adds a fixed cost to every
call, so small functions look larger than they are.

Usage::

    python benchmarks/ply_profile.py --variant international --rounds 5
    python benchmarks/ply_profile.py --baseline ../other/src --variant russian
    python benchmarks/ply_profile.py --profile --path board --top 25
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import draughts

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rounds  # the shared method: sides, processes, interleaved rounds

MAX_PLIES = 150
STEPS = ("generator", "legal_moves()", "+ play", "Board", "random choice")

# Run by each side: one step over the job's recorded plies, CPU time.
STEP = r"""
import json, random, sys, time
import draughts
job = json.loads(sys.stdin.read())
rules = draughts.get_variant(job["variant"])
step = job["step"]
games = job["games"]
draughts.Position.initial(rules).legal_moves()  # the tables, untimed
plies = sum(len(game) for game in games)
if step == "Board":
    began = time.process_time()
    for game in games:
        board = draughts.Board(rules)
        for _, choice in game:
            board.push(list(board.legal_moves)[choice])
else:
    positions = [draughts.Position.from_fen(rules, fen) for game in games for fen, _ in game]
    choices = [choice for game in games for _, choice in game]
    kept = []  # every step keeps what it made alive, as the public call's cache does
    if step == "random choice":
        lists = [position.legal_moves() for position in positions]
        rng = random.Random(0)
        began = time.process_time()
        for moves in lists:
            kept.append(rng.choice(moves))
    elif step == "generator":
        began = time.process_time()
        for position in positions:
            kept.append(position.generator.legal(*position.node, False))
    elif step == "legal_moves()":
        began = time.process_time()
        for position in positions:
            kept.append(position.legal_moves())
    else:
        began = time.process_time()
        for position, choice in zip(positions, choices):
            kept.append(position.play(position.legal_moves()[choice]))
seconds = time.process_time() - began
print(json.dumps({"plies": plies, "seconds": seconds, "native": draughts.NATIVE, "file": draughts.__file__,
                  "library": "polydraughts", "version": draughts.__version__}))
"""


def record(rules: draughts.Ruleset, games: int, seed: int) -> list[list[tuple[str, int]]]:
    """Distinct random games: for each ply the position's FEN and the index of the move played."""
    rng = random.Random(seed)
    recorded = []
    for _ in range(games):
        position = draughts.Position.initial(rules)
        game = []
        for _ in range(MAX_PLIES):
            moves = position.legal_moves()
            if not moves:
                break
            choice = rng.randrange(len(moves))
            game.append((position.fen(), choice))
            position = position.play(moves[choice])
        recorded.append(game)
    return recorded


def phases(args: argparse.Namespace) -> int:
    """The steps' cost per ply, each side and step in a process of its own, rounds interleaved."""
    rules = draughts.get_variant(args.variant)
    sides = rounds.find_sides(rounds.wanted_sides(args, peers=[]), args)
    by_name = {side.name: side for side in sides}
    recorded: dict[int, list[list[tuple[str, int]]]] = {}

    def run(job: str, number: int) -> dict[str, object]:
        if number not in recorded:
            recorded.clear()
            recorded[number] = record(rules, args.games, args.seed + number)
        name, _, step = job.partition(": ")
        work = {"variant": rules.name, "step": step, "games": recorded[number]}
        return rounds.run_worker(by_name[name], STEP, work)

    jobs = [f"{side.name}: {step}" for side in sides for step in STEPS]
    print(
        f"{rules.name}: {args.games} new random games per round, {args.rounds} interleaved round(s) from seed "
        f"{args.seed}, every (side, step) its own process, CPU time; us per ply, median (range) over the rounds"
    )
    results = rounds.interleave(args.rounds, jobs, run, progress=args.rounds > 1)
    print(rounds.build_text(sides, results))
    for side in sides:
        per_ply = {
            step: [1e6 * found["seconds"] / found["plies"] for found in results[f"{side.name}: {step}"]]
            for step in STEPS
        }
        print(f"{side.name} (plies per round: {results[f'{side.name}: Board'][0]['plies']:,}):")
        previous = None
        for step in STEPS:
            line = f"  {step:<16}{rounds.Spread.of(per_ply[step]).text(' us', 1):>28}"
            if previous is not None and step != "random choice":
                added = [a - b for a, b in zip(per_ply[step], per_ply[previous], strict=True)]
                line += f"   adds {rounds.Spread.of(added).text(' us', 1)}"
            print(line)
            previous = step
    return 0


def play(rules: draughts.Ruleset, path: str, games: int, seed: int) -> int:
    """Distinct random games along ``path``; the number of plies played."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        if path == "board":
            board = draughts.Board(rules)
            for _ in range(MAX_PLIES):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
                plies += 1
        else:
            position = draughts.Position.initial(rules)
            for _ in range(MAX_PLIES):
                choices = position.legal_moves()
                if not choices:
                    break
                position = position.play(rng.choice(choices))
                plies += 1
    return plies


def where(filename: str) -> str:
    """A short name for the module of a profiled function."""
    if filename.startswith("~") or filename == "<built-in>":
        return "(built-ins)"
    parts = Path(filename).parts
    if "draughts" in parts:
        return "/".join(parts[parts.index("draughts") :])
    return Path(filename).name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="benchmarks/ply_profile.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="international")
    parser.add_argument("--games", type=int, default=300, help="new random games per round (default 300)")
    parser.add_argument("--profile", action="store_true", help="a cProfile listing of functions instead")
    parser.add_argument("--path", choices=("position", "board"), default="position", help="with --profile")
    parser.add_argument("--top", type=int, default=20, help="functions to list with --profile (default 20)")
    rounds.add_options(parser, rounds=5)
    args = parser.parse_args(argv)
    rounds.check_options(parser, args)
    args.compare = False
    return profile(args) if args.profile else phases(args)


def profile(args: argparse.Namespace) -> int:
    """A cProfile listing of distinct games in this process: functions and modules by own time per ply."""
    rules = draughts.get_variant(args.variant)
    draughts.Position.initial(rules).legal_moves()  # the tables, unprofiled
    began = time.process_time()
    plies = play(rules, args.path, args.games, args.seed + 1000)  # other games than the profiled ones
    plain = (time.process_time() - began) / plies * 1e6
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    plies = play(rules, args.path, args.games, args.seed)
    profiler.disable()
    stats = pstats.Stats(profiler)
    rows = [
        (own, calls, where(filename), f"{name}:{line}")
        for (filename, line, name), (_, calls, own, _, _) in stats.stats.items()  # type: ignore[attr-defined]
    ]
    total = sum(own for own, *_ in rows)
    print(
        f"{rules.name}, {args.path} path, {args.games} distinct games, {plies:,} plies; "
        f"build: Python source (native core built: {(draughts.NATIVE or {}).get('profile')}); "
        f"unprofiled {plain:.1f} us per ply, "
        f"profiled {total / plies * 1e6:.1f} us"
    )
    print(f"{'us/ply':>8} {'share':>6} {'calls/ply':>9}  function")
    for own, calls, module, name in sorted(rows, reverse=True)[: args.top]:
        print(f"{own / plies * 1e6:>8.2f} {own / total:>6.1%} {calls / plies:>9.2f}  {module} {name}")
    modules: dict[str, float] = defaultdict(float)
    for own, _, module, _ in rows:
        modules[module] += own
    print(f"\n{'us/ply':>8} {'share':>6}  module")
    for module, own in sorted(modules.items(), key=lambda item: -item[1])[:12]:
        print(f"{own / plies * 1e6:>8.2f} {own / total:>6.1%}  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
