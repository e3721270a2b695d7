"""Maatatahay's rules read the board through bitmasks they keep as they play (which spaces
hold a warrior, which an unclaimed relic, which a living warrior of each seat) instead of
walking the per-space lists. Each fast path is checked here against the slow way it
replaces, written out as the rules first had it, on positions of random matches under every
combination of options: the masks must equal those worked out from the lists, and the free
spaces, the legal placements and who is surrounded must be the same.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from meeple.games.maatatahay import Maatatahay
from meeple.games.maatatahay.data import EMPTY, ORTHOGONAL, SPACES, TILES_PER_SEAT
from meeple.games.maatatahay.rules import PLACE, PLACE_IDS, MaatatahayState

OPTIONS: list[dict[str, Any]] = [
    {"relic_scoring": scoring, "shrines": shrines, "relic_blocks": blocks}
    for scoring, shrines, blocks in itertools.product(
        ("progressive", "standard"), ("fixed", "random"), (False, True)
    )
]


def _positions(options: dict[str, Any], matches: int) -> list[MaatatahayState]:
    game = Maatatahay(options=options)
    rng = random.Random(repr(sorted(options.items())))
    out = []
    for _ in range(matches):
        state = game.new_initial_state(rng.getrandbits(64))
        out.append(state.clone())
        while deciding := state.deciding_seats():
            state.apply_unchecked(deciding[0], rng.choice(state.legal_actions(deciding[0])))
            out.append(state.clone())
    return out


def _masks_from_lists(state: MaatatahayState) -> tuple[int, int, list[int]]:
    occupied = sum(1 << s for s in range(SPACES) if state.tile[s] != EMPTY)
    relics = sum(1 << s for s in range(SPACES) if state.relic[s])
    alive = [0, 0]
    for space in range(SPACES):
        if state.tile[space] != EMPTY and state.living[space]:
            alive[state.tile[space] // TILES_PER_SEAT] |= 1 << space
    return occupied, relics, alive


def _places_by_walking(state: MaatatahayState, seat: int) -> list[int]:
    """The legal placements as the rules first listed them: a walk over every space."""
    actions = [
        base
        for base, uid, has_relic in zip(PLACE_IDS, state.tile, state.relic, strict=True)
        if uid == EMPTY and not has_relic
    ]
    spirit, energy = state.store_spirit[seat], state.store_energy[seat]
    for space in range(SPACES):
        if not state.relic[space]:
            continue
        cost = state.relic_cost(seat, space)
        for paid in range(1, min(spirit, cost) + 1):
            if cost - paid <= energy:
                actions.append(PLACE_IDS[space] + paid)
    return sorted(actions)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_kept_masks_equal_the_lists_and_the_fast_paths_the_slow(options: dict[str, Any]) -> None:
    for state in _positions(options, 6):
        assert (state.occupied, state.relics, state.alive) == _masks_from_lists(state)
        assert state.free_spaces() == state.tile.count(EMPTY) - state.relic.count(True)
        if state.phase == PLACE:
            seat = state.placing
            assert state.legal_actions(seat) == _places_by_walking(state, seat)
        # What _life_and_death reads of the masks says who is surrounded as is_surrounded does.
        closed = state.occupied | (state.relics if state.game.relic_blocks else 0)
        for space in range(SPACES):
            sides = sum(1 << n for n in ORTHOGONAL[space])
            assert (closed & sides == sides) == state.is_surrounded(space)


def test_a_position_read_from_json_has_its_masks_worked_out() -> None:
    for state in _positions(OPTIONS[-1], 2)[::5]:
        again = state.game.state_from_json(state.to_json())
        assert (again.occupied, again.relics, again.alive) == (
            state.occupied,
            state.relics,
            state.alive,
        )
        seat = state.deciding_seats()[0] if state.deciding_seats() else 0
        assert again.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_advance_and_random_playout_play_as_apply_unchecked(options: dict[str, Any]) -> None:
    """A search steps through ``advance`` and plays out through ``random_playout``: the same
    positions and random draws as ``apply_unchecked`` and the generic playout loop, only
    without the events."""
    for index, state in enumerate(_positions(options, 2)[::3]):
        stepped, advanced = state.clone(), state.clone()
        pick = random.Random(index)
        while deciding := stepped.deciding_seats():
            action = pick.choice(stepped.legal_actions(deciding[0]))
            stepped.apply_unchecked(deciding[0], action)
            advanced.advance(deciding[0], action)
            assert advanced.to_json() == stepped.to_json()
        for limit in (None, 0, 5):
            looped, fast = state.clone(), state.clone()
            draws, fast_draws = random.Random(index), random.Random(index)
            played = 0
            while (deciding := looped.deciding_seats()) and (limit is None or played < limit):
                legal = looped.legal_actions(deciding[0])
                looped.apply_unchecked(deciding[0], legal[int(draws.random() * len(legal))])
                played += 1
            assert fast.random_playout(fast_draws.random, limit) == played
            assert fast.to_json() == looped.to_json()
            assert fast_draws.random() == draws.random()
