"""A Python client of the meeple server: REST calls and the match WebSocket.

    with Client("http://127.0.0.1:8000") as client:
        client.guest("Ana")
        match = client.solo(game_id, bots="mcts-normal")
        with client.connect(match["id"]) as table:
            final = play_seat(table, lambda frame: frame["legal"][0]["id"])

A bot account plays through the same calls as a person (``client.register(..., bot=True)``).
A policy sees each frame where its seat decides (``frame["view"]``, ``frame["legal"]``);
:func:`searching_policy` lets one of meeple's bots choose on a state rebuilt from the view,
:func:`trained_policy` hands an agent trained on the PettingZoo environment the observation
and action mask it was trained on (docs/bot-accounts.md).
This package speaks HTTP and WebSocket only: it imports nothing of ``meeple.server``.
"""

from meeple.client.bots import Decision, searching_policy, trained_policy
from meeple.client.client import Client, ClientError, MatchConnection, play_seat, random_policy

__all__ = [
    "Client",
    "ClientError",
    "Decision",
    "MatchConnection",
    "play_seat",
    "random_policy",
    "searching_policy",
    "trained_policy",
]
