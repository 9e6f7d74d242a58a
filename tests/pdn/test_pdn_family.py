"""Real games of the draughts family, replayed with each variant's rules.

The files under tests/data/games/<variant>/ for Frisian, Frysk!, Antidraughts, Breakthrough, Turkish,
pool and Portuguese are copies or faithful conversions of public game records (sources, licences and
conversions in tests/data/README.md). Every move must be legal; where the rules end a game, the
file's result must name the same winner; a game must not go on after the rules end it, except where
lidraughts applies a different, documented draw rule.
"""

from __future__ import annotations

import functools

import pytest

import draughts
from conftest import DATA
from draughts import BLACK, Board, Position, Termination, pdn
from draughts.notation import move_text
from draughts.pdn import PDNIllegalMoveError, PDNUnknownVariantError
from draughts.rules.variants import FEDERATION_VARIANTS

GAMES = DATA / "games"

FAMILY = {
    # file: (games, plies, games whose last position ends the game by the rules and whose result is given)
    "frisian/py-draughts-lidraughts-frisian-movetext.pdn": (14, 957, 2),
    "frisian/pydraughts-test-variants-frisian.pdn": (1, 122, 0),
    "frisian/strategygames-tests-frisian.pdn": (1, 65, 1),
    "frysk/py-draughts-lidraughts-frysk.pdn": (25, 1289, 18),
    "frysk/pydraughts-test-variants-frysk.pdn": (1, 66, 0),
    "frysk/strategygames-tests-frysk.pdn": (1, 46, 1),
    "antidraughts/py-draughts-lidraughts-antidraughts.pdn": (25, 1384, 16),
    "antidraughts/pydraughts-test-variants-antidraughts.pdn": (1, 80, 1),
    "antidraughts/strategygames-tests-antidraughts.pdn": (1, 68, 1),
    "breakthrough/py-draughts-lidraughts-breakthrough.pdn": (25, 2245, 12),
    "breakthrough/pydraughts-test-variants-breakthrough.pdn": (1, 109, 0),
    "breakthrough/strategygames-tests-breakthrough.pdn": (1, 38, 1),
    "turkish/pydraughts-test-variants-turkish.pdn": (1, 19, 0),
    "pool/games-checkers-3-vs-1-king-theory.pdn": (1, 25, 0),
    "pool/strategygames-tests-pool.pdn": (2, 58, 0),
    "portuguese/strategygames-tests-portuguese.pdn": (2, 105, 2),
}

PLAYED_ON = {
    # Games that go on after the rules end them: Frisian art. 21 (as the rules are read here) draws one
    # king each at once when neither can capture; lidraughts plays two more moves each first.
    ("frysk/py-draughts-lidraughts-frysk.pdn", 3): 79,
    ("frysk/py-draughts-lidraughts-frysk.pdn", 7): 69,
    ("frysk/py-draughts-lidraughts-frysk.pdn", 11): 54,
    ("frysk/py-draughts-lidraughts-frysk.pdn", 18): 56,
    ("frysk/pydraughts-test-variants-frysk.pdn", 1): 62,
}
"""(file, game) -> plies after which the rules end the game; the file goes on for four more plies."""


@functools.cache
def games_of(name: str) -> tuple[pdn.Game, ...]:
    """The games of a sample file, read (and so replayed) once for all the tests here."""
    return tuple(pdn.read_games(GAMES / name, name.split("/")[0]))


def test_every_family_file_is_listed() -> None:
    """Every sample outside the federation variants' folders (test_pdn.py reads those) is listed here."""
    federation = {*FEDERATION_VARIANTS, "english"}
    found = [path for path in GAMES.glob("*/*.pdn") if path.parent.name not in federation]
    assert sorted(f"{path.parent.name}/{path.name}" for path in found) == sorted(FAMILY)


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_every_move_is_legal_and_the_result_fits_the_rules(name: str) -> None:
    games = games_of(name)  # errors="raise": an illegal move would fail here, naming the ply
    expected_games, expected_plies, expected_ended = FAMILY[name]
    assert len(games) == expected_games
    assert sum(len(game.mainline_moves()) for game in games) == expected_plies
    ended = 0
    for game in games:
        assert game.ruleset is draughts.get_variant(name.split("/")[0])
        board = game.end().board()  # each move legal in turn, again, through Board.push
        outcome = board.outcome()
        if outcome is not None and game.result != "*":
            ended += 1
            assert outcome.winner == game.winner, (game.index, game.result, outcome)
    assert ended == expected_ended


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_no_game_goes_on_after_the_rules_end_it(name: str) -> None:
    for game in games_of(name):
        board = Board.from_position(game.position)
        for ply, move in enumerate(game.mainline_moves()):
            outcome = board.outcome()
            if outcome is not None:
                assert PLAYED_ON.get((name, game.index)) == ply, (game.index, ply, outcome)
                assert (outcome.termination, outcome.winner) == (Termination.ENDGAME, None)
                assert "FRI-2011 art. 21" in outcome.rule  # one king each
                assert game.result in ("1-1", "*")
                assert len(game.mainline_moves()) == ply + 4
                break
            board.push(move)
        else:
            assert (name, game.index) not in PLAYED_ON


@pytest.mark.parametrize("name", sorted(FAMILY))
def test_every_game_writes_and_reads_back(name: str) -> None:
    for game in games_of(name):
        again = pdn.parse_game(pdn.write_game(game), game.ruleset)
        assert (again.mainline_moves(), again.result, again.position) == (
            game.mainline_moves(),
            game.result,
            game.position,
        )
        assert again.headers == game.export_headers()


