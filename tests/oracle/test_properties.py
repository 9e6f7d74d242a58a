"""Hypothesis properties, one per rule dimension of the ruleset.

Each property reads the legal moves of :class:`draughts.Position` and checks one rule against
facts computed here from the board (or, where a property needs "every capture before precedence",
from the naive oracle in tests/naive.py).
"""

from __future__ import annotations

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import naive
from draughts import (
    WHITE,
    CapturedRemoval,
    CapturePromotion,
    Color,
    Directions,
    KingRange,
    Move,
    Position,
    Precedence,
    Ruleset,
)
from strategies import HOUSE_RULES, NAMED, any_rulesets, positions, promotion_positions, rulesets

SETTINGS = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


# --- helpers: board facts straight from the geometry ---


def xy(rules: Ruleset, square: int) -> tuple[int, int]:
    return rules.geometry.coords[square]


def crown_y(rules: Ruleset, color: Color) -> int:
    return rules.board_size - 1 if color is WHITE else 0


def forward(color: Color) -> int:
    return 1 if color is WHITE else -1


def between(rules: Ruleset, a: int, b: int) -> list[int]:
    """Squares strictly between ``a`` and ``b``, which must share a diagonal."""
    (x0, y0), (x1, y1) = xy(rules, a), xy(rules, b)
    assert abs(x1 - x0) == abs(y1 - y0) > 0, f"{a} and {b} are not on one diagonal"
    dx, dy = (x1 > x0) * 2 - 1, (y1 > y0) * 2 - 1
    return [rules.geometry.square_at(x0 + i * dx, y0 + i * dy) for i in range(1, abs(x1 - x0))]


def mover(position: Position, move: Move) -> draughts.Piece:
    piece = position.piece_at(move.start)
    assert piece is not None
    assert piece.color is position.turn
    return piece


def man_segments(position: Position, move: Move) -> list[tuple[int, int, int]]:
    """``(from, to, captured)`` of each jump the moving piece made while still a man."""
    rules = position.ruleset
    if mover(position, move).king:
        return []
    segments = []
    for index, captured in enumerate(move.captured):
        segments.append((move.path[index], move.path[index + 1], captured))
        if xy(rules, move.path[index + 1])[1] == crown_y(rules, position.turn):
            break  # crowned here (it goes on as a king, if at all)
    return segments


def with_precedence_first(criterion: Precedence) -> st.SearchStrategy[Ruleset]:
    """Rulesets whose most important capture criterion is ``criterion``."""
    return rulesets.map(
        lambda rules: attrs.evolve(rules, precedence=(criterion, *(p for p in rules.precedence if p is not criterion)))
    )


def with_fields(**fields: object) -> st.SearchStrategy[Ruleset]:
    return rulesets.map(lambda rules: attrs.evolve(rules, **fields))


def key_of(position: Position, move: Move) -> tuple[object, ...]:
    """The precedence key of a capture, computed from the board (larger is preferred)."""
    kings = tuple(bool(position.piece_at(square).king) for square in move.captured)  # type: ignore[union-attr]
    values = {
        Precedence.MOST_PIECES: len(move.captured),
        Precedence.WITH_KING: mover(position, move).king,
        Precedence.MOST_KINGS: sum(kings),
        Precedence.KINGS_EARLIEST: kings,
    }
    return tuple(values[criterion] for criterion in position.ruleset.precedence)


# --- capture obligation and precedence ---


@SETTINGS
@given(positions(with_fields(capture_mandatory=True)))
def test_mandatory_capture_leaves_no_quiet_move(position: Position) -> None:
    moves = position.legal_moves()
    if any(move.is_capture for move in moves):
        assert all(move.is_capture for move in moves), moves
    else:
        assert not naive.raw_captures(position), "a capture exists but the library offers only quiet moves"


@SETTINGS
@given(positions(with_precedence_first(Precedence.MOST_PIECES)))
def test_most_pieces_every_capture_takes_the_maximum(position: Position) -> None:
    captures = [move for move in position.legal_moves() if move.is_capture]
    every = naive.raw_captures(position)
    if every:
        most = max(len(move.captured) for move in every)
        assert captures
        assert {len(move.captured) for move in captures} == {most}


