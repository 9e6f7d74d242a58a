"""The game database (draughts.db.Database): import, explorer, find, pattern search, duplicates, resuming, crashes."""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

import draughts
from draughts import Position, pdn
from draughts.db import Database, DatabaseError, Pattern, PatternError
from draughts.db import writer as db_writer
from draughts.notation import move_text

DATA = Path(__file__).resolve().parents[1] / "data"

GAMES = DATA / "games"
RUSSIAN = GAMES / "russian"
INTERNATIONAL = [
    GAMES / "international" / "pdn-standard-kurnik.pdn",
    GAMES / "international" / "pdn-standard-windragon.pdn",
    GAMES / "international" / "games-checkers-candidate95.pdn",
]


def first_moves(paths: list[Path], variant: str) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """The first move of every game of ``variant`` that starts at the initial position, read from the
    files with the PDN reader alone (no key, no move code, no database): games per move, and per
    move and result."""
    games: Counter[str] = Counter()
    results: Counter[tuple[str, str]] = Counter()
    start = Position.initial(variant)
    for path in paths:
        for game in pdn.read_games(str(path), errors="skip"):
            moves = game.mainline_moves()
            if game.ruleset.name != variant or game.position != start or not moves:
                continue
            text = move_text(start, moves[0])
            games[text] += 1
            winner = game.winner
            normal = pdn.normalise_result(game.result)
            none = normal in (None, "*", "0-0")
            outcome = "none" if none else "draws" if winner is None else str(winner)
            results[(text, outcome)] += 1
    return games, results


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Database:
    path = tmp_path_factory.mktemp("db") / "games.db"
    db = Database(path)
    report = db.import_files([RUSSIAN, *INTERNATIONAL])
    assert report.games > 0
    return db


def pdn_paths() -> list[Path]:
    return sorted(RUSSIAN.glob("*.pdn")) + INTERNATIONAL


def test_explorer_counts_equal_first_moves_read_from_the_files(database: Database) -> None:
    for variant in ("russian", "international"):
        games, results = first_moves(pdn_paths(), variant)
        found = database.explore(variant)
        assert {move.text: move.games for move in found.moves} == dict(games)
        for move in found.moves:
            assert move.white == results[(move.text, "white")]
            assert move.black == results[(move.text, "black")]
            assert move.draws == results[(move.text, "draws")]
        assert found.count == sum(games.values()) == database.count(variant) - _not_from_start(database, variant)


def _not_from_start(database: Database, variant: str) -> int:
    fen = Position.initial(variant).fen()
    rows = database.connection.execute(
        "SELECT COUNT(*) FROM games g JOIN variants v ON v.id = g.variant WHERE v.name = ? AND g.start != ?",
        (variant, fen),
    )
    return int(rows.fetchone()[0])


def test_import_report_names_skipped_games_and_duplicates(tmp_path: Path) -> None:
    db = Database(tmp_path / "g.db")
    report = db.import_files(RUSSIAN)
    # abatsiev's excerpt has a game whose first move is unknown ('-'), skipped with its reason.
    stored = sum(1 for path in RUSSIAN.glob("*.pdn") for _ in pdn.read_games(str(path), errors="skip"))
    assert report.games + report.duplicates == stored
    assert db.count("russian") == report.games
    reasons = [reason for _path, _number, _line, reason in db.skipped()]
    assert report.skipped == 1
    assert sum("the move is unknown" in reason for reason in reasons) == 1
    assert sum(reason.startswith("duplicate of game ") for reason in reasons) == report.duplicates


def test_bad_game_is_skipped_with_its_reason(tmp_path: Path) -> None:
    source = tmp_path / "two.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2-0\n\n[GameType "20"]\n1. 32-26 19-23 0-2\n')
    db = Database(tmp_path / "g.db")
    report = db.import_files(source)
    assert (report.games, report.skipped) == (1, 1)
    ((path, number, line, reason),) = db.skipped()
    assert (path, number, line) == (str(source), 2, 5)  # the line of the illegal move
    assert "32-26" in reason
    assert "not legal" in reason


def test_duplicates_are_recognised(tmp_path: Path) -> None:
    copy = tmp_path / "copy.pdn"
    shutil.copy(INTERNATIONAL[0], copy)
    db = Database(tmp_path / "g.db")
    first = db.import_files(INTERNATIONAL[0])
    second = db.import_files(copy)
    assert first.games > 0
    assert (second.games, second.duplicates) == (0, first.games)
    assert db.count() == first.games
    assert db.explore("international").count == first.games


def test_import_resumes_and_reads_changed_files_again(tmp_path: Path) -> None:
    source = tmp_path / "a.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2-0\n')
    db = Database(tmp_path / "g.db")
    assert db.import_files(tmp_path).games == 1
    again = db.import_files(tmp_path)
    assert again.files[0].done_before
    assert again.games == 0
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2-0\n\n[GameType "20"]\n1. 33-28 1-1\n')
    changed = db.import_files(tmp_path)
    assert (changed.games, changed.duplicates) == (1, 1)
    assert db.count() == 2


