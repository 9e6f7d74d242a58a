"""Writing PDN never loses a file, and text no file can hold is refused (issue 23 §22)."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from draughts import DraughtsError, Move, pdn
from draughts.pdn import GameNode, PDNTextError

GOOD = pdn.parse_game('[White "A"] [GameType "20"] 1. 32-28 19-23 2-0')


def test_write_game_refuses_a_lone_surrogate_in_a_tag() -> None:
    with pytest.raises(PDNTextError, match=r"the tag Event .* lone surrogate \(U\+D800\) at character 1"):
        pdn.write_game(pdn.Game("international", {"Event": "\ud800"}))
    assert issubclass(PDNTextError, DraughtsError)


@pytest.mark.parametrize("where", ["comment", "variation", "preamble", "result"])
def test_write_game_refuses_a_lone_surrogate_anywhere(where: str) -> None:
    game = GOOD.copy()
    if where == "comment":
        game.comment = "ok \udfff"
    elif where == "variation":  # a side line's comment
        side = game.add_variation(game.position.legal_moves()[1])
        side.comment = "33-29 \ud83d"
    elif where == "preamble":
        game.preamble = ["\udc80"]
    else:
        game.result = "1-0\ud800"
    with pytest.raises(PDNTextError, match="lone surrogate"):
        pdn.write_game(game)


def test_a_tag_name_is_written_with_its_odd_characters_replaced() -> None:
    assert '[Bad_Name "x"]' in pdn.write_game(pdn.Game("international", {"Bad\ud800Name": "x"}))


def test_a_good_pair_of_surrogates_is_just_a_character() -> None:
    game = pdn.Game("international", {"Event": "\U0001f600"})
    assert "\U0001f600" in pdn.write_game(game)


def test_write_games_over_an_existing_file_keeps_it_when_a_game_fails(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    pdn.write_games([GOOD, GOOD, GOOD], path)
    before = path.read_bytes()
    bad = pdn.Game("international", {"Event": "\ud800"})
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, bad], path)
    assert path.read_bytes() == before  # was: truncated from 170 to 57 bytes
    illegal = pdn.Game("international")
    illegal.variations.append(GameNode(illegal.position, illegal, Move(1, 99)))  # a tree built by hand, wrongly
    with pytest.raises(DraughtsError):
        pdn.write_games([GOOD, illegal], path)
    assert path.read_bytes() == before
    assert sorted(item.name for item in tmp_path.iterdir()) == ["games.pdn"]  # no temporary file left


def test_write_games_replaces_the_file_keeping_its_permissions_and_links(tmp_path: Path) -> None:
    path = tmp_path / "games.pdn"
    path.write_text("old\n", encoding="utf-8")
    os.chmod(path, 0o640)
    link = tmp_path / "link.pdn"
    link.symlink_to(path)
    assert pdn.write_games([GOOD], link) == 1
    assert link.is_symlink()
    assert [game.mainline_moves() for game in pdn.read_games(path)] == [GOOD.mainline_moves()]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_write_games_to_a_new_file_and_a_stream(tmp_path: Path) -> None:
    path = tmp_path / "new.pdn"
    assert pdn.write_games([GOOD, GOOD], path) == 2
    assert len(list(pdn.read_games(path))) == 2
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    stream = io.StringIO()
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, pdn.Game("international", {"Event": "\ud800"})], stream)
    assert stream.getvalue() == pdn.write_game(GOOD)  # the failing game is not half written


def test_reading_refuses_a_lone_surrogate_as_that_games_error_and_skip_goes_on() -> None:
    text = '[Event "\ud800"]\n1. 32-28 *\n\n[Event "ok"]\n1. 33-28 *\n\n[Event "c"]\n1. 31-27 {bad \udfff} *\n'
    with pytest.raises(PDNTextError, match="lone surrogate") as caught:
        pdn.parse_game(text)
    assert "\ud800" not in str(caught.value)  # the message quotes it escaped
    with pytest.warns(pdn.PDNWarning):
        games = list(pdn.parse_games(text, errors="skip"))
    assert [game.headers["Event"] for game in games] == ["ok"]


# --- issue 40 §13: never replace what is not a regular file; the text first; names no file can hold ---


def null_device(folder: Path) -> Path:
    """A character device that discards what is written, in ``folder``: a node of its own made like
    /dev/null where the process may (so that code which would replace it harms nothing else), else a
    link to /dev/null, which only root could replace."""
    path = folder / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        path.symlink_to("/dev/null")
    return path


def test_write_games_writes_into_a_device_and_never_replaces_it(tmp_path: Path) -> None:
    """``--output /dev/null`` as root replaced /dev/null with a regular file; now it is written into."""
    device = null_device(tmp_path)
    before = os.stat(device)
    assert pdn.write_games([GOOD, GOOD], device) == 2
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)  # the same device node
    assert sorted(item.name for item in tmp_path.iterdir()) == ["null"]  # no temporary file beside it


def test_write_games_writes_into_a_fifo_and_leaves_it_a_fifo(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert pdn.write_games([GOOD], fifo) == 1
    reader.join(timeout=60)  # counts nothing: a reader left waiting (the FIFO replaced) fails the next line
    assert received == [pdn.write_game(GOOD).encode()]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # was replaced by a regular file
    assert sorted(item.name for item in tmp_path.iterdir()) == ["games.fifo"]


def test_write_games_makes_the_text_before_opening_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that cannot be written raises before the target is opened at all (nothing half written)."""
    opened: list[str] = []
    real_open = open

    def spying_open(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", spying_open)
    bad = pdn.Game("international", {"Event": "\ud800"})
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, bad], "/dev/null")
    with pytest.raises(PDNTextError):
        pdn.write_games([GOOD, bad], tmp_path / "new.pdn")
    assert opened == []
    assert not (tmp_path / "new.pdn").exists()


def test_write_games_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DraughtsError, match="is a directory"):
        pdn.write_games([GOOD], tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_write_games_refuses_a_name_no_file_can_hold(tmp_path: Path) -> None:
    name = str(tmp_path / "game\ud800.pdn")
    with pytest.raises(DraughtsError, match=r"lone surrogate \(U\+D800\), which no file name can hold"):
        pdn.write_games([GOOD], name)
    assert list(tmp_path.iterdir()) == []
    escaped = tmp_path / "game\udcff.pdn"  # an undecodable byte of a real name (surrogateescape): a file can have it
    assert pdn.write_games([GOOD], escaped) == 1
    assert os.listdir(os.fsencode(tmp_path)) == [b"game\xff.pdn"]
