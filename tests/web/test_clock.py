"""The shared turn clock in the browser: a Maiterra room with a 60 s timer, in teams, bots in
the other seats. Once the house pick and the draft are done (Decisions, with no timer) the
clock shows and runs down; at zero the person's seat hands in its turn without the person
acting, the version moves on and the event log says so. The servers run timers 50 times
faster (MEEPLE_CLOCK_SCALE=0.02): 60 s ring after 1.2 s."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from tests.web.conftest import sign_in_as_guest

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)


def _version(page: Page) -> int:
    return int(page.get_by_test_id("version").inner_text())


def test_at_zero_the_seat_hands_in_and_the_log_says_so(page: Page) -> None:
    sign_in_as_guest(page, "Lia")
    room = page.request.post(
        "/api/rooms",
        data={"game": "maiterra", "seats": 3, "options": {"teams": "112"}, "timer": 60},
    ).json()
    page.request.post(f"/api/rooms/{room['id']}/bots", data={"bots": "random"})
    assert page.request.post(f"/api/rooms/{room['id']}/start").status == 200
    page.goto(f"/#/match/{room['id']}")
    expect(page.get_by_role("region", name="Players")).to_contain_text("team 2")
    clock_time = page.get_by_test_id("clock-time")
    actions = page.get_by_role("list", name="Legal actions list").get_by_role("button")
    # The house pick and the draft: no clock runs; the person plays them from the list.
    deadline = time.monotonic() + 30
    while not clock_time.is_visible():
        assert time.monotonic() < deadline, "the planning never started"
        if actions.count() and actions.first.is_enabled():
            expect(page.get_by_test_id("clock")).not_to_contain_text("time is up")
            actions.first.click()
        page.wait_for_timeout(100)
    # Planning: the clock shows the turn's 60 s and runs down to zero.
    expect(page.get_by_test_id("clock")).to_contain_text("of 1.2 s")  # 60 s, 50 times faster
    expect(page.get_by_test_id("status-0")).to_have_text(re.compile("decides now"))
    before = _version(page)
    # Without the person acting: the log says time is up and the version moves on.
    log = page.get_by_test_id("event-log")
    expect(log.locator("li.note")).to_contain_text("Time is up", timeout=10_000)
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=version]').textContent) > v",
        arg=before,
    )
    # The person's seat handed in (its turn ended): it decides again in the next turn, with
    # a fresh clock.
    expect(page.get_by_test_id("status-0")).to_have_text(re.compile("decides now"))
    expect(clock_time).to_be_visible()
