"""The tutorial and the rules pages in a real Chromium, at desktop size and on a phone
(390x844), signed out as a newcomer arrives: "Learn to play" and each game's rules are on
the first page, no signed-out page logs an error, and each game's guided first match is
played to its end by clicking the highlighted targets on the board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.server.conftest import Server

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


def test_maatatahay_is_taught_by_clicking_the_highlighted_target(visitor: Page) -> None:
    """Signed out, from the first page: one match from the Balan's seat, each step's one
    move highlighted on the board, its text in prose, the same match going on."""
    visitor.goto("/")
    visitor.get_by_role("link", name="Learn to play Maatatahay").click()
    visitor.wait_for_url("**/#/tutorial/maatatahay")
    text = visitor.get_by_test_id("tutorial-text")
    message = visitor.get_by_test_id("tutorial-message")
    expect(text).to_contain_text("You play the Balan")
    assert "`" not in text.inner_text() and "type" not in text.inner_text().lower()
    expect(visitor.get_by_text("Your move is highlighted on the board: click it.")).to_be_visible()
    expect(visitor.locator(".mh-pair-legal")).to_have_count(1)  # only the step's pair
    visitor.get_by_test_id("mh-pick-2").click()
    expect(message).to_contain_text("You took the pair")
    visitor.get_by_test_id("tutorial-next").click()
    expect(visitor.get_by_test_id("tutorial-step")).to_have_text("2")
    visitor.get_by_test_id("mh-first-W").click()
    expect(message).to_contain_text("The Wazu place first")
    visitor.get_by_test_id("tutorial-next").click()
    target = visitor.locator("g.mh-target")
    expect(target).to_have_count(1)  # b1, and no other space
    assert target.get_attribute("data-space") == "b1"
    target.click()
    visitor.get_by_test_id("mh-confirm").click()
    expect(message).to_contain_text("Your warrior stands on b1")
    visitor.screenshot(path=f"/tmp/h12-tutorial-{visitor.size}.png")  # type: ignore[attr-defined]
    assert visitor.problems == []  # type: ignore[attr-defined]
