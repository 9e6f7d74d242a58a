"""The engine: tactics in every variant, limits, determinism, legality on random positions, evaluation."""

from __future__ import annotations

import threading
import time
import types
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
from draughts import BLACK, WHITE, Board, Position
from draughts._core.native import native_rules
from draughts.engine import (
    LEVELS,
    MATE,
    Engine,
    Limit,
    SearchResult,
    Weights,
    evaluate,
    get_level,
    king_value,
    line_text,
)
from draughts.engine.search import Searcher, searcher
from draughts.engine.weights import MATERIAL_ONLY, _evaluation
from draughts.notation import move_text, parse_move
from interrupt import assert_stops_on_ctrl_c
from strategies import HOUSE_RULES, NAMED, positions, rulesets

_INTERNATIONAL = draughts.get_variant("international")
LOSING = attrs.evolve(_INTERNATIONAL, name="losing", no_move_wins=True)
"""Losing draughts: a player with no legal move wins."""
BREAKTHROUGH = attrs.evolve(_INTERNATIONAL, name="breakthrough", crowning_wins=True)
"""Breakthrough: the first crowning wins."""
FRISIAN_LIKE = attrs.evolve(
    _INTERNATIONAL,
    name="frisian-like",
    men_capture=draughts.Directions.ALL,
    kings_capture=draughts.Directions.ALL,
    king_move_limit=3,
)
"""Orthogonal captures and a king-move limit (rule state in the position)."""
NEW_DIMENSIONS = (
    LOSING,
    BREAKTHROUGH,
    FRISIAN_LIKE,
    attrs.evolve(
        draughts.get_variant("russian"),
        name="turkish-like",
        board_squares=draughts.BoardSquares.ALL,
        men_move=draughts.Directions.ORTHOGONAL_FORWARD | draughts.Directions.ORTHOGONAL_SIDEWAYS,
        men_capture=draughts.Directions.ORTHOGONAL_FORWARD | draughts.Directions.ORTHOGONAL_SIDEWAYS,
        kings_move=draughts.Directions.ORTHOGONAL,
        kings_capture=draughts.Directions.ALL,
        men_start_row=2,
        rows_per_side=2,
    ),
    attrs.evolve(_INTERNATIONAL, name="thai-like", king_landing=draughts.KingLanding.DIRECTLY_BEHIND),
    attrs.evolve(_INTERNATIONAL, name="killer-like", king_landing=draughts.KingLanding.BEHIND_LAST_KING),
)
"""Rulesets with the rule dimensions beyond the federation variants."""
every_ruleset = st.one_of(rulesets, st.sampled_from(NEW_DIMENSIONS))


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """A random position of any ruleset, the new dimensions included (where crowning wins, only
    one side may have kings)."""
    rules = draw(every_ruleset)
    if not rules.crowning_wins:
        return draw(positions(rules))
    base = draw(positions(attrs.evolve(rules, crowning_wins=False)))
    pieces = {square: piece for square, piece in base.pieces().items() if not (piece.king and piece.color is BLACK)}
    return Position.from_pieces(rules, pieces, base.turn)


EIGHT = (*NAMED, draughts.no_forced_capture(draughts.get_variant("american")))
"""The seven federation variants and the no-forced-capture house rule (American)."""


def _searcher(rules: draughts.Ruleset, weights: Weights) -> Searcher:
    """The search's (native) recursion for ``rules``, on its own (no limits, a fresh table)."""
    native = searcher(rules, 1000)
    native.begin([], 1_000_000, True, _evaluation(rules, weights), None, None)
    return native


# --- an independent oracle: plain minimax over the public API, material only ---------------------


def _material(position: Position, color: draughts.Color) -> int:
    score = 0
    for piece in position.pieces().values():
        value = 3 if piece.king else 1
        score += value if piece.color is color else -value
    return score


def _minimax(position: Position, depth: int, color: draughts.Color) -> int:
    """Material for ``color`` after ``depth`` plies, captures followed to the end; a win is 1000."""
    moves = position.legal_moves()
    if not moves:
        return -1000 if position.turn is color else 1000
    if depth <= 0 and not moves[0].captured:
        return _material(position, color)
    scores = [_minimax(position.play(move), depth - 1, color) for move in moves]
    return max(scores) if position.turn is color else min(scores)


