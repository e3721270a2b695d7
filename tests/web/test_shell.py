"""The client's shell in a real Chromium against a real server: the page loads, a guest
signs in and plays by the generic list of legal actions."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.conftest import sign_in_as_guest, start_solo


def test_the_page_loads_and_a_guest_signs_in(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Display name").fill("Ana")
    page.get_by_role("button", name="Play as a guest").click()
    expect(page.locator("header .who")).to_have_text("Ana")


def test_a_solo_match_opens_and_takes_an_action(page: Page) -> None:
    sign_in_as_guest(page)
    start_solo(page, game="maatatahay", seed=3)
    expect(page.get_by_test_id("version")).to_have_text("0")
