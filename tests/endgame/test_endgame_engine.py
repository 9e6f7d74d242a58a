"""The engine answers from a tablebase at the root: perfect play from won and drawn positions."""

from __future__ import annotations

from pathlib import Path

from draughts import Board, Position
from draughts.endgame import Tablebase
from draughts.engine import MATE, Engine, Limit


def test_engine_converts_a_won_position_in_its_distance(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    fen = tb.stats("KvK")["black"]["longest_win_fen"]
    board = Board.from_fen("american", fen)
    engine = Engine(seed=3, tablebase=tb)
    first = engine.search(board, Limit(depth=1))
    assert first.score == MATE - 11
    assert first.mate_in == 11
    while board.outcome() is None:
        board.push(engine.search(board, Limit(depth=1)).move)  # type: ignore[arg-type]
    assert len(board.move_stack) == 11
    assert board.outcome().winner is Position.from_fen("american", fen).turn  # type: ignore[union-attr]


def test_engine_keeps_a_draw_and_searches_outside_the_tables(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    engine = Engine(tablebase=tb)
    drawn = Position.from_fen("american", "B:WK1:BK32")
    result = engine.search(drawn, Limit(depth=2))
    assert result.score == 0
    assert tb.probe(drawn.play(result.move)).result == "draw"  # type: ignore[arg-type]
    outside = Position.from_fen("american", "B:WK1,K5:BK32")  # KKvK is not built: a search
    assert engine.search(outside, Limit(depth=2)).nodes > 0
