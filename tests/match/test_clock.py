"""Time per game with increment: the referee's clocks, flag fall, the budgets the engines get."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from draughts.errors import DraughtsError
from draughts.match import EngineSpec, GameTask, play_task, run_match
from draughts.pdn import read_games
from draughts.players import Clock, TimeControl

HUB = [sys.executable, "-m", "draughts", "hub"]

# A Hub engine that sleeps before it reads each "go" (SLEEP seconds), or never answers one (HANG).
SLOW = """
import io, sys, time
from draughts.hub import serve

MODE = sys.argv[1]

class Lines(io.TextIOBase):
    def readline(self, size=-1):
        line = sys.stdin.readline()
        if line.startswith("go"):
            time.sleep(1.5 if MODE == "sleep" else 3600)
        return line
    def __iter__(self):
        return iter(self.readline, "")

serve(stdin=Lines())
"""


def _engine(tmp_path: Path, mode: str) -> EngineSpec:
    script = tmp_path / "slow.py"
    script.write_text(SLOW)
    return EngineSpec(f"hub:{shlex.join([sys.executable, str(script), mode])}")


@pytest.mark.parametrize(
    ("text", "minutes", "base", "inc"),
    [("5+0.5", True, 300.0, 0.5), ("1", True, 60.0, 0.0), ("60+1", False, 60.0, 1.0), ("0.5+0.01", False, 0.5, 0.01)],
)
def test_time_control_text(text: str, minutes: bool, base: float, inc: float) -> None:
    control = TimeControl.parse(text, minutes=minutes)
    assert (control.base, control.inc) == (base, inc)


@pytest.mark.parametrize("text", ["", "x", "-1", "0", "5+", "5+-1", "nan", "inf+1", "5+0.5+1"])
def test_bad_time_control_is_refused_quoting_it(text: str) -> None:
    with pytest.raises(DraughtsError, match="time control"):
        TimeControl.parse(text)


def test_pdn_tag_of_a_time_control() -> None:
    assert TimeControl(300, 2).text == "300+2"
    assert TimeControl(60).text == "60"


def test_builtin_budget_is_the_hub_servers_share_of_the_clock() -> None:
    # 30 moves to go without moves=, plus the increment, at most 9/10 of what is there
    from draughts.hub.levels import clock_seconds

    assert Clock(60.0, 1.0).budget() == pytest.approx(60 / 30 + 1)
    assert Clock(0.5, 0.0).budget() == pytest.approx(0.5 / 30)
    assert Clock(1.0, 10.0).budget() == pytest.approx(0.9 * 11)  # the cap, below 1/30 + 10
    for clock in (Clock(60.0, 1.0), Clock(0.5), Clock(1.0, 10.0), Clock(90.0, 2.0, 40)):
        args = {"time": str(clock.time), "inc": str(clock.inc)} | ({"moves": str(clock.moves)} if clock.moves else {})
        assert clock.budget() == clock_seconds(args)
    assert Clock(30.0, 0.0, moves=10).budget() == pytest.approx(3.0)


def test_a_clocked_game_tracks_both_clocks_and_writes_the_time_control(tmp_path: Path) -> None:
    control = TimeControl(4.0, 0.05)
    match = run_match(
        EngineSpec("level:beginner"),
        EngineSpec(f"hub:{shlex.join(HUB)}", {"level": "beginner"}),
        games=2,
        clock=control,
        max_plies=16,
        workers=2,
        pdn=tmp_path / "m.pdn",
    )
    for game in match.games:
        assert game["termination"] == "adjudicated: draw after 16 plies"
        clocks = game["clock"]
        # each side spent something of its clock and got 8 increments; no one flagged
        for side in ("white", "black"):
            assert 0 < clocks[side] < control.base + 8 * control.inc
    games = list(read_games(tmp_path / "m.pdn"))
    assert [g.headers["TimeControl"] for g in games] == ["4+0.05", "4+0.05"]


def test_an_engine_slower_than_its_clock_loses_on_time(tmp_path: Path) -> None:
    slow = _engine(tmp_path, "sleep")
    task = GameTask(0, EngineSpec("level:beginner"), slow, "international", clock=TimeControl(1.0, 0.0))
    game = play_task(task)
    assert game["termination"].startswith("time forfeit: ")
    assert game["winner"] == "white"
    assert game["clock"]["black"] == 1.0  # the move that flagged is not counted
    pdn = game["pdn"]
    assert '[Termination "time forfeit: ' in pdn
    assert '[Result "2-0"]' in pdn


def test_a_hung_engine_loses_on_time_without_the_clients_long_timeout(tmp_path: Path) -> None:
    import time

    hung = _engine(tmp_path, "hang")
    task = GameTask(0, hung, EngineSpec("level:beginner"), "international", clock=TimeControl(1.0, 0.0))
    started = time.monotonic()
    game = play_task(task)
    assert time.monotonic() - started < 15  # the clock (1 s) and a grace of a second or two, not 30 s
    assert game["termination"].startswith("time forfeit: ")
    assert game["winner"] == "black"


def test_time_margin_gives_grace(tmp_path: Path) -> None:
    slow = _engine(tmp_path, "sleep")
    task = GameTask(
        0, EngineSpec("level:beginner"), slow, "international", max_plies=2, clock=TimeControl(1.0, 0.0, margin=3.0)
    )
    game = play_task(task)
    assert game["termination"] == "adjudicated: draw after 2 plies"
    assert game["clock"]["black"] < 0  # overdrawn, within the margin


def test_match_command_with_a_clock(tmp_path: Path) -> None:
    import io

    from draughts.cli import main

    out = io.StringIO()
    argv = ["match", "level:beginner", "level:beginner", "--games", "2", "--max-plies", "6", "--workers", "1"]
    status = main([*argv, "--tc", "3+0.1", "--pdn", str(tmp_path / "m.pdn")], out)
    assert status == 0
    assert [g.headers["TimeControl"] for g in read_games(tmp_path / "m.pdn")] == ["3+0.1", "3+0.1"]
    with pytest.raises(SystemExit):
        main([*argv, "--tc", "3", "--time", "1"], io.StringIO())
