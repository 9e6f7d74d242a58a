"""A material's table written from its part files as a stream, never held whole in memory.

A material built in parts (:mod:`draughts.endgame.parts`) leaves one file per part: the values of
its slices (codes, distances, codes within the rules, one or two bytes an entry). The table file
wants them in index order (side to move, then the men's placement, then the kings'), packed,
after a header with the statistics. So the parts are read three times, one at a time: once for the
counts, the longest wins and the widest distance (the header's), once for the example of each
longest win (the first placement in the walking order, as ``draughts.endgame.table`` finds it),
and once, slice by slice in index order, read from the part files at their offsets, to pack each
section as it is written. The file is the one :func:`~draughts.endgame.table.write_table` writes
from the whole table, byte for byte; the memory is one part's values and a buffer, not the
material's 4 bytes an entry (International's ``MKKvMK`` of six pieces: 20 GiB).
"""

from __future__ import annotations

import json
import os
import struct
import sys
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from draughts.color import Color
from draughts.endgame.codes import DRAW, HOLE, LOSS, WIN
from draughts.endgame.index import Indexer, Placement
from draughts.rules import Ruleset

__all__ = ["PartFile", "write_streamed"]

_BUFFER = 1 << 22
"""Entries packed at a time (a multiple of 8)."""


class PartFile:
    """One part file: its slices and where each section starts (read with ``os.pread``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        with path.open("rb") as handle:
            (length,) = struct.unpack("<I", handle.read(4))
            self.header: dict[str, Any] = json.loads(handle.read(length))
        self.slices: list[int] = self.header["slices"]
        starts, at = [], 4 + length
        for size in self.header["sizes"]:
            starts.append(at)
            at += size
        self.starts = starts

    def sections(self) -> list[bytes]:
        """The part's sections, read whole (one part at a time)."""
        with self.path.open("rb") as handle:
            handle.seek(self.starts[0])
            return [handle.read(size) for size in self.header["sizes"]]

    def read(self, fd: int, section: int, first: int, count: int, itemsize: int) -> bytes:
        """``count`` entries of ``section`` from entry ``first`` (``fd``: this file, open)."""
        return os.pread(fd, count * itemsize, self.starts[section] + first * itemsize)


def _tally(parts: list[PartFile], per: int, within: bool) -> dict[str, Any]:
    """Per side to move: the counts of each code (and within the rules), the longest win; and the
    longest distance of all (counted natively, each slice's side to move a run)."""
    from draughts._native import tally
    from draughts.endgame.solve import default_workers

    counts = [[0, 0, 0] for _ in (0, 1)]
    within_counts = [[0, 0, 0] for _ in (0, 1)]
    longest, widest = [-1, -1], 0
    for part in parts:
        sections = part.sections()
        runs = tally(sections[0], _little(sections[1]), sections[2] if within else None, per, default_workers())
        for number, (found, inside, won, wide) in enumerate(runs):
            turn = number % 2  # a slice's entries: its placements with White to move, then Black
            for code in (DRAW, WIN, LOSS):
                counts[turn][code] += found[code]
                if inside is not None:
                    within_counts[turn][code] += inside[code]
            longest[turn] = max(longest[turn], won)
            widest = max(widest, wide)
    return {"counts": counts, "within": within_counts if within else None, "longest": longest, "widest": widest}


def _little(plies: bytes) -> bytes:
    """A part's distances (2 bytes each, in the machine's order) as little-endian bytes."""
    if sys.byteorder == "little":
        return plies
    swapped = array("H")  # pragma: no cover - big-endian machines
    swapped.frombytes(plies)  # pragma: no cover
    swapped.byteswap()  # pragma: no cover
    return swapped.tobytes()  # pragma: no cover


def _examples(parts: list[PartFile], indexer: Indexer, longest: list[int]) -> list[Placement | None]:
    """Per side to move, the first placement of the walking order won in ``longest`` plies."""
    per = indexer.radix[2] * indexer.radix[3]
    best: list[tuple[list[int], Placement] | None] = [None, None]
    for part in parts:
        sections = part.sections()
        plies = array("H")
        plies.frombytes(sections[1])
        for j, slice_ in enumerate(part.slices):
            for turn in (0, 1):
                if longest[turn] < 0:
                    continue
                local = (2 * j + turn) * per
                at = local
                while True:
                    try:
                        at = plies.index(longest[turn], at, local + per)
                    except ValueError:
                        break
                    placement = indexer.unrank(slice_ * per + at - local) if sections[0][at] == WIN else None
                    if placement is not None:
                        key = _walk_key(placement)
                        found = best[turn]
                        if found is None or key < found[0]:
                            best[turn] = (key, placement)
                    at += 1
    return [None if found is None else found[1] for found in best]


