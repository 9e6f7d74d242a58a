"""One player syntax read by one function, one Player protocol, one TimeControl (issue 39 §2)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import draughts
from draughts import Board
from draughts.engine import Limit
from draughts.errors import DraughtsError, PlayerSpecError
from draughts.players import Clock, EnginePlayer, PlayerSpec, RandomPlayer, TimeControl, parse_player
from draughts.players.factory import make_player

FORMS = "a player is human, random, level:NAME (beginner, intermediate, strong), depth:N, nodes:N, time:S"


@pytest.mark.parametrize(
    ("text", "kind", "arg"),
    [
        ("human", "human", ""),
        ("random", "random", ""),
        ("level:strong", "level", "strong"),
        ("depth:3", "depth", "3"),
        ("nodes:5000", "nodes", "5000"),
        ("time:0.25", "time", "0.25"),
        ("hub:scan hub", "hub", "scan hub"),
        ("dxp:127.0.0.1:27531", "dxp", "127.0.0.1:27531"),
        ("  Level:Beginner ", "level", "beginner"),
    ],
)
def test_each_form_is_read(text: str, kind: str, arg: str) -> None:
    spec = parse_player(text)
    assert (spec.kind, spec.arg) == (kind, arg)
    assert parse_player(spec.text) == spec  # the one spelling reads back as itself


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("computer", "level:intermediate"),
        ("computer:strong", "level:strong"),
        ("engine:beginner", "level:beginner"),
        ("cpu", "level:intermediate"),
        ("strong", "level:strong"),
        ("beginner", "level:beginner"),
    ],
)
def test_earlier_spellings_are_read_as_what_they_meant(old: str, new: str) -> None:
    assert parse_player(old).text == new


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("time:inf", "time:S takes seconds a move above 0 and at most 3600"),
        ("time:1e300", "time:S takes seconds a move above 0 and at most 3600"),
        ("time:-1", "time:S takes seconds a move above 0"),
        ("time:nan", "time:S takes seconds a move above 0"),
        ("time:0", "time:S takes seconds a move above 0"),
        ("depth:0", "depth:N takes a whole number N from 1 to 64"),
        ("depth:65", "depth:N takes a whole number N from 1 to 64"),
        ("depth:-2", "depth:N takes a whole number"),
        ("nodes:1.5", "nodes:N takes a whole number"),
        ("nodes:" + "9" * 5000, "nodes:N takes a whole number"),
        ("level:godlike", "unknown level 'godlike'"),
        ("level", "level:NAME needs the level's name"),
        ("hub:", "hub:CMD needs the engine's command line"),
        ('hub:"scan', "hub:CMD takes a command line"),
        ("dxp:localhost", "dxp:HOST:PORT takes a host and a port"),
        ("dxp:localhost:0", "dxp:HOST:PORT takes a host and a port"),
        ("dxp:localhost:99999", "dxp:HOST:PORT takes a host and a port"),
        ("robot", "not a player"),
        ("", "not a player"),
        ("random:3", "not a player"),
    ],
)
def test_bad_players_are_refused_naming_the_forms(text: str, why: str) -> None:
    with pytest.raises(PlayerSpecError) as raised:
        parse_player(text)
    message = str(raised.value)
    assert why in message
    assert FORMS in message
    assert len(message) < 400  # a long input is quoted by an excerpt
    assert isinstance(raised.value, DraughtsError)


def test_a_kind_a_command_cannot_play_is_named_with_those_it_can() -> None:
    with pytest.raises(PlayerSpecError, match="human cannot play in draughts lab; it takes random or level:NAME"):
        parse_player("human", accepted=("random", "level"), command="draughts lab")
    assert parse_player("computer", accepted=("level",)).text == "level:intermediate"


def test_text_that_is_not_text_is_refused() -> None:
    with pytest.raises(PlayerSpecError, match="must be text"):
        parse_player(3)  # type: ignore[arg-type]


def test_engine_players_have_the_limit_they_name() -> None:
    assert parse_player("depth:3").engine().limit == Limit(depth=3)
    assert parse_player("nodes:700").engine().limit == Limit(nodes=700)
    assert parse_player("time:1.5").engine().limit == Limit(time=1.5)
    level = parse_player("level:beginner").engine(limit=Limit(time=0.5))
    assert level.limit.time == 0.5
    assert level.limit.depth is not None
    with pytest.raises(PlayerSpecError):
        parse_player("random").engine()


def test_every_maker_gives_a_player_that_plays_a_game() -> None:
    board = Board("russian")
    players = {
        "random": make_player("random", "russian", seed=1),
        "depth:2": make_player("depth:2", "russian", seed=1),
        "level:beginner": make_player(parse_player("beginner"), "russian"),
    }
    assert isinstance(players["random"], RandomPlayer)
    assert isinstance(players["depth:2"], EnginePlayer)
    for name, player in players.items():
        assert player.name == name
        move, score = player.choose(board.copy())
        assert board.is_legal(move)
        assert (score is None) == (name == "random")
        player.close(board)
    with pytest.raises(PlayerSpecError, match="a person's moves are read by the game"):
        make_player("human", "russian")
    with pytest.raises(PlayerSpecError, match="needs the start board and its colour"):
        make_player("dxp:127.0.0.1:1", "international")


def test_a_random_player_is_the_same_for_one_seed() -> None:
    def game(seed: int) -> list[str]:
        board, player = Board("international"), RandomPlayer(seed)
        for _ in range(12):
            board.push(player.choose(board.copy())[0])
        return [str(move) for move in board.move_stack]

    assert game(7) == game(7)
    assert game(7) != game(8)


def test_an_engine_under_a_clock_thinks_the_clocks_share() -> None:
    engine = parse_player("level:strong").engine()
    seen: list[Limit] = []

    class Spy:
        limit = engine.limit

        def search(self, board: Board, limit: Limit) -> object:
            seen.append(limit)
            return engine.search(board, Limit(depth=1))

    player = EnginePlayer(Spy(), "level:strong")  # type: ignore[arg-type]
    player.choose(Board("russian"), Clock(30.0, 0.0, moves=10))
    player.choose(Board("russian"))
    assert (seen[0].depth, seen[0].nodes) == (engine.limit.depth, engine.limit.nodes)
    assert seen[0].time == pytest.approx(3.0)
    assert seen[1] == engine.limit


def test_one_time_control() -> None:
    assert TimeControl.parse("5+0.5", minutes=True) == TimeControl(300.0, 0.5)
    assert TimeControl(600, moves=50).text == "50/600"
    assert TimeControl(300, 2).clock(used=10.0, played=3) == Clock(296.0, 2.0)
    for bad in ({"base": 0}, {"base": float("inf")}, {"base": 1, "inc": -1}, {"base": 1, "moves": -1}):
        with pytest.raises(DraughtsError):
            TimeControl(**bad)  # type: ignore[arg-type]
    import draughts.dxp
    import draughts.match

    assert not hasattr(draughts.dxp, "TimeControl")
    assert not hasattr(draughts.match, "TimeControl")


def test_one_game_record_name() -> None:
    import draughts.dxp
    import draughts.lab

    assert draughts.lab.GameRecord.__module__ == "draughts.lab.metrics"
    assert not hasattr(draughts.dxp, "GameRecord")
    assert draughts.dxp.DXPRecord.__module__ == "draughts.dxp.session"


def test_spec_names() -> None:
    assert PlayerSpec("level", "strong").pdn_name == "polydraughts strong"
    assert PlayerSpec("depth", "3").pdn_name == "polydraughts depth:3"
    assert PlayerSpec("human").pdn_name == "Human"
    assert PlayerSpec("hub", "scan hub").pdn_name == "hub:scan hub"
    assert str(parse_player("computer:strong")) == "level:strong"


# --- every command reads players with the one function ---------------------------------------


def _command(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "draughts", *argv], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize("bad", ["robot", "time:inf", "depth:0", "level:godlike"])
def test_the_same_bad_player_gives_the_same_error_in_every_command(bad: str) -> None:
    with pytest.raises(PlayerSpecError) as raised:
        parse_player(bad)
    expected = str(raised.value)
    runs = {
        "play": _command("play", "russian", "--white", bad),
        "lab": _command("lab", "russian", "--games", "1", "--players", bad),
        "match": _command("match", bad, "level:beginner", "--games", "1"),
        "dxp": _command("dxp", "--listen", "--port", "0", "--player", bad),
    }
    for command, done in runs.items():
        assert done.returncode == 2, (command, done.stderr)
        assert done.stderr == f"draughts {command}: error: {expected}\n", command


def test_lab_refuses_time_inf_before_playing() -> None:
    """Issue 40 item 18: ``lab --players time:inf`` was accepted and the run never ended."""
    done = _command("lab", "russian", "--games", "2", "--players", "time:inf")
    assert done.returncode == 2
    assert "time:S takes seconds a move above 0 and at most 3600" in done.stderr


def test_a_kind_a_command_cannot_play_is_said_so() -> None:
    lab = _command("lab", "russian", "--games", "1", "--players", "human")
    assert lab.returncode == 2
    assert "human cannot play in the lab" in lab.stderr
    match = _command("match", "human", "level:beginner", "--games", "1")
    assert match.returncode == 2
    assert "human cannot play in draughts match" in match.stderr
    play = _command("play", "international", "--black", "dxp:127.0.0.1:27531")
    assert play.returncode == 2
    assert "dxp:HOST:PORT cannot play in draughts play" in play.stderr


def test_every_command_takes_the_one_syntax() -> None:
    play = _command("play", "russian", "--white", "depth:1", "--black", "random", "--seed", "1")
    assert play.returncode == 0, play.stderr
    assert "depth:1 (white) against random (black)" in play.stdout
    lab = _command(
        "lab", "russian", "--games", "2", "--players", "nodes:200", "--opponent", "computer", "--max-plies", "6"
    )
    assert lab.returncode == 0, lab.stderr
    assert "nodes:200" in lab.stdout
    assert "level:intermediate" in lab.stdout


def test_the_web_board_reads_players_with_the_one_function() -> None:
    pytest.importorskip("starlette")
    import html
    import json
    import re

    from starlette.testclient import TestClient

    from draughts.web.app import create_app

    with TestClient(create_app(default_variant="russian", workers=1, engine_workers=1, work_time=120.0)) as client:
        page = client.get("/", params={"white": "human", "black": "level:strong"})
        assert page.status_code == 200, page.text
        found = re.search(r'<script type="application/json" id="config">(.*?)</script>', page.text)
        assert found is not None
        config = json.loads(found.group(1))
        assert config["players"] == {"white": "human", "black": "computer"}
        assert config["level"] == "strong"  # the player's level is the page's level
        with pytest.raises(PlayerSpecError) as raised:
            parse_player("robot")
        bad = client.get("/", params={"black": "robot"})
        assert bad.status_code == 400
        assert str(raised.value) in html.unescape(bad.text)
        follower = client.get("/", params={"black": "dxp:127.0.0.1:27531"})
        assert follower.status_code == 400
        refused = html.unescape(follower.text)
        assert "dxp:HOST:PORT cannot play in the web board; it takes human or level:NAME" in refused
        lab = client.post("/api/lab", json={"variants": ["russian"], "games": 1, "players": "depth:3"})
        assert lab.status_code == 400
        assert "must be one of random, depth:1, depth:2" in lab.text


def test_an_environments_opponent_is_a_player_of_the_one_syntax() -> None:
    pytest.importorskip("gymnasium")
    from draughts import ai

    game = ai.SingleAgentEnv("american", opponent="depth:1", max_plies=6)
    game.reset(seed=1)
    assert ai.SingleAgentEnv("american", opponent="strong")._opponent_spec == "level:strong"
    with pytest.raises(DraughtsError, match="human cannot play in an environment"):
        ai.SingleAgentEnv("american", opponent="human")


# --- one parser: no other function reads player texts ----------------------------------------

_KIND_WORDS = {"human", "random", "level", "depth", "nodes", "time", "hub", "dxp", "computer"}


def _player_parsers(src: Path) -> list[str]:
    """Functions that take text apart at a colon and compare a part with a player kind's name: what
    a player parser does (``kind, _, arg = text.partition(":")`` then ``kind == "hub"``)."""
    found = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            calls = [
                call
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("partition", "split", "rpartition")
                and any(isinstance(arg, ast.Constant) and arg.value == ":" for arg in call.args)
            ]
            compared = {
                const.value
                for compare in ast.walk(node)
                if isinstance(compare, ast.Compare)
                for const in ast.walk(compare)
                if isinstance(const, ast.Constant) and isinstance(const.value, str)
            }
            if calls and compared & _KIND_WORDS:
                found.append(f"{path.relative_to(src).as_posix()}:{node.name}")
    return found


def test_players_are_read_by_one_function_only() -> None:
    src = Path(draughts.__file__).parent
    assert _player_parsers(src) == ["players/spec.py:_read"]  # parse_player's reader


def test_the_parser_scan_finds_a_parser() -> None:
    src = ast.parse('def check(spec):\n    kind, _, arg = spec.partition(":")\n    return kind == "hub"\n')
    assert src.body  # the pattern the scan looks for, in the earlier lab's check_spec shape
    folder = Path(tempfile.mkdtemp())
    (folder / "x.py").write_text(ast.unparse(src), encoding="utf-8")
    assert _player_parsers(folder) == ["x.py:check"]


def test_draughts_dxp_plays_any_player(tmp_path: Path) -> None:
    """``draughts dxp --player random`` as a follower: our initiator plays it a game to the end."""
    from draughts import dxp

    follower = subprocess.Popen(
        [sys.executable, "-m", "draughts", "dxp", "--listen", "--port", "0", "--player", "random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert follower.stdout is not None
        line = follower.stdout.readline()
        assert line.startswith("listening on"), line
        host, _, port = line.split()[-1].rpartition(":")
        (record,) = dxp.connect(dxp.level_player("beginner"), (host, int(port)), games=1, timeout=60)
        assert record.error is None
        assert record.board.outcome() is not None
        assert follower.wait(60) == 0
        assert "game 1: " in follower.stdout.read()
    finally:
        if follower.poll() is None:
            follower.kill()
            follower.wait()
