"""meeple.client against a real server: a bot account sits at a table through the same API
as a person and plays a room to the end."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest

from meeple.client import Client, ClientError, play_seat, random_policy
from tests.server.conftest import Server


def test_a_bot_account_and_a_person_play_a_room_through_the_client(server: Server) -> None:
    with Client(server.base) as person, Client(server.base) as bot:
        person.guest("Wazu")
        account = bot.register(f"bot-{uuid.uuid4().hex[:8]}", "beep-boop-beep", bot=True)
        assert account["account"]["bot"] is True
        room = person.open_room("maatatahay", timer=None, public=False)
        joined = bot.join_code(room["code"])
        assert joined["players"][1]["account"] == account["account"]["id"]
        bot.ready(room["id"])
        person.start(room["id"])
        assert any(m["id"] == room["id"] for m in bot.matches())
        finals: dict[str, Any] = {}

        def play(name: str, client: Client, seed: int) -> None:
            with client.connect(room["id"]) as table:
                finals[name] = play_seat(table, random_policy(seed))

        threads = [
            threading.Thread(target=play, args=("person", person, 1)),
            threading.Thread(target=play, args=("bot", bot, 2)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert finals["person"]["outcome"] == finals["bot"]["outcome"] is not None
        record = person.record(room["id"])
        assert record.replay().outcome().to_json() == finals["person"]["outcome"]
        with pytest.raises(ClientError) as refused:
            bot.start(room["id"])
        assert refused.value.code in ("room/not_host", "room/not_waiting")
