"""The seed's "Game End & Scoring" and "Standard Game" sections, sentence by sentence."""

from __future__ import annotations

import pytest

from meeple.core.errors import GameOver

from .builders import (
    ALL_TILES,
    BALAN,
    CHAMPION,
    CHIEFTAIN,
    ELDER,
    GUARDIAN,
    HERALD,
    HUNTER,
    NAMES,
    SCOUT,
    WAZU,
    W,
    dead,
    kinds,
    only,
    place,
    position,
)

# -- "The game ends after a turn if:" -----------------------------------------------------


def kill_position(killer, lost, second=True, **kwargs):
    """``killer`` is about to place a Scout on d3, closing in the other seat's Hunter on c3
    (3 + 4 + 3 + 1 against 2): one death."""
    victim = 1 - killer
    return position(
        {
            "c3": W(victim, HUNTER),
            "c2": W(killer, CHAMPION),
            "b3": W(killer, GUARDIAN),
            "c4": W(killer, CHIEFTAIN),
        },
        to_place=(killer, SCOUT),
        second=second,
        lost=lost,
        **kwargs,
    )


@pytest.mark.parametrize("killer", [BALAN, WAZU])
def test_the_game_ends_when_either_player_has_lost_six_warriors(killer):
    """ "Either player has lost 6 Warriors;" """
    lost = [0, 0]
    lost[1 - killer] = 5
    state = kill_position(killer, tuple(lost))
    events = place(state, killer, "d3")
    assert state.view(None)["lost"][1 - killer] == 6
    assert state.is_terminal()
    over = only(events, "game_over").data
    assert over["reason"] == "six_lost"
    assert state.outcome().reason == "six_lost"


def test_five_lost_warriors_do_not_end_the_game():
    """ "Either player has lost 6 Warriors;" """
    state = kill_position(BALAN, (0, 4))
    events = place(state, BALAN, "d3")
    assert "game_over" not in kinds(events)
    assert state.view(None)["phase"] == "pick"


def test_six_deaths_split_between_the_players_do_not_end_the_game():
    """ "Either player has lost 6 Warriors;" -- per player, not the Spirit Track's total."""
    state = kill_position(BALAN, (3, 2), spirit_track=5)
    place(state, BALAN, "d3")
    view = state.view(None)
    assert view["lost"] == [3, 3]
    assert view["spirit_track"] == 6
    assert not state.is_terminal()


def test_the_end_is_checked_only_after_the_turn():
    """ "The game ends after a turn if:" -- a turn being the whole round, so the second
    player still places after the sixth loss."""
    state = kill_position(BALAN, (0, 5), second=False)
    events = place(state, BALAN, "d3")
    assert state.view(None)["lost"] == [0, 6]
    assert "game_over" not in kinds(events)
    assert state.deciding_seats() == (WAZU,)
    events = place(state, WAZU, "a5")
    assert only(events, "game_over").data["reason"] == "six_lost"
    assert kinds(events)[-2:] == ["spirit_track", "game_over"]


