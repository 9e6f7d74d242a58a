"""PDN reading stays linear in time and bounded in memory, and skip mode never stops at one bad game.

Issue 23 §26: 2,500 / 10,000 / 100,000 tags in one game took 0.28 / 5.8 / 502 s (each tag was
compared with every tag before it), and a 20 MB single-game file peaked at 943 MB before failing at
ply 2 (the movetext was held whole, as tokens, before the first move was replayed). The bounds
below are CPU time (not wall time, so a loaded machine does not flake them) and traced memory,
each several times what the reader needs today and far below what it needed before.
Issue 23 §23: a game whose Variant tag made the name parser recurse stopped ``errors="skip"``.
"""

from __future__ import annotations

import time
import tracemalloc

import pytest

from draughts import PDNError, pdn
from draughts.pdn import split
from draughts.pdn.split import MAX_BODY_TOKENS


def cpu_seconds(work: object) -> float:
    started = time.process_time()
    work()  # type: ignore[operator]
    return time.process_time() - started


def test_a_hundred_thousand_tags_read_in_linear_time() -> None:
    text = "".join(f'[Tag{i} "value {i}"]\n' for i in range(100_000)) + "1. 32-28 *\n"
    games: list[pdn.Game] = []
    seconds = cpu_seconds(lambda: games.extend(pdn.parse_games(text)))
    assert len(games) == 1
    assert len(games[0].headers) == 100_000
    assert seconds < 30  # about 0.6 s here; was 502 s


def test_a_repeated_tag_still_starts_a_new_game() -> None:
    text = '[Event "A"] [Site "x"] [Event "B"] 1. 32-28 *'
    assert [game.headers.get("Event") for game in pdn.parse_games(text)] == ["A", "B"]


def one_line_game(pairs: int) -> str:
    """A one-line movetext whose second ply is illegal, moves numbered as a real file would."""
    return "1. 32-28 32-28 " + " ".join(f"{i}. 33-28 18-23" for i in range(2, pairs)) + " *\n"


def test_a_huge_single_game_fails_at_its_bad_move_in_linear_time() -> None:
    text = one_line_game(130_000)
    assert len(text) > 2_400_000
    with pytest.raises(pdn.PDNIllegalMoveError) as caught:
        pdn.parse_game(one_line_game(5_000), "international")
    assert caught.value.ply == 2
    assert "32-28" in str(caught.value)
    with pytest.warns(pdn.PDNWarning, match="ply 2"):
        assert cpu_seconds(lambda: list(pdn.parse_games(text, "international", errors="skip"))) < 30  # 1 s here


def peak_bytes(text: str) -> int:
    tracemalloc.start()
    try:
        with pytest.raises(pdn.PDNIllegalMoveError):
            pdn.parse_game(text, "international")
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_single_game_costs_memory_bounded_by_the_token_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the bound, more movetext costs only its text's own copies, not tokens (was ~47 bytes per byte)."""
    monkeypatch.setattr(split, "MAX_BODY_TOKENS", 2_000)
    small, large = one_line_game(15_000), one_line_game(30_000)
    growth = (peak_bytes(large) - peak_bytes(small)) / (len(large) - len(small))
    assert growth < 12  # bytes per byte of input: the line as read, and a copy or two of it


def test_a_movetext_past_the_token_bound_is_an_error_of_its_game_only() -> None:
    long_game = "1. 32-28 " + "{c} " * (MAX_BODY_TOKENS + 10) + "*\n\n"
    with pytest.raises(PDNError, match=r"more than the 100,000 a game may have; its first 1 plies are legal"):
        pdn.parse_game(long_game)
    with pytest.warns(pdn.PDNWarning, match="more than the 100,000"):
        games = list(pdn.parse_games(long_game + '[Event "next"] 1. 33-28 *\n', errors="skip"))
    assert [game.headers for game in games] == [{"Event": "next"}]


def test_lines_longer_than_a_chunk_are_joined_in_linear_time() -> None:
    text = "{" + "x" * 3_000_000 + "} 1. 32-28 *\n"
    games: list[pdn.Game] = []
    seconds = cpu_seconds(lambda: games.append(pdn.parse_game(text, "international")))
    assert len(games[0].comment) == 3_000_000
    assert seconds < 30


def test_skip_mode_never_stops_at_one_bad_game() -> None:
    """Issue 23 §23: a ``[Variant "russian-nfc-nfc-..."]`` game raised RecursionError and skip mode lost the rest."""
    bad = '[Variant "russian' + "-nfc" * 330 + '"]\n1. c3-d4 *\n\n'
    good = '[GameType "20"]\n1. 32-28 *\n\n'
    with pytest.warns(pdn.PDNWarning, match="game 1"):
        games = list(pdn.parse_games(bad + good * 3, errors="skip"))
    assert len(games) == 3
    with pytest.raises(PDNError, match="game 1, line 1"):
        pdn.parse_game(bad)
