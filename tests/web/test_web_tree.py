"""The web board's move tree (issue 27 §6), server side: POST /api/pdn-tree reads a PDN game with its side
lines into the nodes a page shows and clicks through, and those nodes build the tree back with a side line added."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from draughts import Position, pdn
from draughts.endgame import Tablebase
from draughts.engine import Engine, Limit
from draughts.engine.score import Score
from draughts.notation import move_text
from draughts.pdn.treedata import tree_from_data
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
    assert pdn.parse_game(body["pdn"]).same_tree(pdn.parse_game(STUDY))
    # The page adds a side line by playing another move at a node of the side line; the tree writes all three.
    nodes.append({"id": len(nodes), "parent": reply["id"], "move": "39-33"})
    tree = tree_from_data(Position.from_fen("international", body["start"]), nodes)
    text = pdn.write_game(tree)
    assert "(1. 33-29 {side} 1... 19-23 (1... 18-23 $1) 2. 34-30 (2. 39-33))" in text
    assert pdn.parse_game(text).same_tree(tree)


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
    root = game
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


# --- POST /api/analyse: the engine's lines for the tree's analyse button ------------------------------


def _score(data: dict[str, Any]) -> Score:
    return Score(data["centi"], data["plies"])


def test_analyse_gives_three_distinct_first_moves_best_first(client: TestClient) -> None:
    fen = "W:W31-50:B1-20"
    response = client.post("/api/analyse", json={"variant": "international", "fen": fen, "depth": 2, "time": 5})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["fen"], body["turn"]) == (Position.from_fen("international", fen).fen(), "white")
    lines = body["lines"]
    assert [line["rank"] for line in lines] == [1, 2, 3]
    position = Position.from_fen("international", fen)
    legal = {move.path for move in position.legal_moves()}
    assert len({tuple(line["move"]["path"]) for line in lines}) == 3
    assert all(tuple(line["move"]["path"]) in legal for line in lines)
    scores = [_score(line["score"]) for line in lines]
    assert scores[0] >= scores[1] >= scores[2]
    assert all(line["pv"].startswith(line["move"]["text"]) and line["depth"] == 2 for line in lines)
    # The same lines as the library's analysis at that depth.
    expected = Engine(seed=None).analyse(position, Limit(depth=2), multipv=3)
    assert [line["move"]["text"] for line in lines] == [move_text(position, line.move) for line in expected]
    assert [line["score"]["text"] for line in lines] == [line.score.text() for line in expected]


def test_analyse_scores_a_won_position_as_a_win_in_plies(client: TestClient) -> None:
    body = client.post("/api/analyse", json={"variant": "international", "fen": "W:W28:B23", "multipv": 1}).json()
    (line,) = body["lines"]
    assert line["move"]["text"] == "28x19"
    assert line["score"] == {"text": "#1", "centi": 0, "plies": 1, "exact": True}
    over = client.post("/api/analyse", json={"variant": "international", "fen": "B:W28:B"})
    assert over.status_code == 200, over.text
    assert over.json()["lines"] == []  # Black has no piece left: nothing to analyse


def test_analyse_answers_from_the_servers_endgame_tables(tmp_path: Path) -> None:
    tables = Tablebase("american", tmp_path)
    tables.build("KvK")
    position = Position.from_fen("american", "B:WK29:BK28")
    verdict = tables.probe(position)
    assert (verdict.result, verdict.plies) == ("win", 11)
    with TestClient(create_app(default_variant="american", tablebases=tmp_path, workers=1, engine_workers=1)) as web:
        body = web.post("/api/analyse", json={"fen": "B:WK29:BK28", "multipv": 3}).json()
        bare = web.post("/api/analyse", json={"fen": "B:WK29:BK28", "variant": "russian", "depth": 2}).json()
    best = {move_text(position, move) for move in tables.best_moves(position)}
    assert body["lines"]
    assert {line["move"]["text"] for line in body["lines"]} >= best
    first = body["lines"][0]
    assert first["score"] == {"text": "#11", "centi": 0, "plies": 11, "exact": True}  # Black wins in 11 plies
    assert first["depth"] == 0  # from the tables, not a search
    assert first["move"]["text"] in best
    assert all(line["depth"] == 2 and not line["score"]["exact"] for line in bare["lines"])  # no russian tables


@pytest.mark.parametrize(
    ("fields", "quoted"),
    [
        ({"fen": "W:W31-50:B1-20", "multipv": 0}, "'multipv' = 0"),
        ({"fen": "W:W31-50:B1-20", "multipv": 11}, "'multipv' = 11"),
        ({"fen": "W:W31-50:B1-20", "multipv": "three"}, "three"),
        ({"fen": "W:W31-50:B1-20", "depth": 0}, "'depth' = 0"),
        ({"fen": "W:W31-50:B1-20", "depth": 2**70}, "1180591620717411303424"),
        ({"fen": "W:W31-50:B1-20", "time": 999}, "999"),
        ({"fen": "W:W31-50:B1-20", "time": -1}, "-1"),
        ({"fen": "W:W31-50:B1-20", "lines": 3}, "lines"),
        ({"fen": "X:W99"}, "X:W99"),
        ({"fen": "W:W31-50:B1-20", "variant": "no-such-draughts"}, "no-such-draughts"),
        ({}, "'fen'"),
    ],
)
def test_analyse_refuses_bad_fields_with_a_4xx_quoting_them(
    client: TestClient, fields: dict[str, Any], quoted: str
) -> None:
    response = client.post("/api/analyse", json=fields)
    assert 400 <= response.status_code < 500, response.text
    assert quoted in response.json()["error"]


def test_the_loaded_games_tags_and_result_go_back_into_the_export(client: TestClient) -> None:
    text = '[Event "Study \\"one\\""] [White "A"] [Result "0-2"] [GameType "20"] 1. 32-28 (1. 33-29) 19-23 0-2'
    body = client.post("/api/pdn-tree", json={"pdn": text}).json()
    assert body["headers"] == {"Event": 'Study "one"', "White": "A", "Result": "0-2"}
    assert body["result"] == "0-2"
    fields = {"variant": "international", "nodes": body["nodes"], "headers": body["headers"], "result": "2-0"}
    exported = client.post("/api/pdn-tree/export", json=fields)
    assert exported.status_code == 200, exported.text
    game = pdn.parse_game(exported.json()["pdn"])
    assert (game.headers["Event"], game.headers["White"], game.headers["Result"]) == ('Study "one"', "A", "2-0")
    assert game.result == "2-0"  # the tag and the movetext's end agree
    assert game.same_tree(pdn.parse_game(text))


@pytest.mark.parametrize(
    ("fields", "quoted"),
    [
        ({"headers": ["Event"]}, "['Event']"),
        ({"headers": {"Ev ent": "x"}}, "'Ev ent'"),
        ({"headers": {"Event": 3}}, "headers.Event"),
        ({"headers": {"Event": "x" * 201}}, "longer than 200"),
        ({"headers": {f"T{index}": "x" for index in range(65)}}, "65 tags"),
        ({"result": "3-3"}, "'3-3'"),
    ],
)
def test_bad_tags_or_result_are_refused_quoting_them(client: TestClient, fields: dict[str, Any], quoted: str) -> None:
    response = client.post("/api/pdn-tree/export", json={"nodes": [{}], **fields})
    assert response.status_code == 400, response.text
    assert quoted in response.json()["error"]


@pytest.mark.parametrize("nag", ["{", "(", "1-0", "28-24", "$1 $2"])
def test_the_export_refuses_a_nag_pdn_cannot_hold(client: TestClient, nag: str) -> None:
    """Issue 40 §17: a NAG was written verbatim, so ``{`` or ``(`` made unreadable PDN and ``1-0`` or ``28-24``
    PDN with another result or other moves."""
    body = client.post("/api/pdn-tree", json={"pdn": STUDY}).json()
    nodes = body["nodes"]
    nodes[1]["nags"] = ["$3", nag]
    response = client.post("/api/pdn-tree/export", json={"variant": "international", "nodes": nodes})
    assert response.status_code == 400, response.text
    assert "neither a NAG" in response.json()["error"]
    nodes[1]["nags"] = ["$3", "!?"]
    response = client.post("/api/pdn-tree/export", json={"variant": "international", "nodes": nodes})
    assert response.status_code == 200, response.text
    assert pdn.parse_game(response.json()["pdn"]).next().nags == ["$3", "!?"]  # type: ignore[union-attr]


def test_a_clock_or_eval_of_hundreds_of_digits_is_kept_as_text_not_a_500(client: TestClient) -> None:
    """Issue 40 §17: ``[%clk]`` of 400 digits raised OverflowError (a 500); an ``%eval`` of 400 digits became inf."""
    digits = "9" * 400
    text = f'[GameType "20"] 1. 32-28 {{[%clk {digits}:00:00] [%eval {digits}]}} 19-23 *'
    response = client.post("/api/pdn-tree", json={"pdn": text})
    assert response.status_code == 200, response.text
    nodes = response.json()["nodes"]
    assert nodes[1]["comment"] == f"[%clk {digits}:00:00] [%eval {digits}]"
    digits = "9" * 180  # the longest a comment field may carry (200 characters)
    nodes[1]["comment"] = f"again [%clk {digits}:00:00]"
    exported = client.post("/api/pdn-tree/export", json={"variant": "international", "nodes": nodes})
    assert exported.status_code == 200, exported.text
    assert "inf" not in exported.json()["pdn"]
    assert pdn.parse_game(exported.json()["pdn"]).next().comment == f"again [%clk {digits}:00:00]"  # type: ignore[union-attr]
