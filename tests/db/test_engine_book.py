"""Opening books built by the engine (draughts.db.engine_book), merged with a database's (issue 42 §4)."""

from __future__ import annotations

import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from draughts import Board, Position, pdn
from draughts.cli import main
from draughts.db import Database
from draughts.db.book import Book, build_book, merge_books
from draughts.db.engine_book import FULL_WEIGHT, build_engine_book, move_weight, score_node
from draughts.engine import Engine, Limit
from draughts.errors import BookError, PlayerSpecError
from draughts.notation import move_text
from draughts.players import RandomPlayer
from draughts.players.book import BookPlayer


@pytest.fixture(scope="module")
def russian_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("engine") / "russian.book"
    build_engine_book("russian", path, player="depth:3", plies=3, seed=1)
    return path


def _tree(book: Book, ruleset: str, plies: int) -> list[Position]:
    """Every position of the book's tree from the start, reached through book moves within ``plies``."""
    level = [Position.initial(ruleset)]
    found: list[Position] = []
    for _ in range(plies):
        following: list[Position] = []
        for position in level:
            found.append(position)
            following.extend(position.play(entry.move) for entry in book.probe(position) if entry.move is not None)
        level = following
    return found


def test_every_position_of_the_tree_has_its_kept_moves_weighted_by_the_formula(russian_book: Path) -> None:
    book = Book(russian_book)
    tree = _tree(book, "russian", 3)
    assert len(tree) > 10
    for position in tree[:8]:
        entries = book.probe(position)
        lines = Engine(seed=0).analyse(position, Limit(depth=3), multipv=len(position.legal_moves()))
        best = lines[0].score.to_search()
        expected = {
            line.move: move_weight(best - line.score.to_search(), halving=25, margin=50)
            for line in lines
            if best - line.score.to_search() <= 50
        }
        assert {entry.move: entry.weight for entry in entries} == expected
        assert entries[0].weight == FULL_WEIGHT
        assert all(entry.games == entry.white == entry.draws == entry.black == 0 for entry in entries)
    keys = {position.key() for position in tree}
    assert {entry.key for entry in book} == keys  # nothing but the tree's positions, each expanded


def test_the_weights_halve_and_the_margin_cuts() -> None:
    assert [move_weight(loss, halving=10, margin=30) for loss in (0, 10, 20, 30, 31)] == [1000, 500, 250, 125, 0]
    assert move_weight(10_000, halving=10, margin=30) == 0
    assert move_weight(1_000, halving=10, margin=1_000) == 1  # kept moves weigh at least 1


def test_a_move_that_loses_a_man_is_left_out() -> None:
    position = Position.from_fen("international", "W:W32:B23")  # 32-28 walks into 23x32
    moves = position.legal_moves()
    scored = score_node(position, "depth:4", 0, 25, 50)
    assert [(move_text(position, moves[number]), weight) for _, weight, number in scored] == [("32-27", 1000)]


def test_a_seed_gives_the_same_file_byte_for_byte_here_or_over_an_executor(tmp_path: Path) -> None:
    first, second, third = tmp_path / "a.book", tmp_path / "b.book", tmp_path / "c.book"
    build_engine_book("international", first, player="depth:2", plies=2, seed=7)
    with ThreadPoolExecutor(2) as pool:
        build_engine_book("international", second, player="depth:2", plies=2, seed=7, executor=pool)
    assert first.read_bytes() == second.read_bytes()
    build_engine_book("international", third, player="nodes:300", plies=2, seed=7)
    assert Book(third).name == "international"


def test_width_expands_only_the_heaviest_moves(tmp_path: Path) -> None:
    path = tmp_path / "narrow.book"
    build_engine_book("russian", path, player="depth:2", plies=2, width=1)
    book = Book(path)
    root = Position.initial("russian")
    keys = {entry.key for entry in book}
    assert keys == {root.key(), root.play(book.probe(root)[0].move).key()}  # type: ignore[arg-type]
    assert len(book.probe(root)) > 1  # the root's other kept moves are still written


def test_a_book_from_a_fen_and_bad_arguments(tmp_path: Path) -> None:
    fen = "W:W21,22,23:B9,10,11"
    path = tmp_path / "fen.book"
    build_engine_book("russian", path, player="depth:2", plies=1, fen=fen)
    assert Book(path).probe("russian", fen)
    assert not Book(path).probe("russian")
    with pytest.raises(PlayerSpecError, match="'random'"):
        build_engine_book("russian", path, player="random")
    for bad in ({"plies": 0}, {"halving": 0}, {"margin": -1}, {"width": 0}):
        with pytest.raises(BookError, match=str(next(iter(bad.values())))):
            build_engine_book("russian", path, **bad)  # type: ignore[arg-type]


