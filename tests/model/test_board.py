"""The mutable game: move stack, push/pop safety, and every variant's end and draw rules."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, Termination, drawrules

VARIANT_NAMES = list(draughts.rules.variants.FEDERATION_VARIANTS)


def _quiet(board: Board, move: draughts.Move, kings_only: bool) -> bool:
    piece = board.position.piece_at(move.start)
    assert piece is not None
    return not (move.captured or move.promotes or (kings_only and not piece.king))


def walk(
    board: Board,
    plies: int,
    *,
    kings_only: bool = True,
    allow: Callable[[Board, draughts.Move], bool] = lambda board, move: True,
) -> None:
    """Play ``plies`` quiet moves that never repeat a position (and, by default, only king moves).

    A depth-first search with backtracking, so the walk never paints itself into a corner.
    """
    seen = set(board.positions())
    start = len(board)

    def extend(remaining: int) -> bool:
        if remaining == 0:
            return True
        for move in board.legal_moves:
            if not _quiet(board, move, kings_only) or not allow(board, move):
                continue
            child = board.position.play(move)
            if child in seen:
                continue
            board.push(move)
            seen.add(child)
            if extend(remaining - 1):
                return True
            board.pop()
            seen.discard(child)
        return False

    if not extend(plies):
        raise AssertionError(f"no walk of {plies} fresh quiet plies from {board.fen()}")
    assert len(board) == start + plies


def plies_until_draw(
    board: Board,
    limit: int,
    *,
    kings_only: bool = True,
    allow: Callable[[Board, draughts.Move], bool] = lambda board, move: True,
) -> int:
    """Find a walk of ``limit`` fresh quiet plies, then replay it: the ply at which the game ends."""
    root = board.copy()
    walk(root, limit, kings_only=kings_only, allow=allow)
    for ply, move in enumerate(root.move_stack[len(board) :]):
        outcome = board.outcome()
        if outcome is not None:
            assert outcome.winner is None
            return ply
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None, f"no draw within {limit} plies"
    assert outcome.winner is None
    return limit


# Positions with enough kings for long walks and no endgame rule in force (4 against 4).
KINGS_FEN = {
    "international": "W:WK46,K47,K48,K49:BK1,K2,K3,K4",
    "american": "B:WK29,K30,K31,K32:BK1,K2,K3,K4",
    "italian": "W:WK29,K30,K31,K32:BK1,K2,K3,K4",
    "spanish": "W:WK1,K2,K3,K4:BK29,K30,K31,K32",
    "russian": "W:WK29,K30,K31,K32:BK1,K2,K3,K4",
    "brazilian": "W:WK29,K30,K31,K32:BK1,K2,K3,K4",
    "czech": "W:WK29,K30,K31,K32:BK1,K2,K3,K4",
}


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_no_pieces_loses(variant: str) -> None:
    rules = draughts.get_variant(variant)
    board = Board(rules, fen=f"W:W:BK{rules.squares // 2}")
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NO_PIECES
    assert outcome.winner is BLACK
    # The first score is the first player's: Black's in American checkers.
    expected = {"international": "0-2", "american": "1-0"}.get(variant, "0-1")
    assert outcome.result == expected
    assert board.is_game_over()


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_blocked_side_loses(variant: str) -> None:
    rules = draughts.get_variant(variant)
    geometry = rules.geometry
    # A white man on White's left edge (rank 2) with two black men in front, the second guarding the first.
    x = 0 if geometry.is_playable(0, 1) else 1
    man = geometry.square_at(x, 1)
    blocker = geometry.square_at(x + 1, 2)
    guard = geometry.square_at(x + 2, 3)
    fen = f"W:W{man}:B{blocker},{guard}"
    if x == 1:  # the man also has a left step; block it too
        fen += f",{geometry.square_at(0, 2)}"
    board = Board(rules, fen=fen)
    outcome = board.outcome()
    assert outcome is not None, board.legal_moves
    assert outcome.termination is Termination.NO_MOVES
    assert outcome.winner is BLACK


def _out_and_back(board: Board) -> list[draughts.Move]:
    """Four quiet king moves that bring the position back: each side steps out, then back."""
    for first in board.legal_moves:
        after_first = board.position.play(first)
        for second in after_first.legal_moves():
            after_second = after_first.play(second)
            back_first = draughts.Move(first.end, first.start)
            if first.captured or second.captured or not after_second.is_legal(back_first):
                continue
            after_third = after_second.play(back_first)
            back_second = draughts.Move(second.end, second.start)
            if after_third.is_legal(back_second) and after_third.play(back_second) == board.position:
                return [first, second, back_first, back_second]
    raise AssertionError(f"no out-and-back cycle from {board.fen()}")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_repetition(variant: str) -> None:
    rules = draughts.get_variant(variant)
    board = Board(rules, fen=KINGS_FEN[variant])
    draws = rules.draw_rules
    assert draws.repetitions is not None
    cycle = _out_and_back(board)
    for move in cycle:
        board.push(move)
    assert board.repetitions() == 2
    for _ in range(draws.repetitions - 2):
        assert board.outcome() is None
        assert not board.can_claim_draw()
        for move in cycle:
            board.push(move)
    assert board.repetitions() == draws.repetitions
    if draws.repetition_claim:
        assert board.outcome() is None
        assert board.can_claim_draw()
        assert board.claim_draw().termination is Termination.REPETITION
    else:
        outcome = board.outcome()
        assert outcome is not None
        assert outcome.termination is Termination.REPETITION
        assert outcome.result == ("1-1" if variant == "international" else "1/2-1/2")


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_king_move_count_rule(variant: str) -> None:
    """Only kings move, nothing is captured: each variant's move-count rule ends the game on time."""
    rules = draughts.get_variant(variant)
    board = Board(rules, fen=KINGS_FEN[variant])
    counts = [rule for rule in rules.draw_rules.move_counts if not rule.claim]
    claims = [rule for rule in rules.draw_rules.move_counts if rule.claim]
    if counts:
        expected = min(2 * rule.moves for rule in counts)
        assert plies_until_draw(board, expected) == expected
        outcome = board.outcome()
        assert outcome is not None
        assert outcome.termination is Termination.MOVE_COUNT
    elif claims:
        walk(board, 2 * claims[0].moves - 1)
        assert not board.can_claim_draw()
        walk(board, 1)
        assert board.outcome() is None
        assert board.can_claim_draw()
        assert board.claim_draw().termination is Termination.MOVE_COUNT
    else:
        raise AssertionError(f"{variant} has no move-count rule")


