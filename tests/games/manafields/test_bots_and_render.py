"""The heuristic bot, the evaluator and the terminal renderer on Manafields."""

from __future__ import annotations

from rich.console import Console

from meeple.ai import make_bot
from meeple.cli.render import render_view
from meeple.core import kit_for
from meeple.games.manafields import Manafields


def _play(game: Manafields, seed: int, names: tuple[str, str]) -> tuple[int, ...]:
    state = game.new_initial_state(seed)
    bots = [make_bot(names[0], seed), make_bot(names[1], seed + 1)]
    while not state.is_terminal():
        seat = state.active
        state.apply(seat, bots[seat].select(state, seat))
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winners


def test_heuristic_beats_random_from_both_seats() -> None:
    game = Manafields(options={"faction0": "elves", "faction1": "undead", "turn_limit": 10})
    assert _play(game, 1, ("heuristic", "random")) == (0,)
    assert _play(game, 2, ("random", "heuristic")) == (1,)


def test_heuristic_is_deterministic_for_a_seed() -> None:
    state = Manafields().new_initial_state(4)
    first = make_bot("heuristic", 9).select(state, 0)
    assert make_bot("heuristic", 9).select(state, 0) == first


def test_evaluator_is_zero_sum() -> None:
    state = Manafields().new_initial_state(4)
    evaluate = kit_for("manafields/1").evaluator
    assert evaluate(state, 0) == -evaluate(state, 1)


def test_renderer_draws_the_grid_and_the_score() -> None:
    state = Manafields().new_initial_state(3)
    console = Console(width=140, record=True)
    console.print(render_view(state.view(0)))
    text = console.export_text()
    assert "###" in text and "A7" in text and "score" in text and "Objectives" in text
