"""The seed's "Combat" section, sentence by sentence, with worked examples.

Dice are scripted (:class:`Dice`): sides roll in the order of their side number (the lowest
seat of a team), so ``play_turn(..., 2, 4)`` makes side 0 roll 2 and side 1 roll 4.
Cells on the test board: c3's neighbours are d3 (E), c2 (NE), b2 (NW), b3 (W), b4 (SW),
c4 (SE); d3's are e3 (E), d2 (NE), c2 (NW), c3 (W), c4 (SW), d4 (SE).
"""

from __future__ import annotations

from .helpers import army, cell, kinds, own, planning, play_turn, units

RED, BLUE, GREEN = 0, 1, 2


def attack_setup(defenders: int = 1, attackers: int = 3, **blue: str) -> object:
    state = planning(**blue)  # type: ignore[arg-type]
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    army(state, RED, "c3", attackers)
    army(state, BLUE, "d3", defenders)
    return state


def test_strength_is_units_and_the_higher_roller_adds_the_difference() -> None:
    """ "A side's strength is its units as above" / "Both sides roll a die, 1 to 5. The
    higher roller adds the difference to their strength." / "Higher strength wins."

    Red: 3 soldiers attack at 6, rolls 2; Blue: 1 soldier defends at 2, rolls 4 -> 2 + 2 = 4.
    """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    army(state, RED, "c3", 3)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march c3 E"]}, 2, 4)
    (fight,) = kinds(events, "fight")
    red, blue = fight.data["sides"]
    assert (red["strength"], red["total"], blue["strength"], blue["total"]) == (6, 6, 2, 4)
    assert fight.data["winner"] == [RED]
    assert state.owner[cell("d3")] == RED
    assert units(state, RED, "d3") == (3, 0)  # won by 2 against 1 unit: no losses
    assert units(state, BLUE, "d3") == (0, 0)


def test_a_tie_holds_for_the_defender() -> None:
    """ "A tie holds for the defender." 1 soldier against 1 soldier, same roll."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    army(state, RED, "c3", 1)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march c3 E"]}, 3, 3)
    assert kinds(events, "fight")[0].data["winner"] == [BLUE]
    assert state.owner[cell("d3")] == BLUE
    assert units(state, RED, "d3") == (0, 0)
    assert units(state, BLUE, "d3") == (1, 0)


def test_the_loser_loses_everything_the_winner_loses_fewer_the_harder_it_won() -> None:
    """ "The loser loses everything on the field. The winner loses some units too, fewer
    the harder they won." Our rule: max(0, losers' units + walls - margin), keep one.

    4 soldiers (8) against 2 soldiers and a wall (4 + 3 = 7): with equal rolls Red wins by
    1 and loses 3 - 1 = 2; rolling 5 against 1 it wins by 5 and loses none.
    """
    losses = []
    for rolls in ((3, 3), (5, 1)):
        state = planning()
        own(state, RED, "c3")
        own(state, BLUE, "d3")
        state.buildings[cell("d3") * 7 + 4] = 1  # a wall
        army(state, RED, "c3", 4)
        army(state, BLUE, "d3", 2)
        play_turn(state, {RED: ["march c3 E"]}, *rolls)
        assert state.owner[cell("d3")] == RED
        assert units(state, BLUE, "d3") == (0, 0)
        losses.append(4 - units(state, RED, "d3")[0])
    assert losses == [2, 0]


def test_walls_add_three_and_an_empty_walled_field_still_fights() -> None:
    """ "plus 3 for each wall on the field it owns" / "An empty walled field still fights
    with its walls." One soldier (2) against an empty wall (3) loses on equal rolls."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    state.buildings[cell("d3") * 7 + 4] = 1
    army(state, RED, "c3", 1)
    events = play_turn(state, {RED: ["march c3 E"]}, 2, 2)
    (fight,) = kinds(events, "fight")
    assert fight.data["sides"][1]["strength"] == 3
    assert state.owner[cell("d3")] == BLUE
    assert units(state, RED, "d3") == (0, 0)


