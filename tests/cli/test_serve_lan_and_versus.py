"""Commands as a newcomer runs them: ``meeple serve --lan`` says the address others on the
Wi-Fi open (not 127.0.0.1), and ``meeple vs-openspiel`` plays Maiterra (a game of
simultaneous planning) against OpenSpiel's searches instead of ending in a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.main import app

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), catch_exceptions=False)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``meeple serve`` up to the point it would start uvicorn: what it would serve."""
    pytest.importorskip("uvicorn")
    import uvicorn  # noqa: PLC0415

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda _app, **served: calls.append(served))
    return calls


def test_serve_lan_prints_the_address_others_on_the_network_open(
    served: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    pytest.importorskip("ifaddr")
    from meeple.server.modes import lan  # noqa: PLC0415

    monkeypatch.setattr(lan, "lan_addresses", lambda host: ["192.168.1.23", "10.0.0.5"])
    database = f"sqlite+aiosqlite:///{tmp_path / 'meeple.db'}"
    result = invoke("serve", "--lan", "--port", "8123", "--database-url", database)
    assert result.exit_code == 0, result.output
    assert "others on the local network open http://192.168.1.23:8123" in result.output
    assert "others on the local network open http://10.0.0.5:8123" in result.output
    assert served and served[0]["host"] == "0.0.0.0"


def test_serve_lan_without_a_network_says_others_cannot_reach_it(
    served: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    pytest.importorskip("ifaddr")
    from meeple.server.modes import lan  # noqa: PLC0415

    monkeypatch.setattr(lan, "lan_addresses", lambda host: ["127.0.0.1"])
    database = f"sqlite+aiosqlite:///{tmp_path / 'meeple.db'}"
    result = invoke("serve", "--lan", "--port", "8123", "--database-url", database)
    assert result.exit_code == 0, result.output
    assert "no address on a local network: others cannot reach it" in result.output
    assert "others on the local network open" not in result.output


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["ismcts"])
def test_vs_openspiel_plays_maiterra_in_turns(opponent: str) -> None:
    pytest.importorskip("pyspiel")
    result = invoke(
        "vs-openspiel", "maiterra", "--opponent", opponent, "--games", "2", "--seconds", "0.01",
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["game"] == "maiterra" and report["games"] == 2
    assert all(score in (0.0, 0.5, 1.0) for score in report["scores"])
