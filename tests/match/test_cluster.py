"""Matches on a Dask cluster: run_match over a Client's executor, and draughts match --scheduler ADDRESS.

A LocalCluster of two worker processes (one thread each, no dashboard), stopped at the end; every
test has a timeout, so a worker that never answers fails the run instead of blocking it.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client, LocalCluster, get_task_stream

from draughts.cli import main
from draughts.match import EngineSpec, run_match
from draughts.pdn import read_games

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster, timeout="60s") as connected,
    ):
        connected.wait_for_workers(2, timeout=60)
        yield connected


def test_games_run_on_the_cluster_workers(client: Client, tmp_path: Path) -> None:
    assert os.getpid() not in client.run(os.getpid).values()
    with get_task_stream(client) as stream:
        match = run_match(
            EngineSpec("level:beginner"),
            EngineSpec("level:intermediate"),
            games=4,
            max_plies=12,
            executor=client.get_executor(pure=False),
            results=tmp_path / "r.jsonl",
        )
    assert sorted(g["index"] for g in match.games) == [0, 1, 2, 3]
    assert len(stream.data) == 4  # one task per game, on the workers
    assert {task["worker"] for task in stream.data} <= set(client.nthreads())
    assert len((tmp_path / "r.jsonl").read_text().splitlines()) == 1 + 4  # the match's header, then the games


def test_match_command_with_scheduler(client: Client, tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["match", "level:beginner", "level:beginner", "--games", "2", "--max-plies", "8"]
    status = main([*argv, "--scheduler", client.scheduler.address, "--pdn", str(tmp_path / "m.pdn")], out)
    assert status == 0
    assert "Elo difference" in out.getvalue()
    assert sorted(g.headers["Round"] for g in read_games(tmp_path / "m.pdn")) == ["1", "2"]


def test_scheduler_and_workers_exclude_each_other(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "level:beginner", "level:beginner", "--workers", "3", "--scheduler", client.scheduler.address]
    assert main(argv, io.StringIO()) != 0
    assert "--workers and --scheduler exclude each other" in capsys.readouterr().err