@SETTINGS
@given(positions())
def test_precedence_every_legal_capture_has_the_best_key(position: Position) -> None:
    captures = [move for move in position.legal_moves() if move.is_capture]
    paths = [move for move, _ in draughts.divide(position, 1, paths=True) if move.is_capture]
    every = naive.raw_captures(position)
    if not captures:
        assert not every, "captures exist but none is legal"
        return
    best = max(naive.NaiveGenerator(position.ruleset, naive.board_of(position), position.turn).key(m) for m in every)
    assert {key_of(position, move) for move in paths} == {best}


@SETTINGS
@given(positions(with_precedence_first(Precedence.WITH_KING)))
def test_king_must_capture_if_one_can(position: Position) -> None:
    """Czech rule (WITH_KING first): when a king can capture, every capture is made by a king."""
    if any(move.with_king for move in naive.raw_captures(position)):
        captures = [move for move in position.legal_moves() if move.is_capture]
        assert captures
        assert all(mover(position, move).king for move in captures), captures
        if position.ruleset.capture_mandatory:
            assert len(captures) == len(position.legal_moves())


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(positions(st.sampled_from(NAMED).filter(lambda rules: rules.precedence == (Precedence.WITH_KING,))))
def test_czech_king_priority(position: Position) -> None:
    kings_capture = any(move.with_king for move in naive.raw_captures(position))
    if kings_capture:
        assert all(move.is_capture and mover(position, move).king for move in position.legal_moves())


@SETTINGS
@given(positions())
def test_no_two_legal_moves_share_an_identity(position: Position) -> None:
    identities = [move.identity for move in position.legal_moves()]
    assert len(identities) == len(set(identities))
    assert all(position.is_legal(move) for move in position.legal_moves())


@SETTINGS
@given(positions(any_rulesets) | positions())
def test_legal_moves_come_in_move_order(position: Position) -> None:
    """The generator hands moves over already ordered (by chunks of rows, kings merged in): the
    order must hold on every board shape of the family, with men and kings mixed."""
    keys = [(move.start, move.end, move.path) for move in position.legal_moves()]
    assert keys == sorted(keys)
    assert [(m.start, m.end, m.path) for m in draughts.Board.from_position(position).legal_moves] == keys


@SETTINGS
@given(
    positions(
        st.sampled_from([*NAMED, *HOUSE_RULES]).filter(lambda rules: rules.capture_mandatory)
        | with_fields(capture_mandatory=True)
    )
)
def test_no_forced_capture_adds_exactly_the_quiet_moves(base: Position) -> None:
    house = Position.from_pieces(draughts.no_forced_capture(base.ruleset), base.pieces(), base.turn)
    quiet = {move.identity for move in naive.quiet_moves(base)}
    base_moves = {move.identity for move in base.legal_moves()}
    house_moves = {move.identity for move in house.legal_moves()}
    assert house_moves == base_moves | quiet
    base_paths = sorted((m.path, m.captured) for m, _ in draughts.divide(base, 1, paths=True) if m.is_capture)
    house_paths = sorted((m.path, m.captured) for m, _ in draughts.divide(house, 1, paths=True) if m.is_capture)
    assert house_paths == base_paths


# --- men ---


@SETTINGS
@given(positions())
def test_men_move_forward_one_square(position: Position) -> None:
    rules = position.ruleset
    for move in position.legal_moves():
        if move.is_capture or mover(position, move).king:
            continue
        (x0, y0), (x1, y1) = xy(rules, move.start), xy(rules, move.end)
        assert abs(x1 - x0) == 1
        assert y1 - y0 == forward(position.turn), f"{move} is not a forward step"


@SETTINGS
@given(positions())
def test_men_capture_backward_only_where_allowed(position: Position) -> None:
    rules = position.ruleset
    for move in position.legal_moves():
        for frm, to, _ in man_segments(position, move):
            (x0, y0), (x1, y1) = xy(rules, frm), xy(rules, to)
            assert abs(x1 - x0) == 2, f"a man jump {frm}x{to} in {move} is not a short jump"
            if rules.men_capture_backward:
                assert abs(y1 - y0) == 2
            else:
                assert y1 - y0 == 2 * forward(position.turn), f"{move} captures backward with a man"


