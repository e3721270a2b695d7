"""A newcomer's first Manafields match in a real Chromium, at desktop and phone size: the
factions are picked among the four, each with its line from the rules (no ``faction0`` under
the rule options); the bot starts at an easy level named by its strength; the board says
what lead, OP and Morale are; a match won on the lead says the lead it ended on."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.conftest import Server
from tests.server.test_live import play_out
from tests.web.test_ranked_daily import guest_client

expect.set_options(timeout=15_000)

SIZES = pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])


def sized(browser: Browser, web: Server, size: tuple[int, int]) -> BrowserContext:
    context = browser.new_context(base_url=web.base, viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(20_000)
    return context


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@SIZES
def test_a_first_manafields_match_from_the_solo_form(
    browser: Browser, web: Server, size: tuple[int, int]
) -> None:
    context = sized(browser, web, size)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        guest_client(page, web, "Newcomer")
        page.goto("/")
        solo = page.get_by_role("form", name="Solo match")
        solo.get_by_label("Game").select_option(label="Manafields")
        mine = solo.get_by_role("group", name="Your faction")
        expect(mine.get_by_role("radio")).to_have_count(4)
        for faction in ("Humans", "Elves", "Orcs", "Undead"):
            expect(mine.get_by_role("radio", name=re.compile(f"^{faction}"))).to_be_visible()
        expect(mine).to_contain_text("teleport 3 units to empty objective squares")
        mine.get_by_role("radio", name=re.compile("^Elves")).check()
        theirs = solo.get_by_role("group", name=re.compile("^The bot's faction"))
        theirs.get_by_role("radio", name=re.compile("^Undead")).check()
        # No faction among the rule options, and no older rules as another game.
        expect(solo.locator("details.options summary").first).to_have_text("Rule options (2)")
        expect(solo.get_by_text("faction0")).to_have_count(0)
        expect(solo.get_by_text("Advanced: rules version")).to_be_visible()
        # The bot starts easy, named by its strength.
        bot = solo.get_by_label("Bot at seat 1")
        expect(bot).to_have_value("greedy")
        expect(bot.locator("option:checked")).to_have_text(re.compile("^Easy — "))
        no_sideways_scroll(page)
        solo.get_by_role("button", name="Start a solo match").click()
        expect(page).to_have_url(re.compile(r"#/match/"))
        match_id = page.url.rsplit("/", 1)[1]
        summary = page.request.get(f"/api/matches/{match_id}").json()
        assert summary["options"]["faction0"] == "elves"
        assert summary["options"]["faction1"] == "undead"
        assert [p["bot"] for p in summary["players"]] == [None, "greedy"]
        # The board says what lead, OP and Morale are, where they show.
        terms = page.get_by_test_id("mf-terms")
        expect(terms).to_contain_text("a lead of 12 or more when a turn ends wins")
        expect(terms).to_contain_text("OP: Order Points")
        expect(terms).to_contain_text("Morale: 1 for each enemy unit destroyed")
        # The second seat starts with 1 point: the first is 1 behind.
        expect(page.get_by_test_id("mf-lead-0")).to_have_text(re.compile(r"^lead −1 \(12 wins\)"))
        no_sideways_scroll(page)
        assert not errors, errors
    finally:
        context.close()


@SIZES
def test_a_match_won_on_the_lead_says_the_lead_it_ended_on(
    browser: Browser, web: Server, size: tuple[int, int]
) -> None:
    context = sized(browser, web, size)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        client = guest_client(page, web, "Loser")
        body = {"game": "manafields", "bots": ["heuristic"], "seed": 6}
        match = page.request.post("/api/matches/solo", data=body).json()
        with client.socket(match["id"]) as socket:
            play_out(socket, 0, random.Random(6), socket.recv())
        outcome = page.request.get(f"/api/matches/{match['id']}").json()["outcome"]
        assert outcome["reason"] == "lead", outcome
        winner = outcome["winners"][0]
        scores = [round(x) for x in outcome["scores"]]
        lead = scores[winner] - scores[1 - winner]
        assert lead >= 12
        page.goto(f"/#/match/{match['id']}")
        words = f"by a lead of {lead} ({scores[winner]}–{scores[1 - winner]}; 12 or more wins)"
        expect(page.get_by_test_id("mf-head")).to_contain_text(f"won {words}")
        expect(page.get_by_test_id("event-log")).to_contain_text(words)
        no_sideways_scroll(page)
        assert not errors, errors
    finally:
        context.close()
