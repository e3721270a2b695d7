"""The seed's "Placing a Warrior" section, and the strength sentences after it."""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, InvalidAction

from .builders import (
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    CONVERT,
    ELDER,
    GUARDIAN,
    HERALD,
    HUNTER,
    NAMES,
    SCOUT,
    SHIELDBEARER,
    SKIRMISHER,
    SPEARMAN,
    WATCHER,
    WAZU,
    W,
    all_of,
    at,
    dead,
    kinds,
    only,
    place,
    position,
    sq,
    storage,
    strength,
)

ALL_FACINGS = ("N", "E", "S", "W")

# -- "Place your Warrior on a free space and rotate it in any direction." ---------------------


def test_a_warrior_may_be_placed_on_any_free_space():
    """ "Place your Warrior on a free space and rotate it in any direction." """
    state = position(
        {"a1": W(BALAN, SCOUT), "c3": W(WAZU, SCOUT), "e5": dead(WAZU, HUNTER)},
        to_place=(BALAN, HUNTER),
    )
    places = [state.game.format_action(a) for a in state.legal_actions(BALAN)]
    assert places == [n for n in NAMES if n not in ("a1", "c3", "e5")]
    place(state, BALAN, "b4")
    assert at(state, "b4")["name"] == "Hunter"


@pytest.mark.parametrize("taken", ["c3", "e5"])
def test_a_warrior_cannot_be_placed_on_a_taken_space(taken):
    """ "Place your Warrior on a free space and rotate it in any direction." -- a face-down
    warrior still takes its space."""
    state = position({"c3": W(WAZU, SCOUT), "e5": dead(WAZU, HUNTER)}, to_place=(BALAN, HUNTER))
    before = state.to_json()
    with pytest.raises(IllegalAction, match=f"{taken} is taken"):
        state.play(BALAN, taken)
    assert state.to_json() == before


@pytest.mark.parametrize("facing", ALL_FACINGS)
def test_a_warrior_may_be_rotated_in_any_direction(facing):
    """ "Place your Warrior on a free space and rotate it in any direction." """
    state = position(to_place=(BALAN, HUNTER))
    events = place(state, BALAN, "c3", facing=facing)
    assert only(events, "finish").data["facing"] == facing
    assert at(state, "c3")["facing"] == facing
    # The Hunter's one arrow turns with the tile.
    assert at(state, "c3")["arrows"] == [facing]


def test_rotation_decides_which_space_the_arrows_support_later():
    """ "Place your Warrior on a free space and rotate it in any direction." -- a Hunter
    turned east supports the space east of it, not the one north."""
    state = position({"b3": W(BALAN, HUNTER, "E")}, to_place=(BALAN, SCOUT))
    place(state, BALAN, "c3")
    assert at(state, "c3")["energy"] == 1
    state = position({"b3": W(BALAN, HUNTER, "N")}, to_place=(BALAN, SCOUT))
    place(state, BALAN, "c3")
    assert at(state, "c3")["energy"] == 0


@pytest.mark.parametrize("tile", [SCOUT, WATCHER, SPEARMAN, CHAMPION, CHIEFTAIN])
def test_rotate_in_any_direction_even_when_the_arrows_look_the_same(tile):
    """ "Place your Warrior on a free space and rotate it in any direction." """
    for facing in ALL_FACINGS:
        state = position(to_place=(BALAN, tile))
        place(state, BALAN, "c3", facing=facing)
        assert at(state, "c3")["facing"] == facing


# -- "If placed on Crystals, collect them." ----------------------------------------------


def test_placing_on_crystals_collects_them_into_storage():
    """ "If placed on Crystals, collect them." """
    state = position(to_place=(BALAN, HUNTER), crystals={"c3": (2, 1)}, storage=[(0, 1), (0, 0)])
    events = state.play(BALAN, "c3")
    assert only(events, "collect").data == {"energy": 2, "spirit": 1}
    assert storage(state, BALAN) == (2, 2)
    ground = state.view(None)["board"][sq("c3")]["crystals"]
    assert ground == {"energy": 0, "spirit": 0}
    state.play(BALAN, "N keep 2e2s")
    # Collected crystals go to storage, not onto the warrior.
    assert (at(state, "c3")["energy"], at(state, "c3")["spirit"]) == (0, 0)