def test_winning_past_a_wall_breaches_it_and_taking_a_field_razes_and_draws_a_card() -> None:
    """ "Winning past a wall breaches it." / "Taking a field razes every building on it, and
    each conquest draws you a card." """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    base = cell("d3") * 7
    state.buildings[base + 4] = 1  # wall
    state.buildings[base + 0] = 1  # farm: its worker is lost with it
    state.buildings[base + 3] = 2  # houses
    army(state, RED, "c3", 2)
    events = play_turn(state, {RED: ["march c3 E"]}, 5, 1)
    assert kinds(events, "breach")
    (conquest,) = kinds(events, "conquest")
    assert conquest.data["razed"] == {"farm": 1, "house": 2, "wall": 1}
    assert state.buildings[base : base + 7] == [0] * 7
    assert state.people[BLUE] == 3
    assert len(state.cards[RED]) == 1


def test_an_empty_unwalled_enemy_field_is_taken_without_a_fight() -> None:
    """ "Fights, on any field holding more than one army": an empty field with no wall holds
    none, so the army marching in takes it (a conquest: razes and draws)."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3", "e3")
    army(state, RED, "c3", 1)
    army(state, BLUE, "e3", 1)
    events = play_turn(state, {RED: ["march c3 E"]})
    assert not kinds(events, "fight")
    assert kinds(events, "conquest")[0].data["fought"] is False
    assert state.owner[cell("d3")] == RED
    assert len(state.cards[RED]) == 1


def test_unclaimed_land_three_sided_fight_where_cavalry_charges() -> None:
    """ "Unclaimed land has no defender: when armies meet on a field nobody owns, every side
    attacks, and cavalry charges at its attack strength."

    On unclaimed c3: Red 2 soldiers from b3 (4), Blue 1 cavalry from d3 (3, not 1), Green 1
    soldier from c2 (2). Rolls 1, 3, 1: each side adds its roll minus the lowest roll, so
    Blue has 5 and wins; the winner keeps at least one unit.
    """
    state = planning(seats=3)
    army(state, RED, "b3", 2)
    army(state, BLUE, "d3", 0, 1)
    army(state, GREEN, "c2", 1)
    events = play_turn(
        state, {RED: ["march b3 E"], BLUE: ["march d3 W"], GREEN: ["march c2 SW"]}, 1, 3, 1
    )
    (fight,) = kinds(events, "fight")
    assert [s["strength"] for s in fight.data["sides"]] == [4, 3, 2]
    assert [s["total"] for s in fight.data["sides"]] == [4, 5, 2]
    assert not any(s["defender"] for s in fight.data["sides"])
    assert fight.data["winner"] == [BLUE]
    assert units(state, BLUE, "c3") == (0, 1)
    assert units(state, RED, "c3") == units(state, GREEN, "c3") == (0, 0)
    assert state.owner[cell("c3")] == -1
    assert state.cards[BLUE] == []


def test_flanking_adds_two_per_extra_direction_at_most_four() -> None:
    """ "Flanking: an attack that marches in from more than one field adds +2 for each
    extra direction, at most +4." Three directions (c3, d2, e3) give +4, four give +4."""
    for sources in (
        ("c3 E", "d2 SW"),
        ("c3 E", "d2 SW", "e3 W"),
        ("c3 E", "d2 SW", "e3 W", "d4 NW"),
    ):
        state = planning()
        own(state, BLUE, "d3")
        army(state, BLUE, "d3", 5)
        orders = []
        for source in sources:
            field, direction = source.split()
            army(state, RED, field, 1)
            orders.append(f"march {field} {direction}")
        events = play_turn(state, {RED: orders}, 1, 1)
        red = kinds(events, "fight")[0].data["sides"][0]
        expected = {2: 2, 3: 4, 4: 4}[len(sources)]
        assert red["strength"] == 2 * len(sources) + expected


