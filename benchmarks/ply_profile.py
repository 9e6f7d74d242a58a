"""Where a ply's time goes on the per-move path: a profile of distinct random games.

Plays ``--games`` distinct seeded random games (as ``benchmarks/playout.py`` does, every game new,
nothing replayed) through ``Position`` or ``Board`` under :mod:`cProfile` with the process's CPU
time as its clock, and prints, per ply, the time spent inside each function (its own time, callees
excluded) and the total of each module, largest first. Profiling adds a fixed cost to every call,
so small functions look larger than they are; the shares say where to look, the plain timings of
``benchmarks/playout.py`` say how fast it is.

Usage::

    python benchmarks/ply_profile.py --variant international --path position --games 300
    python benchmarks/ply_profile.py --path board --top 25
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

MAX_PLIES = 150


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
    parser = argparse.ArgumentParser(prog="benchmarks/ply_profile.py", description=__doc__)
    parser.add_argument("--variant", default="international")
    parser.add_argument("--path", choices=("position", "board"), default="position")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=20, help="functions to list (default 20)")
    args = parser.parse_args(argv)
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
        f"build: {'compiled (mypyc)' if draughts.COMPILED else 'Python source'}; unprofiled {plain:.1f} us per ply, "
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