def crowded(fillers, relics, second=True):
    """A board with ``fillers`` face-down warriors and ``relics`` Temple Relics, Balan's
    Scout to place (Wazu's Hunter the other tile); the empty spaces are the last ones."""
    names = [n for n in NAMES if n not in relics]
    tiles = [[t for t in ALL_TILES if t != SCOUT], [t for t in ALL_TILES if t != HUNTER]]
    warriors = {}
    for i, name in enumerate(names[:fillers]):
        seat = i % 2
        warriors[name] = dead(seat, tiles[seat][i // 2])
    return position(warriors, to_place=(BALAN, SCOUT), other=HUNTER, relics=relics, second=second)


def empty_spaces(state):
    return [b["space"] for b in state.view(None)["board"] if not b["warrior"] and not b["relic"]]


def test_the_game_ends_when_one_free_space_remains():
    """ "1 or fewer free spaces remain; or" """
    state = crowded(21, relics=["c5", "e5"])
    assert empty_spaces(state) == ["b5", "d5"]
    events = place(state, BALAN, "b5")
    assert only(events, "game_over").data["reason"] == "board_full"
    assert state.view(None)["free_spaces"] == 1


def test_the_game_goes_on_with_two_free_spaces():
    """ "1 or fewer free spaces remain; or" """
    state = crowded(20, relics=["c5", "e5"])
    assert empty_spaces(state) == ["a5", "b5", "d5"]
    place(state, BALAN, "a5")
    assert state.view(None)["free_spaces"] == 2
    assert not state.is_terminal()


def test_unclaimed_relic_spaces_are_not_free_spaces():
    """ "1 or fewer free spaces remain; or" -- a Temple Relic's space is not free."""
    state = crowded(21, relics=["c5", "e5"])
    place(state, BALAN, "b5")
    view = state.view(None)
    open_spaces = [b["space"] for b in view["board"] if not b["warrior"]]
    assert open_spaces == ["c5", "d5", "e5"]
    assert view["free_spaces"] == 1
    assert state.outcome().reason == "board_full"


def test_the_game_ends_when_all_warriors_have_been_played():
    """ "All Warriors have been played." """
    state = position(to_place=(BALAN, SCOUT), second=True, stream=[], decks=[[], []])
    events = place(state, BALAN, "c3")
    assert only(events, "game_over").data["reason"] == "all_played"
    assert state.is_terminal()


def test_the_game_goes_on_while_a_pair_is_left():
    """ "All Warriors have been played." """
    state = position(to_place=(BALAN, SCOUT), second=True, stream=[(ELDER, ELDER)], decks=[[], []])
    place(state, BALAN, "c3")
    assert not state.is_terminal()
    assert state.view(None)["phase"] == "pick"


def test_nothing_can_be_played_after_the_end():
    """After the end no seat decides; every action is refused with GameOver."""
    state = position(to_place=(BALAN, SCOUT), second=True, stream=[], decks=[[], []])
    place(state, BALAN, "c3")
    assert state.deciding_seats() == ()
    assert state.legal_actions(BALAN) == state.legal_actions(WAZU) == []
    before = state.to_json()
    for seat in (BALAN, WAZU):
        with pytest.raises(GameOver, match=f"seat {seat}"):
            state.play(seat, "pick 1")
    assert state.to_json() == before
    assert state.view(None)["phase"] == "over"


# -- Scoring -------------------------------------------------------------------------------


def final(warriors, relics_taken=(), storage=((0, 0), (0, 0)), **options):
    """Balan's last placement (a Scout, 1 diamond, onto c3) ends the game."""
    state = position(
        warriors,
        to_place=(BALAN, SCOUT),
        second=True,
        stream=[],
        decks=[[], []],
        relics_taken=relics_taken,
        storage=storage,
        **options,
    )
    events = place(state, BALAN, "c3")
    assert "game_over" in kinds(events)
    return state


def breakdown(state, seat):
    return state.outcome().detail["breakdown"][seat]


def test_diamonds_on_surviving_warriors_score():
    """ "💎 Diamonds on surviving Warriors" """
    state = final(
        {
            "a5": W(BALAN, CHIEFTAIN),  # 3 diamonds
            "a4": W(BALAN, HUNTER),  # 2
            "e1": dead(BALAN, GUARDIAN),  # dead: nothing
            "e5": W(WAZU, CHAMPION),  # 2
            "e4": dead(WAZU, CHIEFTAIN),
        }
    )
    assert breakdown(state, BALAN)["diamonds"] == 3 + 2 + 1  # the Scout on c3 too
    assert breakdown(state, WAZU)["diamonds"] == 2
    assert breakdown(state, BALAN)["survivors"] == 3
    assert breakdown(state, WAZU)["survivors"] == 1


def test_spirit_crystals_on_surviving_warriors_score_one_each():
    """ "⚪ Spirit Crystals on surviving Warriors" and "Spirit Crystals ... are worth 1 VP each
    if their Warrior survives until game end." """
    state = final(
        {
            "a5": W(BALAN, CHIEFTAIN, "N", 2, 3),  # 3 Spirit count; Energy does not score
            "e5": W(WAZU, CHAMPION, "N", 0, 1),
            "e1": W(WAZU, HUNTER, "N", 0, 4, alive=False),  # on a dead warrior: nothing
        },
        storage=((0, 4), (0, 3)),  # in storage: nothing
    )
    assert breakdown(state, BALAN)["spirit"] == 3
    assert breakdown(state, WAZU)["spirit"] == 1
    assert breakdown(state, BALAN)["total"] == 3 + 1 + 3
    assert breakdown(state, WAZU)["total"] == 2 + 1


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (1, 1), (2, 1 + 2), (3, 6), (4, 10), (5, 15)]
)
def test_temple_relics_score_progressively(count, points):
    """ "Temple Relics score progressively: 1 / 2 / 3 / 4 / 5 VP, for up to 15 VP." """
    state = final({}, relics_taken=[WAZU] * (5 - count) + [BALAN] * count)
    assert breakdown(state, BALAN)["relics"] == points
    assert breakdown(state, WAZU)["relics"] == sum(range(1, 6 - count))


