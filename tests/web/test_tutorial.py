"""The tutorial and the rules pages in a real Chromium, at desktop size and on a phone
(390x844), signed out as a newcomer arrives: "Learn to play" and each game's rules are on
the first page, no signed-out page logs an error, and each game's guided first match is
played to its end by clicking the highlighted targets on the board."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.server.conftest import Server
from tests.web.conftest import screenshot, sign_in_as_guest

expect.set_options(timeout=15_000)

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}
GAMES = ["maiterra", "maatatahay", "manafields"]


@pytest.fixture(params=list(SIZES))
def visitor(request: pytest.FixtureRequest, browser: Browser, web: Server) -> Iterator[Page]:
    """A signed-out browser at one size; every console error, failed request and page error
    it meets is collected in ``page.problems`` (checked empty at the end)."""
    size = request.param
    phone = size == "phone"
    context = browser.new_context(
        base_url=web.base, viewport=SIZES[size], is_mobile=phone, has_touch=phone
    )
    context.set_default_timeout(20_000)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    opened.on(
        "response",
        lambda r: r.status >= 400 and problems.append(f"{r.status} {r.request.method} {r.url}"),
    )
    opened.problems = problems  # type: ignore[attr-defined]
    opened.size = size  # type: ignore[attr-defined]
    try:
        yield opened
    finally:
        context.close()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], f"the page is {width} px wide"


def test_signed_out_pages_log_no_error(visitor: Page) -> None:
    for path in ["/", "/#/rules/maatatahay", "/#/tutorial/manafields", "/#/replay"]:
        visitor.goto(path)
        visitor.wait_for_load_state("networkidle")
    expect(visitor.locator("main")).to_be_visible()
    assert visitor.problems == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_are_readable_before_sign_in(visitor: Page, name: str) -> None:
    visitor.goto("/")
    expect(visitor.get_by_role("form", name="Play as a guest")).to_be_visible()
    title = name.capitalize()
    visitor.get_by_role("link", name=f"{title} rules").click()
    visitor.wait_for_url(f"**/#/rules/{name}")
    page = visitor.get_by_role("article", name=f"{title} rules")
    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Decisions").first).to_be_attached()
    expect(page.locator("table").first).to_be_attached()
    assert "<br>" not in page.inner_text() and "**" not in page.inner_text()
    _no_sideways_scroll(visitor)
    visitor.get_by_role("link", name=f"Learn to play {title}").click()
    visitor.wait_for_url(f"**/#/tutorial/{name}")
    expect(visitor.get_by_test_id("tutorial-title")).to_be_visible()
    assert visitor.problems == []  # type: ignore[attr-defined]


def _play(page: Page, text: str) -> None:
    page.get_by_label("Your action (notation)").fill(text)
    page.get_by_role("button", name="Play", exact=True).click()


@pytest.mark.parametrize("name", ["maiterra", "maatatahay", "manafields"])
def test_a_tutorial_completed_in_the_browser(page: Page, name: str) -> None:
    steps: list[dict[str, Any]] = page.request.get(f"/api/tutorials/{name}").json()["steps"]
    sign_in_as_guest(page)
    page.goto("/")
    page.get_by_test_id(f"learn-{name}").click()
    page.wait_for_url(f"**/#/tutorial/{name}")
    message = page.get_by_test_id("tutorial-message")
    for index, step in enumerate(steps):
        expect(page.get_by_test_id("tutorial-step")).to_have_text(str(index + 1))
        expect(page.get_by_test_id("tutorial-title")).to_have_text(step["title"])
        if name == "maiterra" and "march" in step["example"]:
            _play(page, "end")  # legal, but not what this step asks
            expect(message).to_have_text(step["wrong"])
            _play(page, "fly a1")  # no order at all: the engine's reason
            expect(message).to_contain_text("not Maiterra notation")
            expect(page.get_by_test_id("tutorial-step")).to_have_text(str(index + 1))
            screenshot(page, "tutorial-maiterra")
        _play(page, step["example"])
        expect(message).to_have_text(step["success"])
        if index + 1 < len(steps):
            page.get_by_test_id("tutorial-next").click()
    expect(page.get_by_text("Tutorial complete.")).to_be_visible()
