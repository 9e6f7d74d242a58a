"""Core v2 against the naive oracle (tests/naive.py), over the whole rule space of the family.

For a position reached by play (or set up with king-move runs) the library and the oracle must
agree on: the legal moves as identities (start, end, captured set), each move's promotion flag
and resulting position, the multiset of capture paths (PDN restriction 9, ``divide(paths=True)``),
perft in both conventions, the king-move runs carried from move to move, and who has won when
the game is over. The named tests take the hand-worked cases of tests/family.py (180° turns,
landing rules, Frisian value precedence, the king-move limit, both win conditions) through the
library, and the family's published perft counts through ``draughts.perft``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import draughts
import naive
from draughts import BLACK, WHITE, CapturedRemoval, Directions, KingRange, Position, Ruleset
from draughts.board import Termination
from draughts.rules import KingLanding, KingsEarliest, MostKings, MostPieces, MostValue, WithKing
from draughts.rules.geometry import BoardSquares
from family import CASES, FAMILY, FRISIAN, PUBLISHED_RULES, TURKISH, Case, expected, parse_move, published_series
from strategies import (
    PATHS_BUDGET,
    SLOW_PATHS_BUDGET,
    Line,
    StartStrategy,
    affordable,
    any_rulesets,
    crowded_starts,
    dense_starts,
    directions,
    endgame_starts,
    family_named,
    family_rulesets,
    king_line_starts,
    kings_and_men_starts,
    lines,
    reversal_starts,
)

# --- comparing one position ---


def describe(position: Position, state: naive.State) -> str:
    return f"{position.fen(numeric=True)} (oracle runs {state.runs}) in {position.ruleset!r}"


def oracle_runs(state: naive.State, color: draughts.Color) -> tuple[int, int] | None:
    square, count = state.run(color)
    return None if square is None else (square, count)


def assert_matches_oracle(position: Position, state: naive.State) -> None:
    """Fail with a readable difference if the library and the oracle disagree on ``position``."""
    assert naive.board_of(position) == state.board, f"boards differ: {describe(position, state)}"
    assert position.turn is state.turn
    for color in (WHITE, BLACK):
        assert position.king_moves(color) == oracle_runs(state, color), (
            f"{color} king-move run {position.king_moves(color)}, oracle {oracle_runs(state, color)} at "
            f"{describe(position, state)}"
        )
    expected_paths = naive.moves(state, paths=True)
    moves = list(position.legal_moves)

    # 1. Legal moves as identities.
    want = {move.identity for move in expected_paths}
    got = [move.identity for move in moves]
    assert len(got) == len(set(got)), f"duplicate identities in {got} at {describe(position, state)}"
    missing, extra = want - set(got), set(got) - want
    assert want == set(got), (
        f"legal moves differ at {describe(position, state)}: library lacks {len(missing)} "
        f"{_some(missing)}, has {len(extra)} extra {_some(extra)}"
    )

    # 2. Promotion flag and resulting position of each move (king-move runs included).
    by_identity: dict[naive.Identity, list[naive.NaiveMove]] = {}
    for path in expected_paths:
        by_identity.setdefault(path.identity, []).append(path)
    for move in moves:
        candidates = by_identity[move.identity]
        assert move.promotes in {path.promotes for path in candidates}, (
            f"{move} promotes={move.promotes}, oracle says {[p.promotes for p in candidates]} at "
            f"{describe(position, state)}"
        )
        child = position.play(move)
        children = [naive.play(state, path) for path in candidates if path.promotes == move.promotes]
        assert any(_same(child, after) for after in children), (
            f"{move} leads to {child.fen()} at {describe(position, state)}"
        )

    # 3. Every capture path with its captured pieces in order.
    got_paths = Counter((m.path, m.captured, m.promotes) for m, _ in draughts.divide(position, 1, paths=True))
    want_paths = Counter((p.path, p.captured, p.promotes) for p in expected_paths)
    assert got_paths == want_paths, (
        f"paths differ at {describe(position, state)}: library extra {_some((got_paths - want_paths).elements())}, "
        f"library lacks {_some((want_paths - got_paths).elements())}"
    )

    # 4. Counting agrees with listing.
    assert draughts.perft(position, 1) == len(want)
    assert draughts.perft(position, 1, paths=True) == len(expected_paths)

    # 5. The end of the game.
    assert position.is_over() == (not expected_paths)
    assert position.winner() == naive.winner(state), f"winner differs at {describe(position, state)}"


def _some(items: object) -> str:
    """A few of ``items`` (sorted), for messages."""
    listed = sorted(items, key=str)  # type: ignore[call-overload]
    return f"{listed[:4]}{' ...' if len(listed) > 4 else ''}"


def _same(position: Position, state: naive.State) -> bool:
    return (
        naive.board_of(position) == state.board
        and position.turn is state.turn
        and all(position.king_moves(color) == oracle_runs(state, color) for color in (WHITE, BLACK))
    )


def replay(line: Line) -> list[tuple[Position, naive.State]]:
    """The line's positions in the library and the oracle, each move found by its identity."""
    position = line.start_position()
    states = line.states()
    out = [(position, states[0])]
    for move, state in zip(line.played, states[1:], strict=True):
        (library_move,) = [m for m in position.legal_moves if m.identity == move.identity] or [None]
        assert library_move is not None, f"the library lacks {move.path} at {describe(position, out[-1][1])}"
        position = position.play(library_move)
        out.append((position, state))
    return out


