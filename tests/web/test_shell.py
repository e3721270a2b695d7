"""The client's shell in a real Chromium against a real server: the page loads, a guest
signs in through the form, a person registers, logs out and logs in again."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect

from tests.web.conftest import sign_in_as_guest, start_solo

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)


def test_the_page_loads_and_a_guest_signs_in(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Display name").fill("Ana")
    page.get_by_role("button", name="Play as a guest").click()
    expect(page.locator("header .who")).to_have_text("Ana")
    expect(page.get_by_role("heading", name="Solo match")).to_be_visible()


def test_register_log_out_and_log_in(page: Page) -> None:
    name = f"ana-{uuid.uuid4().hex[:8]}"
    page.goto("/")
    register = page.get_by_role("form", name="Register")
    register.get_by_label("Account name").fill(name)
    register.get_by_label("Name shown to others").fill("Ana Lima")
    register.get_by_label("Password").fill("a-long-password")
    register.get_by_role("button", name="Register").click()
    expect(page.locator("header .who")).to_have_text("Ana Lima")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("form", name="Log in")).to_be_visible()
    assert page.request.get("/api/me").status == 401
    login = page.get_by_role("form", name="Log in")
    login.get_by_label("Account name").fill(name)
    login.get_by_label("Password").fill("wrong-password")
    login.get_by_role("button", name="Log in").click()
    expect(login.get_by_role("alert")).not_to_be_empty()
    login.get_by_label("Password").fill("a-long-password")
    login.get_by_role("button", name="Log in").click()
    expect(page.locator("header .who")).to_have_text("Ana Lima")
    # The session is the cookie: a reload keeps it.
    page.reload()
    expect(page.locator("header .who")).to_have_text("Ana Lima")


def test_a_solo_match_opens_and_takes_an_action(page: Page) -> None:
    sign_in_as_guest(page)
    start_solo(page, game="maatatahay", seed=3)
    expect(page.get_by_test_id("version")).to_be_visible()
    # A solo match shows the hint panel (analysis.js) next to the board, and no clock.
    expect(page.get_by_test_id("hint-panel")).to_be_visible()
    expect(page.get_by_test_id("clock")).to_contain_text("none")
    # The bot may move first; then the person's actions show and one is played.
    first = page.get_by_role("list", name="Legal actions list").get_by_role("button").first
    expect(first).to_be_visible()
    before = int(page.get_by_test_id("version").inner_text())
    first.click()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=version]').textContent) > v",
        arg=before,
    )


def test_the_end_of_a_match_offers_the_record_a_replay_and_a_rematch(page: Page) -> None:
    sign_in_as_guest(page, "Teo")
    match = start_solo(page, game="manafields", seed=2, options={"turn_limit": 1}, bots="random")
    legal = page.get_by_role("list", name="Legal actions list").get_by_role("button")
    outcome = page.get_by_test_id("outcome")
    for _ in range(200):  # one round each: the person plays the first legal action
        if outcome.count():
            break
        if legal.count() and legal.first.is_enabled():
            legal.first.click()
        page.wait_for_timeout(100)
    expect(outcome).to_contain_text("turn limit")
    expect(page.get_by_role("region", name="Legal actions")).not_to_contain_text("Play")
    with page.expect_download() as download:
        outcome.get_by_role("link", name="Download the record").click()
    assert download.value.suggested_filename == f"meeple-manafields-{match['id']}.json"
    record = page.request.get(f"/api/matches/{match['id']}/record").json()
    assert record["outcome"] is not None
    expect(outcome.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"#/replay/{match['id']}"
    )
    outcome.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: "#/match/" in url and match["id"] not in url)
    expect(page.get_by_test_id("outcome")).to_have_count(0)
    expect(page.get_by_test_id("version")).to_be_visible()
    # The finished match is in the lobby with its record, replay and rematch.
    page.goto("/#/")
    row = page.locator(f"[data-match='{match['id']}']")
    expect(row.get_by_role("link", name="Replay")).to_be_visible()
    expect(row.get_by_role("link", name="Record")).to_be_visible()
