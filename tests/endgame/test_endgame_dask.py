"""The material DAG of a tablebase build as one Dask task graph (issue 38 §2): on a real
LocalCluster (two worker processes of one thread each), the files are those of a local build,
byte for byte, and the command line builds over ``--scheduler`` as it does locally."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client, LocalCluster

from draughts.endgame import Material, Tablebase, TablebaseError, storage
from draughts.endgame.cluster import build_on_dask, graph_of

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        yield str(cluster.scheduler_address)


def _files(variant: str, directory: Path) -> dict[str, tuple[dict[str, object], bytes]]:
    """Each table file's header (but the CPU time its build took) and body (the values)."""
    key = Tablebase(variant, directory).key
    out = {}
    for path in sorted(directory.iterdir()):
        material = Material.parse(path.name.split(".")[0])
        header, body = storage.read(path, key, material)
        header.pop("build_cpu_seconds")
        out[path.name] = (header, body)
    return out


def test_a_cluster_build_writes_the_local_builds_files(address: str, tmp_path: Path) -> None:
    local = Tablebase("russian", tmp_path / "local")
    built_here = local.build("MKvK")
    remote = Tablebase("russian", tmp_path / "cluster")
    with Client(address) as client:
        built = build_on_dask(remote, client, "MKvK")
        assert built == built_here
        assert Material.parse("MKvK") in built
        workers = {str(w) for w in client.run(lambda: 1)}
    assert len(workers) == 2
    assert _files("russian", tmp_path / "cluster") == _files("russian", tmp_path / "local")
    with Client(address) as client:  # everything is there: nothing is submitted again
        assert build_on_dask(remote, client, "MKvK") == []


def test_the_graph_holds_only_what_is_missing(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    graph = graph_of(tb, "KKvK")
    assert graph == {Material.parse("KKvK"): []}  # KvK is on disk: no dependency left
    with pytest.raises(TablebaseError, match="max_positions"):
        graph_of(Tablebase("international", tmp_path), pieces=9)


def test_the_command_builds_over_the_scheduler(
    address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from draughts.cli import main

    argv = ["endgame", "build", "american", "MvK"]
    assert main([*argv, "--tablebases", str(tmp_path / "local")]) == 0
    assert main([*argv, "--tablebases", str(tmp_path / "cluster"), "--scheduler", address]) == 0
    assert "2 tables built" in capsys.readouterr().out
    assert _files("american", tmp_path / "cluster") == _files("american", tmp_path / "local")
    assert main([*argv, "--tablebases", str(tmp_path / "x"), "--scheduler", address, "--workers", "2"]) != 0


def test_a_material_in_parts_on_the_cluster_writes_the_local_builds_file(address: str, tmp_path: Path) -> None:
    """Materials cut into parts of at most 3,000 entries, each a task (a part waits for its
    material's next level and the smaller materials): the files are the local build's."""
    local = Tablebase("russian", tmp_path / "local")
    built_here = local.build("MKvK")
    remote = Tablebase("russian", tmp_path / "cluster")
    with Client(address) as client:
        recording = _Recording(client)
        built = build_on_dask(remote, recording, "MKvK", part_entries=3000)
    assert built == built_here
    parts = [key for key in recording.keys if key.startswith("endgame-MKvK-") and "-part-" in key]
    assert len(parts) > 3, recording.keys  # MKvK in parts; the smaller materials whole
    assert _files("russian", tmp_path / "cluster") == _files("russian", tmp_path / "local")


class _Recording:
    """A client that notes the keys of the tasks submitted through it."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.keys: list[str] = []

    def submit(self, *args: object, key: str, **options: object) -> object:
        self.keys.append(key)
        return self.client.submit(*args, key=key, **options)

    def gather(self, futures: object) -> object:
        return self.client.gather(futures)
