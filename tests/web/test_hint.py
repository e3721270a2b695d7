"""The hint of a solo match in a real Chromium: the best actions for the person's seat with
their notation and chance to win, as the server's analysis gives them."""

from __future__ import annotations

import math
import re

from playwright.sync_api import Page, expect

from tests.web.conftest import sign_in_as_guest, start_solo


def test_the_hint_lists_actions_with_notation_and_chances(page: Page) -> None:
    sign_in_as_guest(page)
    # Seed 1: seat 0, the person's, places first, so the hint is for version 0.
    match = start_solo(page, game="maatatahay", seed=1, bots="random")
    expect(page.get_by_test_id("version")).to_have_text("0")
    panel = page.get_by_test_id("hint-panel")
    panel.get_by_role("button", name="Hint", exact=True).click()
    actions = panel.get_by_test_id("hint-action")
    expect(actions.first).to_be_visible(timeout=60_000)
    # The same analysis the API gives (a fixed seed per position: the same answer).
    hint = page.request.get(f"/api/matches/{match['id']}/hint").json()
    assert hint["version"] == 0 and hint["best"]
    expect(actions).to_have_count(len(hint["best"]))
    for row, advice in zip(actions.all(), hint["best"], strict=True):
        expect(row.locator(".move-notation")).to_have_text(advice["notation"])
        expect(row.locator(".chance")).to_have_text(
            f"{math.floor(100 * advice['win_probability'] + 0.5)} % to win"  # as JS rounds
        )
        assert re.fullmatch(r"\d+ % to win", row.locator(".chance").inner_text())
    # The line of the seat's chances so far: one point at version 0.
    panel.get_by_role("button", name="My chances so far").click()
    expect(panel.get_by_test_id("win-polyline")).to_be_visible(timeout=60_000)
    # After a move the hint is asked again, for the version the page shows now.
    page.locator(".legal-panel button[data-action]").first.click()
    expect(page.get_by_test_id("version")).not_to_have_text("0")
    page.wait_for_function(
        """() => {
          const version = document.querySelector('[data-testid=version]').textContent.trim();
          const hint = document.querySelector('[data-testid=hint]');
          const refused = document.querySelector('[data-testid=hint-refused]');
          const asked = hint && hint.textContent.includes(`Move ${version}:`);
          return asked || (refused && version !== "0");
        }""",
        timeout=60_000,
    )