def test_units_already_standing_add_no_direction() -> None:
    """ "Units already standing on the field add none." Red stands on unclaimed c3 and
    marches in from b3 too: one direction, no flanking."""
    state = planning()
    army(state, RED, "c3", 1)
    army(state, RED, "b3", 1)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march b3 E"], BLUE: ["march d3 W"]}, 1, 1)
    red = kinds(events, "fight")[0].data["sides"][0]
    assert red["strength"] == 4


def test_on_the_road_opposite_marches_fight_at_attack_strength_without_walls() -> None:
    """ "On the road: armies marching opposite ways along one edge fight before either
    arrives, with no walls and no Rally, both at their attack strength. The winner marches
    on with what is left; the loser stays home."

    Red 2 soldiers c3 -> d3, Blue 1 cavalry + 1 soldier d3 -> c3 (attack 3 + 2 = 5; Blue's
    wall and Rally count for nothing). Red rolls 5, Blue 1: 4 + 4 = 8 against 5. Red wins by
    3 against 2 units: no losses. Blue loses half its marching units (rounded up, soldiers
    first) and the cavalry stays home on d3, where Red then attacks it.
    """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    state.buildings[cell("d3") * 7 + 4] = 1
    state.cards[BLUE] = [2]  # rally
    army(state, RED, "c3", 2)
    army(state, BLUE, "d3", 1, 1)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["play rally", "march d3 W"]}, 5, 1, 3, 3)
    (road,) = kinds(events, "road_fight")
    assert [s["strength"] for s in road.data["sides"]] == [4, 5]
    assert road.data["winner"] == [RED]
    assert road.data["loser_lost"] == {"1": [1, 0]}
    # Then the field fight on d3: Red 4 against Blue's cavalry 1 + wall 3 = 4: the tie holds.
    (fight,) = kinds(events, "fight")
    assert fight.data["sides"][1]["strength"] == 4
    assert state.owner[cell("d3")] == BLUE
    assert units(state, BLUE, "d3") == (0, 1)
    assert units(state, RED, "c3") == (0, 0)


def test_a_stack_pulled_back_is_never_caught() -> None:
    """ "A stack pulled back is never caught." Blue pulls its stack back from d3 to e3 for 1
    wood while Red marches in: no road fight, no fight; Red takes the empty d3."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3", "e3")
    state.res[BLUE][1] = 1
    army(state, RED, "c3", 1)
    army(state, BLUE, "d3", 3)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["pullback d3 E"]})
    assert not kinds(events, "road_fight") and not kinds(events, "fight")
    assert units(state, BLUE, "e3") == (3, 0)
    assert state.res[BLUE][1] == 0
    assert state.owner[cell("d3")] == RED


def test_allies_fight_as_one_side_and_never_fight_each_other() -> None:
    """ "Allies never fight each other, may march across each other's fields, and fight as
    one side when an enemy attacks them or when they attack together."

    Red and Blue (team 1) attack Green's d3 (2 soldiers, 4) from c3 and e3: 2 + 2 + 2
    flanking = 6 wins on equal rolls; the ally with the most units left (ties: the lower
    seat) takes the field. Red and Blue swapping along one edge do not fight on the road.
    """
    state = planning(seats=3, teams="112")
    own(state, GREEN, "d3")
    army(state, GREEN, "d3", 2)
    army(state, RED, "c3", 1)
    army(state, BLUE, "e3", 1)
    army(state, RED, "a1", 1)
    army(state, BLUE, "b1", 1)
    events = play_turn(
        state,
        {RED: ["march c3 E", "march a1 E"], BLUE: ["march e3 W", "march b1 W"]},
        2,
        2,
    )
    assert not kinds(events, "road_fight")
    (fight,) = kinds(events, "fight")
    allies, _green = fight.data["sides"]
    assert allies["seats"] == [RED, BLUE] and allies["strength"] == 6
    assert fight.data["winner"] == [RED, BLUE]
    assert state.owner[cell("d3")] == RED
    assert units(state, RED, "b1") == (1, 0) and units(state, BLUE, "a1") == (1, 0)


def test_allies_defend_together() -> None:
    """ "fight as one side when an enemy attacks them": Blue's soldier standing on its ally
    Red's field defends with Red's."""
    state = planning(seats=3, teams="112")
    own(state, RED, "d3")
    army(state, RED, "d3", 1)
    army(state, BLUE, "d3", 1)
    army(state, GREEN, "c3", 2)
    events = play_turn(state, {GREEN: ["march c3 E"]}, 1, 1)
    (fight,) = kinds(events, "fight")
    assert fight.data["sides"][0]["strength"] == 4
    assert fight.data["winner"] == [RED, BLUE]


def test_moon_cavalry_defends_at_two() -> None:
    """ "Moon: Its cavalry defends at 2 instead of 1." 2 cavalry hold against 2 soldiers."""
    results = []
    for house in ("tower", "moon"):
        state = planning(houses=("tower", house))
        own(state, RED, "c3")
        own(state, BLUE, "d3")
        army(state, RED, "c3", 2)
        army(state, BLUE, "d3", 0, 2)
        events = play_turn(state, {RED: ["march c3 E"]}, 3, 3)
        results.append(kinds(events, "fight")[0].data["sides"][1]["strength"])
    assert results == [2, 4]


def test_lucky_strike_rolls_twice_and_keeps_the_higher() -> None:
    """ "Lucky Strike: roll twice, keep the higher." Red rolls 1 then 5 and keeps 5."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    state.cards[RED] = [1]
    army(state, RED, "c3", 2)
    army(state, BLUE, "d3", 2)
    events = play_turn(state, {RED: ["play lucky_strike", "march c3 E"]}, 1, 5, 3)
    red = kinds(events, "fight")[0].data["sides"][0]
    assert red["roll"] == 5 and red["total"] == 6
    assert state.owner[cell("d3")] == RED


