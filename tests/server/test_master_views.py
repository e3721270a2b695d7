"""The master builds a seat's view once per update, shared by every connection of that
seat, and none for a seat with no connection."""

from __future__ import annotations

import asyncio
import collections
import json
from typing import Any

import pytest

import meeple.games  # noqa: F401
from meeple.core import JSON, Seat, State, load_game
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch


class Connection:
    def __init__(self, seat: int | None) -> None:
        self._seat = seat
        self.frames: list[dict[str, Any]] = []

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        self.frames.append(json.loads(text))


def test_a_view_is_built_once_per_update_and_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    built: collections.Counter[tuple[int, Seat | None]] = collections.Counter()
    real_view = State.view

    def counted(state: State, seat: Seat | None) -> JSON:
        built[len(master.applied), seat] += 1
        return real_view(state, seat)

    game = load_game("manafields", seats=2)
    holders = [SeatHolder(0, "person", 0, None), SeatHolder(1, "other", 1, None)]
    match = StoredMatch("m1", game.id, 2, dict(game.options), 5, "solo", holders)
    master = MatchMaster(match, MemoryMatchStore(), None)
    monkeypatch.setattr(State, "view", counted)

    async def run() -> None:
        await master.store.create_match(match)
        first, second, watcher = Connection(0), Connection(0), Connection(None)
        for connection in (first, second, watcher):
            await master.attach(connection)
        for _ in range(4):
            seat = master.state.deciding_seats()[0]
            if seat != 0:
                break
            action = first.frames[-1]["legal"][0]["id"]
            frame = {"type": "action", "action": action, "version": master.version}
            await master.receive(first, json.dumps(frame))
        assert master.version >= 1
        assert second.frames[-1]["view"] == first.frames[-1]["view"]

    asyncio.run(run())
    assert built, "no view was built"
    # Version 0 is built once per attach (three snapshots: two for seat 0, one spectator).
    assert built[0, 0] == 2 and built[0, None] == 1, built
    assert all(count == 1 for (version, _), count in built.items() if version > 0), built
    assert all(seat != 1 for _, seat in built), "a view for a seat with no connection"
    assert {seat for _, seat in built} == {0, None}
