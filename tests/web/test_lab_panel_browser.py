"""The compare page's play statistics panel in a real headless Chromium (``pytest -m browser``): a
small lab started from the page, its progress seen, then the lab's table and plots, and Cancel.

Chromium, its windows and the screenshots' folder are tests/web/conftest.py's; the panel's
screenshot is docs/_static/web-lab.png.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from draughts.lab import run_lab
from draughts.lab.report import compare
from draughts.web.app import create_app
from draughts.web.lab import metric_words, play_games
from draughts.web.server import running

pytestmark = pytest.mark.browser

Chromium = Callable[[int, int], WebDriver]  # conftest.py's chromium: a new window of that size


@pytest.fixture(scope="module")
def app_and_url() -> Iterator[tuple[Any, str]]:
    app = create_app(default_variant="russian", workers=1, engine_workers=1, extra_workers=0)
    with running(app) as url:
        yield app, url.rstrip("/")


class HeldBack:
    """The lab's worker pool with each batch of games held back ``seconds`` after it is played:
    the native game loop plays this test's 24 depth-2 games in less than the page's 0.3 s poll,
    too soon to see the progress a long run shows (as a real lab's slower games would)."""

    def __init__(self, pool: Any, seconds: float) -> None:
        self.pool, self.seconds = pool, seconds

    async def run(self, function: Callable[..., Any], *args: Any, **options: Any) -> Any:
        answer = await self.pool.run(function, *args, **options)
        if function is play_games:
            await asyncio.sleep(self.seconds)
        return answer


@pytest.fixture
def games_held_back(app_and_url: tuple[Any, str]) -> Iterator[None]:
    labs = app_and_url[0].state.web.labs
    pool = labs.pool
    labs.pool = HeldBack(pool, 0.5)
    try:
        yield
    finally:
        labs.pool = pool


def lab_done(driver: WebDriver) -> bool:
    return bool(driver.find_element(By.TAG_NAME, "body").get_attribute("data-lab") == "done")


def wait(driver: WebDriver, condition: Any, timeout: float = 60, message: str = "") -> Any:
    waiting = WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,))
    return waiting.until(condition, message)


# Every (done, total) the status line shows, recorded by the page itself as it changes (the
# test's own polling could miss a short run's middle).
RECORD_PROGRESS = """
window.labSeen = [];
const status = document.getElementById('lab-status');
new MutationObserver(() => {
  window.labSeen.push([Number(status.dataset.done), Number(status.dataset.total),
                       !document.getElementById('lab-progress').hidden]);
}).observe(status, {attributes: true, childList: true, characterData: true, subtree: true});
"""


def open_compare(driver: WebDriver, url: str, variants: str) -> None:
    driver.get(f"{url}/compare?variants={variants}")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#lab-variants input"), message="panel not ready")


def set_field(driver: WebDriver, selector: str, value: str) -> None:
    field = driver.find_element(By.CSS_SELECTOR, selector)
    field.clear()
    field.send_keys(value)


