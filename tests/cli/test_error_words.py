"""Errors speak the rules' words (issue 19, item 5): the rule that forbids an order and what
the seat holds, in words -- never a raw dict, a seat's action id, "1 fangs", "2-2 seats",
"unknown: []" or "[Errno 2]"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.games.maiterra.helpers import army, cell, own, planning
from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.core import MatchRecord
from meeple.core.errors import IllegalAction
from meeple.games.maiterra import Maiterra
from meeple.games.maiterra.data import RULES

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
RED = 0
PYTHON = re.compile(r"\{'|\[\]|\[Errno|seat \d+, action \d+")
"""What an error for people never holds: a dict, an empty list, an errno, a seat's action id."""


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def error_lines(result: Result) -> list[str]:
    return [line for line in result.output.splitlines() if "✗" in line or "error:" in line]


def _forest_position(tmp_path: Path) -> Path:
    """Red plans turn 1 holding c3, a forest, with 3 food and 4 idle people."""
    state = planning()
    state.terrain[cell("c3")] = RULES.terrains.index("forest")
    own(state, RED, "c3")
    army(state, RED, "c3", soldiers=1)
    own(state, 1, "a1")
    state.res[RED] = [3, 0, 0, 0]
    record = MatchRecord.for_game(Maiterra(seats=2), start_state=state.to_json())
    record.players = ["human", "greedy"]
    path = tmp_path / "forest.json"
    path.write_text(record.dumps(indent=2), encoding="utf-8")
    return path


def test_a_farm_on_a_forest_names_the_slot_rule_at_the_prompt(tmp_path: Path) -> None:
    path = _forest_position(tmp_path)
    script = "build farm c3\nbuild house c3\ntrain soldier c3\nclaim e5\nquit\n"
    result = invoke("play", "maiterra", "--load", str(path), input=script)
    assert result.exit_code == 0, result.output
    lines = error_lines(result)
    assert len(lines) == 4, result.output
    assert (
        "needs a matching slot on the field's terrain, and c3 is forest, which has no farm"
        in (lines[0])
    )
    assert (
        "a house costs 1 wood and 3 brick; you have 3 food, no wood, no brick, no coins, "
        in (lines[1])
    )
    assert "4 idle people and no cards left this turn" in lines[1]
    assert "units are trained at a barracks, and there is none on c3" in lines[2]
    assert "to claim an empty field you pay 1 wood and 1 coin" in lines[3]
    for line in lines:
        assert not PYTHON.search(line), line


def test_every_refused_order_of_a_plan_speaks_words() -> None:
    state = planning()
    own(state, RED, "c3", "d3")
    army(state, RED, "c3", soldiers=2, cavalry=1)
    state.terrain[cell("d3")] = RULES.terrains.index("clay")
    legal = set(state.legal_actions(RED))
    game = state.game
    for action in range(game.num_distinct_actions()):
        if action in legal:
            continue
        with pytest.raises(IllegalAction) as refused:
            state.apply(RED, action)
        assert not PYTHON.search(refused.value.reason), refused.value.reason
        assert "cannot be done or paid for" not in refused.value.reason


def test_a_pick_past_the_stream_says_there_is_no_such_pair() -> None:
    result = invoke("play", "maatatahay", "--seed", "3", "--vs", "random", input="pick 9\nquit\n")
    lines = error_lines(result)
    assert lines and "there is no pair 9: the stream shows pairs 1 to 3" in lines[0]
    assert "not Maatatahay notation" not in lines[0]


def test_a_space_off_the_board_is_named() -> None:
    result = invoke("play", "maatatahay", "--seed", "3", "--vs", "random", input="f7\nquit\n")
    assert any("there is no space f7" in line for line in error_lines(result))


def test_a_tile_of_one_fang_is_singular() -> None:
    from meeple.games.maatatahay import view  # noqa: PLC0415

    source = Path(view.__file__).read_text(encoding="utf-8")
    assert "'fang' if tile.fangs == 1" in source


@pytest.mark.parametrize(
    ("args", "said", "unsaid"),
    [
        (
            ("selfplay", "maatatahay", "--seats", "3"),
            "Maatatahay is played by 2 seats, not 3",
            "2-2",
        ),
        (("selfplay", "maiterra", "--seats", "5"), "played by 2 to 4 seats, not 5", "2-4"),
        (("selfplay", "maatatahay", "--bots", ","), "give one bot; the bots are", "unknown"),
        (("arena", "maatatahay", "--bots", "random"), "give 2 or more bots", "unknown: []"),
        (("selfplay", "maatatahay", "--bots", "rnd"), "no bot is called 'rnd'", "[]"),
        (("replay", "/nowhere/x.json"), "there is no such file", "Errno"),
        (
            ("selfplay", "maatatahay", "--out", "/nowhere/x.jsonl"),
            "its folder does not exist",
            "Errno",
        ),
        (("balance", "maatatahay", "--merge", "/nowhere.json"), "there is no such file", "Errno"),
    ],
)
def test_command_errors_speak_words(args: tuple[str, ...], said: str, unsaid: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert unsaid not in result.output


def test_an_illegal_order_at_the_prompt_quotes_no_action_id() -> None:
    # Maatatahay's first decision is Wazu's pick; c3 is notation for a later one.
    result = invoke("play", "maatatahay", "--seed", "3", "--vs", "random", "--seat", "1",
                    input="c3\nquit\n")  # fmt: skip
    lines = error_lines(result)
    assert lines, result.output
    assert not PYTHON.search(lines[0]), lines[0]
    assert "'c3' is not legal now" in lines[0]


def test_a_record_that_does_not_replay_names_the_seat_in_words(tmp_path: Path) -> None:
    from meeple.core import load_game  # noqa: PLC0415

    record = MatchRecord.for_game(load_game("maatatahay"), seed=3)
    record.add(0, 0)  # Balan picks, but Wazu picks first
    path = tmp_path / "bad.json"
    path.write_text(record.dumps(), encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert "does not replay (seat 0): it is Wazu's turn" in result.output
