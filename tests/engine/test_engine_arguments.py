"""Engine arguments are checked when the engine is built, not at the first search (issue 40 item 19)."""

from __future__ import annotations

import pytest

import draughts
from draughts.engine import Engine, InvalidWeightsError, Limit, Weights


@pytest.mark.parametrize("weights", ["x", {"contact": 5}, None, 3])
def test_weights_that_are_not_weights_are_refused_at_construction(weights: object) -> None:
    with pytest.raises(InvalidWeightsError, match="Engine weights") as caught:
        Engine(weights=weights)  # type: ignore[arg-type]
    assert isinstance(caught.value, draughts.DraughtsError)
    if isinstance(weights, str):
        assert repr(weights) in str(caught.value)


def test_setting_bad_weights_later_is_refused_and_the_engine_keeps_its_own() -> None:
    engine = Engine(weights=Weights(contact=5))
    with pytest.raises(InvalidWeightsError):
        engine.weights = "x"  # type: ignore[assignment]
    assert engine.weights == Weights(contact=5)
    result = engine.search(draughts.Board("russian"), Limit(depth=2))
    assert result.move is not None
