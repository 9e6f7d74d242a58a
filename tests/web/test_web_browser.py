"""The web board in a real headless Chromium, driven by Selenium: games played by clicks, undo, the
engine's reply, a FEN loaded, PDN out and back in, the comparison page, a phone-sized screen.

Run with ``pytest -m browser``; the browser comes from ``conftest.py`` (Debian's ``chromium`` and
``chromium-driver``; without them the tests fail, they never skip).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlencode

import attrs
import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

import draughts
from draughts.compare import moves_table, rules_table
from draughts.web.app import create_app
from draughts.web.server import running

pytestmark = pytest.mark.browser


# Short games found by a cooperative search and checked by the library as the test replays them.
# Russian: a white man crowned in the middle of a capture goes on capturing as a king (h4:a5,
# through d8); White wins when Black has no piece left.
RUSSIAN_GAME = [
    (22, 17), (11, 16), (23, 18), (10, 15), (18, 11, 20), (6, 10), (17, 13), (12, 16), (13, 6, 15), (2, 6),
    (20, 11, 2, 13), (5, 9), (13, 2), (1, 5), (15, 10), (3, 7), (10, 3, 12), (5, 9), (2, 13), (4, 8), (12, 3),
]  # fmt: skip
RUSSIAN_CROWNING_PLY = 11
# Italian: White wins when Black, with pieces left, has no legal move.
ITALIAN_GAME = [
    (21, 18), (11, 14), (18, 11), (6, 15), (23, 20), (2, 6), (20, 11, 2), (10, 14), (28, 23), (9, 13),
    (2, 9, 18, 11), (1, 5), (23, 19), (3, 6), (11, 2, 9), (12, 15), (19, 12, 3), (4, 7), (3, 12),
]  # fmt: skip


HOSTILE_TITLE = "<img src=x onerror=alert(1)>"
HOSTILE = attrs.evolve(draughts.get_variant("brazilian"), name="hostile-pool", title=HOSTILE_TITLE)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """A real uvicorn server on a free loopback port, in a thread (the server's own settings)."""
    app = create_app(default_variant="russian", custom=[HOSTILE], max_engine_time=5.0)
    with running(app) as url:
        yield url.rstrip("/")


@pytest.fixture
def page(browser: WebDriver, base_url: str) -> Iterator[Board]:
    browser.set_window_size(1280, 1000)
    board = Board(browser, base_url)
    yield board
    # The page's own errors; a 4xx answer the page shows as a message is logged too, and expected.
    errors = [
        entry
        for entry in browser.get_log("browser")
        if entry["level"] == "SEVERE" and "the server responded with a status of 4" not in entry["message"]
    ]
    assert not errors, errors


class Board:
    """The board page as a person uses it: clicks on squares, buttons and text boxes."""

    def __init__(self, driver: WebDriver, base_url: str) -> None:
        self.driver = driver
        self.base_url = base_url

    def wait(self, condition: object, timeout: float = 15, message: str = "") -> object:
        # The board is redrawn after every answer: an element found just before may be gone.
        waiting = WebDriverWait(
            self.driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
        )
        return waiting.until(condition, message)  # type: ignore[arg-type]

    def open(self, **params: str) -> None:
        self.driver.get(f"{self.base_url}/?{urlencode(params)}")
        self.wait(lambda d: "#game=" in d.current_url and self.status() != "Loading…", message="board not ready")

    def find(self, selector: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def finds(self, selector: str) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def fen(self) -> str:
        return self.find("#fen").text

    def status(self) -> str:
        return self.find("#status").text

    # Read in one script call: the page redraws after every answer, so elements found one by one
    # may be replaced in between.
    def history(self) -> list[str]:
        script = "return [...document.querySelectorAll('#history button.ply')].map((b) => b.textContent)"
        texts: list[str] = self.driver.execute_script(script)
        return texts

    def current_ply(self) -> str | None:
        text: str | None = self.driver.execute_script(
            "const b = document.querySelector('#history button.current'); return b ? b.textContent : null"
        )
        return text

    def pieces(self) -> dict[int, str]:
        script = (
            "return [...document.querySelectorAll('#board [data-piece]')]"
            ".map((p) => [p.getAttribute('data-square'), p.getAttribute('data-piece')])"
        )
        pairs: list[list[str]] = self.driver.execute_script(script)
        return {int(square): piece for square, piece in pairs}

    def waypoints(self) -> set[int]:
        script = "return [...document.querySelectorAll('#board [data-waypoint]')].map((m) => m.dataset.waypoint)"
        return {int(square) for square in self.driver.execute_script(script)}

    def square(self, number: int) -> WebElement:
        return self.find(f'#board rect.square[data-square="{number}"]')

    def click_square(self, number: int) -> None:
        # A click where a person clicks: the middle of the square, on whatever is drawn there.
        ActionChains(self.driver).move_to_element(self.square(number)).click().perform()

    def drag(self, start: int, end: int) -> None:
        piece = self.find(f'#board g.piece[data-square="{start}"]')
        actions = ActionChains(self.driver).click_and_hold(piece).move_by_offset(5, 5)
        actions.move_to_element(self.square(end)).release().perform()

    def play(self, path: tuple[int, ...], board: draughts.Board, *, drag: bool = False) -> None:
        """Play a move by clicking its start and end, then the squares along the way when asked."""
        move = next(m for m in board.legal_moves if m.path == path)
        text = board.move_text(move)
        board.push(move)
        if drag:
            self.drag(path[0], path[-1])
        else:
            self.click_square(path[0])
            self.click_square(path[-1])
        while self.find("#chooser").is_displayed():
            offered = self.waypoints()
            next_square = next(square for square in path[1:] if square in offered)
            self.click_square(next_square)
        self.wait(lambda d: self.fen() == board.fen() and self.current_ply() == text, message=f"move {text} not played")

    def button(self, element_id: str) -> None:
        self.find(f"#{element_id}").click()


def test_missing_browser_fails_loudly(find_binary: Callable[[str, str], str]) -> None:
    with pytest.raises(pytest.fail.Exception, match="apt-get install -y chromium chromium-driver"):
        find_binary("no-such-browser-here", "/nonexistent/no-such-browser-here")


def test_russian_game_by_clicks_with_a_man_crowned_mid_capture(page: Board, shots: Path) -> None:
    page.open(variant="russian")
    board = draughts.Board("russian")
    assert page.fen() == board.fen()
    assert len(page.finds("#board rect.square[data-square]")) == 32
    assert sorted(page.pieces()) == sorted(board.position.pieces())
    for ply, path in enumerate(RUSSIAN_GAME, 1):
        page.play(path, board, drag=ply == 1)
        if ply == RUSSIAN_CROWNING_PLY:
            move = board.peek()
            crowning_row = {sq for sq in range(1, 33) if board.ruleset.geometry.coords[sq][1] == 7}
            assert move.promotes
            assert crowning_row & set(move.path[1:-1])  # crowned on the way, then captured on as a king
            assert page.pieces()[move.end] == "white-king"
            assert board.history_text()[-1] == "h4:a5"
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.winner is draughts.WHITE
    page.wait(lambda d: page.find("#outcome").is_displayed())
    assert page.status() == f"Game over. White wins ({outcome.result}): {outcome.rule}."
    assert page.find("#outcome-text").text == "White wins — 1-0. Black has no pieces left."
    assert page.history() == board.history_text()
    page.driver.save_screenshot(str(shots / "russian-game-over.png"))


def test_italian_game_by_clicks(page: Board) -> None:
    page.open(variant="italian")
    page.find("#rules summary").click()  # the rules of the variant, from its ruleset
    page.wait(lambda d: page.finds('#rules tr[data-key="men_capture_kings"] td'))
    assert page.find('#rules tr[data-key="men_capture_kings"] td').text == "no"
    board = draughts.Board("italian")
    for path in ITALIAN_GAME:
        page.play(path, board)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.rule == "black has no legal move"
    page.wait(lambda d: page.find("#outcome").is_displayed())
    assert "White wins (1-0): black has no legal move" in page.status()
    assert board.position.squares(draughts.BLACK)  # blocked, not captured


def test_capture_paths_sharing_start_and_end(page: Board, shots: Path) -> None:
    """Two captures from 47 to 36: the player picks the path by the squares along the way."""
    page.open(variant="international", fen="W:WK47:B14,19,29,31,42")
    page.click_square(47)
    targets = {int(mark.get_attribute("data-target") or 0) for mark in page.finds("#board [data-target]")}
    assert targets == {36}
    page.click_square(36)
    page.wait(lambda d: page.find("#chooser").is_displayed())
    assert page.waypoints() == {20, 24}
    assert sorted(button.text for button in page.finds("#chooser-paths button")) == ["47x38x20x9x36", "47x38x24x13x36"]
    page.driver.save_screenshot(str(shots / "web-board-path-choice.png"))
    page.click_square(24)
    page.wait(lambda d: page.history() == ["47x38x24x13x36"])
    board = draughts.Board("international", "W:WK47:B14,19,29,31,42")
    board.push_text("47x38x24x13x36")
    assert page.fen() == board.fen()


def test_undo_redo_and_clickable_plies(page: Board) -> None:
    page.open(variant="russian")
    board = draughts.Board("russian")
    for path in RUSSIAN_GAME[:3]:
        page.play(path, board)
    after = [position.fen() for position in board.positions()]
    page.button("undo")
    page.wait(lambda d: page.fen() == after[2])
    assert "future" in (page.finds("#history button.ply")[2].get_attribute("class") or "")
    page.button("redo")
    page.wait(lambda d: page.fen() == after[3])
    page.finds("#history button.ply")[0].click()
    page.wait(lambda d: page.fen() == after[1])
    assert page.current_ply() == board.history_text()[0]
    # Another move here replaces the rest of the line.
    board = draughts.Board("russian")
    board.push(next(m for m in board.legal_moves if m.path == RUSSIAN_GAME[0]))
    other = next(m for m in board.legal_moves if m.path != RUSSIAN_GAME[1])
    page.play(other.path, board)
    assert page.history() == board.history_text()
    assert len(page.history()) == 2


# Installed in the page: the computer's answers (POSTs to the game's engine) reach the page 1.5 s
# late, as a long search's would. The native engine answers the strong level in milliseconds, too
# soon to see the page think; held back, its answer comes while the person still uses the page.
SLOW_ENGINE = """
const answered = window.fetch.bind(window);
window.fetch = async (path, init) => {
  const response = await answered(path, init);
  const method = (init && init.method) || 'GET';
  if (method === 'POST' && String(path).includes('/engine')) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
  return response;
};
"""


def test_engine_replies_and_the_page_stays_responsive(page: Board) -> None:
    page.open(variant="international", black="computer", level="strong", time="2")
    page.driver.execute_script(SLOW_ENGINE)
    page.click_square(32)
    page.click_square(28)
    page.wait(lambda d: "thinking" in page.status(), timeout=5)
    started = time.monotonic()
    page.button("flip")  # while the computer thinks, the page answers
    page.wait(lambda d: page.find("#board svg").get_attribute("data-flipped") == "true", timeout=5)
    flipped_after = time.monotonic() - started
    page.wait(lambda d: len(page.history()) == 2, timeout=15, message="no engine reply")
    assert flipped_after < 1.5
    page.wait(lambda d: page.find("#board svg").get_attribute("data-flipped") == "true", timeout=5)
    board = draughts.Board("international")
    board.push_text("32-28")
    assert board.parse_text(page.history()[1]) in board.legal_moves
    assert page.status().startswith("White to move")
    page.wait(lambda d: page.find("#engine-info").text.startswith("strong: "), timeout=5, message="no engine info")


# Installed in the page: the first GET of the game drawn flipped is held back until the next one
# has its answer, then both are let through, the older first (answers that cross on the network).
# The computer's moves asked for (POSTs to the game's engine) are counted.
CROSSING_ANSWERS = """
window.enginePosts = 0;
window.crossed = false;
let held = null;
const original = window.fetch.bind(window);
window.fetch = async (path, init) => {
  const method = (init && init.method) || 'GET';
  if (method === 'POST' && String(path).includes('/engine')) window.enginePosts += 1;
  const response = await original(path, init);
  if (method !== 'GET' || !String(path).startsWith('/api/games/') || !String(path).includes('flipped=1')) {
    return response;
  }
  if (held === null) return new Promise((resolve) => { held = () => resolve(response); });
  const release = held;
  held = () => {};
  release();
  await new Promise((resolve) => setTimeout(resolve, 10));
  window.crossed = true;
  return response;
};
"""


def test_a_late_answer_does_not_undo_the_computers_move(page: Board) -> None:
    """A refresh sent before the computer's move but answered after it was drawn must not bring
    the old state back: the page once drew it and then let the computer play the person's side."""
    page.open(variant="international", black="computer", level="strong", time="2")
    page.driver.execute_script(SLOW_ENGINE)
    page.driver.execute_script(CROSSING_ANSWERS)
    page.click_square(32)
    page.click_square(28)
    page.wait(lambda d: "thinking" in page.status(), timeout=5)
    page.button("flip")  # its refresh is the held GET; the computer's move answers meanwhile
    page.wait(lambda d: page.driver.execute_script("return window.crossed"), timeout=15, message="no crossing")
    time.sleep(0.5)  # the page's engine timer (50 ms) would have fired by now
    assert page.driver.execute_script("return window.enginePosts") == 1  # Black's move only
    assert len(page.history()) == 2
    assert page.status().startswith("White to move")
    assert page.find("#board svg").get_attribute("data-flipped") == "true"


def test_fen_loaded_and_a_draw_claimed(page: Board) -> None:
    page.open(variant="american")
    fen = "B:WK18,K30:BK1,K5:H79"
    page.find("#fen-input").send_keys("W:W99")
    page.button("set-fen")
    page.wait(lambda d: page.find("#message").is_displayed())
    assert "W:W99" in page.find("#message").text
    assert page.fen() == draughts.Position.initial("american").fen()  # unchanged
    page.find("#fen-input").clear()
    page.find("#fen-input").send_keys(fen)
    page.button("set-fen")
    page.wait(lambda d: page.fen() == "B:WK18,K30:BK1,K5")
    assert page.pieces() == {1: "black-king", 5: "black-king", 18: "white-king", 30: "white-king"}
    assert not page.find("#claim").is_displayed()
    page.button("copy-fen")  # to the clipboard, or selected for Ctrl+C where the browser refuses
    page.wait(lambda d: page.find("#message").text in ("FEN copied.", "FEN selected: press Ctrl+C to copy it."))
    page.play((1, 6), draughts.Board("american", fen))
    page.wait(lambda d: page.find("#claim").is_displayed())
    page.button("claim-draw")
    page.wait(lambda d: page.status().startswith("Game over. Draw (1/2-1/2): draw claimed"))


def test_pdn_exported_and_imported(page: Board) -> None:
    page.open(variant="italian")
    board = draughts.Board("italian")
    for path in ((22, 18), (11, 14), (18, 11), (7, 14)):
        page.play(path, board)
    page.button("export-pdn")
    page.wait(lambda d: "1. 22-18 11-14 2. 18x11 7x14 *" in (page.find("#pdn-text").get_attribute("value") or ""))
    exported = page.find("#pdn-text").get_attribute("value") or ""
    assert '[GameType "22,W,8,8,N2,1"]' in exported
    assert page.find("#download-pdn").is_displayed()
    page.button("new-game")
    page.wait(lambda d: page.history() == [])
    assert page.fen() == draughts.Position.initial("italian").fen()
    page.button("import-pdn")
    page.wait(lambda d: page.history() == ["22-18", "11-14", "18x11", "7x14"])
    assert page.fen() == board.fen()


def test_a_game_started_from_a_ballot(page: Board) -> None:
    from draughts import openings

    page.open(variant="american")
    page.wait(lambda d: page.find("#ballot-section").is_displayed(), message="no ballot panel")
    page.wait(lambda d: len(page.finds("#ballot-opening option")) == 156, message="the deck's openings")
    Select(page.find("#ballot-opening")).select_by_value("5")
    page.button("ballot-start")
    page.wait(lambda d: page.history() == ["9-13", "22-18", "6-9"])
    assert page.fen() == openings.ballot("american", "acf-3-move")[3].fen
    assert "usacheckers.com" in page.find("#ballot-source").text
    Select(page.find("#ballot")).select_by_value("11-man")
    page.wait(lambda d: len(page.finds("#ballot-opening option")) == 2400)
    page.button("ballot-random")
    eleven = {o.fen for o in openings.ballot("american", "11-man")}
    page.wait(lambda d: len(page.history()) == 2 and page.fen() in eleven, message="no 11-man opening")
    page.open(variant="international")  # no ballots: no panel
    assert not page.find("#ballot-section").is_displayed()


def test_compare_italian_and_american(browser: WebDriver, base_url: str, shots: Path) -> None:
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/compare?variants=italian,american")
    WebDriverWait(browser, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rules-diff tbody tr"))
    rows = browser.find_elements(By.CSS_SELECTOR, "#rules-diff tbody tr")
    table = rules_table(["italian", "american"], differences_only=True)
    assert [row.get_attribute("data-key") for row in rows] == [row.key for row in table.rows]
    for element, row in zip(rows, table.rows, strict=True):
        cells = element.find_elements(By.CSS_SELECTOR, "th, td")
        assert [cell.text for cell in cells] == [row.label, *row.cells]
    cards = browser.find_elements(By.CSS_SELECTOR, "#boards .board-card")
    assert [card.get_attribute("data-variant") for card in cards] == ["italian", "american"]
    # Without a FEN each board shows its own start: White to move in Italian, Black in American.
    assert [card.find_element(By.CSS_SELECTOR, ".turn").text for card in cards] == ["white to move", "black to move"]
    assert "Inverted" not in browser.find_element(By.ID, "boards").text
    assert not browser.find_element(By.ID, "moves-table").is_displayed()
    assert "american: black moves first" in browser.find_element(By.ID, "moves-title").text
    # A diagram where they differ: a black man may take the white king in American checkers (and
    # must: capture is compulsory), not in Italian draughts.
    fen = "B:WK13,21,24,25,26,27,28,29,30,31,32:B1,3,4,5,7,9,12,15"
    browser.get(f"{base_url}/compare?{urlencode({'variants': 'italian,american', 'fen': fen})}")
    WebDriverWait(browser, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#boards .board-card"))
    comparison = moves_table(fen, ["italian", "american"])
    for index, name in enumerate(("italian", "american")):
        card = browser.find_element(By.CSS_SELECTOR, f'.board-card[data-variant="{name}"]')
        expected = [row.texts[index] for row in comparison.differences if row.moves[index] is not None]
        assert [li.text for li in card.find_elements(By.CSS_SELECTOR, "li.differs")] == [f"{t} *" for t in expected]
        assert len(card.find_elements(By.CSS_SELECTOR, "g.arrow.differs")) == len(expected)
    assert "9x18" not in " ".join(comparison.moves("italian"))
    american = browser.find_element(By.CSS_SELECTOR, '.board-card[data-variant="american"] .mirrored-note')
    assert american.text.startswith("The Italian draughts diagram mirrored left to right")
    assert not browser.find_elements(By.CSS_SELECTOR, '.board-card[data-variant="italian"] .mirrored-note')
    marked = browser.find_elements(By.CSS_SELECTOR, "#moves-table tr.marked")
    assert len(marked) == len(comparison.differences)
    browser.set_window_size(1280, 1900)  # the whole page, boards included, for the docs
    browser.save_screenshot(str(shots / "web-compare.png"))
    browser.set_window_size(1280, 1000)


def test_phone_sized_screen(page: Board, shots: Path) -> None:
    page.driver.set_window_size(390, 844)
    page.open(variant="brazilian")
    width = page.driver.execute_script("return window.innerWidth")
    assert page.driver.execute_script("return document.documentElement.scrollWidth") <= width
    board_box = page.find("#board svg").rect
    assert board_box["width"] <= width
    assert board_box["width"] >= 0.8 * width
    board = draughts.Board("brazilian")
    page.play((22, 18), board)
    page.driver.save_screenshot(str(shots / "web-phone.png"))


def test_screenshot_for_the_docs(page: Board, shots: Path) -> None:
    """The board as the docs show it: a Russian game under way, square names, a capture to choose."""
    page.open(variant="russian")
    board = draughts.Board("russian")
    for path in RUSSIAN_GAME[:4]:
        page.play(path, board)
    page.click_square(18)
    page.wait(lambda d: page.finds("#board [data-target]"))
    page.driver.save_screenshot(str(shots / "web-board.png"))


def in_viewport(driver: WebDriver, selector: str) -> bool:
    """Whether the element is displayed and wholly inside the window (no scrolling needed to see it)."""
    inside: bool = driver.execute_script(
        "const box = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0"
        " && box.bottom <= window.innerHeight && box.right <= window.innerWidth;",
        selector,
    )
    return inside


def test_errors_show_where_the_user_looks(page: Board, shots: Path) -> None:
    """A bad FEN or a bad PDN import: the message is inside the window, wherever the page is
    scrolled (it was written below the fold, at y = 851 of an 857-pixel window)."""
    page.driver.set_window_size(1280, 857)
    page.open(variant="russian")
    page.find("#fen-input").send_keys("W:W99")
    page.button("set-fen")
    page.wait(lambda d: page.find("#message").is_displayed() and "W:W99" in page.find("#message").text)
    assert in_viewport(page.driver, "#toast")
    page.button("toast-close")
    page.wait(lambda d: not page.find("#toast").is_displayed())
    # The PDN box is far down the panel: scroll to it, import a bad game.
    textarea = page.find("#pdn-text")
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", textarea)
    textarea.send_keys('[GameType "25"]\n1. c3-e5 *')
    page.button("import-pdn")
    page.wait(lambda d: page.find("#message").is_displayed() and "c3-e5" in page.find("#message").text)
    assert page.driver.execute_script("return window.scrollY") > 0
    assert in_viewport(page.driver, "#toast")
    page.driver.save_screenshot(str(shots / "web-error-toast.png"))
    page.driver.set_window_size(390, 844)  # a phone too
    # the PDN message is still up at the bottom: bring the FEN form to the middle, out from under it
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", page.find("#fen-form"))
    page.find("#fen-input").send_keys("x")
    page.button("set-fen")
    page.wait(lambda d: "'W:W99x'" in page.find("#message").text or "W:W99x" in page.find("#message").text)
    assert in_viewport(page.driver, "#toast")


def test_compare_picker_offers_every_variation(browser: WebDriver, base_url: str) -> None:
    """The picker: a row per variant -- a ruleset, its capture rule, its goal -- so the losing and
    breakthrough forms are there, and rows come and go."""
    browser.set_window_size(1280, 1000)
    browser.get(f"{base_url}/compare")
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#picks .pick")) == 2)
    rows = browser.find_elements(By.CSS_SELECTOR, "#picks .pick")
    bases = [option.get_attribute("value") for option in rows[0].find_elements(By.CSS_SELECTOR, ".base option")]
    assert bases == [*draughts.VARIANTS, "hostile-pool"]
    Select(rows[0].find_element(By.CSS_SELECTOR, ".base")).select_by_value("russian")
    Select(rows[0].find_element(By.CSS_SELECTOR, ".goal")).select_by_value("losing")
    Select(rows[1].find_element(By.CSS_SELECTOR, ".base")).select_by_value("russian")
    Select(rows[1].find_element(By.CSS_SELECTOR, ".capture")).select_by_value("optional")
    Select(rows[1].find_element(By.CSS_SELECTOR, ".goal")).select_by_value("breakthrough")
    browser.find_element(By.ID, "add-variant").click()
    rows = browser.find_elements(By.CSS_SELECTOR, "#picks .pick")
    assert len(rows) == 3
    Select(rows[2].find_element(By.CSS_SELECTOR, ".base")).select_by_value("russian")
    assert [row.get_attribute("data-variant") for row in rows] == [
        "russian-losing",
        "russian-nfc-breakthrough",
        "russian",
    ]
    browser.find_element(By.ID, "compare").click()
    WebDriverWait(browser, 15).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#boards .board-card")) == 3)
    cards = browser.find_elements(By.CSS_SELECTOR, "#boards .board-card")
    assert [card.get_attribute("data-variant") for card in cards] == [
        "russian-losing",
        "russian-nfc-breakthrough",
        "russian",
    ]
    assert "variants=russian-losing%2Crussian-nfc-breakthrough%2Crussian" in browser.current_url
    rows[2].find_element(By.CSS_SELECTOR, ".remove").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#picks .pick")) == 2
    assert all(not button.is_enabled() for button in browser.find_elements(By.CSS_SELECTOR, "#picks .remove"))


def test_play_the_computer_with_a_clock_and_the_material(page: Board, shots: Path) -> None:
    """One click starts a game against the computer on the chosen clock; the clocks run on the
    server's word, the material count follows the captures."""
    page.open(variant="russian")
    Select(page.find("#clock-control")).select_by_value("3+2")
    Select(page.find("#level")).select_by_value("beginner")
    page.button("play-computer")
    page.wait(lambda d: page.find("#clock-bottom").is_displayed())
    assert page.find("#white").get_attribute("value") == "human"
    assert page.find("#black").get_attribute("value") == "computer"
    assert page.find("#clock-bottom .time").text == "3:00"
    assert page.find("#clock-top").get_attribute("data-side") == "black"
    assert page.find("#material").text == "White: 12 men, 0 kings · Black: 12 men, 0 kings · even"
    board = draughts.Board("russian")
    first = board.move_text(next(m for m in board.legal_moves if m.path == RUSSIAN_GAME[0]))
    page.click_square(RUSSIAN_GAME[0][0])  # the computer may answer before the move alone is seen
    page.click_square(RUSSIAN_GAME[0][1])
    page.wait(lambda d: len(page.history()) == 2, timeout=20, message="the computer did not reply")
    assert page.history()[0] == first
    assert "running" in (page.find("#clock-bottom").get_attribute("class") or "")  # White's turn again
    assert page.find("#clock-top .time").text in ("3:01", "3:02")  # Black got its 2 s increment
    page.driver.save_screenshot(str(shots / "web-play-computer.png"))


def test_a_flag_falls_and_ends_the_game(page: Board) -> None:
    """3 seconds each: after the first move White's opponent lets its time run out; the server
    ends the game on time and the page says so."""
    page.open(variant="russian", clock="0.05+0")
    page.wait(lambda d: page.find("#clock-bottom").is_displayed())
    page.play(RUSSIAN_GAME[0], draughts.Board("russian"))
    page.wait(lambda d: "running" in (page.find("#clock-top").get_attribute("class") or ""))
    page.wait(lambda d: page.status().startswith("Game over."), timeout=10, message="no flag fall")
    assert page.status() == "Game over. White wins (1-0): black's time ran out."
    assert "flagged" in (page.find("#clock-top").get_attribute("class") or "")
    assert page.finds("#board [data-target]") == []


def test_a_hostile_ruleset_title_stays_text(page: Board) -> None:
    page.open(variant="hostile-pool")
    assert page.driver.title == f"{HOSTILE_TITLE} — polydraughts"
    assert page.find("#title").text == HOSTILE_TITLE
    assert not page.finds("img")
    page.driver.get(f"{page.base_url}/compare?variants=hostile-pool,russian")
    page.wait(lambda d: len(page.finds("#boards .board-card")) == 2)
    assert page.find('.board-card[data-variant="hostile-pool"] h3').text == f"{HOSTILE_TITLE} (hostile-pool)"
    assert not page.finds("img")


def test_players_in_the_one_syntax_survive_a_variant_change(page: Board) -> None:
    """``black=level:strong`` sets the computer and its level; switching the variant keeps both."""
    page.open(variant="russian", white="human", black="level:strong")
    assert Select(page.find("#black")).first_selected_option.get_attribute("value") == "computer"
    assert Select(page.find("#level")).first_selected_option.get_attribute("value") == "strong"
    Select(page.find("#variant")).select_by_value("italian")
    page.wait(lambda d: "variant=italian" in d.current_url and "#game=" in d.current_url, message="no new page")
    assert "black=level%3Astrong" in page.driver.current_url or "black=level:strong" in page.driver.current_url
    assert Select(page.find("#level")).first_selected_option.get_attribute("value") == "strong"
    assert Select(page.find("#black")).first_selected_option.get_attribute("value") == "computer"
