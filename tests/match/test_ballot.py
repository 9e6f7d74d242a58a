"""draughts match --ballot NAME: openings from draughts.openings.ballot(variant, name), each twice.

The hook alone, independent of the decks' data (tests/openings/test_hooks.py plays the real
ballots): a stand-in for draughts.openings.ballot (``ballot(variant, name)`` returning openings
with ``moves``, ``start_fen`` and ``name``) takes its place, and the runner must take its
openings in turn, both colours each, and pass its errors on.
"""

from __future__ import annotations

import io
from pathlib import Path

import attrs
import pytest

from draughts.cli import main
from draughts.errors import DraughtsError
from draughts.pdn import read_games


@attrs.frozen
class _Opening:
    moves: tuple[str, ...]
    name: str
    start_fen: str | None = None


BALLOT = [_Opening(("32-28", "19-23"), "first"), _Opening(("33-29", "17-21"), "second")]


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    asked: list[tuple[str, str]] = []

    def ballot(variant: str, name: str) -> list[_Opening]:
        asked.append((variant, name))
        if name != "test-deck":
            raise DraughtsError(f"no ballot {name!r} for {variant}")
        return BALLOT

    import draughts.openings

    monkeypatch.setattr(draughts.openings, "ballot", ballot)
    return asked


def test_ballot_openings_in_turn_with_both_colours(stand_in: list[tuple[str, str]], tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["match", "level:beginner", "level:intermediate", "--games", "4", "--max-plies", "6", "--workers", "1"]
    assert main([*argv, "--ballot", "test-deck", "--pdn", str(tmp_path / "m.pdn")], out) == 0
    assert stand_in == [("international", "test-deck")]
    games = sorted(read_games(tmp_path / "m.pdn"), key=lambda g: int(g.headers["Round"]))
    openings = [tuple(str(m) for m in g.mainline_moves()[:2]) for g in games]
    assert openings == [("32-28", "19-23"), ("32-28", "19-23"), ("33-29", "17-21"), ("33-29", "17-21")]
    assert [g.headers["White"] for g in games] == ["level:beginner", "level:intermediate"] * 2


def test_unknown_ballot_is_the_openings_error(
    stand_in: list[tuple[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", "level:beginner", "level:beginner", "--ballot", "nonesuch", "--workers", "1"]
    assert main(argv, io.StringIO()) != 0
    assert "no ballot 'nonesuch' for international" in capsys.readouterr().err


def test_ballot_and_openings_file_exclude_each_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "level:beginner", "level:beginner", "--ballot", "x", "--openings", str(tmp_path / "o.txt")]
    assert main(argv, io.StringIO()) != 0
    assert "--openings, --ballot and --random-openings exclude each other" in capsys.readouterr().err
