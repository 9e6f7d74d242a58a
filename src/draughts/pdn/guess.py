"""The rules of a game that no tag names: guessed from its notation and board when the default fails.

A game without a GameType or Variant tag, read without ``ruleset=``, follows International
draughts, as PDN readers assume. Many files of other variants carry no GameType tag (Russian
collections with algebraic moves, English ones numbered 1-32), so when such a game cannot be read
under International draughts the reader tries the PDN variants whose notation and board size fit
the moves, in the catalog's order (:data:`draughts.VARIANTS`), and takes the first under which every
move is legal. It says so in :attr:`~draughts.pdn.Game.warnings` and :attr:`~draughts.pdn.Game.guessed`:
a guess is no proof (a Czech game may replay under Russian rules too); ``ruleset=`` decides.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from draughts.pdn.split import RawGame
from draughts.rules import Ruleset
from draughts.rules.geometry import SquareNames
from draughts.rules.variants import VARIANTS

__all__ = ["candidates", "untagged"]

_MOVE_NUMBER = re.compile(r"^[0-9]+(?:\.{1,3}|…)")
_ALGEBRAIC = re.compile(r"([a-zA-Z])([0-9]{1,2})")
_LETTER = re.compile(r"[a-wyzA-WYZ]")
"""A letter that is no capture separator (``x``): numeric moves have none."""
_NUMBER = re.compile(r"[0-9]{1,3}")
_GUESSES = 2_000
"""Move words looked at to tell the notation and the board: enough for any game, bounded for a huge one."""


def untagged(raw: RawGame) -> bool:
    """Whether no tag of the game names its rules (no GameType, no Variant with a value)."""
    return not any(name in ("GameType", "Variant") and value.strip() for name, value, _ in raw.tags)


def _needs(words: Iterable[str]) -> tuple[SquareNames, int]:
    """The notation the moves are written in and the smallest board side their squares need."""
    algebraic = False
    side = 0
    highest = 0
    for word in words:
        word = _MOVE_NUMBER.sub("", word)
        if _LETTER.search(word):
            algebraic = True
            for file, rank in _ALGEBRAIC.findall(word):
                side = max(side, ord(file.lower()) - ord("a") + 1, int(rank))
        else:
            for digits in _NUMBER.findall(word):
                highest = max(highest, int(digits))
    if algebraic:
        return SquareNames.ALGEBRAIC, side
    return SquareNames.NUMERIC, next((n for n in range(2, 40, 2) if n * n // 2 >= highest), 0)


def _main_words(raw: RawGame) -> list[str]:
    """The words of the main line (not those of variations, which may be prose) among the first tokens."""
    words: list[str] = []
    depth = 0
    for token in raw.body[:_GUESSES]:
        if token.kind == "open":
            depth += 1
        elif token.kind == "close":
            depth -= 1
        elif token.kind == "word" and not depth:
            words.append(token.text)
    return words


def candidates(raw: RawGame, tried: Ruleset) -> list[Ruleset]:
    """The PDN variants (those with a GameType number) whose notation and board fit the game's moves.

    Only the smallest board the moves fit is considered, and ``tried`` (the default already tried)
    is left out; the catalog's order is kept.
    """
    notation, side = _needs(_main_words(raw))
    fitting = [
        rules
        for rules in VARIANTS.values()
        if rules.pdn_gametype is not None and rules.square_names is notation and _side(rules) >= side
    ]
    if not fitting:
        return []
    smallest = min(_side(rules) for rules in fitting)
    return [rules for rules in fitting if _side(rules) == smallest and rules != tried]


def _side(rules: Ruleset) -> int:
    """The longer side of the ruleset's board (what the moves' squares are measured against)."""
    return max(rules.width, rules.height)