# --- random positions over the whole rule space ---


@settings(deadline=None, max_examples=250)
@given(lines(family_rulesets()))
def test_random_rulesets_match_oracle(line: Line) -> None:
    for position, state in replay(line):
        assert_matches_oracle(position, state)


@settings(deadline=None, max_examples=200)
@given(st.data())
def test_flying_king_captures_match_oracle(data: st.DataObject) -> None:
    """Positions built around a flying king with pieces along its lines: turns, 180° turns,
    landing rules and pieces lifted at once or at the end meet here most often."""
    rules = data.draw(family_rulesets().filter(lambda rules: rules.king_range is KingRange.FLYING))
    start, turn = data.draw(king_line_starts(rules))
    line = Line(rules, start, turn, ())
    assume(affordable(line.start_position(), PATHS_BUDGET))
    assert_matches_oracle(line.start_position(), line.start_state())


_DENSE_RULES = st.one_of(family_named, family_rulesets()).filter(lambda rules: not rules.crowning_wins)
_DENSE_BUDGET = 10 * PATHS_BUDGET


@settings(deadline=None, max_examples=150)
@given(st.data())
def test_dense_positions_list_every_move_their_paths_reach(data: st.DataObject) -> None:
    """Kings among many opposing pieces: ``legal_moves`` holds exactly the identities of the
    capture paths the library itself lists (no oracle needed, so many positions are cheap)."""
    rules = data.draw(_DENSE_RULES)
    start, turn = data.draw(dense_starts(rules))
    position = Line(rules, start, turn, ()).start_position()
    assume(affordable(position, _DENSE_BUDGET))  # a library-only count: ten times the oracle's bound
    paths = [move for move, _ in draughts.divide(position, 1, paths=True)]
    listed = {move.identity for move in position.legal_moves}
    assert listed == {move.identity for move in paths}, (
        f"legal_moves lacks {_some({m.identity for m in paths} - listed)} at {position.fen(numeric=True)} in {rules!r}"
    )
    assert draughts.perft(position, 1) == len(listed)


# --- each rule dimension of issue 10 held on, the others random ---

_ORTHOGONAL = directions.filter(lambda found: bool(found & Directions.ORTHOGONAL))
"""Direction sets with at least one orthogonal direction."""

_REVERSIBLE = directions.filter(
    lambda found: (
        Directions.ORTHOGONAL_SIDEWAYS in found
        or Directions.DIAGONAL in found
        or Directions.ORTHOGONAL_FORWARD | Directions.ORTHOGONAL_BACKWARD in found
    )
)
"""Direction sets holding some direction and its opposite, so that a capture could turn back 180°."""


@st.composite
def _value_first(draw: st.DrawFn) -> tuple[object, ...]:
    """Most value first (random man and king weights), then any of the other criteria."""
    value = MostValue(man=draw(st.integers(1, 5)), king=draw(st.integers(1, 12)))
    rest = draw(st.permutations([MostPieces(), WithKing(), MostKings(), KingsEarliest()]))
    return (value, *rest[: draw(st.integers(0, 4))])


