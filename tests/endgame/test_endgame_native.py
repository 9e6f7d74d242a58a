"""The native solver (``draughts._native.Endgame``, issue 38 §2): the same index as the Python
``Indexer``, the same values whatever the threads or the way exits are answered, natively packed
sections equal to the Python packing, and values that agree with one ply of minimax over their
children on a sample of a 5-piece material."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest

import draughts
from draughts.endgame import Material, Tablebase, dependencies, storage
from draughts.endgame.codes import DRAW, HOLE, LOSS, WIN
from draughts.endgame.index import Indexer
from draughts.endgame.solve import native_solver, solve
from draughts.endgame.tablebase import _lookup
from draughts.endgame.within import has_draw_rules, known


@pytest.mark.parametrize(
    ("variant", "material"),
    [("american", "MKvK"), ("international", "MvMK"), ("russian", "KKvM"), ("frisian", "MvK"), ("turkish", "MvK")],
)
def test_native_index_is_the_python_index(variant: str, material: str) -> None:
    """Every placement gets the same index natively as in Python (the files depend on it)."""
    rules = draughts.get_variant(variant)
    parsed = Material.parse(material)
    indexer = Indexer(rules, parsed)
    native = native_solver(rules, parsed)
    assert native.size == indexer.size
    placements = list(indexer.placements_of())
    for white, black, kings in random.Random(38).sample(placements, min(3000, len(placements))):
        for turn in (0, 1):
            assert native.index(white, black, kings, turn) == indexer.index(white, black, kings, turn)


def _built(variant: str, material: str, tmp_path: Path) -> tuple[Tablebase, Material]:
    tb = Tablebase(variant, tmp_path)
    parsed = Material.parse(material)
    tb.build([item for item in dependencies(tb.rules, [parsed]) if item != parsed])
    return tb, parsed


@pytest.mark.parametrize(("variant", "material"), [("russian", "MKvK"), ("italian", "MKvM"), ("american", "MvMK")])
def test_threads_and_python_exits_give_the_same_values(variant: str, material: str, tmp_path: Path) -> None:
    """One thread, two threads, and a plain callable as lookup (each exit answered by Python, the
    way a lookup that is not a table lookup is used) solve to the same bytes."""
    tb, parsed = _built(variant, material, tmp_path)
    within = has_draw_rules(tb.rules) and known(tb.rules)
    lookup = _lookup(tb)
    assert Indexer(tb.rules, parsed).size > 2 * 16_384  # more than one chunk of work per thread
    one = solve(tb.rules, parsed, lookup, within, workers=1)
    two = solve(tb.rules, parsed, lookup, within, workers=2)
    called = solve(tb.rules, parsed, lambda *position: lookup(*position), within, workers=2)
    for other in (two, called):
        assert (other.codes, other.plies, other.within) == (one.codes, one.plies, one.within)
    assert all(one.codes.count(code) for code in (WIN, LOSS, DRAW))


def test_a_missing_table_is_named_as_before(tmp_path: Path) -> None:
    tb = Tablebase("russian", tmp_path)
    with pytest.raises(draughts.endgame.TablebaseError, match="needs another first"):
        solve(tb.rules, Material.parse("KKvK"), _lookup(tb))


@pytest.mark.parametrize("bits", [0, 1, 2, 3, 7, 8, 11, 16])
def test_native_packing_is_the_python_packing(bits: int) -> None:
    values = [random.Random(bits).randrange(1 << bits) if bits else 0 for _ in range(1001)]
    python = storage.pack(list(values), bits)  # a list: the Python way
    assert storage.pack(array("H", values), bits) == python
    if bits <= 8:
        assert storage.pack(bytearray(values), bits) == python


def _minimax(tb: Tablebase, position: draughts.Position) -> tuple[str, int | None]:
    """The value of ``position`` from its children's values (one ply of minimax)."""
    best: tuple[int, int] | None = None  # (rank, plies): win 2, draw 1, loss 0
    for move in position.legal_moves():
        child = tb.probe(position.play(move))
        mine = {"loss": (2, -(child.plies or 0) - 1), "win": (0, (child.plies or 0) + 1), "draw": (1, 0)}[child.result]
        best = mine if best is None or mine > best else best
    if best is None:  # no move: the game is over
        return ("win", 0) if tb.rules.no_move_wins else ("loss", 0)
    return {2: ("win", -best[1]), 1: ("draw", None), 0: ("loss", best[1])}[best[0]]


@pytest.mark.parametrize(("variant", "material"), [("russian", "MKKvK"), ("american", "MMvMK")])
def test_five_piece_values_agree_with_their_children(variant: str, material: str, tmp_path: Path) -> None:
    """A sample of a 5-piece material: each value is the best of its children's (checks the
    retrograde spreading and the exits into the 4- and 3-piece tables together)."""
    tb = Tablebase(variant, tmp_path)
    parsed = Material.parse(material)
    tb.build(parsed)
    table = tb.table(parsed)
    rng = random.Random(5)
    placements = list(table.indexer.placements_of())
    seen = {"win": 0, "loss": 0, "draw": 0}
    for white, black, kings in rng.sample(placements, 300):
        for turn in (0, 1):
            code, _ = table.value(white, black, kings, turn)
            assert code != HOLE
            position = draughts.Position.from_bitboards(tb.rules, white, black, kings, draughts.Color(turn))
            verdict = tb.probe(position)
            assert (verdict.result, verdict.plies) == _minimax(tb, position), position.fen()
            seen[verdict.result] += 1
    assert all(seen.values()), seen


@pytest.mark.parametrize(
    ("variant", "material"),
    [
        ("russian", "MKvK"),  # within the rules: "both" counts (k and e)
        ("russian", "MvMK"),
        ("russian", "MKKvK"),  # "both" counts, and an endgame rule by where the pieces stand
        pytest.param("russian", "MKvKK", marks=pytest.mark.slow),
        ("international", "MvMK"),
        ("american", "MMvK"),
        ("american", "MvMK"),
        ("italian", "MKvM"),  # a count a man's move does not restart: the budget passes on
        ("frisian", "MvKK"),
        ("breakthrough", "MvMM"),  # men only, no draw rules
    ],
)
def test_a_sliced_solve_gives_the_whole_solves_values(variant: str, material: str, tmp_path: Path) -> None:
    """Solving slice by slice of the men's placement (men furthest first, a man's move read from
    the slices solved before) gives every value, distance and code within the rules of the whole
    solve, on one thread and two."""
    tb, parsed = _built(variant, material, tmp_path)
    within = has_draw_rules(tb.rules) and known(tb.rules)
    lookup = _lookup(tb)
    whole = solve(tb.rules, parsed, lookup, within, workers=2, sliced=False)
    for workers in (1, 2):
        sliced = solve(tb.rules, parsed, lookup, within, workers=workers, sliced=True)
        assert sliced.codes == whole.codes
        assert sliced.plies == whole.plies
        assert sliced.within == whole.within
    assert all(whole.codes.count(code) for code in (WIN, LOSS))
    if within:
        assert whole.within is not None
        assert whole.within.count(WIN)
        assert whole.within.count(DRAW)


def test_a_man_that_moves_sideways_is_not_sliced() -> None:
    """Turkish men step sideways: no order of the men's placements is safe, so no slices."""
    from draughts.endgame.within import men_advance

    assert men_advance(draughts.get_variant("turkish")) is None
    white, black = men_advance(draughts.get_variant("russian")) or ([], [])
    assert max(white) == 7
    assert max(black) == 7
