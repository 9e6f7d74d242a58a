"""Opening ballots and opening tables as data: where tournament games start, per variant.

Tournaments of strong players do not start every game from the start position: an opening is
drawn from a ballot (American checkers' three-move deck, the 11-man ballot) or a table (FMJD's
Drawing Table 64 for Russian and Brazilian draughts, the IDF's basic positions), and both players
play it once with each colour. This module holds those ballots as data, each with its source and
its licence, and gives them as :class:`Opening` values: the moves from the start position (or from
a position of their own, the 11-man ballot's start with one man of each side taken off), and the
position they lead to.

>>> from draughts import openings
>>> openings.ballots("american")
['acf-3-move', 'acf-3-move-144', 'acf-3-move-174', '2-move', '11-man']
>>> deck = openings.ballot("american", "acf-3-move")
>>> len(deck), deck[3].name, deck[3].title, deck[3].moves
(156, '5', 'Dreaded Edinburgh', ('9-13', '22-18', '6-9'))

The ballots:

=========  ==============  =====  ==================================================================
variant    name            count  what it is
=========  ==============  =====  ==================================================================
american   acf-3-move      156    the American Checker Federation's three-move deck (since 2003)
american   acf-3-move-144  144    the same deck before 2003, without the twelve openings added then
american   acf-3-move-174  174    the ACF's numbered list of three-move combinations, barred ones too
american   2-move          47     the two-move ballot: the first two moves of the ACF's combinations
american   11-man          2400   the 11-man ballot (a man of each side off, then one move each)
italian    2-move          47     the FID's two-move restriction (49 pairs less 2)
italian    11-man          2400   the 11-man ballot of Italian draughts
russian    fmjd-64         736    FMJD's Drawing Table 64 (46 groups of 16)
russian    idf-150         150    the IDF's 150 basic positions (15 groups of 10)
brazilian  fmjd-64         725    FMJD's Drawing Table 64 for Brazilian draughts (11 fewer)
brazilian  idf-150         150    the IDF's 150 basic positions
=========  ==============  =====  ==================================================================

Sources and licence: the openings are facts (moves and positions), transcribed as data (none of
the sources' code is used) by ``tools/openings_build.py``, which reads each source at a pinned
commit and replays every opening; :attr:`Ballot.source` and :attr:`Ballot.licence` say which:
lidraughts' ``OpeningTable.scala`` (github RoepStoep/lidraughts, AGPL-3.0) for the FMJD and IDF
tables, CheckerBoard's ``utility.c`` (github eygilbert/CheckerBoard) checked against milhouse's
``acf-openings.c`` (github brainwagon/milhouse, BSD-2-Clause) for the ACF list, and CheckerBoard's
``11_man_english.pdn`` and ``11_man_italian.pdn`` for the 11-man ballots. Where a source
contradicts itself the build says so in :attr:`Ballot.notes`.

The data files are read on first use, never at ``import draughts``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import attrs

from draughts.board import Board
from draughts.errors import DraughtsError, UnknownBallotError
from draughts.position import Position
from draughts.rules import Ruleset
from draughts.rules.names import get_variant

__all__ = ["Ballot", "Opening", "UnknownBallotError", "ballot", "ballot_info", "ballots"]


@attrs.frozen
class Opening:
    """One opening of a ballot.

    Attributes:
        variant: The ruleset's name.
        ballot: The ballot's name.
        name: Its number or code in the ballot (``"5"``, ``"1-I"``).
        moves: The moves, in the variant's notation, played from ``start_fen``.
        start_fen: Where the moves start: None for the variant's start position, else a FEN (the
            11-man ballot's start with two men taken off, a table's set-up position).
        title: Its name where it has one (``"Dreaded Edinburgh"``), else empty.
        setup: For a position set up rather than played, how the source describes it: men moved
            from the start position (``"a1-a5 a7-h4"``), else empty.
    """

    variant: str
    ballot: str
    name: str
    moves: tuple[str, ...] = ()
    start_fen: str | None = None
    title: str = ""
    setup: str = ""

    def board(self) -> Board:
        """A :class:`~draughts.Board` with the opening played (its moves on the move stack)."""
        board = Board(self.variant, self.start_fen) if self.start_fen else Board(self.variant)
        for text in self.moves:
            board.push_text(text)
        return board

    def position(self) -> Position:
        """The position the opening leads to, the side to move included."""
        return self.board().position

    @property
    def fen(self) -> str:
        """The FEN of :meth:`position`."""
        return self.position().fen()

    def to_dict(self, *, fen: bool = True) -> dict[str, Any]:
        """The opening as JSON-able data, with the FEN it leads to unless ``fen`` is false.

        Args:
            fen: Whether to play the moves for the ``"fen"`` entry: a listing of a whole ballot (the
                web board's, 2,400 openings for the 11-man ballot) leaves it out, as it needs only
                what the ballot says.
        """
        data: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "moves": list(self.moves),
            "start_fen": self.start_fen,
            "setup": self.setup,
        }
        if fen:
            data["fen"] = self.fen
        return data


@attrs.frozen
class Ballot:
    """A ballot with what is known about it.

    Attributes:
        variant: The ruleset's name.
        name: The ballot's name (what :func:`ballot` takes).
        title: What it is called.
        source: Where its data come from (URLs at pinned commits).
        licence: Under what terms the data are here.
        notes: Where the source contradicts itself and what was kept.
        openings: Its openings, in the source's order.
    """

    variant: str
    name: str
    title: str
    source: str
    licence: str
    notes: tuple[str, ...]
    openings: tuple[Opening, ...]

    def summary(self) -> dict[str, Any]:
        """What the ballot is, as JSON-able data, without its openings (their number as ``count``):
        the entry of a listing of ballots (``draughts openings --format json``, the web board)."""
        return {
            "variant": self.variant,
            "name": self.name,
            "title": self.title,
            "count": len(self.openings),
            "source": self.source,
            "licence": self.licence,
            "notes": list(self.notes),
        }


def _variant_name(variant: str | Ruleset) -> str:
    """The ruleset name a variant's ballots are filed under (names and aliases resolved)."""
    return get_variant(variant).name if isinstance(variant, str) else variant.name


def _data_folder() -> Any:
    return resources.files("draughts.openings").joinpath("data")


@functools.cache
def _data_names() -> frozenset[str]:
    """The variants the package has data files of (``russian`` for ``russian.json``)."""
    return frozenset(
        entry.name.removesuffix(".json") for entry in _data_folder().iterdir() if entry.name.endswith(".json")
    )


def _load(variant: str) -> dict[str, Ballot]:
    """The ballots of a variant, read from its data file once.

    A name is looked up among the package's data files before it names one: a custom ruleset
    may be called anything (``../../secret``), and its name must not pick a file elsewhere.
    """
    if variant not in _data_names():
        return {}
    return _read(variant)


@functools.cache
def _read(variant: str) -> dict[str, Ballot]:
    """The ballots of one of the package's data files (a name of :func:`_data_names`)."""
    data = json.loads(_data_folder().joinpath(f"{variant}.json").read_text(encoding="utf-8"))
    found = {}
    for item in data["ballots"]:
        rows = [(*row, "", "", "", "")[:5] for row in item["openings"]]
        openings = tuple(
            Opening(variant, item["name"], name, tuple(moves.split()), start or None, title, setup)
            for name, moves, start, title, setup in rows
        )
        found[item["name"]] = Ballot(
            variant,
            item["name"],
            item["title"],
            item["source"],
            item["licence"],
            tuple(item.get("notes", ())),
            openings,
        )
    return found


def ballots(ruleset: str | Ruleset) -> list[str]:
    """The names of the ballots of ``ruleset`` (a name, alias or ruleset); empty if it has none.

    Raises:
        UnknownVariantError: ``ruleset`` names no ruleset.
    """
    return list(_load(_variant_name(ruleset)))


def ballot_info(ruleset: str | Ruleset, name: str) -> Ballot:
    """The ballot ``name`` of ``ruleset`` with its title, source, licence and notes.

    ``name`` may borrow another variant's ballot as ``OTHER/NAME``: ``ballot_info("russian-nfc",
    "russian/fmjd-64")`` is the Russian table played under the no-forced-capture house rule. Each
    borrowed opening is replayed under ``ruleset`` first, so a ballot that is not legal there is
    refused rather than handed out.

    Raises:
        UnknownBallotError: the variant has no ballot of that name (the message lists those it has),
            or a borrowed ballot has an opening that is not legal in ``ruleset``.
        UnknownVariantError: ``ruleset`` (or ``OTHER``) names no ruleset.
    """
    from draughts._text import excerpt

    variant_name = _variant_name(ruleset)
    other, slash, borrowed = name.partition("/")
    if slash:
        lent = ballot_info(other, borrowed)
        openings = tuple(attrs.evolve(o, variant=variant_name, ballot=name) for o in lent.openings)
        for opening in openings:
            try:
                opening.board()
            except DraughtsError as error:
                raise UnknownBallotError(
                    f"ballot {excerpt(name)} does not apply to {variant_name}: its opening {opening.name} is not "
                    f"legal there ({error})"
                ) from None
        return attrs.evolve(lent, variant=variant_name, name=name, openings=openings)
    found = _load(variant_name)
    if name not in found:
        known = ", ".join(found) or "none"
        raise UnknownBallotError(f"no ballot {excerpt(name)} for {variant_name}; its ballots: {known}")
    return found[name]


def ballot(ruleset: str | Ruleset, name: str) -> list[Opening]:
    """The openings of the ballot ``name`` of ``ruleset``, in the source's order.

    >>> from draughts import openings
    >>> table = openings.ballot("russian", "fmjd-64")
    >>> table[0].name, " ".join(table[0].moves)
    ('1-I', 'a3-b4 b6-a5 b2-a3 a7-b6 a1-b2 d6-c5')

    Raises:
        UnknownBallotError: the variant has no ballot of that name (the message lists those it has).
        UnknownVariantError: ``ruleset`` names no ruleset.
    """
    return list(ballot_info(ruleset, name).openings)