def test_the_book_player_plays_the_engine_book(russian_book: Path) -> None:
    player = BookPlayer(RandomPlayer(seed=5), russian_book, seed=3)
    board = Board("russian")
    book = Book(russian_book)
    for _ in range(3):
        move, _ = player.choose(board.copy())
        assert move in {entry.move for entry in book.probe(board.position)}
        board.push(move)
    assert player.book_moves == 3


def _database_book(path: Path) -> None:
    database = Database(":memory:")
    database.add_games(pdn.parse_games('[GameType "25"] 1. c3-d4 f6-g5 1-0 [GameType "25"] 1. c3-d4 b6-a5 1/2-1/2'))
    build_book(database, "russian", path)


def test_merge_keeps_the_first_books_positions_and_fills_from_the_others(russian_book: Path, tmp_path: Path) -> None:
    games, merged = tmp_path / "games.book", tmp_path / "merged.book"
    _database_book(games)
    merge_books([games, russian_book], merged)
    book, engine = Book(merged), Book(russian_book)
    root = Position.initial("russian")
    assert [(e.text, e.games) for e in book.probe(root)] == [("c3-d4", 2)]  # the games' moves, not the engine's
    after = root.play(next(m for m in root.legal_moves() if move_text(root, m) == "c3-d4"))
    assert sorted((e.text, e.games) for e in book.probe(after)) == [("b6-a5", 1), ("f6-g5", 1)]
    other = root.play(next(m for m in root.legal_moves() if move_text(root, m) == "a3-b4"))
    assert [e.weight for e in book.probe(other)] == [e.weight for e in engine.probe(other)]  # filled by the engine
    build_engine_book("international", tmp_path / "i.book", player="depth:1", plies=1)
    with pytest.raises(BookError, match="different rules"):
        merge_books([merged, tmp_path / "i.book"], tmp_path / "x.book")
    with pytest.raises(BookError, match="no books"):
        merge_books([], tmp_path / "x.book")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_book_build_by_the_engine_on_the_command_line(russian_book: Path, tmp_path: Path) -> None:
    path = str(tmp_path / "cli.book")
    status, text = run(
        "book", "build", "--engine", "depth:3", "--plies", "3", "--seed", "1", path, "--variant", "russian"
    )
    assert status == 0, text
    assert "entries (russian) written to" in text
    assert Path(path).read_bytes() == russian_book.read_bytes()  # the Python function's book
    status, text = run("book", "probe", path, "russian", "--format", "json")
    moves = json.loads(text)["moves"]
    assert moves[0]["weight"] == FULL_WEIGHT
    assert moves[0]["games"] == 0


def test_book_build_merges_a_database_and_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = str(tmp_path / "games.db")
    source = tmp_path / "games.pdn"
    source.write_text('[GameType "25"]\n1. c3-d4 f6-g5 1-0\n', encoding="utf-8")
    assert run("db", "import", database, str(source), "--workers", "1")[0] == 0
    path = str(tmp_path / "both.book")
    status, text = run("book", "build", database, path, "--variant", "russian", "--engine", "depth:2", "--plies", "2")
    assert status == 0, text
    book = Book(path)
    assert [(e.text, e.games) for e in book.probe("russian")] == [("c3-d4", 1)]
    assert any(entry.games == 0 for entry in book)
    merged = str(tmp_path / "again.book")
    assert run("book", "merge", merged, path)[0] == 0
    assert Path(merged).read_bytes() == Path(path).read_bytes()
    assert run("book", "build", path, "--variant", "russian")[0] == 2
    assert "DB BOOK, or BOOK with --engine" in capsys.readouterr().err
    assert run("book", "build", path, "--variant", "russian", "--engine", "human")[0] == 2
    assert "'human'" in capsys.readouterr().err


def test_engine_options_without_the_engine_are_refused_not_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = str(tmp_path / "games.db")
    source = tmp_path / "games.pdn"
    source.write_text('[GameType "25"]\n1. c3-d4 f6-g5 1-0\n', encoding="utf-8")
    assert run("db", "import", database, str(source), "--workers", "1")[0] == 0
    path = tmp_path / "games.book"
    status, _ = run("book", "build", database, str(path), "--variant", "russian", "--plies", "3", "--seed", "2")
    assert status == 2
    assert "--plies, --seed shape a book built by the engine: add --engine PLAYER" in capsys.readouterr().err
    assert not path.exists()
    assert run("book", "build", database, str(path), "--variant", "russian")[0] == 0
    assert [entry.text for entry in Book(str(path)).probe("russian")] == ["c3-d4"]
