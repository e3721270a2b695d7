"""Manafields' board in a real Chromium against a real server: a person plays turns by clicking
on the battlefield (select a unit, then a highlighted square), by keyboard, and on a phone-sized
screen; an illegal click is explained and changes nothing; the event log names seats."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from tests.web.conftest import screenshot, sign_in_as_guest, start_solo

SEED = 11


def version(page: Page) -> int:
    return int(page.get_by_test_id("version").inner_text())


def wait_for_my_turn(page: Page, after: int) -> int:
    """Waits until the version has passed ``after`` and the board offers the End turn button."""
    page.wait_for_function(
        """(after) => {
          const v = document.querySelector('[data-testid="version"]');
          return v && Number(v.textContent) > after && document.querySelector('.mf-end');
        }""",
        arg=after,
    )
    return version(page)


def square(page: Page, name: str) -> str:
    return f'[data-square="{name}"]'


def open_match(page: Page, **body: object) -> None:
    sign_in_as_guest(page)
    start_solo(page, game="manafields", seed=SEED, bots=["random"], **body)
    expect(page.locator(".mf-board")).to_be_visible()
    expect(page.get_by_test_id("version")).to_have_text("0")


def test_turns_are_played_by_clicking_on_the_battlefield(page: Page) -> None:
    open_match(page)
    board = page.locator(".mf-board")
    # The Knights (E, b2) ride to the west objective: select, then a highlighted square.
    page.click(square(page, "b2"))
    expect(page.get_by_test_id("mf-unitcard")).to_contain_text("Knights (E)")
    target = page.locator(square(page, "b7"))
    expect(target).to_have_attribute("data-target", "move")
    before = board.inner_html()
    target.hover()
    expect(page.locator(".mf-hint")).to_contain_text("move E b7")
    target.click()
    expect(page.get_by_test_id("version")).to_have_text("1")
    expect(page.locator(square(page, "b7"))).to_have_attribute("data-unit", "E")
    assert board.inner_html() != before
    # The Longbowmen (F, h2) advance; then the turn ends and the bot plays its own.
    page.click(square(page, "h2"))
    page.click(square(page, "h5"))
    expect(page.get_by_test_id("version")).to_have_text("2")
    page.get_by_role("button", name="End turn").click()
    seen = wait_for_my_turn(page, 3)
    # Three more turns, each a few orders by clicks on the board, then End turn.
    for _ in range(3):
        for _ in range(2):
            unit = page.locator(".mf-cell.mf-focusable[data-unit]").first
            unit.click()
            moves = page.locator('.mf-cell[data-target~="move"]')
            if moves.count() == 0:
                page.keyboard.press("Escape")
                continue
            at = version(page)
            moves.last.click()  # the furthest forward: squares are listed from rank 1 up
            expect(page.get_by_test_id("version")).to_have_text(str(at + 1))
        at = version(page)
        page.get_by_role("button", name="End turn").click()
        if page.get_by_test_id("mf-head").inner_text().startswith(("A draw", "Seat")):
            break
        seen = wait_for_my_turn(page, at)
    assert seen > 8
    # A mid-game board: select a unit that can attack, if one can, so that its targets show.
    units = page.locator(".mf-cell.mf-focusable[data-unit]")
    attacks = page.locator('.mf-cell[data-target~="fight"], .mf-cell[data-target~="shoot"]')
    for n in range(units.count()):
        units.nth(n).click()
        if attacks.count():
            break
    screenshot(page, "manafields")


def test_an_illegal_click_says_why_and_plays_nothing(page: Page) -> None:
    open_match(page)
    # No unit selected: the board says what to do.
    page.click(square(page, "e5"))
    expect(page.get_by_role("alert")).to_contain_text("Select one of your units first")
    page.click(square(page, "d5"))
    expect(page.get_by_role("alert")).to_contain_text("terrain")
    # The Veteran Spearmen (C, e2) cannot reach j12: the engine's reason is shown.
    page.click(square(page, "e2"))
    page.click(square(page, "j12"))
    expect(page.get_by_role("alert")).to_contain_text(re.compile("not within Speed"))
    expect(page.get_by_test_id("version")).to_have_text("0")
    # Escape cancels the selection: no targets are left on the board.
    expect(page.locator('.mf-cell[data-target~="move"]').first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator('.mf-cell[data-target~="move"]')).to_have_count(0)
    expect(page.get_by_test_id("version")).to_have_text("0")


def test_the_keyboard_plays_an_order(page: Page) -> None:
    open_match(page)
    unit = page.get_by_role("button", name=re.compile(r"^e2, .*Veteran Spearmen \(C\)"))
    unit.focus()
    page.keyboard.press("Enter")
    target = page.get_by_role("button", name="e5: move C e5")
    target.focus()
    page.keyboard.press(" ")
    expect(page.get_by_test_id("version")).to_have_text("1")
    expect(page.locator(square(page, "e5"))).to_have_attribute("data-unit", "C")


def test_a_mirror_match_on_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_match(page, options={"faction0": "elves", "faction1": "elves"})
    status = page.locator(".mf-status")
    expect(status).to_contain_text("Elves (first)")
    expect(status).to_contain_text("Elves (second)")
    board = page.locator(".mf-board").bounding_box()
    panel = page.locator(".mf-panel").bounding_box()
    assert board is not None and panel is not None
    assert board["width"] <= 390
    assert panel["y"] >= board["y"] + board["height"]
    page.click(square(page, "b2"))
    page.click(square(page, "b6"))
    expect(page.get_by_test_id("version")).to_have_text("1")
    screenshot(page, "manafields-phone")


def test_the_event_log_names_seats_and_units(page: Page) -> None:
    open_match(page)
    lines = page.evaluate(
        """async () => {
          const board = await import('/static/boards/manafields.js');
          const ctx = {players: [{seat: 0, name: 'Ana'}, {seat: 1, name: 'random'}], seat: 0};
          const events = [
            {kind: 'move', seat: 0, unit: 4, from: 'b2', to: 'b7', cost: 0},
            {kind: 'fight', seat: 1, unit: 10, target: 5, dice: 5, auto_sixes: 0, to_hit: 4,
             to_hit_bonus: 0, hit_rolls: [2, 4, 2, 6, 5], hits: 3, armour: 2,
             break_rolls: [2, 3, 2], broken: 3, damage_per_die: 2, damage: 6},
            {kind: 'destroyed', seat: 0, unit: 5, square: 'h5'},
            {kind: 'general_killed', seat: 1, unit: 6},
            {kind: 'score', seat: 0, objectives: 2, general: 1, general_killed: 0, total: 3,
             score: [3, 1]},
            {kind: 'turn', seat: 1, turn: 1, op: 3, healed: []},
            {kind: 'game_over', seat: null, winners: [0], draw: false, reason: 'lead',
             scores: [13, 1], detail: {turns: 20}},
            {kind: 'something_new', seat: 0, detail: {a: 1}},
          ];
          return events.map((e) => board.describeEvent(e, ctx));
        }"""
    )
    # Seats read as their side, then who plays them ("Seat 1 (Ana)" with no view here).
    assert lines[0].endswith("(Ana): Knights (E) moves b2 → b7 (0 OP)")
    assert "(random): Wolf Riders (K) fights Longbowmen (F): 5 dice" in lines[1]
    assert "6 damage" in lines[1]
    assert "destroyed on h5" in lines[2]
    assert "6 points to" in lines[3] and "Ana" in lines[3]
    assert "(Ana) scores 3" in lines[4]
    assert lines[5].endswith("(random)'s turn (3 OP)")
    # The lead it ended on, and the rule's 12 or more.
    assert lines[6].endswith("(Ana) wins by a lead of 12 (13–1; 12 or more wins)")
    assert all("[object Object]" not in line for line in lines)
    # A view in the context (the match page's and the replay's logs pass the one they show)
    # names the units, not the last view some board drew.
    named = page.evaluate(
        """async () => {
          const board = await import('/static/boards/manafields.js');
          const units = Array.from(
            {length: 12}, (_, n) => ({name: `Unit ${n}`, slot: 'ABCDEFGHIJKL'[n]}));
          const ctx = {players: [{seat: 0, name: 'Ana'}], seat: 0, view: {units}};
          const move = {kind: 'move', seat: 0, unit: 4, from: 'b2', to: 'b7', cost: 1};
          return board.describeEvent(move, ctx);
        }"""
    )
    assert named.endswith("(Ana): Unit 4 (E) moves b2 → b7 (1 OP)")


# The board module alone on the server's page, fed a real engine's view and legal actions; what
# a click submits is kept in window.played and then applied to the engine, which must accept it.
RENDER = """async ({view, legal, seat, version}) => {
  const {html, render} = await import('/static/vendor/preact-htm.js');
  const board = await import('/static/boards/manafields.js');
  window.played = window.played || [];
  let root = document.getElementById('mf-root');
  if (!root) {
    root = document.createElement('div');
    root.id = 'mf-root';
    document.body.replaceChildren(root);
  }
  const submit = (action) => { window.played.push(action); return Promise.resolve({ok: true}); };
  const players = [{seat: 0, name: 'Ana'}, {seat: 1, name: 'Bo'}];
  render(html`<${board.default} game="manafields/3" seat=${seat} players=${players}
    version=${version} view=${view} legal=${legal} deciding=${[seat]} events=${[]}
    outcome=${null} readonly=${false} submit=${submit} say=${(text) => { window.said = text; }} />`,
    root);
}"""


class Table:
    """A Manafields position in the engine, shown by the board in the page."""

    def __init__(self, page: Page, options: dict[str, str], morale: int = 0) -> None:
        self.page = page
        self.game = load_game("manafields", options=options)
        data = self.game.new_initial_state(seed=SEED).to_json()
        data["morale"] = [morale, morale]
        self.state: Any = self.game.state_from_json(data)
        self.version = 0
        page.goto("/")
        self.show()

    def show(self) -> None:
        legal = [
            {"id": a, "text": self.state.action_to_string(0, a)}
            for a in self.state.legal_actions(0)
        ]
        self.page.evaluate(
            RENDER, {"view": self.state.view(0), "legal": legal, "seat": 0, "version": self.version}
        )

    def played(self, count: int) -> str:
        """Waits for the board's ``count``-th submission, applies it, shows the new position."""
        self.page.wait_for_function("(n) => window.played.length >= n", arg=count)
        text: str = self.page.evaluate("() => window.played[window.played.length - 1]")
        self.state.apply(0, self.state.parse_action(0, text))
        self.version += 1
        self.show()
        return text


