"""Game results as PDN writes them: the result of a winner, who a result names, and the normal form.

One place for the scores, used by :class:`~draughts.Board`'s outcomes, the PDN reader and writer,
the web board and the terminal game. The first score belongs to the player who moves first in the
variant (Black in American checkers); see the notes of :mod:`draughts.pdn` for the evidence.
"""

from __future__ import annotations

import re

from draughts.color import Color
from draughts.rules import ResultNotation, Ruleset
from draughts.rules.names import get_variant

__all__ = ["STANDARD_RESULTS", "normalise_result", "result_for", "winner_of"]

_SCORES = {
    ResultNotation.DEFAULT: ("1-0", "0-1", "1/2-1/2"),
    ResultNotation.INTERNATIONAL: ("2-0", "0-2", "1-1"),
}
"""A win of the first player, a loss, and a draw, in each result notation."""

STANDARD_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"})
"""Normal forms of the results that end a game's movetext (``1:0`` and ``½-½`` normalise into them)."""

_SIDE = r"(?:[0-9]{1,3}(?:\.[0-9]{1,3})?(?:[ \t]*(?:1/2|½))?|1/2|½)"
_SCORE = re.compile(rf"[ \t]*({_SIDE})[ \t]*[-:][ \t]*({_SIDE})[ \t]*")


def normalise_result(text: str) -> str | None:
    """The result ``text`` in its normal form, or None if it is no result.

    >>> [normalise_result(t) for t in ("1:0", " 1/2 : 1/2 ", "½-½", "2-0", "4-6", "*", "Bianco vince")]
    ['1-0', '1/2-1/2', '1/2-1/2', '2-0', '4-6', '*', None]
    """
    stripped = text.strip()
    if stripped == "*":
        return "*"
    match = _SCORE.fullmatch(stripped)
    if match is None:
        return None
    sides = [re.sub(r"[ \t]+", " ", side).replace("½", "1/2") for side in match.groups()]
    sides = [re.sub(r"(?<=[0-9]) ?1/2$", " 1/2", side) if side != "1/2" else side for side in sides]
    return f"{sides[0]}-{sides[1]}"


def _score(side: str) -> float:
    total = 0.0
    for part in side.split():
        total += 0.5 if part == "1/2" else float(part)
    return total


def winner_of(ruleset: Ruleset | str, result: str) -> Color | None:
    """The winner a PDN result names: the first score is the first player's (Black in American checkers).

    None for a draw, an unfinished game (``*``), a double loss (``0-0``) or text that is no result.

    >>> winner_of("international", "2-0"), winner_of("american", "1-0"), winner_of("russian", "1/2:1/2")
    (<Color.WHITE: 0>, <Color.BLACK: 1>, None)
    """
    rules = get_variant(ruleset)
    normal = normalise_result(result)
    if normal is None or normal in ("*", "0-0"):
        return None
    first, second = (_score(side) for side in normal.split("-"))
    if first == second:
        return None
    return rules.first_to_move if first > second else rules.first_to_move.opponent


def result_for(ruleset: Ruleset | str, winner: Color | None) -> str:
    """The PDN result for ``winner`` (None: a draw) in the ruleset's result notation.

    The first score is the first player's, as PDN files write it: ``1-0`` is a White win in
    most variants but a Black win in American checkers, where Black starts. This is the one
    function for it.

    >>> result_for("international", None), result_for("american", Color.BLACK)
    ('1-1', '1-0')
    """
    rules = get_variant(ruleset)
    win, loss, draw = _SCORES[rules.result_notation]
    if winner is None:
        return draw
    return win if winner is rules.first_to_move else loss