# Shots and combinations: one move (a sacrifice the opponent must take) wins material or the game
# within three plies; every other move wins nothing. Found by a random search with the oracle and
# checked by it again below.
TACTICS = [
    ("russian", "W:Wd4,h4,c3,b2:Bf6,h6", "d4-e5", "game"),
    ("brazilian", "W:Wd4,h4,c3,b2:Bf6,h6", "d4-e5", "game"),
    ("czech", "W:Wd4,h4,c3,b2:Bf6,h6", "d4-e5", "game"),
    ("american", "W:W18,20,22,25:B11,12", "18-15", "game"),
    ("russian", "W:Wa7,b6,f6,b4,g3:Bd8,c7,h4,d2,h2", "b4-a5", "material"),
    ("brazilian", "W:Wb6,c5,f4,b2,h2:Be7,g7,a3,e3,d2,f2", "b6-c7", "material"),
    ("international", "W:W23,28,29,31,45,48:B9,11,13,25,30", "29-24", "material"),
    ("international", "W:W25,39,40,48,49:B6,24,29,30,34", "40-35", "material"),
    ("italian", "W:W12,20,22,29,30:B4,6,13,18,21", "29-26", "material"),
    ("italian", "W:W13,16,17,26,30:B1,11,18,19,20", "26-22", "material"),
    ("italian", "W:W20,23,25,32:B14,19", "25-21", "game"),
    ("spanish", "W:W2,7,13,14:B11,20,21,26,27", "2-5", "material"),
]


@pytest.mark.parametrize(("variant", "fen", "expected", "kind"), TACTICS)
def test_finds_the_winning_shot(variant: str, fen: str, expected: str, kind: str) -> None:
    position = Position.from_fen(variant, fen)
    winning = parse_move(position, expected)
    assert not position.has_capture()
    oracle = {move: _minimax(position.play(move), 3, WHITE) for move in position.legal_moves()}
    now = _material(position, WHITE)
    assert oracle[winning] >= now + 2
    assert all(score <= now for move, score in oracle.items() if move != winning)
    assert position.play(winning).has_capture()  # a sacrifice: the opponent must take

    for depth in (3, 4, 5):
        result = Engine(seed=0).search(position, Limit(depth=depth))
        assert result.move == winning, (depth, move_text(position, result.move)) if result.move else depth
        assert result.pv[0] == winning
        if kind == "game":
            assert result.mate_in is not None
            assert result.mate_in > 0
            board = Board.from_position(position)
            for move in result.pv:
                board.push(move)
            assert board.outcome() is not None
            assert board.outcome().winner is WHITE  # type: ignore[union-attr]
        else:
            assert result.value >= 50  # half a man or more (a man for a king counts less than a man)


def test_avoids_losing_a_man_to_a_shot() -> None:
    # The mirror of a shot: Black to move must not allow it.
    position = Position.from_fen("international", "W:W23,28,29,31,45,48:B9,11,13,25,30").mirror()
    result = Engine().search(position, Limit(depth=4))
    assert result.move is not None
    assert move_text(position, result.move) == "22-27"  # 29-24 turned 180 degrees


# --- limits -------------------------------------------------------------------------------------


def test_depth_limit() -> None:
    position = Position.initial("international")
    for depth in (1, 2, 3, 4):
        result = Engine().search(position, Limit(depth=depth))
        assert result.depth == depth
        assert result.move in position.legal_moves()
        assert result.pv[0] == result.move
    shallow = Engine().search(position, Limit(depth=2)).nodes
    deep = Engine().search(position, Limit(depth=5)).nodes
    assert deep > shallow


@pytest.mark.parametrize("nodes", [1, 10, 100, 1000, 5000])
def test_node_limit(nodes: int) -> None:
    position = Position.initial("russian")
    result = Engine().search(position, Limit(nodes=nodes))
    assert result.nodes <= nodes
    assert result.move in position.legal_moves()
    if nodes >= 1000:
        assert result.depth >= 2


def test_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine's clock reads this process's CPU time, so that other processes taking the cores
    # (a loaded machine) neither end the search early nor make it look slow.
    import draughts.engine.root as engine_module

    monkeypatch.setattr(engine_module, "time", types.SimpleNamespace(perf_counter=time.process_time))
    position = Position.initial("international")
    started = time.process_time()
    result = Engine().search(position, Limit(time=0.3))
    elapsed = time.process_time() - started
    assert elapsed < 1.5
    assert result.move in position.legal_moves()
    assert result.depth >= 1


