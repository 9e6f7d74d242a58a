"""The match runner: external Hub engines in parallel, PDN that reads back, the table, forfeits, resume."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from draughts.engine import Limit
from draughts.match import EngineSpec, run_match
from draughts.pdn import read_games

HUB = f"hub:{shlex.join([sys.executable, '-m', 'draughts', 'hub'])}"

# A Hub engine whose process kills itself (SIGKILL, mid-search) at its third "go". Given a marker
# file's path, only the first process to claim the file dies: every other game plays on normally.
KILLER = """
import io, os, signal, sys
from draughts.hub import serve

MARKER = sys.argv[1] if len(sys.argv) > 1 else None

def claimed():
    if MARKER is None:
        return True
    try:
        os.close(os.open(MARKER, os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return False
    return True

class Lines(io.TextIOBase):
    gos = 0
    def readline(self, size=-1):
        line = sys.stdin.readline()
        if line.startswith("go"):
            Lines.gos += 1
            if Lines.gos == 3 and claimed():
                os.kill(os.getpid(), signal.SIGKILL)
        return line
    def __iter__(self):
        return iter(self.readline, "")

serve(stdin=Lines())
"""


def killer(tmp_path: Path, *args: str, params: dict[str, str] | None = None) -> EngineSpec:
    """The engine of ``KILLER``, its script in ``tmp_path``, run with ``args`` and Hub ``params``."""
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    return EngineSpec(f"hub:{shlex.join([sys.executable, str(script), *args])}", params or {})


def test_match_of_hub_processes_in_parallel_with_pdn_table_and_resume(tmp_path: Path) -> None:
    a = EngineSpec(HUB, {"level": "beginner"})
    b = EngineSpec(HUB, {"level": "beginner", "seed": "3"})
    results, pdn = tmp_path / "r.jsonl", tmp_path / "m.pdn"
    match = run_match(
        a, b, games=4, openings=[["32-28", "19-23"], ["33-29"]], max_plies=30, workers=2, results=results, pdn=pdn
    )
    assert len(match.games) == 4
    games = list(read_games(pdn))
    assert len(games) == 4
    assert sorted(g.headers["Round"] for g in games) == ["1", "2", "3", "4"]
    assert all(g.moves for g in games)
    table = match.table()
    assert "95%" in table
    assert "W-D-L" in table
    assert sum(match.wdl()) == 4
    again = run_match(a, b, games=6, max_plies=10, workers=2, results=results, pdn=pdn)  # resumes: 2 new games
    assert len(again.games) == 6
    assert len(list(read_games(pdn))) == 6


def test_a_killed_engine_forfeits_and_the_match_goes_on(tmp_path: Path) -> None:
    dying = killer(tmp_path)
    match = run_match(EngineSpec("level:beginner"), dying, games=2, max_plies=20, workers=2, limit=Limit(depth=1))
    assert len(match.games) == 2
    for game in match.games:
        assert game["termination"].startswith("forfeit")
        assert game["winner"] == ("black" if game["white"] == dying.text else "white")
    assert match.wdl() == (2, 0, 0)


def test_bad_engine_text() -> None:
    from draughts.errors import DraughtsError

    with pytest.raises(DraughtsError, match=r"'gnuchess': not a player; a player is .* hub:CMD or dxp:HOST:PORT"):
        EngineSpec("gnuchess")
    for address in ("dxp:localhost", "dxp:localhost:0", "dxp:localhost:port", "dxp::27531"):
        with pytest.raises(DraughtsError, match="dxp:HOST:PORT takes a host and a port"):
            EngineSpec(address)
    with pytest.raises(DraughtsError, match="human cannot play in draughts match"):
        EngineSpec("human")
    assert EngineSpec("strong").text == "level:strong"  # the lab's spelling, kept in the one spelling


@pytest.mark.slow
def test_twenty_games_strong_against_intermediate(tmp_path: Path) -> None:
    match = run_match(
        EngineSpec(HUB, {"level": "strong"}),
        EngineSpec(HUB, {"level": "intermediate"}),
        games=20,
        max_plies=200,
        workers=2,
        pdn=tmp_path / "m.pdn",
    )
    assert len(list(read_games(tmp_path / "m.pdn"))) == 20
    print(match.table())


def test_match_command(tmp_path: Path) -> None:
    import io

    from draughts.cli import main

    out = io.StringIO()
    status = main(
        [
            "match",
            "level:beginner",
            "level:intermediate",
            "--games",
            "2",
            "--max-plies",
            "16",
            "--workers",
            "1",
            "--pdn",
            str(tmp_path / "m.pdn"),
        ],
        out,
    )
    assert status == 0
    assert "Elo difference" in out.getvalue()
    assert len(list(read_games(tmp_path / "m.pdn"))) == 2


def test_one_killed_engine_process_forfeits_one_game_and_the_others_finish(tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    victim = killer(tmp_path, str(marker), params={"level": "beginner"})
    results = tmp_path / "r.jsonl"
    match = run_match(EngineSpec("level:beginner"), victim, games=4, max_plies=12, workers=2, results=results)
    assert marker.exists()
    endings = sorted(g["termination"].split(":")[0] for g in match.games)
    assert endings == ["adjudicated", "adjudicated", "adjudicated", "forfeit"]
    forfeited = next(g for g in match.games if g["termination"].startswith("forfeit"))
    assert "exited" in forfeited["termination"] or "terminated" in forfeited["termination"]
    assert forfeited["winner"] == ("white" if forfeited["black"] == victim.label else "black")
    assert len(results.read_text().splitlines()) == 4


def test_games_from_the_same_start_are_not_the_same_game_again() -> None:
    """Each game's engines draw their random choices from the game's index: games 0 and 2 (same
    start, same colours) were once the same moves, every engine seeded 0."""
    match = run_match(EngineSpec("level:beginner"), EngineSpec("level:beginner"), games=4, max_plies=16, workers=1)
    moves = {game["index"]: game["pdn"].rpartition("]")[2] for game in match.games}
    assert moves[0] != moves[2]
    assert moves[1] != moves[3]
    again = run_match(EngineSpec("level:beginner"), EngineSpec("level:beginner"), games=4, max_plies=16, workers=1)
    assert [game["pdn"].rpartition("]")[2] for game in again.games] == [moves[n] for n in range(4)]  # still seeded
class _Terminal(io.StringIO):
    """Standard error as a terminal: the progress bar shows."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("engine", ["hub:/nonexistent/engine", "dxp:127.0.0.1:1"])
def test_an_engine_that_cannot_start_is_said_and_the_match_fails(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 40 §2: a normal 0/2 table and exit status 0; the reason only in the PDN's Termination.
    from draughts.cli import main

    out = io.StringIO()
    assert main(["match", engine, "level:beginner", "--games", "2", "--workers", "1"], out) == 1
    assert "0/2" in out.getvalue()  # the table is still printed, on standard output
    err = capsys.readouterr().err
    assert f"{engine} did not start" in err
    assert "(2 games)" in err
    assert "no game could be played" in err


def test_match_progress_and_a_perfect_short_match_said_as_a_lower_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 40 §2 and §9: games done and the score so far on standard error (a terminal); a 4-0
    # printed only ">= -72.1 Elo", read as "the winner is weaker".
    from draughts.cli import main

    dying = killer(tmp_path).text  # forfeits every game at its second move
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    out = io.StringIO()
    args = ["match", "level:beginner", dying, "--games", "4", "--workers", "2", "--depth", "1", "--max-plies", "20"]
    assert main(args, out) == 0  # the games were played (and forfeited): not a failure to start
    table = out.getvalue()
    assert "Elo difference: at least -72.1 Elo (95% lower bound" in table
    assert "too few to say which engine is stronger" in table
    assert ">=" not in table
    bar = terminal.getvalue()
    assert "4/4 games" in bar
    assert "level:beginner 4 - 0 " in bar
    assert "\033" not in table  # the bar never reaches standard output


def test_match_takes_a_rule_file(tmp_path: Path) -> None:
    # Issue 40 §4: every command that takes a variant takes a rule file; run_match took a name.
    from draughts.cli import main

    rules = tmp_path / "mine.toml"
    rules.write_text('name = "my-pool"\ntitle = "Pool"\nbase = "brazilian"\nfirst_to_move = "black"\n')
    pdn = tmp_path / "m.pdn"
    args = ["match", "level:beginner", "level:beginner", "--variant", str(rules), "--games", "2"]
    assert main([*args, "--workers", "2", "--depth", "1", "--max-plies", "12", "--pdn", str(pdn)], io.StringIO()) == 0
    from draughts.rules.files import resolve_ruleset

    games = list(read_games(pdn, resolve_ruleset(str(rules))))
    assert len(games) == 2
    assert all(game.ruleset.name == "my-pool" and game.moves for game in games)
    assert all("did not start" not in game.headers["Termination"] for game in games)
