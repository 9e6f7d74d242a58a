"""The python-chess habits users bring: one legal-moves shape, move numbers, counters, copies,
equality, clear errors for wrong values, and FEN clocks that resume a game where it stood."""

from __future__ import annotations

import copy
import gc
import random
import tracemalloc
import weakref

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, Move, Piece, Position
from draughts._caches import LIBRARY_RULESETS, RULESETS
from draughts._core.tables import compile_rules
from draughts.engine import Engine, Limit


def test_legal_moves_is_one_live_collection_on_boards_and_positions() -> None:
    board = Board("russian")
    moves = board.legal_moves
    assert moves.count() == len(moves) == 7
    assert Move(22, 18) in moves
    assert Move(22, 17, (5,)) not in moves
    assert moves() == tuple(moves) == board.position.legal_moves()
    assert isinstance(moves(), tuple)
    board.push(moves[2])
    assert moves.count() == 7
    assert all(board.position.piece_at(m.start).color is BLACK for m in moves)
    position = Position.initial("international")
    assert position.legal_moves.count() == 9 == len(position.legal_moves())
    assert bool(Position.from_fen("international", "W:W:B1").legal_moves) is False
    assert "LegalMoves (9)" in repr(position.legal_moves)


def test_iterating_while_pushing_walks_the_position_it_started_in() -> None:
    board = Board("international")
    seen = []
    for move in board.legal_moves:
        board.push(move)
        seen.append(board.fen())
        board.pop()
    assert len(set(seen)) == 9


def test_ply_and_fullmove_number() -> None:
    board = Board("american")  # Black starts: the move number goes up after White's reply
    assert (board.ply(), board.fullmove_number) == (0, 1)
    board.push_text("11-15")
    assert (board.ply(), board.fullmove_number) == (1, 1)
    board.push_text("23-19")
    assert (board.ply(), board.fullmove_number) == (2, 2)
    resumed = Board("international", fen="B:W31-50:B1-20:H3:F12")
    assert (resumed.ply(), resumed.fullmove_number) == (23, 12)


def test_fen_clocks_restore_the_draw_counts() -> None:
    board = Board("international", fen="W:WK46,K47:BK1:H7:F40")
    assert board.counters == draughts.DrawCounters(move_counts=(7,), since_material_change=7)
    assert board.fen(clocks=True) == "W:WK46,K47:BK1:H7:F40"
    assert board.fen() == "W:WK46,K47:BK1"
    # With men on the board the 25-move count (restarted by man moves) cannot be known: 0.
    with_men = Board("international", fen="W:WK46,36:BK1:H7:F40")
    assert with_men.counters == draughts.DrawCounters(move_counts=(0,), since_material_change=7)
    # Italian's 40-move count is restarted by captures and crownings only: the clock is exact.
    italian = Board("italian", fen="W:WK29,21:BK1,12:H9:F20")
    assert italian.counters.move_counts == (9,)


def test_a_game_resumed_from_its_fen_keeps_counting() -> None:
    board = Board("international", fen="W:WK46,K47:BK1")
    for _ in range(10):
        king = board.position.squares(board.turn, kings=True)[0]
        board.push(next(m for m in board.legal_moves if m.start == king))
    resumed = Board("international", fen=board.fen(clocks=True))
    assert resumed.counters == board.counters
    assert resumed.fullmove_number == board.fullmove_number


def test_copy_without_stack_keeps_counts_and_move_number() -> None:
    board = Board("international", fen="W:WK46,K47:BK1:H4:F9")
    board.push(next(iter(board.legal_moves)))
    fresh = board.copy(stack=False)
    assert fresh.counters == board.counters
    assert fresh.fullmove_number == board.fullmove_number
    assert fresh.move_stack == []


def test_copy_module_copies_are_independent() -> None:
    board = Board("czech")
    board.push_text("c3-d4")
    for clone in (copy.copy(board), copy.deepcopy(board)):
        clone.push_text("f6-e5")
        assert len(board) == 1
        assert len(clone) == 2


def test_boards_are_equal_when_they_hold_the_same_game() -> None:
    one, two = Board("russian"), Board("russian")
    assert one == two
    one.push_text("c3-d4")
    assert one != two
    two.push_text("c3-d4")
    assert one == two
    assert one != Board("brazilian")
    with pytest.raises(TypeError):
        hash(one)


def test_parse_text_does_not_play() -> None:
    board = Board("russian")
    move = board.parse_text("c3-d4")
    assert move == Move(22, 18)
    assert len(board) == 0


