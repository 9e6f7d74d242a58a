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
from collections.abc import Callable, Iterator
from math import comb

from draughts._core.tables import compile_rules
from draughts.endgame.material import Material
from draughts.rules import Ruleset

__all__ = ["Indexer", "Placement"]

Placement = tuple[int, int, int]
"""``(white, black, kings)`` bit masks in the generator's layout."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def _unrank_group(rank: int, count: int, domain: list[int]) -> int:
    """The ``count`` squares (bit masks of ``domain``, in order) of colex rank ``rank``."""
    out, top = 0, len(domain)
    for nth in range(count, 0, -1):
        low, high = nth - 1, top - 1  # the largest place whose binomial fits the rank
        while low < high:
            middle = (low + high + 1) // 2
            if comb(middle, nth) <= rank:
                low = middle
            else:
                high = middle - 1
        rank -= comb(low, nth)
        out |= domain[low]
        top = low
    return out


class Indexer:
    """Ranks the positions of one material under one ruleset (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, material: Material) -> None:
        tables = compile_rules(ruleset)
        self.rules = ruleset
        self.material = material
        self.board = tables.board
        self.men_squares = (tables.board & ~tables.crown_row[0], tables.board & ~tables.crown_row[1])
        squares = tables.board.bit_count()
        self.counts = material.counts(ruleset)
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
        self.index: Callable[[int, int, int, int], int] = self._ranker()
        """The index of a position of this material (``turn`` 0: White to move)."""

    def _ranker(self) -> Callable[[int, int, int, int], int]:  # noqa: C901 (one closure per material, specialised for speed)
        """The index function, specialised to this material: empty groups cost nothing, and a
        square's place in a group's domain is a table lookup (fixed domains, men) or its place
        on the board less the occupied squares below it (kings)."""
        binomial = self._binomial
        ordinal = [0] * self.board.bit_length()
        white_area, black_area = ([0] * self.board.bit_length() for _ in (0, 1))
        for table, domain in (
            (ordinal, self.board),
            (white_area, self.men_squares[0]),
            (black_area, self.men_squares[1]),
        ):
            count = 0
            for bit in range(self.board.bit_length()):
                if domain >> bit & 1:
                    table[bit] = count
                    count += 1
        _, radix1, radix2, radix3 = self.radix
        placements = self.placements
        white_men, black_men, white_kings, black_kings = self.counts

        def fixed(pieces: int, table: list[int]) -> int:
            rank, nth = 0, 1
            while pieces:
                low = pieces & -pieces
                rank += binomial[table[low.bit_length() - 1]][nth]
                nth += 1
                pieces ^= low
            return rank

        def free(pieces: int, occupied: int) -> int:
            rank, nth = 0, 1
            while pieces:
                low = pieces & -pieces
                rank += binomial[ordinal[low.bit_length() - 1] - (occupied & (low - 1)).bit_count()][nth]
                nth += 1
                pieces ^= low
            return rank

        if not white_men and not black_men:
            first: dict[int, int] = {}  # White's kings' rank, by their mask (a fixed domain)
            single = black_kings == 1

            def kings_only(white: int, black: int, kings: int, turn: int) -> int:
                rank = first.get(white)
                if rank is None:
                    rank = first[white] = free(white, 0)
                if single:
                    return (
                        turn * placements
                        + rank * radix3
                        + ordinal[black.bit_length() - 1]
                        - (white & (black - 1)).bit_count()
                    )
                return turn * placements + rank * radix3 + free(black, white)

            return kings_only

        # A group of one king (most groups of small materials) is ranked without a search, and
        # the men's ranks (fixed domains, few masks) are kept by mask once computed.
        single_white, single_black = white_kings == 1, black_kings == 1
        white_ranks: dict[int, int] = {}
        black_ranks: dict[int, int] = {}

        def kings_rank(group: int, single: bool, occupied: int) -> int:
            if single:
                return ordinal[group.bit_length() - 1] - (occupied & (group - 1)).bit_count()
            return free(group, occupied)

        def index(white: int, black: int, kings: int, turn: int) -> int:
            men = ~kings
            rank = 0
            if white_men:
                group = white & men
                rank = white_ranks.get(group, -1)
                if rank < 0:
                    rank = white_ranks[group] = fixed(group, white_area)
            if black_men:
                group = black & men
                found = black_ranks.get(group, -1)
                if found < 0:
                    found = black_ranks[group] = fixed(group, black_area)
                rank = rank * radix1 + found
            occupied = (white | black) & men
            if white_kings:
                group = white & kings
                rank = rank * radix2 + kings_rank(group, single_white, occupied)
                occupied |= group
            if black_kings:
                rank = rank * radix3 + kings_rank(black & kings, single_black, occupied)
            return turn * placements + rank

        return index

    def unrank(self, rank: int) -> Placement | None:
        """The placement of ``rank`` (``0 <= rank < placements``), or None for a hole (men of
        both colours on one square): the inverse of :attr:`index` for one side to move."""
        _, radix1, radix2, radix3 = self.radix
        white_men, black_men, white_kings, black_kings = self.counts
        rest, black_kings_rank = divmod(rank, radix3)
        rest, white_kings_rank = divmod(rest, radix2)
        white_men_rank, black_men_rank = divmod(rest, radix1)
        white = _unrank_group(white_men_rank, white_men, _bits(self.men_squares[0]))
        black = _unrank_group(black_men_rank, black_men, _bits(self.men_squares[1]))
        if white & black:
            return None
        men = white | black
        w_kings = _unrank_group(white_kings_rank, white_kings, _bits(self.board & ~men))
        b_kings = _unrank_group(black_kings_rank, black_kings, _bits(self.board & ~men & ~w_kings))
        return white | w_kings, black | b_kings, w_kings | b_kings

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
