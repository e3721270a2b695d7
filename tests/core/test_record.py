"""Match records (meeple-record/1): round trips, replays, start states, malformed input."""

from __future__ import annotations

import json
import random

import pytest

from meeple.core import InvalidRecord, MatchRecord, Outcome, load_game
from meeple.testing import play_random
from tests import toygames

assert toygames.ToyTricks.info.id == "toy_tricks/1"  # importing registers the toy games


@pytest.fixture
def playout():
    return play_random(load_game("toy_tricks"), seed=12, choice_seed=34)


@pytest.fixture
def base(playout):
    return playout.record.to_json()


def test_record_json_shape(playout):
    record = playout.record
    data = record.to_json()
    assert data["format"] == "meeple-record/1"
    assert data["game"] == "toy_tricks/1"
    assert data["seats"] == 2
    assert data["options"] == {"suits": 2, "ranks": 4, "hand": 3}
    assert data["seed"] == 12
    assert "start" not in data
    assert data["actions"] == [[s, a] for s, a in record.actions]
    assert data["notation"] == [playout.game.format_action(a) for _, a in record.actions]
    assert data["outcome"] == playout.final.outcome().to_json()
    assert "notation" not in record.to_json(with_notation=False)
    assert "players" not in data and "meta" not in data


def test_round_trip_through_text(playout):
    record = playout.record
    record.players = ["ada", "bob"]
    record.meta = {"event": "club night", "round": 2}
    loaded = MatchRecord.loads(record.dumps(indent=2))
    assert loaded == record
    assert loaded.to_json() == record.to_json()


def test_replay_reproduces_every_intermediate_state(playout):
    record = MatchRecord.loads(playout.record.dumps())
    states = [state.to_json() for state in record.states()]
    assert states == playout.states
    assert record.replay() == playout.final


def test_states_are_independent_clones(playout):
    states = list(playout.record.states())
    assert len({json.dumps(s.to_json(), sort_keys=True) for s in states}) == len(states)


def test_record_from_a_start_state_replays(playout):
    game = playout.game
    middle = len(playout.states) // 2
    record = MatchRecord.for_game(game, start_state=playout.states[middle])
    for seat, action in playout.record.actions[middle:]:
        record.add(seat, action)
    data = json.loads(record.dumps())
    assert data["seed"] is None and data["start"] == playout.states[middle]
    loaded = MatchRecord.from_json(data)
    assert [s.to_json() for s in loaded.states()] == playout.states[middle:]
    assert loaded.replay() == playout.final


def test_simultaneous_record_with_timer_hand_ins_replays():
    game = load_game("toy_orders", 3)
    state = game.new_initial_state(0)
    record = MatchRecord.for_game(game, seed=0)
    rng = random.Random(1)
    while not state.is_terminal():
        seat = rng.choice(state.deciding_seats())
        if rng.random() < 0.3:
            # The timer hands in the seat's orders: recorded as the 'end' action it equals.
            state.hand_in(seat)
            record.add(seat, game.parse_action("end"))
        else:
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            record.add(seat, action)
    assert MatchRecord.loads(record.dumps()).replay() == state


def test_for_game_needs_exactly_one_start(playout):
    with pytest.raises(InvalidRecord):
        MatchRecord.for_game(playout.game)
    with pytest.raises(InvalidRecord):
        MatchRecord.for_game(playout.game, seed=1, start_state=playout.states[0])


def _edit(data, **changes):
    data = json.loads(json.dumps(data))
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key, None)
        else:
            data[key] = value
    return data


_DROP = object()

