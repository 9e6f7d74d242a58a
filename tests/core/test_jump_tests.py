"""The generator's whole-board jump test (does the side to move have a capture?) and the counts
that use it instead of listing moves, now in the native core: ``can_capture``, ``count1`` and
perft's bulk counting must agree with the moves the generator lists."""

from __future__ import annotations

import random

import pytest

import draughts


def test_a_man_with_two_jumps_has_two_captures() -> None:
    """White's man on c3 (Russian) can take b4 or d4: two captures, first landing on a5 and e5 (the
    second goes on over f6 to g7); a man whose prey is covered has none."""
    rules = draughts.get_variant("russian")
    square = rules.parse_square
    position = draughts.Position.from_fen(rules, "W:Wc3:Bb4,d4,f6")
    generator = position.generator
    own, opp, kings, color, state = position.node
    assert generator.can_capture(own, opp, kings, color, state)
    moves = position.legal_moves()
    assert len(generator.captures(own, opp, kings, color, state)) == len(moves) == 2
    assert {move.path[1] for move in moves} == {square("a5"), square("e5")}
    assert {move.start for move in moves} == {square("c3")}
    blocked = draughts.Position.from_fen(rules, "W:Wc3:Bd4,e5")  # d4 is covered by e5
    assert not blocked.generator.can_capture(*blocked.node)
    assert not any(move.captured for move in blocked.legal_moves())


@pytest.mark.parametrize("variant", ["russian", "international", "frisian", "american", "turkish", "italian"])
def test_the_jump_test_agrees_with_the_generator(variant: str) -> None:
    """Along random games: the jump test finds a jump exactly when the generator lists a capture
    (men and kings), and the bulk counts equal the moves listed."""
    rng = random.Random(24)
    rules = draughts.get_variant(variant)
    for _ in range(3):
        position = draughts.Position.initial(rules)
        for _ in range(60):
            moves = position.legal_moves()
            if not moves:
                break
            generator = position.generator
            own, opp, kings, color, state = position.node
            captures = generator.captures(own, opp, kings, color, state)
            assert generator.can_capture(own, opp, kings, color, state) == bool(captures)
            assert bool(captures) == any(move.captured for move in moves)
            listed = generator.moves(own, opp, kings, color, state)
            assert generator.count1(own, opp, kings, color, state, False) == len(listed) == len(moves)
            assert draughts.perft(position, 2) == sum(len(position.play(move).legal_moves()) for move in moves)
            position = position.play(rng.choice(moves))