def test_stop_from_another_thread() -> None:
    engine = Engine()
    position = Position.initial("international")
    results: list[SearchResult] = []
    thread = threading.Thread(target=lambda: results.append(engine.search(position, Limit())))
    thread.start()
    time.sleep(0.3)
    engine.stop()
    thread.join(10)
    assert not thread.is_alive()
    assert results[0].move in position.legal_moves()


def test_limits_are_validated() -> None:
    for bad in ({"depth": 0}, {"nodes": -1}, {"time": 0}, {"depth": 2.5}, {"depth": True}):
        with pytest.raises(draughts.DraughtsError):
            Limit(**bad)  # type: ignore[arg-type]
    with pytest.raises(draughts.DraughtsError):
        Engine(margin=-1)


# --- determinism and randomness -----------------------------------------------------------------


def test_same_seed_same_result() -> None:
    for variant in ("russian", "international", "italian"):
        board = Board(variant)
        for seed in (0, 5):
            first = Engine(seed=seed, margin=30).search(board, Limit(depth=3))
            again = Engine(seed=seed, margin=30).search(board, Limit(depth=3))
            assert first == again


def test_randomness_only_among_near_equal_moves() -> None:
    position = Position.initial("russian")
    exact = {Engine(seed=seed).search(position, Limit(depth=2)).move for seed in range(12)}
    varied = {Engine(seed=seed, margin=1000).search(position, Limit(depth=2)).move for seed in range(12)}
    assert len(varied) > len(exact)
    assert len(varied) >= 3
    # In a shot position no margin short of a man lets another move through.
    shot = Position.from_fen("international", "W:W23,28,29,31,45,48:B9,11,13,25,30")
    assert {Engine(seed=seed, margin=30).search(shot, Limit(depth=3)).move for seed in range(6)} == {
        parse_move(shot, "29-24")
    }


def test_games_are_reproducible() -> None:
    def game(seed: int) -> list[draughts.Move]:
        board = Board("italian")
        engines = {WHITE: LEVELS["beginner"].engine(seed), BLACK: LEVELS["intermediate"].engine(seed + 1)}
        while board.outcome() is None and len(board) < 30:
            result = engines[board.turn].search(board)
            assert result.move is not None
            board.push(result.move)
        return board.move_stack

    assert game(3) == game(3)


# --- never an illegal move ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_always_a_legal_move_in_all_eight_variants(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(EIGHT))
    position = data.draw(positions(rules))
    depth = data.draw(st.integers(1, 3))
    result = Engine(seed=data.draw(st.integers(0, 3))).search(position, Limit(depth=depth, nodes=2000))
    legal = position.legal_moves()
    if not legal:
        assert result.move is None
        assert result.value == -MATE
        return
    assert result.move in legal
    assert result.move.path == legal[legal.index(result.move)].path
    current = position
    for move in result.pv:  # the whole line is legal
        assert current.is_legal(move)
        current = current.play(move)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_positions())
def test_legal_move_under_user_defined_rules(position: Position) -> None:
    result = Engine().search(position, Limit(depth=2, nodes=1000))
    legal = position.legal_moves()
    assert (result.move is None) == (not legal)
    assert result.move is None or result.move in legal


@settings(max_examples=150, deadline=None)
@given(any_positions())
def test_search_generator_matches_legal_moves(position: Position) -> None:
    """The moves the search plays (the native generator's) are the legal moves, each leading to the
    position ``play`` gives."""
    native = _searcher(position.ruleset, MATERIAL_ONLY)
    node = position.node
    moves, compacts = position.moves_with_masks()
    found = native_rules(position.ruleset).moves(*node)
    assert sorted(found) == sorted(compacts)
    for move_key in found:
        assert native.child(node, move_key) == position.play(moves[compacts.index(move_key)]).node


def test_no_test_scaffolding_in_the_engine() -> None:
    """What only tests read is gone from the engine: the children adapter, a second terminal
    score beside the search's, and a root re-check of the generator that raised RuntimeError."""
    import ast
    import inspect

    import draughts.engine

    for name in ("_Child", "_generator", "_terminal_score", "_Search"):
        assert not hasattr(draughts.engine, name), name
    tree = ast.parse(inspect.getsource(draughts.engine))
    raised = [node.exc for node in ast.walk(tree) if isinstance(node, ast.Raise) and node.exc is not None]
    assert not [exc for exc in raised if "RuntimeError" in ast.unparse(exc)]