def test_rally_makes_fields_defend_as_if_walled() -> None:
    """ "Rally: your fields defend as if walled." One soldier (2 + 3) holds against two."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    state.cards[BLUE] = [2]
    army(state, RED, "c3", 2)
    army(state, BLUE, "d3", 1)
    events = play_turn(state, {RED: ["march c3 E"], BLUE: ["play rally"]}, 2, 2)
    assert kinds(events, "fight")[0].data["sides"][1]["strength"] == 5
    assert state.owner[cell("d3")] == BLUE


def test_star_draws_a_card_on_a_turn_it_loses_a_fight_at_most_one() -> None:
    """ "Star: On any turn it loses a fight, it draws a card (at most one a turn)." Blue
    (Star) loses two fields in one turn and draws one card; Red draws two for conquests."""
    state = planning(houses=("tower", "star"))
    own(state, RED, "c3", "c4")
    own(state, BLUE, "d3", "d4")
    army(state, RED, "c3", 3)
    army(state, RED, "c4", 3)
    army(state, BLUE, "d3", 1)
    army(state, BLUE, "d4", 1)
    play_turn(state, {RED: ["march c3 E", "march c4 E"]}, 5, 1, 5, 1)
    assert len(state.cards[BLUE]) == 1
    assert len(state.cards[RED]) == 2


def test_starvation_kills_one_unit_per_missing_food() -> None:
    """ "Each missing food kills a soldier or cavalry at random." Red has no food and 3
    soldiers and 1 cavalry away on unclaimed land: 3 free food against 8 eaten, 5 missing,
    so all 4 die; Blue's 2 soldiers at home eat 2 of the 3 free food and keep 1."""
    state = planning()
    state.res[RED][0] = state.res[BLUE][0] = 0
    own(state, BLUE, "e5")
    army(state, RED, "c3", 3, 1)
    army(state, BLUE, "e5", 2)
    events = play_turn(state, {})
    (starved,) = kinds(events, "starvation")
    assert starved.seat == RED and starved.data["missing"] == 5
    assert state.units(RED) == 0
    assert state.res[BLUE][0] == 1
