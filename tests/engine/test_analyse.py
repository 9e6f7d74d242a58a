"""Engine.analyse: several lines with exact, typed scores; tablebase positions scored exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

import draughts
from draughts.endgame import Tablebase
from draughts.engine import Engine, InvalidLimitError, Limit
from draughts.engine.score import Score


@pytest.mark.parametrize("variant", ["international", "russian", "american"])
def test_multipv_three_distinct_first_moves_ordered_by_score(variant: str) -> None:
    board = draughts.Board(variant)
    board.push(board.legal_moves[0])
    lines = Engine().analyse(board, Limit(depth=4), multipv=3)
    assert len(lines) == 3
    assert len({line.move for line in lines}) == 3
    assert [line.multipv for line in lines] == [1, 2, 3]
    assert lines[0].score >= lines[1].score >= lines[2].score
    for line in lines:
        assert line.pv[0] == line.move
        assert line.depth == 4
        assert line.nodes > 0
        assert isinstance(line.score, Score)
        position = board.position
        for move in line.pv:  # every principal variation is legal in turn
            assert move in position.legal_moves()
            position = position.play(move)


def test_each_line_scores_as_a_search_of_its_move_alone() -> None:
    # The second and third lines are exact scores, not bounds: searching the position after each
    # move one ply less deep gives the negated score.
    board = draughts.Board("russian")
    lines = Engine().analyse(board, Limit(depth=3), multipv=3)
    for line in lines:
        after = board.copy()
        after.push(line.move)
        reply = Engine().search(after, Limit(depth=2))
        assert -reply.score == line.score


def test_the_best_line_is_the_search_move() -> None:
    board = draughts.Board("international")
    best = Engine().search(board, Limit(depth=4))
    lines = Engine().analyse(board, Limit(depth=4), multipv=2)
    assert lines[0].score == best.score


def test_fewer_lines_than_asked_when_fewer_moves_and_none_when_over() -> None:
    forced = draughts.Position.from_fen("russian", "W:Wc3:Bd4")  # c3 must take d4
    lines = Engine().analyse(forced, Limit(depth=2), multipv=5)
    assert len(lines) == 1
    assert lines[0].score.is_win
    assert Engine().analyse(draughts.Position.from_fen("russian", "W:Wa1:Bb2,c3"), Limit(depth=2)) == []


def test_multipv_is_checked() -> None:
    for bad in (0, -1, True, 1.5, "3"):
        with pytest.raises(InvalidLimitError, match="multipv"):
            Engine().analyse(draughts.Board("russian"), Limit(depth=1), multipv=bad)  # type: ignore[arg-type]


def test_won_tablebase_position_scores_as_a_win_in_n_plies(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    fen = tb.stats("KvK")["black"]["longest_win_fen"]
    lines = Engine(tablebase=tb).analyse(draughts.Board.from_fen("american", fen), Limit(depth=1), multipv=2)
    assert lines[0].score == Score.win(11)
    assert lines[0].score.exact
    assert lines[0].score >= lines[1].score
    drawn = draughts.Position.from_fen("american", "B:WK1:BK32")
    for line in Engine(tablebase=tb).analyse(drawn, Limit(depth=1), multipv=4):
        assert line.score.exact
        assert line.score.plies is None or line.score.is_loss


def test_lines_are_written_as_the_variant_writes_them_from_either_engine() -> None:
    # Issue 40 §5: lines printed as square numbers ("22-18") where Russian writes "c3-d4".
    import sys

    from draughts.engine import line_text
    from draughts.hub import HubEngine

    board = draughts.Board("russian")
    own = Engine().analyse(board, Limit(depth=3), multipv=2)
    assert [line.pv_text for line in own] == [line_text(board.position, line.pv) for line in own]
    assert all(line.pv_text[0] in "abcdefgh" for line in own)
    hub = HubEngine([sys.executable, "-m", "draughts", "hub"], timeout=30)
    try:
        hub.init("russian")
        lines = hub.analyse(board, Limit(depth=3))
    finally:
        hub.quit()
    assert lines[0].pv_text == line_text(board.position, lines[0].pv)
    assert lines[0].pv_text.split()[0] == board.move_text(lines[0].move)
