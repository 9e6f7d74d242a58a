"""Hostile text at every entry point: only DraughtsErrors, with bounded quotes, never a traceback.

A digit string of more than 4,300 characters (leading zeros included) used to hit CPython's
int-conversion limit and escape as a plain ``ValueError``; a megabyte of bad input used to be
quoted whole in the message.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import draughts

LONG = "1" * 4301
ZEROS = "0" * 4300


def _entry_points() -> dict[str, Callable[[], object]]:
    rules = draughts.get_variant("international")
    start = draughts.Position.initial(rules)
    return {
        "from_fen long square": lambda: draughts.Position.from_fen(rules, "W:W" + LONG),
        "from_fen long range": lambda: draughts.Position.from_fen(rules, f"W:W1-{LONG}"),
        "push_text": lambda: draughts.Board(rules).push_text(LONG + "-1"),
        "parse_move": lambda: draughts.notation.parse_move(start, "32-" + LONG),
        "parse_square": lambda: rules.parse_square(LONG),
        "get_variant number": lambda: draughts.get_variant("9" * 4301),
        "get_variant gametype size": lambda: draughts.get_variant(f"20,W,{LONG},10,N2,0"),
        "from_fen huge": lambda: draughts.Position.from_fen(rules, "W:W" + "x" * 1_000_000),
        "get_variant huge": lambda: draughts.get_variant("y" * 1_000_000),
        "push_text huge": lambda: draughts.Board(rules).push_text("z" * 1_000_000),
        "ruleset file number": lambda: draughts.ruleset_from_text(
            f'{{"name": "x", "title": "X", "board_size": {LONG}}}', "json"
        ),
        "ruleset file key": lambda: draughts.ruleset_from_text(
            '{"name": "x", "title": "X", "%s": 1}' % ("k" * 10**6), "json"
        ),
        "ruleset file value": lambda: draughts.ruleset_from_text(
            '{"name": "x", "title": "X", "numbering": "%s"}' % ("v" * 10**6), "json"
        ),
    }


@pytest.mark.parametrize("name", sorted(_entry_points()))
def test_long_input_raises_a_draughts_error_with_a_bounded_quote(name: str) -> None:
    with pytest.raises(draughts.DraughtsError) as caught:
        _entry_points()[name]()
    assert len(str(caught.value)) < 600, str(caught.value)[:300]


def test_leading_zeros_are_harmless() -> None:
    position = draughts.Position.from_fen("international", "W:W" + ZEROS + "31:B" + ZEROS + "19")
    assert position.fen() == "W:W31:B19"
    assert draughts.get_variant(ZEROS + "25").name == "russian"


def test_a_huge_number_is_not_a_small_one() -> None:
    # Cutting digits off would have read "...0000020" as International's GameType 20.
    with pytest.raises(draughts.UnknownVariantError):
        draughts.get_variant("1" + "0" * 30 + "20")


SCRIPT = Path(sys.executable).parent / "draughts"


@pytest.mark.parametrize(
    "args",
    [
        ["moves", "international", "W:W" + LONG],
        ["show", "international", "W:W" + LONG],
        ["perft", "international", "1", "--fen", "W:W" + LONG],
        ["compare", "international", LONG],
        ["rules", LONG],
        ["play", "international", "--fen", "W:W" + LONG],
        ["pdn", "-", "--variant", LONG],
        ["moves", LONG],
        ["perft", "f" * 5000 + ".toml", "1"],
    ],
    ids=lambda args: args[0] + "-" + str(len(args)),
)
def test_cli_answers_long_input_with_one_line(args: list[str]) -> None:
    done = subprocess.run([str(SCRIPT), *args], input="", capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, (done.stdout[-300:], done.stderr[-300:])
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr[:500]
    assert len(done.stderr) < 600


def test_draughts_play_answers_a_move_of_4301_digits_and_goes_on() -> None:
    """A digit string past CPython's 4,300-digit limit typed as a move is refused, and play goes on."""
    typed = "1" * 4301 + "-1\nmoves\nresign\n"
    done = subprocess.run(
        [str(SCRIPT), "play", "international", "--white", "human", "--black", "human"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr[-500:]
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert "9 legal moves" in done.stdout  # the game went on after the refused move
    assert "white resigns" in done.stdout
    refusals = [line for line in done.stdout.splitlines() if "not a move" in line]
    assert len(refusals) == 1
    assert len(refusals[0]) < 1000  # a bounded excerpt of the input
