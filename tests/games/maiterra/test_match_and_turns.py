"""The seed's "A match", "Turns", "People, food and coins", "Buildings" and "Armies"
sections, sentence by sentence."""

from __future__ import annotations

import itertools

import pytest

from meeple.core.errors import IllegalAction, NotYourDecision
from meeple.core.hexgrid import connected
from meeple.games.maiterra import Maiterra
from meeple.games.maiterra.data import NEIGHBOURS, RULES, WORKER_BUILDINGS
from meeple.games.maiterra.lakeland import LAKE, is_fair

from .helpers import army, cell, kinds, own, planning, play_turn, units

RED, BLUE = 0, 1
FOOD, WOOD, BRICK, COINS = range(4)


# -- A match --------------------------------------------------------------------------------


@pytest.mark.parametrize(("seats", "fields"), [(2, 17), (3, 16), (4, 22)])
def test_lakeland_has_17_16_or_22_fields_around_lakes_that_move(seats: int, fields: int) -> None:
    """ "A match has 2 to 4 seats. The board is Lakeland: 17, 16 or 22 fields for 2, 3 or 4
    seats, around lakes that fall somewhere new every match." Every draw is fair: connected
    land, every field with 2 to 5 land neighbours (on a lake or the shore), every worker
    building with a slot on at least one field per seat, and two vales per seat (a slot for
    each worker building), so every seat can draft two of them. (At 4 seats 105 ways of
    placing the 3 lakes are fair, so 40 draws repeat a few lake layouts; the terrains on
    them differ.)"""
    game = Maiterra(seats=seats)
    maps, layouts = set(), set()
    for seed in range(40):
        terrain = game.new_initial_state(seed).terrain
        land = [c for c in range(25) if terrain[c] != LAKE]
        assert len(land) == fields
        assert connected(land, NEIGHBOURS)
        assert is_fair(terrain, seats, game.rules)
        for building in WORKER_BUILDINGS:
            assert sum(1 for c in land if RULES.slots[terrain[c]][building]) >= seats
        for c in land:
            near = sum(1 for n in NEIGHBOURS[c] if n >= 0 and terrain[n] != LAKE)
            assert RULES.min_land_neighbours <= near <= RULES.max_land_neighbours == 5
        vales = sum(1 for c in land if RULES.terrains[terrain[c]] == "vale")
        assert vales == RULES.vale_per_seat * seats == RULES.draft_fields * seats
        layouts.add(tuple(land))
        maps.add(tuple(terrain))
    assert len(layouts) > 20
    assert len(maps) == 40


def test_houses_are_picked_all_at_once_and_hidden_until_all_have_locked() -> None:
    """ "Before the draft every seat picks a house, all at once." / "Nobody sees another
    seat's house until all have locked. Houses may repeat." """
    state = Maiterra(seats=3).new_initial_state(1)
    assert state.deciding_seats() == (0, 1, 2)
    events = state.play(1, "house moon")
    assert [e.audience for e in events if e.kind == "house_picked"] == [(1,)]
    assert state.deciding_seats() == (0, 2)
    assert state.view(1)["seats"][1]["house"] == "Moon"
    assert state.view(0)["seats"][1] == {**state.view(0)["seats"][1], "house": None}
    assert state.view(0)["seats"][1]["house_locked"] is True
    assert state.view(None)["seats"][1]["house"] is None
    with pytest.raises(NotYourDecision):
        state.play(1, "house star")
    state.play(0, "house moon")
    state.play(2, "house sun")
    assert [row["house"] for row in state.view(0)["seats"]] == ["Moon", "Moon", "Sun"]


def test_opening_three_food_four_people_and_a_draft_of_two_free_fields_by_die_roll() -> None:
    """ "Then each seat opens with 3 food and 4 people, and drafts 2 free fields. Draft order
    is by die roll." Highest roll first, ties rolled again, snake order; each drafted field
    starts with one soldier (a Decision)."""
    state = Maiterra(seats=3).new_initial_state(5)
    for seat in range(3):
        state.play(seat, "house tower")
    assert state.res == [[3, 0, 0, 0]] * 3 and state.people == [4, 4, 4]
    first_round = state.draft_order[:3]
    assert state.draft_order == first_round + first_round[::-1]
    while state.phase == 1:
        (seat,) = state.deciding_seats()
        state.apply(seat, state.legal_actions(seat)[0])
    assert [state.fields(s) for s in range(3)] == [2, 2, 2]
    assert [state.units(s) for s in range(3)] == [2, 2, 2]
    assert state.turn == 1


