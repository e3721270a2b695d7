"""Worked examples: small concrete stories with numbers, each checked end to end."""

from __future__ import annotations

from .builders import (
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    CONVERT,
    ELDER,
    GUARDIAN,
    HERALD,
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
    sq,
    storage,
    strength,
)


def test_a_hunter_on_a_corner_with_a_scouts_help_has_strength_five():
    """A Hunter (2 fangs) placed on a1, with the corner's two environment arrows and a
    friendly Scout's arrow pointing at it, gets 3 Energy crystals and has strength 5."""
    state = position({"b1": W(BALAN, SCOUT, "N")}, to_place=(BALAN, HUNTER), supply=30)
    events = state.play(BALAN, "a1")
    assert only(events, "support").data == {"arrows": 3, "energy": 3}
    state.play(BALAN, "E keep 0e0s")
    hunter = at(state, "a1")
    assert (hunter["fangs"], hunter["energy"], hunter["strength"]) == (2, 3, 5)
    assert hunter["arrows"] == ["E"]
    assert state.view(None)["supply"] == 27


def test_a_guardian_holds_when_the_attack_equals_its_strength():
    """Wazu's Guardian (3 fangs + 2 Energy = 5) on c3 is closed in by Balan's Scout (1) on
    c2, Spearman (2) on b3, a dead Balan Hunter on c4, and a Herald (1) placed on d3 with
    1 Energy from storage: 1 + 2 + 0 + 2 = 5 against 5. Equal: it survives."""
    state = position(
        {
            "c3": W(WAZU, GUARDIAN, "N", 2),
            "c2": W(BALAN, SCOUT),
            "b3": W(BALAN, SPEARMAN),
            "c4": dead(BALAN, HUNTER),
        },
        to_place=(BALAN, HERALD),
        storage=[(1, 0), (0, 0)],
    )
    events = place(state, BALAN, "d3", keep="0e0s")
    fight = only(events, "fight").data
    assert fight == {"space": "c3", "strength": 5, "against": 5, "survives": True}
    assert alive(state, "c3")
    assert state.view(None)["lost"] == [0, 0]


def test_a_guardian_one_short_dies_and_its_spirit_goes_to_the_herald():
    """The same, but the Guardian carries 1 Energy and 2 Spirit: strength 4 (Spirit adds
    nothing) against 5. It dies: flipped face down, its Energy back to the supply, its 2
    Spirit onto the Herald just placed. After Wazu's turn the Spirit Track moves 1."""
    state = position(
        {
            "c3": W(WAZU, GUARDIAN, "N", 1, 2),
            "c2": W(BALAN, SCOUT),
            "b3": W(BALAN, SPEARMAN),
            "c4": dead(BALAN, HUNTER),
        },
        to_place=(BALAN, HERALD),
        storage=[(1, 0), (0, 0)],
        supply=10,
    )
    events = place(state, BALAN, "d3", keep="0e0s")
    assert only(events, "fight").data == {
        "space": "c3",
        "strength": 4,
        "against": 5,
        "survives": False,
    }
    assert kinds(events)[-3:] == ["fight", "death", "spirit_transfer"]
    assert only(events, "spirit_transfer").data == {"to": "d3", "spirit": 2}
    guardian = at(state, "c3")
    assert (guardian["alive"], guardian["energy"], guardian["spirit"]) == (False, 0, 0)
    herald = at(state, "d3")
    assert (herald["energy"], herald["spirit"], herald["strength"]) == (1, 2, 2)
    assert state.view(None)["supply"] == 11
    assert state.view(None)["spirit_track"] == 0
    events = place(state, WAZU, "a5")
    assert only(events, "spirit_track").data == {"advance": 1, "at": 1}


def test_an_elder_placed_into_a_hole_dies_and_takes_the_spirit_with_it():
    """Wazu places its Elder into c3, a hole between Balan's Scout (1 Spirit) on c2,
    Champion on b3 and Chieftain on c4 and its own Spearman on d3, adding 1 Energy and 2
    Spirit from storage: 1 fang + 1 Energy + 1 ally = 3 against 1 + 3 + 4 = 8, it dies.
    Filling c3 also closes in the Scout (Wazu's Hunter c1, Guardian b2, Herald d2 and the
    Elder: 2 + 3 + 1 + 3 = 9 against 1), which dies too. The new warrior died, so all
    Spirit crystals -- the Elder's 2 and the Scout's 1 -- are removed from the game."""
    state = position(
        {
            "c2": W(BALAN, SCOUT, "N", 0, 1),
            "b3": W(BALAN, CHAMPION),
            "c4": W(BALAN, CHIEFTAIN),
            "d3": W(WAZU, SPEARMAN, "N"),
            "c1": W(WAZU, HUNTER),
            "b2": W(WAZU, GUARDIAN, "E"),
            "d2": W(WAZU, HERALD, "E"),
        },
        to_place=(WAZU, ELDER),
        storage=[(0, 0), (1, 2)],
        supply=5,
        bag=(3, 3),
    )
    events = place(state, WAZU, "c3", keep="0e0s")
    fights = {
        e.data["space"]: (e.data["strength"], e.data["against"])
        for e in events
        if e.kind == "fight"
    }
    assert fights == {"c3": (3, 8), "c2": (1, 9)}
    assert sorted(e.data["space"] for e in all_of(events, "death")) == ["c2", "c3"]
    assert only(events, "spirit_removed").data == {"spirit": 3}
    view = state.view(None)
    assert view["lost"] == [1, 1]
    assert view["supply"] == 5 + 1  # the Elder's Energy
    assert view["bag"] == {"energy": 3, "spirit": 3}  # removed Spirit does not go back
    assert at(state, "c3")["spirit"] == at(state, "c2")["spirit"] == 0


