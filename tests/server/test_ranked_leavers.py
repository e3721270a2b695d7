"""Who is a ranked leaver, in-process: the master of a ranked match with a memory store and a
:class:`~meeple.server.modes.ranked.LeaverWatch` attached, seats connected and cut off by hand.

"A leaver loses as last place" (issue 14): a leaver is a seat its bot took over whose player
did not come back before the end; back before the end is no leaver, back after it changes
nothing (docs/server.md, "Ranked")."""

from __future__ import annotations

import asyncio
import random

import meeple.games  # noqa: F401 (registers the games)
from meeple.core import load_game
from meeple.server.live.master import MatchMaster
from meeple.server.modes.ranked import LeaverWatch
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch

GRACE = 0.01


class Player:
    def __init__(self, seat: int) -> None:
        self._seat = seat

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        return None


async def _ranked(leavers: set[int] | None = None) -> tuple[MatchMaster, LeaverWatch]:
    game = load_game("maatatahay", seats=2)
    holders = [SeatHolder(s, f"p{s}", account_id=10 + s, ready=True) for s in range(2)]
    match = StoredMatch("r1", game.id, 2, dict(game.options), 5, "ranked", holders)
    store = MemoryMatchStore()
    await store.create_match(match)
    master = MatchMaster(match, store, None, grace_seconds=GRACE)
    watch = LeaverWatch(master, leavers or set())
    await master.attach(watch)
    return master, watch


async def _away(master: MatchMaster, seat: int) -> None:
    for _ in range(200):
        if seat in master.presence.away:
            return
        await asyncio.sleep(GRACE)
    raise AssertionError(f"seat {seat} never went away")


async def _moves(master: MatchMaster, count: int | None = None) -> None:
    """Random legal actions for whoever decides (``count`` of them, or to the end)."""
    rng = random.Random(2)
    done = 0
    while not master.over and (count is None or done < count):
        seat = master.state.deciding_seats()[0]
        await master.submit(seat, rng.choice(master.state.legal_actions(seat)), version=None)
        done += 1


def _changes(watch: LeaverWatch) -> list[tuple[set[int], bool]]:
    found = []
    while not watch.changes.empty():
        leavers, over = watch.changes.get_nowait()
        found.append((set(leavers), over))
    return found


def test_a_seat_its_bot_took_over_is_a_leaver_and_back_after_the_end_still_one() -> None:
    async def run() -> None:
        master, watch = await _ranked()
        await master.attach(Player(0))
        await master.start()  # seat 1 has no connection: its grace period starts
        await _away(master, 1)
        await _moves(master)
        await master.attach(Player(1))  # back, but after the end
        await _moves(master)
        assert _changes(watch) == [({1}, False), ({1}, True)]
        assert watch.done and watch not in master.connections
        await master.close()

    asyncio.run(run())


def test_back_before_the_end_is_no_leaver_and_leaving_again_is() -> None:
    async def run() -> None:
        master, watch = await _ranked()
        await master.attach(Player(0))
        await master.start()
        await _away(master, 1)
        await _moves(master, 2)
        back = Player(1)
        await master.attach(back)  # back before the end: no longer a leaver
        await _moves(master, 2)
        assert _changes(watch) == [({1}, False), (set(), False)]
        master.detach(back)  # gone again past the grace period: a leaver again
        await _away(master, 1)
        await _moves(master)
        assert _changes(watch) == [({1}, False), ({1}, True)]
        await master.close()

    asyncio.run(run())


def test_a_stored_leaver_is_away_at_once_after_a_restart_unless_connected() -> None:
    async def run() -> None:
        # Rebuilt with seat 1 stored as a leaver: its bot plays on at once (no fresh grace
        # period); a seat with a connection here is not made away.
        master, _ = await _ranked({1})
        zero = Player(0)
        await master.attach(zero)
        await master.away_now({0, 1})
        assert master.presence.away == {1}
        assert master.bot_of(1) is not None and master.bot_of(0) is None
        await master.attach(Player(1))  # back: no longer away
        assert master.presence.away == set()
        await master.close()

    asyncio.run(run())


def test_a_stored_leaver_stays_one_after_a_restart_until_back() -> None:
    async def run() -> None:
        # Rebuilt after a restart with seat 1 stored as a leaver: nobody is away yet (the
        # grace periods start afresh), and the stored leaver stays one while not back.
        master, watch = await _ranked({1})
        zero = Player(0)
        await master.attach(zero)
        await _moves(master, 2)
        assert _changes(watch) == []
        await master.attach(Player(1))
        await _moves(master, 1)
        assert _changes(watch) == [(set(), False)]
        await master.close()

    asyncio.run(run())
