"""The Star house's card at rules version 2: every kind of lost fight counts.

"Star: On any turn it loses a fight, it draws a card (at most one a turn)." A seat is on a
fight's side when its units fight there or the field is its own -- "An empty walled field
still fights with its walls", a field held by Rally, a field its allies defend.

Blue is the Star in every test (Red is Tower, Green Sun). Dice: sides roll in side order.
"""

from __future__ import annotations

import pytest

from meeple.games.maiterra.data import RALLY, WALL

from .helpers import army, cell, kinds, own, planning, play_turn
from .test_road_fights import version_one

RED, BLUE, GREEN = 0, 1, 2


def walled(state: object, name: str) -> None:
    state.buildings[cell(name) * 7 + WALL] = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(("version", "cards"), [(2, 1), (1, 0)])
def test_an_empty_walled_field_that_loses_draws_the_star_a_card(version: int, cards: int) -> None:
    """ "An empty walled field still fights with its walls." / "On any turn it loses a
    fight, it draws a card." Red's 3 soldiers (6) beat Blue's empty wall (3) on d3; Blue
    had no unit there and still lost a fight (version 1 counted only units)."""
    state = planning(houses=("tower", "star"))
    if version == 1:
        version_one(state)
    own(state, BLUE, "d3")
    walled(state, "d3")
    army(state, RED, "c3", 3)
    events = play_turn(state, {RED: ["march c3 E"]}, 3, 3)
    assert kinds(events, "fight")[0].data["winner"] == [RED]
    assert state.owner[cell("d3")] == RED
    assert len(state.cards[BLUE]) == cards


@pytest.mark.parametrize(("version", "cards"), [(2, 1), (1, 0)])
def test_a_field_held_only_by_rally_that_loses_draws_the_star_a_card(
    version: int, cards: int
) -> None:
    """ "Rally: your fields defend as if walled." Blue plays Rally; its empty d3 defends at
    3 and loses to Red's 3 soldiers: a lost fight, a card (not in version 1)."""
    state = planning(houses=("tower", "star"))
    if version == 1:
        version_one(state)
    own(state, BLUE, "d3")
    state.cards[BLUE] = [RALLY]
    army(state, RED, "c3", 3)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["play rally"]}, 3, 3)
    (fight,) = kinds(events, "fight")
    assert fight.data["sides"][1]["strength"] == 3 and fight.data["winner"] == [RED]
    assert len(state.cards[BLUE]) == cards


def test_a_lost_road_fight_draws_the_star_a_card() -> None:
    """ "On the road: armies marching opposite ways along one edge fight" -- and a road
    fight lost is a fight lost. Blue's soldier loses on c3-d3 to Red's 3 soldiers."""
    state = planning(houses=("tower", "star"))
    army(state, RED, "c3", 3)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["march d3 W"]}, 3, 3)
    assert kinds(events, "road_fight")[0].data["winner"] == [RED]
    assert len(state.cards[BLUE]) == 1


def test_a_lost_field_fight_with_units_draws_the_star_a_card() -> None:
    """ "The loser loses everything on the field": Blue's soldier on d3 loses to Red."""
    state = planning(houses=("tower", "star"))
    own(state, BLUE, "d3")
    army(state, BLUE, "d3", 1)
    army(state, RED, "c3", 3)
    play_turn(state, {RED: ["march c3 E"]}, 3, 3)
    assert len(state.cards[BLUE]) == 1


@pytest.mark.parametrize(("version", "cards"), [(2, 1), (1, 0)])
def test_a_star_whose_field_its_ally_defends_loses_with_it(version: int, cards: int) -> None:
    """ "Allies ... fight as one side when an enemy attacks them": Blue's d3 is defended by
    its ally Red's soldier alone; Green takes it. Blue is on the losing side."""
    state = planning(seats=3, teams="112", houses=("tower", "star", "sun"))
    if version == 1:
        version_one(state)
    own(state, BLUE, "d3")
    army(state, RED, "d3", 1)
    army(state, GREEN, "c3", 3)
    events = play_turn(state, {GREEN: ["march c3 E"]}, 3, 3)
    assert kinds(events, "fight")[0].data["winner"] == [GREEN]
    assert len(state.cards[BLUE]) == cards
    assert state.cards[RED] == []  # Red is no Star


def test_a_star_attacking_with_its_ally_loses_with_it() -> None:
    """ "fight as one side ... when they attack together": Red and Blue attack Green's
    walled d3 together and lose; Blue, the Star, draws a card."""
    state = planning(seats=3, teams="112", houses=("tower", "star", "sun"))
    own(state, GREEN, "d3")
    walled(state, "d3")
    army(state, GREEN, "d3", 2)
    army(state, RED, "c3", 1)
    army(state, BLUE, "e3", 1)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["march e3 W"]}, 1, 1)
    assert kinds(events, "fight")[0].data["winner"] == [GREEN]
    assert len(state.cards[BLUE]) == 1


def test_at_most_one_card_a_turn_however_many_fights_are_lost() -> None:
    """ "(at most one a turn)": Blue loses a road fight, two field fights and an empty
    walled field in one turn, and draws one card."""
    state = planning(houses=("tower", "star"))
    own(state, BLUE, "d3", "d4", "b2")
    walled(state, "b2")
    army(state, RED, "c3", 3)
    army(state, BLUE, "d3", 2)  # loses on the road; its last soldier goes home and loses
    army(state, RED, "c4", 3)
    army(state, BLUE, "d4", 1)
    army(state, RED, "b3", 3)
    orders = {RED: ["march c3 E", "march c4 E", "march b3 NE"], BLUE: ["march d3 W"]}
    events = play_turn(state, orders, 3, 3, 3, 3, 3, 3, 3, 3)
    assert len(kinds(events, "road_fight")) == 1 and len(kinds(events, "fight")) == 3
    assert all(e.data["winner"] == [RED] for e in kinds(events, "fight"))
    assert len(state.cards[BLUE]) == 1


def test_no_card_for_a_fight_won_or_a_field_taken_without_one() -> None:
    """A Star that wins draws nothing; nor when "an enemy field that is empty, unwalled and
    not under Rally is taken by the side that marches in, with no fight" (a Decision)."""
    state = planning(houses=("tower", "star"))
    own(state, BLUE, "d3", "d4")
    army(state, BLUE, "d3", 3)
    army(state, RED, "c3", 1)
    army(state, RED, "c4", 1)
    events = play_turn(state, {RED: ["march c3 E", "march c4 E"]}, 3, 3)
    assert kinds(events, "fight")[0].data["winner"] == [BLUE]
    assert state.owner[cell("d4")] == RED
    assert state.cards[BLUE] == []


def test_no_card_when_others_fight_on_a_stars_empty_field() -> None:
    """Red and Green both march onto Blue's empty, unwalled d3 and fight each other; Blue
    fought in no fight there (a Decision) and draws nothing, though it loses the field."""
    state = planning(seats=3, houses=("tower", "star", "sun"))
    own(state, BLUE, "d3")
    army(state, RED, "c3", 3)
    army(state, GREEN, "e3", 1)
    events = play_turn(state, {RED: ["march c3 E"], GREEN: ["march e3 W"]}, 3, 3)
    (fight,) = kinds(events, "fight")
    assert [side["seats"] for side in fight.data["sides"]] == [[RED], [GREEN]]
    assert state.owner[cell("d3")] == RED
    assert state.cards[BLUE] == []