def test_draft_order_rolls_are_recorded_highest_first() -> None:
    """ "Draft order is by die roll." """
    state = Maiterra(seats=4).new_initial_state(9)
    events = []
    for seat in range(4):
        events += state.play(seat, "house star")
    (order,) = kinds(events, "draft_order")
    last = [rolls[-1] for rolls in order.data["rolls"]]
    firsts = order.data["order"][:4]
    assert len(set(firsts)) == 4
    assert all(
        last[a] >= last[b] or len(order.data["rolls"][a]) != len(order.data["rolls"][b])
        for a, b in itertools.pairwise(firsts)
    )


# -- Turns ----------------------------------------------------------------------------------


def test_everyone_queues_then_the_turn_resolves_for_all_together() -> None:
    """ "Turns are simultaneous: everyone queues orders, then the turn resolves for all seats
    together". Queued orders are sealed: only the queuing seat sees them."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    state.res[RED][COINS] = 5
    events = state.play(RED, "trade coins for wood")
    assert events[0].audience == (RED,)
    assert state.view(RED)["queue"] == ["trade coins for wood"]
    assert state.view(BLUE)["queue"] == []
    assert "trade" not in str(state.view(BLUE)) and "trade" not in str(state.view(None))
    assert state.deciding_seats() == (RED, BLUE)
    state.play(RED, "end")
    assert state.deciding_seats() == (BLUE,)
    assert state.res[RED][WOOD] == 0  # nothing resolves before every seat has ended
    events = state.play(BLUE, "end")
    assert kinds(events, "resolve")
    assert state.res[RED][WOOD] == 1 and state.turn == 2


def test_the_resolution_runs_in_the_written_order() -> None:
    """ "in this order: Orders are checked and paid for ... Armies march ... Fights ...
    Claims. Buildings and training finish. Production. Bank trades pay out. Food is eaten;
    starvation. Growth. Cards are drawn and victory is checked." """
    state = planning()
    own(state, RED, "c3", "c4")
    own(state, BLUE, "d3", "e5")
    state.buildings[cell("c4") * 7 + 0] = 1
    state.res[RED] = [0, 3, 3, 10]
    army(state, RED, "c3", 3)
    army(state, RED, "c4", 2)
    army(state, BLUE, "d3", 1)
    events = play_turn(
        state,
        {
            RED: [
                "march c3 E",
                "march c4 W",
                "claim b4",
                "build barracks c4",
                "trade coins for food",
            ]
        },
        4,
        1,
    )
    order = [e.kind for e in events]
    wanted = ["orders", "marched", "fight", "claimed", "built", "produced", "bank", "turn"]
    positions = [order.index(kind) for kind in wanted]
    assert positions == sorted(positions)


def test_you_spend_only_what_you_hold() -> None:
    """ "Orders are checked and paid for. You spend only what you hold." An order the seat
    cannot pay for with what is left after its earlier orders is not legal to queue."""
    state = planning()
    own(state, RED, "c3")
    state.res[RED] = [0, 0, 3, 1]
    state.play(RED, "build barracks c3")
    with pytest.raises(IllegalAction, match="a wall costs 2 wood and 2 brick; you have no food"):
        state.play(RED, "build wall c3")
    with pytest.raises(IllegalAction):
        state.play(RED, "trade brick for wood")
    assert state.budget(RED).res == [0, 0, 0, 0]


def test_armies_march_one_field_cavalry_two_and_a_ride_cannot_pass_another_army() -> None:
    """ "Armies march: 1 field, or 2 for cavalry (a ride cannot pass another army)." A ride
    stops on the field in between when another seat's army stands there."""
    state = planning()
    army(state, RED, "a1", 1, 1)
    legal = {state.game.format_action(a) for a in state.legal_actions(RED)}
    assert "march a1 E" in legal and "march a1 E-E" not in legal
    assert "march a1 E-E cavalry" in legal and "march a1 E-E soldiers" not in legal
    army(state, BLUE, "b1", 1)
    army(state, RED, "a3", 0, 1)
    play_turn(state, {RED: ["march a1 E-E cavalry", "march a3 E-E"]}, 1, 1)
    assert units(state, RED, "c3") == (0, 1)  # a3 -> b3 -> c3: nothing in the way
    assert units(state, RED, "c1") == (0, 0)  # stopped on b1, where Blue stood


