"""Whole matches with seeded random moves: what must hold after every action."""

from __future__ import annotations

import random

import pytest

from meeple.core.errors import InvalidOptions
from meeple.games.maatatahay import Maatatahay

from .builders import GAME

SEEDS = range(40)


def crystals(state):
    energy = (
        state.supply
        + state.bag_energy
        + sum(state.ground_energy)
        + sum(state.energy)
        + sum(state.store_energy)
    )
    spirit = (
        state.bag_spirit + sum(state.ground_spirit) + sum(state.spirit) + sum(state.store_spirit)
    )
    return energy, spirit


def play_out(seed, options=None):
    """Yield (state, events) after every action of a seeded random match."""
    game = Maatatahay(options=options) if options else GAME
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state, events


def test_maatatahay_is_for_exactly_two_players():
    """ "Maatatahay is a two-player-only strategy game, playing up to 12 rounds on a 5x5
    ... game map." """
    assert Maatatahay().seats == 2
    for seats in (1, 3):
        with pytest.raises(InvalidOptions):
            Maatatahay(seats=seats)
    state = GAME.new_initial_state(0)
    assert len(state.view(None)["board"]) == 25
    assert state.view(None)["decks"] == [9, 9]  # 12 tiles each: 3 in the stream


@pytest.mark.parametrize("seed", SEEDS)
def test_crystals_are_conserved_except_removed_spirit(seed):
    """Energy only moves between supply, bag, map, storage and warriors; Spirit leaves the
    game only when "the newly placed Warrior itself dies"."""
    energy0, spirit0 = crystals(GAME.new_initial_state(seed))
    spirit = spirit0
    for state, events in play_out(seed):
        removed = sum(e.data["spirit"] for e in events if e.kind == "spirit_removed")
        energy_now, spirit_now = crystals(state)
        assert energy_now == energy0
        assert spirit_now == spirit - removed
        spirit = spirit_now


@pytest.mark.parametrize("seed", SEEDS)
def test_every_turn_ends_with_at_most_four_crystals_in_storage(seed):
    """ "Your personal storage can hold up to 4 Crystals at the end of your turn." """
    for state, events in play_out(seed):
        for event in events:
            if event.kind == "finish":
                seat = event.seat
                assert state.store_energy[seat] + state.store_spirit[seat] <= 4


@pytest.mark.parametrize("seed", SEEDS)
def test_the_dead_carry_nothing_and_the_track_counts_them(seed):
    """ "A dead Warrior is flipped facedown and loses its Energy Crystals." and "advance the
    Spirit Track by the total number of Warriors that died." """
    for state, _ in play_out(seed):
        dead = [s for s in range(25) if state.tile[s] != -1 and not state.living[s]]
        assert all(state.energy[s] == state.spirit[s] == 0 for s in dead)
        assert sum(state.lost) == len(dead)
        if state.view(None)["phase"] in ("pick", "over"):
            assert state.spirit_track == len(dead)


@pytest.mark.parametrize("seed", SEEDS[:10])
@pytest.mark.parametrize(
    "options", [None, {"relic_scoring": "standard"}, {"relic_blocks": True, "shrines": "random"}]
)
def test_every_match_ends_with_an_outcome_and_replays_exactly(seed, options):
    """ "The game ends after a turn if: ..." -- one of the three conditions, always."""
    states = list(play_out(seed, options))
    last = states[-1][0]
    outcome = last.outcome()
    assert outcome is not None
    assert outcome.reason in ("six_lost", "board_full", "all_played")
    assert last.view(None)["round"] <= 12
    replay = [s.to_json() for s, _ in play_out(seed, options)]
    assert replay[-1] == last.to_json()
