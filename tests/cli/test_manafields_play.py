"""``meeple play manafields``: the factions from --faction, --enemy or --vs, and the default
opponent (the heuristic bot)."""

from __future__ import annotations

import re

from typer.testing import CliRunner, Result

from meeple.cli.main import app

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["play", "manafields", "--seed", "1", *args], input="quit\n")


def _sides(output: str) -> list[str]:
    """The factions named on the first two score lines, seat 0's first."""
    found = re.findall(r"\b(Humans|Elves|Orcs|Undead) +score", output)
    return found[:2]


def test_vs_a_faction_sets_the_enemy_and_plays_the_heuristic_bot() -> None:
    result = invoke("--faction", "elves", "--vs", "orcs")
    assert result.exit_code == 0, result.output
    assert "against the heuristic bot" in result.output
    assert _sides(result.output) == ["Elves", "Orcs"]


def test_faction_and_enemy_with_a_named_bot() -> None:
    result = invoke("--faction", "Undead", "--enemy", "humans", "--vs", "random", "--seat", "1")
    assert result.exit_code == 0, result.output
    assert "you are seat 1 against the random bot" in result.output
    assert _sides(result.output) == ["Humans", "Undead"]
    assert "Ghouls" in result.output


def test_two_different_enemies_or_an_unknown_faction_exit_2() -> None:
    result = invoke("--vs", "orcs", "--enemy", "undead")
    assert result.exit_code == 2
    assert "'orcs'" in result.output and "'undead'" in result.output
    assert invoke("--vs", "orcs", "--enemy", "orcs").exit_code == 0
    assert invoke("--faction", "dwarves").exit_code == 2
    assert invoke("--vs", "dwarves").exit_code == 2