def test_placing_on_an_empty_space_collects_nothing():
    """ "If placed on Crystals, collect them." """
    state = position(to_place=(BALAN, HUNTER), crystals={"d4": (1, 1)})
    events = state.play(BALAN, "c3")
    assert "collect" not in kinds(events)
    assert storage(state, BALAN) == (0, 0)


# -- "Your personal storage can hold up to 4 Crystals at the end of your turn." ------------


def test_storage_may_hold_four_crystals_at_the_end_of_the_turn():
    """ "Your personal storage can hold up to 4 Crystals at the end of your turn." """
    state = position(to_place=(BALAN, HUNTER), crystals={"c3": (1, 1)}, storage=[(1, 1), (0, 0)])
    place(state, BALAN, "c3", keep="2e2s")
    assert storage(state, BALAN) == (2, 2)
    assert (at(state, "c3")["energy"], at(state, "c3")["spirit"]) == (0, 0)


def test_storage_may_hold_more_than_four_during_the_turn():
    """ "Your personal storage can hold up to 4 Crystals at the end of your turn." """
    state = position(to_place=(BALAN, HUNTER), crystals={"c3": (2, 1)}, storage=[(2, 1), (0, 0)])
    state.play(BALAN, "c3")
    assert storage(state, BALAN) == (4, 2)


def test_storage_overflow_must_go_onto_the_placed_warrior():
    """ "Your personal storage can hold up to 4 Crystals at the end of your turn." -- what is
    over goes onto the warrior just placed (the hot tile); the player picks the colours."""
    state = position(to_place=(BALAN, HUNTER), crystals={"c3": (2, 1)}, storage=[(2, 1), (0, 0)])
    state.play(BALAN, "c3")
    finishes = [state.game.format_action(a) for a in state.legal_actions(BALAN)]
    keeps = {f.split()[-1] for f in finishes}
    assert all(int(k[0]) + int(k[2]) <= 4 for k in keeps)
    assert {"4e0s", "3e1s", "2e2s"} <= keeps
    with pytest.raises(InvalidAction, match="at most 4"):
        state.play(BALAN, "N keep 4e2s")
    events = state.play(BALAN, "N keep 3e1s")
    assert only(events, "finish").data["added"] == {"energy": 1, "spirit": 1}
    assert storage(state, BALAN) == (3, 1)
    assert (at(state, "c3")["energy"], at(state, "c3")["spirit"]) == (1, 1)


# -- Temple Relics -----------------------------------------------------------------------


def relic_position(friends=(), enemies=(), storage_=(4, 4), dead_friends=(), bag=(15, 15)):
    """Balan places a Hunter; a Temple Relic on c3; the named neighbours around it."""
    tiles = iter([SCOUT, SPEARMAN, CHAMPION, CHIEFTAIN])
    warriors = {name: W(BALAN, next(tiles)) for name in friends}
    warriors |= {name: dead(BALAN, next(tiles)) for name in dead_friends}
    enemy_tiles = iter([SCOUT, SPEARMAN, CHAMPION, CHIEFTAIN])
    warriors |= {name: W(WAZU, next(enemy_tiles)) for name in enemies}
    return position(
        warriors,
        to_place=(BALAN, HUNTER),
        relics=["c3"],
        storage=[storage_, (0, 0)],
        bag=bag,
    )


def relic_choices(state):
    return [
        state.game.format_action(a)
        for a in state.legal_actions(BALAN)
        if state.game.format_action(a).startswith("c3")
    ]


def test_a_relic_costs_four_crystals_including_at_least_one_spirit():
    """ "If placed on a Temple Relic, pay up to 4 Crystals, including at least 1 Spirit
    Crystal (white)." """
    state = relic_position(storage_=(3, 1), bag=(0, 10))
    assert state.view(None)["relic_costs"]["c3"] == [4, 4]
    assert relic_choices(state) == ["c3 s1"]
    events = state.play(BALAN, "c3 s1")
    relic = only(events, "relic").data
    assert relic["cost"] == 4
    assert relic["paid"] == {"energy": 3, "spirit": 1}
    # Storage paid 3 Energy and 1 Spirit, then drew 2 (all Spirit: the bag held only those).
    assert storage(state, BALAN) == (0, 2)


