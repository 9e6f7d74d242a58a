"""What a build does besides solving (issue 38 §2): the statistics and the packing of a table run
natively (the same header and sections as the Python passes they replace), and a build in this
process writes each table beside the next material's solve, never before a material it needs."""

from __future__ import annotations

import random
import threading
import time
from array import array
from concurrent.futures import ThreadPoolExecutor
from itertools import compress
from pathlib import Path
from typing import Any

import pytest

from draughts.endgame import Material, Tablebase, phases, storage, tablebase
from draughts.endgame.codes import DRAW, LOSS, WIN
from draughts.endgame.index import Indexer
from draughts.endgame.solve import Solved
from draughts.endgame.table import sections, statistics
from draughts.rules.names import get_variant


def _python_counts(solved: Solved) -> list[dict[str, Any]]:
    """The counts and longest wins as the Python statistics took them (before the native tally)."""
    half = solved.indexer.placements
    out = []
    for turn in (0, 1):
        part = solved.codes[turn * half : (turn + 1) * half]
        wins = compress(solved.plies[turn * half : (turn + 1) * half], map(WIN.__eq__, part))
        side: dict[str, Any] = {"win": part.count(WIN), "loss": part.count(LOSS), "draw": part.count(DRAW)}
        side["longest"] = max(wins, default=-1)
        if solved.within is not None:
            within = solved.within[turn * half : (turn + 1) * half]
            side["within"] = {"win": within.count(WIN), "loss": within.count(LOSS), "draw": within.count(DRAW)}
        out.append(side)
    return out


def _random_solved(material: str, seed: int, within: bool) -> Solved:
    rules = get_variant("russian")
    indexer = Indexer(rules, Material.parse(material))
    chooser = random.Random(seed)
    codes = bytearray(chooser.choice((DRAW, WIN, WIN, LOSS, 3)) for _ in range(indexer.size))
    plies = array("H", (chooser.randrange(300) if code in (WIN, LOSS) else 0 for code in codes))
    inside = bytearray(chooser.choice((DRAW, WIN, LOSS, 3)) for _ in range(indexer.size)) if within else None
    return Solved(indexer, codes, plies, inside)


@pytest.mark.parametrize(("material", "within"), [("KvK", False), ("MKvK", True), ("KKvM", True)])
def test_native_statistics_count_as_the_python_passes_did(material: str, within: bool) -> None:
    solved = _random_solved(material, 7, within)
    stats = statistics(get_variant("russian"), solved)
    for turn, expected in zip((0, 1), _python_counts(solved), strict=True):
        side = stats["white" if turn == 0 else "black"]
        for name in ("win", "loss", "draw"):
            assert side[name] == expected[name]
        assert side["positions"] == expected["win"] + expected["loss"] + expected["draw"]
        assert side["within_rules"] == expected.get("within")
        assert side["longest_win"] in (expected["longest"], None)  # None: no position has that placement
    header, parts = sections(solved, solved.within)
    assert header["plies_bits"] == max(solved.plies).bit_length()
    assert parts[0] == storage.pack(list(solved.codes), 2)  # the Python loop (a list is packed in Python)
    assert parts[1] == storage.pack(list(solved.plies), header["plies_bits"])
    assert len(parts) == (3 if within else 2)
    if solved.within is not None:
        assert parts[2] == storage.pack(list(solved.within), 2)


@pytest.mark.parametrize("bits", [0, 1, 2, 5, 8, 9, 13, 16])
def test_native_packing_of_raw_values_is_the_python_packing(bits: int) -> None:
    chooser = random.Random(bits)
    for count in (0, 1, 7, 8, 9, 1000, 4099):
        values = [chooser.randrange(1 << bits) for _ in range(count)]  # each fits its field
        raw = array("H", values).tobytes()
        expected = storage.pack(values, bits)  # a list: packed eight at a time in Python
        assert storage.pack_raw(raw, 2, bits) == expected
        assert storage.pack(array("H", values), bits) == expected


