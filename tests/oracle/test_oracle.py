"""The library's legal moves against the naive mailbox oracle (tests/naive.py).

Compared on every position: the set of legal move identities, each move's promotion flag and the
position it leads to, and (in the "keep" convention) the multiset of capture paths, each with its
captured pieces in order.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import naive
from draughts import Position, Ruleset
from strategies import HOUSE_RULES, NAMED, custom_rulesets, positions, promotion_positions, rulesets

ALL_VARIANTS = (*NAMED, *HOUSE_RULES)


def describe(position: Position) -> str:
    rules = position.ruleset
    return f"{position.fen(numeric=True)} in {rules.name} ({rules!r})"


def assert_matches_oracle(position: Position) -> None:
    """Fail with a readable difference if the library and the oracle disagree on ``position``."""
    rules = position.ruleset
    board = naive.board_of(position)
    expected_paths = naive.legal_paths(rules, board, position.turn)
    moves = position.legal_moves()

    # 1. Legal moves as identities (start, end, set of captured squares).
    expected = {move.identity for move in expected_paths}
    got = [move.identity for move in moves]
    assert len(got) == len(set(got)), f"duplicate identities in {got} at {describe(position)}"
    missing, extra = expected - set(got), set(got) - expected
    assert expected == set(got), (
        f"legal moves differ at {describe(position)}: library lacks {sorted(missing, key=str)}, "
        f"has extra {sorted(extra, key=str)}"
    )

    # 2. Promotion flag and resulting position of each move.
    by_identity: dict[naive.Identity, list[naive.NaiveMove]] = {}
    for path in expected_paths:
        by_identity.setdefault(path.identity, []).append(path)
    for move in moves:
        candidates = by_identity[move.identity]
        assert move.promotes in {path.promotes for path in candidates}, (
            f"{move} promotes={move.promotes}, oracle says {[p.promotes for p in candidates]} at {describe(position)}"
        )
        after = naive.board_of(position.play(move))
        boards = [naive.apply(rules, board, position.turn, path) for path in candidates]
        assert after in boards, f"{move} leads to {position.play(move).fen()} at {describe(position)}"
        assert position.play(move).turn is position.turn.opponent

    # 3. Every capture path (perft "keep" convention) with its captured pieces in order.
    got_paths = Counter(
        (move.path, move.captured, move.promotes) for move, _ in draughts.divide(position, 1, paths=True)
    )
    want_paths = Counter((path.path, path.captured, path.promotes) for path in expected_paths)
    assert got_paths == want_paths, (
        f"capture paths differ at {describe(position)}: library extra {sorted((got_paths - want_paths).elements())}, "
        f"library lacks {sorted((want_paths - got_paths).elements())}"
    )

    # 4. Counting agrees with listing.
    assert draughts.perft(position, 1) == len(expected)
    assert draughts.perft(position, 1, paths=True) == len(expected_paths)


def _play_out_against_oracle(position: Position, choices: list[int]) -> None:
    """Play ``choices`` (indices modulo the move count) from ``position``, checking the oracle at every ply."""
    for choice in choices:
        assert_matches_oracle(position)
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[choice % len(moves)])


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=lambda rules: rules.name)
@settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_named_variants_match_oracle(rules: Ruleset, data: st.DataObject) -> None:
    assert_matches_oracle(data.draw(positions(rules)))


@settings(deadline=None, max_examples=800, suppress_health_check=[HealthCheck.too_slow])
@given(positions(custom_rulesets()))
def test_user_defined_rulesets_match_oracle(position: Position) -> None:
    assert_matches_oracle(position)


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(promotion_positions())
def test_promotions_during_captures_match_oracle(position: Position) -> None:
    assert_matches_oracle(position)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rulesets, choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=80))
def test_random_playouts_match_oracle(rules: Ruleset, choices: list[int]) -> None:
    """Random games from the start position, compared with the oracle at every ply."""
    _play_out_against_oracle(Position.initial(rules), choices)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(start=positions(), choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=30))
def test_playouts_from_random_positions_match_oracle(start: Position, choices: list[int]) -> None:
    """Random games from random (king-rich) positions, compared with the oracle at every ply."""
    _play_out_against_oracle(start, choices)


@pytest.mark.slow
@settings(deadline=None, max_examples=3000, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_many_positions_match_oracle(position: Position) -> None:
    assert_matches_oracle(position)


@pytest.mark.slow
@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rulesets, choices=st.lists(st.integers(0, 10**6), min_size=50, max_size=200))
def test_long_playouts_match_oracle(rules: Ruleset, choices: list[int]) -> None:
    _play_out_against_oracle(Position.initial(rules), choices)


# --- the oracle itself, on positions whose answer is published (FMJD 4.x examples, PDN 3.0, perft sources) ---


@pytest.mark.parametrize(
    ("variant", "fen", "paths", "identities"),
    [
        ("russian", "W:WKd2:Bf6,c5,e5,e3", 4, 4),  # must land where the capture continues
        ("russian", "W:WKd2:Bc5,e5,c3,e3", 4, 3),  # cyclic capture through its own start square
        ("international", "W:WK38:B18,19,32,33", 6, 5),  # cyclic, keep 6 / dedup 5
        ("international", "W:WK47:B14,19,29,31,42", 2, 2),  # PDN restriction 9: straight on is one path
    ],
)
def test_oracle_reproduces_published_examples(variant: str, fen: str, paths: int, identities: int) -> None:
    position = Position.from_fen(variant, fen)
    found = naive.position_paths(position)
    assert len(found) == paths
    assert len({move.identity for move in found}) == identities


@pytest.mark.parametrize(
    ("variant", "depth", "keep"),
    [("russian", 5, 7482), ("brazilian", 5, 7473), ("italian", 5, 7361), ("international", 4, 4265)],
)
def test_oracle_reproduces_published_perft(variant: str, depth: int, keep: int) -> None:
    def count(rules: Ruleset, board: naive.Board, turn: draughts.Color, depth: int) -> int:
        moves = naive.legal_paths(rules, board, turn)
        if depth == 1:
            return len(moves)
        return sum(count(rules, naive.apply(rules, board, turn, move), turn.opponent, depth - 1) for move in moves)

    start = Position.initial(variant)
    assert count(start.ruleset, naive.board_of(start), start.turn, depth) == keep


def test_oracle_pdn_restriction_9_paths() -> None:
    """The two long forms of the PDN 3.0 ambiguity example, landing squares as PDN writes them."""
    position = Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    assert sorted(move.path for move in naive.position_paths(position)) == [(47, 38, 20, 9, 36), (47, 38, 24, 13, 36)]
