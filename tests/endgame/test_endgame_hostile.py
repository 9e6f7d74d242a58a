"""Hostile requests and files (issue 40 item 16): a build far too large is refused before its
graph is expanded, a table's place holding a FIFO, a device or a huge file is refused before it
is read, hand-made files with a valid checksum over a bad header raise TablebaseFileError, and
killed builds' temporary files go at the next build."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from draughts import Position
from draughts.endgame import Material, Tablebase, TablebaseError, TablebaseFileError, storage
from draughts.endgame import material as material_module
from draughts.web.app import create_app
from draughts.web.endgame import NOT_BUILT

FEN = "B:WK29:BK28"  # American: Black to move wins in 11 plies
SCRIPT = Path(sys.executable).parent / "draughts"


def built(tmp_path: Path) -> Tablebase:
    tb = Tablebase("american", tmp_path)
    tb.build("KvK")
    return tb


# --- the planner ---------------------------------------------------------------------------------


def test_forty_pieces_are_refused_before_any_material_is_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    def expanded(self: Material, rules: object) -> list[Material]:
        raise AssertionError(f"the planner expanded {self.name} before refusing")

    monkeypatch.setattr(material_module.Material, "successors", expanded)
    listed: list[int] = []
    real = material_module.materials_up_to
    monkeypatch.setattr(
        "draughts.endgame.tablebase.materials_up_to", lambda rules, pieces: listed.append(pieces) or real(rules, pieces)
    )
    tb = Tablebase("international")
    with pytest.raises(TablebaseError, match=r"pieces=40: material K+vK+ of international has .* max_positions"):
        tb.plan(pieces=40)
    with pytest.raises(TablebaseError, match="pieces=41: international has 40 pieces on the board at most"):
        tb.plan(pieces=41)
    big = "M" * 20 + "v" + "M" * 20
    with pytest.raises(TablebaseError, match=f"material {big} of international"):
        tb.plan(big)
    assert listed == []  # not even the materials of 40 pieces were listed


def test_the_command_line_answers_forty_pieces_at_once(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(SCRIPT), "endgame", "build", "international", "--pieces", "40", "--tablebases", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,  # a watchdog only: the answer is the refusal below, not a time
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "pieces=40" in done.stderr
    assert "max_positions=50,000,000" in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(tmp_path.iterdir())


def test_a_small_build_still_plans_every_dependency(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    waves = tb.plan(pieces=3)
    assert [m.name for m in waves[0]] == ["KvK"]
    assert sorted(m for wave in waves for m in wave) == sorted(material_module.materials_up_to(tb.rules, 3))


# --- what stands in a table's place ----------------------------------------------------------------


def _table_in_thread(tb: Tablebase) -> BaseException | None:
    """``tb.table("KvK")`` in a thread with a watchdog, so a read that blocks fails the test."""
    caught: list[BaseException | None] = []

    def read() -> None:
        try:
            tb.table("KvK")
            caught.append(None)
        except BaseException as error:  # handed to the test
            caught.append(error)

    worker = threading.Thread(target=read, daemon=True)
    worker.start()
    worker.join(60)
    assert caught, "reading the table blocked"
    return caught[0]


def test_a_fifo_in_a_tables_place_is_refused_without_blocking(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    os.mkfifo(tb.path("KvK"))
    error = _table_in_thread(tb)
    assert isinstance(error, TablebaseFileError)
    assert "not a regular file" in str(error)
    assert not tb.has("KvK")


def test_a_link_to_a_device_is_refused_before_reading(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    tb.path("KvK").symlink_to("/dev/zero")
    error = _table_in_thread(tb)
    assert isinstance(error, TablebaseFileError)
    assert "not a regular file" in str(error)


def test_a_sparse_file_larger_than_the_table_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tb = Tablebase("american", tmp_path)
    path = tb.path("KvK")
    with path.open("wb") as handle:
        handle.truncate(8 * 2**30)  # 8 GB of holes
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(TablebaseFileError, match="8,589,934,592 bytes, more than a table of its material can have"):
        tb.table("KvK")
    assert sum(reads) == 0


def test_a_real_table_is_within_its_size_bound(tmp_path: Path) -> None:
    tb = built(tmp_path)
    size = tb.path("KvK").stat().st_size
    assert size <= storage.largest_file(1984)
    assert Tablebase("american", tmp_path).probe(Position.from_fen("american", FEN)).plies == 11


# --- hand-made files with a valid checksum -------------------------------------------------------------


def _rewrite(path: Path, header: Any, body: bytes | None = None, raw: bytes | None = None) -> None:
    """Write ``path`` as a table file whose checksum is right whatever its header holds."""
    old = path.read_bytes()
    length = int.from_bytes(old[5:9], "little")
    body = old[9 + length : -32] if body is None else body
    text = raw if raw is not None else json.dumps(header).encode()
    data = storage.MAGIC + bytes([storage.FORMAT]) + len(text).to_bytes(4, "little") + text + body
    path.write_bytes(data + hashlib.sha256(data).digest())


def _header(tb: Tablebase) -> dict[str, Any]:
    header, _ = storage.read(tb.path("KvK"), tb.key, Material.parse("KvK"))
    return header


BAD_HEADERS: list[tuple[str, Any]] = [
    ("entries", None),
    ("entries", "1984"),
    ("plies_bits", None),
    ("plies_bits", "x"),
    ("plies_bits", -4),
    ("plies_bits", 10**6),
    ("plies_bits", [4]),
    ("within", "yes"),
    ("within", None),
    ("stats", None),
    ("stats", {"white": 5, "black": 5}),
    ("stats", {"white": {"positions": "many"}, "black": {}}),
    ("stats", [[[[]]]]),
]


@pytest.mark.parametrize(("name", "value"), BAD_HEADERS)
def test_a_bad_header_under_a_valid_checksum_is_a_file_error(tmp_path: Path, name: str, value: Any) -> None:
    tb = built(tmp_path)
    header = _header(tb)
    if value is None:
        del header[name]
    else:
        header[name] = value
    _rewrite(tb.path("KvK"), header)
    fresh = Tablebase("american", tmp_path)
    with pytest.raises(TablebaseFileError, match="table of KvK has"):
        fresh.probe(Position.from_fen("american", FEN))
    assert not fresh.has("KvK")


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,  # RecursionError in json on main
        b'{"key": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b"\xff\xfe",
        b"3",
    ],
)
def test_an_unreadable_header_under_a_valid_checksum_is_a_file_error(tmp_path: Path, raw: bytes) -> None:
    tb = built(tmp_path)
    _rewrite(tb.path("KvK"), None, raw=raw)
    with pytest.raises(TablebaseFileError, match="unreadable header"):
        Tablebase("american", tmp_path).table("KvK")


def test_a_header_length_past_the_end_is_a_file_error(tmp_path: Path) -> None:
    tb = built(tmp_path)
    path = tb.path("KvK")
    data = bytearray(path.read_bytes()[:-32])
    data[5:9] = (2**32 - 1).to_bytes(4, "little")
    path.write_bytes(bytes(data) + hashlib.sha256(bytes(data)).digest())
    with pytest.raises(TablebaseFileError, match="past its end or too long"):
        Tablebase("american", tmp_path).table("KvK")


def test_the_no_position_code_at_a_real_position_is_a_file_error(tmp_path: Path) -> None:
    tb = built(tmp_path)
    header = _header(tb)
    _, body = storage.read(tb.path("KvK"), tb.key, Material.parse("KvK"))
    codes = storage.packed_size(1984, 2)
    _rewrite(tb.path("KvK"), header, body=b"\xff" * codes + body[codes:])  # every entry "no position"
    fresh = Tablebase("american", tmp_path)
    position = Position.from_fen("american", FEN)
    with pytest.raises(TablebaseFileError, match="code 3"):
        fresh.probe(position)
    with pytest.raises(TablebaseFileError, match="code 3"):
        fresh.best_moves(position)


def test_the_web_answers_a_hand_made_header_plainly_and_again(tmp_path: Path) -> None:
    tb = built(tmp_path)
    header = _header(tb)
    header["plies_bits"] = "x"
    _rewrite(tb.path("KvK"), header)
    settings = {"workers": 1, "engine_workers": 1, "work_time": 120.0}
    with TestClient(create_app(default_variant="american", tablebases=tmp_path, **settings)) as client:
        for _ in range(2):  # the second answer is not a cached failure either
            response = client.get("/api/endgame", params={"variant": "american", "fen": FEN})
            assert response.status_code == 200, response.text
            answer = response.json()
            assert answer["in_table"] is False
            assert answer["message"].startswith(NOT_BUILT)
            assert "plies_bits 'x'" in answer["message"]


# --- temporary files of killed builds ------------------------------------------------------------------


def test_a_killed_builds_temporary_file_goes_at_the_next_build(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    stale = tmp_path / (tb.path("KvK").name + ".abc123.tmp")
    stale.write_bytes(b"half a table")  # nobody holds its lock: its writer is gone
    other = tmp_path / "notes.tmp"
    other.write_text("not ours")
    assert tb.build("KvK") == [Material.parse("KvK")]
    assert not stale.exists()
    assert other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([tb.path("KvK").name, "notes.tmp"])


def test_a_running_builds_temporary_file_is_kept(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    handle, name = storage._locked_temporary(tb.path("KvK"))  # as a build writing it holds it
    try:
        assert storage.remove_stale(tmp_path) == []
        assert Path(name).exists()
    finally:
        os.close(handle)
    assert storage.remove_stale(tmp_path) == [Path(name)]
    assert not Path(name).exists()
