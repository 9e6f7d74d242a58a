"""The draw rules, applied natively (``native/core/src/drawrules.rs``), against a naive reading of
the ruleset kept here in Python: every ply of random endgames (pushes and pops mixed) gives the
outcome and the claims that reading gives; and the native objects themselves (the position hash,
the counter, their errors)."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, Color, Piece, Position, _native, drawrules
from draughts.board import Termination
from draughts.errors import DraughtsError, InvalidPositionError, InvalidRulesetError
from draughts.rules import DrawRules, EndgameRule, MoveCountRule, Ruleset

# --- the naive reading ---


def _naive_weak(rule: EndgameRule, position: Position) -> list[Color] | None:
    """The colours the rule can take as the weaker side ([]: no match; None: the material as a whole)."""
    white, black = position.material(WHITE), position.material(BLACK)
    if rule.total_pieces and sum(white) + sum(black) not in rule.total_pieces:
        return []
    if rule.both_have_kings and not (white[0] and black[0]):
        return []
    if not (rule.strong or rule.weak or rule.strong_min_kings):
        return None
    return [
        weak_color
        for strong, weak, weak_color in ((white, black, BLACK), (black, white, WHITE))
        if (not rule.strong or strong in rule.strong)
        and strong[0] >= rule.strong_min_kings
        and (not rule.weak or weak in rule.weak)
    ]


def _on_long_diagonal(position: Position, color: Color) -> bool:
    kings = position.squares(color, kings=True)
    if len(kings) != 1:
        return False
    geometry = position.ruleset.geometry
    x, y = geometry.coords[kings[0]]
    return x == y if geometry.bottom_left_playable else x + y == geometry.size - 1


def _naive_shot(position: Position) -> bool:
    moves = position.legal_moves()
    return any(m.captured for m in moves) or (
        bool(moves) and all(any(r.captured for r in position.play(m).legal_moves()) for m in moves)
    )


def _naive_applies(rule: EndgameRule, position: Position) -> bool:
    weak = _naive_weak(rule, position)
    if weak == [] or (rule.no_shot and _naive_shot(position)):
        return False
    if weak is None or not rule.weak_king_on_main_diagonal:
        return True
    return any(_on_long_diagonal(position, color) for color in weak)


def _naive_draw(board: Board, *, claims: bool) -> tuple[Termination, str] | None:
    """The draw rule a reading of the whole game from its start gives (counts start at 0)."""
    draws = board.ruleset.draw_rules
    positions, moves = board.positions(), board.move_stack
    counts, since = [0] * len(draws.move_counts), 0
    for before, move in zip(positions, moves, strict=False):
        man = not before.is_king_at(move.start)
        captured, crowned = bool(move.captured), move.promotes
        since = 0 if captured or crowned else since + 1
        for index, rule in enumerate(draws.move_counts):
            reset = (
                (rule.reset_by_man_move and man)
                or (rule.reset_by_capture and captured)
                or (rule.reset_by_promotion and crowned)
            )
            counts[index] = 0 if reset else counts[index] + 1
    assert board.counters.move_counts == tuple(counts)
    assert board.counters.since_material_change == since
    current = positions[-1]
    repeated = positions[len(positions) - 1 :: -2].count(current)
    assert board.repetitions() == repeated
    if draws.repetitions and draws.repetition_claim == claims and repeated >= draws.repetitions:
        return Termination.REPETITION, f"the same position {draws.repetitions} times"
    if not claims:
        for endgame in draws.endgames:
            if since >= 2 * endgame.moves and _naive_applies(endgame, current):
                return Termination.ENDGAME, endgame.article or endgame.describe()
    for rule, plies in zip(draws.move_counts, counts, strict=True):
        if rule.claim == claims and plies >= 2 * rule.moves:
            return Termination.MOVE_COUNT, rule.article or rule.describe()
    return None


# --- random endgames ---


def _custom() -> Ruleset:
    """International with draw rules of every kind the fields allow, all short."""
    base = draughts.get_variant("international")
    return attrs.evolve(
        base,
        name="every-draw-rule",
        draw_rules=DrawRules(
            repetitions=2,
            repetition_claim=True,
            move_counts=(
                MoveCountRule(4, reset_by_man_move=True, reset_by_capture=False),
                MoveCountRule(6, reset_by_man_move=False, reset_by_capture=True, reset_by_promotion=True, claim=True),
            ),
            endgames=(
                EndgameRule(2, both_have_kings=True, total_pieces=(3, 4)),
                EndgameRule(1, strong_min_kings=2, weak=((1, 0), (1, 1)), weak_king_on_main_diagonal=True),
                EndgameRule(0, strong=((1, 0),), weak=((1, 0),), no_shot=True),
            ),
        ),
    )


def _random_endgame(rules: Ruleset, rng: random.Random) -> Position:
    """A few kings and men each, men off the back rows."""
    geometry = rules.geometry
    squares = list(range(1, geometry.squares + 1))
    middle = [s for s in squares if 0 < geometry.coords[s][1] < geometry.size - 1]
    pieces: dict[int, Piece] = {}
    for color in (WHITE, BLACK):
        for _ in range(rng.randint(1, 3)):
            pieces[rng.choice(squares)] = Piece(color, king=True)
        for _ in range(rng.randint(0, 2)):
            pieces[rng.choice(middle)] = Piece(color)
    return Position.from_pieces(rules, pieces, rng.choice((WHITE, BLACK)))


VARIANTS = ["russian", "international", "frisian", "turkish", "pool", "canadian", "american", "italian"]


@pytest.mark.parametrize("variant", [*VARIANTS, "custom"])
def test_outcomes_and_claims_follow_a_naive_reading_of_the_rules(variant: str) -> None:
    rules = _custom() if variant == "custom" else draughts.get_variant(variant)
    rng = random.Random(f"draws-{variant}")
    seen: set[Termination] = set()
    for _ in range(12):
        board = Board.from_position(_random_endgame(rules, rng))
        for _ in range(60):
            if board.move_stack and rng.random() < 0.15:
                board.pop()
            else:
                outcome = board.outcome()
                if outcome is not None and outcome.winner is not None:
                    break
                moves = list(board.legal_moves)
                stack = board.move_stack
                back = [m for m in moves if len(stack) > 1 and (m.start, m.end) == (stack[-2].end, stack[-2].start)]
                board.push(rng.choice(back if back and rng.random() < 0.6 else moves))
            if board.position.winner() is not None:
                continue
            outcome = board.outcome()
            expected = _naive_draw(board, claims=False)
            assert ((outcome.termination, outcome.rule) if outcome else None) == expected, board.fen()
            claim = _naive_draw(board, claims=True)
            assert board.can_claim_draw() is (claim is not None)
            if claim is not None:
                assert (board.claim_draw().termination, board.claim_draw().rule) == claim
            seen |= {found[0] for found in (expected, claim) if found}
    if variant in ("russian", "international", "custom"):
        assert {Termination.ENDGAME, Termination.REPETITION} <= seen, seen
    if variant == "custom":
        assert Termination.MOVE_COUNT in seen


# --- the native objects ---


def _game(variant: str, plies: int, seed: int) -> Board:
    board = Board(variant)
    rng = random.Random(seed)
    while len(board.move_stack) < plies and board.legal_moves.count():
        board.push(rng.choice(list(board.legal_moves)))
    return board


def test_the_hash_tells_positions_apart_and_equal_positions_hash_alike() -> None:
    positions = [p for seed in range(6) for p in _game("frisian", 120, seed).positions()]
    rules = drawrules.compiled(positions[0])
    by_hash: dict[int, Position] = {}
    for position in positions:
        found = by_hash.setdefault(rules.hash(position.node), position)
        assert found == position
    assert len(by_hash) == len(set(positions))
    start = Position.initial("frisian")
    assert rules.hash(start.node) != rules.hash(Position.from_bitboards(start.ruleset, *start.bitboards, BLACK).node)


def test_the_counter_follows_pushes_and_pops() -> None:
    board = _game("russian", 80, 3)
    counter = drawrules.compiled(board.root()).counter(board.root().node, [0], 0)
    seen = [(counter.move_counts, counter.since_material_change, counter.hash)]
    replay = Board("russian")
    for move in board.move_stack:
        replay.push(move)
        counter.push(replay.position.node, 0)
    assert drawrules.compiled(board.root()).hash(replay.position.node) == counter.hash
    assert len(counter) == len(board.move_stack) + 1
    for _ in board.move_stack:
        counter.pop()
    assert (counter.move_counts, counter.since_material_change, counter.hash) == seen[0]
    with pytest.raises(IndexError):
        counter.pop()
    assert len(counter) == 1


def _reverse(move: draughts.Move) -> draughts.Move:
    return draughts.Move(start=move.end, end=move.start)


def test_a_boards_copies_and_pickles_keep_its_draw_counts() -> None:
    board = Board("russian", "W:WK1,K3:BK29,K32")
    a = next(m for m in board.legal_moves if not m.captured)
    board.push(a)
    b = next(m for m in board.legal_moves if not m.captured)
    board.pop()
    for move in [a, b, _reverse(a), _reverse(b)] * 2:
        board.push(next(m for m in board.legal_moves if (m.start, m.end) == (move.start, move.end)))
    assert len(board.move_stack) == 8
    assert board.repetitions() == 3
    assert board.outcome() is not None
    for clone in (board.copy(), pickle.loads(pickle.dumps(board))):
        assert clone == board
        assert (clone.repetitions(), clone.counters, clone.outcome()) == (3, board.counters, board.outcome())
        clone.pop()
        assert clone.repetitions() == 2
        assert board.repetitions() == 3
    fresh = board.copy(stack=False)
    assert fresh.counters == board.counters
    assert fresh.repetitions() == 1


def test_a_rule_outside_the_ruleset_is_applied_to_the_position() -> None:
    position = Position.from_fen("russian", "W:WK1,K3:BK29")
    rule = EndgameRule(0, strong=((2, 0),), weak=((1, 0),))
    assert rule not in position.ruleset.draw_rules.endgames
    assert drawrules.applies(rule, position)
    assert drawrules.material_applies(rule, (2, 0), (1, 0))
    assert not drawrules.material_applies(rule, (2, 1), (1, 0))
    diagonal = EndgameRule(0, strong=((2, 0),), weak=((1, 0),), weak_king_on_main_diagonal=True)
    assert drawrules.depends_on_placement(diagonal)
    assert drawrules.applies(diagonal, Position.from_fen("russian", "W:WK1,K3:BK29")) is _on_long_diagonal(
        Position.from_fen("russian", "W:WK1,K3:BK29"), BLACK
    )


def test_a_failing_shot_test_comes_out_as_raised() -> None:
    position = Position.from_fen("frisian", "W:WK46:BK5")
    rules = drawrules.compiled(position)
    index = [rule.no_shot for rule in position.ruleset.draw_rules.endgames].index(True)

    def shot() -> bool:
        raise ZeroDivisionError("shot")

    with pytest.raises(ZeroDivisionError, match="shot"):
        rules.applies(index, position.node, shot)
    counter = rules.counter(position.node, [], 0)
    with pytest.raises(ZeroDivisionError, match="shot"):
        counter.draw(False, shot)
    assert counter.draw(False, lambda: False) == ("endgame", index)
    assert counter.draw(False, lambda: True) is None


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"bits": 1000}, InvalidRulesetError),
        ({"repetitions": 1}, InvalidRulesetError),
        ({"move_counts": [("x", 1, False)]}, InvalidRulesetError),
        ({"endgames": [{"moves": 1}]}, InvalidRulesetError),
        ({"endgames": 5}, InvalidRulesetError),
    ],
)
def test_bad_specs_are_ruleset_errors(change: dict[str, object], error: type[DraughtsError]) -> None:
    spec = {
        "repetitions": 3,
        "repetition_claim": False,
        "move_counts": [],
        "endgames": [],
        "bits": 50,
        "main_diagonal": 0,
    }
    with pytest.raises(error):
        _native.DrawRules({**spec, **change})


def test_bad_nodes_are_position_errors_and_change_nothing() -> None:
    start = Position.initial("international")
    counter = drawrules.compiled(start).counter(start.node, [0], 0)
    own, opp, kings, color, state = start.node
    for node in [(own, opp, kings), (-1, opp, kings, color, state), (1 << 64, opp, kings, color, state)]:
        with pytest.raises(InvalidPositionError):
            counter.push(node, 0)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError):
        counter.push((own, opp, kings, 2, state), 0)
    with pytest.raises(TypeError):
        counter.push(("a", opp, kings, color, state), 0)  # type: ignore[arg-type]
    with pytest.raises(DraughtsError):
        drawrules.compiled(start).counter(start.node, [0, 0], 0)
    assert len(counter) == 1
    assert counter.move_counts == (0,)
