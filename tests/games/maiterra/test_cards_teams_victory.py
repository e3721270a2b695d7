"""The seed's "Cards", "Teams", "Winning" and "The turn timer" sections."""

from __future__ import annotations

import pytest

from meeple.core.errors import IllegalAction, InvalidOptions
from meeple.games.maiterra import Maiterra
from meeple.games.maiterra.data import CARD_NAMES, RULES

from .helpers import army, cell, kinds, own, planning, play_turn, units

RED, BLUE, GREEN, GOLD = range(4)
SPEEDUP, LUCKY, RALLY, SABOTAGE, PROSPECT = range(5)


def test_five_cards_and_a_hand_of_at_most_three() -> None:
    """ "You hold up to 3 cards and draw one for each field you conquer. There are five".
    A fourth card drawn is discarded (a Decision)."""
    assert CARD_NAMES == ("speedup", "lucky_strike", "rally", "sabotage", "prospect")
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d1", "d2", "d3", "d4", "a5")
    state.cards[RED] = [PROSPECT, PROSPECT]
    for name in ("c1", "c2", "c4"):
        army(state, RED, name, 2)
    army(state, RED, "c3", 2)
    events = play_turn(state, {RED: ["march c1 E", "march c2 E", "march c3 E", "march c4 E"]})
    assert len(kinds(events, "conquest")) == 4
    assert len(state.cards[RED]) == 3
    assert kinds(events, "cards_drawn")[0].data == {"drawn": 4, "kept": 1}


def test_speedup_lets_a_stack_march_two() -> None:
    """ "Speedup: march 2." """
    state = planning()
    own(state, BLUE, "e5")
    army(state, RED, "a1", 2)
    state.cards[RED] = [SPEEDUP]
    with pytest.raises(IllegalAction):
        state.play(RED, "march a1 E-E")
    state.play(RED, "play speedup a1")
    play_turn(state, {RED: ["march a1 E-E"]})
    assert units(state, RED, "c1") == (2, 0)


def test_prospect_takes_three_of_one_resource() -> None:
    """ "Prospect: take 3 of one resource." Paid in when the orders are checked, so later
    orders of the same queue may spend it."""
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    state.cards[RED] = [PROSPECT]
    state.res[RED] = [20, 1, 0, 0]
    state.play(RED, "play prospect brick")
    state.play(RED, "build house c3")
    play_turn(state, {})
    assert state.building(cell("c3"), 3) == 1
    assert state.cards[RED] == [] and PROSPECT in state.discard


def test_teams_are_an_option_at_three_and_four_seats() -> None:
    """ "At three and four seats ... can put seats on numbered teams; the same number means
    allies." """
    assert Maiterra(seats=4, options={"teams": "1212"}).sides() == (0, 1, 0, 1)
    assert Maiterra(seats=3, options={"teams": "221"}).sides() == (0, 0, 2)
    with pytest.raises(InvalidOptions):
        Maiterra(seats=2, options={"teams": "12"})
    with pytest.raises(InvalidOptions):
        Maiterra(seats=4, options={"teams": "1111"})


def test_allies_may_march_across_each_others_fields() -> None:
    """ "may march across each other's fields": Red's cavalry rides through Blue's field and
    Blue's army there; nothing is conquered, nobody fights."""
    state = planning(seats=4, teams="1122")
    own(state, BLUE, "b1")
    own(state, GREEN, "e5")
    army(state, BLUE, "b1", 2)
    army(state, RED, "a1", 0, 1)
    events = play_turn(state, {RED: ["march a1 E-E"]})
    assert not kinds(events, "fight") and not kinds(events, "conquest")
    assert units(state, RED, "c1") == (0, 1)
    assert state.owner[cell("b1")] == BLUE


