"""Match statistics: the Elo difference of a score with its 95% interval, and an SPRT.

The Elo difference of a mean score ``s`` is ``-400 log10(1/s - 1)``. Its standard error comes from
the games' own spread (wins, draws and losses as a trinomial: the mean score's is ``sqrt(var / n)``)
carried to the Elo scale by the curve's slope at ``s``, ``400 / (ln 10 s (1 - s))``, and the
interval is the estimate ``+- 1.96`` of them. Mapping ``s +- 1.96 sd`` through the curve instead
(cutechess-cli's way) gives an infinite end whenever that range leaves (0, 1), as 19-0-1 does; on
the Elo scale every score short of perfect has finite ends. A perfect score has no finite estimate:
it is shown by its exact bound, the score ``p`` with ``p^n = 0.025`` (one side of a 95% interval,
the chance of ``n`` straight wins), so 20-0-0 reads ``at least +277.4 Elo (95% lower bound ...)``,
never ``+inf``; 4-0-0 reads ``at least -72.1 Elo``, and says that so few games cannot yet tell which
engine is stronger. All draws have no spread to measure (the trinomial's interval would be +0 ..
+0): their interval is the exact one of the share of decisive games, ``q`` with ``(1 - q)^n =
0.025``, every decisive game taken as won (or as lost) at the ends, so 0-20-0 reads ``+0.0 Elo (95%:
-59.1 .. +59.1)``. The SPRT is the generalised one fishtest uses: the log-likelihood ratio of "A is
``elo1`` stronger" against "``elo0``", from the trinomial's mean and variance, stopped at Wald's
bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
"""

from __future__ import annotations

import math

import attrs

from draughts.errors import DraughtsError

__all__ = ["SPRT", "EloEstimate", "elo_estimate", "elo_of", "score_of"]

_Z95 = 1.959963984540054


def elo_of(score: float) -> float:
    """The Elo difference of a mean score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: even scores give 0.0, not -0.0


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
        # A perfect score (or zero) has one finite end: said in words, as a bound, with a warning
        # when that bound still allows the other engine to be the stronger (issue 40 §9: a bare
        # ">= -72.1" after a 4-0 read as "the winner is weaker").
        if self.elo == math.inf:
            undecided = ", too few to say which engine is stronger" if self.low <= 0 else ""
            return (
                f"at least {self.low:+.1f} Elo (95% lower bound; a perfect score has no upper bound; "
                f"{self.games} games{undecided})"
            )
        if self.elo == -math.inf:
            undecided = ", too few to say which engine is stronger" if self.high >= 0 else ""
            return (
                f"at most {self.high:+.1f} Elo (95% upper bound; a score of zero has no lower bound; "
                f"{self.games} games{undecided})"
            )
        return f"{self.elo:+.1f} Elo (95%: {self.low:+.1f} .. {self.high:+.1f}, {self.games} games)"


def _counts(wins: int, draws: int, losses: int) -> int:
    if min(wins, draws, losses) < 0:
        raise DraughtsError(f"game counts must not be negative (got W-D-L {wins}-{draws}-{losses})")
    return wins + draws + losses


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of W-D-L (from the first player's side) with its 95% interval.

    A perfect score's estimate is infinite and its far end too; its near end is finite (see the
    module notes), and that is what it prints. All draws have the exact interval of the module notes.

    >>> print(elo_estimate(20, 0, 0))
    at least +277.4 Elo (95% lower bound; a perfect score has no upper bound; 20 games)
    >>> print(elo_estimate(4, 0, 0))  # doctest: +NORMALIZE_WHITESPACE
    at least -72.1 Elo (95% lower bound; a perfect score has no upper bound;
    4 games, too few to say which engine is stronger)
    >>> print(elo_estimate(19, 0, 1))
    +511.5 Elo (95%: +162.2 .. +860.8, 20 games)
    >>> print(elo_estimate(0, 20, 0))
    +0.0 Elo (95%: -59.1 .. +59.1, 20 games)

    Raises:
        DraughtsError: a negative count, or no games.
    """
    games = _counts(wins, draws, losses)
    if games == 0:
        raise DraughtsError("no games: no Elo difference")
    score = (wins + 0.5 * draws) / games
    if score in (0.0, 1.0):
        bound = elo_of(math.pow((1 - 0.95) / 2, 1 / games))  # p ** n = 0.025
        if score:
            return EloEstimate(math.inf, bound, math.inf, games)
        return EloEstimate(-math.inf, -math.inf, -bound, games)
    if draws == games:  # no spread to measure: the exact bound of the decisive share
        decisive = 1 - math.pow((1 - 0.95) / 2, 1 / games)  # (1 - q) ** n = 0.025
        bound = elo_of(0.5 + decisive / 2)
        return EloEstimate(0.0, -bound, bound, games)
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
    slope = 400.0 / (math.log(10.0) * score * (1.0 - score))
    margin = _Z95 * math.sqrt(variance / games) * slope
    elo = elo_of(score)
    return EloEstimate(elo, elo - margin, elo + margin, games)


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
