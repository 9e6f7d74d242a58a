"""Movetext words: move numbers, marks, NAGs, the shapes of moves, and algebraic squares seen from either side."""

from __future__ import annotations

import re

from draughts._text import excerpt
from draughts.color import Color
from draughts.errors import PDNError
from draughts.rules import Ruleset
from draughts.rules.geometry import SquareNames

__all__ = [
    "ANY_SEPARATOR",
    "CAPTURE_SEPARATOR",
    "MARKS",
    "MOVE_NUMBER",
    "MOVE_SHAPE",
    "NAG",
    "TRAILING_MARKS",
    "check_nag",
    "first_player_frame",
    "rotated",
]

MOVE_NUMBER = re.compile(r"[0-9]+(?:\.{1,3}|…)")
NAG = re.compile(r"\$[0-9]{1,3}")
MARKS = re.compile(r"[!?]{1,3}|\([!?]{1,3}\)")
TRAILING_MARKS = re.compile(r"(?:[!?]{1,3}|\([!?]{1,3}\))$")
_NUMERIC_MOVE = r"[0-9]{1,3}(?:[-x:×X][0-9]{1,3})+"
_ALGEBRAIC_MOVE = r"[a-zA-Z][0-9]{1,2}(?:[-x:×X]?[a-zA-Z][0-9]{1,2})+"  # any board size: j10, l12
_SHORT_RUSSIAN = r"[a-zA-Z][a-zA-Z][0-9]{1,2}"
MOVE_SHAPE = re.compile(rf"{_NUMERIC_MOVE}|{_ALGEBRAIC_MOVE}|{_SHORT_RUSSIAN}")
_NUMERIC_SHAPE = re.compile(_NUMERIC_MOVE)
_ALGEBRAIC_SQUARE = re.compile(r"([a-zA-Z])([0-9]{1,2})")
CAPTURE_SEPARATOR = re.compile(r"[x:×X]")
ANY_SEPARATOR = re.compile(r"[-x:×X]")


def rotated(ruleset: Ruleset, text: str) -> str:
    """Algebraic squares of ``text`` seen from the other side of the board (numbers stay as they are:
    in ``1x13`` on a board of 24 files, ``x13`` is no square)."""
    if _NUMERIC_SHAPE.fullmatch(text):
        return text
    width, height = ruleset.width, ruleset.height

    def turn(match: re.Match[str]) -> str:
        file, rank = ord(match.group(1).lower()) - ord("a"), int(match.group(2))
        if not (0 <= file < width and 1 <= rank <= height):
            return match.group()  # not a square: left for the move parser to report
        return f"{chr(ord('a') + width - 1 - file)}{height + 1 - rank}"

    return _ALGEBRAIC_SQUARE.sub(turn, text)


def first_player_frame(ruleset: Ruleset) -> bool:
    """Whether algebraic squares are read from Black's side (a numbered variant where Black starts)."""
    return ruleset.first_to_move is Color.BLACK and ruleset.square_names is SquareNames.NUMERIC


def check_nag(nag: str) -> str:
    """``nag`` when it is a NAG (``$0`` to ``$999``) or a mark (``!?``), which PDN writes as they are.

    Raises:
        PDNError: anything else (``{``, ``(``, ``1-0`` or ``28-24`` as a NAG would make unreadable
            PDN, or PDN that reads back as other moves or another result).
    """
    if not isinstance(nag, str) or not (NAG.fullmatch(nag) or MARKS.fullmatch(nag)):
        raise PDNError(f"NAG {excerpt(str(nag))} is neither a NAG ($1) nor a mark (!, ?, !?, ...)")
    return nag