# --- lidraughts' tags ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("antidraughts/py-draughts-lidraughts-antidraughts.pdn", "98"),
        ("breakthrough/py-draughts-lidraughts-breakthrough.pdn", "96"),
        ("frysk/py-draughts-lidraughts-frysk.pdn", "97"),
    ],
)
def test_lidraughts_gametype_numbers_name_their_variants(name: str, number: str) -> None:
    """lidraughts tags Antidraughts 98, Breakthrough 96 and Frysk! 97, numbers PDN 3.0 leaves unassigned."""
    games = list(pdn.read_games(GAMES / name))  # no ruleset=: the GameType tag decides
    variant = draughts.get_variant(name.split("/")[0])
    assert {game.headers["GameType"] for game in games} == {number}
    assert all(game.ruleset is variant for game in games)
    assert draughts.get_variant(number) is variant
    with pytest.raises(draughts.UnknownVariantError):
        draughts.from_gametype(number)  # the PDN 3.0 table has no such number
    with pytest.raises(PDNUnknownVariantError, match=f"lidraughts' number of {variant.name}, not international"):
        pdn.parse_game(f'[GameType "{number}"] 1. 32-28 *', "international")
    written = pdn.write_game(games[0])
    assert f'[GameType "{number}"]' in written  # kept as read (issue 40 §10)
    assert pdn.parse_game(written).ruleset is variant


def test_lidraughts_variant_names() -> None:
    for tag, name in [("Frisian", "frisian"), ("Frysk!", "frysk"), ("Antidraughts", "antidraughts")]:
        assert pdn.parse_game(f'[Variant "{tag}"] *').ruleset is draughts.get_variant(name)
    assert pdn.parse_game('[Variant "Breakthrough"] *').ruleset is draughts.get_variant("breakthrough")


def test_only_numbers_are_gametype_aliases() -> None:
    with pytest.raises(PDNUnknownVariantError):
        pdn.parse_game('[GameType "10x10"] 1. 32-28 *')  # an alias, but no GameType number


def test_lidraughts_frisian_fen_with_king_move_counts() -> None:
    """lidraughts' FEN fields H, F and +counts: the white king on 19 has made its three moves in a row."""
    fen = "W:WK19,27:BK49:H0:F1:+0+319"
    with pytest.raises(PDNIllegalMoveError, match="27-21, 27-22"):
        pdn.parse_game(f'[GameType "40"] [SetUp "1"] [FEN "{fen}"] 1. 19-24 *')
    game = pdn.parse_game(f'[GameType "40"] [SetUp "1"] [FEN "{fen}"] 1. 27-21 *')
    assert game.position == Position.from_fen("frisian", "W:WK19,27:BK49:+0+319")


# --- what the sources assert ----------------------------------------------------------------------


def test_pydraughts_frisian_game_ends_with_the_king_move_limit() -> None:
    """pydraughts asserts the legal moves after its Frisian game: the king on 19 has moved three times."""
    (game,) = games_of("frisian/pydraughts-test-variants-frisian.pdn")
    board = game.end().board()
    assert sorted(str(move) for move in board.legal_moves) == ["27-21", "27-22"]
    assert board.position.fen() == "W:WK19,27:BK49:+0+319"


def test_strategygames_pool_sequences_end_with_the_first_player_to_move() -> None:
    """strategygames asserts that after each sequence the first player (pool: Black) is to move."""
    games = games_of("pool/strategygames-tests-pool.pdn")
    assert [game.end().position.turn for game in games] == [BLACK, BLACK]
    last = games[1].mainline_moves()[-1]  # a man crowned by a capture, which ends there
    assert last.promotes
    assert len(last.captured) == 2


def test_pool_king_theory_variations_replay() -> None:
    """The analysis lines of the 3-against-1 theory replay too; both end where Black takes the last king."""
    (game,) = games_of("pool/games-checkers-3-vs-1-king-theory.pdn")
    checked = 0
    for node in game.mainline():
        assert node.parent is not None
        for side in node.parent.variations[1:]:  # an alternative to the node's move, from the position before it
            board = side.end().board()
            assert board.turn is BLACK
            assert board.legal_moves.count() > 0
            for move in board.legal_moves:
                assert move.captured
                assert board.position.play(move).fen().split(":")[1] == "W"  # White has nothing left
            checked += 1
    assert checked == 2


def test_turkish_game_crowns_by_capture_and_the_king_flies_back() -> None:
    """Black's man takes two men down the a-file and crowns on a1; the new king flies back up the file."""
    (game,) = games_of("turkish/pydraughts-test-variants-turkish.pdn")
    positions = [game.position, *(node.position for node in game.mainline())]
    texts = [move_text(positions[ply], move) for ply, move in enumerate(game.mainline_moves())]
    crowning = [ply for ply, move in enumerate(game.mainline_moves()) if move.promotes]
    assert [texts[ply] for ply in crowning] == ["a5xa1"]
    assert len(game.mainline_moves()[crowning[0]].captured) == 2
    back = game.mainline_moves()[crowning[0] + 2]  # over a2, a3, takes the man on a4, lands two squares beyond it
    assert texts[crowning[0] + 2] == "a1xa6"
    assert len(back.captured) == 1
