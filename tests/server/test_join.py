"""``meeple join`` plays a server match from the terminal, against a real server."""

from __future__ import annotations

from typer.testing import CliRunner

from meeple.cli.main import app
from tests.server.conftest import Client, Server


def test_meeple_join_plays_a_match_to_the_end(server: Server) -> None:
    client = Client(server).guest("Terminal")
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=21)
    result = CliRunner().invoke(
        app,
        ["join", match["id"], "--server", server.base, "--token", str(client.token)],
        input="1\n" * 200,
    )
    assert result.exit_code == 0, result.output
    assert "your move>" in result.output
    assert "The match is over" in result.output
    assert client.get(f"/api/matches/{match['id']}").json()["status"] == "over"


def test_meeple_join_refuses_an_unknown_room_code(server: Server) -> None:
    result = CliRunner().invoke(
        app, ["join", "ZZZZZZ", "--server", server.base, "--name", "Late"], input=""
    )
    assert result.exit_code == 2
    assert "no room has that code" in result.output