# --- the end of the game ------------------------------------------------------------------------


def test_finished_games_are_handled() -> None:
    blocked = Position.from_fen("russian", "W:W:Bd4")  # White has no pieces
    result = Engine().search(blocked)
    assert result == SearchResult(None, -MATE, (), 0, 0)
    assert result.mate_in == 0

    board = Board("russian", "W:Wc3:Bd4")
    board.push_text("c3:e5")
    assert board.outcome() is not None
    assert Engine().search(board) == SearchResult(None, -MATE, (), 0, 0)

    drawn = Board("russian", "W:WKa1:BKh2")
    for _ in range(2):
        for text in ("a1-b2", "h2-g1", "b2-a1", "g1-h2"):
            drawn.push_text(text)
    outcome = drawn.outcome()
    assert outcome is not None
    assert outcome.winner is None
    assert Engine().search(drawn) == SearchResult(None, 0, (), 0, 0)


def test_single_move_and_forced_wins() -> None:
    position = Position.from_fen("russian", "W:Wc3:Bd4")
    result = Engine().search(position, Limit(depth=5))
    assert move_text(position, result.move) == "c3:e5"  # type: ignore[arg-type]
    assert result.mate_in == 1
    assert result.value == MATE - 1


def test_repetition_counts_as_a_draw() -> None:
    # Two kings each: nobody can win, and the board's history makes the next repetition a draw.
    board = Board("international", "W:WK46,K50:BK1,K5")
    result = Engine().search(board, Limit(depth=4))
    assert result.move is not None
    assert abs(result.value) < 100


# --- evaluation ---------------------------------------------------------------------------------


def test_king_value_follows_the_rules() -> None:
    values = {name: king_value(rules) for name, rules in draughts.VARIANTS.items()}
    assert values["american"] == 250
    assert values["italian"] == 280  # short kings that men cannot capture
    assert values["russian"] == values["brazilian"] == 370
    assert values["international"] == 400
    assert all(values[name] > values["american"] for name in ("russian", "international", "spanish", "czech"))
    big = attrs.evolve(draughts.get_variant("international"), name="canadianish", board_size=12, rows_per_side=5)
    assert king_value(big) > values["international"]


@settings(max_examples=150, deadline=None)
@given(any_positions())
def test_evaluation_is_colour_symmetric(position: Position) -> None:
    assert evaluate(position) == evaluate(position.mirror())


def test_evaluation_terms() -> None:
    start = Position.initial("russian")
    assert evaluate(start) == 0
    assert evaluate(Position.from_fen("russian", "W:Wc3:B")) > 0
    assert evaluate(Position.from_fen("russian", "B:Wc3:B")) < 0
    # a man further up the board is worth more than one at home (advancement)
    assert evaluate(Position.from_fen("russian", "W:Wc5:Bh8")) > evaluate(Position.from_fen("russian", "W:Wc3:Bh8"))
    flying = evaluate(Position.from_fen("russian", "W:WKa1:Bh8"))
    short = evaluate(Position.from_fen("american", "W:WK29:B4"))
    assert flying > short
    assert evaluate(Position.from_fen("russian", "W:WKa1:Bh8"), MATERIAL_ONLY) == 370 - 100


def test_custom_evaluation() -> None:
    calls: list[Position] = []

    def constant(position: Position) -> int:
        calls.append(position)
        return 7

    position = Position.initial("international")
    result = Engine(evaluate=constant).search(position, Limit(depth=1))
    assert calls
    assert all(isinstance(p, Position) for p in calls)
    assert result.value == -7  # every reply position scores 7 for the side to move there

    # an evaluation that loves the left of the board: the engine follows it
    def left(position: Position) -> int:
        geometry = position.ruleset.geometry
        mine = position.squares(position.turn)
        theirs = position.squares(position.turn.opponent)
        return sum(9 - geometry.coords[s][0] for s in mine) - sum(9 - geometry.coords[s][0] for s in theirs)

    geometry = position.ruleset.geometry
    for seed in range(5):
        chosen = Engine(evaluate=left, seed=seed).search(position, Limit(depth=1)).move
        assert chosen is not None
        assert geometry.coords[chosen.end][0] < geometry.coords[chosen.start][0]