@pytest.mark.usefixtures("games_held_back")
def test_a_lab_from_the_compare_page(browser: WebDriver, app_and_url: tuple[Any, str], shots: Path) -> None:
    _, url = app_and_url
    open_compare(browser, url, "russian,russian-nfc")
    boxes = browser.find_elements(By.CSS_SELECTOR, "#lab-variants input")
    assert [box.get_attribute("value") for box in boxes] == ["russian", "russian-nfc"]
    assert all(box.is_selected() for box in boxes)
    Select(browser.find_element(By.ID, "lab-players")).select_by_value("depth:2")
    set_field(browser, "#lab-games", "12")
    set_field(browser, "#lab-seed", "5")
    set_field(browser, "#lab-plies", "120")
    browser.execute_script(RECORD_PROGRESS)
    browser.find_element(By.ID, "lab-start").click()
    wait(browser, lab_done, 120, "no result")
    seen = browser.execute_script("return window.labSeen")
    assert any(0 < done < total == 24 and shown for done, total, shown in seen), seen  # progress, mid-run
    assert browser.find_element(By.ID, "lab-status").text == "24 games played"
    assert not browser.find_element(By.ID, "lab-start").get_attribute("disabled")
    # The table: draughts lab's, for the same settings.
    figures = run_lab(["russian", "russian-nfc"], 12, players=("depth:2", "depth:2"), seed=5, max_plies=120)
    comparison = compare(figures)
    table = browser.find_element(By.ID, "lab-table")
    heads = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads == ["metric", "russian", "russian-nfc"]
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#lab-table tbody tr')]"
        ".map((tr) => [...tr.children].map((c) => c.textContent))"
    )
    assert shown[0] == ["games", "12", "12"]
    # each metric in words, not snake_case (issue 40 §6), its key in the tooltip
    assert shown[1:] == [[metric_words(row.metric), *(cell.text() for cell in row.cells)] for row in comparison.rows]
    labels = table.find_elements(By.CSS_SELECTOR, "tbody th")[1:]
    assert not [label.text for label in labels if "_" in label.text]
    titles = [label.get_attribute("title") or "" for label in labels]
    for title, row in zip(titles, comparison.rows, strict=True):
        assert title == row.metric or title.startswith(f"{row.metric}: tested with"), (title, row.metric)
    marked = len(table.find_elements(By.CSS_SELECTOR, "td.significant"))
    assert marked == sum(cell.significant for row in comparison.rows for cell in row.cells)
    assert comparison.legend() in browser.find_element(By.ID, "lab-legend").text
    # The plots: the lab's SVG, one series per ruleset, drawn at a size.
    plots = browser.find_elements(By.CSS_SELECTOR, "#lab-plots figure.lab-plot")
    assert [plot.get_attribute("data-plot") for plot in plots] == ["score", "lengths", "branching"]
    estimates = browser.find_elements(By.CSS_SELECTOR, "#lab-plots svg g.estimate")
    assert [e.get_attribute("data-ruleset") for e in estimates] == ["russian", "russian-nfc"]
    assert plots[0].find_element(By.TAG_NAME, "svg").size["width"] > 200
    assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    section = browser.find_element(By.ID, "lab-section")
    browser.set_window_size(1280, section.size["height"] + 300)  # the whole panel in the window
    try:
        browser.execute_script("arguments[0].scrollIntoView()", section)
        section.screenshot(str(shots / "web-lab.png"))
    finally:
        browser.set_window_size(1280, 1000)


def test_cancel_and_leaving_stop_the_lab(browser: WebDriver, app_and_url: tuple[Any, str]) -> None:
    app, url = app_and_url
    labs = app.state.web.labs
    open_compare(browser, url, "international,frisian")
    Select(browser.find_element(By.ID, "lab-players")).select_by_value("depth:2")
    set_field(browser, "#lab-games", "20")
    browser.find_element(By.ID, "lab-start").click()
    wait(browser, lambda d: labs.running() == 1, message="no lab started")
    browser.find_element(By.ID, "lab-cancel").click()
    wait(browser, lambda d: labs.running() == 0, message="the lab was not cancelled")
    assert browser.find_element(By.ID, "lab-status").text == "cancelled"
    assert browser.find_element(By.ID, "lab-progress").get_attribute("hidden")
    # Leaving the page while it runs cancels it too.
    browser.find_element(By.ID, "lab-start").click()
    wait(browser, lambda d: labs.running() == 1, message="no lab started")
    browser.get(f"{url}/api")
    wait(browser, lambda d: labs.running() == 0, 20, "the lab went on after the page was left")


def test_the_panel_on_a_phone_sized_screen(chromium: Chromium, app_and_url: tuple[Any, str]) -> None:
    _, url = app_and_url
    browser = chromium(390, 844)
    open_compare(browser, url, "russian,russian-nfc-losing")
    set_field(browser, "#lab-games", "10")
    browser.find_element(By.ID, "lab-start").click()
    wait(browser, lab_done, 60, "no result")
    width = browser.execute_script("return window.innerWidth")
    # The wide table scrolls inside its box; the plots shrink to the screen: the page stays as wide.
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    plot = browser.find_element(By.CSS_SELECTOR, "#lab-plots figure svg")
    assert 100 < plot.size["width"] <= width
