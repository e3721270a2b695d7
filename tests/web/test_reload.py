"""Reload and reconnect: a reloaded match page rebuilds from the snapshot (the same version,
the legal actions back, the event log replayed) and the next action is accepted; a spectator
follows the match with ?watch and cannot act."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.server.conftest import Server
from tests.web.conftest import sign_in_as_guest, start_solo

# A loaded machine (CI runs the browser tests beside the rest) may take longer than the
# 5 s Playwright waits by default.
expect.set_options(timeout=15_000)


@contextmanager
def _two_at_a_table(
    page: Page,
    browser: Browser,
    web: Server,
    names: tuple[str, str],
    timer: int | None,
    timeout_ms: float | None = None,
) -> Iterator[tuple[Page, str]]:
    """``page`` hosts a Maatatahay room, a second person (another browser profile) joins it
    by code and gets ready, the match starts and both pages open it: (the other page, the
    match id). ``timeout_ms`` sets the other profile's waits."""
    sign_in_as_guest(page, names[0])
    room = page.request.post("/api/rooms", data={"game": "maatatahay", "timer": timer}).json()
    other_context = browser.new_context(base_url=web.base)
    if timeout_ms is not None:
        other_context.set_default_timeout(timeout_ms)
    try:
        other = other_context.new_page()
        sign_in_as_guest(other, names[1])
        assert other.request.post("/api/rooms/join", data={"code": room["code"]}).ok
        assert other.request.post(f"/api/rooms/{room['id']}/ready", data={"ready": True}).ok
        assert page.request.post(f"/api/rooms/{room['id']}/start").ok
        page.goto(f"/#/match/{room['id']}")
        other.goto(f"/#/match/{room['id']}")
        expect(other.get_by_test_id("version")).to_be_visible()
        yield other, room["id"]
    finally:
        other_context.close()


def _wait_past(page: Page, version: int) -> None:
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=version]').textContent) > v",
            arg=version,
        )
    except PlaywrightTimeoutError as error:
        # Say what the page showed (its version, message and connection), for a failure.
        shown = page.evaluate(
            """() => ({
              version: document.querySelector('[data-testid=version]')?.textContent,
              message: document.querySelector('[data-testid=message]')?.textContent,
              link: document.querySelector('.link')?.textContent ?? 'open',
            })"""
        )
        raise AssertionError(
            f"the version never passed {version}; the page showed {shown}"
        ) from error


def _legal(page: Page) -> Locator:
    return page.get_by_role("list", name="Legal actions list").get_by_role("button")


def test_reload_mid_match_and_continue(page: Page) -> None:
    sign_in_as_guest(page, "Rui")
    start_solo(page, game="maatatahay", seed=3, bots="random")
    expect(_legal(page).first).to_be_visible()
    before = int(page.get_by_test_id("version").inner_text())
    _legal(page).first.click()
    _wait_past(page, before)
    expect(_legal(page).first).to_be_visible()  # the bot answered; the person decides again
    version = page.get_by_test_id("version").inner_text()
    legal = _legal(page).all_inner_texts()
    log = page.get_by_test_id("event-log").locator("li[data-version]").all_inner_texts()
    assert log
    page.reload()
    expect(page.get_by_test_id("version")).to_have_text(version)
    expect(_legal(page).first).to_be_visible()
    assert _legal(page).all_inner_texts() == legal
    expect(page.get_by_test_id("event-log").locator("li[data-version]")).to_have_count(len(log))
    # An action after the reload is accepted.
    _legal(page).first.click()
    _wait_past(page, int(version))
    expect(page.get_by_test_id("message")).to_be_empty()


def test_an_illegal_notation_is_refused_in_an_alert(page: Page) -> None:
    sign_in_as_guest(page, "Eva")
    start_solo(page, game="manafields", seed=1)
    expect(_legal(page).first).to_be_visible()
    page.get_by_label("Play by notation").fill("not a move at all")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert").filter(has_text="not")).to_be_visible()


