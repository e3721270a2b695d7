"""Maatatahay's heuristic bot: legal, reproducible, takes a surround, beats random."""

from __future__ import annotations

import random

import pytest

from meeple.core import State
from meeple.games.maatatahay import Maatatahay, MaatatahayState
from meeple.games.maatatahay.heuristic import MaatatahayHeuristic, NotMaatatahay, evaluate
from meeple.games.maatatahay.notation import place_action
from meeple.games.manafields import Manafields

from .builders import (
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    GUARDIAN,
    HUNTER,
    SCOUT,
    WAZU,
    W,
    position,
    sq,
)

POLICY = MaatatahayHeuristic()


class Heuristic:
    """The policy as a seeded player: its own generator, as the ``heuristic`` bot holds."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def select(self, state: State, seat: int) -> int:
        return POLICY.choose(state, seat, self.rng)


class Random:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def select(self, state: State, seat: int) -> int:
        return self.rng.choice(state.legal_actions(seat))


def play(seed: int, players: dict[int, Heuristic | Random]) -> tuple[MaatatahayState, list[int]]:
    """A whole match, every action checked by ``state.apply``."""
    state = Maatatahay().new_initial_state(seed=seed)
    actions = []
    while not state.is_terminal():
        (seat,) = state.deciding_seats()
        action = players[seat].select(state, seat)
        assert action in state.legal_actions(seat)
        state.apply(seat, action)
        actions.append(action)
    return state, actions


@pytest.mark.parametrize("seed", [1, 2])
def test_it_only_takes_legal_actions(seed: int) -> None:
    state, actions = play(seed, {0: Heuristic(seed), 1: Heuristic(seed + 1)})
    assert state.outcome() is not None
    assert len(actions) > 40


def test_the_same_seed_gives_the_same_match() -> None:
    first = play(3, {0: Heuristic(7), 1: Random(8)})[1]
    again = play(3, {0: Heuristic(7), 1: Random(8)})[1]
    assert first == again


def test_it_does_not_change_the_position_it_is_given() -> None:
    state = Maatatahay().new_initial_state(seed=4)
    before = state.to_json()
    POLICY.choose(state, state.deciding_seats()[0], random.Random(1))
    assert state.to_json() == before


def test_it_surrounds_when_it_can() -> None:
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight alone.
    Compare its Strength against the combined Strength of the surrounding enemies: Equal or
    higher -> survives; Lower -> dies."

    A Wazu Hunter (2) on c3 is closed in on three sides by Balan's Champion (3), Guardian
    (3) and Chieftain (4); Balan places a Scout: on d3 it closes the last side, 11 against 2.
    """
    state = position(
        {
            "c3": W(WAZU, HUNTER, "N", 0, 2),
            "c2": W(BALAN, CHAMPION),
            "b3": W(BALAN, GUARDIAN),
            "c4": W(BALAN, CHIEFTAIN),
        },
        to_place=(BALAN, SCOUT),
    )
    action = POLICY.choose(state, BALAN, random.Random(0))
    assert action == place_action(sq("d3"))
    state.apply(BALAN, action)
    events = state.apply(BALAN, POLICY.choose(state, BALAN, random.Random(0)))
    assert [e.data["space"] for e in events if e.kind == "death"] == ["c3"]
    # "Its Spirit Crystals are transferred to the newly placed Warrior."
    assert state.spirit[sq("d3")] == 2


def test_it_does_not_close_a_hole_it_would_die_in() -> None:
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight alone"
    -- the warrior just placed too: a Balan Scout (1, and 2 from the corner's printed arrows)
    placed on a1 between a Wazu Chieftain (4) and Champion (3) would fight 3 against 7 and
    die."""
    state = position(
        {"a2": W(WAZU, CHIEFTAIN), "b1": W(WAZU, CHAMPION)},
        to_place=(BALAN, SCOUT),
    )
    trial = state.clone()
    trial.play(BALAN, "a1")
    events = trial.play(BALAN, "N keep 0e0s")
    assert [(e.data["strength"], e.data["against"]) for e in events if e.kind == "fight"] == [
        (3, 7)
    ]
    action = POLICY.choose(state, BALAN, random.Random(0))
    assert action != place_action(sq("a1"))


def test_the_last_placement_puts_every_spirit_crystal_on_the_warrior() -> None:
    """ "Spirit Crystals do not increase Strength, but are worth 1 VP each if their Warrior
    survives until game end" -- and storage scores nothing. Balan places the last warrior of
    the match ("All Warriors have been played") holding 3 Spirit crystals: they all go on it.
    """
    state = position(
        {"a1": W(WAZU, HUNTER), "e5": W(BALAN, CHAMPION)},
        to_place=(BALAN, SCOUT),
        second=True,
        storage=((0, 3), (0, 0)),
        stream=[],
        decks=[[], []],
    )
    rng = random.Random(0)
    state.apply(BALAN, POLICY.choose(state, BALAN, rng))
    state.apply(BALAN, POLICY.choose(state, BALAN, rng))
    assert state.is_terminal()
    assert state.score_breakdown(BALAN)["spirit"] == 3


def test_the_evaluation_is_zero_sum() -> None:
    state = Maatatahay().new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        (seat,) = state.deciding_seats()
        state.apply(seat, POLICY.choose(state, seat, rng))
        assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))


def test_it_plays_only_maatatahay() -> None:
    state = Manafields().new_initial_state(seed=1)
    with pytest.raises(NotMaatatahay, match="manafields"):
        POLICY.choose(state, 0, random.Random(0))


def test_it_needs_a_seat_that_decides() -> None:
    state = Maatatahay().new_initial_state(seed=1)
    waiting = 1 - state.deciding_seats()[0]
    with pytest.raises(ValueError, match="no legal action"):
        POLICY.choose(state, waiting, random.Random(0))


@pytest.mark.slow
def test_it_beats_random() -> None:
    """Ten deals, each played twice with the seats swapped: at least 15 wins of 20."""
    wins = 0
    for seed in range(10):
        for seat in (0, 1):
            players: dict[int, Heuristic | Random] = {seat: Heuristic(seed), 1 - seat: Random(seed)}
            state = play(seed, players)[0]
            wins += state.returns()[seat] > 0
    assert wins >= 15
