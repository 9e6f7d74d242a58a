"""Play the engine's levels against each other and print a score table.

Each pairing plays ``--games`` games per variant (default 20): ``games / 2`` openings, each played
twice with colours swapped. An opening is ``--opening-plies`` random legal plies (default 2)
chosen with ``random.Random(seed)``; the engines are seeded per game too, so every run with the
same arguments plays the same games (the levels use depth and node limits, never time). A game
ends by the rules (:meth:`draughts.Board.outcome`: no move left, repetition, move-count and
endgame draws) or, after ``--max-plies`` plies (default 200), is adjudicated a draw.

Usage::

    python tools/level_match.py                        # russian and italian, 20 games per pairing
    python tools/level_match.py --variants international --games 10 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import attrs

from draughts.board import Board
from draughts.color import Color
from draughts.engine import LEVELS, get_level
from draughts.rules.names import get_variant


@attrs.frozen
class GameResult:
    """One game of a match, from the first level's side."""

    variant: str
    first: str
    second: str
    first_color: Color
    opening_seed: int
    winner: str | None
    """The winning level's name, or None for a draw."""
    reason: str
    plies: int


def play_game(
    variant: str, first: str, second: str, first_color: Color, seed: int, opening_plies: int, max_plies: int
) -> GameResult:
    """Play one game between two levels; ``first`` has ``first_color``."""
    rules = get_variant(variant)
    board = Board(rules)
    opening = random.Random(seed)
    for _ in range(opening_plies):
        if board.outcome() is not None:
            break
        board.push(opening.choice(board.legal_moves))
    engines = {
        first_color: get_level(first).engine(seed=2 * seed + 1),
        first_color.opponent: get_level(second).engine(seed=2 * seed + 2),
    }
    names = {first_color: first, first_color.opponent: second}
    while True:
        outcome = board.outcome()
        if outcome is not None:
            winner = None if outcome.winner is None else names[outcome.winner]
            return GameResult(variant, first, second, first_color, seed, winner, outcome.rule, len(board))
        if len(board) >= max_plies:
            reason = f"adjudicated at {max_plies} plies"
            return GameResult(variant, first, second, first_color, seed, None, reason, len(board))
        result = engines[board.turn].search(board)
        assert result.move is not None
        board.push(result.move)


def _play(job: tuple[str, str, str, Color, int, int, int]) -> GameResult:
    return play_game(*job)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", nargs="+", default=["russian", "italian"])
    parser.add_argument(
        "--pairings",
        nargs="+",
        default=["beginner:intermediate", "intermediate:strong"],
        help="LOWER:HIGHER level names",
    )
    parser.add_argument("--games", type=int, default=20, help="games per pairing and variant (even)")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1, help="first opening seed")
    parser.add_argument("--rst", action="store_true", help="print the table as reStructuredText")
    args = parser.parse_args(argv)
    pairings = [tuple(text.split(":", 1)) for text in args.pairings]
    for pair in pairings:
        for name in pair:
            if name not in LEVELS:
                parser.error(f"unknown level {name!r}; levels: {', '.join(LEVELS)}")
    jobs = []
    for variant in args.variants:
        get_variant(variant)
        for lower, higher in pairings:
            for index in range(args.games // 2):
                seed = args.seed + index
                for color in (Color.WHITE, Color.BLACK):
                    jobs.append((variant, higher, lower, color, seed, args.opening_plies, args.max_plies))
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(_play, jobs))
    seconds = time.perf_counter() - started

    rows = []
    for variant in args.variants:
        for lower, higher in pairings:
            games = [r for r in results if r.variant == variant and r.first == higher and r.second == lower]
            wins = sum(r.winner == higher for r in games)
            losses = sum(r.winner == lower for r in games)
            draws = len(games) - wins - losses
            score = wins + draws / 2
            adjudicated = sum(r.reason.startswith("adjudicated") for r in games)
            plies = sum(r.plies for r in games) / max(1, len(games))
            rows.append(
                (
                    variant,
                    f"{higher} vs {lower}",
                    str(len(games)),
                    f"{wins}-{draws}-{losses}",
                    f"{score:g}-{len(games) - score:g}",
                    f"{100 * score / max(1, len(games)):.0f}%",
                    f"{plies:.0f}",
                    str(adjudicated),
                )
            )
    header = ("variant", "pairing (higher vs lower)", "games", "W-D-L", "score", "higher %", "avg plies", "adjud.")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    if args.rst:
        rule = "  ".join("=" * width for width in widths)
        print(rule)
        print("  ".join(cell.ljust(width) for cell, width in zip(header, widths, strict=True)))
        print(rule)
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
        print(rule)
    else:
        print("  ".join(cell.ljust(width) for cell, width in zip(header, widths, strict=True)))
        print("  ".join("-" * width for width in widths))
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    print(f"\n{len(results)} games in {seconds:.0f} s ({args.jobs} jobs)")
    used = {name for pair in pairings for name in pair}
    for name, level in LEVELS.items():
        if name in used:
            print(f"  {name}: {level.description}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
