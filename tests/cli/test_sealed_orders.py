"""Maiterra: a seat's sealed orders, and how many, stay hidden until the turn resolves.

"Each seat secretly queues its orders": the others learn that a seat has ended its turn,
never how many orders it sealed, neither from the sentence describing its ``end`` nor from
their view nor from the terminal.
"""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

import meeple.games  # noqa: F401
from meeple.cli.main import app
from meeple.core import load_game
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.rules import PLAN

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
COUNT = re.compile(r"\bwith \d+ orders?\b|\b\d+ orders?\b")


def _planning_state(seats: int, seed: int):  # type: ignore[no-untyped-def]
    """A match at the start of its first planning turn, everyone taking option 1 before."""
    state = load_game("maiterra", seats=seats).new_initial_state(seed)
    while state.phase != PLAN:  # type: ignore[attr-defined]
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def test_ending_the_turn_is_described_without_the_count_of_sealed_orders() -> None:
    state = _planning_state(3, 4)
    seat = 1
    for _ in range(3):
        orders = [a for a in state.legal_actions(seat) if a != ids.END]
        if not orders:
            break
        state.apply(seat, orders[0])
    assert state.queue[seat]  # type: ignore[attr-defined]
    sentence = state.describe_action(seat, ids.END)
    assert sentence.endswith("ends the turn")
    assert not COUNT.search(sentence)
    before = [json.dumps(state.view(other), sort_keys=True) for other in (0, 2, None)]
    state.apply(seat, ids.END)
    for other, seen in zip((0, 2, None), before, strict=True):
        view = state.view(other)
        assert view["queue"] == []  # only a seat's own queue is in its view
        text = json.dumps(view, sort_keys=True)
        assert "queued" not in text
        assert len(text) - len(seen) < 40  # only "ended" flipped, no list of orders


def test_the_terminal_never_prints_a_bots_count_of_orders() -> None:
    result = runner.invoke(
        app,
        ["play", "maiterra", "--seats", "3", "--seed", "6"],
        input="1\n" * 60 + "quit\n",
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "ends the turn" in result.output  # the bots did end turns in view
    assert "ends the turn with" not in result.output