PARSE_ERRORS = {
    "not an object": lambda d: [d],
    "no format": lambda d: _edit(d, format=_DROP),
    "another format": lambda d: _edit(d, format="meeple-record/2"),
    "no game": lambda d: _edit(d, game=_DROP),
    "game not a string": lambda d: _edit(d, game=["toy_tricks/1"]),
    "no seats": lambda d: _edit(d, seats=_DROP),
    "seats a string": lambda d: _edit(d, seats="2"),
    "seats a boolean": lambda d: _edit(d, seats=True),
    "seats a float": lambda d: _edit(d, seats=2.0),
    "options a list": lambda d: _edit(d, options=[]),
    "seed a boolean": lambda d: _edit(d, seed=True),
    "seed a string": lambda d: _edit(d, seed="12"),
    "seed a float": lambda d: _edit(d, seed=12.0),
    "seed negative": lambda d: _edit(d, seed=-1),
    "seed beyond 2**53": lambda d: _edit(d, seed=2**53),
    "seed and start": lambda d: _edit(d, start={"hands": []}),
    "neither seed nor start": lambda d: _edit(d, seed=None),
    "actions an object": lambda d: _edit(d, actions={"0": 1}),
    "action of one number": lambda d: _edit(d, actions=[[0]]),
    "action of three numbers": lambda d: _edit(d, actions=[[0, 1, 2]]),
    "action seat a string": lambda d: _edit(d, actions=[["0", 1]]),
    "action a boolean": lambda d: _edit(d, actions=[[0, True]]),
    "action a float": lambda d: _edit(d, actions=[[0, 1.0]]),
    "action a bare number": lambda d: _edit(d, actions=[3]),
    "players a string": lambda d: _edit(d, players="ada"),
    "players not names": lambda d: _edit(d, players=[1, 2]),
    "meta a list": lambda d: _edit(d, meta=[]),
    "outcome a string": lambda d: _edit(d, outcome="won"),
    "outcome without reason": lambda d: _edit(d, outcome={"winners": [0]}),
    "outcome winners not seats": lambda d: _edit(d, outcome={"winners": "ab", "reason": "x"}),
}


@pytest.mark.parametrize("name", PARSE_ERRORS)
def test_malformed_fields_are_refused(base, name):
    with pytest.raises(InvalidRecord):
        MatchRecord.from_json(PARSE_ERRORS[name](base))


@pytest.mark.parametrize("text", ["", "not json", "{", "[1, 2", "null", "42"])
def test_bad_text_is_refused(text):
    with pytest.raises(InvalidRecord):
        MatchRecord.loads(text)


REPLAY_ERRORS = {
    "unknown game": lambda d: _edit(d, game="no_such_game/1"),
    "unknown version": lambda d: _edit(d, game="toy_tricks/99"),
    "too many seats": lambda d: _edit(d, seats=3),
    "unknown option": lambda d: _edit(d, options={"jokers": True}),
    "bad option value": lambda d: _edit(d, options={"hand": 99}),
    "seat that does not exist": lambda d: _edit(d, actions=[[7, 0]]),
    "action out of range": lambda d: _edit(d, actions=[[0, 99]]),
    "action after the end": lambda d: _edit(d, actions=[*d["actions"], d["actions"][0]]),
    "illegal first action": lambda d: _edit(d, actions=[[1 - d["actions"][0][0], 0]]),
    "broken start": lambda d: _edit(d, seed=None, start={"hands": "none"}),
    "start not an object": lambda d: _edit(d, seed=None, start=[1, 2]),
}


@pytest.mark.parametrize("name", REPLAY_ERRORS)
def test_records_that_do_not_replay_are_refused(base, name):
    record = MatchRecord.from_json(REPLAY_ERRORS[name](base))
    with pytest.raises(InvalidRecord):
        record.replay()
    with pytest.raises(InvalidRecord):
        list(record.states())


def test_replay_error_names_the_action(base):
    bad = _edit(base, actions=[*base["actions"], [0, 0]])
    with pytest.raises(InvalidRecord, match=rf"action #{len(base['actions'])} does not replay"):
        MatchRecord.from_json(bad).replay()


def test_outcome_survives_the_record(playout):
    record = MatchRecord.loads(playout.record.dumps())
    assert isinstance(record.outcome, Outcome)
    assert record.outcome == playout.final.outcome()
