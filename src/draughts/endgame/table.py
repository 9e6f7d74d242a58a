"""One material's table: its values, packed as on disk, its statistics, and reading and writing it."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from pathlib import Path
from typing import Any

from draughts.color import Color
from draughts.endgame import storage
from draughts.endgame.codes import DRAW, LOSS, WIN
from draughts.endgame.errors import TablebaseFileError
from draughts.endgame.index import Indexer
from draughts.endgame.material import Material
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
        if header.get("entries") != size:
            raise TablebaseFileError(f"table of {material.name} has {header.get('entries')} entries, expected {size}")
        self._plies_bits = int(header["plies_bits"])
        widths = [storage.packed_size(size, 2), storage.packed_size(size, self._plies_bits)]
        widths.append(storage.packed_size(size, 2) if header.get("within") else 0)
        if sum(widths) != len(body):
            raise TablebaseFileError(
                f"table of {material.name} has {len(body)} bytes of values, expected {sum(widths)}"
            )
        view = memoryview(body)
        self._codes = view[: widths[0]]
        self._plies = view[widths[0] : widths[0] + widths[1]]
        self._within = view[widths[0] + widths[1] :] if header.get("within") else None

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

    @property
    def stats(self) -> dict[str, Any]:
        """The statistics stored with the table (see ``Tablebase.stats``)."""
        stats: dict[str, Any] = self.header["stats"]
        return stats


def code_name(code: int) -> str:
    """``"win"``, ``"loss"`` or ``"draw"``."""
    return _NAMES[code]


def fen_of(ruleset: Ruleset, white: int, black: int, kings: int, turn: int) -> str:
    """The FEN of a position given as bit masks of the generator's layout."""
    from draughts._core import build_move_generator

    tables = build_move_generator(ruleset).tables
    pieces: dict[int, Piece] = {}
    for color, mask in ((Color.WHITE, white), (Color.BLACK, black)):
        while mask:
            low = mask & -mask
            square = tables.square_of_bit[low.bit_length() - 1]
            pieces[square] = Piece(color, bool(kings & low))
            mask ^= low
    return Position.from_pieces(ruleset, pieces, Color(turn)).fen()


def statistics(ruleset: Ruleset, solved: Solved) -> dict[str, Any]:
    """Counts of wins, losses and draws per side to move, and the longest win with an example.

    The counts and the longest win are read from the arrays (each side to move is one half of
    the index); only the example is looked for by walking the placements, up to the first one
    that wins in the longest distance, so the example is the first such placement in the
    walking order.
    """
    indexer = solved.indexer
    codes, plies = solved.codes, solved.plies
    half = indexer.placements
    per_side: dict[str, dict[str, Any]] = {}
    for turn in (0, 1):
        part = codes[turn * half : (turn + 1) * half]
        counts = {"win": part.count(WIN), "loss": part.count(LOSS), "draw": part.count(DRAW)}
        wins = compress(plies[turn * half : (turn + 1) * half], map(WIN.__eq__, part))
        longest = max(wins, default=-1)
        example = None
        if longest >= 0:
            example = next(
                placement
                for placement in indexer.placements_of()
                if codes[index := indexer.index(*placement, turn)] == WIN and plies[index] == longest
            )
        side: dict[str, Any] = {"positions": sum(counts.values()), **counts}
        side["longest_win"] = longest if example else None
        side["longest_win_fen"] = fen_of(ruleset, *example, turn) if example else None
        side["within_rules"] = None
        if solved.within is not None:
            within = solved.within[turn * half : (turn + 1) * half]
            side["within_rules"] = {"win": within.count(WIN), "loss": within.count(LOSS), "draw": within.count(DRAW)}
        per_side[Color(turn).name.lower()] = side
    return per_side


def sections(solved: Solved, within: Sequence[int] | None) -> tuple[dict[str, Any], list[bytes]]:
    """The header fields and packed sections of a solved table."""
    longest = max(solved.plies, default=0)
    bits = longest.bit_length()
    parts = [storage.pack(solved.codes, 2), storage.pack(solved.plies, bits)]
    if within is not None:
        parts.append(storage.pack(within, 2))
    header = {"entries": len(solved.codes), "plies_bits": bits, "within": within is not None}
    return header, parts


def write_table(
    path: Path, ruleset: Ruleset, key: str, solved: Solved, within: Sequence[int] | None, extra: dict[str, Any]
) -> None:
    """Write a solved table to ``path`` (atomically)."""
    header, parts = sections(solved, within)
    header.update(key=key, material=solved.indexer.material.name, stats=statistics(ruleset, solved), **extra)
    storage.write(path, header, parts)
