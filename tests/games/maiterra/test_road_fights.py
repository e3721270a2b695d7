"""Road fights at rules version 2: every crossing of one edge opposite ways meets.

"Armies march: 1 field, or 2 for cavalry (a ride cannot pass another army). Two armies
marching opposite ways along one edge fight on the road first." / "On the road: armies
marching opposite ways along one edge fight before either arrives, with no walls and no
Rally, both at their attack strength. The winner marches on with what is left; the loser
stays home. A stack pulled back is never caught."

Dice are scripted: in a road fight the side crossing from the lower field to the higher
rolls first (on row 3, the one marching east); in a field fight the sides roll in side
order. Row 3 of the test board runs a3 b3 c3 d3 e3, west to east; c2 lies NE of c3 and NW
of d3.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.core.outcome import Event
from meeple.games.maiterra import Maiterra1
from meeple.games.maiterra.data import PATH_CELLS, PATHS, cell_name
from meeple.games.maiterra.fights import march
from meeple.games.maiterra.resolve import Group, Turn
from meeple.games.maiterra.rules import MaiterraState

from .helpers import army, cell, kinds, own, planning, play_turn, units

RED, BLUE, GREEN = 0, 1, 2


def version_one(state: MaiterraState) -> MaiterraState:
    """The same position under ``maiterra/1``'s rules."""
    state.game = Maiterra1(seats=state.seats, options=dict(state.game.options))
    return state


def edges(events: list[Event]) -> list[tuple[list[str], int | None]]:
    return [(e.data["edge"], e.data.get("step")) for e in kinds(events, "road_fight")]


def test_first_steps_meet_on_the_road() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first." Red
    marches c3 -> d3 and Blue d3 -> c3 with their first steps; they meet on c3-d3."""
    state = planning()
    army(state, RED, "c3", 2)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["march d3 W"]}, 3, 3)
    assert edges(events) == [(["c3", "d3"], 1)]


def test_a_rides_second_step_meets_a_march_the_other_way_then_fights_on_the_field() -> None:
    """ "armies marching opposite ways along one edge fight before either arrives" /
    "The winner marches on with what is left; the loser stays home."

    Red's 2 cavalry ride b3 -> c3 -> d3; Blue's 3 soldiers march d3 -> c3. Red's second
    step and Blue's first cross c3-d3 opposite ways: they meet on the road, at attack
    strength (6 against 6). Red rolls 5, Blue 1: Red wins by 4 against 3 units and loses
    none; Blue loses half its marchers rounded up (2) and its last soldier stays home on
    d3, where Red, marching on, fights it on the field and takes d3.
    """
    state = planning()
    own(state, RED, "b3")
    own(state, BLUE, "d3")
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "d3", 3)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W"]}, 5, 1, 3, 3)
    (road,) = kinds(events, "road_fight")
    assert road.data["edge"] == ["c3", "d3"] and road.data["step"] == 2
    assert [side["strength"] for side in road.data["sides"]] == [6, 6]
    assert road.data["winner"] == [RED]
    assert road.data["winner_lost"] == {} and road.data["loser_lost"] == {"1": [2, 0]}
    (fight,) = kinds(events, "fight")
    assert fight.data["field"] == "d3" and fight.data["winner"] == [RED]
    assert state.owner[cell("d3")] == RED
    assert units(state, RED, "d3") == (0, 2)
    assert units(state, BLUE, "c3") == (0, 0) and units(state, BLUE, "d3") == (0, 0)


def test_version_one_lets_a_rides_second_step_pass_a_march() -> None:
    """Version 1 paired first steps only: the same ride and march pass each other (kept so
    that version 1's records replay)."""
    state = version_one(planning())
    own(state, RED, "b3")
    own(state, BLUE, "d3")
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "d3", 3)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W"]})
    assert not kinds(events, "road_fight")
    assert units(state, RED, "d3") == (0, 2) and units(state, BLUE, "c3") == (3, 0)


def test_the_loser_of_a_second_step_fight_stays_home() -> None:
    """ "the loser stays home": the ride that loses on its second step goes back to the
    field it rode from, not to its middle field. Red's 1 cavalry (3) rides b3 -> c3 -> d3
    against Blue's 2 soldiers (4) marching d3 -> c3; equal rolls, Blue wins."""
    state = planning()
    own(state, RED, "b3")
    own(state, BLUE, "d3")
    army(state, RED, "b3", 0, 1)
    army(state, BLUE, "d3", 2)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W"]}, 3, 3)
    (road,) = kinds(events, "road_fight")
    assert road.data["winner"] == [BLUE] and road.data["loser_lost"] == {"0": [0, 1]}
    assert units(state, RED, "c3") == (0, 0) and units(state, RED, "d3") == (0, 0)
    assert units(state, BLUE, "c3") == (2, 0)  # won by 1 against 1 unit: no losses


