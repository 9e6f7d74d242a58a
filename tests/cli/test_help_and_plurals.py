"""The command line's help and wording (issue 40 §8): help text as argparse shows it, a description
for every subcommand, every command in ``draughts --help``, the transforms in ``draughts variants``,
counts in the singular where they are one, and a rebuild that says the tables are already there."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from draughts._text import plural
from draughts.cli import _GROUPS, _parser, main


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


def subparsers(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[(*prefix, name)] = sub
                found.update(subparsers(sub, (*prefix, name)))
    return found


def test_annotate_help_shows_one_percent(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(capsys, "annotate")
    assert "[%eval] comments" in text
    assert "%%" not in text


def test_no_help_text_shows_a_doubled_percent(capsys: pytest.CaptureFixture[str]) -> None:
    for path in subparsers(_parser()):
        assert "%%" not in help_of(capsys, *path), path


def test_every_subcommand_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    commands = subparsers(_parser())
    assert ("endgame", "build") in commands
    assert ("lab",) in commands
    for path, sub in commands.items():
        assert sub.description, path
        text = help_of(capsys, *path)
        assert text.split("\n\n")[1].strip(), (path, text)  # the line after the usage


def test_top_level_help_groups_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    top = {path[0] for path in subparsers(_parser())}
    grouped = [name for _, names in _GROUPS for name in names]
    assert sorted(grouped) == sorted(top)
    text = help_of(capsys)
    epilog = text[text.index("commands by task:") :]
    for name in top:
        assert name in epilog, name
    for word in ("annotate", "endgame", "lab", "match", "DXP", "opening"):
        assert word in text[: text.index("positional arguments")], word  # the description says what there is


def test_variants_lists_every_transform() -> None:
    text = run("variants")
    for suffix in ("<name>-nfc", "<name>-losing", "<name>-breakthrough"):
        assert suffix in text


@pytest.mark.parametrize(
    ("count", "word", "many", "text"),
    [
        (1, "ply", "plies", "1 ply"),
        (2, "ply", "plies", "2 plies"),
        (0, "game", None, "0 games"),
        (1, "game", None, "1 game"),
        (1234, "table", None, "1,234 tables"),
    ],
)
def test_plural(count: int, word: str, many: str | None, text: str) -> None:
    assert plural(count, word, many) == text


def test_endgame_counts_read_right_in_the_singular(tmp_path: Path) -> None:
    where = ("--tablebases", str(tmp_path))
    assert "1 table built for american" in run("endgame", "build", "american", "KvK", *where)
    assert "white to move: win in 1 ply;" in run("endgame", "probe", "american", "W:WK1:BK6", *where)


def test_rebuilding_says_already_built(tmp_path: Path) -> None:
    where = ("--tablebases", str(tmp_path))
    run("endgame", "build", "american", "KvK", *where)
    text = run("endgame", "build", "american", "KvK", *where)
    assert "already built" in text
    assert "0 tables" not in text
