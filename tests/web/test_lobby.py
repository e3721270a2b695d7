"""The lobby in a real Chromium against a real server: a solo match set up through the form
(Maiterra at four seats in teams offered in words, a bot level per seat from the game's own
ladder labelled by strength, the person's seat), the "your turn" list, a finished match with
its mode and result, the open rooms, and a solo match of each game played by keyboard
through the generic list of legal actions."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Server
from tests.server.test_live import play_out
from tests.web.conftest import screenshot, sign_in_as_guest, start_solo
from tests.web.test_ranked_daily import guest_client

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)


def test_a_solo_match_from_the_form_with_teams_bots_and_a_seat(page: Page) -> None:
    sign_in_as_guest(page, "Bea")
    page.goto("/")
    solo = page.get_by_role("form", name="Solo match")
    solo.get_by_label("Game").select_option(label="Maiterra")
    solo.get_by_label("Seats").select_option("4")
    # Teams in words, by the houses' colours; never a code such as "1212".
    expect(solo.get_by_label("Teams").locator("option")).to_contain_text(
        ["Everyone against everyone", "Red & Blue vs Green & Gold"]
    )
    solo.get_by_label("Teams").select_option(label="Red & Green vs Blue & Gold")
    solo.get_by_label("Your seat").select_option("1")
    # The ladder, weakest first, by strength; no other game's bot, no bare names.
    levels = solo.get_by_label("Bot at Red").locator("option")
    expect(levels.first).to_have_text("Beginner — random moves")
    expect(levels.last).to_contain_text("Expert")
    expect(solo.get_by_label("Bot at Red")).not_to_contain_text("maiterra-heuristic")
    solo.get_by_label("Bot at Red").select_option(label="Beginner — random moves")
    # Green keeps the level a form starts at: an easy one.
    expect(solo.get_by_label("Bot at Green")).to_have_value("greedy")
    solo.get_by_label("Bot at Gold").select_option(label="Medium — the game's own rules of thumb")
    # Older rules are an advanced choice, not a second game.
    expect(solo.get_by_label("Game").locator("option", has_text="rules version")).to_have_count(0)
    solo.get_by_role("button", name="Start a solo match").click()
    expect(page).to_have_url(re.compile(r"#/match/"))
    match_id = page.url.rsplit("/", 1)[1]
    summary = page.request.get(f"/api/matches/{match_id}").json()
    assert summary["seats"] == 4 and summary["options"]["teams"] == "1212"
    bots = [p["bot"] for p in summary["players"]]
    assert bots == ["random", None, "greedy", "heuristic"]
    players = page.get_by_role("region", name="Players")
    expect(players.locator("[data-seat='1']")).to_contain_text(", you)")
    expect(players.locator("[data-seat='3']")).to_contain_text("team 2")
    # Back in the lobby the match is listed first, as the person's turn (the house pick).
    page.get_by_role("link", name="Lobby").first.click()
    mine = page.get_by_test_id("my-matches")
    expect(mine.locator("li").first).to_have_attribute("data-match", match_id)
    expect(mine.locator("li").first).to_contain_text("Your turn")


@pytest.mark.parametrize("size", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_finished_match_shows_its_mode_and_your_result(
    browser: Browser, web: Server, size: tuple[int, int]
) -> None:
    context = browser.new_context(base_url=web.base, viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        client = guest_client(page, web, "Finisher")
        body = {"game": "maatatahay", "bots": ["heuristic"], "seed": 4}
        match = page.request.post("/api/matches/solo", data=body).json()
        with client.socket(match["id"]) as socket:
            play_out(socket, 0, random.Random(5), socket.recv())
        outcome = page.request.get(f"/api/matches/{match['id']}").json()["outcome"]
        said = "A draw" if outcome["draw"] else "You won" if 0 in outcome["winners"] else "You lost"
        page.goto("/")
        row = page.get_by_test_id("my-matches").locator(f"[data-match='{match['id']}']")
        expect(row).to_contain_text("solo")
        expect(row).to_contain_text(said)
        expect(row).not_to_contain_text("over")
        expect(row.get_by_role("link", name="Replay")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    finally:
        context.close()


def test_the_lobby_lists_open_rooms_and_joins_one(browser: Browser, web: Server) -> None:
    host_context = browser.new_context(base_url=web.base)
    guest_context = browser.new_context(base_url=web.base, viewport={"width": 1280, "height": 900})
    try:
        host = host_context.new_page()
        sign_in_as_guest(host, "Host Hana")
        room = host.request.post(
            "/api/rooms", data={"game": "maatatahay", "timer": 120, "public": True}
        ).json()
        page = guest_context.new_page()
        sign_in_as_guest(page, "Caio")
        start_solo(page, game="manafields", seed=2)
        expect(page.get_by_test_id("version")).to_be_visible()
        page.goto("/#/")
        rooms = page.get_by_test_id("open-rooms")
        row = rooms.locator(f"[data-room='{room['id']}']")
        expect(row).to_contain_text("Maatatahay")
        expect(row).to_contain_text("120 s timer")
        expect(row).to_contain_text("Host Hana")
        expect(page.get_by_test_id("my-matches")).to_contain_text("Manafields")
        screenshot(page, "lobby")
        row.get_by_role("button", name="Join").click()
        expect(page).to_have_url(re.compile(rf"#/room/{room['id']}"))
        expect(page.locator("tr[data-seat='1']")).to_contain_text("Caio")
    finally:
        host_context.close()
        guest_context.close()


@pytest.mark.parametrize("game", ["maatatahay", "manafields", "maiterra"])
def test_a_solo_match_of_each_game_is_played_by_keyboard(page: Page, game: str) -> None:
    sign_in_as_guest(page, "Kim")
    start_solo(page, game=game, seed=5)
    first = page.get_by_role("list", name="Legal actions list").get_by_role("button").first
    expect(first).to_be_visible()  # the person's decision: the bots wait for it
    expect(page).to_have_title(re.compile(r"your turn · meeple$"))
    before = int(page.get_by_test_id("version").inner_text())
    text = first.inner_text()
    # By keyboard: Tab reaches the link to the actions, Enter jumps to the notation box;
    # the focus is drawn. Type the notation and press Enter.
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent") == "Jump to your actions":
            break
    else:
        raise AssertionError("Tab never reached the link to the actions")
    page.keyboard.press("Enter")
    expect(page.get_by_label("Play by notation")).to_be_focused()
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=version]').textContent) > v", arg=before
    )
    expect(page.get_by_test_id("event-log").locator("li[data-version]").first).to_be_visible()
    expect(page.get_by_test_id("message")).to_be_empty()
    # The focus stays in the actions while the bots answer: the next move is typed at once.
    expect(page.get_by_label("Play by notation")).to_be_focused()


def test_the_solo_form_names_maatatahays_seats_by_tribe(page: Page) -> None:
    """The seat a newcomer picks reads as the board will name it, not 'seat 0'."""
    sign_in_as_guest(page, "Tala")
    page.goto("/")
    solo = page.get_by_role("form", name="Solo match")
    solo.get_by_label("Game").select_option(label="Maatatahay")
    expect(solo.get_by_label("Your seat")).to_contain_text("Balan (plays first)")
    expect(solo.get_by_label("Your seat")).not_to_contain_text("seat 0")
    expect(solo.get_by_label("Bot at Wazu")).to_be_visible()
