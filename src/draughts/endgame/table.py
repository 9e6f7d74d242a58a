"""One material's table: its values, packed as on disk, its statistics, and reading and writing it."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from draughts._text import excerpt
from draughts.color import Color
from draughts.endgame import storage
from draughts.endgame.codes import DRAW, LOSS, WIN
from draughts.endgame.errors import TablebaseFileError
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
from draughts.endgame.phases import phase
from draughts.endgame.solve import Solved, Value
from draughts.position import Piece, Position
from draughts.rules import Ruleset

__all__ = ["Table", "code_name", "fen_of", "sections", "statistics", "write_table"]

_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}


class Table:
    """The values of one material under one ruleset, as read from (or written to) its file.

    Attributes:
        material: The material.
        header: The file's header: key, material, entries, field widths and the statistics.
    """

    def __init__(self, ruleset: Ruleset, material: Material, header: dict[str, Any], body: bytes) -> None:
        self.rules = ruleset
        self.material = material
        self.header = header
        self.indexer = Indexer(ruleset, material)
        size = self.indexer.size
        _check_header(header, material, size)
        self._plies_bits = header["plies_bits"]
        widths = [storage.packed_size(size, 2), storage.packed_size(size, self._plies_bits)]
        widths.append(storage.packed_size(size, 2) if header["within"] else 0)
        if sum(widths) != len(body):
            raise TablebaseFileError(
                f"table of {material.name} has {len(body)} bytes of values, expected {sum(widths)}"
            )
        view = memoryview(body)
        self._codes = view[: widths[0]]
        self._plies = view[widths[0] : widths[0] + widths[1]]
        self._within = view[widths[0] + widths[1] :] if header["within"] else None

    def value(self, white: int, black: int, kings: int, turn: int) -> Value:
        """``(code, plies)`` of a position of this material for the side to move."""
        index = self.indexer.index(white, black, kings, turn)
        return storage.field(self._codes, index, 2), storage.field(self._plies, index, self._plies_bits)

    def at(self, index: int) -> Value:
        """``(code, plies)`` of the entry ``index`` (a solver looks up many positions of one
        table: it ranks each once and reads both fields)."""
        return storage.field(self._codes, index, 2), storage.field(self._plies, index, self._plies_bits)

    def within_at(self, index: int) -> int | None:
        """The code under the draw rules of the entry ``index`` (None: the file has none)."""
        return None if self._within is None else storage.field(self._within, index, 2)

    def within(self, white: int, black: int, kings: int, turn: int) -> int | None:
        """The code of a position under the ruleset's draw rules (None: the file has none)."""
        if self._within is None:
            return None
        return storage.field(self._within, self.indexer.index(white, black, kings, turn), 2)

    def sections(self) -> tuple[bytes, bytes, bytes | None]:
        """The packed codes, distances and codes within the rules (None: none), as in the file."""
        return bytes(self._codes), bytes(self._plies), None if self._within is None else bytes(self._within)

    @property
    def stats(self) -> dict[str, Any]:
        """The statistics stored with the table (see ``Tablebase.stats``)."""
        stats: dict[str, Any] = self.header["stats"]
        return stats


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _check_header(header: dict[str, Any], material: Material, size: int) -> None:
    """Refuse a header whose fields a reader would trip on (a hand-made file can carry a valid
    checksum over anything): the entries, the field width, the within flag and the statistics
    the commands and the web board print must have their types, or :class:`TablebaseFileError`."""
    where = f"table of {material.name}"
    if header.get("entries") != size or not _is_count(header.get("entries")):
        raise TablebaseFileError(f"{where} has {excerpt(header.get('entries'))} entries, expected {size}")
    bits = header.get("plies_bits")
    if not isinstance(bits, int) or isinstance(bits, bool) or not 0 <= bits <= 64:
        raise TablebaseFileError(f"{where} has plies_bits {excerpt(bits)}, not a width from 0 to 64")
    if not isinstance(header.get("within"), bool):
        raise TablebaseFileError(f"{where} has within {excerpt(header.get('within'))}, not true or false")
    stats = header.get("stats")
    if not isinstance(stats, dict) or set(stats) != {"white", "black"}:
        raise TablebaseFileError(f"{where} has unreadable statistics: {excerpt(stats)}")
    for side in stats.values():
        if not _side_stats_ok(side):
            raise TablebaseFileError(f"{where} has unreadable statistics: {excerpt(side)}")


def _side_stats_ok(side: object) -> bool:
    """Whether one side's statistics have the fields and types :func:`statistics` writes."""
    if not isinstance(side, dict) or not all(_is_count(side.get(name)) for name in ("positions", *_NAMES.values())):
        return False
    within = side.get("within_rules")
    return (
        (side.get("longest_win") is None or _is_count(side.get("longest_win")))
        and (side.get("longest_win_fen") is None or isinstance(side.get("longest_win_fen"), str))
        and (within is None or (isinstance(within, dict) and all(_is_count(within.get(n)) for n in _NAMES.values())))
    )


def code_name(code: int) -> str:
    """``"win"``, ``"loss"`` or ``"draw"``.

    Raises:
        TablebaseFileError: ``code`` is the "no position" code (or none at all), which a table
            stores only for placements no position has: reading it for a real position means
            the file was made by hand.
    """
    name = _NAMES.get(code)
    if name is None:
        raise TablebaseFileError(f"a table entry holds code {code}, which no real position has: the file is not ours")
    return name