def _crowded(rules: Ruleset) -> st.SearchStrategy[Any]:
    """Starts with many ways to capture: a crowded patch, or pieces along a king's lines."""
    return st.one_of(crowded_starts(rules), king_line_starts(rules))


FOCUS: dict[str, tuple[dict[str, st.SearchStrategy[Any]], StartStrategy | None]] = {
    "men-directions": ({"men_move": _ORTHOGONAL, "men_capture": _ORTHOGONAL}, None),
    "king-directions": ({"kings_move": _ORTHOGONAL, "kings_capture": _ORTHOGONAL}, None),
    "all-squares": ({"board_squares": st.just(BoardSquares.ALL)}, None),
    "landing-rules": (
        {
            "king_range": st.just(KingRange.FLYING),
            "king_landing": st.sampled_from([KingLanding.DIRECTLY_BEHIND, KingLanding.BEHIND_LAST_KING]),
        },
        _crowded,
    ),
    # A turn back can only matter for a flying king, and only where the pieces it jumped leave the
    # board at once (else the piece just jumped blocks the way back; a short piece finds no piece
    # next to it on the way back).
    "no-180-turn": (
        {
            "capture_reversal": st.just(False),
            "king_range": st.just(KingRange.FLYING),
            "captured_removal": st.just(CapturedRemoval.IMMEDIATE),
            "men_capture": _REVERSIBLE,
            "kings_capture": _REVERSIBLE,
        },
        reversal_starts,
    ),
    "removal-at-once": (
        {
            "captured_removal": st.just(CapturedRemoval.IMMEDIATE),
            "men_capture": _REVERSIBLE,
            "kings_capture": _REVERSIBLE,
        },
        _crowded,
    ),
    "value-precedence": ({"precedence": _value_first()}, _crowded),
    "rule-state": ({"king_move_limit": st.integers(1, 3)}, kings_and_men_starts),
    "no-move-wins": ({"no_move_wins": st.just(True)}, None),
    "crowning-wins": ({"crowning_wins": st.just(True)}, None),
    "board-6x6": ({"board_size": st.just(6)}, None),
    "board-12x12": ({"board_size": st.just(12)}, None),
}
"""One rule dimension of issue 10 held to its new values, every other field random, and where the
dimension needs it, starts where it comes into play (None: the usual mix of starts)."""


@pytest.mark.parametrize("focus", FOCUS)
@settings(deadline=None, max_examples=25)
@given(data=st.data())
def test_each_rule_dimension_matches_oracle(focus: str, data: st.DataObject) -> None:
    """Each new rule dimension meets the oracle in every default run, whatever else is drawn."""
    fixed, starts = FOCUS[focus]
    for position, state in replay(data.draw(lines(family_rulesets(**fixed), starts=starts))):
        assert_matches_oracle(position, state)


@pytest.mark.slow
@pytest.mark.parametrize("focus", FOCUS)
@settings(deadline=None, max_examples=100)
@given(data=st.data())
def test_each_rule_dimension_matches_oracle_at_length(focus: str, data: st.DataObject) -> None:
    fixed, starts = FOCUS[focus]
    for position, state in replay(
        data.draw(lines(family_rulesets(**fixed), most=16, starts=starts, budget=SLOW_PATHS_BUDGET))
    ):
        assert_matches_oracle(position, state)


def check_outcomes(line: Line) -> None:
    """Play ``line`` on a :class:`draughts.Board`: at every ply the library agrees with the oracle,
    and ``Board.outcome()`` names the oracle's winner and the right reason."""
    board = draughts.Board.from_position(line.start_position())
    pairs = replay(line)
    for index, (position, state) in enumerate(pairs):
        assert board.position == position
        assert_matches_oracle(position, state)
        outcome, winner = board.outcome(), naive.winner(state)
        if winner is None:
            assert outcome is None or outcome.winner is None, f"{outcome} at {describe(position, state)}"
        else:
            crowned = line.rules.crowning_wins and any(king for _, king in state.board.values())
            stuck = state.turn
            reason = (
                Termination.CROWNING
                if crowned
                else Termination.NO_MOVES
                if any(color is stuck for color, _ in state.board.values())
                else Termination.NO_PIECES
            )
            assert outcome is not None, f"no outcome at {describe(position, state)}"
            assert (outcome.winner, outcome.termination) == (winner, reason), describe(position, state)
        if index < len(line.played):
            move = line.played[index]
            board.push(next(m for m in board.legal_moves if m.identity == move.identity))