def test_czech_fifteen_move_rule_and_claimed_repetition() -> None:
    """FMJD's Czech page: drawn if no capture or man move within 15 moves; repetition on claim."""
    rules = draughts.get_variant("czech")
    assert rules.draw_rules.repetition_claim
    board = Board(rules, fen="W:WKa1,c3,d4:BKh8,a7")
    steps = {"a1": "b2", "b2": "a1", "h8": "g7", "g7": "h8"}

    def shuttle(plies: int) -> None:  # the kings step out and back; repeating is allowed until claimed
        for _ in range(plies):
            king = rules.square_name(board.position.squares(board.turn, kings=True)[0])
            board.push_text(f"{king}-{steps[king]}")

    shuttle(29)
    assert board.outcome() is None
    assert board.can_claim_draw()  # the position has long been repeated three times
    board.push_text("a7-b6")  # a man moves: the count starts again
    shuttle(29)
    assert board.outcome() is None
    shuttle(1)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.MOVE_COUNT
    assert "15 moves" in outcome.rule


def test_man_moves_reset_the_king_rule_but_not_the_italian_rule() -> None:
    international = Board("international", fen="W:WK46,K47,36:BK1,K2,15")
    walk(international, 6)
    assert international.counters.move_counts == (6,)
    international.push(next(m for m in international.legal_moves if m.start == 36))
    assert international.counters.move_counts == (0,)
    italian = Board("italian", fen="W:WK29,K30,21:BK1,K2,12")
    walk(italian, 6)
    italian.push(next(m for m in italian.legal_moves if m.start == 21))
    assert italian.counters.move_counts == (7,)


def _on_main_diagonal(board: Board, move: draughts.Move) -> bool:
    """Black's lone king keeps to the long diagonal a1-h8."""
    x, y = board.ruleset.geometry.coords[move.end]
    return board.turn is WHITE or x == y


def _man_every_twenty_plies(board: Board, move: draughts.Move) -> bool:
    """White moves a man on plies 20 and 40 and only kings otherwise (so 7.2.5 never applies)."""
    piece = board.position.piece_at(move.start)
    assert piece is not None
    return piece.king != (len(board) in (20, 40))


@pytest.mark.parametrize(
    ("variant", "fen", "moves", "article", "allow"),
    [
        ("international", "W:WK42,K43,K44:BK9", 16, "FMJD 6.3", None),
        ("international", "W:WK27,36:BK24", 5, "FMJD 6.4", None),
        ("russian", "W:WKc1,Ke1,Kg1:BKd6", 15, "RUS64 7.2.4", None),
        ("russian", "W:WKh4,Kg3,Kh2:BKc3", 5, "RUS64 7.2.7", _on_main_diagonal),
        ("russian", "W:WKc1,Kg1:BKd6", 5, "RUS64 7.2.8", None),
        ("russian", "W:WKc1,Kg1,a3:BKd6,Kf8", 30, "RUS64 7.2.6", _man_every_twenty_plies),
    ],
)
def test_endgame_rules(
    variant: str, fen: str, moves: int, article: str, allow: Callable[[Board, draughts.Move], bool] | None
) -> None:
    board = Board(variant, fen=fen)
    ends = plies_until_draw(board, 2 * moves, kings_only=False, allow=allow or (lambda board, move: True))
    assert ends == 2 * moves
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.ENDGAME
    assert outcome.rule.startswith(article)


