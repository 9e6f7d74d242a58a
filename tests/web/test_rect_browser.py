"""The web board on a rectangular board (issue 41): Spantsiretti's 80 squares in Chromium.

Run with ``pytest -m browser``; ``POLYDRAUGHTS_SCREENSHOTS=docs/_static`` keeps the screenshot the
docs show (docs/web.rst).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver

import draughts
from draughts.web.app import create_app
from draughts.web.server import running
from test_web_browser import Board

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app(default_variant="spantsiretti", max_engine_time=5.0)
    with running(app) as url:
        yield url.rstrip("/")


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> Iterator[Board]:
    browser.set_window_size(1280, 1000)
    yield Board(browser, base_url)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not errors, errors


def test_spantsiretti_is_played_by_clicks_on_its_ten_by_eight_board(page: Board, shots: Path) -> None:
    page.open(variant="spantsiretti")
    board = draughts.Board("spantsiretti")
    assert page.fen() == board.fen()
    assert len(page.finds("#board rect.square[data-square]")) == 40
    assert len(page.finds("#board rect.square")) == 80
    picture = page.find("#board svg").rect
    assert picture["width"] > picture["height"]  # ten files across, eight ranks up
    assert sorted(page.pieces()) == sorted(board.position.pieces())
    rules = board.ruleset
    for text in ("c3-d4", "f6-e5", "d4:f6", "g7:e5"):
        move = board.parse_text(text)
        page.play(move.path, board)
    assert board.position.fen() == draughts.Position.from_fen(rules, page.fen()).fen()
    page.driver.save_screenshot(str(shots / "web-spantsiretti.png"))