@pytest.mark.parametrize("rule", ["no_move_wins", "crowning_wins"])
@settings(deadline=None, max_examples=40)
@given(data=st.data())
def test_win_conditions_match_oracle(rule: str, data: st.DataObject) -> None:
    """Short endgames (two to seven pieces) played on until they end: who wins, and why, as the
    oracle says, in random rulesets where a blocked side wins or the first king wins."""
    rules = data.draw(family_rulesets(**{rule: st.just(True)}))
    check_outcomes(data.draw(lines(rules, most=30, starts=endgame_starts)))


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["no_move_wins", "crowning_wins", "usual"])
@settings(deadline=None, max_examples=300)
@given(data=st.data())
def test_many_win_conditions_match_oracle(rule: str, data: st.DataObject) -> None:
    fixed = {"no_move_wins": st.just(False), "crowning_wins": st.just(False)}
    if rule != "usual":
        fixed[rule] = st.just(True)
    rules = data.draw(family_rulesets(**fixed))
    check_outcomes(data.draw(lines(rules, most=40, starts=endgame_starts, budget=SLOW_PATHS_BUDGET)))


_LIMITED = st.one_of(family_named, family_rulesets(king_move_limit=st.integers(1, 3))).filter(
    lambda rules: rules.king_move_limit is not None
)


@settings(deadline=None, max_examples=30)
@given(lines(_LIMITED, most=14), st.booleans())
def test_rule_state_perft_matches_oracle(line: Line, paths: bool) -> None:
    """perft from a position reached with king-move runs, and from its FEN, as the oracle counts
    with the same runs (a king that must stop now changes the first ply already)."""
    position, state = replay(line)[-1]
    want = naive.perft(state, 2, paths=paths)
    assert draughts.perft(position, 2, paths=paths) == want, describe(position, state)
    again = Position.from_fen(position.ruleset, position.fen())
    assert draughts.perft(again, 2, paths=paths) == want, f"after the FEN round trip: {describe(position, state)}"


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(lines(_LIMITED, most=20), st.booleans())
def test_rule_state_deeper_perft_matches_oracle(line: Line, paths: bool) -> None:
    position, state = replay(line)[-1]
    want = naive.perft(state, 3, paths=paths)
    assert draughts.perft(position, 3, paths=paths) == want, describe(position, state)
    again = Position.from_fen(position.ruleset, position.fen())
    assert draughts.perft(again, 3, paths=paths) == want, f"after the FEN round trip: {describe(position, state)}"


@pytest.mark.slow
@settings(deadline=None, max_examples=300)
@given(st.data())
def test_dense_family_positions_match_oracle(data: st.DataObject) -> None:
    rules = data.draw(family_named.filter(lambda rules: not rules.crowning_wins))
    start, turn = data.draw(dense_starts(rules))
    line = Line(rules, start, turn, ())
    assume(affordable(line.start_position(), SLOW_PATHS_BUDGET))
    assert_matches_oracle(line.start_position(), line.start_state())


# Found by the comparison: two kings that can take the same pieces and end on the same square.
# In each, Position.legal_moves lacks moves that divide(paths=True) lists (and the oracle finds).
_TWO_KING_CASES = (
    pytest.param(FRISIAN, "W:WK27,K34:B8,17,18,23,24,29,33,36,37,38,40,43", id="frisian-12-pieces"),
    pytest.param(TURKISH, "W:WK11,K29:BK3,K6,12,13,15,19,23,25,32,35,42,44,45,46,52,55", id="turkish-16-pieces"),
    pytest.param(
        Ruleset(
            name="all-squares-8-directions",
            title="Flying kings capturing in eight directions on every square",
            board_size=8,
            board_squares=draughts.BoardSquares.ALL,
            king_range=KingRange.FLYING,
            kings_move=draughts.Directions.ALL,
            kings_capture=draughts.Directions.ALL,
        ),
        "W:WK13,K30:B14,15,36,41,43,44,45,46,50,K59",
        id="free-choice-6114-paths",
    ),
)


