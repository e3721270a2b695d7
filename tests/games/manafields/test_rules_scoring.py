"""Scoring, control of objectives, the deployment-zone rule, the 12-point lead, turns."""

from __future__ import annotations

from tests.games.manafields.builders import act, event, position, slot

from meeple.games.manafields import Manafields

# Objectives: west b6 c6 b7 c7, centre e7 f7 e8 f8, east h6 i6 h7 i7; zones ranks 1-2 and 11-12.


def test_aim_is_a_twelve_point_lead() -> None:
    """ "The aim of the game is to be the first player to reach a 12 point lead." """
    state = position({"A": "e7", "D": "f7", "G": "j9"})
    state.score = [9, 0]
    act(state, "end")  # centre + General on it: 2 points -> lead 11
    assert state.winner == -1
    state = position({"A": "e7", "D": "f7", "G": "j9"})
    state.score = [10, 0]
    events = act(state, "end")
    assert state.winner == 0 and state.reason == "lead"
    assert event(events, "game_over")["winners"] == [0]


def test_second_player_starts_with_one_point() -> None:
    """ "The player going second receives 1 point when the game begins." """
    state = Manafields().new_initial_state(3)
    assert state.score == [0, 1]
    assert state.active == 0


def test_points_come_at_the_end_of_your_own_turn() -> None:
    """ "After that, players score points at the end of each of their turns" """
    state = position({"A": "e7", "G": "j9"})
    act(state, "move A e8")
    assert state.score == [0, 1]
    act(state, "end")
    assert state.score == [2, 1]
    act(state, "end")  # seat 1 holds nothing
    assert state.score == [2, 1]


def test_one_point_per_objective_controlled() -> None:
    """ "1 point for each objective that you control" """
    state = position({"A": "j3", "C": "b6", "D": "h6", "G": "a8"})
    act(state, "end")
    assert state.score[0] == 2


def test_general_on_a_controlled_objective() -> None:
    """ "1 point if your General is standing on an objective that you control" """
    state = position({"A": "e7", "G": "j9"})
    assert state.points_now(0) == {
        "objectives": 1,
        "general": 1,
        "general_killed": 0,
        "total": 2,
    }


def test_six_points_for_killing_the_enemy_general() -> None:
    """ "6 points for killing the enemy General" """
    state = position({"A": "j3", "D": "e7", "G": ("e8", 1)}, seed=1)
    act(state, "fight D G")
    assert state.hp[slot("G")] == 0
    act(state, "end")
    assert state.score[0] == 6 + 1  # and D holds the centre


def test_control_needs_more_friendly_than_enemy_units() -> None:
    """ "Players control objectives if there are more friendly than enemy units standing
    on them." Equal numbers: nobody controls it."""
    state = position({"A": "j3", "C": "e7", "G": "a8", "J": "f8"})
    assert state.controller(1) == -1
    state = position({"A": "j3", "C": "e7", "D": "e8", "G": "a8", "J": "f8"})
    assert state.controller(1) == 0


def test_general_in_deployment_zone_scores_nothing() -> None:
    """ "Note that your General must be outside of your deployment zone (or dead) in order
    for your units to count towards objectives, and in order to score points." """
    state = position({"A": "e2", "C": "e7", "G": "a8", "J": "f8"})
    assert state.controller(1) == 1  # C does not count; the enemy's J does
    act(state, "end")
    assert state.score[0] == 0
    state = position({"C": "e7", "G": "j9"})  # General dead: units count
    act(state, "end")
    assert state.score[0] == 1


def test_three_order_points_and_two_on_the_first_turn() -> None:
    """ "Each turn, players receive 3 Order Points" ... "(Note: the player taking the
    first turn of the game receives 2 Order Points instead of 3)" """
    state = Manafields().new_initial_state(1)
    assert state.op == 2
    state.play(0, "end")
    assert state.op == 3
    state.play(1, "end")
    assert state.op == 3


def test_turn_limit_decides_by_score() -> None:
    """Decision: after ``turn_limit`` rounds the higher score wins, equal is a draw."""
    state = position({"A": "j3", "G": "a8"}, turn=1, turn_limit=1)
    act(state, "end")
    assert state.winner == 1 and state.reason == "turn_limit"
    state = position({"A": "j3", "G": "a8"}, turn=1, turn_limit=1)
    state.score = [1, 1]
    act(state, "end")
    assert state.winner == 2 and state.outcome() is not None
