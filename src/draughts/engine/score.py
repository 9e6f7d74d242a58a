"""Typed engine scores: an evaluation in hundredths of a man, or a win or loss in N plies.

An engine's answer is a number whose meaning depends on its range (a search's ``MATE - n``, Scan's
``99.95``), and a tablebase's is a verdict. :class:`Score` gives them one type, so callers compare,
negate, convert and write scores without knowing where they came from.

>>> from draughts.engine.score import Score
>>> Score.cp(35) > Score.cp(-20), Score.win(7) > Score.cp(5_000), Score.win(3) > Score.win(9)
(True, True, True)
>>> -Score.win(5)  # the same game seen by the other side
Score.loss(5)
>>> round(Score.cp(100).winning_chances(), 3)  # lidraughts' scale, from -1 (lost) to 1 (won)
0.197
>>> Score.parse("-0.35"), Score.parse("#-4"), Score.cp(120).text()
(Score.cp(-35), Score.loss(4), '1.20')

A score is always seen from one side (the side to move, for an engine's answer); :meth:`Score.parse`
and :meth:`Score.text` read and write the ``%eval`` form: men with two decimals, or ``#N`` for a
win in ``N`` plies and ``#-N`` for a loss.
"""

from __future__ import annotations

import math
import re

import attrs

from draughts._text import excerpt
from draughts.errors import InvalidScoreError

__all__ = ["InvalidScoreError", "Score", "winning_chances"]

_MATE = 1_000_000
_MATE_BOUND = _MATE - 10_000
"""The search's scores (``draughts.engine.search``): ``MATE - n`` for a win in ``n`` plies, and
anything at or past the bound is one (kept here, not imported, so that this module stays light)."""

_SCALE = 0.004
"""lidraughts' scale for winning chances: ``2 / (1 + exp(-0.004 * cp)) - 1``."""

_TEXT = re.compile(r"([+-]?)(?:([0-9]{1,9})(?:\.([0-9]{1,2}))?|#([+-]?)([0-9]{1,9}))")


def winning_chances(cp: float) -> float:
    """lidraughts' winning chances of an evaluation of ``cp`` hundredths of a man, from -1 to 1.

    The scale ``2 / (1 + exp(-0.004 * cp)) - 1`` is lidraughts' (after lichess): a man up is about
    0.2, three men up about 0.5; it is the scale the analysis's inaccuracy, mistake and blunder
    thresholds are stated on.

    >>> winning_chances(0), round(winning_chances(-300), 3)
    (0.0, -0.537)
    """
    return 2 / (1 + math.exp(-_SCALE * max(min(cp, 100_000), -100_000))) - 1


def _plies(instance: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value == 0):
        raise InvalidScoreError(f"plies {excerpt(value)} must be a non-zero whole number or None")


