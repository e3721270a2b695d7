"""The seed's "Turn" section: one round of Maatatahay, sentence by sentence."""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, NotYourDecision

from .builders import (
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    CONVERT,
    ELDER,
    GAME,
    GUARDIAN,
    HUNTER,
    SCOUT,
    SPEARMAN,
    WAZU,
    W,
    all_of,
    at,
    only,
    place,
    position,
)

STREAM = [(HUNTER, SCOUT), (ELDER, CONVERT), (CHIEFTAIN, GUARDIAN)]


def test_active_player_chooses_one_of_the_three_pairs_in_the_stream():
    """ "The Active Player chooses a pair of Warrior tiles, one for each player." """
    for seed in range(5):
        state = GAME.new_initial_state(seed)
        view = state.view(None)
        assert len(view["stream"]) == 3
        assert view["phase"] == "pick"
        assert state.deciding_seats() == (view["active"],)
        assert state.legal_actions(view["active"]) == [0, 1, 2]
        assert state.legal_actions(1 - view["active"]) == []
        with pytest.raises(NotYourDecision):
            state.play(1 - view["active"], "pick 1")


def test_the_picked_pair_holds_one_tile_for_each_player():
    """ "The Active Player chooses a pair of Warrior tiles, one for each player." """
    state = position(stream=STREAM, active=WAZU)
    events = state.play(WAZU, "pick 1")
    assert only(events, "pick").data == {"pair": 1, "tiles": [HUNTER, SCOUT]}
    pair = state.view(None)["pair"]
    assert [pair[BALAN]["name"], pair[WAZU]["name"]] == ["Hunter", "Scout"]
    # The pair leaves the stream; the other two stay.
    assert [[a["id"], b["id"]] for a, b in state.view(None)["stream"]] == [
        [ELDER, CONVERT],
        [CHIEFTAIN, GUARDIAN],
    ]
    # Each player places their own tile of the pair.
    state.play(WAZU, "first W")  # Wazu's Scout is the weaker tile
    place(state, WAZU, "c3")
    assert at(state, "c3")["seat"] == WAZU and at(state, "c3")["name"] == "Scout"
    place(state, BALAN, "a3")
    assert at(state, "a3")["seat"] == BALAN and at(state, "a3")["name"] == "Hunter"


def test_only_pairs_in_the_stream_can_be_picked():
    """ "The Active Player chooses a pair of Warrior tiles, one for each player." """
    state = position(stream=STREAM[:2], active=BALAN)
    assert state.legal_actions(BALAN) == [0, 1]
    with pytest.raises(IllegalAction, match="stream holds 2 pair"):
        state.play(BALAN, "pick 3")


@pytest.mark.parametrize(
    ("pair", "active", "decider"),
    [
        ((SCOUT, HUNTER), WAZU, BALAN),  # Balan's Scout (1 fang) is weaker than the Hunter (2)
        ((SCOUT, HUNTER), BALAN, BALAN),
        ((CHIEFTAIN, GUARDIAN), BALAN, WAZU),  # Wazu's Guardian (3) is weaker than 4
        ((CHIEFTAIN, GUARDIAN), WAZU, WAZU),
    ],
)
def test_weaker_warriors_owner_chooses_who_places_first(pair, active, decider):
    """ "The player receiving the weaker Warrior chooses who plays first." """
    state = position(stream=[pair], active=active)
    events = state.play(active, "pick 1")
    assert state.view(None)["phase"] == "order"
    assert state.deciding_seats() == (decider,)
    assert state.view(None)["decider"] == decider
    with pytest.raises(NotYourDecision):
        state.play(1 - decider, "first B")
    assert kinds_are(events, ["pick"])


def kinds_are(events, expected):
    return [e.kind for e in events] == expected


@pytest.mark.parametrize("first", [BALAN, WAZU])
def test_the_chooser_may_place_first_or_second(first):
    """ "The player receiving the weaker Warrior chooses who plays first." """
    state = position(stream=[(SCOUT, HUNTER)], active=WAZU)
    state.play(WAZU, "pick 1")
    events = state.play(BALAN, "first B" if first == BALAN else "first W")
    assert only(events, "order").data == {"first": first}
    assert state.deciding_seats() == (first,)
    assert state.view(None)["phase"] == "place"


@pytest.mark.parametrize("active", [BALAN, WAZU])
@pytest.mark.parametrize(
    "pair", [(HUNTER, SPEARMAN), (ELDER, SCOUT), (CONVERT, ELDER), (GUARDIAN, CHAMPION)]
)
def test_tied_strength_the_active_player_chooses(pair, active):
    """ "If tied, the Active Player chooses." (printed fangs are compared)"""
    state = position(stream=[pair], active=active)
    state.play(active, "pick 1")
    assert state.deciding_seats() == (active,)


def test_players_take_turns_placing():
    """ "Players take turns placing and activating their Warriors." """
    state = position(stream=[(SCOUT, HUNTER), (ELDER, CONVERT)], active=WAZU)
    state.play(WAZU, "pick 1")
    state.play(BALAN, "first W")
    assert state.deciding_seats() == (WAZU,)
    with pytest.raises(NotYourDecision):
        state.play(BALAN, "c3")
    state.play(WAZU, "c3")
    # Placing is two decisions (where, then facing and storage): still Wazu's turn.
    assert state.deciding_seats() == (WAZU,)
    assert state.view(None)["phase"] == "finish"
    state.play(WAZU, "N keep 0e0s")
    assert state.deciding_seats() == (BALAN,)
    assert state.view(None)["phase"] == "place"
    place(state, BALAN, "a5")
    # Both have played: the round is over and the next one starts with a pick.
    assert state.view(None)["phase"] == "pick"
    assert state.view(None)["round"] == 2


