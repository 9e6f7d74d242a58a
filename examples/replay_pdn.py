"""Replay a PDN file: read every game, check every move, print a summary and the final positions.

Usage: ``python examples/replay_pdn.py [FILE [VARIANT]]`` (VARIANT: the rules of the games, for games
without a GameType tag; by default each game's GameType decides, else International draughts).
"""

from __future__ import annotations

import io
import sys
import warnings

from draughts import pdn

# Two short games, so the example runs without a file; pass a path to replay your own.
SAMPLE = """
[Event "Example"]
[White "A"]
[Black "B"]
[GameType "20"]
[Result "*"]
1. 32-28 19-23 2. 28x19 14x23 3. 33-28 {the exchange goes on} 3... 23x32 4. 37x28 *

[Event "Example"]
[White "C"]
[Black "D"]
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 1-0
"""


def main(argv: list[str]) -> int:
    source = argv[1] if len(argv) > 1 else io.StringIO(SAMPLE)
    variant = argv[2] if len(argv) > 2 else None
    with warnings.catch_warnings(record=True) as skipped:
        warnings.simplefilter("always")
        games = list(pdn.read_games(source, ruleset=variant, errors="skip"))
    for number, game in enumerate(games, 1):
        board = game.end().board()
        players = f"{game.headers.get('White', '?')} - {game.headers.get('Black', '?')}"
        plies = len(game.mainline_moves())
        print(f"game {number}: {players} ({game.ruleset.name}), {plies} plies, result {game.result}")
        print("  " + " ".join(board.history_text()))
        print("  final position:", board.fen())
        outcome = board.outcome()
        if outcome is not None:
            print(f"  ended: {outcome.result} ({outcome.rule})")
    for warning in skipped:
        print(f"skipped: {warning.message}")
    print(f"{len(games)} games replayed, {len(skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