@SETTINGS
@given(positions(with_fields(men_capture_kings=False)))
def test_men_never_take_kings_when_forbidden(position: Position) -> None:
    for move in position.legal_moves():
        for _, _, captured in man_segments(position, move):
            piece = position.piece_at(captured)
            assert piece is not None
            assert not piece.king, f"the man of {move} takes the king on {captured}"


# --- capture mechanics ---


@SETTINGS
@given(positions())
def test_path_shape(position: Position) -> None:
    rules = position.ruleset
    for move, _ in draughts.divide(position, 1, paths=True):
        assert move.path[0] == move.start
        assert move.path[-1] == move.end
        if not move.is_capture:
            assert move.path == (move.start, move.end)
            continue
        assert len(move.path) == len(move.captured) + 1
        assert len(set(move.captured)) == len(move.captured), f"{move} jumps a piece twice"
        for index, captured in enumerate(move.captured):
            piece = position.piece_at(captured)
            assert piece is not None
            assert piece.color is not position.turn
            assert captured in between(rules, move.path[index], move.path[index + 1])


@SETTINGS
@given(positions())
def test_captured_pieces_block_until_the_move_ends(position: Position) -> None:
    """Only the captured piece and free squares lie on each leg; END_OF_MOVE keeps earlier ones there."""
    rules = position.ruleset
    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE
    for move, _ in draughts.divide(position, 1, paths=True):
        for index, captured in enumerate(move.captured):
            gone = set(move.captured[:index]) if immediate else set()
            for square in between(rules, move.path[index], move.path[index + 1]):
                if square != captured:
                    assert square == move.start or square in gone or position.piece_at(square) is None, (
                        f"{move} passes over {square}"
                    )
        free = move.end == move.start or position.piece_at(move.end) is None
        assert free or (immediate and move.end in move.captured), f"{move} ends on an occupied square"


@SETTINGS
@given(positions())
def test_king_range(position: Position) -> None:
    rules = position.ruleset
    for move, _ in draughts.divide(position, 1, paths=True):
        if not mover(position, move).king:
            continue
        steps = [abs(xy(rules, a)[0] - xy(rules, b)[0]) for a, b in zip(move.path, move.path[1:], strict=False)]
        if rules.king_range is KingRange.SHORT:
            assert steps == ([2] * len(move.captured) if move.is_capture else [1]), move
        elif not move.is_capture:
            assert all(position.piece_at(square) is None for square in between(rules, move.start, move.end))


@SETTINGS
@given(positions() | promotion_positions())
def test_a_capture_goes_on_while_it_can(position: Position) -> None:
    """The piece at the end of a capture cannot capture further (unless crowning ended the move)."""
    rules = position.ruleset
    for move in position.legal_moves():
        if not move.is_capture:
            continue
        king_at_start = mover(position, move).king
        if not king_at_start and move.promotes and rules.capture_promotion is CapturePromotion.ENDS_MOVE:
            continue
        as_king = king_at_start or (move.promotes and rules.capture_promotion is CapturePromotion.CONTINUES_AS_KING)
        assert not naive.can_continue(position, move.start, move.captured, move.end, as_king=as_king), (
            f"{move} stops although it can capture on"
        )


@SETTINGS
@given(positions(with_fields(king_range=KingRange.FLYING)))
def test_flying_king_lands_where_the_capture_continues(position: Position) -> None:
    """No free square beyond a king's last captured piece lets the capture continue.

    If one did, the king would have had to land there (a capture must be completed: FMJD 4.13,
    RUS64 6.7, CBD 13), so the move could not end.
    """
    rules = position.ruleset
    immediate = rules.captured_removal is CapturedRemoval.IMMEDIATE
    for move, _ in draughts.divide(position, 1, paths=True):
        if not move.is_capture or not (mover(position, move).king or move.promotes):
            continue
        if not mover(position, move).king and rules.capture_promotion is not CapturePromotion.CONTINUES_AS_KING:
            continue
        last = move.captured[-1]
        (cx, cy), (ex, ey) = xy(rules, last), xy(rules, move.end)
        dx, dy = (ex > cx) * 2 - 1, (ey > cy) * 2 - 1
        x, y = cx + dx, cy + dy
        while rules.geometry.is_playable(x, y):
            square = rules.geometry.square_at(x, y)
            free = square == move.start or position.piece_at(square) is None or (immediate and square in move.captured)
            if not free:
                break
            assert not naive.can_continue(position, move.start, move.captured, square, as_king=True), (
                f"{move} ends although landing on {square} would continue the capture"
            )
            x, y = x + dx, y + dy


