"""The board page's FEN field suggests a FEN of the variant shown (issue 40 §6): on the Russian
page an International example errors when typed in."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

import draughts
from draughts.web.app import create_app
from draughts.web.rulesets import RulesetRegistry
from draughts.web.views import fen_example

SMALL = {"workers": 1, "engine_workers": 1, "work_time": 120.0}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(default_variant="russian", **SMALL)) as test_client:
        yield test_client


def placeholder(page: str) -> str:
    found = re.search(r'id="fen-input" placeholder="([^"]*)"', page)
    assert found is not None, "no FEN field"
    return html.unescape(found.group(1))


@pytest.mark.parametrize(
    ("variant", "example"),
    [
        ("russian", "FEN, e.g. W:Wa3,c3:Bb8,d8"),  # algebraic squares
        ("international", "FEN, e.g. W:W31-50:B1-20"),
        ("american", "FEN, e.g. B:W21-32:B1-12"),  # Black moves first
        ("canadian", "FEN, e.g. W:W43-72:B1-30"),
    ],
)
def test_the_placeholder_is_the_variants(client: TestClient, variant: str, example: str) -> None:
    assert placeholder(client.get("/", params={"variant": variant}).text) == example


def test_every_menu_variant_accepts_its_own_example(client: TestClient) -> None:
    """The example of every variant of the menu is a FEN the page's Set position accepts."""
    for rules in RulesetRegistry().menu():
        example = fen_example(rules)
        assert len(example) <= 40, (rules.name, example)
        draughts.Position.from_fen(rules, example)
        response = client.post("/api/games", json={"variant": rules.name, "fen": example})
        assert response.status_code == 201, (rules.name, example, response.text)


def test_the_variant_json_carries_it(client: TestClient) -> None:
    state = client.post("/api/games", json={"variant": "czech"}).json()
    assert state["variant"]["fen_example"] == "W:Wa3,c3:Bb8,d8"
