"""A match survives the server being killed (SIGKILL) and started again, on both databases."""

from __future__ import annotations

import random

from meeple.core import MatchRecord
from tests.server.conftest import Client, Server
from tests.server.test_live import play_out


def test_a_manafields_match_resumes_after_sigkill_with_nothing_lost(server: Server) -> None:
    client = Client(server).guest("Marshal")
    match = client.solo(
        game="manafields", seat=0, bots="heuristic", seed=31, options={"turn_limit": 3}
    )
    rng = random.Random(8)
    acked = 0
    with client.socket(match["id"]) as socket:
        frame = socket.recv()
        while acked < 6 and frame.get("outcome") is None:
            if frame["type"] in ("snapshot", "update") and 0 in frame["deciding"]:
                choice = rng.choice(frame["legal"])["id"]
                socket.send({"type": "action", "action": choice, "version": frame["version"]})
                frame = socket.until_ack()
                acked = frame["version"]
                continue
            frame = socket.recv()
        # Kill the server the moment an action is acknowledged: it must be on disk.
        socket.send(
            {"type": "action", "action": frame["legal"][0]["id"], "version": frame["version"]}
        )
        last = socket.until_ack()
        server.kill()
    server.restart()
    with client.socket(match["id"], "?since=0") as socket:
        snap = socket.recv()
        assert snap["type"] == "snapshot"
        assert snap["version"] >= last["version"]  # the bot may have answered before the kill
        assert len(snap["missed"]) == snap["version"]
        play_out(socket, 0, rng, snap)
        final = socket.frames[-1]
    record = MatchRecord.from_json(client.get(f"/api/matches/{match['id']}/record").json())
    assert len(record.actions) == final["version"]
    assert record.replay().outcome().to_json() == final["outcome"]