def test_marching_is_free_and_pulling_back_costs_one_wood() -> None:
    """ "Marching is free. Pulling a stack back before the fight costs 1 wood." """
    state = planning()
    own(state, RED, "c3", "d3")
    army(state, RED, "c3", 2)
    legal = {state.game.format_action(a) for a in state.legal_actions(RED)}
    assert "march c3 E" in legal and "pullback c3 E" not in legal
    state.res[RED][WOOD] = 1
    assert "pullback c3 E" in {state.game.format_action(a) for a in state.legal_actions(RED)}
    play_turn(state, {RED: ["pullback c3 E"]})
    assert units(state, RED, "d3") == (2, 0) and state.res[RED][WOOD] == 0


def test_claims_need_one_soldier_standing_and_one_wood_and_one_coin() -> None:
    """ "To claim an empty field, stand 1 soldier on it and pay 1 wood and 1 coin." A claim
    whose soldier is not standing there fails and is refunded (a Decision)."""
    state = planning()
    army(state, RED, "c3", 1)
    army(state, RED, "a1", 0, 1)
    state.res[RED] = [20, 2, 0, 2]
    events = play_turn(state, {RED: ["claim c3", "claim a1"]})
    assert state.owner[cell("c3")] == RED
    assert state.owner[cell("a1")] == -1  # cavalry cannot claim
    assert kinds(events, "claim_failed")
    assert state.res[RED][WOOD] == 1
    assert state.points(RED) == 2


def test_buildings_and_training_finish_and_produce_from_the_turn_after() -> None:
    """ "Buildings and training finish." / "Production. A building produces from the turn
    after it is built." / "It makes 2 a turn, or 4 on a field with a science centre." """
    state = planning()
    own(state, RED, "c3")
    state.res[RED] = [20, 0, 10, 10]
    own(state, BLUE, "e5")
    play_turn(state, {RED: ["build farm c3", "build science c3", "build barracks c3"]})
    assert state.building(cell("c3"), 0) == 1
    assert state.res[RED][FOOD] == 20 + 3  # no production yet; 3 free food
    assert units(state, RED, "c3") == (0, 0)  # no barracks stood when the order was paid
    events = play_turn(state, {RED: ["train soldier c3"]})
    assert kinds(events, "produced")[0].data["food"] == 4
    assert units(state, RED, "c3") == (1, 0)


def test_sabotage_stops_an_enemy_fields_production_for_the_turn() -> None:
    """ "Sabotage: an enemy field produces nothing next turn." """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    state.buildings[cell("e5") * 7 + 1] = 1
    state.cards[RED] = [3]
    events = play_turn(state, {RED: ["play sabotage e5"]})
    assert kinds(events, "sabotaged")[0].seat == BLUE
    assert state.res[BLUE][WOOD] == 0
    play_turn(state, {})
    assert state.res[BLUE][WOOD] == 2


def test_bank_swaps_three_to_one_never_people_and_a_soldier_sells_for_two_food() -> None:
    """ "Bank: Swap any resource for any other at 3 to 1, never people. A soldier can be
    sold for 2 food." Trades pay out after production."""
    state = planning()
    own(state, RED, "c3")
    army(state, RED, "c3", 2)
    state.res[RED] = [0, 0, 6, 0]
    play_turn(state, {RED: ["trade brick for coins", "trade brick for wood", "sell c3"]})
    assert state.res[RED][WOOD] == 1
    assert units(state, RED, "c3") == (1, 0)
    assert state.res[RED][FOOD] == 2 + 3 - 1
    with pytest.raises(ValueError, match="not a resource"):
        state.game.parse_action("trade people for food")


def test_food_three_free_plus_farms_armies_eat_one_at_home_two_away_and_sun() -> None:
    """ "Food: 3 a turn for free, plus farms. Only armies eat: a soldier or cavalry eats 1
    at home and 2 away. People and workers eat nothing." / "Sun: +1 food a turn for every
    three farms it has standing." """
    for house, bonus in (("tower", 0), ("sun", 1)):
        state = planning(houses=(house, "tower"))
        own(state, RED, "c3", "c4")
        state.buildings[cell("c3") * 7 + 0] = 2
        state.buildings[cell("c4") * 7 + 0] = 1
        state.res[RED][FOOD] = 0
        army(state, RED, "c3", 1)
        army(state, RED, "a1", 1)
        play_turn(state, {})
        assert state.res[RED][FOOD] == 3 + 6 + bonus - 1 - 2


