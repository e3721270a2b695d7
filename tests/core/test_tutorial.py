"""The tutorial runner: every game's steps build, their examples pass, wrong actions explain."""

from __future__ import annotations

import pytest

import meeple.games  # noqa: F401 (registers the games)
from meeple.core import JSON, Game, InvalidTutorial, Tutorial, load_tutorial
from meeple.core.registry import kit_for, load_game
from meeple.core.tutorial import check_action, check_tutorial, next_state, play_on, step_state

GAMES = ["maatatahay", "maiterra", "manafields"]


def _tutorial(name: str) -> tuple[Game, Tutorial]:
    provide = kit_for(name).tutorial
    assert provide is not None
    tutorial = load_tutorial(provide())
    return load_game(name, seats=tutorial.seats, options=tutorial.options), tutorial


@pytest.mark.parametrize("name", GAMES)
def test_every_step_builds_and_its_example_does_what_it_asks(name: str) -> None:
    game, tutorial = _tutorial(name)
    assert 5 <= len(tutorial.steps) <= 12
    state = step_state(game, tutorial, 0)
    check_tutorial(game, tutorial)
    for index, step in enumerate(tutorial.steps):
        if step.position != "previous":
            state = step_state(game, tutorial, index)
        assert step.seat in state.deciding_seats(), step.title
        if step.to_win:
            end = play_on(game, step, state, step.solution[:-1])
            won = check_action(game, step, end, step.solution[-1])
            assert won.done and won.message.startswith("You won!"), won.message
            break
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
        if step.to_win:
            continue  # every legal action is played on
        for action in state.legal_actions(step.seat):
            text = game.format_action(action)
            result = check_action(game, step, state, text)
            if not result.ok:
                assert result.message == step.hints.get(text, step.wrong)
                assert result.state is state
        assert state.to_json() == before


def _step(seat: int, position: JSON) -> JSON:
    return {
        "title": "Pick",
        "text": "Pick the second pair.",
        "position": position,
        "seat": seat,
        "expect": {"any_of": ["pick 2"]},
        "example": "pick 2",
        "wrong": "No.",
        "success": "Yes.",
    }


def test_a_scripted_answer_is_checked_and_a_refusal_says_the_reason_only() -> None:
    """A scripted answer refused where it is played fails the check of the whole tutorial;
    a refused action reads as a match's refusal: the engine's reason, no seat or id."""
    game = load_game("maatatahay", seats=2)
    good = {**_step(0, {"setup": {"seed": 1}}), "answers": []}
    tutorial = load_tutorial({"seats": 2, "steps": [good, {**_step(0, "previous")}]})
    with pytest.raises(InvalidTutorial):
        check_tutorial(game, tutorial)  # after "pick 2" the Balan say who places first
    bad = load_tutorial({"seats": 2, "steps": [{**good, "answers": [[1, "pick 1"]]}]})
    with pytest.raises(InvalidTutorial, match="scripted answer"):
        check_tutorial(game, bad)
    state = step_state(game, bad, 0)
    refused = check_action(game, bad.steps[0], state, "z9 N keep 0e0s")
    assert not refused.ok and not refused.message.startswith("seat")
    assert "action" not in refused.message.split(":")[0]


def test_malformed_tutorials_are_refused() -> None:
    malformed: list[JSON] = [
        [],
        {"seats": 2},
        {"seats": 2, "steps": [{"title": "t"}]},
        {"seats": 2, "steps": [{"position": "previous"}]},
        {"seats": 2, "steps": [_step(0, {"setup": {"seed": 1}}), _step(1, "previous")]},
        {"seats": 2, "steps": [_step(0, {"setup": {"seed": 1}}), _step(0, {"setup": {"seed": 2}})]},
        {"seats": 2, "steps": [{**_step(0, {"setup": {"seed": 1}}), "answers": [[1]]}]},
    ]
    for data in malformed:
        with pytest.raises(InvalidTutorial):
            load_tutorial(data)


def test_every_tutorial_is_one_match_from_one_seat() -> None:
    for name in GAMES:
        _game, tutorial = _tutorial(name)
        assert len({step.seat for step in tutorial.steps}) == 1, name
        assert all(step.position == "previous" for step in tutorial.steps[1:-1]), name
        assert tutorial.steps[-1].to_win, f"{name}: the last step is played on to a win"


