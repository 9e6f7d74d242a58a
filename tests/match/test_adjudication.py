"""Adjudication: by the ruleset's rules (the referee Board), and by endgame tablebases when built."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from draughts import Position
from draughts.cli import main
from draughts.color import WHITE
from draughts.endgame.tablebase import Tablebase
from draughts.match import EngineSpec, GameTask, play_task, run_match
from draughts.pdn import read_games
from draughts.results import result_for

KKVK_BLACK_TO_MOVE = "B:WK1,K3:BK32"  # American: White's two kings beat the lone king (a loss in 30 plies)
FORCED_CAPTURE = "W:WK1,K2:BK3,K7"  # White must take 2x11, which leaves KKvK with Black to move


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> str:
    """American KvK and KKvK, built (a few seconds)."""
    directory = tmp_path_factory.mktemp("tables")
    Tablebase("american", directory).build("KKvK")
    return str(directory)


def _task(fen: str, tablebases: str | None, max_plies: int = 300) -> GameTask:
    from draughts.lab.runner import Opening

    beginner = EngineSpec("level:beginner")
    return GameTask(0, beginner, beginner, "american", Opening(fen=fen), max_plies=max_plies, tablebases=tablebases)


def test_a_position_inside_a_built_table_ends_with_its_result(tables: str) -> None:
    game = play_task(_task(KKVK_BLACK_TO_MOVE, tables))
    assert game["termination"] == "adjudicated by tablebase"
    assert game["plies"] == 0
    assert game["winner"] == "white"
    assert game["result"] == result_for("american", WHITE) == "0-1"  # American results: Black's score first
    assert '[Termination "adjudicated by tablebase"]' in game["pdn"]


def test_a_capture_into_a_table_ends_the_game_there(tables: str) -> None:
    assert len(Position.from_fen("american", FORCED_CAPTURE).legal_moves()) == 1
    game = play_task(_task(FORCED_CAPTURE, tables))  # KKvKK is not built: one ply is played
    assert game["termination"] == "adjudicated by tablebase"
    assert game["plies"] == 1
    assert game["winner"] == "white"


def test_without_tables_or_outside_them_the_game_plays_on(tables: str) -> None:
    game = play_task(_task(KKVK_BLACK_TO_MOVE, None, max_plies=6))
    assert game["termination"] == "adjudicated: draw after 6 plies"
    assert game["plies"] == 6
    outside = play_task(_task("W:WK1,K3,K5:BK32", tables, max_plies=4))  # KKKvK: not built
    assert outside["termination"] == "adjudicated: draw after 4 plies"


def test_the_rules_come_before_the_tables(tables: str) -> None:
    # Black has no piece that can move: the rules end the game before any table is read
    game = play_task(_task("B:WK1,K3:B", tables))
    assert game["termination"].startswith("rules: ")
    assert game["winner"] == "white"


def test_match_command_with_tablebases_and_openings_file(tables: str, tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text(f"# one position a line\n{KKVK_BLACK_TO_MOVE}\n")
    out = io.StringIO()
    argv = ["match", "level:beginner", "level:intermediate", "--variant", "american", "--games", "2"]
    argv += ["--workers", "1", "--openings", str(openings), "--tablebases", tables, "--pdn", str(tmp_path / "m.pdn")]
    assert main(argv, out) == 0
    games = list(read_games(tmp_path / "m.pdn"))
    assert [g.headers["Termination"] for g in games] == ["adjudicated by tablebase"] * 2
    assert "1-0-1" in out.getvalue()  # each engine had the winning side once


def test_run_match_passes_tablebases(tables: str) -> None:
    match = run_match(
        EngineSpec("level:beginner"),
        EngineSpec("level:beginner"),
        games=2,
        ruleset="american",
        openings=[KKVK_BLACK_TO_MOVE],
        tablebases=tables,
        workers=1,
    )
    assert [g["termination"] for g in match.games] == ["adjudicated by tablebase"] * 2
    assert match.wdl() == (1, 0, 1)