# --- levels -------------------------------------------------------------------------------------


def test_levels() -> None:
    assert list(LEVELS) == ["beginner", "intermediate", "strong"]
    assert get_level(" Strong ") is LEVELS["strong"]
    with pytest.raises(draughts.DraughtsError, match="beginner, intermediate, strong"):
        get_level("grandmaster")
    engine = LEVELS["beginner"].engine(seed=4)
    assert engine.limit == LEVELS["beginner"].limit
    board = Board("spanish")
    result = engine.search(board)
    assert result.move in board.legal_moves
    assert line_text(board.position, result.pv).split()[0] == board.move_text(result.move)  # type: ignore[arg-type]


def test_strong_beats_beginner_in_a_short_match() -> None:
    # The full match (tools/level_match.py) is in the docs; this is a quick sanity check.
    score = 0.0
    for seed, strong_color in ((1, WHITE), (1, BLACK)):
        board = Board("american")
        engines = {
            strong_color: LEVELS["intermediate"].engine(seed),
            strong_color.opponent: LEVELS["beginner"].engine(seed),
        }
        while board.outcome() is None and len(board) < 150 and not board.can_claim_draw():
            result = engines[board.turn].search(board)
            assert result.move is not None
            board.push(result.move)
        outcome = board.outcome()
        if outcome is not None and outcome.winner is strong_color:
            score += 1
        elif outcome is None or outcome.winner is None:
            score += 0.5
    assert score >= 1.5


def test_optional_captures_are_optional_to_the_engine() -> None:
    # With capture optional, declining the captures wins the game; under the federation rule
    # White must capture and cannot win.
    fen = "W:W28,30,31:B15,25,26"
    house = Position.from_fen(HOUSE_RULES[list(draughts.VARIANTS).index("american")], fen)
    assert house.has_capture()
    result = Engine().search(house, Limit(depth=6))
    assert result.move is not None
    assert move_text(house, result.move) == "28-24"
    assert result.mate_in is not None
    assert result.mate_in > 0
    forced = Position.from_fen("american", fen)
    answer = Engine().search(forced, Limit(depth=6))
    assert answer.move is not None
    assert answer.move.captured
    assert answer.mate_in is None


def test_transposition_table_is_kept_per_ruleset() -> None:
    # The same bitboards under Russian (free choice of capture) and Brazilian (majority) rules: a
    # table filled under one ruleset must not answer for the other.
    fen = "W:Wg7,h4,e3,f2,a1,c1,e1,g1:Bb8,d8,f8,a7,c7,h6,b4"  # found by a search: 374 against 366
    russian = draughts.Position.from_fen("russian", fen)
    brazilian = draughts.Position.from_fen("brazilian", fen)
    shared = Engine(seed=1)
    shared.search(russian, Limit(depth=5))
    reused = shared.search(brazilian, Limit(depth=5))
    fresh = Engine(seed=1).search(brazilian, Limit(depth=5))
    assert (reused.score, reused.move, reused.pv) == (fresh.score, fresh.move, fresh.pv)


@pytest.mark.parametrize("value", [float("nan"), float("-inf"), 0.0, -1.0])
def test_time_limits_must_be_positive_numbers(value: float) -> None:
    with pytest.raises(draughts.DraughtsError, match="time"):
        Limit(time=value)


# --- the rule dimensions beyond the federation variants -----------------------------------------


def _forced_win(position: Position, plies: int, color: draughts.Color) -> bool:
    """Whether ``color`` wins by force within ``plies`` plies (the rules of play only), by plain minimax."""
    winner = position.winner()
    if winner is not None:
        return winner is color
    if plies == 0:
        return False
    results = (_forced_win(position.play(move), plies - 1, color) for move in position.legal_moves())
    return any(results) if position.turn is color else all(results)


@pytest.mark.parametrize(
    ("rules", "fen", "first", "plies"),
    [
        (LOSING, "W:W32:B23", "32-28", 2),  # give the last man away: no move left wins
        (LOSING, "W:W32,33:B19,23", "32-28", 4),
        (BREAKTHROUGH, "W:W16,17:B3,4,8", "17-11", 5),  # a man breaks through to the crowning row
    ],
)
def test_finds_forced_wins_in_losing_and_breakthrough_rules(
    rules: draughts.Ruleset, fen: str, first: str, plies: int
) -> None:
    position = Position.from_fen(rules, fen)
    assert _forced_win(position, plies, WHITE)
    assert not _forced_win(position, plies - 1, WHITE)
    result = Engine().search(position, Limit(depth=plies + 1))
    assert result.move is not None
    assert move_text(position, result.move) == first
    assert result.mate_in == plies
    board = Board.from_position(position)
    for move in result.pv:
        board.push(move)
    assert board.outcome() is not None
    assert board.outcome().winner is WHITE  # type: ignore[union-attr]


