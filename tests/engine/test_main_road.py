"""Flying-king endings: three kings holding the main road against a lone king off it (issue 38 §1).

With flying kings a small lead against a king counts a quarter (it is usually a draw), but three
kings with one on the board's main road (its one longest diagonal: a1-h8 on 8x8, 46-5 on 10x10)
against a lone king off it is the known win (Petrov's triangle), and a lone king on the road
holds the draw (RUS64 7.2.7). Before this the evaluation quartered both alike (and two kings
against one, a draw, scored half of three against one): in a match game of 2026-12-07 the engine
let three kings on the road against a lone king off it become two against one, drawn.
"""

from __future__ import annotations

import attrs
import pytest

from draughts import Position
from draughts.engine import Engine, Limit
from draughts.engine.weights import MATERIAL_ONLY, Weights, evaluate

OFF = Weights(main_road=0)

# White's three kings, one on the main road; Black's lone king on an edge square off it (a king
# on the edge cannot be captured).
HOLDS = {
    "russian": "W:WKd4,Ka3,Kc1:BKh2",
    "international": "W:WK28,K36,K49:BK3",
}


@pytest.mark.parametrize("variant", sorted(HOLDS))
def test_three_kings_on_the_road_against_a_lone_king_off_it_count_in_full(variant: str) -> None:
    position = Position.from_fen(variant, HOLDS[variant])
    full = evaluate(position) - 100  # the lead in full, and the road's weight
    assert full >= 600
    assert evaluate(position, OFF) == full // 4  # without the knowledge: a quarter (rounded down)
    # With Black to move, the lone king's side sees the same lead against it.
    black = Position.from_fen(variant, "B" + HOLDS[variant][1:])
    assert evaluate(black) <= -700


def test_a_lone_king_on_the_road_or_no_king_on_it_still_counts_a_quarter() -> None:
    on_road = Position.from_fen("russian", "W:WKd2,Ka3,Kc1:BKh8")  # the lone king holds a1-h8
    no_king_on_it = Position.from_fen("russian", "W:WKd2,Ka3,Kc1:BKh2")
    for position in (on_road, no_king_on_it):
        assert evaluate(position) == evaluate(position, OFF)
        assert evaluate(position) < 300  # a quarter of two kings' lead


def test_material_only_weights_have_no_road() -> None:
    assert MATERIAL_ONLY.main_road == 0
    position = Position.from_fen("russian", HOLDS["russian"])
    # Three kings against one, 370 each: a quarter of the lead without the road, in full with it.
    assert evaluate(position, MATERIAL_ONLY) == 740 // 4
    assert evaluate(position, attrs.evolve(MATERIAL_ONLY, main_road=100)) == 740 + 100


def test_the_engine_keeps_its_three_kings_and_the_road() -> None:
    # White to move; Black's king on g1 could take a careless king. Whatever White plays, it
    # keeps three kings, one on a1-h8, and the lone king off it: every reply scores the full lead.
    position = Position.from_fen("russian", "W:WKd4,Kb2,Kc1:BKh2")
    result = Engine(seed=0).search(position, Limit(depth=4))
    after = position.play(result.move)
    assert after.material(after.turn.opponent) == (3, 0)
    assert result.score.centi >= 600
