"""Table files: atomic writes, checks on open (never a wrong answer), parallel builds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from draughts import Position
from draughts.endgame import Material, Tablebase, TablebaseError, TablebaseFileError, ruleset_key, storage

FEN = "B:WK29:BK28"  # American: Black to move wins in 11 plies


def built(tmp_path: Path, variant: str = "american", material: str = "KvK") -> Tablebase:
    tb = Tablebase(variant, tmp_path)
    tb.build(material)
    return tb


def test_killed_build_leaves_no_table(tmp_path: Path) -> None:
    """A build killed (SIGKILL) while its file is being written leaves only a temporary file,
    which is never read: the material counts as not built, and building again gives the table."""
    script = textwrap.dedent(
        f"""
        import os, sys, time
        import draughts.endgame.storage as storage
        def stall(fd):
            print("writing", flush=True)
            time.sleep(120)
        storage.os.fsync = stall
        from draughts.endgame import Tablebase
        Tablebase("american", {str(tmp_path)!r}).build("KvK")
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "writing"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    leftovers = list(tmp_path.iterdir())
    assert leftovers
    assert all(path.name.endswith(".tmp") for path in leftovers)
    tb = Tablebase("american", tmp_path)
    assert not tb.has("KvK")
    with pytest.raises(TablebaseError, match="no table of KvK"):
        tb.probe(Position.from_fen("american", FEN))
    assert tb.build("KvK") == [Material.parse("KvK")]
    assert tb.probe(Position.from_fen("american", FEN)).plies == 11


def test_failed_write_removes_its_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage.os, "fsync", broken)
    with pytest.raises(OSError, match="disk full"):
        Tablebase("american", tmp_path).build("KvK")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("where", [0, 4, 40, -40, -1])
def test_corrupted_file_is_refused(tmp_path: Path, where: int) -> None:
    path = built(tmp_path).path("KvK")
    data = bytearray(path.read_bytes())
    data[where] ^= 0x10
    path.write_bytes(bytes(data))
    tb = Tablebase("american", tmp_path)
    assert not tb.has("KvK")
    with pytest.raises(TablebaseFileError):
        tb.probe(Position.from_fen("american", FEN))


def test_truncated_file_is_refused(tmp_path: Path) -> None:
    path = built(tmp_path).path("KvK")
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(TablebaseFileError, match="checksum"):
        Tablebase("american", tmp_path).table("KvK")


def test_foreign_file_is_refused(tmp_path: Path) -> None:
    """A table of other rules (Italian's king against king, moved under American's name) or of
    another material never answers."""
    italian = built(tmp_path, "italian")
    american = Tablebase("american", tmp_path)
    italian.path("KvK").rename(american.path("KvK"))
    with pytest.raises(TablebaseFileError, match="other rules"):
        american.table("KvK")
    mine = built(tmp_path / "2")
    mine.path("KvK").rename(mine.path("KvM"))
    with pytest.raises(TablebaseFileError, match="holds 'KvK'"):
        Tablebase("american", tmp_path / "2").table("KvM")


def test_not_a_table(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.path("KvK").write_bytes(b"hello")
    with pytest.raises(TablebaseFileError, match="not a polydraughts table"):
        tb.table("KvK")
    assert tb.build("KvK") == [Material.parse("KvK")]  # a bad file is built over
    assert tb.has("KvK")


def test_header_names_the_ruleset_key(tmp_path: Path) -> None:
    tb = built(tmp_path)
    header, _ = storage.read(tb.path("KvK"), tb.key, Material.parse("KvK"))
    assert header["key"] == ruleset_key(tb.rules) == tb.key
    assert header["material"] == "KvK"
    assert header["plies_bits"] == 4  # distances up to 11 plies
    assert header["within"]  # American's 40-move rule: the verdicts under it are stored too
    # 1984 entries: 2 bits of value, 4 of distance and 2 under the rules each, and the header.
    assert tb.path("KvK").stat().st_size == 1984 * 8 // 8 + len(json.dumps(header, sort_keys=True)) + 4 + 5 + 32


def test_pack_round_trip() -> None:
    values = [0, 1, 2, 3, 17, 5, 31, 0, 9, 30]
    for bits in (5, 6, 9):
        data = storage.pack(values, bits)
        assert len(data) == storage.packed_size(len(values), bits)
        assert [storage.field(data, i, bits) for i in range(len(values))] == values


@pytest.mark.parametrize("kind", ["threads", "processes"])
def test_parallel_build_gives_the_same_tables(tmp_path: Path, kind: str) -> None:
    material = "MvM"  # needs MvK and KvM (independent: built at once), which need KvK
    serial = Tablebase("american", tmp_path / "serial")
    order = serial.build(material)
    pool = ThreadPoolExecutor(2) if kind == "threads" else ProcessPoolExecutor(2)
    with pool:
        parallel = Tablebase("american", tmp_path / "parallel")
        assert sorted(parallel.build(material, executor=pool)) == sorted(order)
    assert len(order) == 4
    for item in order:
        _, ours = storage.read(serial.path(item), serial.key, item)
        _, theirs = storage.read(parallel.path(item), parallel.key, item)
        assert ours == theirs, item


def test_table_files_are_readable_by_all(tmp_path: Path) -> None:
    path = built(tmp_path).path("KvK")
    assert path.stat().st_mode & 0o777 == 0o644
