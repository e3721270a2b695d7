"""The browser tests: Playwright's Python package driving Debian's Chromium against a real
``meeple serve`` (the server tests' :class:`Server`, on SQLite), headless.

No browser is downloaded: Playwright launches ``/usr/bin/chromium`` (``apt-get install
chromium``; ``scripts/test`` installs it where it is missing). Every test here is slow.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.server.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Flags for a headless Chromium in a container with no GPU, no sandbox and no network
# beyond loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/web/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="package")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One real server for the browser tests, on an SQLite file of its own."""
    data = tmp_path_factory.mktemp("web")
    running = Server(f"sqlite+aiosqlite:///{data / 'meeple.db'}", data).start()
    try:
        yield running
    finally:
        running.stop()


# Package scope: the driver's event loop is stopped once the browser tests are done, so a
# test of another package run later in the same process (under pytest-xdist, in any order)
# may still call asyncio.run.
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        pytest.fail("Chromium is not installed: apt-get install chromium (scripts/test does it)")
    launched = playwright.chromium.launch(
        executable_path=executable, headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def context(browser: Browser, web: Server) -> Iterator[BrowserContext]:
    """A fresh browser profile (no cookies) pointed at the server; desktop-sized."""
    made = browser.new_context(base_url=web.base, viewport={"width": 1280, "height": 900})
    made.set_default_timeout(20_000)
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    # The server's Content-Security-Policy must let the client do all it does.
    opened.on(
        "console",
        lambda m: "Content Security Policy" in m.text and errors.append(m.text),
    )
    yield opened
    assert not errors, f"the page raised: {errors}"


def sign_in_as_guest(page: Page, name: str = "Ana") -> dict[str, Any]:
    """A guest login through the API, sharing the page's cookies; returns the account."""
    reply = page.request.post("/api/guests", data={"display_name": name})
    assert reply.status == 201, reply.text()
    account: dict[str, Any] = reply.json()["account"]
    return account


def start_solo(page: Page, **body: Any) -> dict[str, Any]:
    """A solo match created through the API with the page's login; the page opens it."""
    reply = page.request.post("/api/matches/solo", data=body)
    assert reply.status == 201, reply.text()
    match: dict[str, Any] = reply.json()
    page.goto(f"/#/match/{match['id']}")
    return match


def screenshot(page: Page, name: str) -> Path:
    """Save a screenshot to docs/screenshots/<name>.png (shown in the README)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
