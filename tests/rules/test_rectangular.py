"""Rectangular boards (issue 41): width x height in the rule space, both cores, the named
Spantsiretti and Sri Lankan rulesets, and every format that writes a board.

The perft counts are dctl's published ones (tests/data/perft-family.json and
perft-rectangular.json, each entry naming its source); tests/oracle/test_naive.py holds the naive
oracle to the same series, and the hypothesis test below compares the library with the oracle on
an invented ruleset of a 6x5 board.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import naive
from draughts import Position, Ruleset
from draughts.errors import DraughtsError, InvalidRulesetError, InvalidSquareError
from draughts.rules import CapturePromotion, Directions, KingRange
from draughts.rules.files import resolve_ruleset, ruleset_from_text, ruleset_to_text
from draughts.rules.geometry import BoardSquares, Numbering, geometry
from family import PUBLISHED_RULES, published_series

SPANTSIRETTI = draughts.get_variant("spantsiretti")
INTERNATIONAL = draughts.get_variant("international")
RECTANGLES = ("intl-10x8", "ktar-10x11", "ktar-10x12", "intl-12x10", "14x14", "ktar-8x10")
"""The published International-rules series of PUBLISHED_RULES on boards other than 10x10 and 12x12."""

INVENTED = Ruleset(
    name="invented-6x5",
    title="An invented game on a 6x5 board",
    board_size=(6, 5),  # 6 files, 5 ranks: the 180° turn lands on light squares
    rows_per_side=2,  # one empty rank between the sides
    men_capture=Directions.DIAGONAL,
    king_range=KingRange.FLYING,
    capture_promotion=CapturePromotion.CONTINUES_AS_KING,
)
"""A ruleset no source describes: flying kings, men capturing backward, crowned mid-capture."""


# --- geometry and the Ruleset field ---


def test_the_80_square_board_is_numbered_over_its_ten_files() -> None:
    geo = SPANTSIRETTI.geometry
    assert (geo.width, geo.height, geo.squares, geo.shape) == (10, 8, 40, "10x8")
    assert geo.coords[1] == (1, 7)  # square 1 top-left, as Russian's
    assert geo.name(1) == "b8"
    assert (geo.parse("j8"), geo.parse("a1"), geo.parse("i1")) == (5, 36, 40)
    with pytest.raises(InvalidSquareError, match="'k1' is not a playable square of the 10x8 board"):
        geo.parse("k1")
    with pytest.raises(InvalidSquareError, match="not square"):
        _ = geo.size  # code written for square boards fails loudly, never silently wrong


def test_odd_heights_mirror_colours_across_the_middle_rank() -> None:
    rules = PUBLISHED_RULES["ktar-10x11"]
    geo, start = rules.geometry, Position.initial(rules)
    white = start.squares(draughts.WHITE)
    black = start.squares(draughts.BLACK)
    assert sorted(geo.rotate(square) for square in white) == sorted(black)
    assert all(geo.rotate(geo.rotate(square)) == square for square in range(1, geo.squares + 1))


def test_board_size_takes_a_pair_and_a_square_pair_is_its_side() -> None:
    assert attrs.evolve(INTERNATIONAL, board_size=(10, 10)) == INTERNATIONAL
    assert attrs.evolve(INTERNATIONAL, board_size=[10, 10]).board_size == 10
    rules = attrs.evolve(INTERNATIONAL, name="x", board_size=(12, 10), rows_per_side=4)
    assert (rules.width, rules.height, rules.squares, rules.men_per_side) == (12, 10, 60, 24)


@pytest.mark.parametrize(
    ("size", "message"),
    [
        ((9, 8), "needs an even width"),
        ((10, 28), r"\(10, 28\)"),
        ((10, 3), r"\(10, 3\)"),
        ((10, 8, 2), r"\(10, 8, 2\)"),
        ((True, 8), r"\(True, 8\)"),
        ("10x8", "'10x8'"),
    ],
)
def test_bad_board_sizes_are_refused_quoting_them(size: object, message: str) -> None:
    with pytest.raises(InvalidRulesetError, match=message):
        attrs.evolve(INTERNATIONAL, board_size=size)


def test_the_rows_of_men_are_checked_against_the_height() -> None:
    with pytest.raises(InvalidRulesetError, match="no empty row between the sides on a 10x8 board"):
        attrs.evolve(INTERNATIONAL, board_size=(10, 8), rows_per_side=4)


def test_an_odd_width_is_a_board_of_every_square() -> None:
    geo = geometry((5, 6), board_squares=BoardSquares.ALL, numbering=Numbering.BOTTOM_LEFT)
    assert (geo.squares, geo.coords[5], geo.coords[6]) == (30, (4, 0), (0, 1))


# --- perft: the published counts, both conventions, both cores ---


def _series() -> list[object]:
    return [
        pytest.param(label, counts, id=label)
        for label, _, _, convention, counts in published_series()
        if label in RECTANGLES and convention.startswith("identities")
    ]


@pytest.mark.parametrize(("label", "counts"), _series())
def test_native_core_gives_dctls_published_counts_to_depth_7(label: str, counts: dict[int, int]) -> None:
    from draughts._core.native import native_rules

    rules = native_rules(PUBLISHED_RULES[label])
    start = rules.start()
    wanted = {depth: count for depth, count in counts.items() if depth <= 7}
    assert len(wanted) == 7
    assert {depth: rules.perft(start, depth) for depth in wanted} == wanted
    # Every capture path kept: within depth 7 no two paths share start, end and captured pieces.
    assert {depth: rules.perft(start, depth, True) for depth in wanted} == wanted


@pytest.mark.slow
@pytest.mark.parametrize(("label", "counts"), _series())
def test_native_core_gives_dctls_published_counts_to_depth_9(label: str, counts: dict[int, int]) -> None:
    from draughts._core.native import native_rules

    rules = native_rules(PUBLISHED_RULES[label])
    wanted = {depth: count for depth, count in counts.items() if 7 < depth <= 9}
    assert {depth: rules.perft(rules.start(), depth) for depth in wanted} == wanted


@pytest.mark.parametrize("label", RECTANGLES)
def test_python_and_native_lay_out_the_bits_alike(label: str) -> None:
    from draughts._core.native import native_rules
    from draughts._core.tables import compile_rules

    rules = PUBLISHED_RULES[label]
    python, native = compile_rules(rules), native_rules(rules)
    assert list(native.bit_of_square)[1:] == list(python.bit_of_square)[1:]
    assert native.board == python.board


def test_spantsiretti_perft_agrees_in_both_cores_and_the_oracle() -> None:
    """No count is published for Russian rules on 10x8: the library, the native core and the naive
    oracle, three generators, must agree."""
    from draughts._core.native import native_rules

    start = Position.initial(SPANTSIRETTI)
    library = [draughts.perft(start, depth) for depth in range(1, 5)]
    oracle = naive.perft_counts(naive.initial(SPANTSIRETTI), 4, paths=False)
    rules = native_rules(SPANTSIRETTI)
    assert library == oracle == [rules.perft(rules.start(), depth) for depth in range(1, 5)]
    assert library == [9, 81, 658, 4265]
    assert rules.perft(rules.start(), 6) == rules.perft(rules.start(), 6, True) == 168_316


# --- an invented 6x5 ruleset against the oracle ---


def _identities(position: Position) -> set[naive.Identity]:
    return {move.identity for move in position.legal_moves()}


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_invented_6x5_ruleset_matches_the_oracle(choices: list[int]) -> None:
    position = Position.initial(INVENTED)
    for choice in choices:
        board = naive.board_of(position)
        assert _identities(position) == naive.legal_identities(INVENTED, board, position.turn)
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[choice % len(moves)])


def test_invented_6x5_perft_agrees_with_the_oracle() -> None:
    start = Position.initial(INVENTED)
    oracle = naive.perft_counts(naive.initial(INVENTED), 6, paths=True)
    assert [draughts.perft(start, depth, paths=True) for depth in range(1, 7)] == oracle


# --- named variants, formats and refusals ---


def test_spantsiretti_is_pdn_gametype_41() -> None:
    assert draughts.get_variant("41") is SPANTSIRETTI
    assert SPANTSIRETTI.pdn_gametype_tag == "41,W,10,8,A0,0"
    assert SPANTSIRETTI.capture_separator == ":"
    assert draughts.get_variant("srilankan").shape == "12x12"


def test_pdn_gametype_columns_and_rows_are_read_and_written() -> None:
    from draughts import pdn

    game = pdn.parse_game('[GameType "41,W,10,8,A0,0"]\n1. c3-d4 f6-e5 2. d4:f6 *')
    assert game.ruleset is SPANTSIRETTI
    text = pdn.write_game(game)
    assert '[GameType "41,W,10,8,A0,0"]' in text
    assert pdn.parse_game(text).mainline_moves() == game.mainline_moves()
    with pytest.raises(DraughtsError, match="the board is 8x10, but spantsiretti is played on 10x8"):
        pdn.parse_game('[GameType "41,W,8,10,A0,0"]\n1. c3-d4 *')


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_rule_files_write_a_rectangle_as_a_list(fmt: str) -> None:
    text = ruleset_to_text(SPANTSIRETTI, fmt)
    assert ("board_size = [10, 8]" if fmt == "toml" else '"board_size": [10, 8]') in text
    assert ruleset_from_text(text, fmt) == SPANTSIRETTI


def test_a_rule_file_on_a_base_sets_a_rectangle(tmp_path: Path) -> None:
    path = tmp_path / "wide.json"
    path.write_text(
        json.dumps({"base": "russian", "name": "wide", "title": "Russian on 12x8", "board_size": [12, 8]}),
        encoding="utf-8",
    )
    rules = resolve_ruleset(path)
    assert (rules.width, rules.height, rules.men_per_side) == (12, 8, 18)


def test_fen_and_move_text_round_trip_on_a_rectangle() -> None:
    board = draughts.Board(PUBLISHED_RULES["ktar-10x11"])
    for index in range(30):
        position = board.position
        assert Position.from_fen(position.ruleset, position.fen()) == position
        assert Position.from_fen(position.ruleset, position.fen(numeric=True)) == position
        moves = position.legal_moves()
        for move in moves:
            assert board.parse_text(board.move_text(move)) == move
        board.push(moves[index % len(moves)])


def test_diagrams_and_svg_have_the_boards_shape() -> None:
    from draughts import svg

    text = str(Position.initial(SPANTSIRETTI))
    assert text.splitlines()[-1].split() == list("abcdefghij")
    assert len([line for line in text.splitlines() if "|" in line]) == 8
    picture = svg.board(Position.initial(SPANTSIRETTI), size=500)
    assert 'width="500" height="410"' in picture  # 10 squares across 450 px, 8 down, 25 px margins
    assert picture.count('class="square dark"') == 40
    assert picture.count('class="coordinate rank"') == 16


def test_tensors_have_the_boards_shape() -> None:
    pytest.importorskip("numpy")
    from draughts.ai import tensors

    encoding = tensors.encoding(SPANTSIRETTI)
    observation = tensors.observation(Position.initial(SPANTSIRETTI))
    assert observation.shape == encoding.observation_shape == (8, 10, len(encoding.planes))
    assert observation[..., 0].sum() == 15  # the side to move's men
    with pytest.raises(DraughtsError, match=r"cannot serve 'ktar-10x11'.*10x11"):
        tensors.encoding(PUBLISHED_RULES["ktar-10x11"])


def test_dxp_refuses_a_board_it_cannot_describe() -> None:
    from draughts.dxp.board_text import check_board
    from draughts.errors import DXPError

    with pytest.raises(DXPError, match="'spantsiretti' is played on 10x8 \\(40 squares\\)"):
        check_board(SPANTSIRETTI)


@pytest.mark.parametrize("label", ["spantsiretti", "ktar-10x11"])
def test_endgame_tables_build_on_rectangles(label: str, tmp_path: Path) -> None:
    """King against king, each side to move: every placement counted and each verdict agrees with
    the table's own best move (a win's best move leads to a loss for the other side)."""
    from draughts.endgame import Tablebase

    rules = SPANTSIRETTI if label == "spantsiretti" else PUBLISHED_RULES[label]
    base = Tablebase(rules, tmp_path)
    base.build("KvK")
    squares = rules.squares
    for side in ("white", "black"):
        stats = base.stats("KvK")[side]
        assert stats["positions"] == squares * (squares - 1)
        assert stats["win"] + stats["draw"] + stats["loss"] == stats["positions"]
    won = Position.from_fen(rules, base.stats("KvK")["white"]["longest_win_fen"])
    verdict = base.probe(won)
    assert verdict.result == "win"
    assert verdict.plies is not None
    after = won.play(base.best_moves(won)[0])
    assert after.is_over() or base.probe(after).result == "loss"


@pytest.mark.parametrize(
    ("argv", "shows"),
    [
        (["rules", "spantsiretti"], "10x8"),
        (["compare", "spantsiretti", "russian"], "10x8"),
        (["perft", "spantsiretti", "3"], "perft(3) = 658"),
        (["show", "41"], "a b c d e f g h i j"),
    ],
)
def test_the_commands_take_the_80_square_game(argv: list[str], shows: str) -> None:
    import io

    from draughts.cli import main

    out = io.StringIO()
    assert main(argv, out) == 0
    assert shows in out.getvalue()
