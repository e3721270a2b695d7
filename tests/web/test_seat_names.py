"""Every seat is named by its side as the board shows it, then by who plays it, so that no
two seats read alike: in the players list, the match's heading and the event log, in every
game, at desktop size and on a phone (390x844)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Server
from tests.web.conftest import sign_in_as_guest, start_solo

expect.set_options(timeout=15_000)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser, web: Server) -> Page:
    context = browser.new_context(base_url=web.base, viewport=SIZES[request.param])
    context.set_default_timeout(20_000)
    request.addfinalizer(context.close)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    request.addfinalizer(lambda: not errors or pytest.fail(f"the page raised: {errors}"))
    return page


def _player_names(page: Page) -> list[str]:
    players = page.get_by_role("region", name="Players")
    expect(players.locator(".name").first).to_be_visible()
    return players.locator(".name").all_inner_texts()


def _log(page: Page) -> list[str]:
    return page.get_by_test_id("event-log").locator("li[data-version]").all_inner_texts()


def test_four_heuristic_bots_of_maiterra_read_apart(sized: Page) -> None:
    page = sized
    sign_in_as_guest(page, "Ana")
    start_solo(page, game="maiterra", seats=4, seed=3, bots="heuristic")
    names = _player_names(page)
    assert names == [
        "Red (Ana, you)",
        "Blue (heuristic bot)",
        "Green (heuristic bot)",
        "Gold (heuristic bot)",
    ]
    expect(page.locator(".match-head .facts")).to_contain_text("you are ● Red")
    # The newcomer picks a house on the board; once every seat has one, the log names them.
    page.locator("button.mt-house", has_text=re.compile("moon", re.I)).click()
    houses = page.get_by_test_id("event-log").locator("li", has_text="Houses:")
    expect(houses).to_have_count(1)
    expect(houses).to_contain_text(
        re.compile(
            r"Red \(Ana\): \w+, Blue \(heuristic bot\): \w+, "
            r"Green \(heuristic bot\): \w+, Gold \(heuristic bot\): \w+"
        )
    )
    # The board's own seat list agrees with the shell's.
    expect(page.locator(".mt-seat[data-seat='1'] b")).to_have_text("Blue (heuristic bot)")


def test_maatatahay_names_the_tribes_first(sized: Page) -> None:
    page = sized
    sign_in_as_guest(page, "Ana")
    start_solo(page, game="maatatahay", seed=3, bots="random")
    assert _player_names(page) == ["Balan (Ana, you)", "Wazu (random bot)"]
    expect(page.get_by_test_id("mh-seat-1")).to_contain_text("Wazu (random bot)")
    actions = page.get_by_role("list", name="Legal actions list").get_by_role("button")
    actions.first.click()
    expect(
        page.get_by_test_id("event-log").locator("li", has_text="Balan (Ana) ").first
    ).to_be_visible()
    expect(
        page.get_by_test_id("event-log").locator("li", has_text="Wazu (random bot) ").first
    ).to_be_visible()
    assert not any(line.strip().startswith(("Ana ", "random bot")) for line in _log(page))


def test_manafields_names_the_factions_the_board_shows(sized: Page) -> None:
    page = sized
    sign_in_as_guest(page, "Ana")
    start_solo(page, game="manafields", seed=1, bots="random")
    names = _player_names(page)
    heads = [
        page.locator(f".mf-side[data-seat='{s}'] .mf-side-name b").inner_text() for s in (0, 1)
    ]
    assert names == [f"{heads[0]} (Ana, you)", f"{heads[1]} (random bot)"]
