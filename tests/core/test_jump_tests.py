"""The generator's pieces, one at a time: the whole-board jump test and perft's inlined copy of it."""

from __future__ import annotations

import random

import pytest

import draughts
from draughts._core.capture import jump_tests
from draughts._core.tables import Tables


def _bits(tables: Tables, squares: list[int]) -> int:
    mask = 0
    for square in squares:
        mask |= 1 << tables.bit_of_square[square]
    return mask


def test_men_reads_every_jump_off_the_masks() -> None:
    """White's man on c3 (square 22 in Russian numbering) can take b4 or d4: two jumps, two
    landing squares (a5, e5), and c3 among the squares a man could jump from."""
    rules = draughts.get_variant("russian")
    position = draughts.Position.from_fen(rules, "W:Wc3:Bb4,d4,f6")
    tables = position.tables
    own, opp, kings, color, _ = position.node
    empty = tables.board & ~(own | opp)
    total, landings, origins, jumps = tables.derived(jump_tests).men(own & ~kings, opp, empty, color)
    assert total == 2
    assert landings == _bits(tables, [rules.parse_square(name) for name in ("a5", "e5")])
    assert origins & own == own
    assert sum(jumpers.bit_count() for _, _, jumpers in jumps) == 2
    assert not tables.derived(jump_tests).kings(0, opp, empty, color)


@pytest.mark.parametrize("variant", ["russian", "international", "frisian", "american", "turkish", "italian"])
def test_the_jump_test_agrees_with_the_generator(variant: str) -> None:
    """Along random games: the jump test finds a jump exactly when the generator lists a capture
    (men and kings), and perft's count (which inlines the men's test) equals the moves listed."""
    rng = random.Random(24)
    rules = draughts.get_variant(variant)
    for _ in range(3):
        position = draughts.Position.initial(rules)
        for _ in range(60):
            moves = position.legal_moves()
            if not moves:
                break
            tables = position.tables
            generator = position.generator
            own, opp, kings, color, state = position.node
            empty = tables.board & ~(own | opp)
            prey = opp if tables.men_capture_kings else opp & ~kings
            test = tables.derived(jump_tests)
            jumps = bool(test.men(own & ~kings, prey, empty, color)[0]) or test.kings(own & kings, opp, empty, color)
            assert jumps == bool(generator.captures(own, opp, kings, color))
            assert generator.count1(own, opp, kings, color, state, False) == len(
                generator.moves(own, opp, kings, color, state)
            )
            position = position.play(rng.choice(moves))