def test_a_crash_leaves_nothing_half_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.db"
    db = Database(path)
    db.import_files(INTERNATIONAL[0])
    before = db.count()
    calls = []
    real = db_writer._positions

    def failing(*args: object) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(db_writer, "_positions", failing)
    with pytest.raises(KeyboardInterrupt):
        db.import_files(INTERNATIONAL[2])
    db.close()
    reopened = Database(path)
    assert reopened.count() == before
    sources = [row[0] for row in reopened.connection.execute("SELECT path FROM sources")]
    assert sources == [str(INTERNATIONAL[0])]
    monkeypatch.setattr(db_writer, "_positions", real)
    assert reopened.import_files(INTERNATIONAL[2]).games == 8


def test_parallel_import_equals_serial(tmp_path: Path) -> None:
    serial = Database(tmp_path / "serial.db")
    serial.import_files(RUSSIAN)
    parallel = Database(tmp_path / "parallel.db")
    with ProcessPoolExecutor(2) as pool:
        parallel.import_files(RUSSIAN, executor=pool)
    assert parallel.count() == serial.count()
    assert parallel.explore("russian").to_dict() == serial.explore("russian").to_dict()


def test_a_position_is_found_in_the_game_it_came_from(database: Database) -> None:
    for path in [INTERNATIONAL[0], RUSSIAN / "games-checkers-world-championship-1998-excerpt.pdn"]:
        for game in list(pdn.read_games(str(path), errors="skip"))[:4]:
            nodes = list(game.mainline())
            node = nodes[len(nodes) // 2]
            found = database.find(node.position, limit=None)
            hits = [hit for hit in found.games if hit.headers == game.headers and hit.source == str(path)]
            assert hits, f"{path.name} game {game.index} not found"
            assert hits[0].line == game.line
            stored = database.game(hits[0].id)
            assert [stored, *stored.mainline()][hits[0].ply].position == node.position
            assert found.count == len(found.games)


def test_stored_game_reads_back(database: Database) -> None:
    game = next(iter(pdn.read_games(str(INTERNATIONAL[1]))))
    hit = database.find(game.end().position).games[0]
    stored = database.game(hit.id)
    assert stored.mainline_moves() == game.mainline_moves()
    assert stored.headers == game.headers
    assert stored.result == game.result
    with pytest.raises(DatabaseError, match="no game 999999"):
        database.game(999999)


def test_explore_json_shape(database: Database) -> None:
    data = database.explore("russian", games=2).to_dict()
    assert set(data) == {"fen", "moves", "count", "games"}
    assert set(data["moves"][0]) == {"move", "games", "white", "draws", "black"}
    assert len(data["games"]) == 2
    assert {"id", "ply", "result"} <= set(data["games"][0])
    assert database.explore("pool").moves == ()


def test_pattern_search_matches_a_scan(database: Database) -> None:
    pattern = Pattern.parse("russian", "wc3,e3 bf6 ed4", material="w12", turn="black")
    expected = set()
    for game_id, game in database.games_of("russian"):
        if any(pattern.matches(node.position) for node in [game, *game.mainline()]):
            expected.add(game_id)
    found = database.search(pattern, limit=None)
    assert found.count == len(expected) > 0
    assert {hit.id for hit in found.games} == expected
    for hit in found.games[:5]:
        stored = database.game(hit.id)
        assert pattern.matches([stored, *stored.mainline()][hit.ply].position)


@pytest.mark.parametrize(
    ("pieces", "material", "message"),
    [("x12", "", "a symbol"), ("w99", "", "99"), ("w12 b12", "", "both"), ("", "w1.5", "whole number")],
)
def test_bad_patterns_are_refused(pieces: str, material: str, message: str) -> None:
    with pytest.raises(PatternError, match=message):
        Pattern.parse("international", pieces, material=material)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not sqlite at all, just some text that is long enough to have a header" * 20)
    with pytest.raises(DatabaseError, match="not a game database"):
        Database(text)
    other = tmp_path / "other.db"
    Database(other).close()
    with sqlite3.connect(other) as connection:
        connection.execute("UPDATE meta SET value = '0' WHERE name = 'format'")
    with pytest.raises(DatabaseError, match="format '0'"):
        Database(other)


def test_add_games_in_python() -> None:
    db = Database(":memory:")
    board = draughts.Board("frisian")
    for text in ("32-28", "19-23", "28x19", "14x23"):
        board.push_text(text)
    game = pdn.Game.from_board(board, {"White": "a", "Black": "b"}, "1-0")
    assert db.add_games([game, game]).to_dict()["duplicates"] == 1
    assert db.explore("frisian").moves[0].to_dict() == {"move": "32-28", "games": 1, "white": 1, "draws": 0, "black": 0}
    assert db.find(board.position).count == 1


def test_readonly_databases_are_never_written(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    Database(path).import_files(INTERNATIONAL[0])
    before = path.read_bytes()
    with Database(path, readonly=True) as db:
        assert db.explore("international").count > 0
        with pytest.raises(DatabaseError, match="read-only"):
            db.import_files(INTERNATIONAL[1])
        with pytest.raises(DatabaseError, match="read-only"):
            db.add_games([])
    assert path.read_bytes() == before
    with pytest.raises(DatabaseError, match="not a game database"):
        Database(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()
