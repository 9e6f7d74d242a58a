"""Materials: how many men and kings each side has, their names and the graph they form.

A material is named with each side's men (``M``) and kings (``K``), the first player's side
first: ``KKKvK``, ``MMKvK``, ``MvM``. Which colour moves first is the ruleset's
(:attr:`~draughts.Ruleset.first_to_move`: Black in English checkers), so ``KvK`` of American
checkers is Black's king against White's, and of International White's against Black's.

Materials form a directed acyclic graph: a capture removes a piece, a crowning turns a man into
a king, and neither can be undone, so the positions of one material only ever lead to positions
of the same material (quiet king moves, man moves) or of a *smaller* one. A table is built after
the tables of every material it can turn into (:func:`dependencies`, :func:`build_order`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs

from draughts._text import excerpt
from draughts.color import Color
from draughts.endgame.errors import TablebaseError
from draughts.rules import Ruleset

__all__ = ["Material", "build_order", "dependencies", "materials_up_to"]

_SIDE = re.compile(r"^[MK]*$")


@attrs.frozen(order=True)
class Material:
    """The pieces of an endgame, per side: ``first`` and ``second`` are ``(men, kings)`` of the
    ruleset's first and second player.

    >>> Material.parse("MMKvK")
    Material('MMKvK')
    >>> Material.parse("MMKvK").pieces
    4
    """

    first: tuple[int, int]
    second: tuple[int, int]

    @classmethod
    def parse(cls, text: str | Material) -> Material:
        """A material from its name (``"KKKvK"``; men before kings is not required: ``"KMvK"``).

        Raises:
            TablebaseError: the text is not a material name (the message quotes it).
        """
        if isinstance(text, Material):
            return text
        if not isinstance(text, str):
            raise TablebaseError(f"material {excerpt(text)} must be text like 'KKKvK'")
        parts = text.strip().upper().split("V")
        if len(parts) != 2 or not all(_SIDE.match(part) for part in parts) or not "".join(parts):
            raise TablebaseError(
                f"material {excerpt(text)} must name each side's men (M) and kings (K), first player first: 'KKKvK'"
            )
        first, second = ((part.count("M"), part.count("K")) for part in parts)
        return cls(first, second)

    @property
    def name(self) -> str:
        """The material's name, men before kings (``"MMKvK"``)."""
        return "v".join("M" * men + "K" * kings for men, kings in (self.first, self.second))

    @property
    def pieces(self) -> int:
        """Pieces on the board."""
        return sum(self.first) + sum(self.second)

    @property
    def has_empty_side(self) -> bool:
        """Whether one side has no piece (the game is over: such materials need no table)."""
        return not sum(self.first) or not sum(self.second)

    def side(self, ruleset: Ruleset, color: Color) -> tuple[int, int]:
        """``(men, kings)`` of ``color`` under ``ruleset`` (which say who moves first)."""
        return self.first if color is ruleset.first_to_move else self.second

    def counts(self, ruleset: Ruleset) -> tuple[int, int, int, int]:
        """``(white men, black men, white kings, black kings)`` under ``ruleset``."""
        white, black = self.side(ruleset, Color.WHITE), self.side(ruleset, Color.BLACK)
        return white[0], black[0], white[1], black[1]

    @classmethod
    def of_counts(cls, ruleset: Ruleset, white: tuple[int, int], black: tuple[int, int]) -> Material:
        """The material with White's and Black's ``(men, kings)`` under ``ruleset``."""
        if ruleset.first_to_move is Color.WHITE:
            return cls(white, black)
        return cls(black, white)

    def mirrored(self) -> Material:
        """The same pieces with the sides swapped."""
        return Material(self.second, self.first)

    def successors(self, ruleset: Ruleset) -> list[Material]:
        """The materials one capture or one crowning can lead to, not counting materials with an
        empty side (the game is over there). A capture may take several pieces at once and may
        crown the capturing man as well: every such combination is listed."""
        found: set[Material] = set()
        for mover in (0, 1):
            sides = [self.first, self.second]
            (men, kings), (opp_men, opp_kings) = sides[mover], sides[1 - mover]
            for crowned in (0, 1) if men else (0,):
                new_own = (men - crowned, kings + crowned)
                for taken_men in range(opp_men + 1):
                    for taken_kings in range(opp_kings + 1):
                        if not (crowned or taken_men or taken_kings):
                            continue
                        new_opp = (opp_men - taken_men, opp_kings - taken_kings)
                        pair = [new_own, new_opp] if mover == 0 else [new_opp, new_own]
                        child = Material(pair[0], pair[1])
                        if child.has_empty_side or (ruleset.crowning_wins and crowned):
                            continue  # the game is over: no table needed
                        found.add(child)
        found.discard(self)
        return sorted(found)

    def __repr__(self) -> str:
        return f"Material({self.name!r})"

    def __str__(self) -> str:
        return self.name


def dependencies(ruleset: Ruleset, roots: Iterable[Material]) -> dict[Material, list[Material]]:
    """Every material reachable from ``roots`` by captures and crownings, with its successors."""
    graph: dict[Material, list[Material]] = {}
    todo = [Material.parse(root) for root in roots]
    while todo:
        material = todo.pop()
        if material in graph or material.has_empty_side:
            continue
        graph[material] = material.successors(ruleset)
        todo.extend(graph[material])
    return graph


def build_order(graph: dict[Material, list[Material]]) -> list[list[Material]]:
    """The materials of ``graph`` in waves: each wave depends only on earlier waves, so the
    materials of one wave can be built at the same time (a topological order by longest path
    to a sink)."""
    level: dict[Material, int] = {}

    def depth(material: Material) -> int:
        if material not in level:
            level[material] = 1 + max((depth(child) for child in graph.get(material, ())), default=-1)
        return level[material]

    for material in graph:
        depth(material)
    waves: list[list[Material]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
    for material, wave in sorted(level.items()):
        waves[wave].append(material)
    return waves


def materials_up_to(ruleset: Ruleset, pieces: int) -> list[Material]:
    """Every material with at most ``pieces`` pieces and a piece on each side (men only where the
    ruleset's men may stand: not in breakthrough rulesets' kings)."""
    return list(_materials(ruleset, pieces))


def _materials(rules: Ruleset, pieces: int) -> Iterator[Material]:
    for total in range(2, pieces + 1):
        for first_total in range(1, total):
            second_total = total - first_total
            for first_men in range(first_total + 1):
                for second_men in range(second_total + 1):
                    material = Material((first_men, first_total - first_men), (second_men, second_total - second_men))
                    if not (rules.crowning_wins and (material.first[1] or material.second[1])):
                        yield material