def test_losing_rules_make_material_a_burden() -> None:
    fen = "W:W31,32,33:B18"
    assert evaluate(Position.from_fen("international", fen)) > 0
    assert evaluate(Position.from_fen(LOSING, fen)) < 0


def test_breakthrough_values_advancement_most() -> None:
    near = "W:W11:B45"  # one step from the crowning row
    far = "W:W41:B45"
    gain = evaluate(Position.from_fen(BREAKTHROUGH, near)) - evaluate(Position.from_fen(BREAKTHROUGH, far))
    usual = evaluate(Position.from_fen("international", near)) - evaluate(Position.from_fen("international", far))
    assert gain > 2 * usual > 0


def test_the_king_move_limit_is_part_of_the_transposition_key() -> None:
    # The same pieces, but White's king has made its three moves in a row: only the man may move.
    pieces = {28: draughts.Piece(WHITE, True), 47: draughts.Piece(WHITE, False), 3: draughts.Piece(BLACK, False)}
    free = Position.from_pieces(FRISIAN_LIKE, pieces, WHITE)
    limited = Position.from_pieces(FRISIAN_LIKE, pieces, WHITE, king_moves={WHITE: (28, 3)})
    assert {move.start for move in limited.legal_moves()} == {47}
    shared = Engine()
    assert shared.search(free, Limit(depth=4)).move.start == 28  # type: ignore[union-attr]
    # 47-41 and 47-42 both win in 5: the choice is the engine's generator's draw, which the first
    # search advanced (it chose among equal wins too), so the fresh engine starts from that state.
    fresh_engine = Engine()
    fresh_engine._random = shared._random.copy()
    reused = shared.search(limited, Limit(depth=4))
    fresh = fresh_engine.search(limited, Limit(depth=4))
    assert reused.move is not None
    assert reused.move.start == 47
    assert (reused.move, reused.score, reused.pv) == (fresh.move, fresh.score, fresh.pv)


@settings(max_examples=200, deadline=None)
@given(any_positions())
def test_capture_entry_points_match_the_legal_moves(position: Position) -> None:
    """``captures`` and ``can_capture`` (the quiescence search's) agree with the legal captures."""
    gen = native_rules(position.ruleset)
    own, opp, kings, color, state = position.node
    captures = gen.captures(own, opp, kings, color, state)
    _, compacts = position.moves_with_masks()
    if not (position.ruleset.crowning_wins and kings):
        assert sorted(captures) == sorted(move for move in compacts if move[1])
    else:
        assert captures == []
    assert gen.can_capture(own, opp, kings, color, state) == bool(captures)


def _quiescence(variant: str, fen: str) -> int:
    """The quiescence search's score of ``fen`` for its side to move, counting material only."""
    from draughts.engine.search import THREATS

    rules = draughts.get_variant(variant)
    score = _searcher(rules, MATERIAL_ONLY).quiesce(Position.from_fen(rules, fen).node, -MATE - 1, MATE + 1, 0, THREATS)
    assert score is not None
    return score


def test_the_quiescence_search_sees_a_man_crown() -> None:
    king = king_value(_INTERNATIONAL)
    # Black to move crowns (42-47 or 42-48) at the horizon: a king, not a man.
    assert _quiescence("international", "B:W31:B42") == king - 100
    # White to move cannot stop it: the search looks a ply further and sees Black crown.
    assert _quiescence("international", "W:W31:B42") == 100 - king
    # Both crowning squares taken: no crowning, and White's threat to take 42 is seen.
    assert _quiescence("international", "B:W47,48:B10,42") == -100
    # Short kings too (Russian: c7-b8 or c7-d8).
    assert _quiescence("russian", "W:Wc7:Bh8") == king_value(draughts.get_variant("russian")) - 100


# --- evaluation terms ---------------------------------------------------------------------------


