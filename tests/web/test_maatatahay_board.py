"""Maatatahay's board in a real Chromium against a real server: a guest picks pairs, says who
places first, places warriors with a ghost preview and ends each placement (facing, crystals
kept) by clicking on the map and the board's panels (never the generic list); an illegal
click says why without moving the match; the keyboard reaches the targets; every engine
event reads as one line."""

from __future__ import annotations

import json

from playwright.sync_api import Locator, Page, expect

from meeple.core.outcome import Event
from meeple.games.maatatahay.game import Maatatahay
from tests.web.conftest import screenshot, sign_in_as_guest, start_solo

BOARD = "[data-testid=maatatahay-board]"
MY_TURN = f"{BOARD}[data-my-turn=true]"
SEED = 5


def board(page: Page) -> Locator:
    return page.locator(BOARD)


def version(page: Page) -> int:
    return int(board(page).get_attribute("data-version") or "-1")


def map_picture(page: Page) -> str:
    return page.locator(f"{BOARD} svg.mh-map").inner_html()


def wait_version_above(page: Page, before: int) -> int:
    page.wait_for_function(
        "([sel, v]) => Number(document.querySelector(sel)?.dataset.version) > v",
        arg=[BOARD, before],
    )
    return version(page)


def open_match(page: Page) -> None:
    sign_in_as_guest(page)
    start_solo(page, game="maatatahay", seed=SEED, bots=["random"])
    board(page).wait_for()


def wait_my_turn(page: Page) -> str:
    """The phase once this seat decides (or "over")."""
    page.wait_for_selector(f"{MY_TURN}, [data-testid=mh-outcome]")
    if page.get_by_test_id("mh-outcome").count():
        return "over"
    return board(page).get_attribute("data-phase") or ""


def play_one(page: Page, phase: str) -> None:
    """One decision of this seat, by clicking on the board and its panels."""
    if phase == "pick":
        page.locator(".mh-pair-legal").first.click()
    elif phase == "order":
        page.get_by_test_id("mh-first-B").click()
    elif phase == "place":
        target = page.locator("g.mh-target").first
        space = target.get_attribute("data-space")
        target.click()
        # The ghost preview: the warrior stands on the chosen space before it is confirmed.
        expect(page.locator(f"g.mh-pending[data-space={space}] .mh-ghost")).to_have_count(1)
        if page.locator("button[data-paid]").count():
            page.locator("button[data-paid]").last.click()
        confirm = page.get_by_test_id("mh-confirm")
        expect(confirm).to_contain_text(space or "?")
        confirm.click()
    elif phase == "finish":
        hot = page.locator("g.mh-hot-cell")
        before = page.locator("button[data-facing][aria-pressed=true]").inner_text()
        hot.click()  # a quarter turn
        facing = page.locator("button[data-facing][aria-pressed=true]")
        expect(facing).not_to_have_text(before)
        after = facing.inner_text()
        confirm = page.get_by_test_id("mh-confirm")
        expect(confirm).to_contain_text(f"{after} keep")
        # Putting a stored crystal onto the warrior changes what will be played.
        fewer = page.get_by_test_id("mh-keep-energy-less")
        if fewer.is_enabled():
            kept = confirm.inner_text()
            fewer.click()
            expect(confirm).not_to_have_text(kept)
        confirm.click()
    else:
        raise AssertionError(f"unexpected phase {phase!r}")


def test_play_turns_by_clicking_on_the_board(page: Page) -> None:
    open_match(page)
    phases: list[str] = []
    for _ in range(8):
        phase = wait_my_turn(page)
        if phase == "over":
            break
        before, picture = version(page), map_picture(page)
        play_one(page, phase)
        wait_version_above(page, before)
        if phase in ("place", "finish"):
            assert map_picture(page) != picture
        phases.append(phase)
    assert {"place", "finish"} <= set(phases), phases
    assert "pick" in phases or "order" in phases, phases
    # The event log shows the board's own lines, naming the players.
    assert "[object Object]" not in page.content()
    # The screenshot shows a warrior's ghost on the space it is about to take.
    while (phase := wait_my_turn(page)) not in ("place", "over"):
        before = version(page)
        play_one(page, phase)
        wait_version_above(page, before)
    if phase == "place":
        page.locator("g.mh-target").last.click()
        page.get_by_role("button", name="Turn clockwise").click()
        expect(page.locator("button[data-facing][aria-pressed=true]")).to_have_text("E")
        expect(page.locator("g.mh-pending .mh-ghost")).to_have_count(1)
    screenshot(page, "maatatahay")


