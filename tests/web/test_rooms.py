"""Rooms through the browser: a host opens a custom room from the lobby, a second person
joins by its code and gets ready, the host kicks and fills the open seat with bots, starts,
and both land on the match page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.server.conftest import Server
from tests.web.conftest import screenshot, sign_in_as_guest

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _open_room(page: Page, **choices: str) -> str:
    page.goto("/")
    form = page.get_by_role("form", name="Custom room")
    form.get_by_label("Game").select_option(label=choices.get("game", "Maatatahay"))
    if "seats" in choices:
        form.get_by_label("Seats").select_option(choices["seats"])
    if "teams" in choices:
        form.get_by_label("Teams").select_option(choices["teams"])
    if "mode" in choices:
        form.get_by_label("Kind of table").select_option(choices["mode"])
    form.get_by_label("Turn timer").select_option(choices.get("timer", "90"))
    if choices.get("private"):
        form.get_by_label("Listed in the lobby").uncheck()
    form.get_by_role("button", name="Open the room").click()
    expect(page).to_have_url(re.compile(r"#/room/"))
    return page.url.rsplit("/", 1)[1]


def test_a_custom_room_is_filled_with_bots_and_started(page: Page) -> None:
    sign_in_as_guest(page, "Hana")
    room_id = _open_room(page, game="Maiterra", seats="4", teams="1122", timer="120")
    expect(page.get_by_test_id("room-code")).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
    expect(page.locator("tr[data-seat='0']")).to_contain_text("Hana")
    expect(page.locator("tr[data-seat='3']")).to_contain_text("team 2")
    start = page.get_by_role("button", name="Start the match")
    expect(start).to_be_disabled()
    page.get_by_label("Bot level").select_option("random")
    page.get_by_role("button", name="Fill open seats with bots").click()
    for seat in (1, 2, 3):
        expect(page.locator(f"tr[data-seat='{seat}']")).to_contain_text("bot")
    expect(start).to_be_enabled()
    screenshot(page, "room")
    start.click()
    expect(page).to_have_url(re.compile(rf"#/match/{room_id}$"))
    expect(page.get_by_role("region", name="Players")).to_contain_text("Hana")
    expect(page.get_by_test_id("clock")).to_be_visible()


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_seat_table_names_each_seat_by_its_side(
    browser: Browser, web: Server, size: str
) -> None:
    """Each seat reads as the board will call it (a tribe, a colour, a faction), beside who
    plays it; Manafields' factions are the room's options, the game's default where unset."""
    context = browser.new_context(base_url=web.base, viewport=SIZES[size])
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        sign_in_as_guest(page, "Hana")
        _open_room(page, game="Maatatahay", timer="off")
        first, second = page.locator("tr[data-seat='0']"), page.locator("tr[data-seat='1']")
        expect(first.locator("td").first).to_have_text(re.compile(r"Balan$"))
        expect(first).to_contain_text("Hana")
        expect(second.locator("td").first).to_have_text(re.compile(r"Wazu$"))
        expect(page.get_by_role("table")).not_to_contain_text("seat 0")
        page.get_by_role("button", name="Fill open seats with bots").click()
        expect(second).to_contain_text("bot")
        page.screenshot(path=f"/tmp/h17/room-seats-{size}.png")
        reply = page.request.post(
            "/api/rooms", data={"game": "manafields", "options": {"faction1": "undead"}}
        )
        assert reply.status == 201, reply.text()
        page.goto(f"/#/room/{reply.json()['id']}")
        expect(page.locator("tr[data-seat='0'] td").first).to_have_text(re.compile(r"Humans$"))
        expect(page.locator("tr[data-seat='1'] td").first).to_have_text(re.compile(r"Undead$"))
        _open_room(page, game="Maiterra", seats="4", teams="1122")
        expect(page.locator("tr[data-seat='0'] td").first).to_have_text(re.compile(r"Red team 1$"))
        expect(page.locator("tr[data-seat='3'] td").first).to_have_text(re.compile(r"Gold team 2$"))
        box = page.get_by_role("table").bounding_box()
        assert box is not None and box["x"] + box["width"] <= SIZES[size]["width"] + 1
    finally:
        context.close()


