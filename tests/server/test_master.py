"""The match master in-process: a memory store and fake connections, no network."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

import meeple.games  # noqa: F401
import meeple.server.live.matches as matches_module
from meeple.core import MatchRecord, load_game
from meeple.server.live.bots import BotRunner, decide
from meeple.server.live.master import INLINE_BOTS, MatchMaster
from meeple.server.live.matches import Matches
from meeple.server.settings import Settings
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch
from meeple.server.store.repository import AccountRow


class FakeConnection:
    """Keeps every frame; notes how many actions the store held when each arrived."""

    def __init__(self, seat: int | None, store: MemoryMatchStore) -> None:
        self._seat = seat
        self.store = store
        self.frames: list[dict[str, Any]] = []
        self.stored_when_received: list[int] = []

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        self.frames.append(json.loads(text))
        self.stored_when_received.append(len(self.store.writes))


def stored(
    game_id: str, seats: int, options: dict[str, Any], seed: int, bots: dict[int, str]
) -> StoredMatch:
    game = load_game(game_id, seats=seats, options=options)
    holders = [
        SeatHolder(
            s,
            f"{bots[s]} bot" if s in bots else f"person {s}",
            None if s in bots else s,
            bots.get(s),
        )
        for s in range(seats)
    ]
    return StoredMatch("m1", game.id, seats, dict(game.options), seed, "solo", holders)


async def _open(
    match: StoredMatch, bots: BotRunner | None = None
) -> tuple[MemoryMatchStore, MatchMaster]:
    store = MemoryMatchStore()
    await store.create_match(match)
    return store, MatchMaster(match, store, bots)


def test_an_action_is_stored_before_it_is_acknowledged() -> None:
    async def run() -> None:
        store, master = await _open(stored("manafields", 2, {}, 3, {}))
        seat0, seat1 = FakeConnection(0, store), FakeConnection(1, store)
        await master.attach(seat0)
        await master.attach(seat1)
        offered = seat0.frames[0]["legal"][0]
        action = offered["id"]
        await master.receive(seat0, json.dumps({"type": "action", "action": action, "version": 0}))
        ack = seat0.frames[1]
        assert ack["type"] == "update" and ack["version"] == 1
        # Worded as it was offered: in the position the action was played in.
        assert ack["ack"] == {"action": offered, "ref": None}
        assert "ack" not in seat1.frames[1]  # only the sender's copy acknowledges
        # The store held the action when its update (the sender's, with the ack) was sent.
        assert seat0.stored_when_received[1] == 1
        assert seat1.stored_when_received[1] == 1
        assert store.matches["m1"].actions == [(0, action)]

    asyncio.run(run())


class FailingStore(MemoryMatchStore):
    async def append_action(self, *args: Any, **kw: Any) -> None:
        raise OSError("disk full")


def test_an_action_the_store_refuses_changes_nothing() -> None:
    async def run() -> None:
        store = FailingStore()
        match = stored("manafields", 2, {}, 3, {})
        await store.create_match(match)
        master = MatchMaster(match, store, None)
        before = master.state.to_json()
        seat0 = FakeConnection(0, store)
        await master.attach(seat0)
        action = seat0.frames[0]["legal"][0]["id"]
        await master.receive(seat0, json.dumps({"type": "action", "action": action, "version": 0}))
        assert seat0.frames[-1]["type"] == "error"
        assert seat0.frames[-1]["code"] == "server/store_failed"
        assert master.version == 0 and master.state.to_json() == before

    asyncio.run(run())


@pytest.mark.parametrize(
    ("game_id", "seats", "options"),
    [("maatatahay", 2, {}), ("manafields", 2, {}), ("maiterra", 4, {"teams": "1122"})],
)
def test_a_rebuilt_master_replays_the_record_bit_for_bit(
    game_id: str, seats: int, options: dict
) -> None:
    async def run() -> None:
        store, master = await _open(stored(game_id, seats, options, 17, {}))
        rng = random.Random(5)
        for _ in range(120):
            deciding = master.state.deciding_seats()
            if not deciding:
                break
            seat = deciding[0]
            await master.submit(seat, rng.choice(master.state.legal_actions(seat)), version=None)
        again = await store.load_match("m1")
        assert again is not None
        rebuilt = MatchMaster(again, store, None)
        assert rebuilt.version == master.version
        assert rebuilt.state.to_json() == master.state.to_json()
        record = MatchRecord.from_json(json.loads(json.dumps(again.record().to_json())))
        assert record.replay().to_json() == master.state.to_json()

    asyncio.run(run())


@pytest.mark.slow
def test_no_frame_to_a_seat_holds_another_seats_secrets() -> None:
    """Maiterra at four seats in two teams: houses before all are locked, sealed orders and
    hands. Every frame a seat gets is exactly the engine's view for that seat at that
    version plus the events it may see, and nothing else; every event a seat gets is one
    the engine lets it see."""

    async def run() -> None:
        store, master = await _open(stored("maiterra", 4, {"teams": "1122"}, 23, {}))
        seats = [FakeConnection(s, store) for s in range(4)]
        watcher = FakeConnection(None, store)
        for connection in [*seats, watcher]:
            await master.attach(connection)
        rng = random.Random(9)
        while master.version < 400 and not master.over:
            deciding = master.state.deciding_seats()
            seat = rng.choice(deciding)
            frame = next(
                f for f in reversed(seats[seat].frames) if f["type"] in ("snapshot", "update")
            )
            choice = rng.choice(frame["legal"])["id"]
            await master.receive(
                seats[seat],
                json.dumps({"type": "action", "action": choice, "version": frame["version"]}),
            )
            assert seats[seat].frames[-1].get("ack") is not None
        record = store.matches["m1"].record()
        states = [state.clone() for state in record.states()]
        sealed_seen = 0
        for connection in [*seats, watcher]:
            seat = connection.seat
            index = 4 if seat is None else seat
            # The audience's versions are its own count: the action each one followed.
            number = {0: 0} | {a.seen[index]: a.number for a in master.applied if a.changed[index]}
            for frame in connection.frames:
                if frame["type"] not in ("snapshot", "update"):
                    continue
                state = states[number[frame["version"]]]
                assert frame["view"] == json.loads(json.dumps(state.view(seat)))
                legal = [] if seat is None else state.legal_actions(seat)
                assert [item["id"] for item in frame["legal"]] == legal
                for event in frame.get("events", []):
                    audience = event.get("audience")
                    assert audience is None or (seat is not None and seat in audience)
                    sealed_seen += audience is not None
                for row in frame["view"]["seats"]:
                    if row["seat"] != seat:
                        assert "hand" not in row
                        all_locked = all(r["house_locked"] for r in frame["view"]["seats"])
                        if not all_locked:
                            assert row["house"] is None
        assert sealed_seen > 0  # the match went through sealed houses and orders

    asyncio.run(run())


def test_bots_play_their_seats_off_the_event_loop() -> None:
    async def run() -> None:
        runner = BotRunner(0)
        store, master = await _open(stored("maatatahay", 2, {}, 4, {1: "greedy"}), runner)
        person = FakeConnection(0, store)
        await master.attach(person)
        rng = random.Random(1)
        for _ in range(400):
            if master.over:
                break
            if 0 in master.state.deciding_seats():
                await master.submit(0, rng.choice(master.state.legal_actions(0)), version=None)
            else:
                await asyncio.sleep(0.01)
        assert master.over
        assert {seat for seat, _ in store.matches["m1"].actions} == {0, 1}
        assert store.matches["m1"].status == "over"
        await master.close()
        runner.close()

    asyncio.run(run())


def test_finished_matches_nobody_watches_leave_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matches_module, "FORGET_ABOVE", 0)

    async def run() -> None:
        store = MemoryMatchStore()
        matches = Matches(store, None, Settings())
        person = AccountRow(1, None, "Ana", "guest")
        master = await matches.create_solo(person, "maatatahay", bots="random", seed=2)
        rng = random.Random(3)
        while not master.over:
            seat = master.state.deciding_seats()[0]
            await master.submit(seat, rng.choice(master.state.legal_actions(seat)), version=None)
        watcher = FakeConnection(None, store)
        await master.attach(watcher)
        assert await matches.get(master.id) is master  # watched: kept
        master.detach(watcher)
        again = await matches.get(master.id)  # dropped, then loaded from the store
        assert again is not None and again is not master
        assert again.over and again.state.to_json() == master.state.to_json()

    asyncio.run(run())


def test_a_record_that_no_longer_replays_does_not_stop_the_server_starting() -> None:
    async def run() -> None:
        store = MemoryMatchStore()
        good = stored("maatatahay", 2, {}, 1, {})
        bad = stored("maatatahay", 2, {}, 1, {})
        bad.id = "broken"
        bad.actions = [(0, 10**6)]  # not an action of the game
        await store.create_match(good)
        await store.create_match(bad)
        matches = Matches(store, None, Settings())
        assert await matches.start() == 1
        assert await matches.get("m1") is not None
        assert await matches.get("broken") is None

    asyncio.run(run())


def test_the_random_bot_decides_on_the_loop_as_the_bot_process_would() -> None:
    """A random seat is played on the event loop (no trip to the pool), with the same bot,
    seed and state as the worker's decide(): a rebuilt match plays the same."""
    assert "random" in INLINE_BOTS
    for game_id, seats in (("maatatahay", 2), ("manafields", 2), ("maiterra", 2)):
        match = stored(game_id, seats, {}, 5, {s: "random" for s in range(seats)})
        master = MatchMaster(match, MemoryMatchStore(), None)
        for _ in range(60):
            if master.over:
                break
            seat = master.state.deciding_seats()[0]
            here = master._decide_here(seat, "random")
            there = decide(master._job(seat, "random"))
            assert here == there
            master.state.apply(seat, here)  # the version (and so the seed) stays: both read it
