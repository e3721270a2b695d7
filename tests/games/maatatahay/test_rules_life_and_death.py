"""The seed's "Life & Death" section, sentence by sentence."""

from __future__ import annotations

import pytest

from .builders import (
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    CONVERT,
    ELDER,
    GUARDIAN,
    HUNTER,
    SCOUT,
    SPEARMAN,
    WAZU,
    W,
    alive,
    all_of,
    at,
    dead,
    kinds,
    only,
    place,
    position,
    strength,
)


def surround(energy=0, spirit=0, c4=None, extra=None, **kwargs):
    """A Wazu Hunter (2 fangs + ``energy``) on c3, closed in by Balan on c2 (Champion, 3),
    b3 (Guardian, 3, arrow pointing away) and c4 (Chieftain, 4, unless ``c4`` says
    otherwise). Balan is about to place a Scout (1, no support on d3), which closes the last
    side: 3 + 4 + 3 + 1 = 11 against the Hunter."""
    warriors = {
        "c3": W(WAZU, HUNTER, "N", energy, spirit),
        "c2": W(BALAN, CHAMPION),
        "b3": W(BALAN, GUARDIAN),
        "c4": W(BALAN, CHIEFTAIN) if c4 is None else c4,
    }
    warriors = {k: v for k, v in warriors.items() if v != "empty"}
    warriors |= extra or {}
    return position(warriors, to_place=(BALAN, SCOUT), **kwargs)


def fights(events):
    return {
        e.data["space"]: (e.data["strength"], e.data["against"])
        for e in events
        if e.kind == "fight"
    }


# -- "Whenever a Warrior becomes completely surrounded orthogonally, it must fight alone." --


def test_a_warrior_fights_when_its_last_open_side_is_closed():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." """
    state = surround(energy=20)
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (22, 11)}
    assert only(events, "fight").seat == WAZU


def test_a_warrior_with_an_open_side_does_not_fight():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." """
    state = surround(c4="empty")
    events = place(state, BALAN, "d3")
    assert "fight" not in kinds(events)
    assert alive(state, "c3")
    assert at(state, "c3")["surrounded"] is False


def test_diagonal_spaces_do_not_matter_for_being_surrounded():
    """ "Whenever a Warrior becomes completely surrounded orthogonally ..." """
    state = surround(
        c4="empty",
        extra={"b2": W(BALAN, SPEARMAN), "d2": W(BALAN, HUNTER), "b4": W(BALAN, ELDER)},
    )
    events = place(state, BALAN, "d4")
    assert "fight" not in kinds(events)


@pytest.mark.parametrize(
    ("defender", "closers", "last", "attack"),
    [
        ("a3", {"a2": CHAMPION, "a4": CHIEFTAIN}, "b3", 3 + 4 + 1),  # edge: one side is the edge
        ("a1", {"a2": CHAMPION}, "b1", 3 + 1 + 1),  # corner: two sides; b1 gets 1 edge arrow
    ],
)
def test_the_board_edge_counts_as_a_closed_side(defender, closers, last, attack):
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- the edge of the map closes a side (a Decision)."""
    warriors = {defender: W(WAZU, HUNTER)} | {n: W(BALAN, t) for n, t in closers.items()}
    state = position(warriors, to_place=(BALAN, SCOUT))
    events = place(state, BALAN, last)
    assert fights(events) == {defender: (2, attack)}
    assert not alive(state, defender)


def test_a_face_down_warrior_closes_a_side_but_does_not_attack():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- a dead tile stays on its space and closes it (a Decision)."""
    state = surround(energy=20, c4=dead(BALAN, CHIEFTAIN))
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (22, 3 + 3 + 1)}


def test_an_unclaimed_relic_leaves_a_side_open():
    """ "Whenever a Warrior becomes completely surrounded orthogonally ..." -- a Temple Relic
    space could still be entered, so it is open (a Decision)."""
    state = surround(c4="empty", relics=["c4"])
    events = place(state, BALAN, "d3")
    assert "fight" not in kinds(events)


def test_with_relic_blocks_an_unclaimed_relic_closes_a_side():
    """ "Whenever a Warrior becomes completely surrounded orthogonally ..." -- the option
    ``relic_blocks`` makes an unclaimed Temple Relic close a side."""
    state = surround(c4="empty", relics=["c4"], relic_blocks=True)
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (2, 3 + 3 + 1)}
    assert not alive(state, "c3")