def test_rides_meet_first_step_against_first_step() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first." Two
    rides whose first steps cross c3-d3 opposite ways (c3 -> d3 -> e3 and d3 -> c3 -> b3)
    meet in the first step; the winner rides on to e3."""
    state = planning()
    army(state, RED, "c3", 0, 1)
    army(state, BLUE, "d3", 0, 1)
    events = play_turn(state, {RED: ["march c3 E-E"], BLUE: ["march d3 W-W"]}, 5, 1)
    assert edges(events) == [(["c3", "d3"], 1)]
    assert units(state, RED, "e3") == (0, 1) and units(state, BLUE, "d3") == (0, 0)


def test_rides_meet_second_step_against_first_step() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first." Red
    rides b3 -> c3 -> d3; Blue rides d3 -> c3 -> c2. Red's second step and Blue's first
    cross c3-d3 opposite ways: they meet on the road in the second step."""
    state = planning()
    army(state, RED, "b3", 0, 1)
    army(state, BLUE, "d3", 0, 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W-NE"]}, 1, 5)
    assert edges(events) == [(["c3", "d3"], 2)]
    assert units(state, BLUE, "c2") == (0, 1) and units(state, RED, "b3") == (0, 0)


def test_rides_meet_second_step_against_second_step() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first." Red
    rides b3 -> c3 -> d3; Blue rides e3 -> d3 -> c3: their second steps cross c3-d3
    opposite ways, and they meet on the road."""
    state = planning()
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "e3", 0, 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march e3 W-W"]}, 3, 3)
    assert edges(events) == [(["c3", "d3"], 2)]
    assert units(state, RED, "d3") == (0, 2) and units(state, BLUE, "e3") == (0, 0)


def test_two_rides_along_one_path_opposite_ways_meet_once() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first." Red
    rides b3 -> c3 -> d3 and Blue d3 -> c3 -> b3: each crosses both edges against the
    other, on one step or the other. They meet once, on the first edge in board order
    (b3-c3); the loser is home and meets nobody after."""
    state = planning()
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "d3", 0, 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W-W"]}, 3, 3)
    assert edges(events) == [(["b3", "c3"], 2)]
    assert units(state, RED, "d3") == (0, 2) and units(state, BLUE, "d3") == (0, 0)


def test_road_fights_go_by_step_then_by_edge_then_by_side() -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first" -- the
    order of several road fights: first steps before second steps; within a step,
    edges in board order; on one edge, the sides crossing from the lower field one by one
    (side order) against those crossing back. Blue's soldier marches d3 -> c3; Red rides
    b3 -> c3 -> d3 and Green c2 -> c3 -> d3. Red meets Blue first and wins; Blue is home,
    so Green passes. On a1-b1 two soldiers meet with their first steps, before all that."""
    state = planning(seats=3)
    army(state, RED, "b3", 0, 2)
    army(state, GREEN, "c2", 0, 1)
    army(state, BLUE, "d3", 1)
    army(state, RED, "a1", 1)
    army(state, BLUE, "b1", 1)
    orders = {
        RED: ["march b3 E-E", "march a1 E"],
        BLUE: ["march d3 W", "march b1 W"],
        GREEN: ["march c2 SW-E"],
    }
    events = play_turn(state, orders, 5, 1, 3, 3)
    assert edges(events) == [(["a1", "b1"], 1), (["c3", "d3"], 2)]
    (second,) = [e for e in kinds(events, "road_fight") if e.data["step"] == 2]
    assert [side["seats"] for side in second.data["sides"]] == [[RED], [BLUE]]
    assert units(state, BLUE, "c3") == (0, 0)


def test_a_ride_stopped_on_its_middle_field_crosses_no_second_edge() -> None:
    """ "a ride cannot pass another army": Red's ride b3 -> c3 -> d3 stops on c3, where
    Blue's soldier stands, so it never crosses c3-d3 against Blue's march d3 -> c3 --
    which arrives on c3 and joins the fight there."""
    state = planning()
    own(state, BLUE, "c3", "d3")
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "c3", 1)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W"]}, 5, 1)
    assert not kinds(events, "road_fight")
    (fight,) = kinds(events, "fight")
    assert fight.data["field"] == "c3"


def test_a_ride_stops_where_a_road_loser_went_home() -> None:
    """ "the loser stays home" -- and then stands there, so "a ride cannot pass" it. Blue's
    soldier marches c3 -> c2 and loses on the road to Red's soldier coming c2 -> c3; it is
    back on c3 when Red's ride b3 -> c3 -> d3 reaches c3, and the ride stops there."""
    state = planning()
    own(state, BLUE, "c3")
    army(state, BLUE, "c3", 2)
    army(state, RED, "c2", 3)
    army(state, RED, "b3", 0, 1)
    events = play_turn(state, {RED: ["march c2 SW", "march b3 E-E"], BLUE: ["march c3 NE"]}, 5, 1)
    assert edges(events) == [(["c2", "c3"], 1)]
    assert units(state, RED, "d3") == (0, 0)
    (fight,) = kinds(events, "fight")
    assert fight.data["field"] == "c3"


def test_version_one_judged_a_ride_stopped_before_any_road_fight() -> None:
    """Version 1 looked for an army on the middle field before the road fights, so the
    same ride passed the soldier that went home to c3 (kept so that its records replay)."""
    state = version_one(planning())
    own(state, BLUE, "c3")
    army(state, BLUE, "c3", 2)
    army(state, RED, "c2", 3)
    army(state, RED, "b3", 0, 1)
    play_turn(state, {RED: ["march c2 SW", "march b3 E-E"], BLUE: ["march c3 NE"]}, 5, 1)
    assert units(state, RED, "d3") == (0, 1)


def test_a_stack_pulled_back_is_never_caught_by_a_ride() -> None:
    """ "A stack pulled back is never caught." Blue pulls its stack back d3 -> c3 while
    Red's ride b3 -> c3 -> d3 would cross c3-d3 the other way: no road fight. The stack
    stands on c3, so the ride stops there ("a ride cannot pass another army") and they
    fight on the field."""
    state = planning()
    own(state, BLUE, "c3", "d3")
    state.res[BLUE][1] = 1
    army(state, RED, "b3", 0, 2)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["pullback d3 W"]}, 3, 3)
    assert not kinds(events, "road_fight")
    assert [f.data["field"] for f in kinds(events, "fight")] == ["c3"]


