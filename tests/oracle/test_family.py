"""The rest of the draughts family against published and peer-computed perft (tests/data/perft-family.json).

Each entry of the file says where its number comes from and its convention: duplicate capture
paths kept (``paths=True``) or dropped. Peer-computed numbers (py-draughts, pydraughts) are used
where no published number exists, except where the peer is known to be wrong: pydraughts lets a
Turkish king's quiet move pass over its own piece (its perft 5 is 85,146; kish's published 85,090).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

import draughts
from conftest import load_json

FAMILY = load_json("perft-family.json")
FAST_LEAVES = 300_000
SLOW_LEAVES = 5_000_000


def _position(variant: str, fen: object) -> draughts.Position:
    text = str(fen)
    rules = draughts.get_variant(variant)
    if variant == "thai" and text.startswith("W:W21,"):
        # dctl's Thai numbers start from the 12-men checkers position: Thai rules, three rows of men.
        rules = attrs.evolve(rules, name="thai-12", rows_per_side=3)
    if text.startswith(("W:", "B:")):
        return draughts.Position.from_fen(rules, text.split(" ")[0])
    return draughts.Position.initial(rules)


def _cases(low: int, high: int) -> list[tuple[str, str, int, bool, int, str]]:
    cases = []
    for variant, entries in FAMILY.items():
        if variant not in draughts.VARIANTS:
            continue  # Sri Lankan, the weakly sourced variants, other board shapes
        for entry in entries:
            count, depth, convention = entry.get("count"), entry.get("depth"), str(entry.get("convention")).lower()
            fen, source = str(entry.get("fen")), str(entry.get("source"))
            if count is None or "(real thai start)" in fen:
                continue
            if variant == "turkish" and "kish" not in source:
                continue  # the pydraughts numbers (see the module docstring)
            paths = "kept" in convention or "counts actions" in convention or "move paths" in convention
            if low < count <= high:
                cases.append((variant, fen, depth, paths, count, source.split(" ")[0][:60]))
    return cases


def _id(case: tuple[str, str, int, bool, int, str]) -> str:
    variant, fen, depth, paths, _, _ = case
    where = "start" if not fen.startswith(("W:", "B:")) else fen[:12]
    return f"{variant}-{where}-d{depth}-{'keep' if paths else 'dedup'}"


@pytest.mark.parametrize("case", _cases(0, FAST_LEAVES), ids=_id)
def test_family_perft(case: tuple[str, str, int, bool, int, str]) -> None:
    variant, fen, depth, paths, count, _ = case
    assert draughts.perft(_position(variant, fen), depth, paths=paths) == count


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases(FAST_LEAVES, SLOW_LEAVES), ids=_id)
def test_family_perft_deep(case: tuple[str, str, int, bool, int, str]) -> None:
    variant, fen, depth, paths, count, _ = case
    assert draughts.perft(_position(variant, fen), depth, paths=paths) == count


ORACLE_ONLY = {
    "spantsiretti": "no published counts: checked against the naive oracle (tests/rules/test_rectangular.py)",
}
"""Named family variants whose perft no one has published, and the check they have instead."""


def test_every_named_family_variant_has_published_or_peer_counts() -> None:
    covered = {case[0] for case in _cases(0, FAST_LEAVES)}
    assert covered | set(ORACLE_ONLY) == set(draughts.VARIANTS) - set(draughts.rules.variants.FEDERATION_VARIANTS)
    assert not covered & set(ORACLE_ONLY)


def test_the_known_peer_bug_is_excluded_not_matched() -> None:
    """pydraughts' Turkish perft 5 (85,146) is one of its bugs; kish's published 85,090 is right."""
    assert draughts.perft(draughts.Position.initial("turkish"), 5, paths=True) == 85_090


# --- Turkish beyond depth 6: kish counts a king's straight-on capture once per landing square ---

TURKISH = load_json("perft-turkish.json")


def _turkish_moves(position: draughts.Position) -> list[str]:
    """The legal moves as restriction-9 paths followed by the captured squares, as the data file writes them."""
    name = position.ruleset.square_name
    return sorted(
        "x".join(map(name, move.path)) + " " + " ".join(map(name, move.captured))
        for move, _ in draughts.divide(position, 1, paths=True)
    )


@pytest.mark.parametrize("entry", TURKISH["divide"]["positions"], ids=lambda entry: entry["fen"].split(":")[1][-12:])
def test_turkish_positions_where_kish_counts_more_have_their_moves(entry: dict[str, Any]) -> None:
    """The positions the depth-7 divide against kish walks down to, reached by the recorded lines:
    one move per path, fewer than kish's actions (it lists some twice or three times)."""
    for line in entry["reached_by"]:
        board = draughts.Board("turkish")
        for text in line:
            board.push(board.parse_text(text))
        assert board.position.fen() == entry["fen"]
    position = draughts.Position.from_fen("turkish", entry["fen"])
    assert _turkish_moves(position) == entry["legal"]
    # kish's actions, in its own notation, are those moves, some of them listed more than once.
    board = draughts.Board("turkish", entry["fen"])
    assert len(entry["kish_lists"]) == entry["kish_actions"]
    assert {board.parse_text(text) for text in entry["kish_lists"]} == set(board.legal_moves)
    count = draughts.perft(position, 1)
    assert count == draughts.perft(position, 1, paths=True) == len(entry["legal"]) < entry["kish_actions"]


