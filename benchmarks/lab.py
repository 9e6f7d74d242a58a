"""The lab's speed: games per second per worker, random and engine players, and 1-vs-2-worker speed-up.

For each kind of player (``random``; the engine at ``--depth``, default ``depth:2``) and each round
(``--rounds``), the script plays a lab run of ``--games`` games of ``--variant`` on a fresh process
pool of one worker and on a fresh pool of two, in an order that alternates between rounds; each
round and each side plays new games (the seed is the round's and the side's), so no cache built
by one run serves another (the method of ``benchmarks/rounds.py``). It prints, per player, the
median and range over the rounds of games per second per worker on one worker and on two, and of
the speed-up of two workers over one, and what the median rate means for 10,000 engine games on
one worker and on a cluster of ``--cluster-workers`` such workers at the measured two-worker
efficiency (an extrapolation: a real cluster adds scheduling and network costs, which
``benchmarks/cluster.py`` measures for Dask).

On a shared machine other people's work takes cores too, so the load average is printed with the
figures: a speed-up below 2 under load says more about the machine than about the lab.

Each game starts from its own opening of ``--openings`` random plies (default 4), the same for the
code being measured and the code it is compared with (the script runs on older versions too:
``PYTHONPATH=/path/to/old/src python benchmarks/lab.py``).

    python benchmarks/lab.py                        # Russian, 200 random and 20 depth-2 games, 3 rounds
    python benchmarks/lab.py --variant international --depth 3 --rounds 5
    python benchmarks/lab.py --quick                # CI: small, checks it runs
    python benchmarks/lab.py --compare-python /work/venv-old/bin/python --rounds 5

``--compare-python PYTHON`` measures this code against the lab of another installation (the
issue-38 baseline: the turn-3 compiled build, commit 8041631), side by side: for each variant of
``--compare-variants`` and each player (``random``, ``depth:N`` for each N of ``--compare-depths``)
and each round, the same run (same games, seeds and openings) in a fresh process of each side,
in an order that alternates between rounds. A run is in-process (no executor: one worker), timed
in the process's CPU seconds (``time.process_time``) from the tasks to the measured figures
(openings, games, records, metrics), after a warm-up run of two other games. It prints, per
variant and player, each side's games per CPU second and the ratio new/old (median [range] over
the rounds), with the plies per game of each side (the engines differ: the older one plays other
games) and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor

from draughts.lab import run_lab
from draughts.lab.runner import RandomOpenings


def timed(variant: str, games: int, player: str, workers: int, seed: int, max_plies: int, plies: int) -> float:
    """Wall-clock seconds of one lab run on a fresh pool of ``workers`` (its start-up included),
    each game from its own opening of ``plies`` random plies (0: the start position)."""
    openings = None if plies == 0 else RandomOpenings(plies, games, seed)
    # A pair of games of one opening, an engine against itself, repeat: a speed run does not mind.
    warnings.filterwarnings("ignore", message=".*repeat an earlier game")
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        figures = run_lab(
            [variant], games, players=[player], seed=seed, max_plies=max_plies, executor=pool, openings=openings
        )
    assert figures[variant].games == games
    return time.perf_counter() - start


def measure_run(variant: str, player: str, games: int, seed: int, max_plies: int, plies: int) -> dict[str, float]:
    """One in-process lab run (its tasks, games and metrics) in CPU seconds of this process, after
    a warm-up run of two other games; with the plies played. Runs on older versions too."""
    from draughts.lab.metrics import measure
    from draughts.lab.runner import lab_tasks, run_games

    warnings.filterwarnings("ignore", message=".*repeat an earlier game")

    def run(count: int, at: int) -> tuple[float, int]:
        start = time.process_time()
        openings = None if plies == 0 else RandomOpenings(plies, count, at)
        tasks = lab_tasks([variant], count, players=[player], seed=at, max_plies=max_plies, openings=openings)
        records = run_games(tasks)
        measure(records)
        return time.process_time() - start, sum(r.plies for r in records)

    run(2, seed + 7919)
    cpu, played = run(games, seed)
    return {"cpu": cpu, "plies": played, "games": games}


def measure_in(python: str | None, job: dict[str, object]) -> dict[str, float]:
    """:func:`measure_run` of ``job`` in a fresh process: ``python`` without this process's
    PYTHONPATH (another installation), or None for this interpreter and path."""
    env = dict(os.environ)
    if python is not None:
        env.pop("PYTHONPATH", None)
    command = [python or sys.executable, os.path.abspath(__file__), "--measure-run", json.dumps(job)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"{command[0]}: {done.stderr.strip()[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(args: argparse.Namespace) -> int:
    """The ``--compare-python`` table: this code's lab against another installation's."""
    players = {"random": args.games, **{f"depth:{d}": args.engine_games for d in args.compare_depths}}
    rows = []
    loads = []
    for variant in args.compare_variants:
        for player, games in players.items():
            rates: dict[str, list[float]] = {"old": [], "new": [], "ratio": [], "old plies": [], "new plies": []}
            for round_ in range(args.rounds):
                job = {
                    "variant": variant,
                    "player": player,
                    "games": games,
                    "seed": 1000 * round_ + 17,
                    "max_plies": args.max_plies,
                    "plies": args.openings,
                }
                sides = ("old", "new") if round_ % 2 == 0 else ("new", "old")
                got = {side: measure_in(args.compare_python if side == "old" else None, job) for side in sides}
                loads.append(os.getloadavg()[0])
                for side in ("old", "new"):
                    rates[side].append(games / got[side]["cpu"])
                    rates[f"{side} plies"].append(got[side]["plies"] / games)
                rates["ratio"].append(got["old"]["cpu"] / got["new"]["cpu"])
                print(
                    f"  {variant} {player} round {round_ + 1}: old {rates['old'][-1]:.4g}, new "
                    f"{rates['new'][-1]:.4g} games/CPU s, ratio {rates['ratio'][-1]:.3g}",
                    file=sys.stderr,
                )
            rows.append((variant, player, games, rates))
    if args.json:
        print(
            json.dumps(
                {
                    "rounds": args.rounds,
                    "load": [min(loads), max(loads)],
                    "figures": [{"variant": v, "player": p, "games": g, **r} for v, p, g, r in rows],
                },
                indent=2,
            )
        )
        return 0
    print(
        f"games per CPU second, in-process, {args.rounds} rounds (median [range]), old = {args.compare_python}, "
        f"load average {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} cores"
    )
    print(f"{'variant':14} {'player (games)':16} {'old':24} {'new':24} {'new/old':22} plies/game old, new")
    for variant, player, games, rates in rows:
        print(
            f"{variant:14} {f'{player} ({games})':16} {spread(rates['old']):24} {spread(rates['new']):24} "
            f"{spread(rates['ratio']):22} {statistics.median(rates['old plies']):.0f}, "
            f"{statistics.median(rates['new plies']):.0f}"
        )
    return 0


def figure(value: float) -> str:
    """Three significant digits, thousands written out (4,180, not 4.18e+03)."""
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def spread(values: list[float]) -> str:
    return f"{figure(statistics.median(values))} [{figure(min(values))}, {figure(max(values))}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="russian")
    parser.add_argument("--games", type=int, default=200, help="random games per run (default 200)")
    parser.add_argument("--engine-games", type=int, default=20, help="engine games per run (default 20)")
    parser.add_argument("--depth", type=int, default=2, help="the engine player's fixed depth (default 2)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument(
        "--openings",
        type=int,
        default=4,
        metavar="PLIES",
        help="each game from its own opening of PLIES random plies (default 4; 0: the start position, "
        "where engine games repeat)",
    )
    parser.add_argument("--cluster-workers", type=int, default=32, help="the cluster of the projection")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="20 random and 4 depth-1 games, 1 round")
    parser.add_argument("--compare-python", metavar="PYTHON", help="compare with another installation's lab")
    parser.add_argument("--compare-variants", nargs="+", default=["russian", "international"])
    parser.add_argument("--compare-depths", nargs="+", type=int, default=[2, 4])
    parser.add_argument("--measure-run", metavar="JSON", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure_run:
        print(json.dumps(measure_run(**json.loads(args.measure_run))))
        return 0
    if args.compare_python:
        return compare(args)
    if args.quick:
        args.games, args.engine_games, args.depth, args.rounds = 20, 4, 1, 1
    players = {"random": args.games, f"depth:{args.depth}": args.engine_games}
    report: dict[str, dict[str, list[float]]] = {}
    for player, games in players.items():
        rates: dict[str, list[float]] = {"1 worker": [], "2 workers": [], "speed-up": []}
        for round_ in range(args.rounds):
            order = (1, 2) if round_ % 2 == 0 else (2, 1)
            seconds = {
                w: timed(args.variant, games, player, w, 1000 * round_ + w, args.max_plies, args.openings)
                for w in order
            }
            rates["1 worker"].append(games / seconds[1])
            rates["2 workers"].append(games / seconds[2] / 2)
            rates["speed-up"].append(seconds[1] / seconds[2])
        report[player] = rates
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if args.json:
        print(json.dumps({"variant": args.variant, "load": load, "figures": report}, indent=2))
        return 0
    print(f"{args.variant}, {args.rounds} rounds, load average {load:.2f} on {os.cpu_count()} cores")
    print(f"{'player':12} {'games/s/worker, 1 worker':28} {'games/s/worker, 2 workers':28} speed-up 2 vs 1")
    for player, rates in report.items():
        print(f"{player:12} {spread(rates['1 worker']):28} {spread(rates['2 workers']):28} {spread(rates['speed-up'])}")
    engine = report[f"depth:{args.depth}"]
    rate = statistics.median(engine["1 worker"])
    efficiency = statistics.median(engine["speed-up"]) / 2
    hours = 10_000 / rate / 3600
    cluster = 10_000 / (rate * args.cluster_workers * efficiency) / 60
    print(
        f"10,000 depth:{args.depth} games of {args.variant}: {hours:.1f} h on one worker; about {cluster:.0f} min on "
        f"{args.cluster_workers} such workers at the measured two-worker efficiency ({efficiency:.0%})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
