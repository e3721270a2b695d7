"""The lobby's Ranked and Daily cards in a real Chromium: queue, wait and cancel; matched
with a second player and taken to the match; Manafields queued with a chosen faction and
played with it; today's Daily played, a second scored attempt refused and practised
instead."""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import Page, expect

from tests.server.conftest import Server
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
    expect(card.get_by_label("Your faction")).to_have_count(0)  # its seats play none
    other = member(web, "Elf Lord")
    body = {"game": "manafields", "faction": "elves", "wait": 60}
    queued = other.post("/api/ranked/queue", json=body)
    assert queued.status_code == 201 and queued.json()["faction"] == "elves", queued.text
    card.get_by_label("Game").select_option(label="Manafields, 2 seats")
    card.get_by_label("Your faction").select_option(label="Undead")
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


def test_the_daily_in_the_lobby(page: Page) -> None:
    sign_in_as_guest(page, "Daily")
    page.goto("/")
    card = page.get_by_role("region", name="Daily")
    expect(card.get_by_test_id("daily-challenge")).to_contain_text("2 seats")
    card.get_by_role("button", name="Play today's Daily").click()
    expect(page).to_have_url(re.compile(r"#/match/"))
    first = page.url
    page.goto("/")
    card = page.get_by_role("region", name="Daily")
    card.get_by_role("button", name="Play today's Daily").click()
    expect(card.get_by_role("alert")).to_contain_text("practise it")
    screenshot(page, "daily")
    card.get_by_role("button", name="Practise").click()
    expect(page).to_have_url(re.compile(r"#/match/"))
    assert page.url != first