def test_abilities_and_the_faction_abilities_are_played_by_clicking(page: Page) -> None:
    table = Table(page, {"faction0": "elves", "faction1": "undead"}, morale=5)
    # The High Warden (A, e1) blesses the Bladedancers (C, e2): the click on a friendly unit
    # offers the ability or selecting that unit instead.
    page.click(square(page, "e1"))
    expect(page.locator(square(page, "e2"))).to_have_attribute("data-target", "ability")
    page.click(square(page, "e2"))
    chooser = page.locator(".mf-pending")
    expect(chooser).to_contain_text("Select Bladedancers (C) instead")
    chooser.locator('[data-notation="ability A C"]').click()
    assert table.played(1) == "ability A C"
    # The Elves' Faction Ability: teleport C to the centre objective, then stop picking.
    page.get_by_role("button", name=re.compile("^Faction Ability")).click()
    assert table.played(2) == "faction"
    expect(page.locator(".mf-orders")).to_contain_text("3 picks left")
    page.click(square(page, "e2"))
    expect(page.locator(square(page, "e7"))).to_have_attribute("data-target", "teleport")
    page.click(square(page, "e7"))
    assert table.played(3) == "teleport C e7"
    page.get_by_role("button", name="Done picking").click()
    assert table.played(4) == "done"
    expect(page.locator(square(page, "e7"))).to_have_attribute("data-unit", "C")

    undead = Table(page, {"faction0": "undead", "faction1": "humans"}, morale=5)
    page.evaluate("() => { window.played = []; }")
    undead.version = 0
    undead.show()
    page.get_by_role("button", name=re.compile("^Faction Ability")).click()
    assert undead.played(1) == "faction"
    # The Ghouls (F, f2) are the Undead's Zombie: one click blows them up.
    expect(page.locator(square(page, "f2"))).to_have_attribute("data-target", "explode")
    page.click(square(page, "f2"))
    assert undead.played(2) == "explode F"
    expect(page.locator(square(page, "f2"))).not_to_have_attribute("data-unit", "F")


def test_a_click_out_of_turn_is_explained_and_sends_nothing(page: Page) -> None:
    table = Table(page, {"faction0": "orcs", "faction1": "orcs"})
    table.state.apply(0, table.state.parse_action(0, "end"))
    table.show()
    expect(page.locator(".mf-status")).to_contain_text("(Bo) to play")
    expect(page.locator(".mf-end")).to_have_count(0)
    page.click(square(page, "e2"))
    page.wait_for_function("() => /not your turn/.test(window.said || '')")
    assert "Orcs, second (Bo) is playing" in page.evaluate("() => window.said")
    # The unit's card still shows, for information, and nothing was sent.
    expect(page.get_by_test_id("mf-unitcard")).to_contain_text("Ironjaws (C)")
    assert page.evaluate("() => window.played.length") == 0
