"""Commands that need an extra say which one to install when it is missing."""

from __future__ import annotations

import pytest
import typer

from meeple.cli import common


def test_a_missing_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(common, "find_spec", lambda name: None)
    with pytest.raises(typer.Exit):
        common.needs_extra("matplotlib", "plots", "--plot")
    error = capsys.readouterr().err
    assert "--plot needs matplotlib" in error
    assert "pip install 'meeple[plots]'" in error


def test_an_installed_extra_passes() -> None:
    common.needs_extra("typer", "base", "anything")  # typer is always installed
