"""The web server's worker pool: jobs in processes, a job over its time budget killed (and the pool
going on), errors carried back, the queue bounded, an engine search asked to stop early."""

from __future__ import annotations

import asyncio
import math
import os
import time
from collections.abc import Iterator

import pytest

import draughts
from draughts.web import tasks
from draughts.web.views import RequestError
from draughts.web.workers import WorkerPool


@pytest.fixture(params=[True, pytest.param(False, marks=pytest.mark.slow)], ids=["fork", "spawn"])
def pool(request: pytest.FixtureRequest) -> Iterator[WorkerPool]:
    workers = WorkerPool(2, queue=1, budget=0.5, wait=5, fork=request.param)
    workers.start()
    yield workers
    workers.close()


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_jobs_run_in_other_processes(pool: WorkerPool) -> None:
    assert run(pool.run(math.factorial, 20)) == math.factorial(20)

    async def four() -> list[int]:
        return list(await asyncio.gather(*(pool.run(os.getpid) for _ in range(3))))

    pids = run(four())
    assert os.getpid() not in pids  # type: ignore[operator]
    assert set(pids) <= set(pool.pids())  # type: ignore[arg-type]


def test_a_job_over_its_budget_is_killed_and_the_pool_goes_on(pool: WorkerPool) -> None:
    """A CPU-bound job in C (no bytecode, no signal check: no thread could stop it) is ended on time."""
    before = set(pool.pids())
    started = time.monotonic()
    with pytest.raises(RequestError) as caught:
        run(pool.run(sum, range(10**12)))
    assert time.monotonic() - started < 3
    assert caught.value.status == 422
    assert "more than 0.5 s" in str(caught.value)
    assert pool.killed == 1
    assert len(set(pool.pids()) - before) == 1  # the killed worker was replaced
    assert run(pool.run(math.factorial, 5)) == 120


def test_other_jobs_are_answered_while_one_overruns(pool: WorkerPool) -> None:
    async def both() -> tuple[float, object]:
        slow = asyncio.ensure_future(pool.run(sum, range(10**12), budget=2))
        await asyncio.sleep(0.1)
        started = time.monotonic()
        for _ in range(20):
            assert await pool.run(math.factorial, 6) == 720
        quick = time.monotonic() - started
        return quick, (await asyncio.gather(slow, return_exceptions=True))[0]

    quick, slow = run(both())  # type: ignore[misc]
    assert quick < 1.5
    assert isinstance(slow, RequestError)
    assert slow.status == 422


def test_a_quick_job_gets_an_extra_worker_when_all_are_busy() -> None:
    """Both workers held by slow jobs: a quick one does not wait for them, an extra worker answers
    it (and ends once nothing waits)."""
    pool = WorkerPool(2, budget=5, extra=1, patience=0.05)

    async def crowd() -> float:
        slow = [asyncio.ensure_future(pool.run(time.sleep, 1.5)) for _ in range(2)]
        await asyncio.sleep(0.2)
        started = time.monotonic()
        assert await pool.run(math.factorial, 4) == 24
        took = time.monotonic() - started
        assert len(pool.pids()) == 2  # the extra worker has ended
        await asyncio.gather(*slow)
        return took

    try:
        assert run(crowd()) < 1.0  # type: ignore[operator]
        assert pool.extras_started == 1
    finally:
        pool.close()


def test_errors_come_back_with_their_status(pool: WorkerPool) -> None:
    with pytest.raises(RequestError) as refused:
        run(pool.run(draughts.get_variant, "checkerz"))
    assert refused.value.status == 400
    assert "checkerz" in str(refused.value)
    with pytest.raises(RequestError) as failed:  # a bug in a job: a 500, and the worker lives on
        run(pool.run(int, "x"))
    assert failed.value.status == 500
    assert "ValueError" in str(failed.value)
    assert pool.killed == 0
    assert run(pool.run(abs, -3)) == 3


def test_the_queue_is_bounded(pool: WorkerPool) -> None:
    async def crowd() -> list[object]:
        jobs = [pool.run(time.sleep, 0.3) for _ in range(4)]  # 2 run, 1 waits, 1 is refused
        return await asyncio.gather(*jobs, return_exceptions=True)

    answers = run(crowd())
    refused = [answer for answer in answers if isinstance(answer, RequestError)]  # type: ignore[union-attr]
    assert len(refused) == 1
    assert refused[0].status == 503
    assert "busy" in str(refused[0])
    assert pool.busy == 0


def test_a_worker_that_dies_is_replaced(pool: WorkerPool) -> None:
    with pytest.raises(RequestError) as caught:
        run(pool.run(os._exit, 3))
    assert caught.value.status == 503
    assert run(pool.run(abs, -4)) == 4


def test_memory_is_bounded() -> None:
    bounded = WorkerPool(1, budget=5, memory=512 * 2**20)
    try:
        with pytest.raises(RequestError) as caught:
            run(bounded.run(bytearray, 2 * 2**30))
        assert caught.value.status == 422
        assert "memory" in str(caught.value)
        assert run(bounded.run(len, b"ok")) == 2
    finally:
        bounded.close()


def test_a_search_asked_to_stop_answers_with_its_best_move() -> None:
    """Past its soft deadline a search is told to stop (through its pipe) and answers at once."""
    searches = WorkerPool(1, budget=30)
    fen = draughts.Position.initial("international").fen()
    try:
        started = time.monotonic()
        job = searches.run(tasks.engine_move, draughts.get_variant("international"), fen, "strong", 20, soft=0.5)
        answer = run(job)
        assert time.monotonic() - started < 5
        assert answer["move"] is not None  # type: ignore[index]
        assert searches.killed == 0
    finally:
        searches.close()


def test_closed_pools_refuse_work() -> None:
    closed = WorkerPool(1)
    run(closed.run(abs, 1))
    pids = closed.pids()
    closed.close()
    with pytest.raises(RequestError) as caught:
        run(closed.run(abs, 1))
    assert caught.value.status == 503
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