def test_an_illegal_click_says_why_and_changes_nothing(page: Page) -> None:
    open_match(page)
    # Play up to this seat's first placement.
    while (phase := wait_my_turn(page)) != "place":
        before = version(page)
        play_one(page, phase)
        wait_version_above(page, before)
    before = version(page)
    # A space that is no target (a warrior, or a relic storage cannot pay for) explains itself.
    page.locator(f"{BOARD} g.mh-cell:not(.mh-target)").first.click()
    message = page.get_by_test_id("mh-message")
    expect(message).to_have_attribute("role", "alert")
    expect(message).to_contain_text(" ")
    text = message.inner_text()
    assert "relic" in text.lower() or "warrior" in text.lower(), text
    # The stream cannot be picked from now either.
    if page.locator("[data-testid^=mh-pick-]").count():
        page.locator("[data-testid^=mh-pick-]").first.click()
        expect(message).to_contain_text("Place your warrior first")
    page.wait_for_timeout(300)
    assert version(page) == before
    # By keyboard: a target takes the focus, Enter chooses it, Escape cancels.
    target = page.locator("g.mh-target").first
    expect(target).to_have_attribute("tabindex", "0")
    expect(target).to_have_attribute("role", "button")
    assert "place your warrior" in (target.get_attribute("aria-label") or "")
    target.focus()
    page.keyboard.press("Enter")
    expect(page.locator("g.mh-pending")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("g.mh-pending")).to_have_count(0)
    assert version(page) == before


def test_the_board_fits_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_match(page)
    # A few decisions by tapping on the phone, up to a later warrior being placed.
    for _ in range(10):
        phase = wait_my_turn(page)
        if phase == "over" or (phase == "finish" and version(page) >= 9):
            break
        before = version(page)
        play_one(page, phase)
        wait_version_above(page, before)
    svg = page.locator(f"{BOARD} svg.mh-map").bounding_box()
    assert svg is not None
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= 390
    assert svg["width"] > 250
    screenshot(page, "maatatahay-phone")


def test_every_event_reads_as_a_line(page: Page) -> None:
    """describeEvent over the events of a whole engine match, naming the players."""
    game = Maatatahay()
    state = game.new_initial_state(seed=SEED)
    events: list[Event] = []
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        legal = state.legal_actions(seat)
        events.extend(state.apply(seat, legal[len(events) % len(legal)]))
    kinds = {event.kind for event in events}
    assert {"pick", "order", "place", "finish", "spirit_track", "game_over"} <= kinds
    frames = [event.to_json() for event in events]
    # Kinds this match may not have reached, shaped as the engine makes them.
    frames += [
        {"kind": "fight", "seat": 0, "space": "c3", "strength": 2, "against": 5, "survives": False},
        {"kind": "death", "seat": 0, "space": "c3"},
        {"kind": "spirit_transfer", "seat": None, "to": "d3", "spirit": 2},
        {"kind": "spirit_removed", "seat": None, "spirit": 1},
        {
            "kind": "relic",
            "seat": 1,
            "space": "b2",
            "cost": 3,
            "paid": {"energy": 2, "spirit": 1},
            "drawn": {"energy": 1, "spirit": 1},
            "order": 1,
        },
        {"kind": "support", "seat": 1, "arrows": 2, "energy": 2},
        {"kind": "collect", "seat": 0, "energy": 1, "spirit": 0},
    ]
    page.goto("/")
    lines: list[str] = page.evaluate(
        """async (frames) => {
            const board = await import('/static/boards/maatatahay.js');
            const players = [{seat: 0, name: 'Ana'}, {seat: 1, name: 'random bot'}];
            return frames.map((e) => board.describeEvent(e, {players, seat: 0}));
        }""",
        json.loads(json.dumps(frames)),
    )
    assert len(lines) == len(frames)
    for frame, line in zip(frames, lines, strict=True):
        assert isinstance(line, str) and line, frame
        assert "[object" not in line and "undefined" not in line and "NaN" not in line, line
    assert any("Balan (Ana)" in line for line in lines)
    assert any("Wazu (random bot)" in line for line in lines)
