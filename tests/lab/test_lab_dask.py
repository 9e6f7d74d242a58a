"""A lab run over a real Dask LocalCluster gives the same JSON as the process pool (issue 26, Must show).

The module starts its own cluster (two worker processes of one thread each, no dashboard) and
stops it at the end; every test has a timeout, so a worker that never answers fails the run.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from distributed import LocalCluster

from draughts.cli.executor import executor as jobs_executor
from draughts.lab import RulesetMetrics, run_lab

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(180)]

RUN: dict[str, Any] = {"rulesets": ["russian", "international-nfc"], "games": 8, "seed": 5, "max_plies": 120}
"""The run both schedulers do (:func:`run_lab`'s arguments)."""


def _json(figures: dict[str, RulesetMetrics]) -> str:
    return json.dumps({k: v.to_dict() for k, v in figures.items()}, sort_keys=True)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        yield str(cluster.scheduler_address)


def test_a_cluster_run_gives_the_process_pools_json(address: str) -> None:
    with ProcessPoolExecutor(2) as pool:
        pooled = run_lab(**RUN, executor=pool)
    with jobs_executor(scheduler=address) as executor:
        clustered = run_lab(**RUN, executor=executor)
    assert _json(clustered) == _json(pooled)
    assert clustered["russian"].games == 8


def test_the_command_over_the_scheduler(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    from draughts.cli import main

    argv = ["lab", "russian", "--games", "4", "--seed", "1", "--max-plies", "60", "--format", "json"]
    assert main([*argv, "--workers", "2"]) == 0
    pooled = capsys.readouterr().out
    assert main([*argv, "--scheduler", address]) == 0
    assert capsys.readouterr().out == pooled
