"""What a newcomer meets around the games: progress on the long waits (``bench``,
``replay --analyse``), flags shown without a value in ``--help``, the analysis saying why a
cell has no number, the arena's file names and a quiet interpreter probe in scripts/_venv.sh."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.analyse import UNTRIED, UNTRIED_NOTE, MoveNote, notes_table
from meeple.cli.arena import report_stem
from meeple.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PLAIN = {"COLUMNS": "120", "NO_COLOR": "1"}
# Rich draws a live progress bar only on a terminal; these say the runner's stderr is one.
TERMINAL = {**PLAIN, "TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1"}


def invoke(*args: str, env: dict[str, str] | None = None) -> Result:
    runner = CliRunner(env=env or PLAIN)
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_bench_shows_its_progress_on_stderr_and_prints_only_json_on_stdout() -> None:
    result = invoke("bench", "--game", "maatatahay", "--seconds", "0.2", env=TERMINAL)
    assert result.exit_code == 0, result.output
    assert result.stdout.lstrip().startswith("[")  # stdout stays machine-readable
    assert "bench maatatahay/1" in result.stderr


@pytest.mark.slow
def test_replay_analyse_shows_its_progress_on_stderr(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    played = invoke("selfplay", "maatatahay", "--games", "1", "--seed", "3", "--out", str(record))
    assert played.exit_code == 0, played.output
    result = invoke(
        "replay", str(record), "--analyse", "--seconds", "0.001", "--json", env=TERMINAL
    )
    assert result.exit_code == 0, result.output
    assert "analysing positions" in result.stderr
    assert result.stdout.lstrip().startswith("[")


@pytest.mark.parametrize(
    "command",
    [
        ["replay"],
        ["play"],
        ["games"],
        ["selfplay"],
        ["bench"],
        ["arena"],
        ["search-speed"],
    ],
)
def test_help_shows_no_value_after_a_flag(command: list[str]) -> None:
    result = invoke(*command, "--help")
    assert result.exit_code == 0, result.output
    assert "--help" in result.output
    assert "<bool>" not in result.output


def test_an_untried_move_says_why_it_has_no_win_percentage() -> None:
    notes = [
        MoveNote(0, 0, "pick 1", None, "pick 2", 0.6, forced=False),
        MoveNote(1, 1, "c3", None, "c3", 0.0, forced=True),
        MoveNote(2, 0, "c4", 0.4, "c4", 0.4, forced=False),
    ]
    table = notes_table(notes)
    assert table.caption is not None
    assert UNTRIED_NOTE in str(table.caption)
    assert "forced" in str(table.caption)
    assert list(table.columns[3].cells) == [UNTRIED, "forced", "40"]


def test_a_table_with_every_move_searched_has_no_footnote() -> None:
    table = notes_table([MoveNote(0, 0, "c4", 0.4, "c4", 0.4, forced=False)])
    assert table.caption is None


def test_the_arena_names_its_files_by_the_game_as_docs_ai_says() -> None:
    assert report_stem("maatatahay/1") == "maatatahay"
    assert report_stem("manafields") == "manafields"
    promised = (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    assert "`<game>-arena.json`" in promised


@pytest.mark.slow  # starts a shell
def test_the_interpreter_probe_is_quiet_when_a_shim_fails(tmp_path: Path) -> None:
    """A pyenv shim for a Python that is not installed prints to stderr; the probe hides it."""
    shim = tmp_path / "python3.13"
    shim.write_text("#!/bin/sh\necho 'pyenv: python3.13: command not found' >&2\nexit 127\n")
    shim.chmod(0o755)
    script = f'source "{ROOT / "scripts" / "_venv.sh"}"; find_python'
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}", "PYTHON": ""}
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert "pyenv" not in done.stderr
    assert done.stdout.strip() != "python3.13"


def test_the_main_install_is_not_quiet() -> None:
    text = (ROOT / "scripts" / "_venv.sh").read_text(encoding="utf-8")
    install = next(line for line in text.splitlines() if "install --progress-bar on -e" in line)
    assert "--quiet" not in install
