"""``play maiterra --seats 4 --teams`` shows teams as teams (issue 19, item 4): who is allied
with whom, the team's points once per team, and who plays each seat."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from meeple.cli.main import app

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_four_seats_in_teams_name_allies_team_points_and_each_seats_bot() -> None:
    result = invoke("play", "maiterra", "--seats", "4", "--teams", "--seed", "3", input="quit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seats: Red: you · Blue: heuristic bot · Green: heuristic bot · Gold: heuristic bot" in (
        out
    )
    assert "Teams: Red and Blue 0/26 points together · Green and Gold 0/26 points together" in out
    assert "(team" not in out
    rows = {
        line.split()[0]: line
        for line in out.splitlines()
        if line.strip()[:4] in ("Red ", "Blue", "Gree", "Gold")
    }
    assert rows["Red"].split()[2] == "Blue"  # Red (you): its ally is Blue
    assert rows["Green"].split()[1] == "Gold"


def test_three_seats_in_teams_name_the_pair_and_the_one_alone() -> None:
    result = invoke("play", "maiterra", "--seats", "3", "--teams", "--seed", "3", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Teams: Red and Blue 0/" in result.output
    assert "· Green 0/" in result.output


def test_without_teams_no_team_is_shown() -> None:
    result = invoke("play", "maiterra", "--seats", "3", "--seed", "3", input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Teams:" not in result.output and "ally" not in result.output
    assert "0/" in result.output  # each seat's points against its own target