def _centi(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidScoreError(f"centi-man score {excerpt(value)} must be a whole number")


@attrs.frozen(order=False)
class Score:
    """An evaluation for one side: ``centi`` hundredths of a man, or a win (loss) in ``plies`` plies.

    Build scores with :meth:`cp`, :meth:`win`, :meth:`loss`, :meth:`from_search` or :meth:`parse`.
    Scores compare as a player prefers them: a faster win above a slower one above any evaluation,
    above a slower loss, above a faster loss; ties are equal evaluations. ``-score`` is the same
    score seen from the other side.

    Attributes:
        centi: The evaluation in hundredths of a man (0 for a win or loss).
        plies: Plies to the end of the game: positive when this side wins, negative when it loses,
            None for an evaluation.
        exact: True when the score is proven (a tablebase's verdict, or a search that saw the game's
            end), not an estimate. An exact score with no plies is a proven draw. Not part of
            equality, so that equality agrees with the order.
    """

    centi: int = attrs.field(default=0, validator=_centi)
    plies: int | None = attrs.field(default=None, validator=_plies)
    exact: bool = attrs.field(default=False, eq=False)

    # --- constructors ---

    @classmethod
    def cp(cls, centi: int, *, exact: bool = False) -> Score:
        """An evaluation of ``centi`` hundredths of a man."""
        return cls(centi, None, exact)

    @classmethod
    def win(cls, plies: int, *, exact: bool = True) -> Score:
        """A win in ``plies`` plies (1 or more)."""
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 1:
            raise InvalidScoreError(f"a win takes 1 or more plies, not {excerpt(plies)}")
        return cls(0, plies, exact)

    @classmethod
    def loss(cls, plies: int, *, exact: bool = True) -> Score:
        """A loss in ``plies`` plies (1 or more; a game already lost counts as lost in 1)."""
        if isinstance(plies, bool) or not isinstance(plies, int) or plies < 1:
            raise InvalidScoreError(f"a loss takes 1 or more plies, not {excerpt(plies)}")
        return cls(0, -plies, exact)

    @classmethod
    def from_search(cls, value: int) -> Score:
        """The score of :class:`draughts.engine.Engine`'s integer scores (``MATE - n`` is a win in ``n``)."""
        if value >= _MATE_BOUND:
            return cls.win(max(_MATE - value, 1))
        if value <= -_MATE_BOUND:
            return cls.loss(max(_MATE + value, 1))
        return cls.cp(value)

    @classmethod
    def from_verdict(cls, result: str, plies: int | None) -> Score:
        """A tablebase's exact score: ``result`` ``"win"``, ``"loss"`` or ``"draw"`` in ``plies`` plies."""
        if result == "draw":
            return cls(0, None, True)
        if result == "win":
            return cls.win(max(plies or 1, 1))
        if result == "loss":
            return cls.loss(max(plies or 1, 1))
        raise InvalidScoreError(f"tablebase result {excerpt(result)} is not win, loss or draw")

    @classmethod
    def parse(cls, text: str) -> Score:
        """The score of its ``%eval`` text: men with up to two decimals (``0.35``, ``-1.2``), ``#N`` or ``#-N``.

        Raises:
            InvalidScoreError: anything else; the message quotes it.
        """
        match = _TEXT.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise InvalidScoreError(f"score {excerpt(text)} is not men (0.35, -1.2) or plies to the end (#7, #-4)")
        sign, whole, fraction, mate_sign, plies = match.groups()
        if plies is not None:
            if sign:
                raise InvalidScoreError(f"score {excerpt(text)}: write a loss as #-N")
            count = int(plies)
            if count == 0:
                raise InvalidScoreError(f"score {excerpt(text)}: a win or loss takes 1 or more plies")
            return cls.loss(count) if mate_sign == "-" else cls.win(count)
        centi = int(whole) * 100 + int((fraction or "0").ljust(2, "0"))
        return cls.cp(-centi if sign == "-" else centi)

    # --- reading ---

    @property
    def is_win(self) -> bool:
        """Whether this side wins by force."""
        return self.plies is not None and self.plies > 0

    @property
    def is_loss(self) -> bool:
        """Whether this side loses by force."""
        return self.plies is not None and self.plies < 0

    def winning_chances(self) -> float:
        """From -1 (lost) to 1 (won): lidraughts' scale for an evaluation (:func:`winning_chances`)."""
        if self.plies is not None:
            return 1.0 if self.plies > 0 else -1.0
        return winning_chances(self.centi)

    def win_probability(self) -> float:
        """The winning chances as a probability from 0 to 1 (a draw and an even position are 0.5)."""
        return (self.winning_chances() + 1) / 2

    def text(self) -> str:
        """The ``%eval`` form: ``1.20``, ``-0.05``, ``#7`` (a win in 7 plies) or ``#-4``."""
        if self.plies is not None:
            return f"#{self.plies}"
        sign = "-" if self.centi < 0 else ""
        whole, fraction = divmod(abs(self.centi), 100)
        return f"{sign}{whole}.{fraction:02d}"

    def to_search(self) -> int:
        """The engine's integer form (``MATE - n`` for a win in ``n``), the inverse of :meth:`from_search`."""
        if self.plies is None:
            return self.centi
        return _MATE - self.plies if self.plies > 0 else -(_MATE + self.plies)

    def _key(self) -> tuple[int, int]:
        if self.plies is None:
            return (0, self.centi)
        return (1, -self.plies) if self.plies > 0 else (-1, -self.plies)

    # --- arithmetic and order ---

    def __neg__(self) -> Score:
        return Score(-self.centi, None if self.plies is None else -self.plies, self.exact)

    def __lt__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other: Score) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() >= other._key()

    def __repr__(self) -> str:
        if self.plies is not None:
            kind = "win" if self.plies > 0 else "loss"
            extra = "" if self.exact else ", exact=False"
            return f"Score.{kind}({abs(self.plies)}{extra})"
        return f"Score.cp({self.centi}{', exact=True' if self.exact else ''})"
