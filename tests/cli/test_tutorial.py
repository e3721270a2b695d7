"""``meeple tutorial GAME``: a scripted learner completes each game's tutorial."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.core import load_tutorial
from meeple.core.registry import kit_for

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
GAMES = ["maatatahay", "maiterra", "manafields"]


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def _steps(name: str) -> list[tuple[str, str, str]]:
    """Each step's title, what the learner types (a win's whole line), its success."""
    provide = kit_for(name).tutorial
    assert provide is not None
    return [
        (s.title, "\n".join(s.solution) if s.to_win else s.example, s.success)
        for s in load_tutorial(provide()).steps
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_learner_who_does_what_each_step_asks_completes_the_tutorial(name: str) -> None:
    steps = _steps(name)
    result = invoke("tutorial", name, input="".join(f"{example}\n" for _, example, _ in steps))
    assert result.exit_code == 0, result.output
    out = result.output
    for number, (title, _, success) in enumerate(steps, 1):
        assert f"Step {number}/{len(steps)}: {title}" in out
        assert success.split("`")[0][:40] in out.replace("\n", " ")
    assert "Not yet" not in out
    assert "Tutorial complete." in out


def test_a_wrong_action_is_explained_and_the_step_stays() -> None:
    """Maiterra's fourth step asks for a march: ``end`` is legal but not asked, ``fly`` is no
    order at all; after both the step and its position are unchanged and a march passes."""
    steps = _steps("maiterra")
    script = [example for _, example, _ in steps[:3]] + ["end", "fly a1", steps[3][1], "quit"]
    result = invoke("tutorial", "maiterra", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not yet: That is not the order this step asks for." in out
    assert "not Maiterra notation" in out  # the engine's reason for an order it cannot read
    assert "seat 1, action" not in out  # a refusal as a match words it
    assert out.count(f"Step 4/{len(steps)}") == 1  # not shown again: it did not advance
    assert f"Step 5/{len(steps)}" in out
    assert "Tutorial left." in out
    assert "Tutorial complete." not in out


def test_hint_shows_an_action_and_an_unknown_game_is_refused() -> None:
    result = invoke("tutorial", "maatatahay", input="hint\nquit\n")
    assert f"Try: {_steps('maatatahay')[0][1]}" in result.output
    refused = invoke("tutorial", "chess")
    assert refused.exit_code == 2
