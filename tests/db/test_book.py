"""Opening books (draughts.db.book): the binary format byte for byte, probing, the book player, a match from a book."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

import draughts
from draughts import Board, Position, pdn
from draughts.db import Database
from draughts.db.book import ENTRY, MAGIC, Book, BookEntry, build_book, write_book
from draughts.db.moves import code_squares, move_code
from draughts.errors import BookError
from draughts.match.runner import EngineSpec, run_match
from draughts.players import RandomPlayer
from draughts.players.book import BookPlayer

LINES = [
    ("31-26 20-25 26-21", "2-0"),
    ("31-26 20-25 26-21", "1-1"),
    ("31-26 17-22", "0-2"),
    ("35-30", "1-1"),
]


def _database() -> Database:
    db = Database(":memory:")
    text = " ".join(
        f'[GameType "20"] [Round "{index}"] 1. {moves} {result}' for index, (moves, result) in enumerate(LINES)
    )
    db.add_games(pdn.parse_games(text))
    return db


@pytest.fixture
def book_path(tmp_path: Path) -> Path:
    path = tmp_path / "international.book"
    build_book(_database(), "international", path)
    return path


def test_the_file_is_the_documented_format(book_path: Path) -> None:
    data = book_path.read_bytes()
    magic, version, size, length, count = struct.unpack_from(">8sHHIQ", data)
    assert (magic, version, size) == (MAGIC, 1, 40) == (b"DRBOOK\r\n", 1, ENTRY.size)
    assert data[24 : 24 + length] == b"international"
    start = (24 + length + 7) // 8 * 8
    assert data[24 + length : start] == b"\0" * (start - 24 - length)
    assert len(data) == start + 40 * count
    entries = [struct.unpack_from(">QQIIIIII", data, start + 40 * i) for i in range(count)]
    # Positions: the start, after 31-26, after 31-26 20-25; moves 31-26, 35-30, 20-25, 17-22, 26-21.
    assert count == 5
    assert [(e[0], -e[2]) for e in entries] == sorted((e[0], -e[2]) for e in entries)
    start_key = Position.initial("international").key()
    at_start = {code_squares(e[1])[:2]: e[2:7] for e in entries if e[0] == start_key}
    assert at_start == {(31, 26): (3, 3, 1, 1, 1), (35, 30): (1, 1, 0, 1, 0)}
    assert all(e[7] == 0 for e in entries)


def test_probe_gives_the_moves_heaviest_first(book_path: Path) -> None:
    book = Book(book_path)
    assert len(book) == 5
    assert book.name == "international"
    assert [e.to_dict() for e in book.probe("international")] == [
        {"move": "31-26", "weight": 3, "games": 3, "white": 1, "draws": 1, "black": 1},
        {"move": "35-30", "weight": 1, "games": 1, "white": 0, "draws": 1, "black": 0},
    ]
    after = book.probe("international", "B:W26,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1-20")
    assert [e.text for e in after] == ["20-25", "17-22"]
    assert book.probe("international", "W:W31:B1") == []


def test_score_weighting_counts_wins_and_draws_for_the_mover(tmp_path: Path) -> None:
    path = tmp_path / "score.book"
    build_book(_database(), "international", path, weighting="score")
    weights = {e.text: e.weight for e in Book(path).probe("international")}
    assert weights == {"31-26": 2 * 1 + 1, "35-30": 1}
    after = Position.initial("international").play(Board("international").parse_text("31-26"))
    assert {e.text: e.weight for e in Book(path).probe(after)} == {"17-22": 2, "20-25": 1}


def test_other_rules_and_broken_files_are_refused(book_path: Path, tmp_path: Path) -> None:
    with pytest.raises(BookError, match="book of international, not of frisian"):
        Book(book_path).probe("frisian")
    cut = tmp_path / "cut.book"
    cut.write_bytes(book_path.read_bytes()[:-3])
    with pytest.raises(BookError, match="cut or padded"):
        Book(cut)
    other = tmp_path / "other.book"
    other.write_bytes(b"polyglot" + bytes(100))
    with pytest.raises(BookError, match="not an opening book"):
        Book(other)


def test_write_book_sorts_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "b.book"
    path.write_bytes(b"old")
    entries = [BookEntry(5, 1, 1, 1, 0, 1, 0), BookEntry(2, 7, 1, 1, 1, 0, 0), BookEntry(5, 2, 9, 9, 9, 0, 0)]
    assert write_book(path, "russian", entries) == 3
    book = Book(path)
    assert [(e.key, e.code) for e in book._entries(5)] == [(5, 2), (5, 1)]
    assert [e.code for e in book._entries(2)] == [7]


def test_book_player_plays_the_book_then_its_player(book_path: Path) -> None:
    inner = RandomPlayer(seed=3)
    player = BookPlayer(inner, book_path, seed=1)
    board = Board("international")
    played = []
    for _ in range(6):
        move, _score = player.choose(board.copy())
        played.append(board.move_text(move))
        board.push(move)
    assert played[:3] in (["31-26", "20-25", "26-21"], ["31-26", "17-22", played[2]], ["35-30", *played[1:3]])
    book = Book(book_path)
    in_book = 0
    replay = Board("international")
    for text in played:
        if not book.probe(replay.position):
            break
        in_book += 1
        replay.push_text(text)
    assert player.book_moves == in_book
    assert in_book >= 2


def test_a_match_plays_book_moves_then_searches(book_path: Path, tmp_path: Path) -> None:
    output = tmp_path / "games.pdn"
    spec = EngineSpec("depth:1", {}, str(book_path))
    assert spec.label == "depth:1 book=international.book"
    result = run_match(spec, spec, games=2, ruleset="international", max_plies=12, workers=1, pdn=output)
    assert result is not None
    games = list(pdn.read_games(str(output)))
    assert len(games) == 2
    book = Book(book_path)
    for game in games:
        board = Board("international")
        moves = game.mainline_moves()
        from_book = 0
        for move in moves:
            entries = book.probe(board.position)
            if not entries:
                break
            assert move_code(move) in {e.code for e in entries}
            from_book += 1
            board.push(move)
        assert from_book >= 1
        assert len(moves) > from_book  # out of the book, the engine searched the rest


def test_the_codes_are_the_fmjd_identity() -> None:
    position = Position.from_fen("international", "W:W47:B42,32,31,21")
    codes = {move_code(move) for move in position.legal_moves}
    assert len(codes) == len(position.legal_moves)
    rng = random.Random(5)
    for variant in ("russian", "international", "frisian"):
        position = Position.initial(variant)
        for _ in range(60):
            moves = list(position.legal_moves)
            if not moves:
                break
            assert len({move_code(m) for m in moves}) == len(moves)
            position = position.play(rng.choice(moves))
    assert draughts.NATIVE is not None


def test_book_player_leaves_the_book_after_plies(book_path: Path) -> None:
    player = BookPlayer(RandomPlayer(seed=3), book_path, seed=1, plies=1)
    board = Board("international")
    for _ in range(3):
        move, _score = player.choose(board.copy())
        board.push(move)
    assert player.book_moves == 1


def test_the_hub_engine_answers_go_from_the_book(book_path: Path) -> None:
    import io

    from draughts.hub import serve
    from draughts.hub.protocol import parse_line

    out = io.StringIO()
    lines = ["hub", "init", "set-param name=level value=beginner", "go", "quit"]
    serve(ruleset="international", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out, book=book_path)
    done = [args for command, args in map(parse_line, out.getvalue().splitlines()) if command == "done"]
    assert [args["move"] for args in done] in (["31-26"], ["35-30"])
    out = io.StringIO()
    lines = ["hub", "init", "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", "go", "quit"]
    serve(ruleset="frisian", stdin=io.StringIO("\n".join(lines) + "\n"), stdout=out, book=book_path)
    done = [args for command, args in map(parse_line, out.getvalue().splitlines()) if command == "done"]
    assert len(done) == 1  # a book of other rules: the engine searched
