"""The match script's opening filter (tools/engine_match.py ``--openings balanced``).

The filter is fixed before a match and reads nothing of its games: a random opening is kept where
the material is equal and every judge scores it within the margin. What is tested is that rule
(with judges written here, which count what they are asked), its reproducibility, and the
player's ``judge`` command on the engine this checkout builds (a quick fixed-depth search).
"""

from __future__ import annotations

import importlib.util
import sys
import zlib
from pathlib import Path
from types import ModuleType

import pytest

from draughts import Board, Color


def _load() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "engine_match.py"
    spec = importlib.util.spec_from_file_location("engine_match", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["engine_match"] = module
    spec.loader.exec_module(module)
    return module


em = _load()


def _board(variant: str, moves: list[str]) -> Board:
    board = Board(variant)
    for text in moves:
        board.push({em.token(move): move for move in board.legal_moves}[text])
    return board


def _equal(board: Board) -> bool:
    return board.position.material(Color.WHITE) == board.position.material(Color.BLACK)


def test_kept_openings_have_equal_material_and_every_judge_within_the_margin() -> None:
    asked: list[str] = []

    def level(fen: str) -> int:
        asked.append(fen)
        return 0

    def picky(fen: str) -> int:  # scores every second position it is asked about out of the margin
        return 31 if len(asked) % 2 else -30

    kept, tried = em.balanced_openings("russian", 1, 6, 4, [level, picky], margin=30)
    assert len(kept) == 6
    assert [o.seed for o in kept] == sorted(o.seed for o in kept)
    assert all(_equal(_board("russian", o.moves)) for o in kept)
    assert all(o.scores[0] == 0 and abs(o.scores[1]) <= 30 for o in kept)
    # Only openings of equal material reach the judges, in seed order (a kept position never
    # again): every other one of them the second judge put out of the margin.
    candidates = [em.opening_of("russian", seed, 4) for seed in range(1, 1 + tried)]
    boards = [_board("russian", moves) for moves in candidates]
    judged = [board.fen(numeric=True) for board in boards if _equal(board)]
    remaining = iter(judged)
    assert all(fen in remaining for fen in asked)  # in seed order, each of equal material
    assert len(asked) == 2 * len(kept)
    assert all(asked.count(_board("russian", o.moves).fen(numeric=True)) == 1 for o in kept)
    # Each kept opening reaches a position no other kept one reaches.
    assert len({_board("russian", o.moves).fen() for o in kept}) == len(kept)


def test_an_opening_that_repeats_a_kept_position_is_skipped() -> None:
    kept, tried = em.balanced_openings("russian", 1, 48, 4, [lambda fen: 0], margin=0)
    positions = [_board("russian", em.opening_of("russian", seed, 4)).fen() for seed in range(1, 1 + tried)]
    assert len(set(positions)) < len(positions)  # four random plies repeat within these candidates
    kept_positions = [_board("russian", o.moves).fen() for o in kept]
    assert len(set(kept_positions)) == len(kept) == 48


def test_an_opening_that_loses_a_man_is_never_kept_whatever_the_judges_say() -> None:
    kept, tried = em.balanced_openings("russian", 1, 24, 4, [lambda fen: 0], margin=0)
    unequal = [seed for seed in range(1, 1 + tried) if not _equal(_board("russian", em.opening_of("russian", seed, 4)))]
    assert unequal  # four random plies lose a man in some of these candidates
    assert not {o.seed for o in kept} & set(unequal)


def test_the_same_rule_and_seed_give_the_same_openings() -> None:
    def judge(fen: str) -> int:  # a judge that depends on the position only
        return zlib.crc32(fen.encode()) % 100 - 50

    first = em.balanced_openings("international", 7, 5, 4, [judge], margin=20)
    again = em.balanced_openings("international", 7, 5, 4, [judge], margin=20)
    assert first == again
    assert all(abs(judge(_board("international", o.moves).fen(numeric=True))) <= 20 for o in first[0])


def test_too_few_openings_within_the_margin_stop_the_match_and_say_why() -> None:
    with pytest.raises(SystemExit, match="only 0 of 3 openings within \\+-10"):
        em.balanced_openings("russian", 1, 3, 4, [lambda fen: 500], margin=10, tries=2)


def test_the_players_judge_command_scores_a_man_up_and_a_level_position(tmp_path: Path) -> None:
    script = tmp_path / "player.py"
    script.write_text(em.PLAYER, encoding="utf-8")
    player = em.Player("polydraughts", script, tmp_path, str(tmp_path))
    try:
        # White to move takes the man on d4 (c3:e5) and is a man up.
        assert player.judge("russian", 3, "W:Wc3,a1,h2:Bd4,h8,a7") >= 80
        assert abs(player.judge("russian", 2, Board("russian").fen(numeric=True))) <= 30
    finally:
        player.close()
