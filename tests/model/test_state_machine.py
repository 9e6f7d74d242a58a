"""A hypothesis state machine that plays and takes back random games in every variant.

The machine keeps a stack of positions: ``play`` pushes the position after a random legal move,
``unplay`` pops it. After every step the invariants check the top of the stack: FEN round trips,
the legal moves equal the naive oracle's, and against the position before it no piece count grew,
no king turned back into a man and the side to move alternated.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import draughts
import naive
from draughts import Color, Move, Position

MACHINE_VARIANTS = (
    *(draughts.VARIANTS[name] for name in draughts.rules.variants.FEDERATION_VARIANTS),
    draughts.no_forced_capture(draughts.get_variant("american")),
)


def counts(position: Position, color: Color) -> tuple[int, int]:
    """``(men, kings)`` of ``color``."""
    return len(position.squares(color, kings=False)), len(position.squares(color, kings=True))


class GameMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[Position] = []
        self.moves: list[Move] = []

    @initialize(rules=st.sampled_from(MACHINE_VARIANTS))
    def start(self, rules: draughts.Ruleset) -> None:
        self.stack = [Position.initial(rules)]
        self.moves = []

    @rule(choice=st.integers(0, 10**6))
    def play(self, choice: int) -> None:
        """Push a random legal move (at the end of a game, take the last move back instead)."""
        position = self.stack[-1]
        moves = position.legal_moves()
        if not moves:
            self.unplay()
            return
        move = moves[choice % len(moves)]
        self.stack.append(position.play(move))
        self.moves.append(move)

    @rule(choices=st.lists(st.integers(0, 10**6), min_size=2, max_size=12))
    def play_several(self, choices: list[int]) -> None:
        """Push several random moves, checking the invariants after each (games get deep)."""
        for choice in choices:
            self.play(choice)
            self.fen_round_trips()
            self.legal_moves_match_the_oracle()
            self.the_last_move_changed_only_what_it_should()

    @rule()
    def unplay(self) -> None:
        """Take the last move back (nothing to do at the start)."""
        if len(self.stack) > 1:
            self.stack.pop()
            self.moves.pop()

    @invariant()
    def fen_round_trips(self) -> None:
        position = self.stack[-1]
        assert Position.from_fen(position.ruleset, position.fen()) == position
        assert Position.from_fen(position.ruleset, position.fen(numeric=True)) == position

    @invariant()
    def legal_moves_match_the_oracle(self) -> None:
        position = self.stack[-1]
        got = [move.identity for move in position.legal_moves()]
        assert len(got) == len(set(got))
        assert set(got) == naive.position_identities(position), position.fen(numeric=True)

    @invariant()
    def the_last_move_changed_only_what_it_should(self) -> None:
        if len(self.stack) < 2:
            return
        before, after, move = self.stack[-2], self.stack[-1], self.moves[-1]
        side, other = before.turn, before.turn.opponent
        assert after.turn is other, "the side to move did not alternate"
        # No piece count increases; the mover keeps its pieces, the other side loses exactly the captured ones.
        men, kings = counts(before, side)
        men_after, kings_after = counts(after, side)
        assert men_after + kings_after == men + kings
        assert men_after <= men
        assert kings_after >= kings
        assert men_after == men - move.promotes
        other_men, other_kings = counts(before, other)
        other_men_after, other_kings_after = counts(after, other)
        assert other_men_after <= other_men
        assert other_kings_after <= other_kings
        assert other_men + other_kings - (other_men_after + other_kings_after) == len(move.captured)
        # Kings never turn back into men: every king not captured is still a king (the mover's where it went).
        for square in before.squares(side, kings=True) + before.squares(other, kings=True):
            if square in move.captured:
                continue
            where = move.end if square == move.start else square
            piece = after.piece_at(where)
            assert piece is not None
            assert piece.king, f"the king on {square} is no longer a king after {move}"

    @invariant()
    def turns_alternate_along_the_stack(self) -> None:
        for before, after in zip(self.stack, self.stack[1:], strict=False):
            assert after.turn is before.turn.opponent


TestGames = GameMachine.TestCase
TestGames.settings = settings(
    deadline=None, max_examples=60, stateful_step_count=60, suppress_health_check=[HealthCheck.too_slow]
)