def _two_deaths_round():
    """Balan kills a Wazu Scout on b2, then Wazu kills a Balan Scout on e4."""
    return position(
        {
            "b2": W(WAZU, SCOUT),
            "a2": W(BALAN, CHAMPION),
            "b1": W(BALAN, CHIEFTAIN),
            "c2": W(BALAN, GUARDIAN),
            "e4": W(BALAN, SCOUT),
            "e5": W(WAZU, CHAMPION),
            "e3": W(WAZU, CHIEFTAIN),
        },
        to_place=(BALAN, HUNTER),
        other=HUNTER,
    )


def test_spirit_track_advances_by_total_deaths_after_both_players_have_played():
    """ "After both players have played, advance the Spirit Track by the total number of
    Warriors that died." """
    state = _two_deaths_round()
    events = place(state, BALAN, "b3")
    assert [e.data["space"] for e in all_of(events, "death")] == ["b2"]
    # Not yet: only one player has played.
    assert state.view(None)["spirit_track"] == 0
    assert all_of(events, "spirit_track") == []
    events = place(state, WAZU, "d4")
    assert [e.data["space"] for e in all_of(events, "death")] == ["e4"]
    # Deaths of both sides count.
    assert only(events, "spirit_track").data == {"advance": 2, "at": 2}
    assert state.view(None)["spirit_track"] == 2
    assert state.view(None)["lost"] == [1, 1]


def test_spirit_track_does_not_move_in_a_round_without_deaths():
    """ "After both players have played, advance the Spirit Track by the total number of
    Warriors that died." """
    state = position(to_place=(BALAN, HUNTER), second=True, spirit_track=3)
    events = place(state, BALAN, "c3")
    assert only(events, "spirit_track").data == {"advance": 0, "at": 3}


def test_spirit_track_adds_to_earlier_rounds():
    """ "After both players have played, advance the Spirit Track by the total number of
    Warriors that died." """
    state = position(
        {"b2": W(WAZU, SCOUT), "a2": W(BALAN, CHAMPION), "b1": W(BALAN, CHIEFTAIN)},
        to_place=(BALAN, HUNTER),
        second=True,
        spirit_track=2,
        deaths_this_round=1,  # Wazu's placement earlier this round killed one
        lost=(1, 0),
    )
    state.play(BALAN, "c2")
    assert state.view(None)["spirit_track"] == 2  # not while Balan is still placing
    events = state.play(BALAN, "N keep 0e0s")
    assert only(events, "spirit_track").data == {"advance": 1, "at": 3}
    state.play(state.active, "pick 1")  # the game goes on
    assert state.view(None)["phase"] == "order"


def test_a_new_pair_is_drawn_and_the_active_player_switches():
    """ "Draw a new pair and switch the Active Player." """
    state = position(
        stream=[(SCOUT, HUNTER), (ELDER, CONVERT), (CHIEFTAIN, GUARDIAN)],
        decks=[[CHAMPION, SPEARMAN], [SPEARMAN, CHAMPION]],
        active=WAZU,
    )
    state.play(WAZU, "pick 2")
    state.play(WAZU, "first B")  # Elder and Convert tie: the active player chooses
    place(state, BALAN, "c3")
    assert len(state.view(None)["stream"]) == 2
    place(state, WAZU, "c5")
    view = state.view(None)
    assert view["active"] == BALAN
    assert view["decks"] == [1, 1]
    stream = [[a["id"], b["id"]] for a, b in view["stream"]]
    # The new pair is one tile from each player's deck, added to the stream.
    assert stream == [[SCOUT, HUNTER], [CHIEFTAIN, GUARDIAN], [SPEARMAN, CHAMPION]]
    assert state.deciding_seats() == (BALAN,)


def test_the_active_player_alternates_every_round():
    """ "Draw a new pair and switch the Active Player." """
    state = GAME.new_initial_state(seed=3)
    actives = []
    for _ in range(4):
        actives.append(state.active)
        while state.view(None)["phase"] != "pick" or state.active == actives[-1]:
            seat = state.deciding_seats()[0]
            state.apply(seat, state.legal_actions(seat)[0])
    assert actives == [actives[0], 1 - actives[0], actives[0], 1 - actives[0]]


def test_when_the_decks_are_empty_no_new_pair_is_drawn():
    """ "Draw a new pair and switch the Active Player." -- rounds 10-12 use up the stream."""
    state = position(stream=[(SCOUT, HUNTER), (ELDER, CONVERT)], decks=[[], []])
    state.play(BALAN, "pick 1")
    state.play(BALAN, "first B")
    place(state, BALAN, "c3")
    place(state, WAZU, "c5")
    view = state.view(None)
    assert [[a["id"], b["id"]] for a, b in view["stream"]] == [[ELDER, CONVERT]]
    assert view["phase"] == "pick"
    assert view["active"] == WAZU


def test_a_full_match_lasts_at_most_twelve_rounds():
    """Twelve tiles a player: "All Warriors have been played" after round 12 at the latest."""
    for seed in range(6):
        state = GAME.new_initial_state(seed)
        moves = 0
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[(moves * 7 + seed) % len(legal)])
            moves += 1
        assert state.view(None)["round"] <= 12
        assert moves <= GAME.max_game_length()
