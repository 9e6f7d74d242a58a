"""The Hub server's engine probes the endgame tables it is given (``draughts hub --tablebases DIR``)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from draughts import Board, Position, hub
from draughts.cli import main
from draughts.endgame import Tablebase
from draughts.hub.protocol import parse_line


def _play(directory: Path | None, fen: str) -> list[tuple[str, dict[str, str]]]:
    position = Position.from_fen("american", fen)
    lines = ["hub", "init", f"pos pos={hub.position_text(position)}", "level depth=1", "go", "quit"]
    out = io.StringIO()
    hub.serve(ruleset="american", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out, tablebases=directory)
    return [parse_line(line) for line in out.getvalue().splitlines() if line]


def test_hub_engine_plays_the_fastest_win_from_its_tables(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    for turn in ("black", "white"):
        fen = tb.stats("KvK")[turn]["longest_win_fen"]
        position = Position.from_fen("american", fen)
        board = Board.from_fen("american", fen)
        plies = 0
        while board.outcome() is None:  # the server plays both sides, from each position anew
            done = [args for command, args in _play(tmp_path, board.position.fen()) if command == "done"]
            move = hub.parse_hub_move(board.position, done[-1]["move"])
            assert move in tb.best_moves(board.position)
            board.push(move)
            plies += 1
        assert plies == tb.probe(position).plies == 11
        assert board.outcome().winner is position.turn  # type: ignore[union-attr]


def test_draughts_hub_takes_the_tables_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    fen = tb.stats("KvK")["black"]["longest_win_fen"]
    position = Position.from_fen("american", fen)
    lines = ["hub", "init", f"pos pos={hub.position_text(position)}", "level depth=1", "go", "quit"]
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["hub", "--variant", "american", "--tablebases", str(tmp_path)], out=out) == 0
    done = [parse_line(line)[1] for line in out.getvalue().splitlines() if line.startswith("done")]
    assert hub.parse_hub_move(position, done[-1]["move"]) in tb.best_moves(position)