def test_runaway_men_count_in_the_endgame() -> None:
    def runaway_term(fen: str) -> int:
        position = Position.from_fen("international", fen)
        return evaluate(position) - evaluate(position, attrs.evolve(Weights(), runaway=0))

    assert runaway_term("W:W27,35:B20") == Weights().runaway  # nothing can stop 27; 35 bars 20's way
    assert runaway_term("W:W27,35:B17,20") == 0  # 17 bars 27, and 27 bars 17


def test_flying_kings_hold_against_a_small_majority() -> None:
    two_against_one = evaluate(Position.from_fen("international", "W:WK46,K50:BK5"))
    four_against_one = evaluate(Position.from_fen("international", "W:WK46,K50,K1,K10:BK5"))
    assert 0 < two_against_one < king_value(_INTERNATIONAL) // 2
    assert four_against_one > 2 * king_value(_INTERNATIONAL)


def test_a_lopsided_formation_costs() -> None:
    balanced = "W:W31,35,36,40:B1,5,6,10"
    lopsided = "W:W31,32,36,37:B1,5,6,10"  # all on the left wing
    weights = attrs.evolve(MATERIAL_ONLY, balance=5)
    assert evaluate(Position.from_fen("international", balanced), weights) == 0
    assert evaluate(Position.from_fen("international", lopsided), weights) == -5 * 4


def test_evaluation_is_cached_per_ruleset_and_weights() -> None:
    assert _evaluation(_INTERNATIONAL, Weights()) is _evaluation(_INTERNATIONAL, Weights())


def test_the_back_rank_guard_counts_only_against_men_to_crown() -> None:
    # The guard is in the square tables and taken back where the other side has no men.
    weights = attrs.evolve(MATERIAL_ONLY, back_rank=7)
    king = king_value(_INTERNATIONAL)
    assert evaluate(Position.from_fen("international", "W:W46,47,30:B5,10"), weights) == 100 + 2 * 7 - 7
    assert evaluate(Position.from_fen("international", "W:W46,47,30:BK5,K10"), weights) == 300 - 2 * king
    assert evaluate(Position.from_fen("international", "B:W46,47,30:BK5,K10"), weights) == 2 * king - 300
    assert evaluate(Position.from_fen("international", "B:WK46,K47:B1,2,30"), weights) == 300 - 2 * king


def test_no_source_is_generated_and_run() -> None:
    """The evaluation is code that mypy and ruff read: nothing in the library calls ``exec``,
    ``eval`` or ``compile`` (a user's weights or a ruleset's name once went into such source)."""
    import ast
    from pathlib import Path

    package = Path(draughts.__file__).parent
    calls = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
            if called in {"exec", "eval", "compile"}:
                calls.append(f"{path.relative_to(package)}:{node.lineno}")
    assert calls == []


def test_weights_are_integers_and_never_run(capsys: pytest.CaptureFixture[str]) -> None:
    """A weight is a number of hundredths of a man: text (once pasted into generated source and
    run), floats, booleans and rows of anything else are refused, quoting the input."""
    from draughts.engine import InvalidWeightsError

    code = '(print("CODE RAN") or 1)'
    with pytest.raises(InvalidWeightsError, match=r"Weights\.mobility '\(print"):
        Engine(weights=Weights(mobility=code))  # type: ignore[arg-type]
    bad = (("man", 1.5), ("contact", True), ("runaway", float("nan")), ("king", "400"), ("balance", None))
    for field, value in bad:
        with pytest.raises(InvalidWeightsError, match=rf"Weights\.{field} "):
            Weights(**{field: value})  # type: ignore[arg-type]
    for squares in ("12", [[1, "2"]], [[1.0]], [3], None):
        with pytest.raises(InvalidWeightsError, match=r"Weights\.squares"):
            Weights(squares=squares)  # type: ignore[arg-type]
    assert issubclass(InvalidWeightsError, draughts.DraughtsError)
    assert Weights(squares=[[3, 1], [2]], king=None).squares == ((3, 1), (2,))
    assert "CODE RAN" not in capsys.readouterr().out


