"""The lab's random-player figures against an independent count (issue 26, Must show).

The same number of random games is played with the test oracle's move generator (tests/naive.py:
a mailbox board written from the rule texts, sharing nothing with the library's generator), a
random player choosing uniformly among its legal moves (one per identity, as the lab's does), with
the same ply cap; branching factor, capture share and game length are counted from those games and
compared with the lab's. The games differ (two generators, two random streams), so the figures
agree only statistically: the difference must lie within 3.29 standard errors of the difference
(a two-sided 99.9% test, so that the check does not fail by chance on one seed in twenty), and
each lab interval must be narrow enough (a half-width under 6% of the value) for agreement to mean something.

The oracle knows no draw rules, only the end by no move; the three rulesets are ones where random
games practically never end by a draw rule (none of 200 did), Brazilian (8x8, flying kings),
American (8x8, short kings) and Spanish (8x8, inverted board, quantity-then-quality precedence).
"""

from __future__ import annotations

import math
import random

import pytest

import naive
from draughts.lab import run_lab
from draughts.lab.report import normal_p
from draughts.lab.stats import Estimate, mean_interval, ratio_interval
from draughts.rules.names import get_variant

pytestmark = pytest.mark.slow

GAMES = 300
CAP = 300
Z999 = 3.2905267314919255


def naive_game(ruleset: str, seed: int) -> tuple[list[int], list[int], int]:
    """One random game by the oracle: legal moves of each position where the side to move has one
    (with the position at the cap, as the lab counts it), pieces taken per ply, plies played."""
    state = naive.initial(get_variant(ruleset))
    chooser = random.Random(seed)
    legal: list[int] = []
    taken: list[int] = []
    while True:
        moves = naive.moves(state)
        if not moves:
            break
        legal.append(len(moves))
        if len(taken) >= CAP:
            break
        move = moves[chooser.randrange(len(moves))]
        taken.append(len(move.captured))
        state = naive.play(state, move)
    return legal, taken, len(taken)


def naive_figures(ruleset: str) -> dict[str, Estimate]:
    games = [naive_game(ruleset, 7919 * i + 1) for i in range(GAMES)]
    return {
        "branching_factor": ratio_interval([sum(g[0]) for g in games], [len(g[0]) for g in games]),
        "capture_share": ratio_interval([sum(t > 0 for t in g[1]) for g in games], [g[2] for g in games]),
        "plies_mean": mean_interval([float(g[2]) for g in games]),
    }


def _agree(a: Estimate, b: Estimate) -> bool:
    p = normal_p(a, b)
    return p is None or p > math.erfc(Z999 / math.sqrt(2))


@pytest.mark.parametrize("ruleset", ["brazilian", "american", "spanish"])
def test_random_games_agree_with_the_oracles_count(ruleset: str) -> None:
    lab = run_lab([ruleset], GAMES, seed=11, max_plies=CAP)[ruleset]
    by_rule = sum(v for k, v in lab.endings.items() if "no legal move" not in k and "no pieces" not in k)
    assert by_rule <= GAMES // 100, lab.endings  # the oracle ends games only by no move (or the cap)
    oracle = naive_figures(ruleset)
    for key, theirs in oracle.items():
        ours = getattr(lab, key)
        assert (ours.high - ours.low) / 2 < 0.06 * ours.value, (key, ours)
        assert _agree(ours, theirs), (ruleset, key, ours, theirs)


def test_the_check_tells_rules_apart() -> None:
    """The same comparison between Brazilian's lab figures and the oracle's Brazilian without
    forced capture fails: the check has the power to see a wrong rule."""
    lab = run_lab(["brazilian"], GAMES, seed=11, max_plies=CAP)["brazilian"]
    oracle = naive_figures("brazilian-nfc")
    assert not _agree(lab.branching_factor, oracle["branching_factor"])
    assert not _agree(lab.capture_share, oracle["capture_share"])
