"""perft and the PDN collection map on a real Dask cluster: a LocalCluster of two worker processes.

The module starts its own cluster (two worker processes of one thread each, no dashboard) and
stops it at the end. Every test has a timeout, so a worker that never answers fails the run
instead of blocking it. Jobs cross process boundaries here: positions, rulesets (custom ones too),
reports and exceptions are pickled both ways.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from distributed import Client, LocalCluster, get_task_stream

import draughts
from conftest import DATA, load_json
from draughts import KingRange, Position, Precedence, pdn
from draughts.pdn.collection import replay_files
from draughts.perft import _workers
from test_pdn import EXPECTED, variant_of
from test_pdn_family import FAMILY

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(120)]

PERFT = load_json("perft.json")["variants"]
GAMES = DATA / "games"
SCRIPT = Path(sys.executable).parent / "draughts"


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        ) as cluster,
        Client(cluster, timeout="60s") as connected,
    ):
        connected.wait_for_workers(2, timeout=60)
        yield connected


def _workers_used(stream: get_task_stream) -> set[str]:
    return {task["worker"] for task in stream.data}


def test_the_workers_are_two_other_processes(client: Client) -> None:
    pids = client.run(os.getpid)
    assert len(pids) == 2
    assert len(set(pids.values())) == 2
    assert os.getpid() not in pids.values()


@pytest.mark.parametrize(
    ("variant", "convention", "depth"),
    [("international", "dedup", 6), ("russian", "keep", 7), ("italian", "dedup", 7), ("brazilian", "keep", 6)],
)
def test_perft_split_over_the_cluster_gives_the_published_count(
    client: Client, variant: str, convention: str, depth: int
) -> None:
    position = Position.initial(variant)
    with get_task_stream(client) as stream:
        count = draughts.perft(position, depth, paths=convention == "keep", executor=client.get_executor())
    assert count == PERFT[variant][convention][str(depth)]
    assert len(stream.data) > len(position.legal_moves())  # split below the root moves
    assert _workers_used(stream) == set(client.nthreads())  # both workers counted


def test_divide_on_the_cluster_equals_serial(client: Client) -> None:
    position = Position.from_fen("international", "W:WK46,28,33,37:B9,13,18,19,22,24,31,32,41")
    for paths in (False, True):
        serial = draughts.divide(position, 4, paths=paths)
        parallel = draughts.divide(position, 4, paths=paths, executor=client.get_executor())
        assert [(move.path, count) for move, count in parallel] == [(move.path, count) for move, count in serial]


def test_custom_ruleset_crosses_to_the_workers(client: Client) -> None:
    custom = attrs.evolve(
        draughts.get_variant("russian"),
        name="custom",
        title="Custom",
        board_size=10,
        rows_per_side=3,
        precedence=(Precedence.MOST_KINGS,),
        king_range=KingRange.SHORT,
    )
    position = Position.initial(custom)
    assert draughts.perft(position, 5, executor=client.get_executor()) == draughts.perft(position, 5)


def test_the_split_grows_with_the_cluster(client: Client) -> None:
    assert _workers(client.get_executor()) == 2  # threads of all workers, not the fixed guess of 8


def test_pdn_collection_map_equals_serial_and_uses_both_workers(client: Client) -> None:
    serial = replay_files(GAMES, variant_of)
    with get_task_stream(client) as stream:
        report = replay_files(GAMES, variant_of, executor=client.get_executor())
    assert report == serial
    assert len(report.files) == len(stream.data) == len(EXPECTED) + len(FAMILY)  # one job per file
    assert _workers_used(stream) == set(client.nthreads())
    assert report.games == sum(read for read, _, _ in EXPECTED.values()) + sum(read for read, _, _ in FAMILY.values())
    assert len(report.failures) == 4  # the three defective Tinsley games and abatsiev's '1. - -'
    assert report.games > 300


def test_pdn_collection_errors_raise_crosses_back(client: Client, tmp_path: Path) -> None:
    (tmp_path / "a.pdn").write_text('[GameType "25"] 1. c3-d4 f6-e5 *\n', encoding="utf-8")
    (tmp_path / "b.pdn").write_text('[GameType "25"] 1. c3-d4 f6-e5 2. d4-c5 *\n', encoding="utf-8")
    with pytest.raises(pdn.PDNIllegalMoveError) as caught:
        replay_files(tmp_path, errors="raise", executor=client.get_executor())
    assert str(caught.value).startswith(f"{tmp_path / 'b.pdn'}: game 1, line 1: ply 3")
    assert (caught.value.game, caught.value.ply, caught.value.move) == (1, 3, "d4-c5")
    report = replay_files(tmp_path, executor=client.get_executor())
    assert [(file.games, len(file.skipped)) for file in report.files] == [(1, 0), (0, 1)]


def test_draughts_pdn_on_the_cluster(client: Client) -> None:
    folder = GAMES / "russian"
    address = client.scheduler.address

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [str(SCRIPT), "pdn", str(folder), "--variant", "russian", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=100, check=False)

    with get_task_stream(client) as stream:
        remote = run("--scheduler", address)
    local = run("--workers", "1")
    assert remote.returncode == local.returncode == 1, remote  # abatsiev's game 6 has unknown moves
    assert remote.stdout == local.stdout
    assert remote.stdout.splitlines()[5] == "total: 5 files, 36 games read, every move legal (2,038 moves; russian: 36)"
    assert len(stream.data) == 5  # the files were read by the cluster's workers


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("convention", ["dedup", "keep"])
def test_deep_perft_on_the_cluster(client: Client, convention: str) -> None:
    """International depth 8, the first depth where the conventions differ (6,483,961 and 6,483,971)."""
    position = Position.initial("international")
    with get_task_stream(client) as stream:
        count = draughts.perft(position, 8, paths=convention == "keep", executor=client.get_executor())
    assert count == PERFT["international"][convention]["8"]
    assert _workers_used(stream) == set(client.nthreads())
