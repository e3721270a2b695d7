"""``meeple play maiterra``: simultaneous planning against bots, driven with piped input."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.cli.play import team_option

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
ALWAYS_FIRST = "1\n" * 400


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_a_short_match_to_the_end_shows_map_resources_and_turn_reports() -> None:
    """The person always takes option 1 (its house, its draft, then ``end``): the bots win."""
    result = invoke("play", "maiterra", "--seats", "2", "--seed", "5", input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "against the heuristic bot" in out
    assert "a1 " in out and "e4 " in out and "~~~~" in out  # the map and its lakes
    assert "F farm" in out  # the legend of building letters
    for column in ("food", "wood", "brick", "coins", "people", "points"):
        assert column in out
    assert "Your orders (0/6): none yet" in out
    assert "Turn 1 resolved" in out
    assert "Blue ordered:" in out
    assert "Game over:" in out


def test_bots_orders_stay_sealed_until_the_turn_resolves() -> None:
    result = invoke("play", "maiterra", "--seats", "3", "--seed", "2", input="1\n1\n1\nquit\n")
    out = result.output
    assert "queues:" not in out  # a bot's queued order is never described
    assert "locks in the house" not in out  # nor its house before all have locked
    assert "house locked" in out
    assert out.index("Houses:") > out.index("Red>")


def test_the_person_queues_orders_and_sees_them_in_the_plan() -> None:
    script = "1\n1\n1\nbuild farm b3\nmarch a3 E\nquit\n"
    result = invoke("play", "maiterra", "--seats", "2", "--seed", "5", input=script)
    assert "Your orders (" in result.output
    # Whatever the draft gave, a bad or illegal order explains and asks again.
    assert "✗" in result.output or "Your orders (1/6)" in result.output


def test_teams_at_four_seats_score_together() -> None:
    result = invoke("play", "maiterra", "--seats", "4", "--teams", "--seed", "3", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "(team" not in result.output  # the team's points show once, under Teams
    assert "Teams: Red and Blue 0/26 points together · Green and Gold 0/26" in result.output
    assert "Gold" in result.output


def test_teams_need_three_seats() -> None:
    result = invoke("play", "maiterra", "--seats", "2", "--teams", input="quit\n")
    assert result.exit_code == 2
    assert team_option(3) == "112"
    assert team_option(4) == "1122"


def test_bench_times_four_seat_matches() -> None:
    result = invoke("bench", "--game", "maiterra", "--seats", "4", "--seconds", "0")
    assert result.exit_code == 0, result.output
    assert '"game": "maiterra/3"' in result.output
    assert invoke("bench", "--game", "maiterra", "--seats", "5").exit_code == 2
