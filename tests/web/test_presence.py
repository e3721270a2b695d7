"""A player leaving a live timed match, seen by everyone at the table: the page asks before
it goes (a link within the app, closing the tab); the others see the grace period's clock
counting down to the bot, the log says when the bot takes the seat and when its player is
back. At desktop size and on a phone (390x844); on a server of its own, with real seconds
(a 4 s grace period) rather than the other browser tests' fast clocks."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from tests.server.conftest import Server
from tests.web.conftest import sign_in_as_guest

expect.set_options(timeout=20_000)

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def slow_clock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("presence")
    env = {"MEEPLE_CLOCK_SCALE": "1", "MEEPLE_GRACE_SECONDS": "4"}
    running = Server(f"sqlite+aiosqlite:///{data / 'meeple.db'}", data, env=env).start()
    try:
        yield running
    finally:
        running.stop()


def _log(page: Page):
    return page.get_by_test_id("event-log")


@pytest.mark.parametrize("size", list(SIZES))
def test_leaving_a_timed_match_warns_and_everyone_sees_the_bot_come_and_go(
    browser: Browser, slow_clock: Server, size: str
) -> None:
    contexts = [
        browser.new_context(base_url=slow_clock.base, viewport=SIZES[size]) for _ in range(3)
    ]
    try:
        ada, bo, bo_again = (c.new_page() for c in contexts)
        sign_in_as_guest(ada, "Ada")
        bo_account = sign_in_as_guest(bo, "Bo")
        room = ada.request.post("/api/rooms", data={"game": "maatatahay", "timer": 120}).json()
        assert bo.request.post("/api/rooms/join", data={"code": room["code"]}).ok
        assert bo.request.post(f"/api/rooms/{room['id']}/ready", data={"ready": True}).ok
        assert ada.request.post(f"/api/rooms/{room['id']}/start").ok
        ada.goto(f"/#/match/{room['id']}")
        bo.goto(f"/#/match/{room['id']}")
        expect(bo.get_by_role("region", name="Players")).to_contain_text("Wazu (Bo, you)")

        # Bo follows a link to the lobby: the page asks first, and Bo stays.
        asked: list[Dialog] = []

        def answer(dialog: Dialog) -> None:
            asked.append(dialog)
            if dialog.type == "beforeunload":
                dialog.accept()
            else:
                dialog.dismiss()

        bo.on("dialog", answer)
        bo.get_by_role("link", name="Lobby").first.click()
        assert asked and asked[0].type == "confirm"
        assert re.search(r"a bot takes your seat \(Wazu\)", asked[0].message), asked[0].message
        assert "0:04" in asked[0].message
        assert f"#/match/{room['id']}" in bo.url
        # Closing the tab asks too (the browser's own question).
        bo.close(run_before_unload=True)
        expect(ada.get_by_test_id("grace")).to_contain_text(
            re.compile(r"Wazu \(Bo\) has left the match: a bot takes the seat in 0:0[1-4]")
        )
        assert [d.type for d in asked] == ["confirm", "beforeunload"]
        expect(_log(ada)).to_contain_text("Wazu (Bo) has left the match")
        expect(ada.get_by_test_id("status-1")).to_contain_text("left the match")
        # Past the grace period the bot takes the seat, and the log says so.
        expect(_log(ada)).to_contain_text("A bot now plays Wazu (Bo): Bo is away")
        expect(ada.get_by_test_id("status-1")).to_contain_text("away (a bot plays)")
        expect(ada.get_by_test_id("grace")).to_have_count(0)
        # Bo comes back (another tab, same account): the bot stops.
        contexts[2].add_cookies(contexts[1].cookies())
        bo_again.goto(f"/#/match/{room['id']}")
        expect(_log(ada)).to_contain_text("Bo is back and plays Wazu again")
        expect(ada.get_by_test_id("status-1")).not_to_contain_text("away")
        assert bo_account["display_name"] == "Bo"
    finally:
        for context in contexts:
            context.close()
