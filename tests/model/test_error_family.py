"""Every bad input raises a DraughtsError that quotes a bounded excerpt of it (issue 23 §30).

Before: integers over 4,300 digits raised a plain ValueError from the message helper itself
(CPython refuses to print them) in Board.push / Position.play of Move(10**5000, 1),
Ruleset(board_size=...), Limit(depth=...), SVG size; from_pieces(king_moves={WHITE: 5}) raised
TypeError; env.reset(seed=-1) gymnasium's error and seed="x" a TypeError.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, DraughtsError, Move, Piece, Position, get_variant, svg
from draughts._text import excerpt, printable
from draughts.engine import Limit
from draughts.players import Clock

HUGE = 10**5000
"""Past CPython's 4,300-digit limit for printing an int."""


def test_excerpt_quotes_a_huge_integer_by_its_size() -> None:
    assert excerpt(HUGE) == "an integer of about 5,000 digits"
    assert excerpt(-HUGE) == "a negative integer of about 5,000 digits"
    assert excerpt([HUGE]) == "<list that cannot be printed>"
    assert excerpt(10**100).endswith("(101 characters)")
    assert excerpt(12) == "12"


CALLS: list[tuple[str, Callable[[], object]]] = [
    ("Move", lambda: Move(HUGE, 1)),
    ("Move end", lambda: Move(1, -HUGE)),
    ("Board.push", lambda: Board("russian").push(Move(HUGE, 1))),
    ("Position.play", lambda: Position.initial("russian").play(Move(HUGE, 1))),
    ("parse_square", lambda: get_variant("russian").parse_square(HUGE)),
    ("parse_square text", lambda: get_variant("russian").parse_square("9" * 5000)),
    ("Limit depth", lambda: Limit(depth=-HUGE)),
    ("Ruleset board_size", lambda: attrs.evolve(get_variant("russian"), board_size=HUGE)),
    ("svg size", lambda: svg.board(Position.initial("russian"), size=HUGE)),
    ("Clock time", lambda: Clock(time=HUGE)),
    ("perft depth", lambda: draughts.perft(Position.initial("russian"), -HUGE)),
]


@pytest.mark.parametrize(("what", "call"), CALLS, ids=[what for what, _ in CALLS])
def test_huge_integers_raise_a_draughts_error_quoting_them_briefly(what: str, call: Callable[[], object]) -> None:
    with pytest.raises(DraughtsError) as caught:
        call()
    message = str(caught.value)
    assert len(message) < 400, what
    assert "5,000" in message or "characters" in message, message


FRISIAN = get_variant("frisian")  # keeps a count of king moves


@pytest.mark.parametrize("king_moves", [{WHITE: 5}, {WHITE: (21,)}, {"white": (21, 1)}, 5, [(WHITE, (21, 1))]])
def test_from_pieces_refuses_a_misshapen_king_moves(king_moves: object) -> None:
    pieces = {21: Piece(WHITE, True), 30: Piece(WHITE, False), 5: Piece(BLACK, False)}
    with pytest.raises(draughts.InvalidPositionError, match="must map a Color to a"):
        Position.from_pieces(FRISIAN, pieces, king_moves=king_moves)  # type: ignore[arg-type]
    assert Position.from_pieces(FRISIAN, pieces, king_moves={WHITE: (21, 1)}).fen().endswith("+121")


@pytest.mark.parametrize("seed", [-1, "x", 1.5, True, -HUGE], ids=["-1", "x", "1.5", "True", "-huge"])
def test_environment_seeds(seed: object) -> None:
    from draughts.ai.envs import DraughtsEnv, SingleAgentEnv
    from draughts.errors import InvalidSeedError

    for env in (DraughtsEnv("russian"), SingleAgentEnv("russian")):
        with pytest.raises(InvalidSeedError, match="must be None or a whole number from 0 up"):
            env.reset(seed=seed)  # type: ignore[arg-type]
        env.reset(seed=7)  # a good seed still works afterwards


