"""The lobby's Ranked and Daily cards in a real Chromium: queue, wait and cancel; matched
with a second player and taken to the match; Manafields queued with a faction picked among
the four, each with its line; today's Daily: practice offered from the start, and a second
visit that shows the result, the rank and practice at once (at desktop and phone size), the
leaderboard a ranking with scores."""

from __future__ import annotations

import random
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Client, Server
from tests.server.test_live import play_out
from tests.server.test_ranked import PASSWORD, member
from tests.web.conftest import screenshot, sign_in_as_guest

expect.set_options(timeout=15_000)


def sign_in_as_member(page: Page, name: str) -> dict[str, Any]:
    """A registered account made through the API, sharing the page's cookies (ranked is
    for accounts); returns the account."""
    login = f"{name.lower()}{uuid.uuid4().hex[:8]}"
    body = {"name": login, "password": PASSWORD, "display_name": name}
    reply = page.request.post("/api/accounts", data=body)
    assert reply.status == 201, reply.text()
    account: dict[str, Any] = reply.json()["account"]
    return account


def test_a_guest_is_told_ranked_needs_an_account(page: Page) -> None:
    sign_in_as_guest(page, "Passer-by")
    page.goto("/")
    card = page.get_by_role("region", name="Ranked")
    expect(card.get_by_test_id("ranked-status")).to_contain_text("registered accounts")
    expect(card.get_by_role("button", name="Find a ranked match")).to_have_count(0)


def test_the_ranked_queue_in_the_lobby(page: Page, web: Server) -> None:
    sign_in_as_member(page, "Queuer")
    page.goto("/")
    card = page.get_by_role("region", name="Ranked")
    card.get_by_label("Game").select_option(label="Maiterra, 4 seats")
    card.get_by_role("button", name="Find a ranked match").click()
    expect(card.get_by_test_id("ranked-status")).to_contain_text("Waiting")
    screenshot(page, "ranked-queue")
    card.get_by_role("button", name="Cancel").click()
    expect(card.get_by_role("button", name="Find a ranked match")).to_be_visible()
    other = member(web, "Opponent")
    queued = other.post("/api/ranked/queue", json={"game": "maatatahay", "seats": 2})
    assert queued.status_code == 201, queued.text
    card.get_by_label("Game").select_option(label="Maatatahay, 2 seats")
    card.get_by_role("button", name="Find a ranked match").click()
    expect(page).to_have_url(re.compile(r"#/match/"))
    match_id = page.url.rsplit("/", 1)[1]
    assert other.get("/api/ranked/queue").json()["match"] == match_id


def test_manafields_is_queued_with_a_chosen_faction(page: Page, web: Server) -> None:
    account = sign_in_as_member(page, "Necromancer")
    page.goto("/")
    card = page.get_by_role("region", name="Ranked")
    card.get_by_label("Game").select_option(label="Maatatahay, 2 seats")
    expect(card.get_by_role("group", name="Your faction")).to_have_count(0)  # none to play
    other = member(web, "Elf Lord")
    body = {"game": "manafields", "faction": "elves", "wait": 60}
    queued = other.post("/api/ranked/queue", json=body)
    assert queued.status_code == 201 and queued.json()["faction"] == "elves", queued.text
    card.get_by_label("Game").select_option(label="Manafields, 2 seats")
    picker = card.get_by_role("group", name="Your faction")
    expect(picker.get_by_role("radio")).to_have_count(5)  # drawn, or one of the four
    expect(picker).to_contain_text("rises as your Zombie")  # each with its line
    picker.get_by_role("radio", name=re.compile("^Undead")).check()
    card.scroll_into_view_if_needed()
    screenshot(page, "ranked-faction")
    card.get_by_role("button", name="Find a ranked match").click()
    expect(page).to_have_url(re.compile(r"#/match/"))
    match_id = page.url.rsplit("/", 1)[1]
    theirs = other.get("/api/ranked/queue").json()
    assert theirs["match"] == match_id and theirs["faction"] == "elves"
    match = other.get(f"/api/matches/{match_id}").json()
    mine = 1 - theirs["seat"]
    assert match["options"][f"faction{mine}"] == "undead"
    assert match["players"][mine]["account"] == account["id"]
    # The match page shows the two armies, and the player's own side is the Undead.
    sides = ["Undead", "Elves"] if mine == 0 else ["Elves", "Undead"]
    battlefield = page.get_by_role("group", name=re.compile("^Manafields battlefield"))
    expect(battlefield).to_have_attribute(
        "aria-label", f"Manafields battlefield, {sides[0]} against {sides[1]}"
    )
    expect(page.locator(".mf-side", has_text="(you)")).to_contain_text("Undead")
    page.goto("/")
    status = page.get_by_role("region", name="Ranked").get_by_test_id("ranked-status")
    expect(status).to_contain_text("you play Undead")


