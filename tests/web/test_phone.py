"""A phone-sized screen (390x844): the lobby and a match page fit the width (no sideways
scrolling), the board comes above the panels; screenshots for the docs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.server.conftest import Server
from tests.web.conftest import screenshot, sign_in_as_guest, start_solo

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser, web: Server) -> Iterator[Page]:
    context = browser.new_context(
        base_url=web.base, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(20_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def test_the_lobby_on_a_phone(phone: Page) -> None:
    phone.goto("/")
    expect(phone.get_by_role("form", name="Play as a guest")).to_be_visible()
    _no_sideways_scroll(phone)
    sign_in_as_guest(phone, "Mia")
    phone.goto("/#/")
    phone.reload()
    expect(phone.get_by_role("heading", name="Solo match")).to_be_visible()
    _no_sideways_scroll(phone)
    screenshot(phone, "phone-lobby")


@pytest.mark.parametrize("game", ["maiterra", "maatatahay", "manafields"])
def test_a_match_page_on_a_phone(phone: Page, game: str) -> None:
    sign_in_as_guest(phone, "Mia")
    start_solo(phone, game=game, seed=2)
    expect(phone.get_by_test_id("version")).to_be_visible()
    expect(phone.get_by_role("list", name="Legal actions list")).to_be_visible()
    phone.wait_for_timeout(300)  # the board module's styles
    _no_sideways_scroll(phone)
    board = phone.locator(".board-area").bounding_box()
    players = phone.get_by_role("region", name="Players").bounding_box()
    assert board is not None and players is not None
    assert board["y"] < players["y"], "the board comes above the panels"
    if game == "maiterra":  # the boards' own tests keep a phone screenshot of each game
        screenshot(phone, "phone-match")