@pytest.mark.parametrize(("rules", "fen"), _TWO_KING_CASES)
def test_two_kings_taking_the_same_pieces(rules: Ruleset, fen: str) -> None:
    position = Position.from_fen(rules, fen)
    assert_matches_oracle(position, naive.from_fen(rules, fen))


@pytest.mark.parametrize("rules", FAMILY, ids=lambda rules: rules.name)
@settings(deadline=None, max_examples=40)
@given(data=st.data())
def test_family_variants_match_oracle(rules: Ruleset, data: st.DataObject) -> None:
    for position, state in replay(data.draw(lines(rules, most=16))):
        assert_matches_oracle(position, state)


@settings(deadline=None, max_examples=60)
@given(lines(any_rulesets, most=6), st.booleans())
def test_perft_matches_oracle(line: Line, paths: bool) -> None:
    position, state = replay(line)[-1]
    assert draughts.perft(position, 2, paths=paths) == naive.perft(state, 2, paths=paths), describe(position, state)


@settings(deadline=None, max_examples=80)
@given(lines(st.one_of(family_named, family_rulesets()).filter(lambda r: r.king_move_limit is not None), most=14))
def test_positions_equal_exactly_when_the_oracle_states_are(line: Line) -> None:
    """Equal board, side to move and king-move runs: equal positions with equal hashes; a different
    run (that can still matter): different positions. The FEN carries the runs."""
    pairs = replay(line)
    for position, _ in pairs:
        assert Position.from_fen(position.ruleset, position.fen()) == position, position.fen()
    for a, sa in pairs:
        for b, sb in pairs:
            if sa == sb:
                assert a == b, f"{a.fen()} != {b.fen()}"
                assert hash(a) == hash(b)
            elif sa.board == sb.board and sa.turn is sb.turn:
                assert a != b, f"{a.fen()} == {b.fen()} although the king-move runs differ: {sa.runs} / {sb.runs}"


@pytest.mark.slow
@settings(deadline=None, max_examples=1500)
@given(lines(family_rulesets(), most=20, budget=SLOW_PATHS_BUDGET))
def test_many_random_rulesets_match_oracle(line: Line) -> None:
    for position, state in replay(line):
        assert_matches_oracle(position, state)


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(lines(any_rulesets, most=8), st.booleans())
def test_deeper_perft_matches_oracle(line: Line, paths: bool) -> None:
    position, state = replay(line)[-1]
    assert draughts.perft(position, 3, paths=paths) == naive.perft(state, 3, paths=paths), describe(position, state)


# --- the named family variants against the ones built here from the rule texts ---

_NOT_RULES_OF_PLAY = {
    "name",
    "title",
    "sources",
    "draw_rules",
    "pdn_gametype",
    "result_notation",
    "numbering",
    "square_names",
    "move_separator",
    "capture_separator",
}


@pytest.mark.parametrize("mine", [rules for rules in FAMILY if rules.name != "thai-12"], ids=lambda rules: rules.name)
def test_named_family_variants_play_as_built_here(mine: Ruleset) -> None:
    """The library's named family variants and tests/family.py's (built independently from
    the rule texts, choosing where sources conflict what the published counts need) agree on every rule
    of play."""
    named = draughts.get_variant(mine.name)
    differ = {
        field.name: (getattr(mine, field.name), getattr(named, field.name))
        for field in attrs.fields(Ruleset)
        if field.name not in _NOT_RULES_OF_PLAY and getattr(mine, field.name) != getattr(named, field.name)
    }
    assert not differ


# --- published counts through the library ---

_LIBRARY_LEAVES = 200_000


def _published() -> list[object]:
    out = []
    for label, rules, fen, convention, counts in published_series():
        mode = convention.split()[0]
        # kish counts every landing square; it equals both library conventions through depth 6.
        usable = {d: c for d, c in counts.items() if c <= _LIBRARY_LEAVES and (mode != "landings" or d <= 6)}
        if usable and label in PUBLISHED_RULES:  # the seven variants' counts are the perft tests' business
            out.append(pytest.param(rules, fen, mode == "paths", usable, id=f"{label}-{fen[:10]}-{convention}"))
    return out


