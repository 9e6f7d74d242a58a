"""A built table checked against its children: one ply of minimax over a random sample.

The solver decides a position from its children's values (:mod:`draughts.endgame.solve`), so a
table is consistent when every position's value is the best its moves reach: a win in ``n``
plies has a child lost in ``n - 1`` and none lost sooner, a loss has every child won and the
longest in ``n - 1``, a draw has a drawn child and no lost one. :func:`verify` reads a sample of a
material's positions and their children from the tables on disk (the children's values come from
the smaller materials' files where a move captures or crowns, from this one where it does not)
and counts the positions that agree. It checks the files as they are read back, whoever built
them, so it finds a damaged file, a wrong exit, or a solver bug the checksums would copy.

``draughts endgame verify VARIANT [MATERIAL ...] --sample N`` runs it from the command line.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

from draughts._core.tables import compile_rules
from draughts.endgame.codes import LOSS, WIN
from draughts.endgame.material import Material
from draughts.endgame.solve import Value
from draughts.endgame.table import fen_of
from draughts.endgame.tablebase import Tablebase, _better, _children
from draughts.errors import DraughtsError

__all__ = ["Checked", "minimax", "sample_placements", "verify"]


@attrs.frozen
class Checked:
    """What :func:`verify` found in one material.

    Attributes:
        material: The material's name.
        positions: Positions checked (each placement of the sample with both sides to move).
        agree: Positions whose value is one ply of minimax over their children's.
        wins: Positions of the sample won for the side to move (the sample's mix).
        draws: Drawn ones.
        losses: Lost ones.
        disagree: FENs of positions that do not agree, with the table's and the children's values.
    """

    material: str
    positions: int
    agree: int
    wins: int
    draws: int
    losses: int
    disagree: tuple[str, ...] = ()


def minimax(tb: Tablebase, white: int, black: int, kings: int, turn: int) -> Value:
    """``(code, plies)`` of a position from its children's values in ``tb`` (one ply of minimax)."""
    best: Value | None = None
    for child in _children(tb.rules, white, black, kings, turn):
        best = _better(best, tb.value(*child))
    if best is None:  # no move: the game is over
        return (WIN, 0) if tb.rules.no_move_wins else (LOSS, 0)
    return best


def sample_placements(tb: Tablebase, material: Material, count: int, seed: int) -> Iterator[tuple[int, int, int]]:
    """``count`` random placements of ``material`` (white, black, kings masks), drawn group by group
    (White's men, Black's men, White's kings, Black's kings on the squares left), never listing the
    material's placements (a 6-piece material has hundreds of millions)."""
    tables = compile_rules(tb.rules)
    white_men, black_men, white_kings, black_kings = material.counts(tb.rules)
    areas = (tables.board & ~tables.crown_row[0], tables.board & ~tables.crown_row[1])
    rng = random.Random(seed)

    def pick(domain: int, pieces: int) -> int:
        squares = [1 << bit for bit in range(domain.bit_length()) if domain >> bit & 1]
        return sum(rng.sample(squares, pieces)) if pieces else 0

    for _ in range(count):
        wm = pick(areas[0], white_men)
        bm = pick(areas[1] & ~wm, black_men)
        wk = pick(tables.board & ~(wm | bm), white_kings)
        bk = pick(tables.board & ~(wm | bm | wk), black_kings)
        yield wm | wk, bm | bk, wk | bk


def verify(tb: Tablebase, material: Material | str, sample: int = 1000, seed: int = 0) -> Checked:
    """Check ``sample`` random placements of ``material`` (both sides to move) against one ply of
    minimax over their children, read from the tables in ``tb``'s directory.

    Raises:
        ~draughts.endgame.TablebaseError: a table the check reads is not built or is damaged.
        DraughtsError: ``sample`` is not positive.
    """
    if sample < 1:
        raise DraughtsError(f"verify needs a sample of at least 1 placement, not {sample!r}")
    parsed = Material.parse(material) if isinstance(material, str) else material
    table = tb.table(parsed)
    counts = {WIN: 0, LOSS: 0}
    positions = agree = 0
    wrong: list[str] = []
    for white, black, kings in sample_placements(tb, parsed, sample, seed):
        for turn in (0, 1):
            value = table.value(white, black, kings, turn)
            expected = minimax(tb, white, black, kings, turn)
            positions += 1
            counts[value[0]] = counts.get(value[0], 0) + 1
            if value == expected:
                agree += 1
            elif len(wrong) < 10:
                wrong.append(f"{fen_of(tb.rules, white, black, kings, turn)}: table {value}, children {expected}")
    wins, losses = counts[WIN], counts[LOSS]
    return Checked(parsed.name, positions, agree, wins, positions - wins - losses, losses, tuple(wrong))