def guest_client(page: Page, web: Server, name: str) -> Client:
    """A guest signed in through the page's cookies, and a client of the same login for the
    match WebSocket (to play a match out quickly)."""
    reply = page.request.post("/api/guests", data={"display_name": name})
    assert reply.status == 201, reply.text()
    client = Client(web)
    client.token, client.account = reply.json()["token"], reply.json()["account"]
    return client


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_dailys_second_visit_shows_the_result_and_practice(
    browser: Browser, web: Server, size: tuple[int, int]
) -> None:
    context = browser.new_context(base_url=web.base, viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(20_000)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        client = guest_client(page, web, f"Daily {size[0]}")
        page.goto("/")
        card = page.get_by_role("region", name="Daily")
        expect(card.get_by_test_id("daily-challenge")).to_contain_text("2 seats")
        expect(card.get_by_test_id("daily-challenge")).to_contain_text("Medium bots")
        # Practice is offered from the start, beside the scored attempt.
        expect(card.get_by_role("button", name="Practise (not scored)")).to_be_visible()
        card.get_by_role("button", name="Play today's Daily").click()
        expect(page).to_have_url(re.compile(r"#/match/"))
        first = page.url.rsplit("/", 1)[1]
        # Back in the lobby before it ends: the unfinished attempt, no second scored one.
        page.goto("/")
        card = page.get_by_role("region", name="Daily")
        expect(card.get_by_test_id("daily-played")).to_contain_text("not finished")
        expect(card.get_by_role("button", name="Play today's Daily")).to_have_count(0)
        # The attempt is played to its end; the next visit shows the result and the rank.
        with client.socket(first) as socket:
            play_out(socket, 0, random.Random(3), socket.recv())
        page.reload()
        card = page.get_by_role("region", name="Daily")
        played = card.get_by_test_id("daily-played")
        expect(played).to_contain_text("Played today")
        expect(played).to_contain_text(re.compile(r"you (won|came 2nd of 2)"))
        expect(played).to_contain_text(re.compile(r"rank \d+ of \d+ on today's leaderboard"))
        expect(card.locator("[role=alert]")).to_have_text("")  # no refusal to read
        expect(card.get_by_role("button", name="Play today's Daily")).to_have_count(0)
        board = card.get_by_test_id("daily-leaderboard")
        expect(board.get_by_role("columnheader")).to_have_text(
            ["Rank", "Player", "Score", "Result", "Turns"]
        )
        mine = board.locator("tr.you")
        expect(mine).to_contain_text(f"Daily {size[0]}")
        expect(mine.locator("td").first).to_have_text(re.compile(r"^\d+$"))
        card.scroll_into_view_if_needed()
        if size[0] > 800:
            screenshot(page, "daily")
        else:
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        card.get_by_role("button", name="Practise (not scored)").click()
        expect(page).to_have_url(re.compile(r"#/match/"))
        assert page.url.rsplit("/", 1)[1] != first
        assert not errors, errors
    finally:
        context.close()