def test_a_warrior_already_surrounded_does_not_fight_again():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- only on becoming surrounded, once."""
    state = position(
        {"b2": W(WAZU, CHIEFTAIN, "N", 10), "a2": W(BALAN, SCOUT), "b1": W(BALAN, SPEARMAN)},
        relics=["c2"],
        to_place=(BALAN, HUNTER),
        other=CHAMPION,
        storage=[(0, 0), (2, 2)],
        relic_blocks=True,
    )
    events = place(state, BALAN, "b3")  # b2's last open side: it fights (and survives)
    assert fights(events) == {"b2": (14, 1 + 2 + 2)}
    events = place(state, WAZU, "c2 s1")  # Wazu takes the relic next to its own b2
    assert "fight" not in kinds(events)


def test_the_newly_placed_warrior_itself_fights_when_placed_into_a_hole():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- the warrior just placed included."""
    state = position(
        {
            "c2": W(BALAN, CHAMPION),
            "c4": W(BALAN, CHIEFTAIN),
            "b3": W(BALAN, GUARDIAN),
            "d3": W(BALAN, SCOUT),
        },
        to_place=(WAZU, HUNTER),
    )
    events = place(state, WAZU, "c3")
    assert fights(events) == {"c3": (2, 3 + 4 + 3 + 1)}
    assert not alive(state, "c3")
    assert state.view(None)["lost"] == [0, 1]


def test_it_fights_alone_allies_around_it_do_not_help():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- a friendly neighbour closes the side but neither defends nor attacks."""
    state = surround(energy=6, c4=W(WAZU, CHIEFTAIN, "N", 5))
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (8, 3 + 3 + 1)}
    assert alive(state, "c3")


def test_a_player_can_close_the_last_side_of_their_own_warrior():
    """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
    alone." -- whoever closes the side."""
    state = position(
        {
            "c3": W(BALAN, SCOUT, "N", 0, 2),
            "c2": W(WAZU, CHAMPION),
            "c4": W(WAZU, SPEARMAN),
            "b3": W(WAZU, HUNTER),
        },
        to_place=(BALAN, CHIEFTAIN),
    )
    events = place(state, BALAN, "d3")
    # Balan's own Chieftain on d3 does not attack its ally: 3 + 2 + 2 against 1 + 1 support.
    assert fights(events) == {"c3": (1, 7)}
    assert not alive(state, "c3")
    assert state.view(None)["lost"] == [1, 0]
    # Its Spirit crystals still move to the newly placed warrior.
    assert at(state, "d3")["spirit"] == 2


# -- "Compare its Strength against the combined Strength of the surrounding enemies:" ------


def test_the_attack_is_the_combined_strength_of_the_surrounding_enemies():
    """ "Compare its Strength against the combined Strength of the surrounding enemies:" --
    crystals and abilities count for the attackers too."""
    state = surround(
        energy=20,
        c4=W(BALAN, ELDER, "N", 1),  # 1 fang + 1 Energy + 1 for the ally on c5
        extra={"c5": W(BALAN, CHIEFTAIN), "b2": W(BALAN, CONVERT)},
    )
    # Balan's Convert on b2 sees no enemy diagonally, and as a diagonal neighbour of c3 it
    # does not attack.
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (22, 3 + 3 + 3 + 1)}


def test_the_defenders_strength_includes_its_crystals_and_ability():
    """ "Compare its Strength against the combined Strength of the surrounding enemies:" """
    state = position(
        {
            "c3": W(WAZU, CONVERT, "N", 2, 5),  # 1 + 2 Energy + 2 diagonal enemies; no Spirit
            "b2": W(BALAN, SPEARMAN),
            "d4": W(BALAN, HUNTER),
            "c2": W(BALAN, CHAMPION),
            "c4": W(BALAN, CHIEFTAIN),
            "b3": W(BALAN, GUARDIAN),
        },
        to_place=(BALAN, SCOUT),
    )
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (5, 3 + 4 + 3 + 1)}


def test_a_surrounded_warrior_with_no_enemy_next_to_it_survives():
    """ "Compare its Strength against the combined Strength of the surrounding enemies:" --
    no enemies, nothing to fight."""
    state = position({"a1": W(BALAN, SCOUT), "b1": W(BALAN, CHAMPION)}, to_place=(BALAN, CHIEFTAIN))
    events = place(state, BALAN, "a2")
    assert fights(events)["a1"][1] == 0
    assert alive(state, "a1")


# -- "Equal or higher -> survives" / "Lower -> dies" ---------------------------------------


def test_equal_strength_survives():
    """ "Equal or higher → survives" """
    state = surround(energy=9)
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (11, 11)}
    assert only(events, "fight").data["survives"] is True
    assert alive(state, "c3")
    assert "death" not in kinds(events)


def test_higher_strength_survives():
    """ "Equal or higher → survives" """
    state = surround(energy=10)
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (12, 11)}
    assert alive(state, "c3")


def test_lower_strength_dies():
    """ "Lower → dies" """
    state = surround(energy=8)
    events = place(state, BALAN, "d3")
    assert fights(events) == {"c3": (10, 11)}
    assert only(events, "fight").data["survives"] is False
    assert only(events, "death").data == {"space": "c3"}
    assert only(events, "death").seat == WAZU
    assert not alive(state, "c3")
    assert state.view(None)["lost"] == [0, 1]


# -- "A dead Warrior is flipped facedown and loses its Energy Crystals." ------------------


