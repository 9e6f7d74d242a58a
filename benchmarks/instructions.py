"""Count the instructions a ply costs on the per-move path, under valgrind's callgrind.

A time taken on a shared, loaded machine moves by ten percent from one round to the next, too much
to see what a small change to the per-move path costs. An instruction count does not move: this
script runs the random playouts of ``benchmarks/playout.py`` (the same worker scripts: ``position``
is ``position.legal_moves()`` then ``position.play(choice)``, ``board`` is ``list(board.legal_moves)``
then ``board.push(choice)``) once under ``valgrind --tool=callgrind`` with ``--games`` seeded games,
and once with none (the interpreter's start, the imports and the ruleset's tables), with string
hashing seeded. The difference over the plies played is the **instructions per ply** (Ir/ply), the
same from run to run whatever else the machine does. It counts work, not time (caches and branch
prediction are not in it), so ``playout.py``'s timed rounds are still what a user gets; this tells
whether a change made a ply do more or less.

Sides, as in the other benchmarks (``benchmarks/rounds.py``): the checkout's source with its native
extension (``source``), another source tree for an A/B (``--baseline SRC``) and, with
``--compare``, py-draughts 1.10.1's ``Board`` in its own environment (``--py-draughts-python`` or
``$PY_DRAUGHTS_PYTHON``, else ``~/.cache/polydraughts-bench/py-draughts``). Needs ``valgrind`` on
the ``PATH``; a run takes a minute or two per side and path, most of it the interpreter's start.

The games default to ``playout.py``'s 400 a process: the first games of a process meet most moves
for the first time and make their ``Move`` objects (kept per ruleset after), which over 10 or 30
games adds some 2,000 instructions a ply that the timed benchmark, over 400 games, barely pays.

Usage::

    python benchmarks/instructions.py                                # International, 400 games, source
    python benchmarks/instructions.py --compare --variant russian    # and py-draughts' Board
    python benchmarks/instructions.py --baseline /path/to/other/src  # an A/B of two versions
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import playout  # the worker scripts and py-draughts' board classes
import rounds  # the shared method: sides, processes, instruction counts


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/instructions.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--variant", action="append", metavar="NAME", help="a variant (repeatable; default international)"
    )
    parser.add_argument(
        "--games", type=int, default=400, help="seeded random games per count (default 400, as playout.py's)"
    )
    parser.add_argument("--compare", action="store_true", help="also count py-draughts 1.10.1's Board")
    rounds.add_options(parser, rounds=1)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games {args.games} must be at least 1")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not on the PATH (apt-get install valgrind)")
    return args


def per_ply(side: rounds.Side, script: str, job: dict[str, object]) -> tuple[int, float]:
    """The plies ``job`` plays on ``side`` and the instructions per ply (less a run of no games)."""
    answer, total = rounds.count_instructions(side, script, job)
    _, start = rounds.count_instructions(side, script, {**job, "games": 0})
    plies = int(answer["plies"])
    return plies, (total - start) / max(plies, 1)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = ["source", *(["baseline"] if args.baseline else [])]
    sides = rounds.find_sides([*names, *(["py-draughts"] if args.compare else [])], args)
    work = {"games": args.games, "seed": args.seed, "max_plies": playout.MAX_PLIES}
    print(
        f"instructions per ply under callgrind: {args.games} seeded random games (seed {args.seed}) of at most "
        f"{playout.MAX_PLIES} plies, less a run of no games"
    )
    for variant in args.variant or ["international"]:
        for side in sides:
            if side.polydraughts:
                for path in ("position", "board"):
                    plies, cost = per_ply(side, playout.OURS, {**work, "variant": variant, "path": path})
                    print(
                        f"  {variant:<14} {side.name:<12} {path:<9} {plies:>7,} plies {cost:>10,.0f} Ir/ply", flush=True
                    )
            elif variant in playout.PEER_VARIANTS:
                job = {**work, "board": playout.PEER_VARIANTS[variant]}
                plies, cost = per_ply(side, playout.PEER, job)
                print(
                    f"  {variant:<14} {side.name:<12} {'board':<9} {plies:>7,} plies {cost:>10,.0f} Ir/ply", flush=True
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
