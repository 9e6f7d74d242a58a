"""The web board's move tree (issue 27 §6), server side: POST /api/pdn-tree reads a PDN game with its side
lines into the nodes a page shows and clicks through, and those nodes build the tree back with a side line added."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from draughts import Position, pdn
from draughts.pdn.treedata import tree_from_data
from draughts.pdn.visitor import export, game_of
from draughts.web.app import create_app

STUDY = '[GameType "20"] 1. 32-28 {main} (1. 33-29 {side} 19-23 (1... 18-23 $1) 2. 34-30) 1... 19-23 2. 28x19 14x23 *'


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(workers=1, engine_workers=1, work_time=20.0)) as test_client:
        yield test_client


def test_a_pdn_with_side_lines_reads_as_a_tree_of_nodes(client: TestClient) -> None:
    response = client.post("/api/pdn-tree", json={"pdn": STUDY})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["rules"] == "international"
    nodes = body["nodes"]
    root = nodes[0]
    assert [nodes[index]["move"] for index in root["children"]] == ["32-28", "33-29"]
    side = nodes[root["children"][1]]
    assert side["comment"] == "side"
    reply = nodes[side["children"][0]]
    assert [nodes[index]["move"] for index in reply["children"]] == ["34-30"]
    assert [nodes[index]["move"] for index in side["children"]] == ["19-23", "18-23"]
    assert nodes[side["children"][1]]["nags"] == ["$1"]
    assert pdn.parse_game(body["pdn"]).tree().same_tree(pdn.parse_game(STUDY).tree())
    # The page adds a side line by playing another move at a node of the side line; the tree writes all three.
    nodes.append({"id": len(nodes), "parent": reply["id"], "move": "39-33"})
    tree = tree_from_data(Position.from_fen("international", body["start"]), nodes)
    text = export(game_of(tree))
    assert "(1. 33-29 {side} 1... 19-23 (1... 18-23 $1) 2. 34-30 (2. 39-33))" in text
    assert pdn.parse_game(text).tree().same_tree(tree)


def test_a_bad_pdn_is_a_4xx_that_quotes_it(client: TestClient) -> None:
    response = client.post("/api/pdn-tree", json={"pdn": '[GameType "20"] 1. 32-28 99-88 *'})
    assert response.status_code in (400, 422), response.text
    assert "99-88" in response.json()["error"]
    assert client.post("/api/pdn-tree", json={}).status_code == 400


def test_the_page_exports_the_tree_with_the_side_line_it_added(client: TestClient) -> None:
    body = client.post("/api/pdn-tree", json={"pdn": STUDY}).json()
    nodes = body["nodes"]
    side = nodes[nodes[0]["children"][1]]
    reply = nodes[side["children"][0]]
    nodes.append({"id": len(nodes), "parent": reply["id"], "move": "39-33", "comment": "new [%eval 0.2]"})
    response = client.post(
        "/api/pdn-tree/export", json={"variant": "international", "start": body["start"], "nodes": nodes}
    )
    assert response.status_code == 200, response.text
    text = response.json()["pdn"]
    game = pdn.parse_game(text)
    root = game.tree()
    assert [node.san() for node in root.variations] == ["32-28", "33-29"]  # the main line and the first side line
    assert [node.san() for node in root.variations[1].variations[0].variations] == ["34-30", "39-33"]  # the new one
    assert root.variations[1].variations[0].variations[1].commands.eval is not None
    assert [node.san() for node in root.variations[1].variations] == ["19-23", "18-23"]
    bad = [*nodes[:1], {"parent": 0, "move": "17-21"}]
    response = client.post("/api/pdn-tree/export", json={"variant": "international", "nodes": bad})
    assert response.status_code == 400
    assert "17-21" in response.json()["error"]
    response = client.post("/api/pdn-tree/export", json={"nodes": [{}, {"parent": 5, "move": "32-28"}]})
    assert response.status_code == 400
    assert "parent" in response.json()["error"]
