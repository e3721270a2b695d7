"""The terminal prompt of ``meeple play`` takes any line without crashing.

Whatever is typed -- ``²`` (a digit to ``str.isdigit``, not to ``int``), a number of 5,000
digits, a megabyte, control characters, Rich markup -- the prompt prints one error line,
whole (the terminal wraps it, not Rich), changes nothing and asks again.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from meeple.cli.main import app

WIDE = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
NARROW = CliRunner(env={"COLUMNS": "80", "NO_COLOR": "1"})


LEAVE_OR_WRITE = frozenset({"quit", "exit", "q", "save"})
"""Commands the random lines leave out: they end the match or write files."""


def play(entries: str, runner: CliRunner = WIDE, game: str = "maatatahay") -> Result:
    return runner.invoke(
        app, ["play", game, "--vs", "random", "--seed", "1"], input=entries + "\nquit\n"
    )


def error_lines(result: Result) -> list[str]:
    """The error lines (after the prompt, which piped input does not end with a newline)."""
    return [line for line in result.output.splitlines() if "✗" in line]


@pytest.mark.slow
@pytest.mark.parametrize(
    "entry",
    [
        "²",
        "¹²",
        "٣",
        "5" * 5000,
        "9" * 4301,
        "-1",
        "0",
        "1e9",
        "x" * 1_000_000,
        "[bold]c3[/]",
        "\x00\x1b[2J",
        "save \x00",
        "load \x00",
        "load /",
        "save /nonexistent/dir/file.json",
        "undo",
        "undo " + "9" * 5000,
    ],
)
def test_no_entry_crashes_the_prompt(entry: str) -> None:
    result = play(entry)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Bye." in result.output
    assert len(result.output) < 20_000  # a long entry is never echoed back whole


def test_an_option_number_out_of_range_says_the_range() -> None:
    result = play("²\n9999999\n" + "8" * 150)
    lines = error_lines(result)
    assert len(lines) == 3
    assert "not Maatatahay notation" in lines[0]
    assert "there is no option 9999999; choose 1-3" in lines[1]
    assert "there is no option 888888888…; choose 1-3" in lines[2]


def test_error_lines_are_printed_whole_at_80_columns() -> None:
    entry = "a-notation-that-is-long-enough-to-pass-eighty-columns-when-it-is-quoted-back-zz"
    result = play(entry, NARROW)
    (line,) = error_lines(result)
    assert len(line) > 80 + len("Balan> ")
    assert entry[:40] in line
    assert line.endswith("'N keep 1e0s'")  # the end of the message, on the same line


def test_a_megabyte_entry_is_refused_before_it_is_parsed() -> None:
    (line,) = error_lines(play("y" * 1_000_000))
    assert "at most 200 characters" in line


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.text(
            st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
            max_size=40,
        ).filter(lambda text: text.strip().partition(" ")[0].lower() not in LEAVE_OR_WRITE),
        max_size=4,
    )
)
def test_any_lines_leave_the_prompt_standing(lines: list[str]) -> None:
    result = play("\n".join(lines))
    assert result.exit_code == 0, result.output
    assert "Bye." in result.output


@pytest.mark.parametrize("game", ["maiterra", "manafields"])
def test_other_games_prompts_take_odd_entries(game: str) -> None:
    result = play("²\n" + "7" * 5000 + "\n" + string.punctuation, game=game)
    assert result.exit_code == 0, result.output
    assert len(error_lines(result)) == 3