def test_is_repetition() -> None:
    board = Board("international", fen="W:WK50:BK1")
    assert not board.is_repetition(2)
    for text in ("50-45", "1-6", "45-50", "6-1"):
        board.push_text(text)
    assert board.is_repetition(2)
    assert not board.is_repetition(3)


def test_white_is_truthy_as_in_python_chess() -> None:
    board = Board("russian")
    assert board.turn
    board.push_text("c3-d4")
    assert not board.turn
    assert int(WHITE) == 0
    assert int(BLACK) == 1


def test_move_str_is_the_numeric_long_form() -> None:
    assert str(Move(32, 28)) == "32-28"
    assert str(Move(47, 36, (38, 20, 9), (47, 29, 18, 36))) == "47x29x18x36"


def test_push_names_the_legal_moves_with_the_same_start_and_end() -> None:
    board = Board("international", fen="W:W18:B12")  # 18x7 is a capture (of 12)
    with pytest.raises(draughts.IllegalMoveError, match=r"captured=\(12,\)"):
        board.push(Move(18, 7))
    assert len(board) == 0


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Move(32, 28, captured=5), "captured"),  # type: ignore[arg-type]
        (lambda: Move("c3", "d4"), "start"),  # type: ignore[arg-type]
        (lambda: Move(32, 28, path=(1, 2)), "path"),
        (lambda: Move(0, 5), "start"),
        (lambda: Move(32, 28, promotes=1), "promotes"),  # type: ignore[arg-type]
        (lambda: Piece("white"), "color"),  # type: ignore[arg-type]
        (lambda: Position.from_pieces("international", {31: Piece("white")}), "color"),  # type: ignore[arg-type]
        (lambda: draughts.DrawRules(move_counts=["x"]), "move_counts"),  # type: ignore[list-item]
        (lambda: draughts.DrawRules(endgames=[5]), "endgames"),  # type: ignore[list-item]
        (lambda: draughts.DrawRules(notes=None), "notes"),  # type: ignore[arg-type]
        (lambda: draughts.EndgameRule(5, strong=[1, 2]), "material"),  # type: ignore[list-item]
        (lambda: draughts.EndgameRule(5, strong_min_kings=-1), "strong_min_kings"),
        (lambda: draughts.EndgameRule(5, total_pieces=[-3]), "total_pieces"),
        (lambda: draughts.MoveCountRule(5, article=3), "article"),  # type: ignore[arg-type]
        (lambda: attrs.evolve(draughts.get_variant("russian"), precedence=None), "precedence"),
        (lambda: attrs.evolve(draughts.get_variant("russian"), sources=None), "sources"),
    ],
)
def test_bad_values_are_draughts_errors_naming_the_field(make: object, field: str) -> None:
    with pytest.raises(draughts.DraughtsError, match=field):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Board.from_position("x"),  # type: ignore[arg-type]
        lambda: draughts.perft("international", 2),  # type: ignore[arg-type]
        lambda: draughts.divide("international", 2),  # type: ignore[arg-type]
        lambda: Engine().search(Position.initial("russian"), "x"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_say_what_was_expected(make: object) -> None:
    with pytest.raises(TypeError, match=r"Position|Limit"):
        make()  # type: ignore[operator]


def test_search_takes_a_limit() -> None:
    assert Engine().search(Position.initial("russian"), Limit(depth=1)).move is not None


def _use(rules: draughts.Ruleset) -> None:
    """What the per-ruleset caches hold after a ruleset has been played and searched a little."""
    draughts.perft(Position.initial(rules), 2)
    Engine(seed=0).search(Position.initial(rules), Limit(depth=1))


def _small(base: draughts.Ruleset, name: str) -> draughts.Ruleset:
    """``base`` on a 4x4 board: every per-ruleset cache fills as on a full board, ten times faster."""
    return attrs.evolve(base, name=name, board_size=4, rows_per_side=1, square_names=draughts.SquareNames.NUMERIC)


@pytest.mark.parametrize(
    "board",
    [
        "4x4",  # the default run: a few seconds
        pytest.param("8x8", marks=pytest.mark.slow),  # full boards: about 30 s of CPU (issue 40 §11)
    ],
)
def test_per_ruleset_caches_are_bounded(board: str) -> None:
    """Making rulesets without end holds a fixed amount of memory: once the caches are full
    (draughts._caches.RULESETS), another round of as many new rulesets adds next to nothing, and
    the rulesets of the first round are freed (no cache, bounded or not, still holds them).

    (It once used 120 rulesets of 26x26 boards, and was seen to take a worker to 16 GB and 110 s;
    small boards show the same bound.)"""
    base = draughts.get_variant("russian")
    make = (lambda name: attrs.evolve(base, name=name)) if board == "8x8" else (lambda name: _small(base, name))
    rounds = [[make(f"many-{turn}-{index}") for index in range(RULESETS)] for turn in range(3)]
    for rules in rounds[0]:
        _use(rules)
    assert compile_rules.cache_info().currsize == RULESETS
    first = [weakref.ref(rules) for rules in rounds[0]]
    del rounds[0][:]
    tracemalloc.start()
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    for rules in rounds[1]:
        _use(rules)
    gc.collect()
    middle = tracemalloc.get_traced_memory()[0]
    for rules in rounds[2]:
        _use(rules)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert compile_rules.cache_info().currsize == RULESETS
    # Each round replaces every cached ruleset: the memory held stays where it was.
    assert after - middle < max(2_000_000, (middle - before) // 4 + 1_000_000), (before, middle, after)
    assert [ref for ref in first if ref() is not None] == []  # the first round is gone from every cache


def test_a_pass_over_the_web_menu_hits_the_second_time() -> None:
    """Every ruleset the library offers (the web board's picker: each variant with forced or
    optional capture and each goal) fits in the compiled-ruleset cache at once: a second pass
    over them builds nothing (issue 24 §9: with 32 kept, a pass over the 34 of the menu rebuilt
    every generator)."""
    from draughts.web.rulesets import RulesetRegistry, _library

    library = sorted(_library(), key=lambda rules: rules.name)
    assert len(library) == LIBRARY_RULESETS <= RULESETS
    assert set(RulesetRegistry().menu()) <= set(library)
    for rules in library:
        Position.initial(rules).legal_moves.count()
    first = compile_rules.cache_info()
    for rules in library:
        Position.initial(rules).legal_moves.count()
    second = compile_rules.cache_info()
    assert second.misses == first.misses
    assert second.hits - first.hits >= len(library)


def test_each_move_count_rule_counts_from_its_own_resets() -> None:
    """Two move-count rules with different resets, against counts kept here from the moves played."""
    base = draughts.get_variant("international")
    rules = attrs.evolve(
        base,
        name="two-counts",
        draw_rules=attrs.evolve(
            base.draw_rules,
            move_counts=(
                draughts.MoveCountRule(200),
                draughts.MoveCountRule(200, reset_by_man_move=False, reset_by_capture=True, reset_by_promotion=True),
                draughts.MoveCountRule(200, reset_by_man_move=True, reset_by_capture=False, reset_by_promotion=False),
            ),
            endgames=(),
        ),
    )
    rng = random.Random(7)
    board = draughts.Board.from_fen(rules, "W:WK46,K47,7,8,31,32,33,34:BK4,K5,17,18,19,20,43,44")
    expected = [0, 0, 0]
    seen: set[str] = set()
    while len(board.move_stack) < 300 and board.legal_moves.count():
        move = rng.choice(list(board.legal_moves))
        man = not board.position.piece_at(move.start).king
        seen.add("capture" if move.captured else "crowning" if move.promotes else "man" if man else "king")
        events = (man or bool(move.captured), bool(move.captured or move.promotes), man)
        expected = [0 if event else plies + 1 for event, plies in zip(events, expected, strict=True)]
        board.push(move)
        assert board.counters.move_counts == tuple(expected)
    assert seen == {"capture", "crowning", "man", "king"}, "the game met every kind of reset"


@pytest.mark.parametrize("variant", ["international", "russian", "turkish", "frisian", "american"])
def test_repetitions_count_every_earlier_occurrence(variant: str) -> None:
    """Against a count over the whole history, through captures, crownings and king shuffles."""
    rules = attrs.evolve(draughts.get_variant(variant), name=f"{variant}-no-draws", draw_rules=draughts.DrawRules())
    rng = random.Random(variant)
    repeated = 0
    n = rules.geometry.squares
    pieces = {n: Piece(WHITE, king=True), n - 2: Piece(WHITE, king=True), n // 2 + 1: Piece(WHITE)}
    pieces |= {1: Piece(BLACK, king=True), 3: Piece(BLACK, king=True), n // 2 - 3: Piece(BLACK)}
    for _ in range(10):
        board = draughts.Board.from_position(Position.from_pieces(rules, pieces))
        while len(board.move_stack) < 400 and board.legal_moves.count():
            moves = list(board.legal_moves)
            stack = board.move_stack
            # Often a king's step back to where it came from two plies ago: positions come back.
            back = [m for m in moves if len(stack) > 1 and (m.start, m.end) == (stack[-2].end, stack[-2].start)]
            board.push(rng.choice(back if back and rng.random() < 0.7 else moves))
            expected = board.positions().count(board.position)
            assert board.repetitions() == expected
            repeated += expected > 1
    assert repeated, "some positions came back"
