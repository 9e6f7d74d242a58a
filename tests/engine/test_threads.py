"""``Limit(threads=N)``: the root's moves split between searchers (native/core/src/parallel.rs)."""

from __future__ import annotations

import threading

import pytest

from draughts.engine import Engine, Limit
from draughts.errors import DraughtsError, InvalidLimitError
from draughts.position import Position


@pytest.mark.parametrize("bad", [0, -1, 257, 1.5, True, "2", None])
def test_a_bad_thread_count_is_refused_with_the_value_quoted(bad: object) -> None:
    with pytest.raises(InvalidLimitError, match="threads") as raised:
        Limit(depth=3, threads=bad)  # type: ignore[arg-type]
    assert isinstance(raised.value, DraughtsError)
    assert repr(bad)[:3] in str(raised.value) or str(bad) in str(raised.value)


def test_one_thread_is_the_default_and_gives_todays_search() -> None:
    position = Position.initial("russian")
    assert Limit().threads == 1
    assert Engine(seed=3).search(position, Limit(depth=6, threads=1)) == Engine(seed=3).search(position, Limit(depth=6))


@pytest.mark.parametrize("variant", ["international", "russian", "american", "frisian"])
def test_two_threads_answer_a_legal_move_to_the_depth_with_its_line(variant: str) -> None:
    position = Position.initial(variant)
    engine = Engine(seed=1)
    result = engine.search(position, Limit(depth=6, threads=2))
    assert result.move in position.legal_moves()
    assert result.depth == 6
    assert result.pv[0] == result.move
    board = position
    for move in result.pv:  # the line is legal move after move
        assert move in board.legal_moves()
        board = board.play(move)
    # The longest thread's path: at most all the nodes (all of them when the main thread took
    # every move before the helper started, as happens in small trees).
    path = engine._tables[position.ruleset].critical_nodes()
    assert 0 < path <= result.nodes


def test_a_node_limit_searches_on_one_thread() -> None:
    position = Position.initial("international")
    one = Engine(seed=2).search(position, Limit(nodes=20_000))
    two = Engine(seed=2).search(position, Limit(nodes=20_000, threads=2))
    assert two == one
    assert two.nodes == 20_000


def test_a_python_evaluation_searches_on_one_thread() -> None:
    def material(position: Position) -> int:
        pieces = position.pieces().values()
        return sum(1 if piece.color is position.turn else -1 for piece in pieces)

    position = Position.initial("russian")
    one = Engine(seed=4, evaluate=material).search(position, Limit(depth=4))
    two = Engine(seed=4, evaluate=material).search(position, Limit(depth=4, threads=2))
    assert two == one


def test_multi_pv_analysis_with_threads_is_the_one_thread_analysis() -> None:
    position = Position.initial("russian")
    one = Engine(seed=5).analyse(position, Limit(depth=5), multipv=3)
    two = Engine(seed=5).analyse(position, Limit(depth=5, threads=2), multipv=3)
    assert two == one


def test_a_stop_ends_a_search_on_two_threads() -> None:
    position = Position.initial("international")
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        result = Engine().search(position, Limit(depth=64, threads=2), stop=stop)
    finally:
        timer.cancel()
    assert result.move in position.legal_moves()
    assert 1 <= result.depth < 64


def test_a_time_limit_on_two_threads_answers_a_legal_move() -> None:
    position = Position.initial("russian")
    result = Engine().search(position, Limit(time=0.2, threads=2))
    assert result.move in position.legal_moves()
    assert result.depth >= 1


def test_searches_on_two_threads_after_clear_still_answer_at_the_depth_asked() -> None:
    # Which thread takes which root move depends on timing, so node counts above one thread are not
    # compared here; that the helpers' tables are kept and cleared is tested in the core
    # (parallel.rs: the_helpers_are_kept_for_the_next_search_and_forgotten_with_the_table).
    position = Position.initial("international")
    engine = Engine(seed=6)
    for _ in range(2):
        result = engine.search(position, Limit(depth=6, threads=2))
        assert (result.move in position.legal_moves(), result.depth) == (True, 6)
        engine.clear()


def test_threads_are_not_a_limit_for_the_hub_client() -> None:
    from draughts.hub.client import _level_lines

    lines, _budget = _level_lines(Limit(threads=2), None)
    assert lines == ["level infinite"]