def test_growth_one_per_house_up_to_four_plus_two_per_house_and_coins_per_person() -> None:
    """ "People: +1 a turn for every house you have, up to a cap of 4 plus 2 per house.
    Growth costs no food." / "Coins: 1 a turn per person, idle or working." """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    state.buildings[cell("c3") * 7 + 3] = 2
    state.buildings[cell("c3") * 7 + 0] = 1
    sizes = []
    for _ in range(4):
        play_turn(state, {})
        sizes.append(state.people[RED])
    assert sizes == [6, 8, 8, 8]
    assert state.res[RED][COINS] == 6 + 8 + 8 + 8
    assert state.res[BLUE][COINS] == 16


def test_workers_cost_a_person_and_need_a_matching_slot() -> None:
    """ "A farm, sawmill or brickworks costs 1 person and needs a matching slot on the
    field's terrain." A meadow has 2 farm slots and no sawmill slot."""
    state = planning()
    own(state, RED, "c3")
    state.terrain[cell("c3")] = RULES.terrains.index("meadow")
    state.people[RED] = 3
    legal = {state.game.format_action(a) for a in state.legal_actions(RED)}
    assert "build farm c3" in legal and "build sawmill c3" not in legal
    state.play(RED, "build farm c3")
    state.play(RED, "build farm c3")
    assert "build farm c3" not in {state.game.format_action(a) for a in state.legal_actions(RED)}


@pytest.mark.parametrize(
    ("building", "limit", "cost"),
    [
        ("house", 2, [0, 1, 3, 0]),
        ("wall", 1, [0, 2, 2, 0]),
        ("barracks", 1, [0, 0, 3, 1]),
        ("science", 1, [0, 0, 3, 2]),
    ],
)
def test_building_costs_and_limits_per_field(building: str, limit: int, cost: list[int]) -> None:
    """ "House (2 a field) | 3 brick, 1 wood", "Wall (1 a field) | 2 brick, 2 wood",
    "Barracks (1 a field) | 3 brick, 1 coin", "Science centre (1 a field, 1 a seat) | 3
    brick, 2 coins"."""
    state = planning()
    own(state, RED, "c3")
    state.res[RED] = [0, 99, 99, 99]
    for _ in range(limit):
        state.play(RED, f"build {building} c3")
    assert state.budget(RED).res == [
        0,
        99 - cost[1] * limit,
        99 - cost[2] * limit,
        99 - cost[3] * limit,
    ]
    assert f"build {building} c3" not in {
        state.game.format_action(a) for a in state.legal_actions(RED)
    }


def test_one_science_centre_a_seat_two_for_tower() -> None:
    """ "Science centre (1 a field, 1 a seat)" / "Tower: May build two science centres
    instead of one (still one a field)." """
    for house, allowed in (("moon", 1), ("tower", 2)):
        state = planning(houses=(house, "moon"))
        own(state, RED, "c3", "c4", "c5")
        state.res[RED] = [0, 0, 99, 99]
        built = 0
        for name in ("c3", "c4", "c5"):
            if f"build science {name}" in {
                state.game.format_action(a) for a in state.legal_actions(RED)
            }:
                state.play(RED, f"build science {name}")
                built += 1
        assert built == allowed


def test_walls_eat_nothing_and_units_cost_coins_at_a_barracks() -> None:
    """ "Wall ... eats nothing" / "Soldier | 2 coins", "Cavalry | 1 wood, 4 coins" at a
    barracks: "Trains units on that field." """
    state = planning()
    own(state, RED, "c3")
    state.buildings[cell("c3") * 7 + 5] = 1
    state.buildings[cell("c3") * 7 + 4] = 1
    state.res[RED] = [0, 1, 0, 6]
    play_turn(state, {RED: ["train soldier c3", "train cavalry c3"]})
    assert units(state, RED, "c3") == (1, 1)
    assert state.res[RED][FOOD] == 3 - 2


def test_storage_holds_at_most_99_of_each() -> None:
    """ "Storage | At most 99 of each." """
    state = planning()
    own(state, RED, "c3")
    state.buildings[cell("c3") * 7 + 2] = 1
    state.res[RED] = [98, 0, 98, 98]
    play_turn(state, {})
    assert state.res[RED] == [99, 0, 99, 99]
