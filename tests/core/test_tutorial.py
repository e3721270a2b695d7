"""The tutorial runner: every game's steps build, their examples pass, wrong actions explain."""

from __future__ import annotations

import pytest

import meeple.games  # noqa: F401 (registers the games)
from meeple.core import JSON, Game, InvalidTutorial, Tutorial, load_tutorial
from meeple.core.registry import kit_for, load_game
from meeple.core.tutorial import check_action, next_state, step_state

GAMES = ["maatatahay", "maiterra", "manafields"]


def _tutorial(name: str) -> tuple[Game, Tutorial]:
    provide = kit_for(name).tutorial
    assert provide is not None
    tutorial = load_tutorial(provide())
    return load_game(name, seats=tutorial.seats, options=tutorial.options), tutorial


@pytest.mark.parametrize("name", GAMES)
def test_every_step_builds_and_its_example_does_what_it_asks(name: str) -> None:
    game, tutorial = _tutorial(name)
    assert 5 <= len(tutorial.steps) <= 8
    state = step_state(game, tutorial, 0)
    for index, step in enumerate(tutorial.steps):
        assert step.seat in state.deciding_seats(), step.title
        for text in step.expect.get("any_of", []):
            assert check_action(game, step, state, text).ok, (step.title, text)
        done = check_action(game, step, state, step.example)
        assert done.ok, (step.title, done.message)
        assert done.message == step.success
        following = next_state(game, tutorial, index, done)
        if following is None:
            break
        state = following


@pytest.mark.parametrize("name", GAMES)
def test_a_wrong_action_is_explained_and_changes_nothing(name: str) -> None:
    game, tutorial = _tutorial(name)
    for index, step in enumerate(tutorial.steps):
        state = step_state(game, tutorial, index)
        before = state.to_json()
        illegal = check_action(game, step, state, "no such order")
        assert not illegal.ok and illegal.message
        for action in state.legal_actions(step.seat):
            text = game.format_action(action)
            result = check_action(game, step, state, text)
            if not result.ok:
                assert result.message == step.hints.get(text, step.wrong)
                assert result.state is state
        assert state.to_json() == before


def test_malformed_tutorials_are_refused() -> None:
    malformed: list[JSON] = [
        [],
        {"seats": 2},
        {"seats": 2, "steps": [{"title": "t"}]},
        {"seats": 2, "steps": [{"position": "previous"}]},
    ]
    for data in malformed:
        with pytest.raises(InvalidTutorial):
            load_tutorial(data)