# --- promotion ---


@st.composite
def promotion_rulesets(draw: st.DrawFn) -> Ruleset:
    """Any ruleset with any capture promotion rule, men often capturing backward (to go on from the row)."""
    rules = draw(rulesets)
    backward = draw(st.booleans()) or rules.men_capture_backward
    return attrs.evolve(
        rules,
        capture_promotion=draw(st.sampled_from(CapturePromotion)),
        men_capture=Directions.DIAGONAL if backward else Directions.DIAGONAL_FORWARD,
    )


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(promotion_positions(promotion_rulesets()) | positions(promotion_rulesets()))
def test_promotion_semantics(position: Position) -> None:
    rules = position.ruleset
    crown = crown_y(rules, position.turn)
    for move in position.legal_moves():
        piece = mover(position, move)
        after = position.play(move).piece_at(move.end)
        assert after is not None
        assert after.color is position.turn
        assert after.king == (piece.king or move.promotes)
        if piece.king:
            assert not move.promotes
            continue
        on_crown = [xy(rules, square)[1] == crown for square in move.path[1:]]
        if not move.is_capture or rules.capture_promotion is CapturePromotion.ONLY_AT_END:
            assert move.promotes == on_crown[-1], f"{move}: crowned only if it ends on the crowning row"
        elif rules.capture_promotion is CapturePromotion.ENDS_MOVE:
            assert not any(on_crown[:-1]), f"{move} passes the crowning row instead of stopping there"
            assert move.promotes == on_crown[-1]
        else:
            assert move.promotes == any(on_crown), f"{move}: a man touching the crowning row is crowned"


# --- symmetry, counting, notation ---


@SETTINGS
@given(positions())
def test_mirrored_position_has_mirrored_moves(position: Position) -> None:
    rotate = position.ruleset.geometry.rotate
    mirrored = position.mirror()
    assert mirrored.mirror() == position
    expected = {
        (rotate(move.start), rotate(move.end), frozenset(map(rotate, move.captured))) for move in position.legal_moves()
    }
    assert {move.identity for move in mirrored.legal_moves()} == expected
    paths = sorted(tuple(map(rotate, move.path)) for move, _ in draughts.divide(position, 1, paths=True))
    assert sorted(move.path for move, _ in draughts.divide(mirrored, 1, paths=True)) == paths


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_perft_paths_counts_at_least_the_moves(position: Position) -> None:
    for depth in (1, 2):
        keep = draughts.perft(position, depth, paths=True)
        dedup = draughts.perft(position, depth)
        assert keep >= dedup
        assert dedup == sum(count for _, count in draughts.divide(position, depth))
        assert keep == sum(count for _, count in draughts.divide(position, depth, paths=True))
    assert draughts.perft(position, 1) == len(position.legal_moves())


@SETTINGS
@given(positions())
def test_play_then_fen_round_trip(position: Position) -> None:
    rules = position.ruleset
    for child in [position, *(position.play(move) for move in position.legal_moves())]:
        assert Position.from_fen(rules, child.fen()) == child
        assert Position.from_fen(rules, child.fen(numeric=True)) == child
        assert child.ruleset == rules


def test_fen_round_trip_of_a_man_on_file_k() -> None:
    """Library bug: on boards of 11+ files with algebraic names, the square name "k1" reads as "king on 1".

    ``fen()`` writes a white man on k1 of a 12x12 board as ``W:Wk1:B``; ``from_fen`` takes the
    ``k`` for the king prefix and returns a white *king* on square 1 (b12).
    """
    rules = attrs.evolve(
        draughts.get_variant("international"),
        name="big",
        board_size=12,
        rows_per_side=5,
        square_names=draughts.SquareNames.ALGEBRAIC,
        pdn_gametype=None,
    )
    position = Position.from_pieces(rules, {"k1": draughts.Piece(WHITE)})
    assert position.fen() == "W:Wk1:B"
    assert Position.from_fen(rules, position.fen()) == position