def test_a_relic_cannot_be_paid_without_a_spirit_crystal():
    """ "If placed on a Temple Relic, pay up to 4 Crystals, including at least 1 Spirit
    Crystal (white)." """
    state = relic_position(storage_=(4, 0))
    assert relic_choices(state) == []
    before = state.to_json()
    with pytest.raises(IllegalAction, match="at least 1 Spirit"):
        state.play(BALAN, "c3 s1")
    assert state.to_json() == before


def test_a_relic_cannot_be_bought_with_too_few_crystals():
    """ "If placed on a Temple Relic, pay up to 4 Crystals, including at least 1 Spirit
    Crystal (white)." """
    state = relic_position(storage_=(2, 1))
    assert relic_choices(state) == []
    with pytest.raises(IllegalAction, match="costs 4"):
        state.play(BALAN, "c3 s1")


def test_the_payer_chooses_how_many_spirit_crystals_to_pay():
    """ "If placed on a Temple Relic, pay up to 4 Crystals, including at least 1 Spirit
    Crystal (white)." """
    state = relic_position(storage_=(3, 3))
    assert relic_choices(state) == ["c3 s1", "c3 s2", "c3 s3"]
    events = state.play(BALAN, "c3 s3")
    assert only(events, "relic").data["paid"] == {"energy": 1, "spirit": 3}


def test_a_relic_space_needs_the_payment_named():
    """ "If placed on a Temple Relic, pay up to 4 Crystals ..." -- plain "c3" is refused."""
    state = relic_position()
    with pytest.raises(IllegalAction, match="holds a Temple Relic"):
        state.play(BALAN, "c3")
    with pytest.raises(IllegalAction, match="no Temple Relic"):
        state.play(BALAN, "d4 s1")


@pytest.mark.parametrize(
    ("friends", "cost"),
    [
        ((), 4),
        (("c2",), 3),
        (("c2", "c4"), 2),
        (("c2", "c4", "b3"), 1),
        (("c2", "c4", "b3", "d3"), 1),
    ],
)
def test_each_orthogonally_adjacent_friendly_warrior_reduces_the_cost(friends, cost):
    """ "Each orthogonally adjacent friendly Warrior reduces the cost by 1, to a minimum of 1
    Spirit Crystal." """
    state = relic_position(friends=friends, storage_=(4, 4))
    assert state.view(None)["relic_costs"]["c3"][BALAN] == cost
    assert relic_choices(state) == [f"c3 s{n}" for n in range(1, cost + 1)]
    events = state.play(BALAN, f"c3 s{cost}")
    assert only(events, "relic").data["cost"] == cost


def test_enemy_neighbours_do_not_reduce_the_cost():
    """ "Each orthogonally adjacent friendly Warrior reduces the cost by 1, to a minimum of 1
    Spirit Crystal." """
    state = relic_position(friends=("c2",), enemies=("c4", "b3", "d3"))
    # Balan has one friend next to the relic; Wazu has three.
    assert state.view(None)["relic_costs"]["c3"] == [3, 1]


def test_diagonal_friends_do_not_reduce_the_cost():
    """ "Each orthogonally adjacent friendly Warrior reduces the cost by 1, to a minimum of 1
    Spirit Crystal." """
    state = relic_position(friends=("b2", "d4", "b4", "d2"))
    assert state.view(None)["relic_costs"]["c3"] == [4, 4]


def test_face_down_friends_do_not_reduce_the_cost():
    """ "Each orthogonally adjacent friendly Warrior reduces the cost by 1, to a minimum of 1
    Spirit Crystal." -- a dead warrior is nobody's friend (a Decision)."""
    state = relic_position(friends=("c2",), dead_friends=("c4", "b3"))
    assert state.view(None)["relic_costs"]["c3"][BALAN] == 3


def test_the_cheapest_relic_is_one_spirit_crystal():
    """ "Each orthogonally adjacent friendly Warrior reduces the cost by 1, to a minimum of 1
    Spirit Crystal." """
    four = ("c2", "c4", "b3", "d3")
    state = relic_position(friends=four, storage_=(4, 0))
    assert relic_choices(state) == []  # Energy cannot pay the last crystal
    state = relic_position(friends=four, storage_=(0, 1), bag=(0, 10))
    events = state.play(BALAN, "c3 s1")
    assert only(events, "relic").data["paid"] == {"energy": 0, "spirit": 1}
    assert storage(state, BALAN) == (0, 2)