def test_a_dead_warrior_is_flipped_face_down_and_stays_on_its_space():
    """ "A dead Warrior is flipped facedown and loses its Energy Crystals." """
    state = surround(energy=1)
    place(state, BALAN, "d3")
    warrior = at(state, "c3")
    assert warrior is not None
    assert (warrior["seat"], warrior["name"], warrior["alive"]) == (WAZU, "Hunter", False)
    assert warrior["strength"] == 0
    assert state.to_json()["board"][12]["warrior"]["alive"] is False
    # The space stays taken.
    assert "c3" not in [state.game.format_action(a) for a in state.legal_actions(state.placing)]


def test_a_dead_warrior_loses_its_energy_crystals_to_the_supply():
    """ "A dead Warrior is flipped facedown and loses its Energy Crystals." """
    state = surround(energy=8, supply=5)
    place(state, BALAN, "d3")
    assert at(state, "c3")["energy"] == 0
    assert state.view(None)["supply"] == 5 + 8


# -- Spirit crystals of the dead -----------------------------------------------------------


def test_the_dead_warriors_spirit_crystals_move_to_the_newly_placed_warrior():
    """ "Its Spirit Crystals are transferred to the newly placed Warrior." """
    state = surround(energy=0, spirit=3)
    events = place(state, BALAN, "d3")
    assert only(events, "spirit_transfer").data == {"to": "d3", "spirit": 3}
    assert at(state, "c3")["spirit"] == 0
    assert at(state, "d3")["spirit"] == 3
    # Spirit does not add strength to the new warrior.
    assert strength(state, "d3") == 1


def test_spirit_crystals_of_several_dead_all_move_to_the_newly_placed_warrior():
    """ "Its Spirit Crystals are transferred to the newly placed Warrior." """
    state = position(
        {
            "b3": W(WAZU, SCOUT, "N", 0, 1),
            "b2": W(BALAN, CHAMPION),
            "b4": W(BALAN, CHIEFTAIN),
            "a3": W(BALAN, SPEARMAN),
            "d3": W(WAZU, HUNTER, "N", 0, 2),
            "d2": W(BALAN, GUARDIAN),
            "d4": W(BALAN, ELDER),
            "e3": W(BALAN, SCOUT),
        },
        to_place=(BALAN, HUNTER),
        storage=[(0, 1), (0, 0)],
    )
    events = place(state, BALAN, "c3", keep="0e0s")
    assert sorted(e.data["space"] for e in all_of(events, "death")) == ["b3", "d3"]
    assert only(events, "spirit_transfer").data == {"to": "c3", "spirit": 3}
    assert at(state, "c3")["spirit"] == 1 + 3


def test_if_the_newly_placed_warrior_dies_the_spirit_crystals_are_removed():
    """ "If the newly placed Warrior itself dies, its Spirit Crystals are removed instead." --
    its own and those of the warriors it killed; they leave the game."""
    state = position(
        {
            # Balan's Scout on c2 (1 Spirit) has one open side left: c3.
            "c2": W(BALAN, SCOUT, "N", 0, 1),
            "c1": W(WAZU, SCOUT),
            "b2": W(WAZU, SPEARMAN),
            "d2": W(WAZU, CHAMPION),
            # c3 itself is a hole among Balan warriors.
            "c4": W(BALAN, CHIEFTAIN),
            "b3": W(BALAN, CHAMPION),
            "d3": W(BALAN, GUARDIAN),
        },
        to_place=(WAZU, HUNTER),
        storage=[(0, 0), (0, 2)],
        bag=(4, 4),
    )
    events = place(state, WAZU, "c3", keep="0e0s")  # the Hunter carries 2 Spirit in
    assert fights(events) == {"c3": (2, 1 + 4 + 3 + 3), "c2": (1, 1 + 2 + 3 + 2)}
    assert sorted(e.data["space"] for e in all_of(events, "death")) == ["c2", "c3"]
    assert only(events, "spirit_removed").data == {"spirit": 3}
    assert "spirit_transfer" not in kinds(events)
    assert at(state, "c2")["spirit"] == 0
    assert at(state, "c3")["spirit"] == 0
    view = state.view(None)
    assert view["bag"] == {"energy": 4, "spirit": 4}
    assert view["storage"][WAZU] == {"energy": 0, "spirit": 0}
    assert view["lost"] == [1, 1]


def test_all_fights_are_judged_before_anyone_falls():
    """Fights after one placement are judged on the board as it stands, then the dead are
    flipped together (a Decision): the dying Hunter still adds its strength against c2."""
    state = position(
        {
            "c2": W(BALAN, SCOUT),
            "c1": W(WAZU, SCOUT),
            "b2": W(WAZU, SPEARMAN),
            "d2": W(WAZU, CHAMPION),
            "c4": W(BALAN, CHIEFTAIN),
            "b3": W(BALAN, CHAMPION),
            "d3": W(BALAN, GUARDIAN),
        },
        to_place=(WAZU, HUNTER),
    )
    events = place(state, WAZU, "c3")
    assert fights(events)["c2"] == (1, 1 + 2 + 3 + 2)
    assert fights(events)["c3"] == (2, 1 + 4 + 3 + 3)
