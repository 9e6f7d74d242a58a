"""The lab plays from an opening book: weighted random book exits, seeded (issue 42 §4)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from draughts import Board
from draughts.cli import main
from draughts.db.book import Book, BookOpenings
from draughts.db.engine_book import build_engine_book
from draughts.errors import BookError
from draughts.lab.runner import lab_tasks, resolve_openings, run_lab, start_board


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("openings") / "russian.book"
    build_engine_book("russian", path, player="depth:2", plies=4)
    return path


def _book_moves(book: Book, moves: tuple[str, ...]) -> int:
    """How many of ``moves``, played from the start, are book moves where they are played."""
    board = Board("russian")
    for number, text in enumerate(moves):
        if text not in {entry.text for entry in book.probe(board.position)}:
            return number
        board.push_text(text)
    return len(moves)


def test_book_exits_are_distinct_book_lines_drawn_by_a_seed(book: Path) -> None:
    openings = BookOpenings(book, count=6, seed=3).openings("russian")
    assert len(openings) == 6
    assert len({opening.moves for opening in openings}) == 6
    opened = Book(book)
    for opening in openings:
        assert len(opening.moves) == 4  # the book is 4 plies deep: every walk leaves it there
        assert _book_moves(opened, opening.moves) == 4
    assert openings == BookOpenings(book, 6, 3).openings("russian")
    assert openings != BookOpenings(book, 6, 4).openings("russian")
    short = BookOpenings(book, 3, 3, plies=2).openings("russian")
    assert all(len(opening.moves) == 2 for opening in short)


def test_a_lab_run_from_a_book_starts_every_game_with_book_moves(book: Path) -> None:
    source = BookOpenings(book, count=3, seed=1)
    tasks = lab_tasks(["russian"], 6, players=("depth:1",), seed=2, max_plies=40, openings=source)
    opened = Book(book)
    assert [task.opening_index for task in tasks] == [0, 0, 1, 1, 2, 2]  # each exit played with both colours
    for task in tasks:
        assert task.opening is not None
        assert _book_moves(opened, task.opening.moves) == len(task.opening.moves) == 4
        assert start_board(task).ply() == 4
    figures = run_lab(["russian"], 6, players=("depth:1",), seed=2, max_plies=40, openings=source)
    assert figures["russian"].games == 6
    resolved = resolve_openings("russian", source)
    assert [(o.moves, o.name) for o in resolved] == [(o.moves, o.name) for o in source.openings("russian")]
    assert [o.name for o in resolved] == ["book 1", "book 2", "book 3"]


def test_a_book_of_other_rules_or_a_bad_count_is_refused(book: Path) -> None:
    with pytest.raises(BookError, match="not of international"):
        BookOpenings(book, 2).openings("international")
    with pytest.raises(BookError, match="count and plies from 1"):
        BookOpenings(book, 0).openings("russian")


def test_draughts_lab_book(book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "games.jsonl"
    argv = ["lab", "russian", "--games", "4", "--players", "depth:1", "--book", str(book), "--max-plies", "30"]
    out = io.StringIO()
    assert main([*argv, "--workers", "1", "--format", "json", "--results", str(results)], out=out) == 0
    assert json.loads(out.getvalue())["russian"]["games"] == 4
    runs = [json.loads(json.loads(line)["run"]) for line in results.read_text().splitlines()]
    openings = [run[3]["moves"] for run in runs]
    assert all(_book_moves(Book(book), tuple(moves)) == len(moves) == 4 for moves in openings)
    assert main([*argv, "--book-plies", "1", "--workers", "1"], out=io.StringIO()) == 0
    assert main([*argv, "--random-openings", "2"], out=io.StringIO()) == 2
    assert "exclude each other" in capsys.readouterr().err
    assert main(["lab", "russian", "--book", str(tmp_path / "none.book")], out=io.StringIO()) == 2
    assert "cannot read the book" in capsys.readouterr().err
