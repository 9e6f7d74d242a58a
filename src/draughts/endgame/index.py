"""The index of a material: every position of it numbered, densely enough to store a value each.

A position of a material is the side to move and a placement of its pieces. The placement is
ranked group by group, as a mixed-radix number of combination ranks (colex order):

1. White's men, among the squares a white man can stand on (every square but White's crowning
   row, where it would be a king);
2. Black's men, among the squares a black man can stand on;
3. White's kings, among the squares the men left free;
4. Black's kings, among the squares the men and White's kings left free.

Kings are ranked among free squares only, so a material of kings alone has no hole:
``KvK`` on 32 squares has exactly ``32 * 31`` placements per side to move (992). Men of the two
colours are ranked independently, so placements where a white and a black man would share a
square get an index too; those indices are *holes* (no position), kept in the table as such and
never counted. Index ``turn * placements + rank`` with ``turn`` 0 for White, 1 for Black.

Everything is computed on the generator's bit layout (a square is its bit), so ranking a
position costs a few bit counts per piece.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from math import comb

from draughts._core import generator
from draughts.endgame.material import Material
from draughts.rules import Ruleset

Placement = tuple[int, int, int]
"""``(white, black, kings)`` bit masks in the generator's layout."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class Indexer:
    """Ranks the positions of one material under one ruleset (see the module docstring)."""

    def __init__(self, rules: Ruleset, material: Material) -> None:
        tables = generator(rules).tables
        self.rules = rules
        self.material = material
        self.board = tables.board
        self.men_squares = (tables.board & ~tables.crown_row[0], tables.board & ~tables.crown_row[1])
        squares = tables.board.bit_count()
        self.counts = material.counts(rules)
        white_men, black_men, white_kings, black_kings = self.counts
        men = white_men + black_men
        self.radix = (
            comb(self.men_squares[0].bit_count(), white_men),
            comb(self.men_squares[1].bit_count(), black_men),
            comb(max(squares - men, 0), white_kings),
            comb(max(squares - men - white_kings, 0), black_kings),
        )
        self.placements = self.radix[0] * self.radix[1] * self.radix[2] * self.radix[3]
        self.size = 2 * self.placements
        self._binomial = [[comb(n, k) for k in range(self.material.pieces + 2)] for n in range(squares + 1)]

    def _colex(self, pieces: int, domain: int) -> int:
        binomial = self._binomial
        rank, nth = 0, 1
        while pieces:
            low = pieces & -pieces
            rank += binomial[(domain & (low - 1)).bit_count()][nth]
            nth += 1
            pieces ^= low
        return rank

    def index(self, white: int, black: int, kings: int, turn: int) -> int:
        """The index of a position of this material (``turn`` 0: White to move)."""
        colex = self._colex
        white_men, black_men = white & ~kings, black & ~kings
        men = white_men | black_men
        white_kings = white & kings
        radix = self.radix
        rank = colex(white_men, self.men_squares[0]) * radix[1] + colex(black_men, self.men_squares[1])
        rank = rank * radix[2] + colex(white_kings, self.board & ~men)
        rank = rank * radix[3] + colex(black & kings, self.board & ~men & ~white_kings)
        return turn * self.placements + rank

    def placements_of(self) -> Iterator[Placement]:
        """Every placement of the material's pieces, each once (holes left out)."""
        white_men, black_men, white_kings, black_kings = self.counts
        board = self.board
        for wm in itertools.combinations(_bits(self.men_squares[0]), white_men):
            wm_mask = sum(wm)
            for bm in itertools.combinations(_bits(self.men_squares[1] & ~wm_mask), black_men):
                men = wm_mask | sum(bm)
                for wk in itertools.combinations(_bits(board & ~men), white_kings):
                    wk_mask = sum(wk)
                    for bk in itertools.combinations(_bits(board & ~men & ~wk_mask), black_kings):
                        kings = wk_mask | sum(bk)
                        yield wm_mask | wk_mask, (men & ~wm_mask) | (kings & ~wk_mask), kings

    def positions(self) -> int:
        """How many positions the material has (both sides to move, holes not counted)."""
        white_men, black_men = self.counts[:2]
        white_area, black_area = self.men_squares
        both = (white_area & black_area).bit_count()
        only_white, only_black = white_area.bit_count() - both, black_area.bit_count() - both
        men_pairs = 0
        # White's men split between squares only they may use and squares both may use.
        for shared in range(min(both, white_men) + 1):
            men_pairs += (
                comb(only_white, white_men - shared) * comb(both, shared) * comb(only_black + both - shared, black_men)
            )
        return 2 * men_pairs * self.radix[2] * self.radix[3]
