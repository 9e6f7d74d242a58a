"""perft and divide spread over a process pool give exactly the serial numbers; the jobs pickle."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

import attrs
import pytest

import draughts
from draughts import KingRange, Position, Precedence


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(2) as executor:
        yield executor


T = TypeVar("T")

CUSTOM = attrs.evolve(
    draughts.get_variant("russian"),
    name="custom",
    title="Custom",
    board_size=10,
    rows_per_side=3,
    precedence=(Precedence.MOST_KINGS,),
    king_range=KingRange.SHORT,
)


def test_positions_and_rulesets_pickle() -> None:
    for rules in (*draughts.VARIANTS.values(), draughts.get_variant("american-nfc"), CUSTOM):
        position = Position.initial(rules)
        position.legal_moves()  # a filled move cache must not get in the way
        copy = pickle.loads(pickle.dumps(position))
        assert copy == position
        assert copy.ruleset == rules
        assert pickle.loads(pickle.dumps(rules)) == rules
        assert copy.legal_moves() == position.legal_moves()


@pytest.mark.parametrize(
    ("variant", "depth"),
    [("international", 5), ("russian", 6), ("italian", 6), ("american-nfc", 5)],
)
def test_parallel_perft_equals_serial(pool: ProcessPoolExecutor, variant: str, depth: int) -> None:
    position = Position.initial(variant)
    for paths in (False, True):
        assert draughts.perft(position, depth, paths=paths, executor=pool) == draughts.perft(
            position, depth, paths=paths
        )


def test_parallel_divide_equals_serial(pool: ProcessPoolExecutor) -> None:
    position = Position.from_fen("international", "W:WK46,28,33,37:B9,13,18,19,22,24,31,32,41")
    for paths in (False, True):
        serial = draughts.divide(position, 4, paths=paths)
        parallel = draughts.divide(position, 4, paths=paths, executor=pool)
        assert [(move.path, count) for move, count in parallel] == [(move.path, count) for move, count in serial]


def test_parallel_custom_ruleset(pool: ProcessPoolExecutor) -> None:
    position = Position.initial(CUSTOM)
    assert draughts.perft(position, 5, executor=pool) == draughts.perft(position, 5)


def test_small_depths_and_no_moves(pool: ProcessPoolExecutor) -> None:
    position = Position.initial("czech")
    assert draughts.perft(position, 0, executor=pool) == 1
    assert draughts.perft(position, 1, executor=pool) == 7
    assert draughts.divide(position, 1, executor=pool) == draughts.divide(position, 1)
    blocked = Position.from_fen("american", "W:W29:B25,22")  # White's only man cannot move
    assert draughts.perft(blocked, 4, executor=pool) == 0


class _Recorder(Executor):
    """A serial executor that records the jobs it is given (any Executor will do)."""

    def __init__(self) -> None:
        self.jobs = 0

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        self.jobs += 1
        future: Future[T] = Future()
        future.set_result(fn(*pickle.loads(pickle.dumps(args)), **kwargs))
        return future


def test_any_executor_and_work_split() -> None:
    recorder = _Recorder()
    position = Position.initial("brazilian")
    assert draughts.perft(position, 7, executor=recorder) == draughts.perft(position, 7)
    # The root moves are split further until there are enough jobs to balance the load.
    assert recorder.jobs > len(position.legal_moves())