def test_turkish_king_taking_two_pieces_on_one_line_is_one_move_per_end_square() -> None:
    """The simplest form of those positions: the king may stop on c5 or d5 between b5 and e5 (kish
    lists each capture twice), but either way it takes b5 then e5 and ends on f5, g5 or h5; both
    intermediate squares are accepted as the text of the one move."""
    board = draughts.Board("turkish", "W:WKa5:Bb5,e5")
    assert _turkish_moves(board.position) == ["a5xc5xf5 b5 e5", "a5xc5xg5 b5 e5", "a5xc5xh5 b5 e5"]
    assert board.parse_text("a5xd5xf5") == board.parse_text("a5xc5xf5") == board.parse_text("a5xf5")


def test_the_recorded_turkish_divide_accounts_for_the_whole_difference() -> None:
    """kish's perft 7 minus ours is the sum, over the recorded lines, of its extra actions."""
    excess = sum(
        len(entry["reached_by"]) * (entry["kish_actions"] - len(entry["legal"]))
        for entry in TURKISH["divide"]["positions"]
    )
    depth = str(TURKISH["divide"]["depth"])
    assert excess == TURKISH["kish"]["counts"][depth] - TURKISH["counts"]["paths"][depth] == 74


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
@pytest.mark.parametrize("paths", [True, False], ids=["paths", "identities"])
def test_turkish_perft_7_and_8(depth: int, paths: bool) -> None:
    """10,782,308 and 123,285,642 in both conventions: kish's counts with its repeated actions
    merged, and the oracle's (tests/data/perft-turkish.json says how each was cross-checked)."""
    counts = TURKISH["counts"]["paths" if paths else "identities"]
    assert draughts.perft(draughts.Position.initial("turkish"), depth, paths=paths) == counts[str(depth)]


FAMILY_NAMES = [name for name in draughts.VARIANTS if name not in draughts.rules.variants.FEDERATION_VARIANTS]


@pytest.mark.parametrize("variant", FAMILY_NAMES)
def test_random_games_round_trip_through_notation_fen_and_pdn(variant: str) -> None:
    """Seeded random games in each family variant: every move's text reads back as the move, every
    position's FEN reads back as the position, and the game's PDN reads back to the same moves."""
    from draughts import pdn

    rng = random.Random(variant)
    for _ in range(3):
        board = draughts.Board(variant)
        while board.outcome() is None and len(board) < 160:
            position = board.position
            assert draughts.Position.from_fen(variant, position.fen()) == position
            for move in position.legal_moves:
                assert board.parse_text(board.move_text(move)) == move
                assert board.parse_text(board.move_text(move, long=True)) == move
            board.push(rng.choice(list(board.legal_moves)))
        game = pdn.Game.from_board(board, {"Event": "round trip"})
        again = pdn.parse_game(pdn.write_game(game))
        assert again.ruleset is board.ruleset
        assert again.mainline_moves() == game.mainline_moves()


SCRIPT = Path(sys.executable).parent / "draughts"


@pytest.mark.parametrize("variant", FAMILY_NAMES)
def test_a_whole_game_through_draughts_play(variant: str, tmp_path: __import__("pathlib").Path) -> None:
    """Computer against computer through the real command, to the end; the saved game replays to
    the same end on a Board."""
    from draughts import pdn

    target = tmp_path / "game.pdn"
    done = subprocess.run(
        [
            str(SCRIPT),
            "play",
            variant,
            "--white",
            "computer:beginner",
            "--black",
            "computer:beginner",
            "--seed",
            "3",
            "--save",
            str(target),
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "Game over:" in done.stdout
    game = pdn.parse_game(target.read_text(encoding="utf-8"))
    assert game.ruleset is draughts.VARIANTS[variant]
    outcome = game.end().board().outcome()
    assert outcome is not None
    assert outcome.result == game.result


@pytest.mark.parametrize("variant", [*FAMILY_NAMES, "normal", "bt", "losing"])
def test_games_through_the_hub_server(variant: str) -> None:
    """Scan's names (normal, killer, bt, frisian, losing) and ours, through the real Hub server."""
    from draughts.engine import Limit
    from draughts.hub import HubEngine

    client = HubEngine([sys.executable, "-m", "draughts.hub"], timeout=30)
    try:
        client.init(variant)
        board = draughts.Board(variant)
        for _ in range(6):
            if board.outcome() is not None:
                break
            result = client.go(board, Limit(depth=2))
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        client.quit()
