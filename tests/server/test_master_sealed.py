"""Sealed means sealed: each audience's version counts only what it could see.

In-process, with the master, a memory store and fake connections. Rule: "nobody sees
another seat's orders, only that it has ended." Two matches with the same seed and the same
public moves, where one seat queues no order in one and several in the other before ending
its turn: every other seat and every spectator gets the same frames, byte for byte, and the
REST summaries are the same. In every game, the versions come out the same when the master
is rebuilt from the record, and a resume from 0 gives each audience its own updates, one per
version.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple.games  # noqa: F401
from meeple.core import GameError, load_game
from meeple.core.registry import registered
from meeple.server.http.routes.matches import summary
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch

GAMES = [(info.id, n) for info in registered() for n in range(info.min_seats, info.max_seats + 1)]
SIMULTANEOUS = [
    (info.id, n)
    for info in registered()
    if info.simultaneous
    for n in range(info.min_seats, info.max_seats + 1)
]


class Frames:
    """A fake connection that keeps every frame's text as it was sent."""

    def __init__(self, seat: int | None) -> None:
        self._seat = seat
        self.texts: list[str] = []

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        self.texts.append(text)


async def _open(game_id: str, seats: int, seed: int) -> tuple[MatchMaster, list[Frames]]:
    game = load_game(game_id, seats=seats)
    holders = [SeatHolder(s, f"person {s}", s, None) for s in range(seats)]
    match = StoredMatch("m1", game.id, seats, dict(game.options), seed, "days", holders)
    store = MemoryMatchStore()
    await store.create_match(match)
    master = MatchMaster(match, store, None)
    connections = [Frames(s) for s in range(seats)] + [Frames(None)]
    for connection in connections:
        await master.attach(connection)
    return master, connections


async def _act(master: MatchMaster, connection: Frames, action: int) -> None:
    frame = json.loads(next(t for t in reversed(connection.texts) if '"version"' in t))
    message = {"type": "action", "action": action, "version": frame["version"]}
    await master.receive(connection, json.dumps(message))
    assert '"ack"' in connection.texts[-1], connection.texts[-1]


def _hands_in(master: MatchMaster, seat: int) -> int | None:
    """What the timer would hand in for ``seat`` now (None outside a turn of orders)."""
    try:
        return master.state.hand_in_action(seat)
    except GameError:
        return None


def _rebuilt(master: MatchMaster) -> MatchMaster:
    match = master.match
    copy = StoredMatch(
        match.id, match.game_id, match.seats, match.options, match.seed, match.mode,
        match.holders, actions=list(match.actions),
    )  # fmt: skip
    return MatchMaster(copy, MemoryMatchStore(), None)


@pytest.mark.parametrize(("game_id", "seats"), SIMULTANEOUS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    turns=st.integers(0, 2),
    orders=st.lists(st.integers(0, 10**6), min_size=1, max_size=5),
    data=st.data(),
)
def test_a_seats_queued_orders_reach_no_other_seat_and_no_spectator(
    game_id: str, seats: int, seed: int, turns: int, orders: list[int], data: st.DataObject
) -> None:
    async def run() -> None:
        quiet, queuing = await _open(game_id, seats, seed), await _open(game_id, seats, seed)
        picks = random.Random(seed)
        # The same public moves in both to a turn of orders (``turns`` turns in): each seat
        # that decides plays a random legal action, or ends its turn once orders are open.
        seat: int | None = None
        passed = 0
        for _ in range(2000):
            master = quiet[0]
            if master.over:
                return
            deciding = master.state.deciding_seats()
            if all(_hands_in(master, s) is not None for s in deciding) and passed >= turns:
                seat = data.draw(st.sampled_from(deciding), label="seat")
                break
            who = deciding[0]
            ends = _hands_in(master, who)
            if ends is not None:
                passed += who == deciding[-1]
            action = picks.choice(master.state.legal_actions(who)) if ends is None else ends
            for played, connections in (quiet, queuing):
                await _act(played, connections[who], action)
        assert seat is not None
        master, connections = queuing
        start = [len(c.texts) for c in quiet[1]]
        assert start == [len(c.texts) for c in connections]
        ending = _hands_in(quiet[0], seat)
        assert ending is not None
        queued = 0
        for pick in orders:
            choices = [a for a in master.state.legal_actions(seat) if a != ending]
            if not choices:
                break
            await _act(master, connections[seat], choices[pick % len(choices)])
            queued += 1
        # Ends its turn with its orders queued in one match and none in the other.
        for played, seen in (quiet, queuing):
            await _act(played, seen[seat], ending)
        for index in [*range(seats), seats]:
            if index == seat:
                continue
            # Every frame since the match's moves parted: the same bytes (the seat ended).
            assert quiet[1][index].texts == connections[index].texts, (index, queued)
            assert quiet[0].version_of(None if index == seats else index) == master.version_of(
                None if index == seats else index
            )
        assert summary(quiet[0]) == summary(master)
        assert master.version == quiet[0].version + queued
        # A rebuilt master (a restart, another worker) counts the same.
        again = _rebuilt(master)
        assert [a.seen for a in again.applied] == [a.seen for a in master.applied]

    asyncio.run(run())


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), moves=st.integers(1, 120))
def test_each_audience_resumes_its_own_updates_and_a_rebuild_counts_the_same(
    game_id: str, seats: int, seed: int, moves: int
) -> None:
    async def run() -> None:
        master, connections = await _open(game_id, seats, seed)
        picks = random.Random(seed)
        for _ in range(moves):
            if master.over:
                break
            who = picks.choice(master.state.deciding_seats())
            await _act(master, connections[who], picks.choice(master.state.legal_actions(who)))
        again = _rebuilt(master)
        assert [(a.seen, a.changed) for a in again.applied] == [
            (a.seen, a.changed) for a in master.applied
        ]
        for connection in connections:
            updates: list[dict[str, Any]] = [
                json.loads(t) for t in connection.texts if t.startswith('{"type":"update"')
            ]
            version = master.version_of(connection.seat)
            assert [u["version"] for u in updates] == list(range(1, version + 1))
            missed = again.snapshot(connection.seat, 0).missed
            assert [m.version for m in missed] == list(range(1, version + 1))
            assert [m.events for m in missed] == [u["events"] for u in updates]
        # Only simultaneous turns keep anything from a version: elsewhere it counts actions.
        if not master.game.info.simultaneous:
            assert master.public_version == master.version

    asyncio.run(run())
