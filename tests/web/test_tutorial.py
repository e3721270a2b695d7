"""The tutorial page in a real Chromium: from the lobby's "Learn to play" link, each game's
guided first match is completed by typing each step's action and clicking "Next step"; in
Maiterra's, a wrong action is explained and the step stays."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import screenshot, sign_in_as_guest

expect.set_options(timeout=15_000)


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
