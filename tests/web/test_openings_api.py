"""The web board's ballots: ``GET /api/openings`` lists a variant's ballots and one ballot's openings;
``POST /api/games/{id}/opening`` starts the game from an opening, its moves the game's first moves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from draughts import openings
from draughts.web.app import create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(default_variant="russian", workers=1, engine_workers=1, work_time=120.0)) as test_client:
        yield test_client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def test_the_api_lists_a_variants_ballots_and_a_ballots_openings(client: TestClient) -> None:
    listing = ok(client.get("/api/openings", params={"variant": "english"}))
    assert listing["variant"] == "american"
    assert [(b["name"], b["count"]) for b in listing["ballots"]] == [
        ("acf-3-move", 156),
        ("acf-3-move-144", 144),
        ("acf-3-move-174", 174),
        ("2-move", 47),
        ("11-man", 2400),
    ]
    assert all("facts" in b["licence"] for b in listing["ballots"])
    deck = ok(client.get("/api/openings", params={"variant": "american", "ballot": "acf-3-move"}))
    assert len(deck["openings"]) == deck["count"] == 156
    assert deck["openings"][3] == {
        "name": "5",
        "title": "Dreaded Edinburgh",
        "moves": ["9-13", "22-18", "6-9"],
        "start_fen": None,
        "setup": "",
    }
    assert ok(client.get("/api/openings", params={"variant": "international"}))["ballots"] == []
    endpoints = ok(client.get("/api"))["endpoints"]
    assert "GET /api/openings" in endpoints
    assert "POST /api/games/{game_id}/opening" in endpoints


def test_an_unknown_ballot_or_opening_is_a_400_quoting_it(client: TestClient) -> None:
    response = client.get("/api/openings", params={"variant": "russian", "ballot": "tablitsa"})
    assert response.status_code == 400
    assert "'tablitsa'" in response.json()["error"]
    game = ok(client.post("/api/games", json={"variant": "russian"}), 201)["id"]
    response = client.post(f"/api/games/{game}/opening", json={"ballot": "fmjd-64", "opening": "99-X"})
    assert response.status_code == 400
    assert "'99-X'" in response.json()["error"]
    response = client.post(f"/api/games/{game}/opening", json={"opening": "1-I"})
    assert response.status_code == 400
    assert "ballot" in response.json()["error"]


def test_a_game_starts_from_an_opening_with_its_moves_on_the_stack(client: TestClient) -> None:
    game = ok(client.post("/api/games", json={"variant": "russian"}), 201)["id"]
    state = ok(client.post(f"/api/games/{game}/opening", json={"ballot": "fmjd-64", "opening": "1-I"}))
    wanted = openings.ballot("russian", "fmjd-64")[0]
    assert (state["plies"], state["ply"], state["fen"]) == (6, 6, wanted.fen)
    state = ok(client.post(f"/api/games/{game}/undo", json={"version": state["version"]}))
    assert state["ply"] == 5  # the opening's moves are moves of the game: undo walks back through them
    exported = ok(client.get(f"/api/games/{game}/pdn"))["pdn"]
    assert '[Opening "FMJD Drawing Table 64, 1-I"]' in exported
    assert "1. a3-b4 b6-a5 2. b2-a3 a7-b6 3. a1-b2 d6-c5" in exported


def test_an_11_man_opening_starts_from_its_own_position_and_can_switch_variant(client: TestClient) -> None:
    game = ok(client.post("/api/games", json={"variant": "russian"}), 201)["id"]
    body = {"ballot": "11-man", "opening": "7", "variant": "italian"}
    state = ok(client.post(f"/api/games/{game}/opening", json=body))
    wanted = {o.name: o for o in openings.ballot("italian", "11-man")}["7"]
    assert state["variant"]["name"] == "italian"
    assert (state["plies"], state["fen"]) == (2, wanted.fen)
    exported = ok(client.get(f"/api/games/{game}/pdn"))["pdn"]
    assert f'[FEN "{wanted.start_fen}"]' in exported
