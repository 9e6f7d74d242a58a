"""Every bad input raises a DraughtsError that quotes a bounded excerpt of it (issue 23 §30).

Before: integers over 4,300 digits raised a plain ValueError from the message helper itself
(CPython refuses to print them) in Board.push / Position.play of Move(10**5000, 1),
Ruleset(board_size=...), Limit(depth=...), SVG size; from_pieces(king_moves={WHITE: 5}) raised
TypeError; env.reset(seed=-1) gymnasium's error and seed="x" a TypeError.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

import draughts
from draughts import BLACK, WHITE, Board, DraughtsError, Move, Piece, Position, get_variant, svg
from draughts._text import excerpt
from draughts.engine import Limit
from draughts.hub import Clock

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
