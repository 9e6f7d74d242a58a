"""The board page at phone and desktop sizes in a real headless Chromium (``pytest -m browser``),
for issue 40 §6 and §10: the endgame line of a start position fits a phone, the board stays in
view while the side panel scrolls at 1366 x 900, the FEN field suggests the shown variant's FEN,
and the analysis of a won endgame shows its whole line.

Chromium, its windows and the screenshots' folder are tests/web/conftest.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from draughts.endgame import Tablebase
from draughts.web.app import create_app
from draughts.web.server import running

pytestmark = pytest.mark.browser

Chromium = Callable[[int, int], WebDriver]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server with Russian endgame tables up to three pieces."""
    tables = tmp_path_factory.mktemp("tables")
    Tablebase("russian", tables).build("KKvK")
    app = create_app(default_variant="russian", tablebases=tables, workers=1, engine_workers=1)
    with running(app) as url:
        yield url.rstrip("/")


@pytest.fixture(scope="module")
def window(chromium: Chromium) -> WebDriver:
    return chromium(1280, 1000)


def wait(driver: WebDriver, condition: Any, timeout: float = 30, message: str = "") -> Any:
    waiting = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    return waiting.until(condition, message)


def open_board(driver: WebDriver, base_url: str, **params: str) -> None:
    driver.get(f"{base_url}/?{urlencode(params)}")
    wait(driver, lambda d: "#game=" in d.current_url and d.find_element(By.ID, "status").text != "Loading…")


def box(driver: WebDriver, selector: str) -> dict[str, float]:
    found: dict[str, float] = driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height,"
        " innerWidth: window.innerWidth, innerHeight: window.innerHeight,"
        " pageWidth: document.documentElement.scrollWidth};",
        selector,
    )
    return found


def in_view(driver: WebDriver, selector: str) -> bool:
    r = box(driver, selector)
    return r["width"] > 0 and r["top"] >= 0 and r["left"] >= 0 and r["bottom"] <= r["innerHeight"] + 0.5


def endgame_line(driver: WebDriver) -> str:
    element = driver.find_element(By.ID, "endgame")
    wait(driver, lambda d: element.get_attribute("data-result") not in ("pending", None), message="no endgame answer")
    return str(driver.find_element(By.ID, "endgame-verdict").text)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (420, 900), (1366, 900)])
def test_the_start_positions_endgame_line_is_short(
    window: WebDriver, base_url: str, shots: Path, width: int, height: int
) -> None:
    window.set_window_size(width, height)
    open_board(window, base_url, variant="russian")
    text = endgame_line(window)
    assert text == "Not in a built table: 24 pieces, the tables hold up to 3."
    assert "MMMM" not in window.find_element(By.ID, "endgame").text
    panel = box(window, "#endgame")
    assert panel["right"] <= panel["innerWidth"]
    assert panel["pageWidth"] <= panel["innerWidth"]  # nothing runs off the screen sideways
    window.execute_script("document.getElementById('endgame').scrollIntoView()")
    window.save_screenshot(str(shots / f"web-endgame-start-{width}.png"))


def test_the_board_stays_in_view_while_the_panel_scrolls(window: WebDriver, base_url: str, shots: Path) -> None:
    window.set_window_size(1366, 900)
    open_board(window, base_url, variant="international")
    assert in_view(window, "#board")
    for section in ("tree-section", "analysis", "pdn-text", "rules"):
        window.execute_script(f"document.getElementById('{section}').scrollIntoView()")
        wait(window, lambda d: d.execute_script("return window.scrollY") > 0, message="the page did not scroll")
        shown = box(window, f"#{section}")
        assert -1 <= shown["top"] < shown["innerHeight"], section  # scrolled to it (to a fraction of a pixel)
        assert in_view(window, "#board"), f"the board left the window with {section} in view: {box(window, '#board')}"
        assert in_view(window, "#status"), section
    window.save_screenshot(str(shots / "web-desktop-scrolled.png"))


def test_the_board_fills_a_phone_and_the_page_scrolls(window: WebDriver, base_url: str) -> None:
    """On a phone the layout is one column: the board first, the panel below it (no sticky board)."""
    window.set_window_size(390, 844)
    open_board(window, base_url, variant="russian")
    board = box(window, "#board")
    assert board["width"] >= 0.8 * board["innerWidth"]
    window.execute_script("document.getElementById('analysis').scrollIntoView()")
    assert box(window, "#board")["bottom"] < 0  # scrolled away with the page: the panel has the screen


def test_the_fen_placeholder_follows_the_variant(window: WebDriver, base_url: str, shots: Path) -> None:
    window.set_window_size(1366, 900)
    open_board(window, base_url, variant="russian")

    def placeholder(d: WebDriver) -> str:
        return str(d.find_element(By.ID, "fen-input").get_attribute("placeholder"))

    assert placeholder(window) == "FEN, e.g. W:Wa3,c3:Bb8,d8"
    Select(window.find_element(By.ID, "variant")).select_by_value("international")
    wait(window, lambda d: placeholder(d) == "FEN, e.g. W:W31-50:B1-20", message="not updated")
    Select(window.find_element(By.ID, "variant")).select_by_value("russian")
    wait(window, lambda d: placeholder(d) == "FEN, e.g. W:Wa3,c3:Bb8,d8", message="not updated")
    # The example, typed as it reads, sets the position: no error.
    window.find_element(By.ID, "fen-input").send_keys("W:Wa3,c3:Bb8,d8")
    window.find_element(By.ID, "set-fen").click()
    wait(window, lambda d: d.find_element(By.ID, "fen").text == "W:Wa3,c3:Bb8,d8", message="position not set")
    assert not window.find_element(By.ID, "toast").is_displayed()


def test_the_analysis_of_a_mate_in_7_shows_7_plies(window: WebDriver, base_url: str, shots: Path) -> None:
    window.set_window_size(1366, 900)
    open_board(window, base_url, variant="russian", fen="W:WK1,K2:BK28")
    window.execute_script("document.getElementById('analysis').scrollIntoView()")
    window.find_element(By.ID, "analyse").click()
    wait(window, lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis-lines li"), 60, "no analysis")
    first = window.find_element(By.CSS_SELECTOR, "#analysis-lines li")
    words = first.text.split()
    assert words[0] == "#7"
    moves = [word for word in words[1:] if "-" in word or ":" in word]
    assert len(moves) == 7, first.text
    window.save_screenshot(str(shots / "web-analysis-mate.png"))
