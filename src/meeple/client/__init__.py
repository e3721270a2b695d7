"""A Python client of the meeple server: REST calls and the match WebSocket.

    with Client("http://127.0.0.1:8000") as client:
        client.guest("Ana")
        match = client.solo(game_id, bots="mcts-normal")
        with client.connect(match["id"]) as table:
            final = play_seat(table, lambda frame: frame["legal"][0]["id"])

A bot account plays through the same calls as a person (``client.register(..., bot=True)``).
This package speaks HTTP and WebSocket only: it imports nothing of ``meeple.server``.
"""

from meeple.client.client import Client, ClientError, MatchConnection, play_seat, random_policy

__all__ = ["Client", "ClientError", "MatchConnection", "play_seat", "random_policy"]
