"""Stable position keys (draughts.keys, Position.key): fixed values, equal positions, the incremental update."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import draughts
from draughts import BLACK, WHITE, Board, Position
from draughts.keys import SEED, key_after, piece_word, position_key, state_index, word
from strategies import positions

# Keys written down when the definition was fixed (issue 42). They must never change: databases
# and books written by any version, and the native core's keys, depend on them.
FIXED = [
    ("international", None, 0xDEFFB658852002D1),
    ("russian", None, 0xAE583E885A64A43F),
    ("american", None, 0x83896D8B45BA4A9C),
    ("italian", None, 0xAE583E885A64A43F),
    ("brazilian", None, 0xAE583E885A64A43F),
    ("frisian", None, 0xDEFFB658852002D1),
    ("turkish", None, 0x8C3BC69A77343BFF),
    ("international", "B:W28,32,K5:B19,23,K46", 0x4BD6E622AE011A87),
    ("international", "W:W28,32,K5:B19,23,K46", 0x6607B521B1DFF424),
    ("russian", "W:Wc3,Kh2:Bf6,Ka7", 0xC38AF8A9186FA93C),
    ("frisian", "W:WK28,K33:BK3,K12", 0x866FAABE74BEF96D),
    ("frisian", "B:WK22,45:BK3,6:+0+122", 0x711807679F054D62),
    ("frisian", "W:WK22,45:B6,K9:+109+122", 0x5B3945F60963A185),
    ("frisian", "B:WK22,45:BK3,6", 0x53664CF4E1B4D82F),
    ("frisian", "W:WK22,45:B6,K9", 0xD23EAFE15468237E),
]


@pytest.mark.parametrize(("variant", "fen", "key"), FIXED)
def test_fixed_keys(variant: str, fen: str | None, key: int) -> None:
    position = Position.initial(variant) if fen is None else Position.from_fen(variant, fen)
    assert position.key() == key
    assert position_key(position) == key


def test_words_are_splitmix64() -> None:
    # splitmix64's published first outputs (seeds 0 and 1234567), through the same formula with another seed.
    mask = (1 << 64) - 1

    def output(seed: int, index: int) -> int:
        z = (seed + (index + 1) * 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    assert output(0, 0) == 0xE220A8397B1DCDAF
    assert output(1234567, 0) == 6457827717110365317
    assert [word(i) for i in range(5)] == [output(SEED, i) for i in range(5)]
    assert int.from_bytes(b"draughts", "big") == SEED


def test_key_is_the_xor_of_its_words() -> None:
    position = Position.from_fen("international", "B:W28,K5:B19")
    expected = word(0) ^ piece_word(28, WHITE, False) ^ piece_word(5, WHITE, True) ^ piece_word(19, BLACK, False)
    assert position.key() == expected


def test_rule_state_enters_the_key() -> None:
    with_count = Position.from_fen("frisian", "B:WK22,45:BK3,6:+0+122")
    without = Position.from_fen("frisian", "B:WK22,45:BK3,6")
    assert with_count.king_moves(WHITE) == (22, 1)
    assert with_count.key() ^ without.key() == word(state_index(22, WHITE, 1))


def test_transpositions_share_a_key() -> None:
    board_a, board_b = Board("international"), Board("international")
    for text in ("32-28", "17-21", "34-29"):
        board_a.push_text(text)
    for text in ("34-29", "17-21", "32-28"):
        board_b.push_text(text)
    assert board_a.position == board_b.position
    assert board_a.position.key() == board_b.position.key()
    assert board_a.position.key() != Position.initial("international").key()


@settings(max_examples=60)
@given(positions(), st.data())
def test_equal_positions_equal_keys(position: Position, data: st.DataObject) -> None:
    again = Position.from_fen(position.ruleset, position.fen())
    assert again == position
    assert again.key() == position.key()
    assert 0 <= position.key() < 1 << 64
    flipped = Position.from_pieces(position.ruleset, position.pieces(), position.turn.opponent)
    assert flipped.key() == position.key() ^ word(0) or position.ruleset.king_move_limit


@pytest.mark.parametrize("variant", sorted(draughts.VARIANTS))
def test_key_after_is_the_key_of_the_next_position(variant: str) -> None:
    rng = random.Random(variant)
    for _ in range(3):
        position = Position.initial(variant)
        key = position.key()
        for _ in range(120):
            moves = list(position.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            key = key_after(position, key, move)
            position = position.play(move)
            assert key == position.key()
