"""Endgame tablebases: materials, the index, published counts, the API and its refusals."""

from __future__ import annotations

from math import comb
from pathlib import Path

import attrs
import pytest

import draughts
from draughts import Position
from draughts.endgame import Material, Tablebase, TablebaseError, build_order, dependencies
from draughts.endgame.index import Indexer
from draughts.endgame.tablebase import masks_of


@pytest.fixture(scope="module")
def american(tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    tb = Tablebase("american", tmp_path_factory.mktemp("american"))
    tb.build("KvK")
    return tb


def test_american_king_against_king_matches_ed_trice(american: Tablebase) -> None:
    """Ed Trice's published count for English checkers, king against king with the first player
    (Black) to move: 992 positions (32 * 31, the two kings on distinct squares), 230 wins, 654
    draws, 108 losses, the longest win 11 plies."""
    stats = american.stats("KvK")["black"]
    assert (stats["positions"], stats["win"], stats["draw"], stats["loss"]) == (992, 230, 654, 108)
    assert stats["longest_win"] == 11
    example = Position.from_fen("american", stats["longest_win_fen"])
    assert american.probe(example).plies == 11


def test_longest_win_is_played_out_by_best_moves(american: Tablebase) -> None:
    position = Position.from_fen("american", american.stats("KvK")["black"]["longest_win_fen"])
    plies = 0
    while not position.is_over():
        verdict = american.probe(position)
        assert verdict.plies == 11 - plies
        assert verdict.result == ("win" if plies % 2 == 0 else "loss")
        position = position.play(american.best_moves(position)[0])
        plies += 1
    assert plies == 11
    assert position.winner() is draughts.BLACK


def test_material_names() -> None:
    assert Material.parse("KKKvK") == Material((0, 3), (0, 1))
    assert Material.parse("kmvk").name == "MKvK"
    assert Material.parse("MvM").pieces == 2
    assert str(Material.parse("MMKvK").mirrored()) == "KvMMK"
    for bad in ("", "KK", "KvKvK", "KXvK", "v", 3):
        with pytest.raises(TablebaseError, match="material"):
            Material.parse(bad)  # type: ignore[arg-type]


def test_material_follows_first_player() -> None:
    """``KKvK`` is the first player's two kings: Black's in American, White's in Russian."""
    material = Material.parse("KKvK")
    assert material.counts(draughts.get_variant("american")) == (0, 0, 1, 2)
    assert material.counts(draughts.get_variant("russian")) == (0, 0, 2, 1)


def test_dependency_dag() -> None:
    rules = draughts.get_variant("russian")
    graph = dependencies(rules, ["MMvK"])
    # A crowning, or the king taking a man; taking the king would leave a side empty (game over).
    assert graph[Material.parse("MMvK")] == sorted([Material.parse("MKvK"), Material.parse("MvK")])
    waves = build_order(graph)
    seen: set[Material] = set()
    for wave in waves:
        for material in wave:
            assert set(graph[material]) <= seen
        seen |= set(wave)
    assert Material.parse("KvK") in waves[0]


@pytest.mark.parametrize(
    ("variant", "material"),
    [("american", "MvK"), ("russian", "MMvK"), ("italian", "MvMK"), ("international", "MvM"), ("turkish", "MvM")],
)
def test_index_is_dense_and_one_to_one(variant: str, material: str) -> None:
    indexer = Indexer(draughts.get_variant(variant), Material.parse(material))
    seen = set()
    for white, black, kings in indexer.placements_of():
        for turn in (0, 1):
            index = indexer.index(white, black, kings, turn)
            assert 0 <= index < indexer.size
            seen.add(index)
    assert len(seen) == indexer.positions()
    # Holes only where men of both colours would share a square.
    assert indexer.size - len(seen) < indexer.size // 10 + 1


def _colex(squares: list[int], domain: list[int]) -> int:
    """The colex rank of a set of squares among ``domain`` (ascending), as the index module states it."""
    return sum(comb(domain.index(square), nth) for nth, square in enumerate(sorted(squares), 1))


@pytest.mark.parametrize(
    ("variant", "material"), [("american", "MKvK"), ("russian", "KKvMK"), ("italian", "MMvKK"), ("american", "KKvK")]
)
def test_index_is_the_documented_mixed_radix_rank(variant: str, material: str) -> None:
    # Table files store values in this order: a faster ranker must give the very same numbers.
    rules = draughts.get_variant(variant)
    indexer = Indexer(rules, Material.parse(material))
    board = [bit for bit in range(indexer.board.bit_length()) if indexer.board >> bit & 1]

    def bits(mask: int) -> list[int]:
        return [bit for bit in board if mask >> bit & 1]

    areas = [bits(indexer.men_squares[0]), bits(indexer.men_squares[1])]
    for number, (white, black, kings) in enumerate(indexer.placements_of()):
        if number % 7:
            continue
        men = ~kings
        occupied = bits((white | black) & men)
        white_free = [bit for bit in board if bit not in occupied]
        black_free = [bit for bit in white_free if bit not in bits(white & kings)]
        digits = [
            _colex(bits(white & men), areas[0]),
            _colex(bits(black & men), areas[1]),
            _colex(bits(white & kings), white_free),
            _colex(bits(black & kings), black_free),
        ]
        rank = 0
        for digit, radix in zip(digits, indexer.radix, strict=True):
            rank = rank * radix + digit
        for turn in (0, 1):
            assert indexer.index(white, black, kings, turn) == turn * indexer.placements + rank


def test_kings_only_material_has_no_hole() -> None:
    indexer = Indexer(draughts.get_variant("american"), Material.parse("KvK"))
    assert indexer.size == indexer.positions() == 2 * 32 * 31


def test_every_position_answers_including_captures(american: Tablebase) -> None:
    tb = american
    capture = Position.from_fen("american", "B:WK10:BK14")  # Black's king must take
    assert capture.has_capture()
    assert tb.probe(capture) == tb.probe(capture).__class__("win", 1, "win")
    lone = Position.from_fen("american", "W:W:BK14")  # White has nothing left: lost
    assert tb.probe(lone).result == "loss"
    assert tb.probe(lone).plies == 0
    only = Position.from_fen("american", "B:W:BK14")  # Black moves, then White has no move
    assert (tb.probe(only).result, tb.probe(only).plies) == ("win", 1)


def test_probe_refuses_other_rules_and_missing_tables(american: Tablebase) -> None:
    with pytest.raises(TablebaseError, match="russian"):
        american.probe(Position.from_fen("russian", "W:WKa1:BKh8"))
    with pytest.raises(TablebaseError, match="no table of KKvK"):
        american.probe(Position.from_fen("american", "B:WK1:BK5,K9"))


def test_renamed_ruleset_shares_tables(american: Tablebase) -> None:
    renamed = attrs.evolve(american.rules, name="mine", title="My checkers")
    assert Tablebase(renamed, american.directory).has("KvK")
    changed = attrs.evolve(american.rules, king_range=draughts.KingRange.FLYING)
    assert not Tablebase(changed, american.directory).has("KvK")


def test_frisian_mixed_sides_refused_naming_the_field(tmp_path: Path) -> None:
    tb = Tablebase("frisian", tmp_path)
    with pytest.raises(TablebaseError, match="king_move_limit"):
        tb.build("MKvK")
    with pytest.raises(TablebaseError, match="king_move_limit"):
        tb.build("MMvK")  # a crowning leads to MKvK
    assert not list(tmp_path.iterdir())
    tb.build("KvK")  # kings alone carry no count
    assert tb.has("KvK")


def test_breakthrough_kings_refused(tmp_path: Path) -> None:
    tb = Tablebase("breakthrough", tmp_path)
    with pytest.raises(TablebaseError, match="crowning_wins"):
        tb.build("KvM")


def test_too_large_refused_before_building(tmp_path: Path) -> None:
    tb = Tablebase("international", tmp_path, max_positions=1000)
    with pytest.raises(TablebaseError, match=r"of international has [0-9,]+ entries, more than max_positions=1,000"):
        tb.build(pieces=3)
    assert not list(tmp_path.iterdir())


def test_build_pieces_builds_every_material(tmp_path: Path) -> None:
    tb = Tablebase("american", tmp_path)
    built = tb.build(pieces=2)
    assert sorted(m.name for m in built) == ["KvK", "KvM", "MvK", "MvM"]
    assert tb.build(pieces=2) == []  # already there


def test_best_moves_keep_the_value(american: Tablebase) -> None:
    for fen in ("B:WK29:BK28", "W:WK29:BK28", "B:WK1:BK32"):
        position = Position.from_fen("american", fen)
        verdict = american.probe(position)
        for move in american.best_moves(position):
            child = american.probe(position.play(move))
            if verdict.result == "draw":
                assert child.result == "draw"
            else:
                assert child.result != verdict.result
                assert child.plies == verdict.plies - 1  # type: ignore[operator]


def test_masks_round_trip() -> None:
    position = Position.from_fen("russian", "B:WKa1,c3:BKh8,f6")
    white, black, kings, turn = masks_of(position)
    assert (white.bit_count(), black.bit_count(), kings.bit_count(), turn) == (2, 2, 2, 1)


def short_rule_checkers(moves: int) -> draughts.Ruleset:
    """American checkers with an automatic draw after ``moves`` moves each without a man's move
    or a capture (the real rule is 40 moves, on claim)."""
    return attrs.evolve(
        draughts.get_variant("american"),
        name=f"american-{moves}",
        draw_rules=draughts.DrawRules(move_counts=(draughts.MoveCountRule(moves),)),
    )


def bounded(position: Position, plies: int, memo: dict[tuple[Position, int], str]) -> str:
    """The result when the game is drawn once ``plies`` more plies have passed (what the draw
    rule does to king-only play), by plain recursion."""
    key = (position, plies)
    if key not in memo:
        winner = position.winner()
        if winner is not None:
            memo[key] = "win" if winner is position.turn else "loss"
        elif plies == 0:
            memo[key] = "draw"
        else:
            results = set()
            for move in position.legal_moves():
                child = position.play(move)
                # A capture leaves the material and restarts the count (no move of kings alone
                # is a man's move): KvK's captures end the game at once.
                results.add(bounded(child, plies - 1 if not move.captured else 10**6, memo))
            memo[key] = "win" if "loss" in results else "draw" if "draw" in results else "loss"
    return memo[key]


def test_within_rules_follows_a_move_count_rule(tmp_path: Path) -> None:
    """Under a 3-move rule (6 plies), a king-against-king win is a win within the rules exactly
    when the bounded game (drawn after 6 plies) is won; the pure values are unchanged."""
    rules = short_rule_checkers(3)
    tb = Tablebase(rules, tmp_path)
    tb.build("KvK")
    assert tb.stats("KvK")["black"]["win"] == 230
    within = tb.stats("KvK")["black"]["within_rules"]
    assert within["win"] < 230
    memo: dict[tuple[Position, int], str] = {}
    indexer = tb.table("KvK").indexer
    from draughts.endgame.table import fen_of

    checked = 0
    for white, black, kings in indexer.placements_of():
        for turn in (0, 1):
            position = Position.from_fen(rules, fen_of(rules, white, black, kings, turn))
            verdict = tb.probe(position)
            assert verdict.within_rules == bounded(position, 6, memo), position.fen()
            if verdict.result == "win" and verdict.plies <= 6:  # type: ignore[operator]
                assert verdict.within_rules == "win"
            checked += 1
    assert checked == 1984


def test_within_rules_known_with_men(tmp_path: Path) -> None:
    """With men on the board the verdicts within the rules are known too (the 40-move rule counts
    plies since a man moved: the table says how it counted); ``test_endgame_within.py`` checks
    them against play under the rules."""
    tb = Tablebase("american", tmp_path)
    tb.build("MvK")
    assert tb.table("MvK").header["within_rules"]["counts"] == "men"
    assert tb.table("MvK").header["within_rules"]["plies_since_a_man_moved"] == 80
    stats = tb.stats("MvK")
    for side in ("white", "black"):
        within = stats[side]["within_rules"]
        assert within is not None
        assert sum(within.values()) == stats[side]["positions"]
    from draughts.endgame.table import fen_of

    for white, black, kings in tb.table("MvK").indexer.placements_of():
        for turn in (0, 1):
            verdict = tb.probe(Position.from_fen("american", fen_of(tb.rules, white, black, kings, turn)))
            # The rule can only draw a game: and a game decided within 80 plies never meets it.
            assert verdict.within_rules in (verdict.result, "draw")
            if verdict.plies is not None and verdict.plies <= 80:
                assert verdict.within_rules == verdict.result


def test_within_rules_same_without_draw_rules(tmp_path: Path) -> None:
    tb = Tablebase("american-losing", tmp_path)
    tb.build("MvK")
    rules = tb.rules
    assert not rules.draw_rules.move_counts
    assert not rules.draw_rules.endgames
    for fen in ("B:WK1:B25", "W:WK1:B25", "B:WK10:B14"):
        verdict = tb.probe(Position.from_fen(rules, fen))
        assert verdict.within_rules == verdict.result


def test_within_rules_unknown_where_captures_keep_a_count(tmp_path: Path) -> None:
    rules = attrs.evolve(
        draughts.get_variant("american"),
        name="american-odd",
        draw_rules=draughts.DrawRules(move_counts=(draughts.MoveCountRule(3, reset_by_capture=False),)),
    )
    tb = Tablebase(rules, tmp_path)
    tb.build("KvK")
    assert tb.probe(Position.from_fen(rules, "B:WK29:BK28")).within_rules is None
    assert tb.stats("KvK")["black"]["within_rules"] is None


def test_mirror_material_read_from_its_mirror(tmp_path: Path) -> None:
    """Without KvM's table, KvM positions are read from MvK's (colours swapped, board turned):
    the same verdicts as KvM's own table, for every position, and the same best moves."""
    only = Tablebase("american", tmp_path / "only")
    only.build("MvK")
    both = Tablebase("american", tmp_path / "both")
    both.build(["MvK", "KvM"])
    assert not only.has("KvM")
    from draughts.endgame.table import fen_of

    indexer = both.table("KvM").indexer
    for number, (white, black, kings) in enumerate(indexer.placements_of()):
        for turn in (0, 1):
            position = Position.from_fen("american", fen_of(both.rules, white, black, kings, turn))
            assert only.probe(position) == both.probe(position), position.fen()
            if number % 50 == 0:
                assert only.best_moves(position) == both.best_moves(position)