def test_taking_the_relic_gives_it_to_the_player_and_draws_two_crystals():
    """ "Take the Relic and draw 2 Crystals as a reward." """
    state = relic_position(storage_=(0, 4), bag=(0, 3))
    events = state.play(BALAN, "c3 s4")
    relic = only(events, "relic").data
    assert relic["drawn"] == {"energy": 0, "spirit": 2}
    assert relic["order"] == 1
    view = state.view(None)
    assert view["board"][sq("c3")]["relic"] is False
    assert view["relics"] == [[1], []]
    assert "c3" not in view["relic_costs"]
    # The 4 paid went back into the bag (a Decision), then 2 were drawn from it.
    assert view["bag"] == {"energy": 0, "spirit": 5}
    assert storage(state, BALAN) == (0, 2)
    state.play(BALAN, "N keep 0e2s")
    assert at(state, "c3")["name"] == "Hunter"


def test_the_relic_reward_counts_towards_the_storage_limit():
    """ "Take the Relic and draw 2 Crystals as a reward." with "Your personal storage can
    hold up to 4 Crystals at the end of your turn." """
    state = relic_position(friends=("c2", "c4", "b3"), storage_=(3, 2), bag=(0, 5))
    state.play(BALAN, "c3 s1")
    assert storage(state, BALAN) == (3, 3)
    with pytest.raises(InvalidAction, match="at most 4"):
        state.play(BALAN, "N keep 3e3s")
    events = state.play(BALAN, "N keep 3e1s")
    assert only(events, "finish").data["added"] == {"energy": 0, "spirit": 2}
    # (Its 2 Energy came from the Scout's and the Spearman's arrows on c2 and c4.)
    assert (at(state, "c3")["energy"], at(state, "c3")["spirit"]) == (2, 2)


# -- Support arrows ------------------------------------------------------------------------


def test_friendly_arrows_pointing_at_the_new_warrior_give_energy_from_the_supply():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals (purple), increasing its Strength." """
    state = position(
        {
            "b3": W(BALAN, SCOUT),  # arrow E points at c3
            "c2": W(BALAN, HUNTER),  # arrow N points at c3
            "d4": W(BALAN, WATCHER),  # arrow SW points at c3
        },
        to_place=(BALAN, CHAMPION),
        supply=10,
    )
    events = state.play(BALAN, "c3")
    assert only(events, "support").data == {"arrows": 3, "energy": 3}
    assert state.view(None)["supply"] == 7
    state.play(BALAN, "N keep 0e0s")
    assert at(state, "c3")["energy"] == 3
    assert strength(state, "c3") == 3 + 3


def test_enemy_arrows_give_nothing():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals (purple) ..." """
    state = position(
        {"b3": W(WAZU, SCOUT), "c2": W(WAZU, HUNTER)},
        to_place=(BALAN, CHAMPION),
    )
    events = place(state, BALAN, "c3")
    assert "support" not in kinds(events)
    assert at(state, "c3")["energy"] == 0


def test_arrows_of_dead_warriors_give_nothing():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals (purple) ..." -- a face-down tile shows no arrows (a Decision)."""
    state = position(
        {"b3": dead(BALAN, SCOUT), "c2": W(BALAN, HUNTER)},
        to_place=(BALAN, CHAMPION),
    )
    events = place(state, BALAN, "c3")
    assert only(events, "support").data["arrows"] == 1


def test_arrows_pointing_elsewhere_give_nothing():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals (purple) ..." """
    state = position(
        {
            "b3": W(BALAN, HUNTER, "N"),  # points at b4
            "c2": W(BALAN, SKIRMISHER, "N"),  # NE and SW: d3 and b1
            "d3": W(BALAN, SHIELDBEARER, "N"),  # E and W: e3 and c3 -- this one counts
        },
        to_place=(BALAN, CHAMPION),
    )
    events = place(state, BALAN, "c3")
    assert only(events, "support").data["arrows"] == 1


def test_support_never_flows_to_older_warriors():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals ..." -- only the new warrior receives; its own arrows give nothing."""
    state = position({"b3": W(BALAN, CHAMPION), "d3": W(BALAN, HUNTER)}, to_place=(BALAN, SCOUT))
    events = place(state, BALAN, "c3")
    assert "support" not in kinds(events)
    assert at(state, "b3")["energy"] == 0
    assert at(state, "d3")["energy"] == 0


