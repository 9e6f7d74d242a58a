"""PDN GameType tags: the value parsed, and checked against the rulesets it may name.

A GameType value is a type number, optionally followed by who moves first, the board's width and
height, the notation and the invert flag (``"25,W,8,8,A0,0"``). The number selects a ruleset of
the catalog it is given (:func:`draughts.from_gametype` gives it the named variants); the other
fields must agree with that ruleset where they change the rules. This module knows no variant by
name: the PDN reader (:mod:`draughts.pdn`) and :func:`draughts.get_variant` both go through it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from draughts._text import excerpt, number
from draughts.errors import UnknownVariantError
from draughts.rules import Ruleset

__all__ = ["is_gametype", "matching_ruleset"]

_GAMETYPE = re.compile(
    r"\s*([0-9]+)(?:\s*,\s*([WB])\s*,\s*([0-9]+)\s*,\s*([0-9]+)\s*,\s*([ANS][0-3])(?:\s*,\s*([01]))?)?\s*",
    re.IGNORECASE,
)


def is_gametype(text: str) -> bool:
    """Whether ``text`` has the shape of a GameType value (one linear match, any length: leading
    zeros are harmless); whether it names a ruleset is :func:`matching_ruleset`'s question."""
    return _GAMETYPE.fullmatch(text) is not None


def _short(digits: str) -> str:
    return digits if len(digits) <= 8 else excerpt(digits, 16)


def _differences(match: re.Match[str], rules: Ruleset) -> list[str]:
    """What the optional fields of a GameType tag say that ``rules`` does not (rule-changing fields only).

    The notation field is not compared: it says how squares are written, which the reader finds out
    from the moves themselves, and real files write ``N1`` where International's tag has ``N2``.
    """
    if match.group(2) is None:
        return []
    differences = []
    color = match.group(2).upper()
    if color != rules.first_to_move.letter:
        first, actual = ("White", "Black") if color == "W" else ("Black", "White")
        differences.append(f"{first} moves first, but {actual} does in {rules.name}")
    size = (number(match.group(3)), number(match.group(4)))
    if size != (rules.board_size, rules.board_size):
        differences.append(
            f"the board is {_short(match.group(3))}x{_short(match.group(4))}, but "
            f"{rules.name} is played on {rules.board_size}x{rules.board_size}"
        )
    invert = match.group(6)
    if invert is not None and (invert == "1") == rules.bottom_left_playable:
        board = "inverted" if invert == "1" else "not inverted"
        actual = "is not" if rules.bottom_left_playable else "is"
        differences.append(f"the board is {board} (invert flag {invert}), but {rules.name}'s {actual}")
    return differences


def _parsed(gametype: object) -> tuple[str, re.Match[str], int]:
    """The value's text, its fields and its type number; raises for anything that is no GameType value."""
    if isinstance(gametype, bool) or not isinstance(gametype, (str, int)):
        raise UnknownVariantError(f"GameType {excerpt(gametype)} is not a number or text")
    text = str(gametype)
    match = _GAMETYPE.fullmatch(text)
    if match is None:
        raise UnknownVariantError(
            f"GameType {excerpt(text)} is not of the form 'number[,W|B,width,height,notation[,invert]]'"
        )
    value = number(match.group(1))
    if value is None:
        raise UnknownVariantError(f"GameType {excerpt(text)}: {excerpt(match.group(1))} is no type number")
    return text, match, value


def matching_ruleset(gametype: str | int, catalog: Iterable[Ruleset], ruleset: Ruleset | None = None) -> Ruleset:
    """The ruleset of ``catalog`` a GameType value names, or ``ruleset`` checked against the value.

    This is :func:`draughts.from_gametype` with the catalog as an argument (the named variants
    there): ``catalog`` gives the candidates by their ``pdn_gametype`` (the first with the number
    wins) and the names the messages quote.

    Raises:
        UnknownVariantError: malformed value, a type number of no ruleset of the catalog (or not
            ``ruleset``'s), or a field that contradicts the ruleset's rules.
    """
    text, match, value = _parsed(gametype)
    known = list(catalog)
    if ruleset is not None:
        if ruleset.pdn_gametype is None or ruleset.pdn_gametype != value:
            own = "no GameType" if ruleset.pdn_gametype is None else f"GameType {ruleset.pdn_gametype}"
            named = [rules.name for rules in known if rules.pdn_gametype == value]
            whose = f" ({named[0]})" if named else ""
            raise UnknownVariantError(f"GameType {excerpt(text)}{whose} is not {ruleset.name}, which has {own}")
        candidates = [ruleset]
    else:
        candidates = [rules for rules in known if rules.pdn_gametype == value]
    for rules in candidates:
        differences = _differences(match, rules)
        if differences:
            raise UnknownVariantError(f"GameType {excerpt(text)} is not {rules.name}: {'; '.join(differences)}")
        return rules
    supported = ", ".join(f"{r.pdn_gametype} ({r.name})" for r in known)
    raise UnknownVariantError(f"GameType {excerpt(text)} names no supported variant; supported: {supported}")
