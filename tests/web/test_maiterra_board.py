"""Maiterra's board in a real Chromium against a real server: a guest picks a house, drafts
and plans turns by clicking on the map and the board's panels (never the generic list), an
illegal click says why without moving the match, and every engine event reads as a line."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import Locator, Page, expect

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.core.hexgrid import DIRECTIONS, step
from tests.web.conftest import screenshot, sign_in_as_guest, start_solo

BOARD = ".mt"
# Waits on the server and its bots: generous, for a machine under load (the default is 5 s).
WAIT = 20_000
FILES = "abcde"


def board(page: Page) -> Locator:
    return page.locator(BOARD)


def version(page: Page) -> int:
    return int(board(page).get_attribute("data-version") or "-1")


def wait_version_above(page: Page, before: int) -> int:
    page.wait_for_function(
        "v => Number(document.querySelector('.mt')?.dataset.version) > v", arg=before
    )
    return version(page)


def open_match(page: Page, seed: int, bot: str = "random") -> None:
    sign_in_as_guest(page)
    start_solo(page, game="maiterra", seats=2, seed=seed, bots=[bot])
    expect(board(page)).to_have_attribute("data-phase", "houses", timeout=WAIT)


def pick_house_and_draft(page: Page) -> None:
    """The house by its button, then every draft pick by clicking a free field."""
    before = version(page)
    page.locator("button[data-house=moon]").click()
    wait_version_above(page, before)
    expect(board(page)).to_have_attribute("data-phase", "draft", timeout=WAIT)
    while board(page).get_attribute("data-phase") == "draft":
        target = page.locator(".mt-field[data-mode=target]")
        try:
            target.first.wait_for(timeout=5_000)
        except Exception:
            continue  # the bot's pick, or the draft just ended
        before = version(page)
        target.first.click()
        wait_version_above(page, before)
    expect(board(page)).to_have_attribute("data-phase", "plan", timeout=WAIT)


def wait_for_the_bot(page: Page) -> None:
    """Until only this seat decides (the bot has ended its turn or made its pick)."""
    expect(page.locator(".mt-seat.mt-deciding")).to_have_count(1, timeout=WAIT)
    expect(page.locator(".mt-seat.mt-deciding")).to_have_attribute("data-seat", "0", timeout=WAIT)


def queue_count(page: Page) -> int:
    text = page.get_by_test_id("maiterra-queue-count").inner_text()
    return int(text.split("/")[0])


def start_marching(page: Page) -> bool:
    """Press the selected field's "March: pick the field on the map", if it has one."""
    button = board(page).get_by_role("button", name="March: pick the field on the map")
    if not button.count():
        return False
    button.click()
    return page.locator(".mt-field[data-mode=target]").count() > 0


def queue_a_march(page: Page) -> bool:
    """Select a stack of ours that can march, ask to march, click a highlighted target and
    press the order it shows."""
    stacks = page.locator(".mt-field[data-mode=active]:has(.mt-army[data-seat='0'])")
    for index in range(stacks.count()):
        stacks.nth(index).click()
        if start_marching(page):
            targets = page.locator(".mt-field[data-mode=target]")
            before = queue_count(page)
            targets.first.click()
            page.locator(".mt-choose button[data-order]").first.click()
            expect(page.get_by_test_id("maiterra-queue-count")).to_contain_text(
                f"{before + 1} /", timeout=WAIT
            )
            return True
        page.keyboard.press("Escape")
    return False


def queue_a_claim(page: Page) -> bool:
    """March a stack of ours onto a free field and claim it: the march by the map, the
    claim by the field's panel."""
    stacks = page.locator(".mt-field[data-mode=active]:has(.mt-army[data-seat='0'])")
    for index in range(stacks.count()):
        stacks.nth(index).click()
        free = page.locator(".mt-field[data-mode=target][data-owner='']")
        if start_marching(page) and free.count():
            name = free.first.get_attribute("data-field")
            free.first.click()
            page.locator(".mt-choose button[data-order]").first.click()
            page.locator(f".mt-field[data-field='{name}']").click()
            claim = page.locator(
                f".mt-orders button.mt-order:not(.mt-unavailable)[data-order='claim {name}']"
            )
            if claim.count():
                claim.click()
                return True
        page.keyboard.press("Escape")
    return False