def test_the_maps_edge_arrows_support_like_friendly_arrows():
    """ "After placement, friendly Support Arrows pointing toward the new Warrior give it
    Energy Crystals" -- the map's printed arrows (a Decision): 2 on a corner, 1 on an edge."""
    for name, arrows in (("a1", 2), ("e5", 2), ("c1", 1), ("a3", 1), ("c3", 0), ("b4", 0)):
        state = position(to_place=(WAZU, HUNTER))
        place(state, WAZU, name)
        assert at(state, name)["energy"] == arrows, name


def test_support_stops_when_the_supply_runs_out():
    """Support Energy comes from the supply; an empty supply gives no more (a Decision)."""
    state = position({"b1": W(BALAN, SCOUT)}, to_place=(BALAN, HUNTER), supply=2)
    events = place(state, BALAN, "a1")
    assert only(events, "support").data == {"arrows": 3, "energy": 2}
    assert state.view(None)["supply"] == 0


# -- "You may also add Crystals from your storage to the newly placed Warrior." ------------


def test_crystals_may_be_added_from_storage_to_the_new_warrior():
    """ "You may also add Crystals from your storage to the newly placed Warrior." """
    state = position(to_place=(BALAN, HUNTER), storage=[(2, 2), (0, 0)])
    events = place(state, BALAN, "c3", keep="1e0s")
    assert only(events, "finish").data["added"] == {"energy": 1, "spirit": 2}
    assert storage(state, BALAN) == (1, 0)
    assert (at(state, "c3")["energy"], at(state, "c3")["spirit"]) == (1, 2)


def test_adding_crystals_from_storage_is_optional():
    """ "You may also add Crystals from your storage to the newly placed Warrior." """
    state = position(to_place=(BALAN, HUNTER), storage=[(2, 2), (0, 0)])
    events = place(state, BALAN, "c3", keep="2e2s")
    assert only(events, "finish").data["added"] == {"energy": 0, "spirit": 0}
    assert storage(state, BALAN) == (2, 2)


def test_crystals_go_only_onto_the_newly_placed_warrior():
    """ "You may also add Crystals from your storage to the newly placed Warrior." """
    state = position(
        {"a5": W(BALAN, CHIEFTAIN)}, to_place=(BALAN, HUNTER), storage=[(3, 0), (0, 0)]
    )
    place(state, BALAN, "c3", keep="0e0s")
    assert at(state, "a5")["energy"] == 0
    assert at(state, "c3")["energy"] == 3


def test_one_cannot_keep_more_than_storage_holds():
    """ "You may also add Crystals from your storage to the newly placed Warrior." """
    state = position(to_place=(BALAN, HUNTER), storage=[(1, 0), (0, 0)])
    state.play(BALAN, "c3")
    with pytest.raises(IllegalAction, match="storage holds 1 Energy and 0 Spirit"):
        state.play(BALAN, "N keep 2e0s")


# -- Strength ------------------------------------------------------------------------------


@pytest.mark.parametrize("energy", [0, 1, 3])
def test_energy_crystals_increase_strength(energy):
    """ "Energy Crystals increase Strength." """
    state = position({"c3": W(BALAN, HUNTER, "N", energy)}, to_place=(WAZU, SCOUT))
    assert strength(state, "c3") == 2 + energy


def test_energy_added_from_storage_increases_strength():
    """ "Energy Crystals increase Strength." """
    state = position(to_place=(BALAN, GUARDIAN), storage=[(2, 0), (0, 0)])
    place(state, BALAN, "c3", keep="0e0s")
    assert strength(state, "c3") == 3 + 2


@pytest.mark.parametrize("spirit", [1, 4])
def test_spirit_crystals_do_not_increase_strength(spirit):
    """ "Spirit Crystals do not increase Strength, but are worth 1 VP each if their Warrior
    survives until game end." """
    state = position({"c3": W(BALAN, HUNTER, "N", 1, spirit)}, to_place=(WAZU, SCOUT))
    assert strength(state, "c3") == 2 + 1


