"""Match statistics: the Elo difference of a score with its 95% interval, and an SPRT.

The Elo difference of a mean score ``s`` is ``-400 log10(1/s - 1)``. Its interval comes from the
games' own spread (wins, draws and losses as a trinomial: the standard error of the mean score is
``sqrt(var / n)``), mapped through the same curve, as cutechess-cli and fishtest report it. The SPRT
is the generalised one fishtest uses: the log-likelihood ratio of "A is ``elo1`` stronger" against
"``elo0``", from the trinomial's mean and variance, stopped at Wald's bounds
``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
"""

from __future__ import annotations

import math

import attrs

from draughts.errors import DraughtsError

_Z95 = 1.959963984540054


def elo_of(score: float) -> float:
    """The Elo difference of a mean score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_of(elo: float) -> float:
    """The expected score of an Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@attrs.frozen
class EloEstimate:
    """An Elo difference and its 95% interval (``low`` .. ``high``), from ``games`` games."""

    elo: float
    low: float
    high: float
    games: int

    def __str__(self) -> str:
        return f"{self.elo:+.1f} Elo (95%: {self.low:+.1f} .. {self.high:+.1f}, {self.games} games)"


def _counts(wins: int, draws: int, losses: int) -> int:
    if min(wins, draws, losses) < 0:
        raise DraughtsError(f"game counts must not be negative (got W-D-L {wins}-{draws}-{losses})")
    return wins + draws + losses


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of W-D-L (from the first player's side) with its 95% interval.

    Raises:
        DraughtsError: a negative count, or no games.
    """
    games = _counts(wins, draws, losses)
    if games == 0:
        raise DraughtsError("no games: no Elo difference")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    margin = _Z95 * math.sqrt(variance / games)
    return EloEstimate(elo_of(score), elo_of(score - margin), elo_of(score + margin), games)


@attrs.frozen
class SPRT:
    """A sequential probability ratio test: is A stronger than B by ``elo1`` rather than ``elo0``?

    Attributes:
        elo0: The null hypothesis' Elo difference.
        elo1: The alternative's.
        alpha: Chance of accepting H1 when H0 holds.
        beta: Chance of accepting H0 when H1 holds.
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def bounds(self) -> tuple[float, float]:
        """Wald's lower and upper bounds of the log-likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The log-likelihood ratio of H1 against H0 after W-D-L (0 before a decisive spread)."""
        games = _counts(wins, draws, losses)
        if games == 0 or wins + losses == 0 or (draws == 0 and min(wins, losses) == 0):
            return 0.0
        score = (wins + 0.5 * draws) / games
        variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
        if variance <= 0:
            return 0.0
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        return (s1 - s0) * (2 * score - s0 - s1) / (2 * variance / games)

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        """``"H1"`` (A is stronger by ``elo1``), ``"H0"``, or None while the test goes on."""
        lower, upper = self.bounds()
        llr = self.llr(wins, draws, losses)
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None