def _walk_key(placement: Placement) -> list[int]:
    """The order of a placement in ``Indexer.placements_of``: each group's bits in turn."""
    white, black, kings = placement
    key: list[int] = []
    for group in (white & ~kings, black & ~kings, white & kings, black & kings):
        key += [bit for bit in range(group.bit_length()) if group >> bit & 1]
    return key


def statistics(ruleset: Ruleset, indexer: Indexer, parts: list[PartFile], within: bool) -> tuple[dict[str, Any], int]:
    """The statistics of the header (as ``draughts.endgame.table.statistics`` gives them) and
    the widest distance, from the part files."""
    from draughts.endgame.table import fen_of

    per = indexer.radix[2] * indexer.radix[3]
    tally = _tally(parts, per, within)
    examples = _examples(parts, indexer, tally["longest"])
    stats: dict[str, Any] = {}
    for turn in (0, 1):
        counts = tally["counts"][turn]
        example = examples[turn]
        side: dict[str, Any] = {
            "positions": sum(counts),
            "win": counts[WIN],
            "loss": counts[LOSS],
            "draw": counts[DRAW],
        }
        side["longest_win"] = tally["longest"][turn] if example else None
        side["longest_win_fen"] = fen_of(ruleset, *example, turn) if example else None
        side["within_rules"] = None
        if tally["within"] is not None:
            inside = tally["within"][turn]
            side["within_rules"] = {"win": inside[WIN], "loss": inside[LOSS], "draw": inside[DRAW]}
        stats[Color(turn).name.lower()] = side
    return stats, int(tally["widest"])


def _section(
    parts: list[PartFile], indexer: Indexer, section: int, itemsize: int, bits: int, fill: int
) -> Iterator[bytes]:
    """One section of the table, packed ``bits`` bits an entry, in index order: each slice read
    from its part file (``fill`` where no part has it: holes)."""
    from draughts._native import pack

    per = indexer.radix[2] * indexer.radix[3]
    where = {slice_: (k, j) for k, part in enumerate(parts) for j, slice_ in enumerate(part.slices)}
    blank = fill.to_bytes(itemsize, "little") * per
    fds = [os.open(part.path, os.O_RDONLY) for part in parts]
    try:
        buffer = bytearray()
        for turn in (0, 1):
            for slice_ in range(indexer.radix[0] * indexer.radix[1]):
                found = where.get(slice_)
                if found is None:
                    buffer += blank
                else:
                    k, j = found
                    buffer += parts[k].read(fds[k], section, (2 * j + turn) * per, per, itemsize)
                if len(buffer) >= _BUFFER * itemsize:
                    cut = len(buffer) // (8 * itemsize) * 8 * itemsize
                    yield pack(bytes(buffer[:cut]), itemsize, bits)
                    del buffer[:cut]
        if buffer:
            yield pack(bytes(buffer), itemsize, bits)
    finally:
        for fd in fds:
            os.close(fd)


def write_streamed(
    ruleset: Ruleset, path: Path, key: str, indexer: Indexer, parts: list[PartFile], extra: dict[str, Any]
) -> None:
    """Write the table of ``indexer``'s material at ``path`` from its ``parts``, streamed."""
    from draughts.endgame import storage
    from draughts.endgame.within import keeps_within

    within = keeps_within(ruleset)
    stats, widest = statistics(ruleset, indexer, parts, within)
    bits = widest.bit_length()
    header: dict[str, Any] = {"entries": indexer.size, "plies_bits": bits, "within": within}
    header.update(key=key, material=indexer.material.name, stats=stats, **extra)

    def sections() -> Iterator[bytes]:
        yield from _section(parts, indexer, 0, 1, 2, HOLE)
        if bits:
            yield from _section(parts, indexer, 1, 2, bits, 0)
        if within:
            yield from _section(parts, indexer, 2, 1, 2, HOLE)

    storage.write(path, header, sections())
