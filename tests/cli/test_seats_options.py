"""``--seats N`` and ``--option name=value`` on play, selfplay, arena and bench.

Options are read against the game's own option list (to the option's type: true/false,
a whole number, text) and a bad name, value or seat count is one line on stderr, exit 2.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import meeple.games  # noqa: F401
from meeple.cli.arena import play_job, schedule
from meeple.cli.common import options_from_text, parse_options
from meeple.cli.main import app
from meeple.core import InvalidOptions, MatchRecord, load_game

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def records(output: str) -> list[MatchRecord]:
    return [MatchRecord.loads(line) for line in output.splitlines() if line.startswith("{")]


# -- the shared helper ------------------------------------------------------------------------


def test_option_text_is_read_to_the_options_own_type() -> None:
    maatatahay = load_game("maatatahay").info
    manafields = load_game("manafields").info
    assert options_from_text(maatatahay, ["relic_blocks=true"]) == {"relic_blocks": True}
    assert options_from_text(maatatahay, ["relic_blocks=off"]) == {"relic_blocks": False}
    assert options_from_text(manafields, ["turn_limit=20", "faction0=elves"]) == {
        "turn_limit": 20,
        "faction0": "elves",
    }


@pytest.mark.parametrize(
    ("entries", "says"),
    [
        (["turn_limit"], "name=value"),
        (["=3"], "name=value"),
        (["speed=3"], "no option 'speed'"),
        (["turn_limit=²"], "whole number"),
        (["turn_limit=٣"], "whole number"),
        (["turn_limit=" + "9" * 5000], "whole number"),
        (["turn_limit=0"], "1..60"),
        (["turn_limit=1.5"], "whole number"),
        (["faction0=dwarves"], "must be one of"),
        (["turn_limit=3", "turn_limit=4"], "given twice"),
    ],
)
def test_a_bad_option_is_a_typed_error_quoting_it(entries: list[str], says: str) -> None:
    with pytest.raises(InvalidOptions, match=says) as caught:
        options_from_text(load_game("manafields").info, entries)
    assert len(str(caught.value)) < 200


def test_a_bad_switch_value_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="true or false"):
        options_from_text(load_game("maatatahay").info, ["relic_blocks=maybe"])


def test_parse_options_configures_seats_and_options() -> None:
    game = parse_options("maiterra", 4, ["teams=1122"])
    assert game.seats == 4
    assert game.option("teams") == "1122"
    assert parse_options("manafields", None, []).seats == 2


# -- the commands -------------------------------------------------------------------------


def test_selfplay_four_seats_with_a_bot_in_each() -> None:
    result = invoke("selfplay", "maiterra", "--seats", "4", "--bots", "random,random,random,random")
    assert result.exit_code == 0, result.output
    (record,) = records(result.output)
    assert record.seats == 4
    assert record.players == ["random bot"] * 4
    assert {seat for seat, _ in record.actions} == {0, 1, 2, 3}
    assert record.replay().outcome() == record.outcome


@pytest.mark.slow
@pytest.mark.parametrize("seats", ["3", "4"])
def test_selfplay_runs_at_three_and_four_seats(seats: str) -> None:
    result = invoke("selfplay", "maiterra", "--seats", seats, "--games", "2")
    assert result.exit_code == 0, result.output
    assert [record.seats for record in records(result.output)] == [int(seats)] * 2


def test_teams_through_option_are_recorded_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "teams.jsonl"
    result = invoke(
        "selfplay", "maiterra", "--seats", "4", "--option", "teams=1122", "--out", str(out)
    )
    assert result.exit_code == 0, result.output
    record = records(out.read_text(encoding="utf-8"))[0]
    assert record.options["teams"] == "1122"
    path = tmp_path / "one.json"
    path.write_text(record.dumps(), encoding="utf-8")
    replayed = invoke("replay", str(path), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["state"] == record.replay().to_json()


def test_selfplay_options_reach_the_record() -> None:
    result = invoke(
        "selfplay", "manafields", "--option", "turn_limit=3", "--option", "faction1=undead"
    )
    assert result.exit_code == 0, result.output
    (record,) = records(result.output)
    assert record.options["turn_limit"] == 3
    assert record.options["faction1"] == "undead"
    assert record.game() == load_game("manafields", options={"turn_limit": 3, "faction1": "undead"})


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("selfplay", "maiterra", "--seats", "5"), "played by 2 to 4 seats, not 5"),
        (("selfplay", "maiterra", "--seats", "1"), "played by 2 to 4 seats, not 1"),
        (("selfplay", "maiterra", "--option", "teams"), "name=value"),
        (("selfplay", "manafields", "--option", "colour=red"), "no option 'colour'"),
        (("bench", "--game", "manafields", "--option", "turn_limit=x"), "whole number"),
        (("bench", "--option", "turn_limit=3"), "give --game too"),
        (("arena", "manafields", "--option", "deployment=upside"), "must be one of"),
        (("play", "maatatahay", "--option", "relic_blocks=perhaps"), "true or false"),
        (("play", "maiterra", "--seats", "4", "--teams", "--option", "teams=1212"), "set twice"),
        (("selfplay", "maatatahay", "--seats", "3"), "played by 2 seats, not 3"),
    ],
)
def test_a_bad_seat_count_or_option_is_one_line_and_exit_2(
    args: tuple[str, ...], says: str
) -> None:
    result = invoke(*args, input="quit\n")
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.output
    assert says in errors[0]


def test_bench_takes_seats_and_options() -> None:
    result = invoke(
        "bench", "--game", "maiterra", "--seats", "3", "--option", "teams=112", "--seconds", "0"
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["games"] >= 1


def test_arena_matches_carry_seats_and_options() -> None:
    game = parse_options("maiterra", 3, ["teams=112"])
    jobs = schedule(["random", "random-b", "random-c"], game, 1, 0, None)
    assert all(job.seats == 3 and job.options == {"teams": "112"} for job in jobs)
    job = replace(jobs[0], lineup=("random",) * 3)
    result = play_job(job)
    assert result.actions > 0


def test_play_takes_seats_and_options_and_keeps_teams() -> None:
    result = invoke(
        "play", "maiterra", "--seats", "4", "--option", "teams=1122", "--seed", "3", input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "Teams: Red and Blue 0/26 points together" in result.output
    flag = invoke("play", "maiterra", "--seats", "4", "--teams", "--seed", "3", input="quit\n")
    assert flag.exit_code == 0, flag.output
    assert "Teams: Red and Blue 0/26 points together" in flag.output


def test_play_saves_the_options_in_the_record(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    result = invoke(
        "play",
        "manafields",
        "--option",
        "turn_limit=4",
        "--seed",
        "2",
        input=f"save {path}\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert MatchRecord.loads(path.read_text(encoding="utf-8")).options["turn_limit"] == 4
