"""One client cannot starve another, and a ruleset's name never picks a file (issue 40 item 18).

The per-client share is checked by counting the pool's jobs (running, waiting, refused), not by
timing: one client's searches are long, the other client's request must be answered while they
still run.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
import pytest
from starlette.testclient import TestClient

import draughts
from draughts import openings
from draughts.web.app import create_app
from draughts.web.views import RequestError
from draughts.web.workers import REQUEST_CLIENT, WorkerPool

HEAVY_FEN = draughts.Position.initial("international").fen()


def _until(condition: Any, what: str) -> None:
    """Wait for ``condition()`` (a watchdog, not a measurement: the test asserts counts)."""
    deadline = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def test_one_clients_searches_leave_a_worker_for_another_clients_request() -> None:
    """Client A sends 8 minute-long analyses at once: one runs, two wait, five are refused 429 (on
    main all 8 held both engine workers and the queue, and B's request got a 503 after waiting for
    a worker); client B's quick search is answered meanwhile."""
    app = create_app(workers=1, engine_workers=2, engine_queue=8, max_engine_time=60.0, work_time=120.0)
    answers: list[Any] = []
    with TestClient(app) as quick_client:
        web = app.state.web
        heavy_client = TestClient(app, client=("10.0.0.8", 40000))
        heavy_client.portal = quick_client.portal  # one server, one event loop, two addresses

        def heavy() -> None:
            try:
                body = {"variant": "international", "fen": HEAVY_FEN, "time": 60}  # no depth: a minute each
                answers.append(heavy_client.post("/api/analyse", json=body))
            except BaseException as error:  # the server closing under it at the end
                answers.append(error)

        threads = [threading.Thread(target=heavy, daemon=True) for _ in range(8)]
        for thread in threads:
            thread.start()
        _until(lambda: len(answers) + web.engine.busy == 8 and web.engine.busy > 0, "A's searches in the pool")
        assert web.engine.client_jobs("10.0.0.8") == (1, 2)
        body = {
            "variant": "russian",
            "fen": draughts.Position.initial("russian").fen(),
            "level": "beginner",
            "time": 0.1,
        }
        quick = quick_client.post("/api/engine-move", json=body)
        assert quick.status_code == 200, quick.text
        assert quick.json()["move"]
        assert web.engine.client_jobs("10.0.0.8") == (1, 2)  # A's searches still running and waiting
        refused = [answer for answer in answers if not isinstance(answer, BaseException)]
        assert [answer.status_code for answer in refused] == [429] * 5
        assert "the most one client may have" in refused[0].json()["error"]
        web.engine.close()  # ends A's long searches: the running one and the waiting ones are answered
        for thread in threads:
            thread.join(60)
        assert sorted(getattr(answer, "status_code", answer) for answer in answers) == [429] * 5 + [503] * 3


def _sleepers(pool: WorkerPool, client: str, count: int) -> list[asyncio.Future[Any]]:
    token = REQUEST_CLIENT.set(client)
    try:  # each task copies the context: its jobs are the client's
        return [asyncio.ensure_future(pool.run(time.sleep, 600)) for _ in range(count)]
    finally:
        REQUEST_CLIENT.reset(token)


def test_a_pool_keeps_a_worker_for_other_clients() -> None:
    """The rules pool's way: two workers and two extra; client A's eight slow jobs take three of
    the four, wait five deep, and B's quick job gets the fourth."""
    pool = WorkerPool(2, extra=2, queue=64, budget=900, wait=900, patience=0.01)

    async def scenario() -> tuple[tuple[int, int], int, tuple[int, int]]:
        slow = _sleepers(pool, "A", 8)
        while pool.client_jobs("A") != (3, 5):
            await asyncio.sleep(0.01)
        token = REQUEST_CLIENT.set("B")
        try:
            quick = await pool.run(math.factorial, 5)
        finally:
            REQUEST_CLIENT.reset(token)
        after = pool.client_jobs("A")
        pool.close()
        await asyncio.gather(*slow, return_exceptions=True)
        return after, quick, pool.client_jobs("B")

    try:
        after, quick, b_jobs = asyncio.run(scenario())
    finally:
        pool.close()
    assert quick == 120
    assert after == (3, 5)
    assert b_jobs == (0, 0)
    assert pool.extras_started == 2  # one for A's third job, one for B


def test_a_clients_waiting_jobs_are_bounded_and_the_pool_recovers() -> None:
    pool = WorkerPool(1, extra=0, queue=8, client_queue=2, budget=900, wait=900)

    async def scenario() -> list[Any]:
        slow = _sleepers(pool, "A", 4)
        outcome = await asyncio.gather(*slow[3:], return_exceptions=True)  # the fourth: refused at once
        assert pool.client_jobs("A") == (1, 2)
        pool.close()
        await asyncio.gather(*slow, return_exceptions=True)
        return outcome

    try:
        (refused,) = asyncio.run(scenario())
    finally:
        pool.close()
    assert isinstance(refused, RequestError)
    assert refused.status == 429
    assert "1 requests at work and 2 waiting" in str(refused)


def test_jobs_of_nobody_are_not_limited() -> None:
    pool = WorkerPool(1, extra=0, queue=8, budget=30)

    async def many() -> list[int]:
        return list(await asyncio.gather(*(pool.run(abs, -n) for n in range(6))))

    try:
        assert asyncio.run(many()) == list(range(6))
        assert pool.client_jobs(None) == (0, 0)
    finally:
        pool.close()


# --- a ruleset's name and the openings' data files --------------------------------------------------


@pytest.fixture
def planted(tmp_path: Path) -> draughts.Ruleset:
    """A custom ruleset whose name leads from the openings' data folder to a file of ours."""
    ballot = {"name": "planted", "title": "t", "source": "s", "licence": "l", "openings": [["1", "c3-d4 f6-g5"]]}
    (tmp_path / "planted.json").write_text(json.dumps({"variant": "russian", "ballots": [ballot]}))
    folder = Path(str(resources.files("draughts.openings").joinpath("data")))
    name = os.path.relpath(tmp_path / "planted", folder)
    assert name.startswith("..")
    return attrs.evolve(draughts.get_variant("russian"), name=name, title="Planted")


def test_a_ruleset_name_with_dots_does_not_read_outside_the_package(planted: draughts.Ruleset) -> None:
    assert openings.ballots(planted) == []
    with pytest.raises(openings.UnknownBallotError, match="its ballots: none"):
        openings.ballot(planted, "planted")
    assert openings.ballots(draughts.get_variant("russian"))  # the package's own still read


def test_the_web_lists_no_ballot_for_a_planted_name(planted: draughts.Ruleset) -> None:
    with TestClient(create_app(custom=[planted], workers=1, engine_workers=1)) as client:
        response = client.get("/api/openings", params={"variant": planted.name})
        assert response.status_code == 200, response.text
        assert response.json()["ballots"] == []
        missing = client.get("/api/openings", params={"variant": planted.name, "ballot": "planted"})
        assert missing.status_code == 400, missing.text
        assert "its ballots: none" in missing.json()["error"]
