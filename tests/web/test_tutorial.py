"""The tutorial and the rules pages in a real Chromium, at desktop size and on a phone
(390x844), signed out as a newcomer arrives: "Learn to play" and each game's rules are on
the first page, no signed-out page logs an error, and each game's guided first match is
played to its end by clicking the highlighted targets on the board."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.server.conftest import Server

expect.set_options(timeout=15_000)

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 900},
    "phone": {"width": 390, "height": 844},
}
GAMES = ["maiterra", "maatatahay", "manafields"]


@pytest.fixture(params=list(SIZES))
def visitor(request: pytest.FixtureRequest, browser: Browser, web: Server) -> Iterator[Page]:
    """A signed-out browser at one size; every console error, failed request and page error
    it meets is collected in ``page.problems`` (checked empty at the end)."""
    size = request.param
    phone = size == "phone"
    context = browser.new_context(
        base_url=web.base, viewport=SIZES[size], is_mobile=phone, has_touch=phone
    )
    context.set_default_timeout(20_000)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    opened.on(
        "response",
        lambda r: r.status >= 400 and problems.append(f"{r.status} {r.request.method} {r.url}"),
    )
    opened.problems = problems  # type: ignore[attr-defined]
    opened.size = size  # type: ignore[attr-defined]
    try:
        yield opened
    finally:
        context.close()


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], f"the page is {width} px wide"


def test_signed_out_pages_log_no_error(visitor: Page) -> None:
    for path in ["/", "/#/rules/maatatahay", "/#/tutorial/manafields", "/#/replay"]:
        visitor.goto(path)
        visitor.wait_for_load_state("networkidle")
    expect(visitor.locator("main")).to_be_visible()
    assert visitor.problems == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_are_readable_before_sign_in(visitor: Page, name: str) -> None:
    visitor.goto("/")
    expect(visitor.get_by_role("form", name="Play as a guest")).to_be_visible()
    title = name.capitalize()
    visitor.get_by_role("link", name=f"{title} rules").click()
    visitor.wait_for_url(f"**/#/rules/{name}")
    page = visitor.get_by_role("article", name=f"{title} rules")
    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="Decisions").first).to_be_attached()
    expect(page.locator("table").first).to_be_attached()
    assert "<br>" not in page.inner_text() and "**" not in page.inner_text()
    _no_sideways_scroll(visitor)
    visitor.get_by_role("link", name=f"Learn to play {title}").click()
    visitor.wait_for_url(f"**/#/tutorial/{name}")
    expect(visitor.get_by_test_id("tutorial-title")).to_be_visible()
    assert visitor.problems == []  # type: ignore[attr-defined]


def test_maatatahay_is_taught_by_clicking_the_highlighted_target(visitor: Page) -> None:
    """Signed out, from the first page: one match from the Balan's seat, each step's one
    move highlighted on the board, its text in prose, the same match going on."""
    visitor.goto("/")
    visitor.get_by_role("link", name="Learn to play Maatatahay").click()
    visitor.wait_for_url("**/#/tutorial/maatatahay")
    text = visitor.get_by_test_id("tutorial-text")
    message = visitor.get_by_test_id("tutorial-message")
    expect(text).to_contain_text("You play the Balan")
    assert "`" not in text.inner_text() and "type" not in text.inner_text().lower()
    expect(visitor.get_by_text("Your move is highlighted on the board: click it.")).to_be_visible()
    expect(visitor.locator(".mh-pair-legal")).to_have_count(1)  # only the step's pair
    visitor.get_by_test_id("mh-pick-2").click()
    expect(message).to_contain_text("You took the pair")
    visitor.get_by_test_id("tutorial-next").click()
    expect(visitor.get_by_test_id("tutorial-step")).to_have_text("2")
    visitor.get_by_test_id("mh-first-W").click()
    expect(message).to_contain_text("The Wazu place first")
    visitor.get_by_test_id("tutorial-next").click()
    target = visitor.locator("g.mh-target")
    expect(target).to_have_count(1)  # b1, and no other space
    assert target.get_attribute("data-space") == "b1"
    target.click()
    visitor.get_by_test_id("mh-confirm").click()
    expect(message).to_contain_text("Your warrior stands on b1")
    visitor.screenshot(path=f"/tmp/h12-tutorial-{visitor.size}.png")  # type: ignore[attr-defined]
    assert visitor.problems == []  # type: ignore[attr-defined]


# -- every tutorial to its end: each step's move by clicking what the board shows, then the
# last step's winning line played on the board until the page says "You won" ---------------


def _board_version(page: Page) -> int:
    return int(page.locator(".board-area [data-version]").first.get_attribute("data-version") or 0)


def _wait_past(page: Page, before: int) -> None:
    page.wait_for_function(
        """(before) => {
          const b = document.querySelector('.board-area [data-version]');
          return b && Number(b.dataset.version) > before;
        }""",
        arg=before,
    )


def _maatatahay(page: Page, notation: str) -> None:
    """A Maatatahay action as a player clicks it: a pair, who places first, a space (and
    how a relic is paid) then Place, or the facing and the crystals kept then Confirm."""
    words = notation.split()
    if words[0] == "pick":
        page.get_by_test_id(f"mh-pick-{words[1]}").click()
    elif words[0] == "first":
        page.get_by_test_id(f"mh-first-{words[1]}").click()
    elif len(words) >= 2 and words[1] == "keep":  # "N keep 0e1s": the second step of a turn
        facing, kept = words[0], words[2]
        energy, spirit = int(kept[: kept.index("e")]), int(kept[kept.index("e") + 1 : -1])
        page.locator(".mh-finish-panel [data-facing]").and_(
            page.locator(f'[data-facing="{facing}"]')
        ).click()
        for kind, want in (("energy", energy), ("spirit", spirit)):
            shown = page.get_by_role("group", name=f"{kind.capitalize()} kept in storage")
            for _ in range(8):
                have = int(shown.locator("output").inner_text())
                if have == want:
                    break
                page.get_by_test_id(f"mh-keep-{kind}-{'more' if want > have else 'less'}").click()
        expect(page.get_by_test_id("mh-confirm")).to_contain_text(notation)
        page.get_by_test_id("mh-confirm").click()
    else:  # "b1" or "b2 s1": a space, and for a Temple Relic how much Spirit pays
        page.locator(f'g.mh-target[data-space="{words[0]}"]').click()
        if len(words) > 1:
            page.locator(f'.mh-pending-panel [data-paid="{words[1][1:]}"]').click()
        expect(page.get_by_test_id("mh-confirm")).to_contain_text(notation)
        page.get_by_test_id("mh-confirm").click()


def _maiterra(page: Page, notation: str) -> None:
    """A Maiterra order as a player clicks it: a House's button, a field on the map to
    draft, a field of yours then its march, a trade in the stores' table, End turn."""
    words = notation.split()
    if words[0] == "house":
        page.get_by_role("button", name=re.compile(f"^house {words[1]}:")).click()
    elif words[0] == "draft":
        page.locator(f".mt-field[data-field='{words[1]}']").click()
    elif words[0] == "march":
        page.locator(f".mt-field[data-field='{words[1]}']").click()
        page.get_by_test_id("maiterra-field-panel").locator(f'[data-order="{notation}"]').click()
    elif words[0] == "trade":
        page.locator(f'button.mt-trade[data-order="{notation}"]').click()
    elif notation == "end":
        page.get_by_test_id("maiterra-end").click()
    else:
        raise AssertionError(f"no click for {notation!r}")