def test_progressive_is_the_default_relic_scoring():
    """ "Temple Relics score progressively ..." is the basic game."""
    state = final({}, relics_taken=[WAZU, BALAN, BALAN])
    assert state.game.option("relic_scoring") == "progressive"
    assert [breakdown(state, s)["relics"] for s in (BALAN, WAZU)] == [1 + 2, 1]


def test_standard_game_scores_relics_by_global_order():
    """ "In the Standard Game, Temple Relics score by global acquisition order instead: the
    first Relic taken is worth 1 VP, the second 2 VP, the third 3 VP, and so on, regardless
    of who collected them." """
    state = final({}, relics_taken=[WAZU, BALAN, BALAN, WAZU, BALAN], relic_scoring="standard")
    assert breakdown(state, BALAN)["relics"] == 2 + 3 + 5
    assert breakdown(state, WAZU)["relics"] == 1 + 4


def test_the_score_is_the_sum_of_the_three_sources():
    """ "Score VP from: 💎 Diamonds on surviving Warriors; ⚪ Spirit Crystals on surviving
    Warriors; 🛕 Temple Relics" """
    state = final(
        {"a5": W(BALAN, CHIEFTAIN, "N", 0, 2), "e5": W(WAZU, HERALD, "N", 0, 1)},
        relics_taken=[BALAN, WAZU, BALAN],
    )
    assert breakdown(state, BALAN) == {
        "diamonds": 3 + 1,
        "spirit": 2,
        "relics": 1 + 2,
        "total": 9,
        "survivors": 2,
    }
    assert breakdown(state, WAZU) == {
        "diamonds": 1,
        "spirit": 1,
        "relics": 1,
        "total": 3,
        "survivors": 1,
    }
    assert state.view(None)["scores"] == [9, 3]
    assert state.outcome().scores == (9.0, 3.0)


def test_most_vp_wins():
    """ "Most VP wins." """
    state = final({"e5": W(WAZU, CHIEFTAIN)})  # Balan 1 (the Scout), Wazu 3
    outcome = state.outcome()
    assert outcome.winners == (WAZU,)
    assert outcome.detail["tiebreak"] is None
    assert state.returns() == [-1.0, 1.0]


def test_a_tie_goes_to_the_player_with_more_surviving_warriors():
    """ "Ties are broken by most surviving Warriors, then by whoever acquired a Relic most
    recently." """
    state = final(
        {
            "a5": W(BALAN, CHIEFTAIN),  # Balan: 3 + 1 (the Scout) = 4 VP from 2 warriors
            "e5": W(WAZU, SCOUT),  # Wazu: 1 + 1 + 2 = 4 VP from 3 warriors
            "e4": W(WAZU, HERALD),
            "e3": W(WAZU, HUNTER),
        }
    )
    assert [breakdown(state, s)["total"] for s in (BALAN, WAZU)] == [4, 4]
    assert state.outcome().winners == (WAZU,)
    assert state.outcome().detail["tiebreak"] == "survivors"


@pytest.mark.parametrize(("order", "winner"), [([BALAN, WAZU], WAZU), ([WAZU, BALAN], BALAN)])
def test_then_the_tie_goes_to_whoever_acquired_a_relic_most_recently(order, winner):
    """ "Ties are broken by most surviving Warriors, then by whoever acquired a Relic most
    recently." """
    state = final(
        {"a5": W(BALAN, CHIEFTAIN), "e5": W(WAZU, HUNTER), "e4": W(WAZU, GUARDIAN)},
        relics_taken=order,
    )
    # Balan: Chieftain 3 + Scout 1 + relic 1; Wazu: Hunter 2 + Guardian 2 + relic 1.
    assert [breakdown(state, s)["total"] for s in (BALAN, WAZU)] == [5, 5]
    assert [breakdown(state, s)["survivors"] for s in (BALAN, WAZU)] == [2, 2]
    assert state.outcome().winners == (winner,)
    assert state.outcome().detail["tiebreak"] == "latest_relic"


def test_a_full_tie_without_relics_is_a_draw():
    """ "Ties are broken by most surviving Warriors, then by whoever acquired a Relic most
    recently." -- with no relic taken the tie stands (a Decision)."""
    state = final({"e5": W(WAZU, SCOUT)})
    outcome = state.outcome()
    assert outcome.winners == ()
    assert outcome.is_draw
    assert state.returns() == [0.0, 0.0]