def test_a_state_position_a_previous_position_a_view_path_and_hints() -> None:
    """The other ways a step can be written: a position given as state JSON, one that follows
    the step before, what the seat's view shows after the action, and a hint for one action."""
    game = load_game("maatatahay", seats=2)
    start = game.new_initial_state(4)
    seat = start.deciding_seats()[0]
    data: JSON = {
        "seats": 2,
        "steps": [
            {
                "title": "Pick",
                "text": "Pick the second pair.",
                "position": {"state": start.to_json()},
                "seat": seat,
                "expect": {"any_of": ["pick 2"]},
                "example": "pick 2",
                "wrong": "The second pair, please.",
                "hints": {"pick 1": "That is the first pair."},
                "success": "Picked.",
            },
            {
                "title": "Who places first",
                "text": "Say who places first.",
                "position": "previous",
                "seat": seat,
                "expect": {"view_path": ["phase"], "equals": "place"},
                "example": "first B",
                "wrong": "Say who places first.",
                "success": "Set.",
            },
        ],
    }
    tutorial = load_tutorial(data)
    first = step_state(game, tutorial, 0)
    assert first == start and first is not start
    hinted = check_action(game, tutorial.steps[0], first, "pick 1")
    assert not hinted.ok and hinted.message == "That is the first pair."
    assert (
        check_action(game, tutorial.steps[0], first, "pick 3").message == "The second pair, please."
    )
    done = check_action(game, tutorial.steps[0], first, "pick 2")
    assert done.ok
    after = next_state(game, tutorial, 0, done)
    assert after is not None and after == step_state(game, tutorial, 1)
    step = tutorial.steps[1]
    assert step.seat in after.deciding_seats()
    assert check_action(game, step, after, step.example).ok


def test_maatatahay_is_one_match_from_one_side_in_prose() -> None:
    """Maatatahay's tutorial is one match from the Balan's seat: every step continues the
    position the step before left, after the Wazu's answer; the text names no notation to
    type."""
    game, tutorial = _tutorial("maatatahay")
    assert {step.seat for step in tutorial.steps} == {0}
    assert all(step.position == "previous" for step in tutorial.steps[1:-1])
    for step in tutorial.steps:
        assert "`" not in step.text + step.success and "type" not in step.text.lower()
    state = step_state(game, tutorial, 0)
    for index, step in enumerate(tutorial.steps[:-1]):
        assert state.deciding_seats() == (0,), step.title  # the Wazu have answered
        done = check_action(game, step, state, step.example)
        following = next_state(game, tutorial, index, done)
        if following is None or tutorial.steps[index + 1].to_win:
            break  # the last step is a short endgame of its own
        assert following is done.state  # the same match goes on
        state = following


def _won(game: Game, tutorial: Tutorial, line: list[str]) -> bool:
    last = len(tutorial.steps) - 1
    end = play_on(game, tutorial.steps[last], step_state(game, tutorial, last), line)
    outcome = end.outcome() if end.is_terminal() else None
    return outcome is not None and tutorial.steps[last].seat in outcome.winners


@pytest.mark.parametrize("general", ["move A a3", "move A b3", "move A c3", "move A b4"])
@pytest.mark.parametrize("spearmen", [[], ["move C e4", "move C c6"], ["move C c4", "move C b7"]])
def test_manafields_last_step_is_won_by_the_plan_its_text_gives(
    general: str, spearmen: list[str]
) -> None:
    """The text's plan wins wherever the Lord Marshal leaves the deployment zone to, with
    or without the Veteran Spearmen on the west objective; ignoring the General loses,
    whatever else is held (he is what a newcomer would not guess)."""
    game, tutorial = _tutorial("manafields")
    last = tutorial.steps[-1]
    assert "Lord Marshal (A)" in last.text and "ranks 1 and 2" in last.text
    assert _won(game, tutorial, [general, "end", *spearmen, "end"])
    assert not _won(game, tutorial, ["end", "move C e4", "move C c6", "end"])


def test_maiterra_last_step_is_won_by_taking_both_moon_fields() -> None:
    """Maiterra's endgame: the two marches onto the empty Moon fields, in either order, win
    in one turn; one of them alone does not end the match."""
    game, tutorial = _tutorial("maiterra")
    assert _won(game, tutorial, ["march a1 SE", "march a4 E", "end"])
    assert _won(game, tutorial, ["march a4 E", "march a1 SE", "end"])
    assert not _won(game, tutorial, ["march a1 SE", "end"])
