"""CONTRIBUTING.md's walk through adding a precedence criterion is a test: its code runs as written.

The page's ``python`` code blocks are executed in order in one namespace (their own asserts check
the moves the new criterion selects); then the criterion they define is checked here against the
naive oracle of ``tests/naive.py`` on the page's position and on random positions.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import draughts
import naive
from draughts import Criterion

PAGE = Path(__file__).resolve().parents[2] / "CONTRIBUTING.md"


def code_blocks(text: str) -> list[str]:
    """The page's ```python blocks, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


@pytest.fixture(scope="module")
def walk() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "contributing_walk"}
    blocks = code_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)
    return namespace


def test_the_walk_defines_a_new_criterion_and_a_ruleset_using_it(walk: dict[str, Any]) -> None:
    criteria = [value for value in walk.values() if isinstance(value, type) and issubclass(value, Criterion)]
    new = [kind for kind in criteria if kind.__module__ == "contributing_walk"]
    assert len(new) == 1
    rules = walk["fewest"]
    assert isinstance(rules, draughts.Ruleset)
    assert [type(criterion) for criterion in rules.precedence] == new


def test_the_walk_selects_the_capture_of_fewest_pieces(walk: dict[str, Any]) -> None:
    rules = walk["fewest"]
    position = draughts.Position.from_fen(rules, walk["fen"])
    moves = position.legal_moves()
    (single,) = draughts.Position.from_fen(rules, "W:Wc3:Bb4").legal_moves()  # c3 takes b4, alone
    assert [move.identity for move in moves] == [single.identity]
    assert {move.identity for move in moves} == naive.position_identities(position)


def test_the_new_criterion_agrees_with_the_oracle_on_random_positions(walk: dict[str, Any]) -> None:
    rules = walk["fewest"]
    rng = random.Random(23)
    checked = captures = 0
    for _ in range(40):
        position = draughts.Position.initial(rules)
        for _ in range(rng.randint(4, 40)):
            moves = position.legal_moves()
            if not moves:
                break
            assert {move.identity for move in moves} == naive.position_identities(position)
            checked += 1
            captures += moves[0].is_capture
            position = position.play(rng.choice(moves))
    assert checked > 500
    assert captures > 50