def test_a_relic_bought_for_two_with_two_friendly_neighbours():
    """Balan's Champion (c2) and Chieftain (b3) stand next to the Temple Relic on c3;
    Wazu's Scout on c4 does not help Balan. The relic costs 4 - 2 = 2: Balan pays 1 Spirit
    and 1 Energy, takes the relic and draws 2 crystals (the bag holds only Spirit)."""
    state = position(
        {"c2": W(BALAN, CHAMPION), "b3": W(BALAN, CHIEFTAIN), "c4": W(WAZU, SCOUT)},
        to_place=(BALAN, HUNTER),
        relics=["c3"],
        storage=[(1, 2), (0, 0)],
        bag=(0, 6),
    )
    assert state.view(None)["relic_costs"] == {"c3": [2, 3]}
    events = state.play(BALAN, "c3 s1")
    assert only(events, "relic").data == {
        "space": "c3",
        "cost": 2,
        "paid": {"energy": 1, "spirit": 1},
        "drawn": {"energy": 0, "spirit": 2},
        "order": 1,
    }
    assert storage(state, BALAN) == (0, 3)
    state.play(BALAN, "N keep 0e3s")
    view = state.view(None)
    assert view["relics"] == [[1], []]
    assert view["bag"] == {"energy": 1, "spirit": 6 + 1 - 2}
    assert at(state, "c3")["name"] == "Hunter"


def test_an_elder_with_three_allies_stands_against_a_chieftain():
    """Balan's Elder (1 fang) on c3 has allies on c2, b3 and d3: strength 1 + 3 = 4. Wazu
    places its Chieftain (4) on c4, the last open side; the allies do not fight, so the
    Elder meets 4 alone with 4 and survives."""
    state = position(
        {
            "c3": W(BALAN, ELDER),
            "c2": W(BALAN, CHAMPION),
            "b3": W(BALAN, CHIEFTAIN),
            "d3": W(BALAN, GUARDIAN),
        },
        to_place=(WAZU, CHIEFTAIN),
    )
    assert strength(state, "c3") == 4
    events = place(state, WAZU, "c4")
    assert only(events, "fight").data == {
        "space": "c3",
        "strength": 4,
        "against": 4,
        "survives": True,
    }
    assert strength(state, "c3") == 4  # the enemy Chieftain adds nothing to the Elder


def test_a_convert_with_two_diagonal_enemies_and_then_a_third():
    """Wazu's Convert (1 fang) on c3 has Balan warriors diagonally on b2 and d4: strength
    3. Balan places a Hunter diagonally on b4: strength 4 at once. Wazu's own Chieftain
    placed diagonally on d2 adds nothing: allies do not count for the Convert."""
    state = position(
        {"c3": W(WAZU, CONVERT), "b2": W(BALAN, SCOUT), "d4": W(BALAN, SPEARMAN)},
        to_place=(BALAN, HUNTER),
        other=CHIEFTAIN,
    )
    assert strength(state, "c3") == 3
    place(state, BALAN, "b4")
    assert strength(state, "c3") == 4
    place(state, WAZU, "d2")
    assert strength(state, "c3") == 4


def test_storage_overflow_on_a_corner():
    """Balan holds 2 Energy and 1 Spirit and places a Guardian (3) on a1, which holds 1
    Energy and 1 Spirit: storage 3 + 2 = 5, one over. The corner's 2 arrows give 2 Energy.
    Balan keeps 2 Energy and 2 Spirit and puts the fifth crystal, an Energy, on the
    Guardian: 3 + 2 + 1 = 6."""
    state = position(to_place=(BALAN, GUARDIAN), crystals={"a1": (1, 1)}, storage=[(2, 1), (0, 0)])
    events = state.play(BALAN, "a1")
    assert kinds(events) == ["place", "collect", "support"]
    assert storage(state, BALAN) == (3, 2)
    legal = {state.game.format_action(a).split()[-1] for a in state.legal_actions(BALAN)}
    assert "3e2s" not in legal and "2e2s" in legal
    state.play(BALAN, "E keep 2e2s")
    assert strength(state, "a1") == 6
    assert storage(state, BALAN) == (2, 2)


