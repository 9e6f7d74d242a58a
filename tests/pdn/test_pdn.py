"""PDN 3.0: reading every quirk of the real-game samples, writing, round trips, errors, fuzzing.

The sample files in tests/data/games are byte-exact copies or excerpts of public game collections
(see tests/data/README.md); nothing here reads outside the repository.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import draughts
import mainline
import strategies
from conftest import DATA
from draughts import BLACK, WHITE, Board, DraughtsError, Move, PDNError, Position, pdn
from draughts.notation import parse_move
from draughts.pdn.game import descendants
from draughts.rules.variants import FEDERATION_VARIANTS

GAMES = DATA / "games"
FOLDER_VARIANTS = {"english": "american"}


def variant_of(path: Path) -> str:
    return FOLDER_VARIANTS.get(path.parent.name, path.parent.name)


SAMPLES = sorted(path for path in GAMES.glob("*/*.pdn") if variant_of(path) in FEDERATION_VARIANTS)
"""The federation variants' samples; test_pdn_family.py replays the rest of the family's."""


def sample(folder: str, name: str) -> Path:
    return GAMES / folder / name


def read(folder: str, name: str, **options: str) -> list[pdn.Game]:
    path = sample(folder, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pdn.PDNWarning)  # with errors="skip": tested elsewhere
        return list(pdn.read_games(path, variant_of(path), **options))


def read_skipping(path: Path) -> tuple[list[pdn.Game], list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = list(pdn.read_games(path, variant_of(path), errors="skip"))
    return games, [str(warning.message) for warning in caught if issubclass(warning.category, pdn.PDNWarning)]


def assert_same_game(again: pdn.Game, game: pdn.Game) -> None:
    assert again.ruleset == game.ruleset
    moves, before = again.mainline_moves(), game.mainline_moves()
    assert moves == before  # Move equality is identity: start, end, captured set
    assert [m.path for m in moves] == [m.path for m in before] or all(
        a == b for a, b in zip(moves, before, strict=True)
    )
    assert again.result == game.result
    assert again.position == game.position
    assert again.headers == game.export_headers()
    assert mainline.comments(again) == mainline.comments(game)
    assert mainline.nags(again) == mainline.nags(game)
    assert again.same_tree(game)  # every side line, comment, NAG and command
    assert again.preamble == game.preamble


# --- reading: the sample collections ----------------------------------------------------------

EXPECTED = {
    # file: (games read, games with moves, games skipped)
    "international/games-checkers-candidate95.pdn": (8, 8, 0),
    "international/pdn-standard-fail-delfts.pdn": (2, 2, 0),
    "international/pdn-standard-kurnik.pdn": (4, 4, 0),
    "international/pdn-standard-nk-ronde-02.pdn": (7, 7, 0),
    "international/pdn-standard-090417ronde12.pdn": (7, 7, 0),
    "international/pdn-standard-windragon.pdn": (1, 1, 0),
    "international/pdn-standard-prof2.pdn": (16, 16, 0),
    "international/lidraughts-importer-perftest-sample.pdn": (1, 1, 0),
    "international/pdn-standard-schildpad-excerpt.pdn": (8, 8, 0),
    "international/wiegerw-draughts-wiersma-excerpt.pdn": (7, 4, 0),
    "international/games-checkers-cannes-open-tournament-2002-excerpt.pdn": (6, 6, 0),
    "international/games-checkers-nk2003-amsterdam-excerpt.pdn": (3, 3, 0),
    "international/pdn-standard-fail-40camp-dama-internazionale-assoluto-excerpt.pdn": (4, 4, 0),
    "international/games-checkers-dutch96h-excerpt.pdn": (4, 4, 0),
    "english/checkerboard-tinsley-excerpt.pdn": (10, 10, 3),
    "english/games-checkers-british-computer-championship-2002.pdn": (16, 16, 0),
    "english/pdn-standard-oca-2.0-excerpt.pdn": (12, 12, 0),
    "english/pdn-standard-inferno-excerpt.pdn": (8, 8, 0),
    "english/pdn-standard-principles-of-strategy.pdn": (16, 16, 0),
    "english/py-draughts-playstrategy-american.pdn": (30, 30, 0),
    "italian/pdn-standard-campionato-assoluto-2005-excerpt.pdn": (7, 7, 0),
    "italian/games-checkers-ci98-fero-excerpt.pdn": (6, 6, 0),
    "italian/games-checkers-ci98-perani-excerpt.pdn": (6, 5, 0),
    "italian/games-checkers-partite-excerpt.pdn": (8, 8, 0),
    "russian/games-checkers-world-championship-1998-excerpt.pdn": (10, 10, 0),
    "russian/games-checkers-abatsiev-excerpt.pdn": (6, 6, 1),
    "russian/games-checkers-russian-test.pdn": (3, 3, 0),
    "russian/pdn-standard-ussr1947-excerpt.pdn": (8, 8, 0),
    "russian/py-draughts-lidraughts-russian-movetext.pdn": (9, 9, 0),
    "brazilian/py-draughts-lidraughts-brazilian.pdn": (25, 25, 0),
    "czech/pdn-standard-mrcd2000kval-excerpt.pdn": (6, 6, 0),
    "czech/pdn-standard-mrcd2006-excerpt.pdn": (4, 4, 0),
    "czech/pdn-standard-mrcd2007-excerpt.pdn": (5, 2, 0),
    "czech/pdn-standard-fail-mrdrcd07-excerpt.pdn": (5, 4, 0),
    "czech/games-checkers-mr-ceska-dama-druzstev-2008-excerpt.pdn": (3, 2, 0),
}


def test_every_sample_is_listed() -> None:
    assert sorted(f"{p.parent.name}/{p.name}" for p in SAMPLES) == sorted(EXPECTED)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_replays(path: Path) -> None:
    games, skipped = read_skipping(path)
    expected = EXPECTED[f"{path.parent.name}/{path.name}"]
    assert (len(games), sum(1 for g in games if g.mainline_moves()), len(skipped)) == expected
    for game in games:
        board = game.end().board()  # every move legal in turn
        assert board.move_stack == game.mainline_moves()
        assert game.ruleset.name == variant_of(path)
        assert game.result == pdn.normalise_result(game.result)


def test_reading_streams_games_one_at_a_time() -> None:
    text = sample("english", "pdn-standard-oca-2.0-excerpt.pdn").read_text(encoding="ascii")
    lines_read = 0

    class Counting(io.StringIO):
        def __next__(self) -> str:
            nonlocal lines_read
            lines_read += 1
            return super().__next__()

    games = pdn.read_games(Counting(text), "american")
    first = next(games)
    assert first.headers["Event"] == "Manchester 1841"
    assert lines_read < 20 < text.count("\n")
    assert len(list(games)) == 11


def test_headers_keep_file_order_and_values() -> None:
    game = read("english", "pdn-standard-oca-2.0-excerpt.pdn")[0]
    assert list(game.headers) == ["Event", "Date", "Black", "White", "Site", "Result"]
    assert game.headers["Date"] == "1841-??-??"
    assert game.index == 1
    assert game.line == 1


# --- layout quirks ---


def test_crlf_and_full_gametype_with_n1() -> None:
    games = read("international", "pdn-standard-kurnik.pdn")
    assert games[0].headers["GameType"] == "20,W,10,10,N1,0"
    assert games[0].ruleset is draughts.get_variant("international")
    assert all("\r" not in value for game in games for value in game.headers.values())
    assert games[0].result == "0-1"


def test_file_level_comment_is_the_first_games_preamble() -> None:
    games = read("international", "games-checkers-dutch96h-excerpt.pdn")
    assert games[0].preamble == ["Dutch championship 1996"]
    assert games[1].preamble == []
    assert games[0].headers["GameType"] == "20"


def test_padded_squares() -> None:
    game = read("international", "games-checkers-candidate95.pdn")[0]
    assert game.mainline_moves()[7] == Move(1, 7)  # "4. 41-37  1- 7"
    schildpad = read("international", "pdn-standard-schildpad-excerpt.pdn")[1]
    assert (schildpad.mainline_moves()[40].start, schildpad.mainline_moves()[40].end) == (35, 4)  # "21. 35x 4"


def test_zero_padded_numbers_and_match_scores() -> None:
    first, second = read("international", "pdn-standard-fail-delfts.pdn")
    assert first.mainline_moves()[11] == Move(6, 11)  # "06. 42-37  06-11"
    assert (first.result, second.result) == ("4-6", "1-9")  # scores that look like moves
    assert len(first.mainline_moves()) == 128
    assert first.headers["WhiteClock"] == "2:47"


def test_move_numbers_glued_to_moves_and_partial_movetexts() -> None:
    games = read("international", "wiegerw-draughts-wiersma-excerpt.pdn")
    assert games[0].mainline_moves()[:2] == [Move(33, 28), Move(18, 22)]  # "1.33-28 18-22"
    assert games[0].result == "1-1"  # the movetext ends '*', the tag has the result
    empty = [game for game in games if not game.mainline_moves()]
    assert [game.result for game in empty] == ["0-2", "2-0", "2-0"]


def test_black_move_numbers_and_ellipsis_placeholder() -> None:
    game = read("international", "pdn-standard-windragon.pdn")[0]
    assert game.result == "*"
    assert game.end().comment.endswith("[%drgnode 152 152]")  # after "77. ..."
    assert game.next().comment.startswith("[%drgnode")


def test_international_results_and_free_text_dates() -> None:
    games = read("international", "pdn-standard-090417ronde12.pdn")
    assert games[0].headers["Date"] == "17 april 2009"
    assert {game.result for game in games} <= {"2-0", "1-1", "0-2"}
    assert [game.winner for game in games if game.result == "2-0"] == [WHITE] * sum(
        game.result == "2-0" for game in games
    )


def test_clock_comments_after_every_ply() -> None:
    game = read("international", "lidraughts-importer-perftest-sample.pdn")[0]
    assert len(game.mainline_moves()) > 250
    assert all(node.comment.startswith("[%clock") for node in list(game.mainline())[:-1])
    assert game.end().comment.endswith("Black resigns.")
    assert game.result == "2-0"


def test_latin1_and_utf8_files() -> None:
    cannes = read("international", "games-checkers-cannes-open-tournament-2002-excerpt.pdn")
    names = " ".join(value for game in cannes for value in game.headers.values())
    assert "ç" in names or "é" in names
    assert "\ufffd" not in names
    camp = read("international", "pdn-standard-fail-40camp-dama-internazionale-assoluto-excerpt.pdn")
    assert camp[0].headers["Event"] == "40° Campionato Italiano di Dama Internazionale"
    ussr = read("russian", "pdn-standard-ussr1947-excerpt.pdn")
    assert ussr[0].headers["White"] == "Блиндер Б."


def test_cp1251_file_is_detected(tmp_path: Path) -> None:
    text = '[White "Иванов И."]\n[Black "Петров П."]\n[GameType "25"]\n\n1. c3-d4 f6-g5 { Хорошо } *\n'
    path = tmp_path / "cp1251.pdn"
    path.write_bytes(text.encode("cp1251"))
    game = next(pdn.read_games(path))
    assert game.headers["White"] == "Иванов И."
    assert mainline.comments(game) == {2: "Хорошо"}
    latin = tmp_path / "latin1.pdn"
    latin.write_bytes('[White "François Müller"]\n1. 32-28 *\n'.encode("latin-1"))
    assert next(pdn.read_games(latin)).headers["White"] == "François Müller"
    mixed = tmp_path / "mixed.pdn"  # one UTF-8 line, one Latin-1 line
    mixed.write_bytes('[White "Zoë"]\n'.encode() + '[Black "Zoë"]\n1. 32-28 *\n'.encode("latin-1"))
    assert next(pdn.read_games(mixed)).headers == {"White": "Zoë", "Black": "Zoë"}
    forced = next(pdn.read_games(latin, encoding="latin-1"))
    assert forced.headers["White"] == "François Müller"


def test_binary_and_text_streams() -> None:
    data = '\ufeff[White "Zoë"]\r\n1. 32-28 19-23 *\r\n'.encode()
    game = next(pdn.read_games(io.BytesIO(data)))
    assert game.headers == {"White": "Zoë"}
    assert len(game.mainline_moves()) == 2
    assert next(pdn.read_games(io.StringIO(data.decode("utf-8")))).headers == {"White": "Zoë"}
    old_mac = next(pdn.read_games(io.BytesIO(b'[White "A"]\r1. 32-28\r19-23 *\r')))
    assert len(old_mac.mainline_moves()) == 2


def test_line_comments_escape_and_tags_on_one_line() -> None:
    text = '% a line comment: [Event "not a tag"]\n[Event "E"][Site "S"]\n1. 32-28 {c} 19-23 *'
    game = pdn.parse_game(text)
    assert game.headers == {"Event": "E", "Site": "S"}
    assert mainline.comments(game) == {1: "c"}


def test_plain_moves_written_with_x_and_captures_with_dash() -> None:
    tinsley = read("english", "checkerboard-tinsley-excerpt.pdn", errors="skip")[0]
    assert not tinsley.mainline_moves()[6].captured  # "4. 10x14" is a plain move
    british = read("english", "games-checkers-british-computer-championship-2002.pdn")
    assert sum(1 for game in british for move in game.mainline_moves() if move.captured) > 100  # all written with '-'
    prof = read("international", "pdn-standard-prof2.pdn")
    assert all(game.end().board() for game in prof)


def test_prose_in_parentheses_no_move_numbers_and_raw_backslashes() -> None:
    game = read("english", "games-checkers-british-computer-championship-2002.pdn")[0]
    assert game.headers["Comment"] == r"C:\nemesis\games\BHAM 2002\bham01.xml"
    assert any('("Roberto\'s" ...) is dropped' in warning for warning in game.warnings)  # prose, not moves
    assert game.result == "0-1"  # from the tag: the movetext has no result
    assert game.mainline_moves()[0] == Move(9, 13)


def test_variations_are_replayed_into_the_tree() -> None:
    game = read("international", "pdn-standard-nk-ronde-02.pdn")[1]
    assert len(game.mainline_moves()) == int(game.headers["PlyCount"])
    assert any("$902" in node.nags for node in descendants(game))
    first = pdn.parse_game("1. 32-28 (1. 33-28 {why not ) here} (1. 31-27) 18-23) 19-23 *")
    assert [node.san() for node in first.variations] == ["32-28", "33-28", "31-27"]
    assert first.variations[1].comment == "why not ) here"
    assert first.variations[1].variations[0].san() == "18-23"
    assert first.mainline_moves() == [Move(32, 28), Move(19, 23)]


def test_nags_and_marks() -> None:
    game = pdn.parse_game("1. 32-28! 19-23?! $2 2. 28x19(?) $14 14x23 *")
    assert mainline.nags(game) == {1: ["!"], 2: ["?!", "$2"], 3: ["(?)", "$14"]}
    assert len(game.mainline_moves()) == 4
    assert "1. 32-28! 19-23?! $2 2. 28x19(?) $14 14x23 *" in pdn.write_game(game)


def test_comments_stay_with_the_move_they_follow() -> None:
    game = read("english", "pdn-standard-principles-of-strategy.pdn")[1]
    assert mainline.comments(game)[10] == "Not the best see no. 3, 4 and 5."
    assert mainline.comments(game)[11] == "To support man on 19"


# --- results ---


def test_colon_results_and_russian_short_notation() -> None:
    games = read("russian", "games-checkers-world-championship-1998-excerpt.pdn")
    assert games[0].headers["Result"] == "1/2:1/2"
    assert [game.result for game in games[:3]] == ["1/2-1/2", "0-1", "1/2-1/2"]
    assert games[0].mainline_moves()[0] == parse_move(Position.initial("russian"), "e3-d4")  # "1. ed4"


def test_malformed_and_unquoted_tags() -> None:
    wc = read("russian", "games-checkers-world-championship-1998-excerpt.pdn")
    assert [game.headers["Round"] for game in wc[-3:]] == ["10.4", "11.1", "11.2"]  # [Round "11.1] ...
    test = read("russian", "games-checkers-russian-test.pdn")
    assert test[1].headers["Round"] == "17"
    assert test[1].headers["Game"] == "# 612"
    assert test[0].preamble == ["Three games with different results and format to test the replay ability."]
    assert test[1].mainline_moves()[0] == parse_move(Position.initial("russian"), "e3-d4")  # "1.E3-D4"


def test_tag_and_movetext_results_disagree_the_tag_wins() -> None:
    last = read("international", "games-checkers-candidate95.pdn")[-1]
    assert last.result == "0-1"
    assert "1/2-1/2" in last.warnings[0]
    camp = read("international", "pdn-standard-fail-40camp-dama-internazionale-assoluto-excerpt.pdn")
    assert camp[0].result == "0-1"
    assert camp[-1].result == camp[-1].headers["Result"]  # no result in its movetext


def test_result_only_in_the_movetext() -> None:
    games = read("russian", "py-draughts-lidraughts-russian-movetext.pdn")
    assert all(game.headers == {} for game in games)
    assert {game.result for game in games} <= {"2-0", "0-2", "1-1"}


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("1-0", "1-0"),
        ("0:1", "0-1"),
        ("1/2:1/2", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
        (" 2 - 0 ", "2-0"),
        ("1-1", "1-1"),
        ("0-0", "0-0"),
        ("*", "*"),
        ("1 1/2 - 1/2", "1 1/2-1/2"),
        ("4-6", "4-6"),
        ("?", None),
        ("", None),
        ("Bianco vince", None),
    ],
)
def test_normalise_result(text: str, normal: str | None) -> None:
    assert pdn.normalise_result(text) == normal


def test_result_tokens_of_both_types_end_tagless_games() -> None:
    text = "1. 32-28 2-0 1. 33-28 0-0 1. 31-27 1:0 1. 34-29 1/2-1/2 1. 34-30 *"
    games = list(pdn.read_games(io.StringIO(text)))
    assert [game.result for game in games] == ["2-0", "0-0", "1-0", "1/2-1/2", "*"]
    assert all(len(game.mainline_moves()) == 1 for game in games)


# --- the American result convention ---


def test_american_one_nil_means_the_first_player_black_wins() -> None:
    """Worked out from the files: terminal positions in the playstrategy games, material elsewhere."""
    by_outcome: Counter[tuple[str, str]] = Counter()
    for game in read("english", "py-draughts-playstrategy-american.pdn"):
        outcome = game.end().board().outcome()
        if outcome is not None:  # the loser has no legal move
            by_outcome[(game.result, str(outcome.winner))] += 1
            assert game.winner is outcome.winner
    assert by_outcome == {("1-0", "black"): 9, ("0-1", "white"): 11}
    material: Counter[tuple[str, str]] = Counter()
    for name in ("checkerboard-tinsley-excerpt.pdn", "pdn-standard-oca-2.0-excerpt.pdn"):
        for game in read("english", name, errors="skip"):
            end = game.end().position
            white, black = len(end.squares(WHITE)), len(end.squares(BLACK))
            if game.result in ("1-0", "0-1") and white != black:
                material[(game.result, "black ahead" if black > white else "white ahead")] += 1
    assert material["1-0", "black ahead"] > material["1-0", "white ahead"]
    assert material["0-1", "white ahead"] > material["0-1", "black ahead"]
    assert pdn.result_for("american", BLACK) == "1-0"
    assert pdn.winner_of("american", "0-1") is WHITE
    assert pdn.winner_of("international", "2-0") is WHITE
    assert pdn.winner_of("czech", "1-1") is None


def test_algebraic_american_is_read_from_the_first_players_side() -> None:
    game = read("english", "py-draughts-playstrategy-american.pdn")[0]
    assert game.headers["P1"] == "mxnslyy"
    assert game.mainline_moves()[0] == Move(11, 15)  # "1. c3-d4": Black's (first player's) c3-d4 is our f6-e5


def test_split_multi_jumps_are_merged() -> None:
    game = read("english", "py-draughts-playstrategy-american.pdn")[6]
    move = game.mainline_moves()[11]
    assert len(move.captured) == 2  # "e5xc3 7. c3xa1" is one black move
    assert any("split multi-jump 'e5xc3 c3xa1'" in note for note in game.warnings)


# --- start positions ---


def test_numeric_fen_without_setup() -> None:
    game = read("russian", "pdn-standard-ussr1947-excerpt.pdn")[0]
    assert game.headers["FEN"].endswith(".")
    assert "SetUp" not in game.headers
    assert game.position == Position.initial("russian")
    assert "FEN" not in game.export_headers()


def test_algebraic_fen_of_lidraughts() -> None:
    game = read("brazilian", "py-draughts-lidraughts-brazilian.pdn")[0]
    assert game.headers["FEN"].startswith("W:Wa3,c3")
    assert game.position == Position.initial("brazilian")


def test_setup_position_and_black_to_move() -> None:
    text = '[SetUp "1"]\n[FEN "B:W28,K45:B10,19"]\n[GameType "20"]\n\n1... 19-23 2. 28x19 10-14 *'
    game = pdn.parse_game(text)
    assert game.position == Position.from_fen("international", "B:W28,K45:B10,19")
    assert len(game.mainline_moves()) == 3
    written = pdn.write_game(game)
    assert '[SetUp "1"]\n[FEN "B:W28,K45:B10,19"]' in written
    assert "1... 19-23 2. 28x19 10-14 *" in written
    assert pdn.parse_game(written).mainline_moves() == game.mainline_moves()


def test_setup_zero_ignores_the_fen() -> None:
    game = pdn.parse_game('[SetUp "0"]\n[FEN "W:W28:B10"]\n1. 32-28 *')
    assert game.position == Position.initial("international")


# --- ambiguity ---


def test_ambiguous_from_to_captures_settled_by_later_moves() -> None:
    games = read("international", "pdn-standard-schildpad-excerpt.pdn")
    assert [not game.warnings for game in games] == [True] * 8
    wc = read("russian", "games-checkers-world-championship-1998-excerpt.pdn")
    assert all(not game.warnings for game in wc)


def test_a_later_move_decides_between_two_captures() -> None:
    # The PDN 3.0 example: 47x36 takes 42, 29, 31 and either 14 or 19; the black move after it
    # shows which man is still there.
    fen = "W:WK47:B14,19,29,31,42"
    took_14 = pdn.parse_game(f'[FEN "{fen}"]\n1. 47x36 19-23 *')
    assert set(took_14.mainline_moves()[0].captured) == {42, 29, 14, 31}
    took_19 = pdn.parse_game(f'[FEN "{fen}"]\n1. 47x36 14-20 *')
    assert set(took_19.mainline_moves()[0].captured) == {42, 29, 19, 31}
    assert took_14.warnings == took_19.warnings == []


def test_ambiguous_last_move_takes_the_first_or_raises() -> None:
    games = read("italian", "pdn-standard-campionato-assoluto-2005-excerpt.pdn")
    game = games[5]
    assert game.headers["Black"] == "MAIJNELLI Michele"
    assert "no later move can settle it" in game.warnings[0]
    assert "3x10x17x26" in pdn.write_game(game)  # written in long form
    with pytest.raises(pdn.PDNAmbiguousMoveError, match=r"game 6 .*line 86: ply 26 \(13\.\.\. 3x26\)") as error:
        read("italian", "pdn-standard-campionato-assoluto-2005-excerpt.pdn", ambiguous_end="raise")
    assert isinstance(error.value, draughts.AmbiguousMoveError)
    assert error.value.ply == 26


def test_ambiguity_left_open_by_later_moves_is_an_error() -> None:
    text = '[FEN "W:WK47,50:B14,19,29,31,42,1"]\n1. 47x36 1-6 2. 50-45 6-11 *'
    with pytest.raises(pdn.PDNAmbiguousMoveError, match=r"line 2: ply 1 \(1\. 47x36\): .*it may be 47x38x2") as caught:
        pdn.parse_game(text)
    assert "47x38x20x9x36" in str(caught.value)
    assert "47x38x24x13x36" in str(caught.value)


# --- the Italian tags ---


def test_italian_tag_names() -> None:
    game = read("italian", "pdn-standard-campionato-assoluto-2005-excerpt.pdn")[0]
    assert game.headers["White"] == "BORGHETTI Michele"
    assert game.headers["Black"] == "MASCOLO Luca"
    assert game.result == "1-0"
    assert game.headers["Dati"] == "69° ASSOLUTO 1° TURNO"
    assert game.end().comment == "Bianco Vince"
    assert game.ruleset.name == "italian"


# --- errors ---


def test_tinsley_game_541_is_an_illegal_move_at_its_ply() -> None:
    path = sample("english", "checkerboard-tinsley-excerpt.pdn")
    with pytest.raises(pdn.PDNIllegalMoveError) as caught:
        list(pdn.read_games(path, "american"))
    error = caught.value
    assert (error.game, error.ply, error.move) == (6, 123, "32-28")
    assert error.headers["Event"] == "Petal 1981, game 18"
    message = str(error)
    assert message.startswith("game 6 (White 'M Tinsley', Black 'AA Long', Event 'Petal 1981, game 18'), line 69:")
    assert "ply 123 (62. 32-28)" in message  # 122 plies played before it
    assert "legal moves: 16-19, 16-20, 28-24, 28-32, 29-25" in message
    assert isinstance(error, draughts.IllegalMoveError)
    assert isinstance(error, DraughtsError)


def test_skip_warns_and_goes_on() -> None:
    games, skipped = read_skipping(sample("english", "checkerboard-tinsley-excerpt.pdn"))
    assert [game.index for game in games] == [1, 2, 3, 4, 5, 7, 8, 10, 11, 13]
    assert len(skipped) == 3
    assert skipped[1].startswith(
        "skipped game 9 (White 'MF Tinsley', Black 'DM Lafferty', Event 'Petal 1987, game 15')"
    )
    assert "line 98: unexpected text '8-11Redoversteppedthetimecontrolonthismove.'" in skipped[1]
    assert "line 128" in skipped[2]


def test_raise_stops_at_the_first_bad_game_after_yielding_the_good_ones() -> None:
    reader = pdn.read_games(sample("english", "checkerboard-tinsley-excerpt.pdn"), "american")
    good = [next(reader) for _ in range(5)]
    assert len(good) == 5
    with pytest.raises(PDNError, match="game 6"):
        next(reader)


def test_unknown_moves_are_reported() -> None:
    games, skipped = read_skipping(sample("russian", "games-checkers-abatsiev-excerpt.pdn"))
    assert len(games) == 6
    assert skipped == [
        "skipped game 6 (White 'Abaciev N.', Black 'Lebedev Ju.', Event 'XXXIII pervenstvo SSSR'), line 103: "
        "ply 1 (1. -): the move is unknown ('-'), so the game cannot be replayed"
    ]


def test_unknown_gametype() -> None:
    text = '[Event "E"]\n[White "W"]\n[GameType "42"]\n1. 32-28 *'
    with pytest.raises(pdn.PDNUnknownVariantError, match=r"^game 1 \(White 'W', Event 'E'\), line 3: unknown GameType"):
        pdn.parse_game(text)


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ('[Event "x"]\n1. 32-28 {open comment\n19-23 *', "game 1 (Event 'x'), line 2", "unterminated comment"),
        ('[Event "x"]\n1. 32-28 (19-23\n *', "game 1 (Event 'x'), line 2", "unterminated variation"),
        ('[Event "x"]\n1. 32-28 19-23 ) *', "game 1 (Event 'x'), line 2", "unmatched ')'"),
        ('[Event "x"]\n\n1. 32-28 } *', "game 1 (Event 'x'), line 3", "unmatched '}'"),
        ('[Event "x"]\n1. 32-28 hello *', "game 1 (Event 'x'), line 2", "unexpected text 'hello'"),
        ('[Event "x"]\n1. 32-28 /FEN "W:W1:B2"/ *', "game 1 (Event 'x'), line 2", "unexpected text"),
        ("[Event\n1. 32-28 *", "game 1, line 1", "malformed tag"),
        ('[White "w"]\n[FEN "W:W99:B1"]\n1. 32-28 *', "game 1 (White 'w'), line 2", "bad FEN tag"),
        (
            '[Black "b"]\n1. 32-28 19-23\n2. 28-22 *',
            "game 1 (Black 'b'), line 3",
            "ply 3 (2. 28-22): move '28-22' is not legal in W:W",
        ),
        ('[Event "x"]\n1. 32-28 19-93 *', "game 1 (Event 'x'), line 2", "ply 2 (1... 19-93): move '19-93'"),
    ],
)
def test_errors_name_the_game_and_line(text: str, where: str, message: str) -> None:
    with pytest.raises(PDNError) as caught:
        pdn.parse_game(text)
    assert str(caught.value).startswith(where + ": ")
    assert caught.value.game == 1
    assert caught.value.line == int(where.rpartition(" ")[2])
    assert message in str(caught.value)


def test_a_broken_comment_does_not_swallow_the_next_games() -> None:
    text = '[Event "a"]\n1. 32-28 {never closed\n\n[Event "b"]\n1. 33-28 *\n\n[Event "c"]\n1. 31-27 *\n'
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        games = list(pdn.read_games(io.StringIO(text), errors="skip"))
    assert [game.headers["Event"] for game in games] == ["b", "c"]
    assert "unterminated comment opened on line 2" in str(caught[0].message)


def test_no_game() -> None:
    with pytest.raises(PDNError, match="no game"):
        pdn.parse_game("   \n{just a comment}\n")


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="errors"):
        pdn.read_games(io.StringIO(""), errors="ignore")
    with pytest.raises(draughts.UnknownVariantError):
        pdn.read_games(io.StringIO(""), ruleset="chess")
    with pytest.raises(ValueError, match="ambiguous_end"):
        pdn.read_games(io.StringIO(""), ambiguous_end="guess")
    assert pdn.parse_game("1. 32-28 *", None).ruleset.name == "international"  # None: PDN's usual default
    assert pdn.parse_game("1. 24-20 *", draughts.get_variant("italian")).mainline_moves() == [Move(24, 20)]


# --- writing ---


def test_write_layout() -> None:
    game = read("english", "pdn-standard-principles-of-strategy.pdn")[1]
    text = pdn.write_game(game)
    lines = text.splitlines()
    assert lines[:5] == [
        '[Event "Dyke example 2"]',
        '[Date ""]',
        '[White ""]',
        '[Black "Dyke"]',
        '[Result "1/2-1/2"]',
    ]
    assert lines[5] == '[GameType "21,B,8,8,N1,0"]'
    assert all(len(line) <= 80 for line in lines)
    assert "17-13 {Not the best see no. 3, 4 and 5.} 6. 4-8 {To support man on 19} 6... 22-18" in " ".join(lines)
    assert text.endswith("1/2-1/2\n")


def test_the_pdn_ambiguity_example_is_written_long() -> None:
    position = Position.from_fen("international", "W:WK47:B14,19,29,31,42")
    for move in position.legal_moves():
        game = pdn.Game("international", {}, position, [move], "*")
        text = pdn.write_game(game)
        assert ("47x38x24x13x36" in text) or ("47x38x20x9x36" in text)
        assert pdn.parse_game(text).mainline_moves()[0].captured == move.captured


def test_write_from_board() -> None:
    board = Board("american", fen="W:W18:B14")  # White to move must take, then Black has nothing
    board.push_text("18x9")
    game = pdn.Game.from_board(board, {"Event": "test", "Result": "?"})
    assert game.result == "0-1"  # White, the second player, won
    assert game.headers["Result"] == "0-1"
    again = pdn.parse_game(pdn.write_game(game))
    assert_same_game(again, game)
    assert again.winner is WHITE
    unfinished = pdn.Game.from_board(Board("russian"))
    assert unfinished.result == "*"
    assert pdn.write_game(unfinished) == '[GameType "25,W,8,8,A0,0"]\n\n*\n'


def test_write_escapes_tags_and_braces_in_comments() -> None:
    game = pdn.Game("czech", {"Event": 'The "big" one \\ 2', "Bad name!": "x", "Multi": "a\nb"})
    game.comment = "a } b"
    text = pdn.write_game(game)
    assert '[Event "The \\"big\\" one \\\\ 2"]' in text
    again = pdn.parse_game(text)
    assert again.headers == {
        "Event": 'The "big" one \\ 2',
        "GameType": "29,W,8,8,A0,0",
        "Bad_name_": "x",
        "Multi": "a b",
    }
    assert again.comment == "a ) b"


def test_write_games_to_a_stream_and_a_path(tmp_path: Path) -> None:
    games = read("czech", "pdn-standard-fail-mrdrcd07-excerpt.pdn")
    stream = io.StringIO()
    assert pdn.write_games(games, stream) == len(games)
    again = list(pdn.read_games(io.StringIO(stream.getvalue())))
    for one, two in zip(games, again, strict=True):
        assert_same_game(two, one)
    path = tmp_path / "out.pdn"
    pdn.write_games(games, path, numeric=True)
    numeric = list(pdn.read_games(path))
    assert [game.mainline_moves() for game in numeric] == [game.mainline_moves() for game in games]
    assert "1. 22-18" in path.read_text(encoding="utf-8")


def test_written_illegal_move_is_an_error() -> None:
    with pytest.raises(draughts.IllegalMoveError, match="ply 1"):
        pdn.Game("international", moves=[Move(20, 25)])


# --- round trips on every sample file ---


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_round_trip(path: Path) -> None:
    games, _ = read_skipping(path)
    for game in games:
        text = pdn.write_game(game)
        again = pdn.parse_game(text, game.ruleset)
        assert_same_game(again, game)
        assert pdn.write_game(again) == text  # a fixed point
    stream = io.StringIO()
    pdn.write_games(games, stream)
    assert [g.mainline_moves() for g in pdn.read_games(io.StringIO(stream.getvalue()), variant_of(path))] == [
        g.mainline_moves() for g in games
    ]


# --- round trips of random games in every kind of ruleset ---

WORDS = st.text(alphabet="abcdefghXYZ0123456789 .,:;!?-'%[]{\"\t\n", max_size=40)
RESULTS = st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "4-6", "1 1/2-1/2"])
TAG_NAMES = st.sampled_from(
    ["Event", "Site", "White", "Black", "Round", "Date", "Result", "GameType", "FEN"]
) | st.text(alphabet="ABCabcxyz019_ !", min_size=1, max_size=8)


def normal_comment(text: str) -> str:
    return " ".join(text.replace("}", ")").split())


def random_game_round_trip(data: st.DataObject) -> None:
    """A random game (any ruleset, any start, random tags and notes) reads back from its PDN."""
    rules = data.draw(strategies.rulesets)
    start = data.draw(st.one_of(st.just(Position.initial(rules)), strategies.positions(rules)))
    moves: list[Move] = []
    position = start
    for _ in range(data.draw(st.integers(0, 30))):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        moves.append(move)
        position = position.play(move)
    plies = st.integers(0, len(moves))
    game = pdn.Game(
        rules,
        data.draw(st.dictionaries(TAG_NAMES, st.text(max_size=20).filter(lambda v: "\n" not in v and "\r" not in v))),
        start,
        moves,
        data.draw(RESULTS),
        preamble=data.draw(st.lists(WORDS.map(normal_comment), max_size=2)),
    )
    line = mainline.nodes(game)
    for ply, texts in data.draw(
        st.dictionaries(plies, st.lists(WORDS.map(normal_comment), min_size=1, max_size=2))
    ).items():
        line[ply].set_comment(" ".join(" ".join(texts).split()))
    if moves:
        marks = st.lists(st.sampled_from(["!", "?!", "$1", "$13"]), min_size=1)
        for ply, notes in data.draw(st.dictionaries(st.integers(1, len(moves)), marks)).items():
            # marks glued to the move first, then NAGs, as the writer puts them
            line[ply].nags = [a for a in notes if not a.startswith("$")] + [a for a in notes if a.startswith("$")]
    for ply in data.draw(st.lists(st.integers(1, max(1, len(moves))), max_size=3)) if moves else []:
        parent = line[ply - 1]
        others = [move for move in parent.position.legal_moves() if not parent.has_variation(move)]
        if others:
            parent.add_variation(others[data.draw(st.integers(0, len(others) - 1))], comment="why?")
    numeric = data.draw(st.booleans())
    text = pdn.write_game(game, numeric=numeric)
    again = pdn.parse_game(text, rules)
    assert again.mainline_moves() == game.mainline_moves()
    assert again.position == game.position
    assert again.result == game.result
    assert again.headers == game.export_headers()
    assert again.same_tree(game)
    assert again.preamble == game.preamble
    assert pdn.write_game(again, numeric=numeric) == text


@settings(max_examples=60, deadline=timedelta(seconds=10), suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_games_round_trip(data: st.DataObject) -> None:
    random_game_round_trip(data)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_games_round_trip_long(data: st.DataObject) -> None:
    random_game_round_trip(data)


# --- fuzzing: only DraughtsError, never anything else, never a hang ---

PDN_ALPHABET = st.sampled_from(
    [*'0123456789-x:.*/{}()[]" \n\t\r$!?%;KWBabcdefgh½×', "1-0", "2-0", "1/2-1/2", '[Event "e"]\n', "1. "]
)
SAMPLE_TEXTS = [path.read_bytes().decode("utf-8", "replace") for path in SAMPLES if path.stat().st_size < 8000]


def consume(text: str, variant: str = "international") -> None:
    with contextlib.suppress(DraughtsError):
        for _ in pdn.read_games(io.StringIO(text), variant):
            pass


fuzz = settings(max_examples=150, deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])


@fuzz
@given(st.lists(PDN_ALPHABET, max_size=80).map("".join), st.sampled_from(sorted(draughts.VARIANTS)))
def test_fuzz_garbage_pdn(text: str, variant: str) -> None:
    consume(text, variant)


@fuzz
@given(st.text(max_size=300))
def test_fuzz_any_text(text: str) -> None:
    consume(text)


@fuzz
@given(st.sampled_from(SAMPLE_TEXTS), st.data())
def test_fuzz_truncated_and_mutated_samples(text: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(text)))
    consume(text[:cut])
    where = data.draw(st.integers(0, len(text)))
    insert = data.draw(st.sampled_from(["{", "}", "(", ")", "[", "]", '"', "x", "-", "1", " ", "\n", "%"]))
    mutated = text[:where] + insert + text[where + 1 :]
    consume(mutated)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        list(pdn.read_games(io.StringIO(mutated), errors="skip"))  # skip never raises a PDNError


@fuzz
@given(
    st.sampled_from(sorted(draughts.VARIANTS)),
    st.one_of(
        st.text(max_size=60), st.lists(st.sampled_from(list("WBK:,-.0123456789abcdefghx ?")), max_size=40).map("".join)
    ),
)
def test_fuzz_fen(variant: str, text: str) -> None:
    with contextlib.suppress(DraughtsError):
        Position.from_fen(variant, text)


@fuzz
@given(
    st.sampled_from(sorted(draughts.VARIANTS)),
    st.one_of(
        st.text(max_size=30), st.lists(st.sampled_from(list("0123456789-x:abcdefghX ×!?")), max_size=20).map("".join)
    ),
)
def test_fuzz_move_text(variant: str, text: str) -> None:
    with contextlib.suppress(DraughtsError):
        parse_move(Position.initial(variant), text)
