"""The browser tests' shared set-up (``pytest -m browser``): headless Chromium windows driven by Selenium.

Debian's ``chromium`` and ``chromium-driver`` are given to Selenium by path, so it never downloads
a browser; without them the tests fail with the command that installs them, they never skip.
Screenshots go to ``$POLYDRAUGHTS_SCREENSHOTS`` (default: a temporary folder, printed).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from selenium import webdriver as selenium_webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)

Chromium = Callable[[int, int], WebDriver]


def chromium_binary(name: str, fallback: str) -> str:
    """The path of ``name`` (or ``fallback``); a test failure naming the packages when neither is there."""
    found = shutil.which(name) or (fallback if os.path.exists(fallback) else None)
    if found is None:
        pytest.fail(
            f"the browser tests need {name} ({fallback}): apt-get install -y chromium chromium-driver",
            pytrace=False,
        )
    return found


@pytest.fixture(scope="module")
def find_binary() -> Callable[[str, str], str]:
    """:func:`chromium_binary`, for the test that checks its failure."""
    return chromium_binary


@pytest.fixture(scope="module")
def chromium() -> Iterator[Chromium]:
    """Starts headless Chromium windows of a given size, each with a profile of its own; they quit
    (and their profiles go) when the test module ends."""
    started: list[tuple[WebDriver, str]] = []

    def start(width: int, height: int) -> WebDriver:
        options = selenium_webdriver.ChromeOptions()
        options.binary_location = chromium_binary("chromium", "/usr/bin/chromium")
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        profile = tempfile.mkdtemp(prefix="polydraughts-chromium-")
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        service = Service(executable_path=chromium_binary("chromedriver", "/usr/bin/chromedriver"))
        try:
            driver = selenium_webdriver.Chrome(service=service, options=options)
        except BaseException:
            shutil.rmtree(profile, ignore_errors=True)
            raise
        driver.set_page_load_timeout(30)
        started.append((driver, profile))
        return driver

    try:
        yield start
    finally:
        for driver, profile in started:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(chromium: Chromium) -> WebDriver:
    """A desktop-sized window (1280 x 1000), shared by a module's tests."""
    return chromium(1280, 1000)


@pytest.fixture(scope="module")
def shots() -> Path:
    """Where the tests save screenshots."""
    folder = os.environ.get("POLYDRAUGHTS_SCREENSHOTS")
    path = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="polydraughts-screenshots-"))
    path.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {path}")
    return path
