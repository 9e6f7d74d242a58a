"""``draughts annotate``: a real game with a planted blunder, annotated, written and read back."""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from pathlib import Path

import pytest

from draughts import pdn
from draughts.cli import main
from draughts.engine import Engine, Limit
from draughts.engine.score import Score
from draughts.pdn import Game

DATA = Path(__file__).parent.parent / "data" / "games" / "russian" / "pdn-standard-ussr1947-excerpt.pdn"
EVAL = re.compile(r"\[%eval\s+([^\]]*)\]")


def planted_file(tmp_path: Path) -> tuple[Path, int]:
    """Two real games, the first cut after 12 plies and given a 13th move that drops a man."""
    first, second = list(pdn.read_games(DATA, "russian"))[:2]
    position = list(first.mainline())[11].position
    engine = Engine()
    blunder = next(
        move
        for move in position.legal_moves()
        if (after := position.play(move)).legal_moves()[0].captured and engine.search(after, Limit(depth=4)).value >= 90
    )
    moves = [*first.mainline_moves()[:12], blunder, position.play(blunder).legal_moves()[0]]
    games = [Game(first.ruleset, dict(first.headers), first.position, moves, "*"), second]
    path = tmp_path / "games.pdn"
    pdn.write_games(games, path)
    return path, 13


@pytest.mark.parametrize("workers", ["1", "2"])
def test_annotate_marks_the_planted_blunder_and_reads_back(tmp_path: Path, workers: str) -> None:
    path, ply = planted_file(tmp_path)
    target = tmp_path / "out.pdn"
    args = ["annotate", str(path), "--variant", "russian", "--depth", "3", "--workers", workers, "-o", str(target)]
    assert main(args) == 0
    text = target.read_text(encoding="utf-8")
    games = list(pdn.read_games(target, "russian"))
    originals = list(pdn.read_games(path, "russian"))
    assert [g.mainline_moves() for g in games] == [g.mainline_moves() for g in originals]
    marked = list(games[0].mainline())[ply - 1]
    assert marked.nags[0] in ("?", "??")
    assert marked.parent is not None
    assert len(marked.parent.variations) == 2  # the better line beside it
    for game in games:
        assert all(node.commands.eval is not None for node in game.mainline())
        assert "WhiteAccuracy" in game.headers
    values = EVAL.findall(text)
    assert len(values) > sum(len(g.mainline_moves()) for g in games)  # one per move, and the better lines' own
    for value in values:
        Score.parse(value)


def test_annotate_to_standard_output_and_refusals(tmp_path: Path) -> None:
    path, _ = planted_file(tmp_path)
    out = io.StringIO()
    assert main(["annotate", str(path), "--variant", "russian", "--depth", "1"], out) == 0
    assert out.getvalue().count("[WhiteAccuracy") == 2
    assert main(["annotate", str(tmp_path / "missing.pdn")]) == 2
    with pytest.raises(SystemExit):
        main(["annotate", str(path), "--time", "nan"])


def test_annotate_with_an_external_hub_engine(tmp_path: Path) -> None:
    path, ply = planted_file(tmp_path)
    target = tmp_path / "hub.pdn"
    command = f"{sys.executable} -m draughts hub"
    assert (
        main(["annotate", str(path), "--variant", "russian", "--depth", "3", "--engine", command, "-o", str(target)])
        == 0
    )
    games = list(pdn.read_games(target, "russian"))
    assert list(games[0].mainline())[ply - 1].nags[0] in ("?", "??")
    assert all(game.next().commands.eval is not None for game in games)  # type: ignore[union-attr]


def test_annotate_output_into_a_device_writes_into_it(tmp_path: Path) -> None:
    """Issue 40 §13: ``--output`` onto a device node wrote a temporary file and replaced the node with it."""
    path, _ = planted_file(tmp_path)
    device = null_device(tmp_path)
    before = os.stat(device)
    assert main(["annotate", str(path), "--variant", "russian", "--depth", "1", "-o", str(device)]) == 0
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert sorted(item.name for item in tmp_path.iterdir()) == ["games.pdn", "null"]


def null_device(folder: Path) -> Path:
    """A character device like /dev/null in ``folder`` where the process may make one (code that would
    replace it harms nothing else), else a link to /dev/null, which only root could replace."""
    path = folder / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        path.symlink_to("/dev/null")
    return path


def test_annotate_does_not_mark_a_move_that_leaves_a_forced_reply(tmp_path: Path) -> None:
    # Issue 40 §1: the 2009 Dutch championship's first game, from ply 26 to 32. After 14... 2-7
    # (ply 28) White has one move, 32x21; the engine answered it under a time limit after one ply,
    # a man up, and `draughts annotate` marked 2-7 a mistake.
    data = Path(__file__).parent.parent / "data" / "games" / "international" / "pdn-standard-nk-ronde-02.pdn"
    game = next(pdn.read_games(data))
    moves = game.mainline_moves()
    start = [game, *game.mainline()][25].board().position  # after 25 moves
    short = Game(game.ruleset, dict(game.headers), start, moves[25:32], "*")
    path, target = tmp_path / "game1.pdn", tmp_path / "out.pdn"
    pdn.write_games([short], path)
    assert main(["annotate", str(path), "--time", "0.3", "-o", str(target)]) == 0
    marked = next(pdn.read_games(target))
    assert marked.headers["BlackMistakes"] == marked.headers["BlackBlunders"] == "0"
    nodes = [marked, *marked.mainline()]
    assert not nodes[3].nags  # 2-7
    evals = [nodes[ply].commands.eval for ply in (3, 4)]
    assert all(value is not None and abs(value.score) < 0.6 for value in evals)  # not a man up for White


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("workers", ["1", "2"])
def test_annotate_shows_its_progress_on_standard_error(
    tmp_path: Path, workers: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 40 §2: `lab` and `endgame build` show their progress, `annotate` showed nothing.
    path, _ = planted_file(tmp_path)
    positions = sum(len(game.mainline_moves()) + 1 for game in pdn.read_games(path, "russian"))
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = io.StringIO()
    assert main(["annotate", str(path), "--variant", "russian", "--depth", "1", "--workers", workers], out) == 0
    assert f"{positions}/{positions} positions" in terminal.getvalue()
    if workers == "1":  # here, position by position
        assert f" 1/{positions} positions" in terminal.getvalue()
    assert "positions" not in out.getvalue()
    assert out.getvalue().startswith("[")  # the PDN, untouched