def test_lone_king_off_the_long_diagonal_gets_the_longer_count() -> None:
    rules = draughts.get_variant("russian")
    rule = rules.draw_rules.endgames[3]
    assert rule.weak_king_on_main_diagonal
    on = Board(rules, fen="W:WK30,K31,K32:BKh8")
    off = Board(rules, fen="W:WK30,K31,K32:BKb8")
    assert drawrules.applies(rule, on.position)
    assert not drawrules.applies(rule, off.position)


def test_capture_restarts_the_endgame_count() -> None:
    board = Board("international", fen="W:WK46,K47,K48:BK5,K10")  # 3 kings v 2: no endgame rule yet
    for _ in range(40):  # quiet king moves until someone can capture
        capture = next((m for m in board.legal_moves if m.captured), None)
        if capture is not None:
            break
        board.push(board.legal_moves[len(board) % len(board.legal_moves)])
    assert capture is not None
    assert board.counters.since_material_change == len(board) > 0
    board.push(capture)
    assert board.counters.since_material_change == 0


def test_push_pop_peek_and_stack() -> None:
    board = Board("american")
    assert board.turn is BLACK
    first = board.push_text("11-15")
    board.push_text("23-19")
    assert board.move_stack == [first, draughts.Move(23, 19)]
    assert board.peek() == draughts.Move(23, 19)
    assert len(board) == 2
    assert board.pop() == draughts.Move(23, 19)
    assert board.pop() == first
    assert board.position == draughts.Position.initial("american")
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_illegal_or_stale_push_leaves_the_board_untouched() -> None:
    board = Board("international")
    stale = next(m for m in board.legal_moves if (m.start, m.end) == (32, 28))
    board.push(stale)
    before = (board.fen(), board.move_stack, board.positions())
    with pytest.raises(draughts.IllegalMoveError, match="start=32, end=28"):
        board.push(stale)  # White's move, but Black is to move
    with pytest.raises(draughts.InvalidMoveError):
        board.push("19-23")  # type: ignore[arg-type]
    with pytest.raises(draughts.IllegalMoveError, match="'19-25'"):
        board.push_text("19-25")
    with pytest.raises(draughts.InvalidMoveError):
        board.push_text("nonsense")
    assert (board.fen(), board.move_stack, board.positions()) == before


def test_iterating_legal_moves_while_pushing_is_safe() -> None:
    board = Board("russian")
    snapshot = board.legal_moves
    played = []
    for move in snapshot:
        board.push(move)
        played.append(board.fen())
        board.pop()
    assert len(played) == len(snapshot) == 7
    assert board.legal_moves == snapshot


def test_copy_is_independent() -> None:
    board = Board("czech")
    board.push_text("c3-d4")
    clone = board.copy()
    clone.push_text("f6-e5")
    assert len(board) == 1
    assert len(clone) == 2
    fresh = board.copy(stack=False)
    assert fresh.root() == board.position
    assert fresh.move_stack == []


def test_result_and_repr() -> None:
    board = Board("brazilian")
    assert board.result() == "*"
    assert repr(board) == f"Board('brazilian', fen={board.fen()!r})"
    assert str(board) == str(board.position)
    won = Board("international", fen="B:W28:B")
    assert won.result() == "2-0"


def test_user_defined_draw_rules_are_data() -> None:
    rules = attrs.evolve(
        draughts.get_variant("american"),
        name="quick-draws",
        draw_rules=draughts.DrawRules(repetitions=2, move_counts=(draughts.MoveCountRule(3),)),
    )
    board = Board(rules, fen=KINGS_FEN["american"])
    assert plies_until_draw(board, 6) == 6


def test_italian_crowning_restarts_the_forty_move_count_but_a_man_step_does_not() -> None:
    """FID 10.4: 40 moves each without a capture or a crowning (a man's step does not count)."""
    board = Board("italian", fen="W:WK29,K30,5,21:BK3,K4,28")
    for text in ("30-26", "4-8", "26-30", "8-4", "30-26", "4-8"):
        board.push_text(text)
    assert board.counters.move_counts == (6,)
    board.push_text("21-17")  # a plain man step
    assert board.counters.move_counts == (7,)
    board.push_text("8-4")
    crowning = board.push_text("5-1")
    assert crowning.promotes
    assert board.counters.move_counts == (0,)


def test_a_crowning_restarts_the_endgame_count() -> None:
    """The endgame rules count from the capture or crowning that makes the balance."""
    board = Board("international", fen="W:WK46,K47,7:BK50")
    walk(board, 4)
    assert board.counters.since_material_change == 4
    crowning = next(m for m in board.legal_moves if m.start == 7)
    assert crowning.promotes
    board.push(crowning)
    assert board.counters.since_material_change == 0
    walk(board, 1)
    assert board.counters.since_material_change == 1
