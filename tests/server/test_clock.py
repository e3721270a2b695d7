"""The server-authoritative turn timer, in-process: one deadline, stored; at zero the seats
that have not ended hand in what they queued; a sequential seat's bot decides; deadlines
survive a rebuild."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace

from meeple.core import load_game
from meeple.server.live.bots import BotRunner
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch
from meeple.server.store.models import utcnow


def _room(game_id: str, seats: int, options: dict, seed: int, seconds: int) -> StoredMatch:
    game = load_game(game_id, seats=seats, options=options)
    holders = [SeatHolder(s, f"person {s}", account_id=s + 1) for s in range(seats)]
    return StoredMatch(
        "t1", game.id, seats, dict(game.options), seed, "custom", holders, turn_seconds=seconds
    )


async def _until(predicate, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def test_at_zero_maiterra_seats_hand_in_their_half_written_queues() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _room("maiterra", 4, {"teams": "1122"}, 12, 1)
        await store.create_match(match)
        master = MatchMaster(match, store, None, turn_seconds=0.4)
        await master.start()
        rng = random.Random(2)
        # The house pick and the draft are Decisions: no timer runs.
        while len(master.state.deciding_seats()) < 4 or master.deadline is None:
            assert master.deadline is None
            seat = master.state.deciding_seats()[0]
            await master.submit(seat, rng.choice(master.state.legal_actions(seat)), version=None)
        turn = master.state.view(None)["turn"]
        deadline = master.deadline
        assert store.matches["t1"].deadline == deadline
        end = master.state.hand_in_action(0)
        # Seats 0 and 1 queue an order each and do not end; seats 2 and 3 do nothing.
        queued = []
        for seat in (0, 1):
            order = next(a for a in master.state.legal_actions(seat) if a != end)
            await master.submit(seat, order, version=None)
            queued.append((seat, order))
        assert master.deadline == deadline  # one deadline for the whole turn
        await _until(lambda: master.state.view(None)["turn"] == turn + 1)
        actions = store.matches["t1"].actions
        handed_in = actions[-4:]
        assert handed_in == [(seat, end) for seat in range(4)]
        assert actions[-6:-4] == queued
        assert master.deadline is not None and master.deadline > deadline
        await master.close()

    asyncio.run(run())


def test_at_zero_a_sequential_seats_bot_takes_its_decision() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _room("maatatahay", 2, {}, 6, 60)
        await store.create_match(match)
        runner = BotRunner(0)
        master = MatchMaster(match, store, runner, turn_seconds=0.2)
        await master.start()
        first = master.state.deciding_seats()
        assert master.deadline is not None
        await _until(lambda: master.version >= 2)
        assert store.matches["t1"].actions[0][0] == first[0]
        await master.close()
        runner.close()

    asyncio.run(run())


def test_a_deadline_passed_while_the_server_was_down_rings_on_rebuild() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _room("maiterra", 2, {}, 3, 90)
        await store.create_match(match)
        first = MatchMaster(match, store, None, turn_seconds=90)
        await first.start()
        rng = random.Random(1)
        while first.deadline is None:
            seat = first.state.deciding_seats()[0]
            await first.submit(seat, rng.choice(first.state.legal_actions(seat)), version=None)
        version = first.version
        await first.close()
        # The server was down past the deadline: rebuilt, the clock rings at once.
        stored = await store.load_match("t1")
        assert stored is not None and stored.deadline == first.deadline
        stored = replace(stored, deadline=utcnow())
        second = MatchMaster(stored, store, None, turn_seconds=90)
        assert second.deadline == stored.deadline
        await second.start()
        await _until(lambda: second.version == version + 2)
        assert second.state.view(None)["turn"] == 2
        await second.close()

    asyncio.run(run())


class Watcher:
    def __init__(self, seat: int | None) -> None:
        self._seat = seat
        self.frames: list[dict] = []

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        self.frames.append(json.loads(text))


def test_a_player_away_past_the_grace_period_is_played_by_a_bot_until_returning() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        match = _room("maatatahay", 2, {}, 8, 90)
        await store.create_match(match)
        runner = BotRunner(0)
        master = MatchMaster(match, store, runner, turn_seconds=90, grace_seconds=0.2)
        first = master.state.deciding_seats()[0]
        other = 1 - first
        player, watcher = Watcher(first), Watcher(other)
        await master.attach(player)
        await master.attach(watcher)
        await master.start()
        await asyncio.sleep(0.4)
        assert master.version == 0  # connected: nobody plays for the seat
        master.detach(player)
        await _until(
            lambda: any(f["type"] == "presence" and f["away"] == [first] for f in watcher.frames)
        )
        # A bot plays the away seat; the other seat is a person still connected, so the
        # match waits for it after the bot's move.
        await _until(lambda: master.version >= 1)
        assert store.matches["t1"].actions[0][0] == first
        back = Watcher(first)
        await master.attach(back)
        assert back.frames[0]["away"] == []
        assert watcher.frames[-1] == {"type": "presence", "away": [], "leaving": []}
        # Returned: the seat is the person's again; the bot no longer plays it.
        while master.version < 6 and not master.over:
            for seat in master.state.deciding_seats():
                if seat == other:
                    await master.submit(seat, master.state.legal_actions(seat)[0], version=None)
            await asyncio.sleep(0.05)
            if first in master.state.deciding_seats():
                break
        await asyncio.sleep(0.2)
        if first in master.state.deciding_seats():
            version = master.version
            await asyncio.sleep(0.3)
            assert master.version == version
        await master.close()
        runner.close()

    asyncio.run(run())
