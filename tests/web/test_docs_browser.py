"""The documentation in a real browser: no page is wider than a 1200-pixel window, and the board
pictures are there (the docs are built here, with Sphinx, as CI builds them)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def built() -> Iterator[Path]:
    target = Path(tempfile.mkdtemp(prefix="polydraughts-docs-"))
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(DOCS), str(target)], check=True, timeout=600
    )
    yield target
    shutil.rmtree(target, ignore_errors=True)


@pytest.fixture(scope="module")
def narrow_browser(chromium: Callable[[int, int], WebDriver]) -> WebDriver:
    return chromium(1200, 900)


def test_no_page_is_wider_than_the_window(built: Path, narrow_browser: WebDriver) -> None:
    pages = sorted(built.glob("*.html")) + sorted((built / "variant_pages").glob("*.html"))
    assert len(pages) > 20
    wide = []
    for page in pages:
        narrow_browser.get(page.as_uri())
        width, window = narrow_browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]"
        )
        if width > window:
            wide.append(f"{page.name}: {width} > {window}")
    assert not wide, wide


@pytest.mark.parametrize("page", ["index.html", "quickstart.html"])
def test_the_front_pages_show_a_board(built: Path, narrow_browser: WebDriver, page: str) -> None:
    narrow_browser.get((built / page).as_uri())

    def pieces(driver: WebDriver) -> int:
        count: int = driver.execute_script("return document.querySelectorAll('.board-diagram [data-piece]').length")
        return count

    # Waited for: a script run just after get() of a file:// page found no piece on about 1 load in
    # 25 (Chromium 150), the pieces there a moment later.
    wait = WebDriverWait(narrow_browser, 10, poll_frequency=0.05)
    wait.until(lambda driver: pieces(driver) >= 24, f"{page}: no board of 24 pieces or more")
