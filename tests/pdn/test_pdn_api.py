"""The PDN module's public functions: one meaning per name (issue 24 §8).

``read_game`` and ``read_games`` both take a path or a stream; text in a string goes through
``parse_game``/``parse_games``; the old ``read_game(text)`` still works with a DeprecationWarning.
``pdn.result_for`` is the one result function.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

from draughts import BLACK, WHITE, PDNError, pdn
from draughts.results import result_for

TEXT = '[White "A"] [GameType "20"] 1. 32-28 19-23 2-0\n\n[White "B"] [GameType "20"] 1. 33-29 *\n'


def test_read_game_reads_a_path_as_read_games_does(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(TEXT, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new meaning warns about nothing
        game = pdn.read_game(path)
        assert game == pdn.read_game(str(path)) == next(pdn.read_games(path))
    assert (game.headers["White"], len(game.moves), game.result) == ("A", 2, "2-0")


def test_read_game_reads_a_text_or_binary_stream() -> None:
    assert pdn.read_game(io.StringIO(TEXT)).headers["White"] == "A"
    assert pdn.read_game(io.BytesIO(TEXT.encode("utf-16")), encoding="utf-16").headers["White"] == "A"


def test_read_game_stops_after_the_first_game() -> None:
    """The first game is returned without reading the rest (a large file is not read to its end)."""
    stream = io.StringIO(TEXT + "1. 99-98 *\n" * 10_000)
    pdn.read_game(stream)
    assert stream.tell() < len(stream.getvalue())


def test_parse_game_and_parse_games_read_text() -> None:
    assert pdn.parse_game(TEXT).headers["White"] == "A"
    assert [game.headers["White"] for game in pdn.parse_games(TEXT)] == ["A", "B"]
    with pytest.raises(PDNError, match="no game in the text"):
        pdn.parse_game("")
    with pytest.raises(TypeError, match="paths read with read_game"):
        pdn.parse_game(Path("games.pdn"))  # type: ignore[arg-type]


def test_read_game_of_text_still_works_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"parse_game\(text\)"):
        game = pdn.read_game(TEXT)
    assert game == pdn.parse_game(TEXT)


def test_read_game_of_a_missing_pdn_path_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        pdn.read_game(str(tmp_path / "no such games.pdn"))


def test_result_for_is_the_one_result_function() -> None:
    from draughts import board

    for variant in ("international", "american", "russian"):
        for winner in (WHITE, BLACK, None):
            assert pdn.result_for(variant, winner) == result_for(variant, winner)
    assert pdn.result_for is result_for
    assert not hasattr(board, "result_text")  # its never-released old name, gone