def test_a_ruleset_name_is_only_a_name_to_the_engine() -> None:
    # A NUL in the name once broke compile() of the generated evaluation.
    russian = draughts.get_variant("russian")
    odd = attrs.evolve(russian, name="nul\x00name\"')")
    position = Position.from_fen(odd, "W:Wd4,h4,c3,b2:Bf6,h6")
    result = Engine().search(position, Limit(depth=4))
    expected = Engine().search(Position.from_fen(russian, "W:Wd4,h4,c3,b2:Bf6,h6"), Limit(depth=4))
    assert (result.score, result.depth, result.nodes) == (expected.score, expected.depth, expected.nodes)
    assert [move.path for move in result.pv] == [move.path for move in expected.pv]
    assert evaluate(position) == evaluate(Position.from_fen(russian, position.fen()))


# --- time -----------------------------------------------------------------------------------------


def test_a_time_limit_is_used_but_not_overrun(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine reads its module's clock; here it reads this process's CPU time, as the match
    # tool makes it, so that a busy machine (other processes taking the cores) does not count.
    import draughts.engine.root as engine_module

    cpu_clock = types.SimpleNamespace(perf_counter=time.process_time)
    monkeypatch.setattr(engine_module, "time", cpu_clock)
    engine = Engine()
    board = Board("international")
    for budget in (0.2, 0.5):
        started = time.process_time()
        result = engine.search(board, Limit(time=budget))
        elapsed = time.process_time() - started
        assert result.move in board.legal_moves
        assert 0.5 * budget < elapsed <= budget + 0.05, (budget, elapsed)
    forced = Board("russian", "W:Wc3:Bd4,h8")  # one legal move, a small ending: searched to the end quickly
    started = time.process_time()
    assert Engine().search(forced, Limit(time=2)).move is not None
    assert time.process_time() - started < 0.5


def test_a_full_transposition_table_forgets_its_oldest_entries() -> None:
    engine = Engine(hash_size=2000)
    position = Position.initial("international")
    result = engine.search(position, Limit(depth=6))
    table = engine._tables[position.ruleset]
    assert 0 < len(table) <= 2000
    assert result.move in position.legal_moves()
    assert result == Engine(hash_size=2000).search(position, Limit(depth=6))  # still reproducible


def test_a_forced_move_under_a_time_limit_is_searched_not_scored_statically() -> None:
    # Issue 40 §1, issue 38 §1: after 14... 2-7 of the 2009 Dutch championship's first game White
    # has one move, 32x21; a time-limited search answered after one iteration with a near-static
    # score (one node, a man up), then (issue 40) after a 5-ply search whatever time was left. A
    # forced move is now searched to the depth the limit allows, and costs no depth at the root:
    # its first iteration already searches the position after it.
    from draughts import pdn

    data = Path(__file__).parent.parent / "data" / "games" / "international" / "pdn-standard-nk-ronde-02.pdn"
    game = next(pdn.read_games(data))
    forced = [game, *game.mainline()][28].board().position  # after 28 moves
    assert len(forced.legal_moves()) == 1
    result = Engine().search(forced, Limit(time=1000, depth=7))  # the time is generous: ends by depth
    assert result.depth == 7
    assert result.score == Engine().search(forced, Limit(depth=7)).score
    shallow = Engine().search(forced, Limit(depth=1))
    assert shallow.nodes > 1
    after = forced.play(forced.legal_moves()[0])
    assert shallow.score == -Engine().search(after, Limit(depth=1)).score


# --- the native search's boundary -----------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_native_search_stops_on_ctrl_c() -> None:
    """The native search releases the GIL (another thread runs) and polls Python's signal
    handlers: SIGINT stops a search with no limit with KeyboardInterrupt (issue 38 §1)."""
    assert_stops_on_ctrl_c(lambda: Engine().search(Position.initial("international"), Limit(depth=64)))


def test_an_error_in_a_users_evaluation_comes_out_of_the_native_search_as_raised() -> None:
    class Refused(Exception):
        pass

    def refuse(position: Position) -> int:
        raise Refused(position.fen())

    with pytest.raises(Refused):
        Engine(evaluate=refuse).search(Position.initial("russian"), Limit(depth=3))
    calls: list[int] = []

    class Flaky:
        def is_set(self) -> bool:
            calls.append(1)
            raise Refused("stop flag")

    with pytest.raises(Refused, match="stop flag"):
        Engine().search(Position.initial("international"), Limit(depth=12), stop=Flaky())
    assert calls


def test_a_node_limit_beyond_64_bits_is_no_limit() -> None:
    position = Position.initial("russian")
    result = Engine().search(position, Limit(depth=3, nodes=10**30))
    assert result.depth == 3
    assert result == Engine().search(position, Limit(depth=3))
