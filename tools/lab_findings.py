"""The figures of docs/lab_findings.rst: the seven federation variants and their no-forced-capture
forms, played by random players and by the engine at a fixed depth.

    python tools/lab_findings.py [--random-games 500] [--engine-games 24] [--depth 2] [--workers 1]

Writes into docs/_static/lab/: for each kind of player (``random``, ``engine``) a summary table as
reStructuredText (``PLAYER-summary.inc``, included by the page), the full side-by-side tables
(``PLAYER.txt``, one per variant: the federation form against its -nfc form), the CSV of every
metric (``PLAYER.csv``) and the plots (``PLAYER-federation-*.svg``, ``PLAYER-nfc-*.svg``,
``PLAYER-first_player_score.svg``); and ``run.txt`` with the sizes, seeds and times.

The fixed-depth engine has no randomness, so every engine game would be the same one: each of its
games starts from its own opening of four random plies (seeded, distinct, one set per ruleset); the
engine plays itself, so colours need no swapping. Random players start from the start position.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import Executor
from pathlib import Path

import attrs

from draughts.board import Board
from draughts.lab import Opening, RulesetMetrics, game_seed, lab_tasks, measure, run_games, run_lab
from draughts.lab.plots import FILES, branching_curves, length_histograms, score_plot
from draughts.lab.report import compare, table_csv, table_text
from draughts.rules.variants import FEDERATION_VARIANTS

OUT = Path(os.environ.get("LAB_FINDINGS_OUT") or Path(__file__).resolve().parent.parent / "docs" / "_static" / "lab")
SEED = 2026


def openings(ruleset: str, count: int, plies: int = 4) -> list[Opening]:
    """``count`` distinct openings of ``plies`` random plies from the start position, seeded by
    the ruleset's name (each one leaves the game going)."""
    chooser = random.Random(game_seed(SEED, ruleset, 0, 9))
    found: dict[tuple[str, ...], Opening] = {}
    while len(found) < count:
        board = Board(ruleset)
        moves = []
        for _ in range(plies):
            legal = list(board.legal_moves())
            move = legal[chooser.randrange(len(legal))]
            moves.append(board.move_text(move, long=True))
            board.push(move)
        if board.outcome() is None:
            found.setdefault(tuple(moves), Opening(tuple(moves)))
    return list(found.values())


def _cell(metrics: RulesetMetrics, key: str, digits: int, mark: bool) -> str:
    e = getattr(metrics, key)
    star = " \\*" if mark else ""
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]{star}"


SUMMARY = (
    ("first_player_score", "first player's score", 3),
    ("draw_rate", "draws", 3),
    ("plies_mean", "plies", 1),
    ("branching_factor", "branching", 2),
    ("capture_share", "capture share", 3),
    ("decision_share", "decision share", 3),
)


def summary_rst(figures: dict[str, RulesetMetrics], title: str) -> str:
    """A list-table: a row per ruleset, the summary metrics as columns; an -nfc row marks (\\*)
    where it differs from its federation form (report.compare of the pair, Holm within the pair)."""
    lines = [f".. list-table:: {title}", "   :header-rows: 1", "   :stub-columns: 1", ""]
    lines.append("   * - ruleset")
    lines.extend(f"     - {label}" for _, label, _ in SUMMARY)
    for name, metrics in figures.items():
        marks: dict[str, bool] = {}
        if name.endswith("-nfc"):
            base = name.removesuffix("-nfc")
            pair = compare({base: figures[base], name: metrics})
            marks = {key: pair.row(key).cells[1].significant for key, _, _ in SUMMARY}
        lines.append(f"   * - {name}")
        lines.extend(f"     - {_cell(metrics, key, digits, marks.get(key, False))}" for key, _, digits in SUMMARY)
    return "\n".join(lines) + "\n"


def write(player: str, figures: dict[str, RulesetMetrics]) -> None:
    """Every file of one kind of player (see the module)."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{player}-summary.inc").write_text(summary_rst(figures, f"{player} players"), encoding="utf-8")
    tables = [table_text(compare({v: figures[v], f"{v}-nfc": figures[f"{v}-nfc"]})) for v in FEDERATION_VARIANTS]
    (OUT / f"{player}.txt").write_text("\n".join(tables), encoding="utf-8")
    (OUT / f"{player}.csv").write_text(table_csv(compare(figures)), encoding="utf-8")
    for group, names in (("federation", FEDERATION_VARIANTS), ("nfc", [f"{v}-nfc" for v in FEDERATION_VARIANTS])):
        part = {n: figures[n] for n in names}
        (OUT / f"{player}-{group}-{FILES['lengths']}").write_text(length_histograms(part), encoding="utf-8")
        (OUT / f"{player}-{group}-{FILES['branching']}").write_text(branching_curves(part), encoding="utf-8")
    (OUT / f"{player}-{FILES['score']}").write_text(score_plot(figures), encoding="utf-8")


def engine_run(
    names: list[str], games: int, depth: int, max_plies: int, executor: Executor | None
) -> dict[str, RulesetMetrics]:
    """The engine's self-play games: one opening per game (the engine plays itself without
    randomness, so an opening played twice would give the same game twice)."""
    tasks = lab_tasks(names, games, players=[f"depth:{depth}"], seed=SEED, max_plies=max_plies)
    starts = {n: openings(n, games) for n in names}
    tasks = [attrs.evolve(t, opening=starts[t.ruleset][t.index], opening_index=t.index) for t in tasks]
    records = run_games(tasks, executor=executor)
    return {n: measure([r for r in records if r.ruleset == n]) for n in names}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=500)
    parser.add_argument("--engine-games", type=int, default=24)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    names = [n for v in FEDERATION_VARIANTS for n in (v, f"{v}-nfc")]
    executor = None
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(args.workers)
    log = []
    start = time.process_time(), time.perf_counter()
    figures = run_lab(names, args.random_games, seed=SEED, max_plies=args.max_plies, executor=executor)
    write("random", figures)
    spent = time.perf_counter() - start[1]
    log.append(f"random: {args.random_games} games per ruleset, seed {SEED}, cap {args.max_plies}: {spent:.0f} s")
    print(log[-1], file=sys.stderr)
    at = time.perf_counter()
    engine = engine_run(names, args.engine_games, args.depth, args.max_plies, executor)
    write("engine", engine)
    spent = time.perf_counter() - at
    log.append(
        f"engine depth:{args.depth}: {args.engine_games} games per ruleset, each from its own opening of "
        f"4 random plies, seed {SEED}, cap {args.max_plies}: {spent:.0f} s"
    )
    print(log[-1], file=sys.stderr)
    log.append(f"workers {args.workers}; main process CPU {time.process_time() - start[0]:.0f} s")
    (OUT / "run.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    if executor is not None:
        executor.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
