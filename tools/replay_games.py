"""Replay every game of a folder of PDN collections and report, per variant, what came through.

Usage::

    python tools/replay_games.py /path/to/games            # one sub-folder per variant
    python tools/replay_games.py /path/to/games --quiet    # the table only
    python tools/replay_games.py /path/to/games --check-targets --notes

Each sub-folder is named after a variant (``english`` means American checkers); every ``*.pdn`` in
it is read with :func:`draughts.pdn.read_games` and ``errors="skip"``, so a bad game is reported
and skipped. Every game read is replayed again on a :class:`draughts.Board` (each move must be
legal), written with :func:`draughts.pdn.write_game` and read back, which must give the same
moves, result, start position and tags. Where the rules end a game in its last position
(:meth:`draughts.Board.outcome`) and the file gives a result, the two must name the same winner:
the ``ended`` column counts those games, and each disagreement is listed. The exit status is 1 if
a round trip fails, a result disagrees with the rules or, with ``--check-targets``, a variant has
fewer fully legal games than the issue asks for of the full collection (``TARGETS``), else 0.

Standard library and ``draughts`` only.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

try:
    import draughts
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import draughts

from draughts import pdn

FOLDER_VARIANTS = {"english": "american"}
"""Folder names that are not variant names."""

TARGETS = {
    "international": 721,
    "american": 864,
    "italian": 307,
    "russian": 821,
    "brazilian": 25,
    "czech": 286,
}
"""Games with moves, every move legal, that the issue requires per variant (with errors="skip")."""


class Tally:
    """What came through for one variant."""

    def __init__(self) -> None:
        self.files = 0
        self.read = 0
        self.legal = 0
        self.empty = 0
        self.skipped: list[str] = []
        self.round_trips = 0
        self.round_trip_failures: list[str] = []
        self.ended = 0
        self.result_disagreements: list[str] = []
        self.notes: list[str] = []
        self.seconds = 0.0


def same_game(game: pdn.Game, again: pdn.Game) -> str | None:
    """Why ``again`` (read back from ``write_game(game)``) differs from ``game``, or None."""
    if again.mainline_moves() != game.mainline_moves():
        return "moves differ"
    if again.result != game.result:
        return f"result {again.result!r} != {game.result!r}"
    if again.position != game.position:
        return "start positions differ"
    if again.headers != game.export_headers():
        return f"tags differ: {again.headers!r} != {game.export_headers()!r}"
    if not again.same_tree(game):
        return "comments, NAGs or variations differ"
    return None


def replay_file(path: Path, variant: str, tally: Tally) -> None:
    """Read, replay and round-trip every game of ``path`` into ``tally``."""
    tally.files += 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", pdn.PDNWarning)
        for game in pdn.read_games(path, variant, errors="skip"):
            tally.read += 1
            outcome = game.end().board().outcome()  # the board raises if a move is not legal in turn
            if outcome is not None and pdn.normalise_result(game.result) not in (None, "*"):
                tally.ended += 1
                if outcome.winner != game.winner:
                    tally.result_disagreements.append(
                        f"{path.name}: game {game.index}: result {game.result} but the rules say {outcome.result}"
                        f" ({outcome.rule})"
                    )
            if game.mainline_moves():
                tally.legal += 1
            else:
                tally.empty += 1
            tally.notes.extend(f"{path.name}: game {game.index}: {note}" for note in game.warnings)
            text = pdn.write_game(game)
            try:
                again = pdn.parse_game(text, game.ruleset)
                reason = same_game(game, again)
            except draughts.DraughtsError as error:
                reason = f"written game does not read back: {error}"
            if reason is None:
                tally.round_trips += 1
            else:
                tally.round_trip_failures.append(f"{path.name}: game {game.index}: {reason}")
    for warning in caught:
        if issubclass(warning.category, pdn.PDNWarning):
            message = str(warning.message).removeprefix("skipped ")
            tally.skipped.append(f"{path.name}: {message}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder with one sub-folder of .pdn files per variant")
    parser.add_argument("--quiet", action="store_true", help="print the table only")
    parser.add_argument("--notes", action="store_true", help="also list what the reader worked around")
    parser.add_argument(
        "--check-targets", action="store_true", help="fail (exit 1) if a variant has fewer legal games than TARGETS"
    )
    args = parser.parse_args(argv)

    tallies: dict[str, Tally] = {}
    for folder in sorted(path for path in args.folder.iterdir() if path.is_dir()):
        variant = FOLDER_VARIANTS.get(folder.name, folder.name)
        try:
            draughts.get_variant(variant)
        except draughts.UnknownVariantError:
            print(f"{folder.name}: not a variant name, skipped", file=sys.stderr)
            continue
        files = sorted(folder.glob("*.pdn"))
        if not files:
            continue
        tally = tallies.setdefault(variant, Tally())
        started = time.perf_counter()
        for path in files:
            replay_file(path, variant, tally)
        tally.seconds += time.perf_counter() - started

    header = (
        f"{'variant':<14}{'files':>6}{'read':>7}{'legal':>7}{'empty':>7}{'skipped':>9}{'round trip':>12}"
        f"{'ended':>7}{'target':>8}{'seconds':>9}"
    )
    print(header)
    print("-" * len(header))
    failed = False
    totals = [0] * 6
    for variant, tally in tallies.items():
        target = TARGETS.get(variant)
        short = args.check_targets and target is not None and tally.legal < target
        failed |= short or bool(tally.round_trip_failures) or bool(tally.result_disagreements)
        mark = "" if target is None else (f"{target}{' !' if short else ''}")
        print(
            f"{variant:<14}{tally.files:>6}{tally.read:>7}{tally.legal:>7}{tally.empty:>7}{len(tally.skipped):>9}"
            f"{f'{tally.round_trips}/{tally.read}':>12}{tally.ended:>7}{mark:>8}{tally.seconds:>9.1f}"
        )
        for index, value in enumerate(
            (tally.files, tally.read, tally.legal, tally.empty, len(tally.skipped), tally.round_trips)
        ):
            totals[index] += value
    print("-" * len(header))
    n_files, n_read, n_legal, n_empty, n_skipped, n_trips = totals
    print(f"{'total':<14}{n_files:>6}{n_read:>7}{n_legal:>7}{n_empty:>7}{n_skipped:>9}{f'{n_trips}/{n_read}':>12}")
    print()
    print("read: games read; legal: games with moves, every move legal; empty: games read without moves;")
    print("skipped: games the reader rejected; round trip: write_game then read back gives the same game;")
    print("ended: games with a result whose last position ends the game by the rules (the winners must agree).")
    if not args.quiet:
        for variant, tally in tallies.items():
            if tally.skipped:
                print(f"\n{variant}: skipped games")
                for message in tally.skipped:
                    print(f"  {message}")
            if tally.result_disagreements:
                print(f"\n{variant}: results the rules contradict")
                for message in tally.result_disagreements:
                    print(f"  {message}")
            if tally.round_trip_failures:
                print(f"\n{variant}: round trips that failed")
                for message in tally.round_trip_failures:
                    print(f"  {message}")
            if args.notes and tally.notes:
                print(f"\n{variant}: worked around")
                for message in tally.notes:
                    print(f"  {message}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
