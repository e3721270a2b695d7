"""Presence, in-process: a player whose last connection leaves a timed match starts a grace
period everyone is told of, its deadline included; past it the seat is away and a bot plays
it; a player back within it cancels it. Snapshots carry the same, and the grace period."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

from meeple.core import load_game
from meeple.server.live.bots import BotRunner
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch


class Watcher:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[dict] = []

    async def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def presence(self) -> list[dict]:
        return [f for f in self.frames if f["type"] == "presence"]


def _timed_match() -> StoredMatch:
    game = load_game("maatatahay", seats=2, options={})
    holders = [SeatHolder(s, f"person {s}", account_id=s + 1) for s in range(2)]
    return StoredMatch("p1", game.id, 2, dict(game.options), 8, "custom", holders, turn_seconds=90)


async def _until(predicate, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def test_the_grace_period_and_its_deadline_reach_everyone_then_the_seat_is_away() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _timed_match()
        await store.create_match(match)
        runner = BotRunner(0)
        master = MatchMaster(match, store, runner, turn_seconds=90, grace_seconds=0.6)
        player, other, spectator = Watcher(0), Watcher(1), Watcher(None)
        for connection in (player, other, spectator):
            await master.attach(connection)
        await master.start()
        assert other.frames[0]["leaving"] == [] and other.frames[0]["grace_seconds"] == 0.6
        left_at = datetime.now(UTC)
        master.detach(player)
        await _until(lambda: bool(other.presence()))
        for watcher in (other, spectator):
            frame = watcher.presence()[0]
            assert frame["away"] == []
            [leaving] = frame["leaving"]
            assert leaving["seat"] == 0
            seconds = (datetime.fromisoformat(leaving["deadline"]) - left_at).total_seconds()
            assert 0.5 <= seconds <= 0.8
        # A snapshot taken meanwhile shows the same clock.
        late = Watcher(None)
        await master.attach(late)
        assert late.frames[0]["leaving"] == other.presence()[0]["leaving"]
        # Past the deadline the seat is away, and nobody is leaving any more.
        await _until(lambda: len(other.presence()) == 2)
        assert other.presence()[1] == {"type": "presence", "away": [0], "leaving": []}
        assert master.bot_of(0) is not None
        await master.close()
        runner.close()

    asyncio.run(run())


def test_a_player_back_within_the_grace_period_ends_it_and_no_bot_plays() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _timed_match()
        await store.create_match(match)
        master = MatchMaster(match, store, None, turn_seconds=90, grace_seconds=0.5)
        player, other = Watcher(0), Watcher(1)
        await master.attach(player)
        await master.attach(other)
        await master.start()
        master.detach(player)
        await _until(lambda: bool(other.presence()))
        assert [entry["seat"] for entry in other.presence()[0]["leaving"]] == [0]
        back = Watcher(0)
        await master.attach(back)
        assert back.frames[0]["leaving"] == [] and back.frames[0]["away"] == []
        assert other.presence()[-1] == {"type": "presence", "away": [], "leaving": []}
        await asyncio.sleep(0.8)  # past the old deadline: nothing more happens
        assert len(other.presence()) == 2
        assert master.presence.away == set() and master.bot_of(0) is None
        await master.close()

    asyncio.run(run())