def test_a_field_is_worth_two_points_and_the_targets_are_20_18_24() -> None:
    """ "Every field scores 2 points" / "Hold more than half the board's fields; at two
    seats, one more than that. On Lakeland that is 20, 18 or 24 points for 2, 3 or 4
    seats." """
    assert RULES.targets == {2: 20, 3: 18, 4: 24}
    for seats, fields in ((2, 17), (3, 16), (4, 22)):
        need = fields // 2 + 1 + (1 if seats == 2 else 0)
        assert RULES.targets[seats] == 2 * need


def test_holding_the_target_wins() -> None:
    """ "Hold more than half the board's fields" -- checked at the end of the turn."""
    state = planning()
    names = [f"{f}{r}" for f in "abcde" for r in "12"]
    own(state, RED, *names)
    own(state, BLUE, "e5")
    army(state, BLUE, "e5", 1)
    events = play_turn(state, {})
    assert kinds(events, "game_over")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED,) and outcome.reason == "majority"
    assert outcome.scores == (20.0, 2.0)


def test_a_field_lost_costs_its_two_points_at_once() -> None:
    """ "A field lost costs its 2 at once." """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "d3", "e5")
    army(state, RED, "c3", 3)
    before = state.points(BLUE)
    play_turn(state, {RED: ["march c3 E"]})
    assert state.points(BLUE) == before - 2


def test_the_last_seat_holding_land_wins() -> None:
    """ "Or be the last seat still holding any land." """
    state = planning(seats=3)
    own(state, RED, "c3")
    own(state, BLUE, "d3")
    army(state, RED, "c3", 3)
    army(state, GREEN, "a5", 4)  # Green holds no land: it is not in the running
    play_turn(state, {RED: ["march c3 E"]})
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED,)
    assert outcome.reason == "last_holding_land"


def test_the_leader_on_points_at_the_end_of_turn_50_wins() -> None:
    """ "If nobody gets there, the seat leading on points at the end of turn 50 wins."
    Equal points: more units; still equal: a draw (Decisions)."""
    state = planning()
    own(state, RED, "a1", "a2")
    own(state, BLUE, "e5")
    state.turn = RULES.turn_limit
    play_turn(state, {})
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED,) and outcome.reason == "turn_limit"
    state = planning()
    own(state, RED, "a1")
    own(state, BLUE, "e5")
    state.turn = RULES.turn_limit
    play_turn(state, {})
    outcome = state.outcome()
    assert outcome is not None and outcome.is_draw


def test_a_team_scores_together_against_a_higher_target_and_wins_together() -> None:
    """ "A team scores its members' points together, against a higher target than a lone
    seat, and the whole team wins together." Target: 2 more points per ally (26 at 2v2)."""
    state = planning(seats=4, teams="1212")
    names = [f"{f}{r}" for f in "abcde" for r in "12"] + ["a3", "b3"]
    own(state, RED, *names[:6])
    own(state, GREEN, *names[6:12])
    own(state, BLUE, "e5")
    assert state.view(None)["targets"] == {"0": 26, "1": 26}
    play_turn(state, {})
    assert state.outcome() is None  # 24 points: enough alone, not for a team
    own(state, GREEN, "c3")
    play_turn(state, {})
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (RED, GREEN)


def test_the_timer_hands_in_what_is_queued_and_a_seat_with_none_passes() -> None:
    """ "At zero nothing you queued is lost: every seat that has not ended its turn hands in
    the orders it has queued, as they stand, and a seat with none passes." """
    state = planning()
    own(state, RED, "c3")
    own(state, BLUE, "e5")
    state.res[RED][2] = 3
    state.play(RED, "trade brick for wood")
    twin = state.clone()
    state.hand_in(RED)
    twin.play(RED, "end")
    assert state == twin
    events = state.hand_in(BLUE)
    assert kinds(events, "resolve")
    assert state.res[RED][1] == 1


def test_the_house_pick_and_the_draft_have_no_timer() -> None:
    """The timer belongs to turns (a Decision): hand_in refuses before turn 1."""
    state = Maiterra(seats=2).new_initial_state(0)
    with pytest.raises(IllegalAction, match="only during turns"):
        state.hand_in(0)