def queue_a_build(page: Page) -> bool:
    """Select a field of ours and press the first build it allows."""
    owned = page.locator(".mt-field[data-mode=active]")
    for index in range(owned.count()):
        owned.nth(index).click()
        build = page.locator(".mt-order:not(.mt-unavailable)[data-order^='build']")
        if build.count():
            before = queue_count(page)
            build.first.click()
            expect(page.get_by_test_id("maiterra-queue-count")).to_contain_text(
                f"{before + 1} /", timeout=WAIT
            )
            return True
        page.keyboard.press("Escape")
    return False


def end_turn(page: Page) -> None:
    turn = int(board(page).get_attribute("data-turn") or "0")
    page.get_by_test_id("maiterra-end").click()
    page.wait_for_function(
        "t => { const b = document.querySelector('.mt');"
        " return b && (Number(b.dataset.turn) > t || b.dataset.phase === 'over'); }",
        arg=turn,
    )


def test_a_match_is_played_by_clicking_on_the_board(page: Page) -> None:
    open_match(page, seed=11)
    # Before the draft the map answers a click with what to do instead.
    page.locator(".mt-field").first.click()
    expect(page.get_by_test_id("maiterra-note")).to_contain_text("picks a house", timeout=WAIT)

    pick_house_and_draft(page)
    assert board(page).get_attribute("data-turn") == "1"
    assert page.locator(".mt-field:has(.mt-army[data-seat='0'])").count() >= 1

    # An illegal click: the reason is shown and the match does not move.
    wait_for_the_bot(page)
    before = version(page)
    lake = page.locator(".mt-lake").first
    lake.click()
    expect(page.get_by_test_id("maiterra-note")).to_contain_text("is a lake", timeout=WAIT)
    assert version(page) == before

    # A trade from the bank, a march on the map (stack, then target), then the end.
    page.locator("button.mt-trade:not(.mt-unavailable)[data-order='trade food for wood']").click()
    expect(page.get_by_test_id("maiterra-queue")).to_contain_text(
        "trade food for wood", timeout=WAIT
    )
    assert version(page) > before
    assert queue_a_march(page)
    queued = page.get_by_test_id("maiterra-queue").inner_text()
    assert "march" in queued
    headline = page.get_by_test_id("maiterra-headline").inner_text()
    end_turn(page)
    assert page.get_by_test_id("maiterra-headline").inner_text() != headline
    expect(page.get_by_test_id("maiterra-last-turn")).to_contain_text(
        "Turn 1 resolved", timeout=WAIT
    )
    expect(page.get_by_test_id("maiterra-queue")).not_to_contain_text("march", timeout=WAIT)

    # An order the stores cannot pay for: sent as notation, the server says why.
    wait_for_the_bot(page)
    before = version(page)
    page.locator(".mt-field[data-owner='0']").first.click()
    unavailable = page.locator(".mt-order.mt-unavailable").first
    order = unavailable.get_attribute("data-order") or ""
    unavailable.click()
    note = page.get_by_test_id("maiterra-note")
    expect(note).to_have_class("mt-note error", timeout=WAIT)
    expect(note).to_contain_text(f"{order}: ", timeout=WAIT)
    reason = note.inner_text().split(": ", 1)[1]
    assert len(reason) > 10, (
        reason
    )  # the server's words, e.g. "a house costs 3 brick and 1 wood; ..."
    assert version(page) == before


def test_keyboard_reaches_the_fields(page: Page) -> None:
    open_match(page, seed=12)
    page.locator("button[data-house=sun]").focus()
    page.keyboard.press("Enter")
    expect(board(page)).to_have_attribute("data-phase", "draft", timeout=WAIT)
    target = page.locator(".mt-field[data-mode=target]").first
    target.wait_for()
    label = target.get_attribute("aria-label") or ""
    assert "draft" in label and target.get_attribute("role") == "button"
    before = version(page)
    target.focus()
    page.keyboard.press("Enter")
    wait_version_above(page, before)


def test_screenshots_of_a_match_in_progress(page: Page) -> None:
    open_match(page, seed=23, bot="maiterra-heuristic")
    pick_house_and_draft(page)
    for _ in range(4):
        assert board(page).get_attribute("data-phase") == "plan"
        for resource in ("wood", "coins"):
            trade = page.locator(
                f"button.mt-trade:not(.mt-unavailable)[data-order='trade food for {resource}']"
            )
            if trade.count():
                before = queue_count(page)
                trade.click()
                expect(page.get_by_test_id("maiterra-queue-count")).to_contain_text(
                    f"{before + 1} /"
                )
        if not queue_a_claim(page):
            queue_a_march(page)
        queue_a_build(page)
        end_turn(page)
    page.keyboard.press("Escape")
    stack = page.locator(".mt-field[data-mode=active]:has(.mt-army[data-seat='0'])")
    if stack.count():
        stack.first.click()
    screenshot(page, "maiterra")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "maiterra-phone")
    width = page.evaluate("document.querySelector('.mt-map').getBoundingClientRect().width")
    assert width <= 390


