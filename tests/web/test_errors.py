"""Refusals as a newcomer meets them, at desktop size and on a phone: a notation typed out
of turn or phase is refused in the rules' words (never "seat 0, action 3892: ..."), a host
starting before everyone is ready is told who, by name (never "seats [1]"); and Maatatahay's
seat panels say what the count of warriors lost means."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Server
from tests.web.conftest import sign_in_as_guest, start_solo

expect.set_options(timeout=15_000)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
INTERNALS = re.compile(r"seat \d|action \d|seats \[|version \d")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_refused_notation_reads_in_the_rules_words(page: Page, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    sign_in_as_guest(page, "Ana")
    start_solo(page, game="maatatahay", seed=5, bots=["random"])
    board = page.locator("[data-testid=maatatahay-board][data-my-turn=true]")
    board.wait_for()
    phase = board.get_attribute("data-phase")
    assert phase in ("pick", "place"), phase
    # What the seat panels say about warriors lost, and what ends the match.
    expect(page.get_by_test_id("mh-lost-0")).to_contain_text("Warriors lost 0 (6 end the match)")
    expect(page.get_by_test_id("mh-lost-0")).not_to_contain_text("/6")
    # A newcomer types an order of another phase into the notation box and presses Enter.
    box = page.get_by_label("Play by notation")
    box.fill("first W")
    box.press("Enter")
    message = page.get_by_test_id("message")
    expect(message).to_contain_text(f"this is the {phase} phase")
    text = message.inner_text()
    assert text.startswith("'first W' is not legal now: who places first is chosen"), text
    assert not INTERNALS.search(text), text
    # The match did not move: still this seat's turn, in the same phase.
    expect(board).to_have_attribute("data-phase", phase or "")


@pytest.mark.parametrize("size", list(SIZES))
def test_starting_before_everyone_is_ready_names_who(
    browser: Browser, web: Server, size: str
) -> None:
    people = []
    try:
        for name in ("Host Ines", "Bo"):
            context = browser.new_context(base_url=web.base, viewport=SIZES[size])
            context.set_default_timeout(20_000)
            opened = context.new_page()
            sign_in_as_guest(opened, name)
            people.append((context, opened))
        host, guest = people[0][1], people[1][1]
        reply = host.request.post("/api/rooms", data={"game": "maatatahay", "public": True})
        assert reply.status == 201, reply.text()
        room = reply.json()
        joined = guest.request.post(f"/api/rooms/{room['id']}/join", data={})
        assert joined.status == 200, joined.text()
        host.goto(f"/#/room/{room['id']}")
        expect(host.locator("tr[data-seat='1']")).to_contain_text("Bo")
        host.get_by_role("button", name="Start the match").click()
        alert = host.get_by_role("alert").filter(has_text="ready")
        expect(alert).to_have_text("Bo is not ready yet")
        assert not INTERNALS.search(alert.inner_text())
    finally:
        for context, _ in people:
            context.close()