def _graph_checked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Record when each material's solve starts and its writing ends."""
    events: list[tuple[str, str]] = []
    solved, write = tablebase._solved, tablebase._write

    def solving(ruleset: Any, material: Material, *args: Any) -> Any:
        events.append(("solve", material.name))
        return solved(ruleset, material, *args)

    def writing(made: Any, *args: Any) -> None:
        write(made, *args)
        events.append(("written", made[3].indexer.material.name))

    monkeypatch.setattr(tablebase, "_solved", solving)
    monkeypatch.setattr(tablebase, "_write", writing)
    return events


def test_a_table_is_written_before_a_material_that_needs_it_is_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = _graph_checked(monkeypatch)
    tb = Tablebase("american", tmp_path)
    built = tb.build("MvM", symmetry=False)
    graph = {item: set(Material.parse(item.name).successors(tb.rules)) & set(built) for item in built}
    for item in built:
        start = events.index(("solve", item.name))
        for needed in graph[item]:
            assert events.index(("written", needed.name)) < start, (needed, item)
    assert sorted(name for kind, name in events if kind == "written") == sorted(item.name for item in built)


def test_a_table_is_written_while_the_next_material_is_solved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``MvK`` and ``KvM`` need only ``KvK``: the first one's writing waits (on an event, with a
    timeout only against a hang) until the second one's solve has started, which a build
    writing each table before the next solve never lets happen."""
    pair = ("MvK", "KvM")
    seen: list[str] = []
    second_started = threading.Event()
    overlapped: list[bool] = []
    solved, write = tablebase._solved, tablebase._write

    def solving(ruleset: Any, material: Material, *args: Any) -> Any:
        if material.name in pair:
            seen.append(material.name)
            if len(seen) == 2:
                second_started.set()
        return solved(ruleset, material, *args)

    def writing(made: Any, *args: Any) -> None:
        if seen and made[3].indexer.material.name == seen[0]:
            overlapped.append(second_started.wait(timeout=60))
        write(made, *args)

    monkeypatch.setattr(tablebase, "_solved", solving)
    monkeypatch.setattr(tablebase, "_write", writing)
    tb = Tablebase("american", tmp_path)
    tb.build(list(pair), symmetry=False)
    assert overlapped == [True]
    assert tb.has("MvK")
    assert tb.has("KvM")


def test_phases_are_recorded_in_turn(tmp_path: Path) -> None:
    phases.record()
    try:
        built = Tablebase("russian", tmp_path).build(pieces=2)
        recorded = phases.recorded()
    finally:
        phases.record(False)
    names = {(material, name) for material, name, _, _ in recorded}
    made = {item.name: {name for material, name in names if material == item.name} for item in built}
    assert all({"statistics", "pack", "write"} <= steps for steps in made.values()), made
    solved = [name for name, steps in made.items() if {"solve", "native"} <= steps]
    mirrored = [name for name, steps in made.items() if {"read twin", "mirror"} <= steps]
    assert sorted(solved + mirrored) == sorted(made)
    assert mirrored  # Russian: KvM made from MvK
    assert all(wall >= 0 and cpu >= 0 for _, _, wall, cpu in recorded)
    assert not phases.recording()
    assert phases.recorded() == []


def test_a_solve_beside_a_writing_counts_its_own_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock of a solve run beside a table's writing is the process's CPU less the writer
    thread's (fake clocks: the process has spent 10 s, the writer's thread 3 s of them)."""
    clocks: dict[int, float] = {}

    def thread_clock(ident: int) -> int:
        clocks[ident] = 3.0
        return ident

    monkeypatch.setattr(time, "pthread_getcpuclockid", thread_clock, raising=False)
    monkeypatch.setattr(time, "clock_gettime", lambda clock: clocks[clock])
    monkeypatch.setattr(time, "process_time", lambda: 10.0)
    with ThreadPoolExecutor(1) as writer:
        clock = tablebase._without(writer)
        assert clock() == 7.0
        assert list(clocks) == [writer.submit(threading.get_ident).result()]
