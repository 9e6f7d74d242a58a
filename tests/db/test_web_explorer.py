"""The web board's Explorer panel behind ``GET /api/explorer`` (``draughts serve --database DB``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from draughts.db import Database

starlette = pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from draughts.web.app import create_app  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"

SMALL = {"workers": 1, "engine_workers": 1, "work_time": 120.0}


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("web") / "games.db"
    with Database(path) as db:
        db.import_files(DATA / "games" / "russian")
    return path


@pytest.fixture(scope="module")
def client(database: Path) -> Iterator[TestClient]:
    with TestClient(create_app(default_variant="russian", database=str(database), **SMALL)) as test_client:
        yield test_client


def test_explorer_answers_as_the_database(client: TestClient, database: Path) -> None:
    fen = "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
    response = client.get(f"/api/explorer?{urlencode({'variant': 'russian', 'fen': fen})}")
    assert response.status_code == 200, response.text
    with Database(database) as db:
        assert response.json() == db.explore("russian", games=5).to_dict()
    assert response.json()["count"] == 36


def test_the_board_shows_the_panel_only_with_a_database(client: TestClient, database: Path) -> None:
    assert '"explorer": true' in client.get("/?variant=russian").text
    with TestClient(create_app(default_variant="russian", **SMALL)) as bare:
        response = bare.get("/api/explorer?variant=russian&fen=W:Wc3:Bf6")
        assert response.status_code == 404
        assert "--database" in response.json()["error"]


def test_a_bad_fen_is_a_client_error(client: TestClient) -> None:
    response = client.get("/api/explorer?variant=russian&fen=nonsense")
    assert 400 <= response.status_code < 500