def test_a_spectator_watches_without_acting(page: Page, browser: Browser, web: Server) -> None:
    sign_in_as_guest(page, "Ola")
    match = start_solo(page, game="maatatahay", seed=4)
    expect(_legal(page).first).to_be_visible()
    watcher_context = browser.new_context(base_url=web.base)
    try:
        watcher = watcher_context.new_page()
        sign_in_as_guest(watcher, "Watcher")
        watcher.goto(f"/#/match/{match['id']}?watch")
        expect(watcher.get_by_test_id("version")).to_have_text(
            page.get_by_test_id("version").inner_text()
        )
        expect(watcher.get_by_role("region", name="Legal actions")).to_contain_text("watching")
        before = int(page.get_by_test_id("version").inner_text())
        _legal(page).first.click()
        _wait_past(watcher, before)
    finally:
        watcher_context.close()


def test_a_player_who_leaves_a_timed_match_shows_as_away_and_back(
    page: Page, browser: Browser, web: Server
) -> None:
    with _two_at_a_table(page, browser, web, ("Host Ada", "Bo"), 120) as (other, match_id):
        # Bo's page goes: after the grace period (60 s, 50 times faster) the seat is away.
        other.goto("about:blank")
        expect(page.get_by_test_id("status-1")).to_contain_text("away", timeout=15_000)
        other.goto(f"{web.base}/#/match/{match_id}")
        expect(page.get_by_test_id("status-1")).not_to_contain_text("away", timeout=15_000)


# Every WebSocket the page opens is kept in window.__sockets; while window.__block is set,
# new ones are refused at the handshake (as when the network is down): a path of this server
# that no socket route serves, so the page's Content-Security-Policy (connect-src 'self')
# lets the attempt through and the server turns it away.
_FLAKY_NETWORK = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__block = false;
  window.WebSocket = function (url, protocols) {
    const socket = new Real(window.__block ? String(url).replace("/ws/", "/ws-down/") : url,
                            protocols);
    window.__sockets.push(socket);
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


def _versions_logged(page: Page) -> list[int]:
    """The version of every line of the event log, in order."""
    items = page.get_by_test_id("event-log").locator("li[data-version]")
    found: list[str] = items.evaluate_all("els => els.map(e => e.dataset.version)")
    return [int(v) for v in found]


def test_a_dropped_connection_comes_back_with_what_it_missed(
    page: Page, browser: Browser, web: Server
) -> None:
    page.add_init_script(_FLAKY_NETWORK)
    with _two_at_a_table(page, browser, web, ("Ava", "Ben"), None, 20_000) as (other, _):
        # Ava plays until Ben decides.
        for _ in range(50):
            if _legal(other).count():
                break
            if _legal(page).count() and _legal(page).first.is_enabled():
                _legal(page).first.click()
            page.wait_for_timeout(150)
        expect(_legal(other).first).to_be_visible()
        # Ava's connection drops and stays down while Ben plays.
        page.evaluate(
            "() => { window.__block = true; window.__sockets.forEach((s) => s.close()); }"
        )
        expect(page.locator(".match-head .link")).to_contain_text("reconnecting")
        stuck = page.get_by_test_id("version").inner_text()
        lines = _versions_logged(page)
        before = int(other.get_by_test_id("version").inner_text())
        _legal(other).first.click()
        _wait_past(other, before)
        page.wait_for_timeout(300)
        expect(page.get_by_test_id("version")).to_have_text(stuck)
        # The network is back: the socket reopens with ?since and the page catches up.
        page.evaluate("() => { window.__block = false; }")
        expect(page.get_by_test_id("version")).to_have_text(
            other.get_by_test_id("version").inner_text()
        )
        expect(page.locator(".match-head .link")).to_have_count(0)
        # Ben's move (public in Maatatahay) is in Ava's log, after the lines she had.
        logged = _versions_logged(page)
        assert logged[: len(lines)] == lines
        assert before + 1 in logged[len(lines) :]
        reopened = page.evaluate("() => window.__sockets.map((s) => s.url)")
        assert any(f"since={stuck}" in url for url in reopened), reopened