@pytest.mark.parametrize(("rules", "fen", "paths", "counts"), _published())
def test_library_reproduces_published_family_perft(
    rules: Ruleset, fen: str, paths: bool, counts: dict[int, int]
) -> None:
    start = Position.initial(rules) if fen.startswith("start") else Position.from_fen(rules, fen.split(" (")[0])
    assert {depth: draughts.perft(start, depth, paths=paths) for depth in counts} == counts


# --- the hand-worked cases through the library ---


def play_case(case: Case) -> tuple[Position, naive.State]:
    position = Position.from_fen(case.rules, case.fen)
    state = naive.from_fen(case.rules, case.fen)
    for text in case.played:
        path, captured = parse_move(case.rules, text)
        (move,) = [
            m for m, _ in draughts.divide(position, 1, paths=True) if m.path == path and set(m.captured) == captured
        ]
        (oracle_move,) = [m for m in naive.moves(state, paths=True) if m.path == path]
        position, state = position.play(move), naive.play(state, oracle_move)
    return position, state


def check_case(name: str) -> None:
    (case,) = [case for case in CASES if case.name == name]
    position, state = play_case(case)
    got = sorted((m.path, frozenset(m.captured)) for m, _ in draughts.divide(position, 1, paths=True))
    assert got == expected(case), case.why
    assert position.winner() == case.winner
    assert_matches_oracle(position, state)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_hand_worked_cases(case: Case) -> None:
    check_case(case.name)


def test_180_degree_turn_forbidden() -> None:
    check_case("180-degree turn forbidden")


def test_180_degree_turn_allowed() -> None:
    check_case("180-degree turn allowed")


def test_landing_directly_behind() -> None:
    check_case("Thai: the king lands directly behind the piece")
    check_case("Thai: straight on, each time directly behind")


def test_landing_behind_the_last_king() -> None:
    check_case("Killer: after a king taken last, the capture ends directly behind it")
    check_case("Killer: only the final landing is restricted")
    check_case("Killer: a final king ends the capture right behind it")


def test_frisian_value_then_king() -> None:
    check_case("Frisian: two kings (398) outweigh three men (300)")
    check_case("Frisian: value before the king capturer (a king, 199, beats a man, 100)")
    check_case("Frisian: at equal value the king captures")
    check_case("Frisian: two men (200) outweigh one king (199)")


def test_fourth_quiet_king_move_is_illegal() -> None:
    check_case("Frisian: the fourth quiet move in a row with the same king is illegal")
    check_case("Frisian: the king stopped by the limit may still capture")
    check_case("Frisian: a man move lifts the ban")


def test_positions_differing_only_in_king_runs() -> None:
    start = Position.from_fen(FRISIAN, "W:WKd2,a3:BKi9")

    def after(*moves: str) -> Position:
        position = start
        for text in moves:
            path, _ = parse_move(FRISIAN, text)
            position = position.play(next(m for m in position.legal_moves if m.path == path))
        return position

    back = after("d2-e3", "i9-j10", "e3-d2", "j10-i9")
    assert back.pieces() == start.pieces()
    assert back.turn is start.turn
    assert back.king_moves(WHITE) == (FRISIAN.parse_square("d2"), 2)
    assert back != start
    one = after("d2-e3", "i9-j10", "e3-f4", "j10-i9")
    other = after("d2-g5", "i9-j10", "g5-f4", "j10-i9")
    assert one == other
    assert hash(one) == hash(other)
    assert Position.from_fen(FRISIAN, back.fen()) == back


def _board_winner(name: str) -> draughts.Color | None:
    (case,) = [case for case in CASES if case.name == name]
    board = draughts.Board.from_position(play_case(case)[0])
    outcome = board.outcome()
    return None if outcome is None else outcome.winner


def test_no_move_wins() -> None:
    check_case("Antidraughts: a blocked side wins")
    check_case("International: a blocked side loses")
    assert _board_winner("Antidraughts: a blocked side wins") is WHITE
    assert _board_winner("International: a blocked side loses") is BLACK


def test_crowning_wins() -> None:
    check_case("Breakthrough: crowning ends the game")
    check_case("Breakthrough: the man one step short has not won yet")
    assert _board_winner("Breakthrough: crowning ends the game") is WHITE
    assert _board_winner("Breakthrough: the man one step short has not won yet") is None
