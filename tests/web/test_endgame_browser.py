"""The board page's endgame panel in a real headless Chromium (``pytest -m browser``): a position
of a built American KvK table shows its verdict and best moves, the panel follows the moves
played, and a position outside the tables says so. The browser comes from conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

import draughts
from draughts.endgame import Tablebase
from draughts.notation import move_text
from draughts.web.app import create_app
from draughts.web.server import running
from test_web_browser import Board

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tables")
    Tablebase("american", directory).build("KvK")
    return directory


@pytest.fixture(scope="module")
def base_url(tables: Path) -> Iterator[str]:
    app = create_app(default_variant="american", tablebases=tables, max_engine_time=5.0)
    with running(app) as url:
        yield url.rstrip("/")


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> Iterator[Board]:
    yield Board(browser, base_url)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


def panel(page: Board, fen: str) -> tuple[str, str, str]:
    """The panel's verdict, best-moves line and result once it shows ``fen``."""
    page.wait(
        lambda d: (
            page.find("#endgame").get_attribute("data-fen") == fen
            and page.find("#endgame").get_attribute("data-result") not in ("pending", None)
        ),
        message=f"the endgame panel did not show {fen}",
    )
    element = page.find("#endgame")
    return page.find("#endgame-verdict").text, page.find("#endgame-best").text, element.get_attribute("data-result")


def test_the_panel_shows_the_kvk_verdict_and_follows_the_game(page: Board, tables: Path, shots: Path) -> None:
    page.open(variant="american", fen="B:WK29:BK28")
    assert page.find("#endgame").is_displayed()
    verdict, best, result = panel(page, "B:WK29:BK28")
    assert result == "win"
    assert verdict == "Black to move wins in 11 plies."  # the longest KvK win of Ed Trice's count
    assert best == "Fastest wins: 28-24 28-32 (KvK)"
    assert best_moves(page) == ["28-24", "28-32"]
    page.driver.save_screenshot(str(shots / "web-endgame.png"))

    board = draughts.Board("american", "B:WK29:BK28")
    page.play((28, 24), board)  # one of the fastest wins, by clicks on the board: White now loses in 10
    verdict, best, result = panel(page, board.fen())
    assert result == "loss"
    assert verdict == "White to move loses in 10 plies."
    position = board.position
    longest = [move_text(position, move) for move in Tablebase("american", tables).best_moves(position)]
    assert longest
    assert best_moves(page) == longest
    assert best == f"Longest defences: {' '.join(longest)} (KvK)"

    # A best move's button plays it; the panel follows, and so does the move list.
    page.find(f'#endgame-best button.best-move[data-move="{longest[0]}"]').click()
    board.push(next(move for move in board.legal_moves if board.move_text(move) == longest[0]))
    verdict, _, result = panel(page, board.fen())
    assert (result, verdict) == ("win", "Black to move wins in 9 plies.")
    assert page.history()[-1] == longest[0]
    page.button("undo")
    assert panel(page, position.fen())[2] == "loss"


def best_moves(page: Board) -> list[str]:
    script = "return [...document.querySelectorAll('#endgame-best button.best-move')].map((b) => b.dataset.move)"
    moves: list[str] = page.driver.execute_script(script)
    return moves


def test_a_position_outside_the_tables_says_so(page: Board) -> None:
    page.open(variant="american", fen="B:WK29:B28")
    verdict, best, result = panel(page, "B:WK29:B28")
    assert result == "none"
    assert verdict == "Not in a built table: MvK of american is not built."
    assert best == ""  # the verdict line names the material already (issue 40 §6: no second line)
    assert best_moves(page) == []
