"""The web board's endgame panel behind ``GET /api/endgame`` (``draughts serve --tablebases DIR``):
verdicts and best moves as the tables give them, positions outside the built tables, damaged
tables, a server without tables, and the command line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import draughts
from draughts.cli import main
from draughts.compare import rules_table
from draughts.endgame import Tablebase
from draughts.errors import ServeError
from draughts.notation import move_text
from draughts.web.app import create_app
from draughts.web.endgame import NOT_BUILT

SCRIPT = Path(sys.executable).parent / "draughts"
SMALL = {"workers": 1, "engine_workers": 1, "work_time": 120.0}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """American KvK and Russian KKvK (with its KvK), built once for the module."""
    directory = tmp_path_factory.mktemp("tables")
    Tablebase("american", directory).build("KvK")
    Tablebase("russian", directory).build("KKvK")
    return directory


@pytest.fixture(scope="module")
def client(tables: Path) -> Iterator[TestClient]:
    with TestClient(create_app(default_variant="american", tablebases=tables, **SMALL)) as test_client:
        yield test_client


def endgame(client: TestClient, status: int = 200, **fields: str) -> Any:
    response = client.get(f"/api/endgame?{urlencode(fields)}")
    assert response.status_code == status, response.text
    return response.json()


def expected(tables: Path, variant: str, fen: str) -> dict[str, Any]:
    """What the library's own tables say of the position (the CLI's probe JSON)."""
    tb = Tablebase(variant, tables)
    position = draughts.Position.from_fen(variant, fen)
    best = [move_text(position, move) for move in tb.best_moves(position)]
    return {**tb.probe(position).to_dict(), "best_moves": best}


@pytest.mark.parametrize(
    ("variant", "fen", "result", "plies"),
    [
        ("american", "B:WK29:BK28", "win", 11),  # the longest win of KvK (Ed Trice's count: 11 plies)
        ("american", "W:WK29:BK4", "win", 11),
        ("american", "B:WK1:BK32", "draw", None),
        ("russian", "W:WKc1,Ke1:BKh8", None, None),  # a material with two kings
        ("russian", "B:WKc1,Ke1:BKh8", None, None),
        ("russian", "W:WKa1:BKb2,Kd2", None, None),  # KvKK read from the mirror's table (KKvK)
    ],
)
def test_verdicts_are_the_tables(
    client: TestClient, tables: Path, variant: str, fen: str, result: str | None, plies: int | None
) -> None:
    answer = endgame(client, variant=variant, fen=fen)
    assert answer["in_table"] is True
    assert answer["message"] is None
    assert answer["variant"] == variant
    assert answer["fen"] == fen
    want = expected(tables, variant, fen)
    assert {key: answer[key] for key in want} == want
    if result is not None:
        assert (answer["result"], answer["plies"]) == (result, plies)
    position = draughts.Position.from_fen(variant, fen)
    assert answer["turn"] == str(position.turn)
    assert answer["best_moves"], "a position with legal moves has a best one"
    assert set(answer["best_moves"]) <= {move_text(position, move) for move in position.legal_moves()}


def test_the_published_kvk_position_answers_as_the_cli_does(client: TestClient, tables: Path) -> None:
    """``draughts endgame probe american B:WK29:BK28 --format json`` and the endpoint agree, key for key."""
    printed = subprocess.run(
        [str(SCRIPT), "endgame", "probe", "american", "B:WK29:BK28", "--format", "json", "--dir", str(tables)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    cli = json.loads(printed)
    answer = endgame(client, fen="B:WK29:BK28")  # the server's default variant: american
    assert cli == {key: answer[key] for key in cli}
    assert cli["best_moves"] == ["28-24", "28-32"]


def test_the_ruleset_field_names_the_rules_too(client: TestClient) -> None:
    assert endgame(client, ruleset="russian", fen="W:WKc1:BKf8")["variant"] == "russian"
    assert endgame(client, ruleset="russian", variant="russian", fen="W:WKc1:BKf8")["in_table"] is True
    message = endgame(client, 400, ruleset="russian", variant="american", fen="W:WK1:BK32")["error"]
    assert "'russian'" in message
    assert "'american'" in message


def test_positions_outside_the_built_tables(client: TestClient) -> None:
    for variant, fen, material, why in (
        ("american", "B:WK29:B28", "MvK", "MvK of american is not built"),  # a man: MvK is not built
        ("russian", "W:Wa1:BKh8", "MvK", "MvK of russian is not built"),  # russian has KvK and KKvK only
        # three pieces where the biggest american table has two: the count, not the material
        ("american", "B:WK29,K30:BK28", "KvKK", "3 pieces, the tables hold up to 2"),
        ("international", "W:WK46:BK5", "KvK", "no table of international is built"),
        # the start position: a short line, not "MMMMMMMMMMMMvMMMMMMMMMMMM of american" (issue 40 §6)
        ("american", "B:W21-32:B1-12", "MMMMMMMMMMMMvMMMMMMMMMMMM", "24 pieces, the tables hold up to 2"),
        ("russian", "W:W21-32:B1-12", "MMMMMMMMMMMMvMMMMMMMMMMMM", "24 pieces, the tables hold up to 3"),
    ):
        answer = endgame(client, variant=variant, fen=fen)
        assert answer["in_table"] is False
        assert answer["material"] == material
        assert answer["message"] == f"{NOT_BUILT}: {why}"
        assert len(answer["message"]) < 60  # one short line, even on a phone
        assert (answer["result"], answer["plies"], answer["within_rules"], answer["best_moves"]) == (
            None,
            None,
            None,
            [],
        )


def test_bad_requests_quote_their_input(client: TestClient) -> None:
    assert "nonsense" in endgame(client, 400, fen="nonsense")["error"]
    assert "'fen'" in endgame(client, 400)["error"]
    assert "checkerz" in endgame(client, 400, variant="checkerz", fen="W:WK1:BK32")["error"]
    assert "'depth'" in endgame(client, 400, fen="W:WK1:BK32", depth="3")["error"]
    assert client.post("/api/endgame", json={"fen": "W:WK1:BK32"}).status_code == 405
    assert "GET /api/endgame" in client.get("/api").json()["endpoints"]


def test_the_board_page_shows_the_panel_only_with_tables(client: TestClient) -> None:
    def config(page: str) -> dict[str, Any]:
        start = page.index('<script type="application/json" id="config">') + len(
            '<script type="application/json" id="config">'
        )
        parsed: dict[str, Any] = json.loads(page[start : page.index("</script>", start)])
        return parsed

    page = client.get("/").text
    assert 'id="endgame"' in page
    assert config(page)["endgame"] is True
    with TestClient(create_app(default_variant="american", **SMALL)) as bare:
        assert config(bare.get("/").text)["endgame"] is False
        message = endgame(bare, 404, fen="B:WK29:BK28")["error"]
        assert "--tablebases" in message


def test_a_table_built_while_the_server_runs_is_used(tmp_path: Path) -> None:
    with TestClient(create_app(default_variant="russian", tablebases=tmp_path, **SMALL)) as fresh:
        assert endgame(fresh, fen="W:WKc1:BKf8")["in_table"] is False
        Tablebase("russian", tmp_path).build("KvK")
        answer = endgame(fresh, fen="W:WKc1:BKf8")
        assert answer["in_table"] is True
        assert answer["result"] == "draw"


def test_a_damaged_table_never_answers(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    path = tb.path("KvK")
    body = bytearray(path.read_bytes())
    body[len(body) // 2] ^= 0xFF
    path.write_bytes(bytes(body))
    with TestClient(create_app(default_variant="american", tablebases=tmp_path, **SMALL)) as damaged:
        answer = endgame(damaged, fen="B:WK29:BK28")
    assert answer["in_table"] is False
    assert answer["result"] is None
    assert answer["message"].startswith(NOT_BUILT)
    assert "damaged" in answer["message"]


def test_a_missing_directory_is_refused_at_the_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(ServeError, match="nowhere"):
        create_app(tablebases=missing, **SMALL)
    assert main(["serve", "--port", "0", "--tablebases", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert str(missing) in err


def test_draughts_serve_tablebases(tables: Path) -> None:
    """The real command: ``draughts serve american --tablebases DIR`` answers from DIR's tables."""
    assert (
        "--tablebases"
        in subprocess.run([str(SCRIPT), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    )
    server = subprocess.Popen(
        [str(SCRIPT), "serve", "american", "--port", "0", "--tablebases", str(tables)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "http://127.0.0.1:" in line, line
        url = line.split(": ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "api/endgame?fen=W:WK29:BK4", timeout=60) as response:
            answer = json.load(response)
        assert (answer["in_table"], answer["result"], answer["plies"]) == (True, "win", 11)
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_the_compare_api_gains_the_table_rows(client: TestClient, tables: Path) -> None:
    """``/api/compare`` (the compare page's table) carries the rows of ``rules_table(..., tablebases=DIR)``."""
    answer = client.get("/api/compare?variants=american,russian&all=1").json()
    rows = {row["key"]: row["cells"] for row in answer["rules"]["rows"]}
    table = rules_table(["american", "russian"], tablebases=tables)
    for key in ("tablebase_kings_needed", "tablebase_won_KvK", "tablebase_won_KKvK", "tablebase_won_MvK"):
        assert rows[key] == list(table.row(key).cells)
    assert rows["tablebase_won_KKvK"][0] == "not built"  # American KKvK is not in the directory
    assert rows["tablebase_won_KKvK"][1] != "not built"  # Russian KKvK is
    with TestClient(create_app(default_variant="american", **SMALL)) as bare:
        plain = bare.get("/api/compare?variants=american,russian&all=1").json()
        assert not [row for row in plain["rules"]["rows"] if row["key"].startswith("tablebase_")]


@st.composite
def table_positions(draw: st.DrawFn) -> tuple[str, str]:
    """A position of a built table (American KvK; Russian KvK, KKvK or KvKK), any side to move."""
    variant = draw(st.sampled_from(["american", "russian"]))
    rules = draughts.get_variant(variant)
    count = 2 if variant == "american" else draw(st.sampled_from([2, 3]))
    squares = draw(st.lists(st.sampled_from(range(1, 33)), min_size=count, max_size=count, unique=True))
    white, black = (squares[:1], squares[1:]) if draw(st.booleans()) else (squares[1:], squares[:1])
    turn = draw(st.sampled_from("WB"))

    def side(items: list[int]) -> str:
        return ",".join("K" + rules.square_name(square) for square in items)

    return variant, f"{turn}:W{side(white)}:B{side(black)}"


@settings(max_examples=60, deadline=None)
@given(table_positions())
def test_every_table_position_answers_as_the_library(client: TestClient, tables: Path, case: tuple[str, str]) -> None:
    variant, fen = case
    answer = endgame(client, variant=variant, fen=fen)
    assert answer["in_table"] is True
    want = expected(tables, variant, fen)
    assert {key: answer[key] for key in want} == want


@settings(max_examples=60, deadline=None)
@given(
    fields=st.dictionaries(
        st.sampled_from(["variant", "ruleset", "fen", "flipped"]),
        st.text(max_size=40) | st.sampled_from(["american", "russian", "B:WK29:BK28", "W:W:B", "B:WK1:BK1"]),
    )
)
def test_no_endgame_request_breaks_the_server(client: TestClient, fields: dict[str, str]) -> None:
    response = client.get("/api/endgame", params=fields)
    assert response.status_code < 500, response.text
    body = response.json()
    if response.status_code == 200:
        assert body["in_table"] in (True, False)
        assert body["in_table"] or body["message"].startswith(NOT_BUILT)
    else:
        assert body["error"]
    assert endgame(client, fen="B:WK29:BK28")["plies"] == 11  # still serving


@pytest.mark.parametrize(
    ("fen", "plies"),
    [
        ("W:WK1,K2:BK28", 7),  # KKvK: a mate in 7 answered from the tables at the root
        ("W:WK13,K10:BK19,K6", 5),  # KKvKK (not built): a capture into KKvK, then the tables
    ],
)
def test_the_analysis_line_of_a_won_endgame_goes_to_its_end(client: TestClient, fen: str, plies: int) -> None:
    """The web analysis shows a mate in 7 as 7 plies, not cut where the tables took over (issue 40 §10)."""
    response = client.post("/api/analyse", json={"variant": "russian", "fen": fen, "multipv": 2, "time": 2})
    assert response.status_code == 200, response.text
    first = response.json()["lines"][0]
    assert first["score"]["text"] == f"#{plies}"
    line = first["pv"].split()
    assert len(line) == plies, first["pv"]
    board = draughts.Board.from_position(draughts.Position.from_fen("russian", fen))
    for text in line:
        board.push_text(text)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner is draughts.WHITE