def test_allies_never_fight_on_the_road() -> None:
    """ "Allies never fight each other": Red and Blue (one team) cross c3-d3 opposite ways,
    Red with a ride's second step and Blue with a march; Green, their enemy, is far away."""
    state = planning(seats=3, teams="112")
    army(state, RED, "b3", 0, 1)
    army(state, BLUE, "d3", 1)
    army(state, GREEN, "a1", 1)
    events = play_turn(state, {RED: ["march b3 E-E"], BLUE: ["march d3 W"]})
    assert not kinds(events, "road_fight")
    assert units(state, RED, "d3") == (0, 1) and units(state, BLUE, "c3") == (1, 0)


def test_allies_crossing_one_way_fight_as_one_side() -> None:
    """ "fight as one side when an enemy attacks them or when they attack together": Red's
    ride b3 -> c3 -> d3 and its ally Blue's ride c2 -> c3 -> d3 cross c3-d3 together with
    their second steps against Green's march d3 -> c3: one side of 3 + 3 = 6 against 2."""
    state = planning(seats=3, teams="112")
    army(state, RED, "b3", 0, 1)
    army(state, BLUE, "c2", 0, 1)
    army(state, GREEN, "d3", 1)
    events = play_turn(
        state, {RED: ["march b3 E-E"], BLUE: ["march c2 SW-E"], GREEN: ["march d3 W"]}
    )
    (road,) = kinds(events, "road_fight")
    assert road.data["step"] == 2
    assert [side["strength"] for side in road.data["sides"]] == [6, 2]
    assert road.data["winner"] == [RED, BLUE]


# -- a property: nobody passes an enemy moving against it ----------------------------------

REGION = [cell(name) for name in ("b2", "c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4")]


@st.composite
def marches(draw: st.DrawFn) -> tuple[MaiterraState, list[Group]]:
    seats = draw(st.integers(2, 4))
    teams = draw(st.sampled_from(["", "1122"] if seats == 4 else [""]))
    state = planning(seats=seats, teams=teams)
    holder = draw(st.dictionaries(st.sampled_from(REGION), st.integers(0, seats - 1)))
    groups = []
    for origin, seat in sorted(holder.items()):
        for _ in range(draw(st.integers(1, 2))):
            path = draw(st.integers(0, PATHS - 1))
            mid, end = PATH_CELLS[origin][path]
            soldiers, cavalry = draw(st.integers(0, 3)), draw(st.integers(0, 3))
            if mid < 0 or soldiers + cavalry == 0:
                continue
            groups.append(Group(seat, origin, mid, end, [soldiers, cavalry]))
    return state, groups


def crossings(group: Group) -> list[tuple[int, int]]:
    steps = [(group.origin, group.mid)]
    if group.end != group.mid and not group.blocked:
        steps.append((group.mid, group.end))
    return steps


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(marches(), st.integers(0, 2**32 - 1))
def test_no_march_passes_an_enemy_crossing_its_edge_the_other_way(
    case: tuple[MaiterraState, list[Group]], seed: int
) -> None:
    """ "Two armies marching opposite ways along one edge fight on the road first": after
    the marches, no two enemy marches still on their way have crossed one edge opposite
    ways, and every unit is on the board or counted lost on the road."""
    state, groups = case
    state.rng.state = seed
    before = sum(sum(group.units) for group in groups)
    turn = Turn(groups=groups)
    events: list[Event] = []
    march(state, turn, events)
    on_way = [group for group in groups if any(group.units)]
    for one in on_way:
        for two in on_way:
            if state.allied(one.seat, two.seat):
                continue
            backwards = {(b, a) for a, b in crossings(two)}
            passed = set(crossings(one)) & backwards
            assert not passed, (
                f"seat {one.seat} and seat {two.seat} passed on "
                f"{[(cell_name(a), cell_name(b)) for a, b in passed]}"
            )
    lost = sum(
        sum(sum(units) for units in fight.data[key].values())
        for fight in kinds(events, "road_fight")
        for key in ("winner_lost", "loser_lost")
    )
    standing = sum(state.units(seat) for seat in range(state.seats))
    assert standing + lost == before