def _person(browser: Browser, web: Server, name: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(base_url=web.base)
    context.set_default_timeout(20_000)
    opened = context.new_page()
    sign_in_as_guest(opened, name)
    return context, opened


def test_a_private_room_joined_by_code_kicked_readied_and_started(
    browser: Browser, web: Server
) -> None:
    host_context, host = _person(browser, web, "Host Ines")
    guest_context, guest = _person(browser, web, "Joao")
    try:
        room_id = _open_room(host, game="Maatatahay", timer="off", private="yes")
        code = host.get_by_test_id("room-code").inner_text()
        # A private room is not listed.
        assert all(r["id"] != room_id for r in host.request.get("/api/rooms").json())
        guest.goto("/")
        join = guest.get_by_role("form", name="Join by code")
        join.get_by_label("Room code").fill("NOPE00")
        join.get_by_role("button", name="Join").click()
        expect(join.get_by_role("alert")).not_to_be_empty()
        join.get_by_label("Room code").fill(code.lower())
        join.get_by_role("button", name="Join").click()
        expect(guest).to_have_url(re.compile(rf"#/room/{room_id}$"))
        # The host's page follows the room's socket: the guest appears, then is kicked.
        expect(host.locator("tr[data-seat='1']")).to_contain_text("Joao")
        host.get_by_role("button", name="Kick Wazu (Joao)").click()
        expect(host.locator("tr[data-seat='1']")).to_contain_text("open")
        expect(guest.locator("tr[data-seat='1']")).to_contain_text("open")
        # The guest joins again, gets ready; the host starts; both land on the match.
        guest.goto("/")
        join.get_by_label("Room code").fill(code)
        join.get_by_role("button", name="Join").click()
        expect(guest.locator("tr[data-seat='1']")).to_contain_text("Joao (you)")
        start = host.get_by_role("button", name="Start the match")
        start.click()
        expect(host.get_by_role("alert").filter(has_text="ready")).to_be_visible()
        guest.get_by_role("button", name="Ready").click()
        expect(host.locator("tr[data-seat='1']")).to_contain_text("✓ ready")
        start.click()
        expect(host).to_have_url(re.compile(rf"#/match/{room_id}$"))
        expect(guest).to_have_url(re.compile(rf"#/match/{room_id}$"))
        expect(guest.get_by_role("region", name="Players")).to_contain_text("Host Ines")
        expect(guest.get_by_test_id("clock")).to_contain_text("none")
    finally:
        host_context.close()
        guest_context.close()


def test_a_match_over_days_has_no_clock_and_is_in_the_your_turn_list(page: Page) -> None:
    sign_in_as_guest(page, "Dai")
    page.goto("/")
    form = page.get_by_role("form", name="Custom room")
    form.get_by_label("Game").select_option(label="Maatatahay")
    form.get_by_label("Kind of table").select_option("days")
    expect(form.get_by_label("Turn timer")).to_be_disabled()
    form.get_by_role("button", name="Open the room").click()
    expect(page).to_have_url(re.compile(r"#/room/"))
    room_id = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("region", name="Room")).to_contain_text("no turn timer")
    expect(page.get_by_role("region", name="Room")).to_contain_text("match over days")
    page.get_by_role("button", name="Fill open seats with bots").click()
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(rf"#/match/{room_id}$"))
    expect(page.get_by_test_id("clock")).to_contain_text("none")
    expect(page.locator(".match-head")).to_contain_text("over days")
    expect(page.get_by_test_id("hint-panel")).to_have_count(0)  # not a solo match
    expect(page.get_by_role("list", name="Legal actions list")).to_be_visible()
    page.goto("/#/")
    row = page.locator(f"[data-match='{room_id}']")
    expect(row).to_contain_text("over days")
    expect(row).to_contain_text("Your turn", timeout=15_000)  # the list is polled


def test_a_wifi_room_on_a_lan_server_and_a_waiting_room_s_match_link(page: Page) -> None:
    # The test servers run with --lan: the lobby offers a Wi-Fi room.
    sign_in_as_guest(page, "Wen")
    room_id = _open_room(page, game="Maatatahay", timer="60", mode="lan")
    expect(page.get_by_role("region", name="Room")).to_contain_text("turn timer 60 s")
    expect(page.get_by_role("region", name="Room")).to_contain_text("Wi-Fi room")
    # A waiting room has no match yet: its match link leads back to the room.
    page.goto(f"/#/match/{room_id}")
    expect(page).to_have_url(re.compile(rf"#/room/{room_id}$"))
    expect(page.get_by_test_id("room-code")).to_be_visible()