def _engine_events(seed: int, seats: int) -> list[dict[str, Any]]:
    """Every event of a random Maiterra match as the server sends them (JSON)."""
    game = load_game("maiterra", seats=seats)
    state = game.new_initial_state(seed=seed)
    pick = random.Random(seed)
    events: list[dict[str, Any]] = []
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.deciding_seats()[0]
        for event in state.apply(seat, pick.choice(state.legal_actions(seat))):
            events.append(event.to_json())
    return events


def test_every_event_reads_as_a_line(page: Page) -> None:
    events = _engine_events(seed=4, seats=3) + _engine_events(seed=9, seats=2)
    kinds = {event["kind"] for event in events}
    assert {"drafted", "marched", "produced", "resolve"} <= kinds
    sign_in_as_guest(page)
    page.goto("/")
    lines: list[Any] = page.evaluate(
        """async (events) => {
            const board = await import('/static/boards/maiterra.js');
            const ctx = {seat: 0, players: [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Bo'},
                                            {seat: 2, name: 'Cy'}]};
            return events.map((e) => board.describeEvent(e, ctx));
        }""",
        events,
    )
    assert len(lines) == len(events)
    for event, line in zip(events, lines, strict=True):
        assert isinstance(line, str) and line, event
        assert "[object" not in line and "undefined" not in line and "NaN" not in line, line
        if event.get("seat") is not None:
            assert ["Ana", "Bo", "Cy"][event["seat"]] in line, line


# -- every kind of order is reachable by clicking ----------------------------------------------

HARNESS = """async ({view, legal}) => {
    const {html, render} = await import('/static/vendor/preact-htm.js');
    const board = await import('/static/boards/maiterra.js');
    window.played = [];
    const submit = async (action) => { window.played.push(action); return {ok: true}; };
    const root = document.createElement('div');
    document.body.replaceChildren(root);
    const players = [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Bo'}];
    render(html`<${board.default} game="maiterra/2" seat=${0} players=${players} version=${1}
        view=${view} legal=${legal} deciding=${view.deciding} events=${[]} outcome=${null}
        readonly=${false} submit=${submit} say=${() => {}} />`, root);
}"""


def _positions() -> list[Any]:
    """A match's states at the house pick, the draft, and two planning turns with stacks of
    soldiers and cavalry, a barracks, full stores and every card in the hand."""
    game = load_game("maiterra", seats=2)
    state = game.new_initial_state(seed=5)
    pick = random.Random(1)
    found = [state.clone()]
    while state.view(0)["phase"] != "plan":
        seat = state.deciding_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
        if state.view(0)["phase"] == "draft" and 0 in state.deciding_seats() and len(found) == 1:
            found.append(state.clone())
    data = state.to_json()
    home = sorted(data["armies"][0])[0]
    data["armies"][0][home] = [3, 2]
    # A free land field beside it becomes ours too, so the stack may pull back there.
    near = next(
        f"{FILES[c]}{r + 1}"
        for c, r in (step(FILES.index(home[0]), int(home[1]) - 1, d) for d in range(6))
        if 0 <= c < 5 and 0 <= r < 4 and data["map"][r * 5 + c] and data["owner"][r * 5 + c] is None
    )
    data["owner"][(int(near[1]) - 1) * 5 + FILES.index(near[0])] = 0
    data["buildings"] = {home: {"barracks": 1}}
    data["seats"][0].update(food=20, wood=20, brick=20, coins=20, people=6)
    for hand in (["speedup", "sabotage", "prospect"], ["lucky_strike", "rally"]):
        crafted = json.loads(json.dumps(data))
        crafted["seats"][0]["cards"] = hand
        deck = list(crafted["deck"])
        for card in hand:
            deck.remove(card)
        crafted["deck"] = deck
        found.append(game.state_from_json(crafted))
    return found


