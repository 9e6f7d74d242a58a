"""The peer cross-check script's own logic (tools/peer_crosscheck.py), without the peers.

The peers themselves never run here (they live in virtual environments of their own, which CI
does not have): what is tested is the square translation into each peer's notation, the
positions the script builds, and the classification of disagreements, on move lists written by
hand from what the peers answer.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Position


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "peer_crosscheck.py"
    spec = importlib.util.spec_from_file_location("peer_crosscheck", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_crosscheck"] = module  # attrs resolves the module of its classes
    spec.loader.exec_module(module)
    return module


pc = _load()
PAIRS = [(peer, variant) for peer in pc.PEERS.values() for variant in peer.variants]


def _translation(peer: str, variant: str) -> object:
    return pc.Translation(draughts.get_variant(variant), pc.PEERS[peer].variants[variant][1])


def test_the_peer_notations_put_squares_where_the_peers_do() -> None:
    dark = pc.DARK_10.coords()
    # py-draughts: SQUARES = [B10, D10, ..., A1, C1, E1, G1, I1] = range(50)
    assert (dark[0], dark[4], dark[5], dark[45], dark[49]) == ((1, 9), (9, 9), (0, 8), (0, 0), (8, 0))
    turkish = pc.TURKISH_A1.coords()
    # pydraughts' Turkish FEN and moves: a1 = 1, h1 = 8, a2 = 9, a8 = 57, h8 = 64
    assert (turkish[0], turkish[7], turkish[8], turkish[56], turkish[63]) == ((0, 0), (7, 0), (0, 1), (0, 7), (7, 7))


@pytest.mark.parametrize(("peer", "variant"), PAIRS, ids=[f"{p.name}-{v}" for p, v in PAIRS])
def test_translation_is_a_bijection_of_the_squares(peer: object, variant: str) -> None:
    translation = pc.Translation(draughts.get_variant(variant), peer.variants[variant][1])  # type: ignore[attr-defined]
    squares = set(range(1, draughts.get_variant(variant).geometry.squares + 1))
    assert set(translation.to_peer) == squares
    assert set(translation.to_peer.values()) == squares
    assert all(translation.to_ours[translation.to_peer[square]] == square for square in squares)


@pytest.mark.parametrize(
    ("peer", "variant", "fen"),
    [
        # py-draughts: STARTING_POSITION, black men on 0-19, white men on 30-49 (0-based)
        ("py-draughts", "frisian", "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))),
        ("py-draughts", "frysk", "W:W46,47,48,49,50:B1,2,3,4,5"),
        (
            "pydraughts",
            "antidraughts",
            "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21))),
        ),
        # pydraughts' startpos_to_fen: 'W:W46,47,48,49,50:B1,2,3,4,5' for frysk!
        ("pydraughts", "frysk", "W:W46,47,48,49,50:B1,2,3,4,5"),
        # pydraughts stores W41-56:B9-24 (rows reversed); its FEN reader turns a1 = 1 numbers into that
        ("pydraughts", "turkish", "W:W" + ",".join(map(str, range(9, 25))) + ":B" + ",".join(map(str, range(41, 57)))),
    ],
)
def test_start_positions_in_the_peers_own_numbers(peer: str, variant: str, fen: str) -> None:
    translation = _translation(peer, variant)
    assert translation.fen(Position.initial(variant)) == fen  # type: ignore[attr-defined]


def test_moves_and_fens_go_through_the_board_coordinates() -> None:
    """On a ruleset numbered from another corner the translation renumbers (the real peers happen to
    number every variant they share with polydraughts as polydraughts does)."""
    rules = draughts.get_variant("turkish")
    mirrored = attrs.evolve(rules, name="turkish-h1", numbering=draughts.Numbering.BOTTOM_RIGHT)
    translation = pc.Translation(mirrored, pc.TURKISH_A1)
    # In the mirrored numbering square 1 is h1: pydraughts' 8.
    assert translation.to_peer[1] == 8
    position = Position.from_pieces(mirrored, {"a8": draughts.Piece(WHITE, True), "a2": draughts.Piece(WHITE)}, WHITE)
    assert translation.fen(position) == "W:W9,K57:B"
    move = next(move for move in position.legal_moves() if mirrored.square_name(move.end) == "a7")
    assert translation.move(move) == (57, 49, [])
    assert translation.identity([57, 49], []) == move.identity


def _case(variant: str, fen: str, history: tuple[str, ...] = ()) -> tuple[object, set[object]]:
    position = Position.from_fen(variant, fen)
    moves = []
    for text in history:
        move = next(m for m in pc.replay(position, moves).legal_moves() if str(m) == text)
        moves.append(move)
    case = pc.Case(variant, "test", position, tuple(moves))
    return case, {move.identity for move in case.final.legal_moves()}


def test_turkish_king_passing_over_a_piece_is_the_known_pydraughts_bug() -> None:
    case, ours = _case("turkish", "W:WK57,9:B64")
    assert (57, 1, frozenset()) not in ours
    verdict, reason = pc.classify("pydraughts", case, ours, ours | {(57, 1, frozenset())})
    assert verdict == pc.KNOWN_BUG
    assert "passes over pieces" in reason
    # A king move off the rank and file is not that bug, and neither is a missing move.
    assert pc.classify("pydraughts", case, ours, ours | {(57, 50, frozenset())})[0] == pc.UNEXPLAINED
    assert pc.classify("pydraughts", case, ours, ours - {(57, 49, frozenset())})[0] == pc.UNEXPLAINED
    # Only pydraughts has this bug, only in Turkish.
    assert pc.classify("py-draughts", case, ours, ours | {(57, 1, frozenset())})[0] == pc.UNEXPLAINED
    # Enemy pieces it cannot capture do not stop it either: h3-e3 over g3 and f3.
    case, ours = _case("turkish", "B:Wf3,g3:BKh3")
    over_enemies = {(24, end, frozenset()) for end in range(17, 22)}
    assert not ours & over_enemies
    assert pc.classify("pydraughts", case, ours, ours | over_enemies)[0] == pc.KNOWN_BUG


def test_three_kings_against_five_men_is_pydraughts_king_value() -> None:
    case, ours = _case("frisian", "W:W46:BK11,14,20,K21,23,32,K36,41")
    assert ours == {(46, 6, frozenset({11, 21, 36}))}  # FRI-2011 art. 11: three kings > five men
    five_men = {(46, 30, frozenset({14, 20, 23, 32, 41}))}
    assert pc.classify("pydraughts", case, ours, five_men) == (pc.KNOWN_BUG, pc.EXPLANATIONS[1].name)
    assert pc.classify("py-draughts", case, ours, five_men)[0] == pc.UNEXPLAINED
    assert pc.classify("pydraughts", case, ours, ours) == ("agree", "")


def test_captures_lost_to_rounding_are_the_pydraughts_float_bug() -> None:
    case, ours = _case("frisian", "B:W18,K21,29,37,K38:BK7,K11")
    # Both kings take the same five pieces (two kings, three men): pydraughts keeps only king 11's.
    assert {start for start, _, _ in ours} == {7, 11}
    theirs = {move for move in ours if move[0] == 11}
    assert pc.classify("pydraughts", case, ours, theirs)[0] == pc.NEW_BUG
    assert pc.classify("pydraughts", case, ours, set())[0] == pc.UNEXPLAINED
    # Rounding depends on the order only for some mixes of men (1.0) and kings (1.501).
    assert pc.order_matters(3, 2)
    assert pc.order_matters(4, 3)
    assert not pc.order_matters(2, 2)
    assert not pc.order_matters(5, 2)
    assert not pc.order_matters(0, 6)


def test_king_move_limit_unenforced_is_a_py_draughts_limitation() -> None:
    # Black's king goes 37-46-19-14: three quiet moves in a row; a fourth is illegal (FRI-2011 art. 17).
    case, ours = _case("frisian", "B:WK34:B20,K37", ("37-46", "34-7", "46-19", "7-45", "19-14", "45-1"))
    assert case.final.king_moves(BLACK) == (14, 3)
    assert all(start != 14 for start, _, _ in ours)
    unlimited = ours | {(14, end, frozenset()) for end in (3, 5, 9, 10, 19, 23, 28, 32, 37, 41, 46)}
    assert pc.classify("py-draughts", case, ours, unlimited) == (pc.LIMITATION, pc.EXPLANATIONS[3].name)
    assert pc.classify("pydraughts", case, ours, unlimited)[0] == pc.UNEXPLAINED  # pydraughts applies the limit


def test_cases_are_reproducible_and_fit_the_peers() -> None:
    cases = pc.cases_for("frysk", 60, seed=5)
    again = pc.cases_for("frysk", 60, seed=5)
    assert [(c.kind, c.root, c.history) for c in cases] == [(c.kind, c.root, c.history) for c in again]
    assert [c.root for c in pc.cases_for("frysk", 60, seed=6)] != [c.root for c in cases]
    kinds = {case.kind for case in cases}
    assert kinds == {"start", "anchor", "playout", "endgame", "crowd", "king-limit"}
    assert len(cases) >= 60
    for case in cases:
        for color in (WHITE, BLACK):
            assert len(case.root.squares(color)) <= 5  # Frysk! starts with five each
    limited = [case for case in cases if case.kind == "king-limit"]
    assert all(case.history and not any(move.captured for move in case.history) for case in limited)
    assert any((case.final.king_moves(case.final.turn) or (0, 0))[1] >= 3 for case in limited)


def test_breakthrough_cases_have_no_kings() -> None:
    """A breakthrough position with a king has ended (polydraughts lists no moves; the peers do)."""
    for case in pc.cases_for("breakthrough", 40, seed=2):
        assert not case.final.squares(WHITE, kings=True)
        assert not case.final.squares(BLACK, kings=True)


def test_men_are_placed_where_they_can_stand() -> None:
    turkish = draughts.get_variant("turkish")
    # White's men never stand on rank 1 (they start on rank 2 and never go back) nor on rank 8.
    assert not pc.man_may_stand(turkish, WHITE, turkish.parse_square("c1"))
    assert pc.man_may_stand(turkish, WHITE, turkish.parse_square("c2"))
    assert not pc.man_may_stand(turkish, WHITE, turkish.parse_square("c8"))
    assert not pc.man_may_stand(turkish, BLACK, turkish.parse_square("c8"))
    assert pc.man_may_stand(turkish, BLACK, turkish.parse_square("c7"))
    frisian = draughts.get_variant("frisian")
    assert pc.man_may_stand(frisian, WHITE, 46)
    assert not pc.man_may_stand(frisian, WHITE, 1)
