"""Random self-play: play random legal moves in every variant until each game ends by its own rules."""

from __future__ import annotations

import random

import draughts


def play_random_game(variant: str, seed: int, max_plies: int = 400) -> draughts.Board:
    """A game of random legal moves, stopped by the variant's end rules (or after ``max_plies``)."""
    rng = random.Random(seed)
    board = draughts.Board(variant)
    while board.outcome() is None and len(board) < max_plies:
        board.push(rng.choice(board.legal_moves))
    return board


def main() -> None:
    names = [*draughts.VARIANTS, "american-nfc"]
    print(f"{'variant':<16}{'plies':>6}  {'result':<8}  reason")
    for seed, name in enumerate(names):
        board = play_random_game(name, seed)
        outcome = board.outcome()
        reason = "move limit reached" if outcome is None else outcome.rule
        print(f"{name:<16}{len(board):>6}  {board.result():<8}  {reason}")


if __name__ == "__main__":
    main()
