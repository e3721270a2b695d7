"""``meeple play``'s help and screen as a newcomer meets them, on a console without colour:
each game's own orders and key to its board, Manafields' side names, unit labels, grouped
options and its objective and deployment marks, and ``quit`` right after ``save``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.cli.play import grouped_options
from meeple.core import kit_for

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def play(*args: str, input: str) -> Result:
    return runner.invoke(app, ["play", *args], input=input, catch_exceptions=False)


@pytest.mark.parametrize(
    ("game", "forms", "marks"),
    [
        ("maatatahay", ["pick 2", "first W", "c3 s2", "E keep 1e2s"], ["●", "○", "!", "⌂", "✝"]),
        ("maiterra", ["house moon", "march c3 NE", "build farm c3", "end"], ["R3+1", "K"]),
        ("manafields", ["move A e5", "fight A G", "shoot A G", "end"], ["◇", "next 3", "###"]),
    ],
)
def test_help_shows_the_games_own_orders_and_a_key_to_its_board(
    game: str, forms: list[str], marks: list[str]
) -> None:
    result = play(game, "--seed", "1", input="help\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    for form in forms:
        assert form in out, form
    for mark in marks:
        assert mark in out, mark
    assert "Key to the" in out
    assert "undo" in out and "moves" in out  # the commands every game shares
    if game != "maatatahay":
        assert "pick 1" not in out and "for example" not in out  # no other game's orders


def test_every_registered_drawing_offers_a_help_text() -> None:
    for game in ("maatatahay", "maiterra", "manafields"):
        assert "Key to the" in kit_for(game).draw.help_text()


def test_manafields_prompt_names_the_side_and_a_mirror_match_tells_the_sides_apart() -> None:
    result = play(
        "manafields", "--seed", "1", "--faction", "elves", "--vs", "elves", input="quit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Elves (first)>" in out
    assert "seat 0>" not in out
    assert re.search(r"Elves \(first\) +score", out)
    assert re.search(r"Elves \(second\) +score", out)


def test_manafields_units_read_sensibly() -> None:
    result = play("manafields", "--seed", "1", "--faction", "elves", "--vs", "orcs", input="quit\n")
    out = result.output
    assert "High Warden (General)" in out
    assert "(general, General)" not in out
    assert "Bladedancers (infantry)" in out


def test_manafields_options_are_grouped_and_moves_numbers_them_all() -> None:
    result = play("manafields", "--seed", "1", input="moves\nquit\n")
    out = result.output
    before_moves = out.split("moves to number them all")[0]
    assert re.search(r"^move A: ", before_moves, re.MULTILINE)  # grouped by unit
    assert not re.search(r"\b50 move ", before_moves)  # not numbered every turn
    after = out.split("moves to number them all")[1]
    assert re.search(r"\b50 move ", after)  # ``moves`` numbers every option


def test_a_short_list_of_options_stays_numbered() -> None:
    result = play("maatatahay", "--seed", "1", input="quit\n")
    assert re.search(r"\b1 pick 1", result.output)
    assert "moves to number them all" not in result.output


def test_grouped_options_keep_one_word_orders_whole() -> None:
    text = grouped_options(["end", "done", "move A a1", "move A b1", "fight A G"]).plain
    assert text.splitlines() == ["end", "done", "move A: a1 b1", "fight A G"]


def test_manafields_objectives_and_zones_show_without_colour() -> None:
    result = play("manafields", "--seed", "1", input="quit\n")
    lines = result.output.splitlines()
    grid = [line for line in lines if re.match(r"^ ?\d{1,2} ( [·:◇] |###|[A-L]\d)", line)][:12]
    assert [int(line[:2]) for line in grid] == list(range(12, 0, -1))
    assert any("◇" in line for line in grid)  # objective squares
    assert any(" : " in line for line in grid)  # deployment zones
    assert "\x1b[" not in result.output  # no colour codes at all


def test_quit_right_after_save_says_where_the_match_is(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    result = play("maatatahay", "--seed", "1", input=f"1\nsave {target}\nquit\n")
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert "save with" not in last
    assert "saved in" in last and "m.json" in last


def test_quit_after_playing_on_past_a_save_still_asks_to_save(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    result = play("maatatahay", "--seed", "1", input=f"save {target}\n1\nquit\n")
    assert "save with 'save FILE'" in result.output.strip().splitlines()[-1]
