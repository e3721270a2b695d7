"""Maiterra's orders in a real Chromium against a real server, as a newcomer clicks them, on a
desktop and on a phone: a click on a field of yours selects it and never queues an order; a
march is its own act (its button, or "March: pick the field on the map"), its notation shown
before it is queued."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from meeple.core.hexgrid import step
from tests.web.conftest import sign_in_as_guest, start_solo

WAIT = 20_000
FILES = "abcde"
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def board(page: Page) -> Locator:
    return page.locator(".mt")


def version(page: Page) -> int:
    return int(board(page).get_attribute("data-version") or "-1")


def neighbours(name: str) -> set[str]:
    col, row = FILES.index(name[0]), int(name[1]) - 1
    near = (step(col, row, d) for d in range(6))
    return {f"{FILES[c]}{r + 1}" for c, r in near if 0 <= c < 5 and 0 <= r < 5}


def field(page: Page, name: str) -> Locator:
    return page.locator(f".mt-field[data-field='{name}']")


def queue_count(page: Page) -> int:
    return int(page.get_by_test_id("maiterra-queue-count").inner_text().split("/")[0])


def draft_two_fields_side_by_side(page: Page) -> tuple[str, str]:
    """The house by its button; the first draft pick any free field, the second one beside
    it, so the seat holds two neighbouring fields with a soldier on each."""
    board(page).get_by_role("button", name="house moon").click()
    expect(board(page)).to_have_attribute("data-phase", "draft", timeout=WAIT)
    mine: list[str] = []
    while board(page).get_attribute("data-phase") == "draft":
        targets = page.locator(".mt-field[data-mode=target]")
        try:
            targets.first.wait_for(timeout=5_000)
        except Exception:
            continue  # the bot's pick, or the draft just ended
        free = [targets.nth(i).get_attribute("data-field") or "" for i in range(targets.count())]
        beside = [name for name in free if mine and name in neighbours(mine[0])]
        if mine and not beside:
            pytest.skip("no free field was left beside the first pick")
        pick = beside[0] if beside else free[0]
        before = version(page)
        field(page, pick).click()
        page.wait_for_function(
            "v => Number(document.querySelector('.mt')?.dataset.version) > v", arg=before
        )
        mine.append(pick)
    expect(board(page)).to_have_attribute("data-phase", "plan", timeout=WAIT)
    assert len(mine) == 2, mine
    return mine[0], mine[1]


@pytest.fixture(params=sorted(SIZES))
def sized(page: Page, request: pytest.FixtureRequest) -> Iterator[Page]:
    page.set_viewport_size(SIZES[request.param])
    yield page


def test_a_click_on_a_field_of_yours_selects_it_and_a_march_is_deliberate(sized: Page) -> None:
    page = sized
    sign_in_as_guest(page)
    start_solo(page, game="maiterra", seats=2, seed=31, bots=["random"])
    expect(board(page)).to_have_attribute("data-phase", "houses", timeout=WAIT)
    first, second = draft_two_fields_side_by_side(page)
    expect(page.locator(".mt-seat.mt-deciding[data-seat='1']")).to_have_count(0, timeout=WAIT)
    before = version(page)

    # One field of ours selected, then the other one (beside it): it is selected, nothing queued.
    field(page, first).click()
    expect(field(page, first)).to_have_attribute("data-mode", "selected")
    field(page, second).click()
    expect(field(page, second)).to_have_attribute("data-mode", "selected")
    expect(field(page, first)).not_to_have_attribute("data-mode", "selected")
    expect(page.get_by_test_id("maiterra-field-panel")).to_contain_text(f"Field {second}")
    assert queue_count(page) == 0
    assert version(page) == before

    # The march: asked for, its target picked on the map, its notation shown, not yet queued.
    field(page, first).click()
    board(page).get_by_role("button", name="March: pick the field on the map").click()
    expect(field(page, second)).to_have_attribute("data-mode", "target")
    field(page, second).click()
    confirm = page.get_by_test_id("maiterra-confirm")
    expect(confirm).to_contain_text(f"march {first} ")
    expect(confirm).to_contain_text(f"To {second}: queue this order?")
    assert queue_count(page) == 0
    assert version(page) == before
    # "Select it instead" goes back to selecting: still nothing queued.
    confirm.get_by_role("button", name=f"Select {second} instead").click()
    expect(field(page, second)).to_have_attribute("data-mode", "selected")
    assert queue_count(page) == 0

    # Asked again and pressed: now it is queued, and the queue shows its notation.
    field(page, first).click()
    board(page).get_by_role("button", name="March: pick the field on the map").click()
    field(page, second).click()
    order = confirm.locator("button[data-order^='march']").first
    text = order.get_attribute("data-order") or ""
    order.click()
    expect(page.get_by_test_id("maiterra-queue")).to_contain_text(text, timeout=WAIT)
    assert queue_count(page) == 1

    # The field panel's own button queues a march in one press, its notation written on it.
    field(page, second).click()
    button = page.locator(".mt-dests button[data-order^='march']").first
    text = button.get_attribute("data-order") or ""
    expect(button).to_contain_text(text)
    button.click()
    expect(page.get_by_test_id("maiterra-queue")).to_contain_text(text, timeout=WAIT)
    assert queue_count(page) == 2
    # Nothing wider than the screen, on the phone too.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth")


def test_a_queued_order_is_taken_back_until_the_turn_is_ended(sized: Page) -> None:
    page = sized
    sign_in_as_guest(page)
    start_solo(page, game="maiterra", seats=2, seed=32, bots=["random"])
    expect(board(page)).to_have_attribute("data-phase", "houses", timeout=WAIT)
    first, _ = draft_two_fields_side_by_side(page)
    take_back = page.get_by_test_id("maiterra-take-back")
    expect(take_back).to_have_count(0)  # nothing queued, nothing to take back

    # A trade, then a march by its button: two orders queued.
    page.locator("button.mt-trade:not(.mt-unavailable)[data-order='trade food for wood']").click()
    expect(page.get_by_test_id("maiterra-queue")).to_contain_text("trade food for wood")
    field(page, first).click()
    march = page.locator(".mt-dests button[data-order^='march']").first
    text = march.get_attribute("data-order") or ""
    march.click()
    expect(page.get_by_test_id("maiterra-queue-count")).to_contain_text("2 /", timeout=WAIT)

    # "Take back" names the last order; pressed, that order leaves the queue, the trade stays.
    expect(take_back).to_contain_text(text)
    take_back.click()
    expect(page.get_by_test_id("maiterra-queue-count")).to_contain_text("1 /", timeout=WAIT)
    expect(page.get_by_test_id("maiterra-queue")).not_to_contain_text(text)
    expect(page.get_by_test_id("maiterra-queue")).to_contain_text("trade food for wood")
    expect(page.get_by_test_id("maiterra-note")).to_contain_text(f"Took back: {text}")
    expect(page.get_by_test_id("event-log")).to_contain_text("took back")

    # Once the turn is ended, nothing is taken back any more.
    expect(take_back).to_contain_text("trade food for wood")
    page.get_by_test_id("maiterra-end").click()
    expect(take_back).to_have_count(0, timeout=WAIT)
