"""The terminal's words for a Manafields match won on the lead: the lead it ended on, not
the 12 that wins (a match can end 0-14), and the key saying what lead, OP and Morale are."""

from __future__ import annotations

from rich.console import Console

from meeple.ai import make_bot
from meeple.cli.render import render_view
from meeple.games.manafields import Manafields
from meeple.games.manafields.draw import HELP


def test_a_match_won_on_the_lead_says_the_lead_it_ended_on() -> None:
    state = Manafields().new_initial_state(7)
    bots = [make_bot("heuristic", 1), make_bot("random", 2)]
    while not state.is_terminal():
        seat = state.active
        state.apply(seat, bots[seat].select(state, seat))
    view = state.view(0)
    outcome = view["outcome"]
    assert outcome["reason"] == "lead", outcome
    winner = outcome["winners"][0]
    lead = view["score"][winner] - view["score"][1 - winner]
    console = Console(width=140, record=True)
    console.print(render_view(view))
    text = console.export_text()
    assert f"win by a lead of {lead} (12 or more wins)" in text
    assert "12 wins)" in text  # each side's lead beside its score


def test_the_key_explains_lead_op_and_morale() -> None:
    assert "a lead of 12 or more when a turn ends wins" in HELP
    assert "1 for each enemy unit destroyed" in HELP and "Order Points left" in HELP