def _manafields(page: Page, notation: str) -> None:
    """A Manafields order as a player clicks it: the unit, then the square or the unit it
    acts on (an order among several there chosen by its button), or End turn."""
    if notation == "end":
        page.get_by_role("button", name="End turn").click()
        return
    verb, unit, target = notation.split()
    if not page.locator(f'[data-unit="{unit}"] .mf-selected').count():  # a unit stays selected
        page.locator(f'[data-unit="{unit}"]').click()
        instead = page.locator(".mf-pending").get_by_role(
            "button", name=re.compile("^Select .* instead")
        )
        if instead.count():  # another unit of yours was selected and could act on this one
            instead.click()
    button = page.locator(f'.mf-unitcard [data-notation="{notation}"]')
    if verb == "ability" and button.count():
        button.click()
        return
    square = f'[data-unit="{target}"]' if verb != "move" else f'[data-square="{target}"]'
    page.locator(square).click()
    chooser = page.locator(f'.mf-pending [data-notation="{notation}"]')
    if chooser.count():
        chooser.click()


PLAY = {"maatatahay": _maatatahay, "maiterra": _maiterra, "manafields": _manafields}


@pytest.mark.parametrize("name", GAMES)
def test_every_tutorial_is_played_to_a_win(visitor: Page, name: str) -> None:
    """Signed out, from "Learn to play": every step's move clicked on the board as the step
    highlights it, "Next step" after each, then the last step's winning line played on the
    board (the opponent answering each move) until the page says "You won"."""
    steps = visitor.request.get(f"/api/tutorials/{name}").json()["steps"]
    visitor.goto("/")
    visitor.get_by_role("link", name=f"Learn to play {name.capitalize()}").click()
    visitor.wait_for_url(f"**/#/tutorial/{name}")
    message = visitor.get_by_test_id("tutorial-message")
    for number, step in enumerate(steps, 1):
        expect(visitor.get_by_test_id("tutorial-step")).to_have_text(str(number))
        expect(visitor.get_by_test_id("tutorial-title")).to_have_text(step["title"])
        assert "`" not in visitor.get_by_test_id("tutorial-text").inner_text()
        if not step["to_win"]:
            expect(visitor.get_by_text("Your move is highlighted on the board")).to_be_visible()
            PLAY[name](visitor, step["example"])
            expect(message).to_have_class(re.compile("success"))
            visitor.get_by_test_id("tutorial-next").click()
            continue
        assert number == len(steps), "only the last step is played on to a win"
        expect(visitor.get_by_text("Play on: every move the rules allow")).to_be_visible()
        for action in step["solution"]:
            before = _board_version(visitor)
            PLAY[name](visitor, action)
            _wait_past(visitor, before)
            expect(message).not_to_have_class(re.compile("error"))
        expect(message).to_contain_text("You won")
        if name == "maiterra":  # the board's result, in words with their spaces
            result = visitor.get_by_test_id("maiterra-result")
            expect(result).to_contain_text("was the last one holding land after turn 2.")
            expect(result).to_contain_text("8 points, 4 fields")
        if name == "manafields":  # the board's terms, a sentence each
            expect(visitor.get_by_test_id("mf-terms")).to_contain_text("turn ends wins. OP:")
        expect(visitor.get_by_text("Tutorial complete.")).to_be_visible()
    _no_sideways_scroll(visitor)
    visitor.screenshot(path=f"/tmp/h18-{name}-won-{visitor.size}.png")  # type: ignore[attr-defined]
    assert visitor.problems == []  # type: ignore[attr-defined]
