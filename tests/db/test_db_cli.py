"""``draughts db import | explore | find | shots`` and ``draughts book build | probe``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from test_shots import SHOT, _game

from draughts import Position, pdn
from draughts.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"

RUSSIAN = DATA / "games" / "russian"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("cli") / "games.db")
    status, text = run("db", "import", path, str(RUSSIAN), "--workers", "1")
    assert status == 0, text
    return path


def test_import_text_and_json(database: str, tmp_path: Path) -> None:
    status, text = run("db", "import", database, str(RUSSIAN), "--workers", "1")
    assert status == 0
    assert text.startswith("0 games imported (0 moves), 0 skipped, 0 duplicates, 5 files already imported")
    other = str(tmp_path / "other.db")
    status, text = run("db", "import", other, str(RUSSIAN), "--workers", "2", "--format", "json")
    data = json.loads(text)
    assert status == 0
    assert data["skipped"] == 1
    assert data["variants"] == {"russian": data["games"]}
    assert "the move is unknown" in data["files"][0]["skipped"][0][2]


def test_explore_json(database: str) -> None:
    status, text = run("db", "explore", database, "russian", "--format", "json", "--games", "1")
    data = json.loads(text)
    assert status == 0
    assert sum(move["games"] for move in data["moves"]) == data["count"] > 0
    assert [move["games"] for move in data["moves"]] == sorted((m["games"] for m in data["moves"]), reverse=True)
    assert len(data["games"]) == 1
    status, text = run("db", "explore", database, "russian")
    assert text.splitlines()[2].split() == [
        str(data["moves"][0][k]) for k in ("move", "games", "white", "draws", "black")
    ]


def test_find_a_position_and_a_pattern(database: str) -> None:
    game = next(iter(pdn.read_games(str(RUSSIAN / "pdn-standard-ussr1947-excerpt.pdn"))))
    position = list(game.mainline())[20].position
    status, text = run("db", "find", database, "russian", position.fen(), "--format", "json")
    data = json.loads(text)
    assert status == 0
    assert data["count"] >= 1
    assert any(hit["White"] == game.headers["White"] and hit["ply"] <= 21 for hit in data["games"])
    assert list(data["games"][0])[-5:] == ["id", "result", "ply", "source", "line"]  # after the tags
    status, text = run("db", "find", database, "russian", "--pattern", "wc3,e3", "--turn", "white", "--format", "json")
    assert json.loads(text)["count"] > 0
    status, text = run("db", "find", database, "russian")
    assert status == 2


def test_missing_database_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run("db", "explore", str(tmp_path / "none.db"), "russian")
    assert status == 2
    assert "no database" in capsys.readouterr().err


def test_book_build_and_probe(database: str, tmp_path: Path) -> None:
    book = str(tmp_path / "russian.book")
    status, text = run("book", "build", database, book, "--variant", "russian", "--min-games", "2")
    assert status == 0
    assert "entries (russian) written to" in text
    status, text = run("book", "probe", book, "russian", "--format", "json")
    moves = json.loads(text)["moves"]
    status, explored = run("db", "explore", database, "russian", "--format", "json")
    expected = [m for m in json.loads(explored)["moves"] if m["games"] >= 2]
    assert sorted((m["move"], m["games"], m["white"], m["draws"], m["black"]) for m in moves) == sorted(
        (m["move"], m["games"], m["white"], m["draws"], m["black"]) for m in expected
    )
    assert [m["weight"] for m in moves] == sorted((m["weight"] for m in moves), reverse=True)
    status, _ = run("book", "probe", book, "international")
    assert status == 2


def test_shots_command(tmp_path: Path) -> None:
    source = tmp_path / "shot.pdn"
    source.write_text(pdn.write_game(_game()))
    path = str(tmp_path / "s.db")
    assert run("db", "import", path, str(source), "--workers", "1")[0] == 0
    output = tmp_path / "puzzles.pdn"
    status, text = run("db", "shots", path, "--depth", "4", "--output", str(output))
    assert status == 0
    assert text.strip() == f"1 shot written to {output}"
    (puzzle,) = pdn.read_games(str(output))
    assert puzzle.position == Position.from_fen("international", SHOT)