def test_a_full_round():
    """Round 1: Wazu is active and picks pair 2 (Balan's Scout, Wazu's Hunter). Balan's
    Scout is weaker, so Balan chooses -- and lets Wazu place first. Wazu's Hunter goes to
    e3 (1 Energy from the edge) and picks up the Spirit crystal there; Balan's Scout goes
    to c3. Nobody died: the Spirit Track stays at 0, a new pair comes from the decks, and
    Balan is active in round 2."""
    state = position(
        stream=[(CHAMPION, CHAMPION), (SCOUT, HUNTER), (ELDER, ELDER)],
        decks=[[CHIEFTAIN, GUARDIAN], [GUARDIAN, CHIEFTAIN]],
        crystals={"e3": (0, 1)},
        active=WAZU,
    )
    state.play(WAZU, "pick 2")
    assert state.deciding_seats() == (BALAN,)
    state.play(BALAN, "first W")
    events = state.play(WAZU, "e3")
    assert kinds(events) == ["place", "collect", "support"]
    state.play(WAZU, "W keep 0e1s")
    events = place(state, BALAN, "c3")
    assert only(events, "spirit_track").data == {"advance": 0, "at": 0}
    view = state.view(None)
    assert view["round"] == 2
    assert view["active"] == BALAN
    assert [[a["id"], b["id"]] for a, b in view["stream"]] == [
        [CHAMPION, CHAMPION],
        [ELDER, ELDER],
        [GUARDIAN, CHIEFTAIN],
    ]
    assert view["board"][sq("e3")]["warrior"]["strength"] == 3
    assert view["storage"][WAZU] == {"energy": 0, "spirit": 1}


def final_position(relics_taken, balan_spirit=2, **options):
    """Balan: Chieftain (3 diamonds) with Spirit on a5, a dead Guardian on e1, and its last
    Scout (1) about to go on c3. Wazu: Hunter (2) with 1 Spirit on e5, Guardian (2) on e4."""
    state = position(
        {
            "a5": W(BALAN, CHIEFTAIN, "N", 1, balan_spirit),
            "e1": dead(BALAN, GUARDIAN),
            "e5": W(WAZU, HUNTER, "N", 0, 1),
            "e4": W(WAZU, GUARDIAN),
        },
        to_place=(BALAN, SCOUT),
        second=True,
        stream=[],
        decks=[[], []],
        relics_taken=relics_taken,
        **options,
    )
    place(state, BALAN, "c3")
    assert state.is_terminal()
    return state.outcome()


def test_end_of_game_scoring_progressive_and_standard():
    """Wazu took the 1st and 2nd relics, Balan the 3rd.

    Progressive: Balan 3 + 1 diamonds + 2 Spirit + 1 relic = 7; Wazu 2 + 2 + 1 + (1 + 2)
    = 8. Wazu wins. Standard (global order): Balan's relic is the 3rd, worth 3: 9; Wazu's
    are worth 1 + 2: 8. Balan wins."""
    outcome = final_position([WAZU, WAZU, BALAN])
    assert outcome.scores == (7.0, 8.0)
    assert outcome.winners == (WAZU,)
    assert outcome.reason == "all_played"
    balan, wazu = outcome.detail["breakdown"]
    assert (balan["diamonds"], balan["spirit"], balan["relics"]) == (4, 2, 1)
    assert (wazu["diamonds"], wazu["spirit"], wazu["relics"]) == (4, 1, 3)
    outcome = final_position([WAZU, WAZU, BALAN], relic_scoring="standard")
    assert outcome.scores == (9.0, 8.0)
    assert outcome.winners == (BALAN,)


def test_end_of_game_ties():
    """With 3 Spirit on Balan's Chieftain (relics Wazu, Wazu, Balan) both score 8 with 2
    survivors each: Balan took the last relic, so Balan wins. With 1 Spirit and one relic
    each (Balan's first), both score 6 (3 + 1 + 1 + 1 and 2 + 2 + 1 + 1) with 2 survivors:
    Wazu took a relic more recently and wins."""
    outcome = final_position([WAZU, WAZU, BALAN], balan_spirit=3)
    assert outcome.scores == (8.0, 8.0)
    assert outcome.winners == (BALAN,)
    assert outcome.detail["tiebreak"] == "latest_relic"
    outcome = final_position([BALAN, WAZU], balan_spirit=1)
    assert outcome.scores == (6.0, 6.0)
    assert outcome.winners == (WAZU,)
    assert outcome.detail["tiebreak"] == "latest_relic"