# --- 24 §8 (part): one behaviour per question, every error class in draughts.errors ---


def test_is_king_at_takes_a_name_as_piece_at_does() -> None:
    position = Position.from_fen("russian", "W:WKc3,e3:Bf6")
    assert position.is_king_at("c3")  # failed before: only numbers were taken
    assert not position.is_king_at("e3")
    assert position.is_king_at(position.ruleset.parse_square("c3"))
    piece = position.piece_at("c3")
    assert piece is not None
    assert piece.king
    with pytest.raises(draughts.InvalidSquareError):
        position.is_king_at("z9")


def test_an_unknown_level_is_an_unknown_level_error() -> None:
    from draughts.engine import get_level
    from draughts.errors import InvalidLimitError, UnknownLevelError

    with pytest.raises(UnknownLevelError, match="unknown level 'expert'; levels: ") as caught:
        get_level("expert")
    assert isinstance(caught.value, InvalidLimitError)  # what it raised before, still caught
    with pytest.raises(UnknownLevelError, match="5,000 characters"):
        get_level("9" * 5000)


def test_claiming_no_draw_is_a_draw_claim_error() -> None:
    board = Board("american")
    with pytest.raises(draughts.DrawClaimError, match="no draw can be claimed") as caught:
        board.claim_draw()
    assert isinstance(caught.value, draughts.IllegalMoveError)  # what it raised before
    assert len(board) == 0


MOVED = [
    ("draughts.engine", "InvalidLimitError"),
    ("draughts.cli.play", "PlayerSpecError"),
    ("draughts.ai.envs", "GameOverError"),
    ("draughts.ai.tensors", "InvalidActionError"),
    ("draughts.web.server", "ServeError"),
    ("draughts.web.views", "RequestError"),
]


@pytest.mark.parametrize(("module", "name"), MOVED)
def test_error_classes_live_in_errors_and_keep_their_old_names(module: str, name: str) -> None:
    import importlib

    from draughts import errors

    moved = getattr(errors, name)
    assert getattr(importlib.import_module(module), name) is moved
    assert moved.__module__ == "draughts.errors"
    assert issubclass(moved, DraughtsError)


def test_no_public_error_class_is_defined_outside_errors() -> None:
    """Only errors modules define error classes (the pdn and endgame packages keep their own)."""
    import pathlib
    import re

    source = pathlib.Path(draughts.__file__).parent
    defined = re.compile(r"^class ([A-Z]\w*(?:Error|Exception))\(", re.MULTILINE)
    outside = {
        f"{path.relative_to(source)}:{name}"
        for path in source.rglob("*.py")
        if path.name != "errors.py"
        for name in defined.findall(path.read_text(encoding="utf-8"))
    }
    assert outside == set()


@pytest.mark.parametrize("text", ["evil\x1b[31m", "nul\x00x", "a\ud800", "bell\x07"])
def test_printable_escapes_what_would_drive_a_terminal(text: str) -> None:
    shown = printable(f"{text}\nnext\tline")
    assert shown.isprintable() is False  # the line break and the tab stay
    assert shown.replace("\n", "").replace("\t", "").isprintable()
    assert shown.endswith("\nnext\tline")


def test_draughts_rules_prints_a_hostile_name_escaped(tmp_path: Path) -> None:
    """Issue 23 §29: ``draughts rules`` printed ESC and NUL characters of a ruleset file's name and
    title raw to the terminal; its tables now show them escaped."""
    path = tmp_path / "evil.toml"
    path.write_text('name = "evil\\u001b[31m\\u0000x"\ntitle = "T\\u001b[2J"\nbase = "russian"\n', encoding="utf-8")
    for command in (["rules", str(path)], ["compare", str(path), "russian"]):
        done = subprocess.run(
            [sys.executable, "-m", "draughts", *command], capture_output=True, text=True, check=False, timeout=120
        )
        assert done.returncode == 0, done
        assert "\x1b" not in done.stdout
        assert "\x00" not in done.stdout
        assert "evil\\x1b[31m\\x00x" in done.stdout