def _reach(page: Page, text: str) -> None:
    """Build ``text`` by clicking on the map and the board's panels, as a person would."""
    page.keyboard.press("Escape")
    words = text.split()
    verb = words[0]

    def field(name: str) -> None:
        page.locator(f".mt-field[data-field='{name}']").click()

    if verb == "house":
        page.locator(f"button[data-house={words[1]}]").click()
    elif verb == "draft":
        field(words[1])
    elif verb == "end":
        page.get_by_test_id("maiterra-end").click()
    elif verb in ("march", "pullback"):
        field(words[1])
        part = words[3] if len(words) > 3 else "all"
        button = page.locator(f".mt-parts button[data-part={part}]")
        if button.count():
            button.click()
        board(page).get_by_role("button", name="March: pick the field on the map").click()
        col, row = FILES.index(words[1][0]), int(words[1][1]) - 1
        for direction in words[2].split("-"):
            col, row = step(col, row, DIRECTIONS.index(direction))
        field(f"{FILES[col]}{row + 1}")
        page.locator(f".mt-choose button[data-order='{text}']").click()
    elif verb in ("claim", "build", "train", "sell"):
        field(words[-1])
        page.locator(f".mt-orders button[data-order='{text}']").click()
    elif verb == "trade":
        page.locator(f".mt-bank button[data-order='{text}']").click()
    elif verb == "play":
        page.locator(f"button.mt-card[data-card={words[1]}]").click()
        if words[1] in ("speedup", "sabotage"):
            field(words[2])
        elif words[1] == "prospect":
            page.locator(f".mt-choose button[data-order='{text}']").click()
    else:
        raise AssertionError(f"no way to click {text}")


def test_every_kind_of_order_is_reachable_by_clicking(page: Page) -> None:
    game = load_game("maiterra", seats=2)
    page.goto("/")
    kinds: set[str] = set()
    seen: set[tuple[str, ...]] = set()
    for state in _positions():
        legal = [{"id": a, "text": game.format_action(a)} for a in state.legal_actions(0)]
        page.evaluate(HARNESS, {"view": state.view(0), "legal": legal})
        # One order of each kind (each card; each part and length of a march), none twice.
        tried = []
        for action in legal:
            words = action["text"].split()
            key: tuple[str, ...] = (words[0],)
            if words[0] == "march":
                key = (words[0], words[3] if len(words) > 3 else "all", str(words[2].count("-")))
            elif words[0] == "play":
                key = (words[0], words[1])
            if key not in seen:
                seen.add(key)
                tried.append(action)
        for action in tried:
            before = page.evaluate("window.played.length")
            _reach(page, action["text"])
            played = page.evaluate("window.played")
            assert len(played) == before + 1, f"{action['text']}: nothing was played"
            assert played[-1] == action["id"], f"{action['text']}: played {played[-1]}"
            kinds.add(
                action["text"].split()[0]
                + (action["text"].split()[1] if action["text"].startswith("play") else "")
            )
    assert {
        "house",
        "draft",
        "end",
        "march",
        "pullback",
        "build",
        "train",
        "trade",
        "sell",
    } <= kinds
    assert {"playspeedup", "playsabotage", "playprospect", "playlucky_strike", "playrally"} <= kinds


def test_four_seats_in_teams_are_drawn(page: Page) -> None:
    """A 5 x 5 Lakeland at four seats: every field and lake drawn, each team scored once
    against its target, every seat listed with its standing."""
    game = load_game("maiterra", seats=4, options={"teams": "1212"})
    state = game.new_initial_state(seed=3)
    pick = random.Random(3)
    while state.view(0)["phase"] != "plan" or state.view(0)["turn"] < 3:
        seat = state.deciding_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    view = state.view(0)
    legal = [{"id": a, "text": game.format_action(a)} for a in state.legal_actions(0)]
    page.goto("/")
    page.evaluate(HARNESS, {"view": view, "legal": legal})
    assert page.locator(".mt-field").count() == len(view["board"]) == 22
    assert page.locator(".mt-lake").count() == 3
    bars = page.locator(".mt-scorebar")
    expect(bars).to_have_count(2)
    expect(bars.first).to_contain_text("/ 26")
    expect(page.locator(".mt-seat")).to_have_count(4)


def test_the_end_of_a_match_says_who_won(page: Page) -> None:
    game = load_game("maiterra", seats=2)
    state = game.new_initial_state(seed=9)
    pick = random.Random(9)
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    view = state.view(0)
    page.goto("/")
    page.evaluate(HARNESS, {"view": view, "legal": []})
    expect(board(page)).to_have_attribute("data-phase", "over")
    winner = ["Red (you)", "Blue (Bo)"][view["outcome"]["winners"][0]]
    expect(page.get_by_test_id("maiterra-result")).to_contain_text(f"{winner} won")
    expect(page.get_by_test_id("maiterra-headline")).to_contain_text(f"{winner} won")
    page.locator(".mt-field").first.click()
    expect(page.get_by_test_id("maiterra-note")).to_contain_text("The match is over")