# -- Elder and Convert ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("allies", "bonus"),
    [((), 0), (("c2",), 1), (("c2", "c4"), 2), (("c2", "c4", "b3", "d3"), 4)],
)
def test_elder_gains_strength_from_orthogonally_adjacent_allies(allies, bonus):
    """ "Elder: gains Strength from orthogonally adjacent allies." """
    tiles = iter([SCOUT, SPEARMAN, CHAMPION, CHIEFTAIN])
    warriors = {"c3": W(BALAN, ELDER)} | {n: W(BALAN, next(tiles)) for n in allies}
    state = position(warriors, to_place=(WAZU, SCOUT))
    assert strength(state, "c3") == 1 + bonus


def test_elder_ignores_enemies_diagonal_allies_and_the_dead():
    """ "Elder: gains Strength from orthogonally adjacent allies." """
    state = position(
        {
            "c3": W(BALAN, ELDER),
            "c2": W(WAZU, CHIEFTAIN),  # an enemy
            "b2": W(BALAN, SCOUT),  # diagonal ally
            "d4": W(BALAN, SPEARMAN),  # diagonal ally
            "c4": dead(BALAN, CHAMPION),  # a dead ally
            "b3": W(BALAN, HUNTER),  # the only one that counts
        },
        to_place=(WAZU, SCOUT),
    )
    assert strength(state, "c3") == 2


def test_elders_bonus_is_ongoing():
    """ "Two special Warriors have ongoing abilities: Elder: gains Strength from orthogonally
    adjacent allies." -- an ally placed later raises it at once."""
    state = position({"c3": W(BALAN, ELDER)}, to_place=(BALAN, CHIEFTAIN))
    assert strength(state, "c3") == 1
    place(state, BALAN, "c4")
    assert strength(state, "c3") == 2


@pytest.mark.parametrize(
    ("enemies", "bonus"),
    [((), 0), (("b2",), 1), (("b2", "d4"), 2), (("b2", "d4", "b4", "d2"), 4)],
)
def test_convert_gains_strength_from_diagonally_adjacent_enemies(enemies, bonus):
    """ "Convert: gains Strength from diagonally adjacent enemies." """
    tiles = iter([SCOUT, SPEARMAN, CHAMPION, CHIEFTAIN])
    warriors = {"c3": W(WAZU, CONVERT)} | {n: W(BALAN, next(tiles)) for n in enemies}
    state = position(warriors, to_place=(WAZU, SCOUT))
    assert strength(state, "c3") == 1 + bonus


def test_convert_ignores_allies_orthogonal_enemies_and_the_dead():
    """ "Convert: gains Strength from diagonally adjacent enemies." """
    state = position(
        {
            "c3": W(WAZU, CONVERT),
            "c2": W(BALAN, CHIEFTAIN),  # orthogonal enemy
            "b2": W(WAZU, SCOUT),  # diagonal ally
            "d4": dead(BALAN, SPEARMAN),  # a dead enemy
            "b4": W(BALAN, HUNTER),  # the only one that counts
        },
        to_place=(WAZU, HERALD),
    )
    assert strength(state, "c3") == 2


def test_converts_bonus_is_ongoing():
    """ "Two special Warriors have ongoing abilities: ... Convert: gains Strength from
    diagonally adjacent enemies." -- an enemy placed later raises it at once."""
    state = position({"c3": W(WAZU, CONVERT)}, to_place=(BALAN, CHIEFTAIN))
    assert strength(state, "c3") == 1
    place(state, BALAN, "d4")
    assert strength(state, "c3") == 2


def test_elder_and_convert_also_take_the_usual_crystals():
    """ "Energy Crystals increase Strength." -- for the Elder and the Convert too."""
    state = position(
        {"c3": W(BALAN, ELDER, "N", 2), "c4": W(BALAN, SCOUT), "d2": W(WAZU, CONVERT, "N", 1)},
        to_place=(WAZU, SCOUT),
    )
    assert strength(state, "c3") == 1 + 2 + 1
    # The Convert sees the Elder diagonally (c3 is NW of d2) but not the Scout.
    assert strength(state, "d2") == 1 + 1 + 1


def test_support_events_report_each_arrow():
    """Support is reported once per placement, with the arrows that fired."""
    state = position({"b2": W(BALAN, WATCHER), "d2": W(BALAN, HERALD)}, to_place=(BALAN, HUNTER))
    events = place(state, BALAN, "c3")
    # Watcher on b2: NE -> c3. Herald on d2 (N, NE, E): none points at c3.
    assert [e.data for e in all_of(events, "support")] == [{"arrows": 1, "energy": 1}]