def fen_of(ruleset: Ruleset, white: int, black: int, kings: int, turn: int) -> str:
    """The FEN of a position given as bit masks of the generator's layout."""
    from draughts._core.tables import compile_rules

    tables = compile_rules(ruleset)
    pieces: dict[int, Piece] = {}
    for color, mask in ((Color.WHITE, white), (Color.BLACK, black)):
        while mask:
            low = mask & -mask
            square = tables.square_of_bit[low.bit_length() - 1]
            pieces[square] = Piece(color, bool(kings & low))
            mask ^= low
    return Position.from_pieces(ruleset, pieces, Color(turn)).fen()


class _Raw(NamedTuple):
    """A solved table's values as the native passes read them: codes, distances (2 bytes each,
    little-endian), codes within the rules (or None)."""

    codes: bytes
    plies: bytes
    within: bytes | None

    @classmethod
    def of(cls, solved: Solved, within: Sequence[int] | None) -> _Raw:
        plies = solved.plies if isinstance(solved.plies, array) else array("H", solved.plies)
        raw = plies.tobytes() if sys.byteorder == "little" else _swapped(plies)
        return cls(bytes(solved.codes), raw, None if within is None else bytes(within))


Tally = tuple[tuple[int, int, int], tuple[int, int, int] | None, int, int]
"""One run's counts (``draughts._native.tally``): draws, wins, losses; the same within the rules
(None without them); the longest win (-1: none); the longest distance."""


def tallies(raw: _Raw, run: int, workers: int | None = None) -> list[Tally]:
    """The counts of consecutive runs of ``run`` entries, natively on ``workers`` threads (default
    the build's)."""
    from draughts._native import tally
    from draughts.endgame.solve import default_workers

    return tally(raw.codes, raw.plies, raw.within, max(run, 1), workers or default_workers())


def statistics(ruleset: Ruleset, solved: Solved) -> dict[str, Any]:
    """Counts of wins, losses and draws per side to move, and the longest win with an example.

    The counts and the longest win are counted natively (each side to move is one half of the
    index: two runs); only the example is looked for by walking the placements, up to the first
    one that wins in the longest distance, so the example is the first such placement in the
    walking order.
    """
    raw = _Raw.of(solved, solved.within)
    return _statistics(ruleset, solved.indexer, raw, tallies(raw, solved.indexer.placements))


def _statistics(ruleset: Ruleset, indexer: Indexer, raw: _Raw, runs: list[Tally]) -> dict[str, Any]:
    """:func:`statistics` from the table's two runs (one per side to move)."""
    per_side: dict[str, dict[str, Any]] = {}
    for turn in (0, 1):
        (draw, win, loss), within, longest, _ = runs[turn] if turn < len(runs) else ((0, 0, 0), None, -1, 0)
        example = _example(ruleset, indexer, raw, turn, longest) if longest >= 0 else None
        side: dict[str, Any] = {"positions": win + loss + draw, "win": win, "loss": loss, "draw": draw}
        side["longest_win"] = longest if example else None
        side["longest_win_fen"] = fen_of(ruleset, *example, turn) if example else None
        side["within_rules"] = None
        if raw.within is not None:
            inside = within or (0, 0, 0)
            side["within_rules"] = {"win": inside[WIN], "loss": inside[LOSS], "draw": inside[DRAW]}
        per_side[Color(turn).name.lower()] = side
    return per_side


def _example(ruleset: Ruleset, indexer: Indexer, raw: _Raw, turn: int, longest: int) -> tuple[int, int, int] | None:
    """The first placement of the walking order (``Indexer.placements_of``) whose entry for
    ``turn`` is won in ``longest`` plies (found natively: the walk in Python took minutes on
    large materials)."""
    from draughts.endgame.solve import native_solver

    found = native_solver(ruleset, indexer.material).example(raw.codes, raw.plies, turn, longest)
    return None if found is None else (found[0], found[1], found[2])


def _swapped(plies: Sequence[int]) -> bytes:  # pragma: no cover - big-endian machines
    copy = array("H", plies)
    copy.byteswap()
    return copy.tobytes()


def sections(solved: Solved, within: Sequence[int] | None) -> tuple[dict[str, Any], list[bytes]]:
    """The header fields and packed sections of a solved table."""
    raw = _Raw.of(solved, within)
    return _sections(raw, max((run[3] for run in tallies(raw, len(raw.codes))), default=0))


def _sections(raw: _Raw, widest: int, workers: int | None = None) -> tuple[dict[str, Any], list[bytes]]:
    """:func:`sections` from the values as the native passes read them and the longest distance."""
    bits = widest.bit_length()
    parts = [storage.pack_raw(raw.codes, 1, 2, workers), storage.pack_raw(raw.plies, 2, bits, workers)]
    if raw.within is not None:
        parts.append(storage.pack_raw(raw.within, 1, 2, workers))
    header = {"entries": len(raw.codes), "plies_bits": bits, "within": raw.within is not None}
    return header, parts


def write_table(
    path: Path,
    ruleset: Ruleset,
    key: str,
    solved: Solved,
    within: Sequence[int] | None,
    extra: dict[str, Any],
    *,
    workers: int | None = None,
) -> None:
    """Write a solved table to ``path`` (atomically): its values counted once, natively, for the
    statistics and the width of a distance, then packed (on ``workers`` threads, default the
    build's) and written."""
    name = solved.indexer.material.name
    with phase(name, "statistics"):
        raw = _Raw.of(solved, within)
        runs = tallies(raw, solved.indexer.placements, workers)
        same = within is solved.within  # the statistics count the solved codes within the rules
        stats = _statistics(ruleset, solved.indexer, raw, runs) if same else statistics(ruleset, solved)
    with phase(name, "pack"):
        header, parts = _sections(raw, max((run[3] for run in runs), default=0), workers)
    del raw
    header.update(key=key, material=name, stats=stats, **extra)
    with phase(name, "write"):
        storage.write(path, header, parts)
