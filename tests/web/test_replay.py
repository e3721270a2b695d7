"""The replay viewer in a real Chromium against a real server: a finished match stepped,
scrubbed, jumped and played by keyboard on its board; a record file opened; the
win-probability line drawn on demand."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import meeple.games  # noqa: F401
from meeple.core import MatchRecord
from tests.server.conftest import Server
from tests.server.test_live import play_out
from tests.web.conftest import screenshot, sign_in_as_guest


def finished_match(web: Server, seed: int, name: str = "Wazu") -> tuple[str, MatchRecord]:
    """A Maatatahay solo match against the random bot, played to the end over the API."""
    client = web.client().guest(name)
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=seed)
    with client.socket(match["id"]) as socket:
        play_out(socket, 0, random.Random(seed), socket.recv())
    reply = client.get(f"/api/matches/{match['id']}/record")
    assert reply.status_code == 200, reply.text
    return match["id"], MatchRecord.from_json(reply.json())


def board_of(page: Page) -> str:
    return page.get_by_test_id("replay-board").inner_html()


def shows(page: Page, version: int) -> None:
    expect(page.get_by_test_id("replay-version")).to_have_text(str(version))


def test_a_finished_match_replays_step_by_step(page: Page, web: Server) -> None:
    match_id, record = finished_match(web, seed=7)
    last = len(record.actions)
    steps: list[dict[str, Any]] = page.request.get(f"/api/matches/{match_id}/replay").json()[
        "steps"
    ]
    page.goto(f"/#/replay/{match_id}")
    shows(page, 0)
    expect(page.get_by_test_id("replay-board").locator("svg").first).to_be_visible()
    expect(page.get_by_test_id("moves").locator("button[data-version]")).to_have_count(last)
    start = board_of(page)

    page.get_by_role("button", name="Forward", exact=True).click()
    shows(page, 1)
    expect(page.get_by_test_id("step-line")).to_contain_text(steps[1]["notation"])
    assert board_of(page) != start
    page.get_by_role("button", name="Back", exact=True).click()
    shows(page, 0)
    assert board_of(page) == start
    page.get_by_role("button", name="Last", exact=True).click()
    shows(page, last)
    expect(page.get_by_test_id("replay-outcome")).to_be_visible()
    page.get_by_role("button", name="First", exact=True).click()
    shows(page, 0)

    # The slider scrubs, the list jumps, the keyboard steps.
    page.get_by_test_id("scrub").fill(str(last // 2))
    shows(page, last // 2)
    page.get_by_test_id("moves").locator("button[data-version='5']").click()
    shows(page, 5)
    expect(page.get_by_test_id("step-line")).to_contain_text(steps[5]["notation"])
    current = page.get_by_test_id("moves").locator("[aria-current=step]")
    expect(current).to_have_attribute("data-version", "5")
    page.locator("body").press("ArrowRight")
    shows(page, 6)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    shows(page, 4)
    page.keyboard.press("End")
    shows(page, last)
    page.keyboard.press("Home")
    shows(page, 0)

    # The line of a seat's chances, on demand (analysis needs a login).
    sign_in_as_guest(page, "Kai")
    page.get_by_test_id("line-seat").select_option("0")
    page.get_by_role("button", name="Analyse").click()
    expect(page.get_by_test_id("win-polyline")).to_be_visible(timeout=60_000)
    expect(page.locator(".analysis [role=status]")).to_have_count(0, timeout=60_000)
    points = page.get_by_test_id("win-polyline").get_attribute("points") or ""
    assert len(points.split()) >= 3
    page.get_by_test_id("scrub").fill("12")
    shows(page, 12)
    expect(page.get_by_test_id("win-here")).to_be_visible()
    screenshot(page, "replay")


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
def test_the_replay_names_seats_by_side_then_player(
    browser: Browser, web: Server, size: str
) -> None:
    """'Balan (Ana)', 'Wazu (random bot)': in the seat pickers, the step line, the list of
    moves and the result, as the match page names them (not 'Ana (seat 0)')."""
    match_id, record = finished_match(web, seed=3, name="Ana")
    context = browser.new_context(base_url=web.base, viewport=SIZES[size])
    context.set_default_timeout(20_000)
    page = context.new_page()
    try:
        page.goto(f"/#/replay/{match_id}")
        shows(page, 0)
        seen_by = page.get_by_test_id("view-seat").locator("option")
        expect(seen_by).to_have_text(["everyone (every event)", "Balan (Ana)", "Wazu (random bot)"])
        page.get_by_role("button", name="Forward", exact=True).click()
        shows(page, 1)
        mover = "Balan (Ana)" if record.actions[0][0] == 0 else "Wazu (random bot)"
        expect(page.get_by_test_id("step-line")).to_contain_text(f"{mover} played")
        moves = page.get_by_test_id("moves")
        expect(moves.get_by_role("button", name=f"move 1, {mover}:")).to_be_visible()
        page.get_by_role("button", name="Last", exact=True).click()
        outcome = record.replay().outcome()
        assert outcome is not None
        expected = " and ".join(
            ["Balan (Ana)", "Wazu (random bot)"][seat] for seat in outcome.winners
        )
        outcome_line = page.get_by_test_id("replay-outcome")
        expect(outcome_line).to_have_text(f"{expected} wins" if expected else "a draw")
        expect(page.get_by_test_id("line-seat").locator("option")).to_have_text(
            ["Balan (Ana)", "Wazu (random bot)"]
        )
        expect(page.get_by_test_id("replay")).not_to_contain_text("(seat 0)")
        page.screenshot(path=f"/tmp/h17/replay-seats-{size}.png")
    finally:
        context.close()


def test_a_record_file_opens_in_the_viewer(page: Page, web: Server, tmp_path: Path) -> None:
    _, record = finished_match(web, seed=4)
    file = tmp_path / "match.json"
    file.write_text(record.dumps(indent=2))
    page.goto("/#/replay")
    page.get_by_test_id("record-file").set_input_files(str(file))
    shows(page, 0)
    moves = page.get_by_test_id("moves").locator("button[data-version]")
    expect(moves).to_have_count(len(record.actions))
    page.get_by_role("button", name="Last", exact=True).click()
    shows(page, len(record.actions))
    expect(page.get_by_test_id("replay-outcome")).to_be_visible()
    # Seen by one seat: the same steps, that seat's view.
    page.get_by_test_id("view-seat").select_option("1")
    shows(page, len(record.actions))
    # Its line, analysed from the file (a login is needed).
    sign_in_as_guest(page, "Kai")
    page.get_by_test_id("line-seat").select_option("1")
    page.get_by_role("button", name="Analyse").click()
    expect(page.get_by_test_id("win-polyline")).to_be_visible(timeout=60_000)

    # A file that is no record is refused with the server's reason.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "meeple-record/1", "game": "maatatahay"}))
    page.get_by_test_id("record-file").last.set_input_files(str(bad))
    expect(page.get_by_test_id("replay-error")).to_contain_text("record")


def test_an_unfinished_match_has_no_replay_yet(page: Page, web: Server) -> None:
    sign_in_as_guest(page)
    reply = page.request.post("/api/matches/solo", data={"game": "maatatahay", "seed": 1})
    match = reply.json()
    page.goto(f"/#/replay/{match['id']}")
    expect(page.get_by_test_id("replay-error")).to_contain_text("still being played")
