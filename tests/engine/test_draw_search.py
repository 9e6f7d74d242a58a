"""The draw rules inside the search (issue 38 §1): a line the move-count or endgame rules end in a
draw scores as a draw, from the board's counts; a position starts from zero.

Each position is searched twice from a board: once with its draw counts at zero, once with the
counts a FEN's halfmove clock (``:H<n>``) restores near a limit. Before the search carried the
counts, both searches gave the same score."""

from __future__ import annotations

import draughts
from draughts import Board
from draughts.engine import MATE, Engine, Limit
from draughts.engine.weights import Weights

KINGS_ONLY = "W:WKd8,Kf4,Kd2:BKb2,Kd4"
"""Three White kings against two (RUS64 7.2.6 needs 30 moves each here): a king up, no capture
within two plies."""
TRAPPED = "W:WKd8,Kf6:BKh8"
"""Two White kings against a lone king (RUS64 7.2.8: drawn after 5 moves each): White wins by
force, taking the lone king on its second move (three plies), one ply too late at 8 plies of
the count."""


def _board(fen: str, halfmoves: int) -> Board:
    return Board("russian", f"{fen}:H{halfmoves}:F40")


def test_the_king_move_rule_draws_a_line_of_king_moves() -> None:
    # RUS64 7.2.5: 15 moves each with only kings moved. At 28 plies of king moves the game is
    # drawn two plies on, whatever is played: the search sees it.
    free = Engine(seed=0).search(_board(KINGS_ONLY, 0), Limit(depth=6))
    assert free.value >= 150  # a king up, the rule far away
    near = Engine(seed=0).search(_board(KINGS_ONLY, 28), Limit(depth=6))
    assert _board(KINGS_ONLY, 28).counters.move_counts == (28,)
    assert near.value == 0


def test_an_endgame_rule_ends_the_only_win_before_it_lands() -> None:
    # RUS64 7.2.8: two kings against one draw after 5 moves each (10 plies). White's win takes
    # more than the one move left at 8 plies.
    free = Engine(seed=0).search(_board(TRAPPED, 0), Limit(depth=8))
    assert free.mate_in is not None
    assert free.mate_in >= 3
    assert free.value > MATE - 100
    near = Engine(seed=0).search(_board(TRAPPED, 8), Limit(depth=8))
    assert near.value == 0
    assert near.mate_in is None
    # One ply more in hand (7 plies of the count), and the win fits again.
    assert Engine(seed=0).search(_board(TRAPPED, 10 - free.mate_in), Limit(depth=8)).value == free.value


def test_a_position_is_searched_from_zero() -> None:
    near = _board(KINGS_ONLY, 28)
    from_position = Engine(seed=0).search(near.position, Limit(depth=6))
    free = Engine(seed=0).search(_board(KINGS_ONLY, 0), Limit(depth=6))
    assert (from_position.value, from_position.move) == (free.value, free.move)


def test_the_table_does_not_mix_counts_near_a_limit() -> None:
    # One engine, one table kept between searches: the search near the limit does not read the
    # scores of the same positions found far from it, nor the other way round. (Without the main
    # road's weight: with it, White's capture leads to three kings on the road against one, which
    # counts in full, and the second free search grafts a deeper line of the kept table there
    # (862 against 860): the table at work, not counts mixed, which would score 0.)
    engine = Engine(seed=0, weights=Weights(main_road=0))
    free = engine.search(_board(KINGS_ONLY, 0), Limit(depth=6))
    assert engine.search(_board(KINGS_ONLY, 28), Limit(depth=6)).value == 0
    again = engine.search(_board(KINGS_ONLY, 0), Limit(depth=6))
    assert again.value == free.value
    # With the road: still a king up and more, never the near search's 0.
    engine = Engine(seed=0)
    free = engine.search(_board(KINGS_ONLY, 0), Limit(depth=6))
    assert engine.search(_board(KINGS_ONLY, 28), Limit(depth=6)).value == 0
    assert engine.search(_board(KINGS_ONLY, 0), Limit(depth=6)).value >= free.value - 10 > 0


def test_rules_without_counts_search_as_before() -> None:
    # American checkers has a claimed move-count rule only: nothing is carried, and a board's
    # counts change nothing.
    fen = "W:WK1,K5,K9:BK32,K28"
    rules = draughts.get_variant("american")
    assert all(rule.claim for rule in rules.draw_rules.move_counts)
    plain = Engine(seed=0).search(Board(rules, fen), Limit(depth=6))
    counted = Engine(seed=0).search(Board(rules, fen + ":H60"), Limit(depth=6))
    assert (plain.value, plain.nodes) == (counted.value, counted.nodes)
