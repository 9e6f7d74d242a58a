"""The verdict within the rules, checked against its definition by an independent game search.

``Tablebase.probe(P).within_rules`` is, by definition, the result for the side to move of the
game started at P with every draw counter at 0 (``Board(rules, fen)`` without a ``:H`` clock),
played perfectly by both sides, ending exactly where :meth:`draughts.Board.outcome` says: a win
by the rules of play first, then the ruleset's automatic endgame and move-count draws. Two
conventions: a claim-based move-count rule draws as soon as it can be claimed, and repetition
draws are ignored (the oracle plays without them; the tables are built on the rules as given).
The game runs on into smaller materials after captures and crownings, the board restarting its
counts itself.

The oracle below is that definition as a memoized minimax over board states, using nothing but
the public :class:`~draughts.Board` (no table, no solver code). It only ends where play is
finite, so every ruleset here bounds every material it can reach: a move-count rule restarted by
a man's move bounds king-only play while men only go forward; where men also move sideways an
endgame rule without conditions bounds every material. A cycle would be caught, not looped.

Every position of each material is compared (``placements_of`` with both sides to move), on
6x6 rulesets where possible so that materials stay small, and on samples of real rulesets
behind the ``slow`` marker. The pure values (``result``, ``plies``) must not depend on the draw
rules: they equal those of the same rules built without any.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import attrs
import pytest

import draughts
from draughts import Board, DrawRules, EndgameRule, MoveCountRule, Position, Ruleset, Termination
from draughts.endgame import Tablebase
from draughts.endgame.table import fen_of


class Oracle:
    """The within-rules result of positions of ``rules``, by searching the game itself.

    The memo is keyed by ``(board.position, board.counters)``: with repetitions ignored, that is
    everything :meth:`Board.outcome` and :meth:`Board.can_claim_draw` read.

    With ``pure`` (tables of the same rules without draw rules), a position those tables call a
    draw is a draw here without a search: draw rules only add draws, so the side that holds the
    draw in the pure game holds it under them too, and neither can win. Only the slow samples
    use this (``trust_pure_draws``), to reach their long games; the default cases search everything.
    """

    def __init__(self, rules: Ruleset, pure: Tablebase | None = None) -> None:
        self.rules = attrs.evolve(rules, draw_rules=attrs.evolve(rules.draw_rules, repetitions=None))
        self.pure = pure
        self.memo: dict[tuple[Position, draughts.DrawCounters], str] = {}
        self.open: set[tuple[Position, draughts.DrawCounters]] = set()

    def __call__(self, fen: str) -> str:
        return self.value(Board(self.rules, fen))

    def value(self, board: Board) -> str:
        key = (board.position, board.counters)
        known = self.memo.get(key)
        if known is None:
            assert key not in self.open, f"play is not finite under {self.rules.name}: {board.fen()} comes back"
            self.open.add(key)
            known = self.memo[key] = self.search(board)
            self.open.discard(key)
        return known

    def search(self, board: Board) -> str:
        outcome = board.outcome()
        if outcome is not None:
            assert outcome.termination is not Termination.REPETITION
            if outcome.winner is None:
                return "draw"
            return "win" if outcome.winner is board.turn else "loss"
        if board.can_claim_draw():  # only move-count rules can be claimed here: claimed at once
            return "draw"
        if self.pure is not None and self.pure.probe(Position.from_fen(self.pure.rules, board.fen())).result == "draw":
            return "draw"
        results = set()
        for move in tuple(board.legal_moves):
            board.push(move)
            try:
                child = self.value(board)
            finally:
                board.pop()
            if child == "loss":
                return "win"
            results.add(child)
        return "draw" if "draw" in results else "loss"


class Case(NamedTuple):
    """Rules, the materials compared, which positions (every ``every``-th placement), the
    materials where the draw rules turn no theoretical result into another (elsewhere some must
    change, so that the case tests the rules: one piece against one on these small boards is
    won fast or not at all), and whether the oracle may take pure draws from the tables."""

    rules: Ruleset
    materials: tuple[str, ...]
    every: int = 1
    quiet: tuple[str, ...] = ()
    trust_pure_draws: bool = False


def small(base: str, name: str, *rules: MoveCountRule | EndgameRule, rows: int = 2) -> Ruleset:
    """``base`` on a 6x6 board, with only the draw ``rules`` given (repetition kept as default)."""
    counts = tuple(rule for rule in rules if isinstance(rule, MoveCountRule))
    endgames = tuple(rule for rule in rules if isinstance(rule, EndgameRule))
    return attrs.evolve(
        draughts.get_variant(base),
        name=name,
        board_size=6,
        rows_per_side=rows,
        pdn_gametype=None,
        draw_rules=DrawRules(move_counts=counts, endgames=endgames),
    )


CASES = {
    # 1. men's moves restart the count; no endgame rule.
    "men-restart": Case(
        small("russian", "russian-6-mc2", MoveCountRule(2)), ("MvK", "KvM", "MKvK", "MvM"), quiet=("MvK", "KvM", "MvM")
    ),
    # 2. an endgame rule shorter than the move-count rule.
    "endgame-shorter": Case(
        small(
            "international", "intl-6-mc4-eg1", MoveCountRule(4), EndgameRule(1, strong=((1, 1), (2, 0)), weak=((1, 0),))
        ),
        ("MKvK", "KKvK"),
    ),
    # 3. both, the endgame rule (on three pieces, both sides with kings) the longer.
    "endgame-longer": Case(
        small(
            "russian", "russian-6-mc2-eg4", MoveCountRule(2), EndgameRule(4, total_pieces=(3,), both_have_kings=True)
        ),
        ("MKvK", "KKvM", "MKvM"),
    ),
    # 4. rules that depend on where the pieces stand.
    "main-diagonal": Case(
        small(
            "russian",
            "russian-6-diagonal",
            EndgameRule(1, strong=((2, 0), (1, 1)), weak=((1, 0),), weak_king_on_main_diagonal=True),
            MoveCountRule(3),
        ),
        ("KvK", "KKvK", "MKvK"),
        quiet=("KvK",),
    ),
    "no-shot": Case(
        small(
            "international",
            "intl-6-noshot",
            EndgameRule(0, strong=((1, 0),), weak=((1, 0),), no_shot=True),
            EndgameRule(2, strong=((2, 0),), weak=((1, 0),)),
            MoveCountRule(3),
        ),
        ("KvK", "KKvK", "MKvK"),
    ),
    "frisian": Case(draughts.get_variant("frisian"), ("KvK",)),
    # 5. a count men's moves do not restart but crowning does (Italian's kind).
    "crowning-restarts": Case(
        small("italian", "italian-6-mc3", MoveCountRule(3, reset_by_man_move=False, reset_by_promotion=True)),
        ("MvK", "MKvK"),
    ),
    # 6. a draw on claim, claimed as soon as it can be.
    "claim": Case(small("american", "american-6-claim2", MoveCountRule(2, claim=True)), ("MvK", "KvK")),
    # 7. men moving sideways: only the endgame rule without conditions bounds their play.
    "sideways": Case(
        small("turkish", "turkish-6", MoveCountRule(2), EndgameRule(5), rows=1),
        ("KvK", "MvK", "KvM", "MvM"),
        quiet=("KvK", "MvK", "KvM", "MvM"),
    ),
}

SLOW_CASES = {
    # Samples: a search from any position of these reaches most of the material at every count.
    "frisian": Case(draughts.get_variant("frisian"), ("KKvK",), every=40, trust_pure_draws=True),
    "sideways": Case(CASES["sideways"].rules, ("MMvK",), every=97, trust_pure_draws=True),
    # The longest win of a king and a man against a king is 9 plies in both, under the 5-move
    # rules' 10: the rules change nothing, but the men must be counted right to say so.
    "russian": Case(draughts.get_variant("russian"), ("MKvK",), every=50, quiet=("MKvK",), trust_pure_draws=True),
    "international": Case(
        draughts.get_variant("international"), ("MKvK",), every=200, quiet=("MKvK",), trust_pure_draws=True
    ),
}
"""Russian KKKvK (the main road rule) is left out: its wins of up to 25 plies under 10- and
30-ply rules make the search too large (576 positions, every 500th placement, took 9 minutes,
5 million states and 4 GB); the 6x6 ``main-diagonal`` case checks that rule instead."""


def positions(tb: Tablebase, material: str, every: int = 1) -> Iterator[str]:
    """FENs of every ``every``-th placement of ``material``, each with both sides to move."""
    for number, placement in enumerate(tb.table(material).indexer.placements_of()):
        if number % every == 0:
            for turn in (0, 1):
                yield fen_of(tb.rules, *placement, turn)


def pure(rules: Ruleset) -> Ruleset:
    """The same rules without move-count or endgame draw rules."""
    return attrs.evolve(
        rules, name=rules.name + "-pure", draw_rules=attrs.evolve(rules.draw_rules, move_counts=(), endgames=())
    )


def compare(case: Case, material: str, directory: Path) -> None:
    """Every chosen position of ``material``: within_rules as the oracle says, and the pure
    values as without draw rules. The disagreements are listed, fewest pieces first."""
    rules = case.rules
    tb, bare = Tablebase(rules, directory), Tablebase(pure(rules), directory)
    tb.build(material)
    bare.build(material)
    oracle = Oracle(rules, bare if case.trust_pure_draws else None)
    wrong: list[tuple[int, str, str | None, str]] = []
    changed: list[str] = []
    checked = cursed = 0
    for fen in positions(tb, material, case.every):
        verdict = tb.probe(Position.from_fen(rules, fen))
        expected = oracle(fen)
        if verdict.within_rules != expected:
            wrong.append((len(Position.from_fen(rules, fen).pieces()), fen, verdict.within_rules, expected))
        theory = bare.probe(Position.from_fen(bare.rules, fen))
        if (verdict.result, verdict.plies) != (theory.result, theory.plies):
            changed.append(f"{fen}: {verdict} without draw rules {theory}")
        cursed += expected != theory.result
        checked += 1
    assert not changed, f"{len(changed)} pure values change with the draw rules, e.g. {changed[:3]}"
    wrong.sort()
    shown = [f"{fen} tables {got} oracle {want}" for _, fen, got, want in wrong[:5]]
    assert not wrong, f"{len(wrong)} of {checked} positions of {material} under {rules.name} disagree: {shown}"
    assert (cursed > 0) == (material not in case.quiet), f"the draw rules change {cursed} of {checked} results"


def params(cases: dict[str, Case]) -> list[Any]:
    """One test a case and material; the three-piece materials with men (each case's longest
    comparison, 4 to 9 seconds each) run with ``-m slow``, so that the test command stays short."""
    return [
        pytest.param(name, material, id=f"{name}-{material}", marks=_slow_if_large(material))
        for name, case in cases.items()
        for material in case.materials
    ]


def _slow_if_large(material: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if len(material.replace("v", "")) >= 3 and "M" in material else []


@pytest.mark.parametrize(("name", "material"), params(CASES))
def test_within_rules_is_the_game_under_the_rules(name: str, material: str, tmp_path: Path) -> None:
    compare(CASES[name], material, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "material"), params(SLOW_CASES))
def test_within_rules_on_samples_of_real_rules(name: str, material: str, tmp_path: Path) -> None:
    compare(SLOW_CASES[name], material, tmp_path)


@pytest.mark.parametrize(
    ("name", "material"), [("endgame-shorter", "KKvK"), ("main-diagonal", "KKvK"), ("men-restart", "MvK")]
)
def test_within_counts_in_stats(name: str, material: str, tmp_path: Path) -> None:
    """The counts of wins, losses and draws within the rules that a table stores are the oracle's."""
    rules = CASES[name].rules
    tb = Tablebase(rules, tmp_path)
    tb.build(material)
    oracle = Oracle(rules)
    for turn, side in enumerate(("white", "black")):
        counts = Counter(
            oracle(fen_of(rules, *placement, turn)) for placement in tb.table(material).indexer.placements_of()
        )
        stored = tb.stats(material)[side]
        assert stored["within_rules"] == {"win": counts["win"], "loss": counts["loss"], "draw": counts["draw"]}
        assert sum(counts.values()) == stored["positions"]
