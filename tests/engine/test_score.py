"""draughts.engine.score: order, negation, the %eval text and the win probability scale."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from draughts.engine import MATE
from draughts.engine.score import InvalidScoreError, Score, winning_chances
from draughts.errors import DraughtsError

scores = st.one_of(
    st.integers(-50_000, 50_000).map(Score.cp),
    st.integers(1, 500).map(Score.win),
    st.integers(1, 500).map(Score.loss),
)


def test_order_as_a_player_prefers() -> None:
    ranked = [Score.loss(2), Score.loss(20), Score.cp(-900), Score.cp(0), Score.cp(40), Score.win(30), Score.win(3)]
    import random

    shuffled = ranked[:]
    random.Random(1).shuffle(shuffled)
    assert sorted(shuffled) == ranked
    assert max(ranked) == Score.win(3)
    assert min(ranked) == Score.loss(2)


@given(scores)
def test_text_round_trip_and_negation(score: Score) -> None:
    assert Score.parse(score.text()) == score
    assert (-score).text() != score.text() or score == Score.cp(0)
    assert -score.__neg__() == score
    assert Score.from_search(score.to_search()) == score
    assert math.isclose((-score).winning_chances(), -score.winning_chances(), abs_tol=1e-12)


def test_search_scores() -> None:
    assert Score.from_search(MATE - 7) == Score.win(7)
    assert Score.from_search(-(MATE - 4)) == Score.loss(4)
    assert Score.from_search(-MATE) == Score.loss(1)
    assert Score.from_search(123) == Score.cp(123)


def test_lidraughts_scale() -> None:
    assert winning_chances(0) == 0
    assert math.isclose(Score.cp(250).winning_chances(), 2 / (1 + math.exp(-1)) - 1)
    assert Score.win(9).winning_chances() == 1
    assert Score.loss(9).win_probability() == 0
    assert Score.cp(0).win_probability() == 0.5


def test_tablebase_verdicts_are_exact() -> None:
    assert Score.from_verdict("win", 11) == Score.win(11)
    assert Score.from_verdict("win", 11).exact
    draw = Score.from_verdict("draw", None)
    assert draw.exact
    assert draw == Score.cp(0)
    with pytest.raises(InvalidScoreError, match="'maybe'"):
        Score.from_verdict("maybe", 3)


@pytest.mark.parametrize("text", ["", "1.234", "#0", "-#3", "nan", "1e3", "0.5x", "#", "١.٢"])
def test_bad_texts_are_refused_quoting_them(text: str) -> None:
    with pytest.raises(DraughtsError) as info:
        Score.parse(text)
    assert repr(text)[1:-1][:10] in str(info.value)


def test_parsing() -> None:
    assert Score.parse("0.5") == Score.cp(50)
    assert Score.parse("-1.05") == Score.cp(-105)
    assert Score.parse("+2") == Score.cp(200)
    assert Score.parse("#+3") == Score.win(3)
    assert Score.parse("#-4") == Score.loss(4)
