"""One executor helper for every command with --workers and --scheduler (issue 39 §2, issue 40 item 8)."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from draughts.cli import main
from draughts.cli.executor import WORKERS_HELP, default_workers, executor
from draughts.errors import DraughtsError


def test_one_worker_runs_the_jobs_here_and_more_are_processes() -> None:
    with executor(1) as none:
        assert none is None
    with executor(4, jobs=1) as capped:
        assert capped is None  # never more workers than jobs
    with executor(3, jobs=2) as pool:
        assert isinstance(pool, ProcessPoolExecutor)
        assert pool._max_workers == 2
    assert default_workers() == (os.cpu_count() or 1)
    with executor(None, jobs=10**6) as default:
        assert (default is None) == (default_workers() == 1)


@pytest.mark.parametrize(
    ("workers", "scheduler", "message"),
    [
        (0, None, "--workers 0 must be at least 1"),
        (2, "tcp://127.0.0.1:1", "--workers and --scheduler exclude each other"),
    ],
)
def test_bad_worker_arguments(workers: int, scheduler: str | None, message: str) -> None:
    with pytest.raises(DraughtsError, match=message), executor(workers, scheduler):
        pass


def _error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    command = argv[0]
    assert err.startswith(f"draughts {command}: error: ")
    return err.removeprefix(f"draughts {command}: error: ")


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    for name in ("a.pdn", "b.pdn"):
        (tmp_path / name).write_text('[Result "*"]\n*\n', encoding="utf-8")
    return {
        "pdn": ["pdn", str(tmp_path / "a.pdn"), str(tmp_path / "b.pdn")],
        "lab": ["lab", "russian", "--games", "1"],
        "match": ["match", "level:beginner", "level:beginner", "--games", "1"],
    }


def test_every_command_says_the_same_of_the_same_worker_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = _commands(tmp_path)
    for extra in (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], ["--workers", "0"]):
        messages = {name: _error([*argv, *extra], capsys) for name, argv in commands.items()}
        assert len(set(messages.values())) == 1, messages
    build = ["endgame", "build", "american", "KvK", "--tablebases", str(tmp_path / "tables"), "--workers", "0"]
    assert _error(build, capsys) == "--workers 0 must be at least 1\n"  # its default stays 1: tables take memory


def test_every_command_has_the_same_worker_default_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("pdn", "lab", "match"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert " ".join(WORKERS_HELP.split()) in text, command
