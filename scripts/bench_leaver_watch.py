"""What watching a ranked match's leavers costs each action: a seeded Manafields match played
out through the master in-process (memory store, both seats connected), with and without a
:class:`~meeple.server.modes.ranked.LeaverWatch` attached, interleaved (A B B A ...), CPU time per
action, medians.

    .venv/bin/python scripts/bench_leaver_watch.py [rounds]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time

import meeple.games  # noqa: F401 (registers the games)
from meeple.core import load_game
from meeple.server.live.master import MatchMaster
from meeple.server.modes.ranked import LeaverWatch
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch


class Seat:
    def __init__(self, seat: int) -> None:
        self._seat = seat

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        return None


async def play(watched: bool, seed: int) -> float:
    """CPU seconds per action of one match played out with random legal actions."""
    game = load_game("manafields", seats=2)
    holders = [SeatHolder(s, f"p{s}", s) for s in range(2)]
    match = StoredMatch(f"m{seed}", game.id, 2, dict(game.options), seed, "ranked", holders)
    store = MemoryMatchStore()
    await store.create_match(match)
    master = MatchMaster(match, store, None)
    for seat in range(2):
        await master.attach(Seat(seat))
    if watched:
        await master.attach(LeaverWatch(master, set()))
    rng = random.Random(seed)
    start = time.process_time()
    while not master.over:
        seat = master.state.deciding_seats()[0]
        await master.submit(seat, rng.choice(master.state.legal_actions(seat)), version=None)
    return (time.process_time() - start) / master.version


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    times: dict[bool, list[float]] = {False: [], True: []}
    for n in range(rounds):
        for watched in (False, True) if n % 2 == 0 else (True, False):
            times[watched].append(asyncio.run(play(watched, seed=n)))
    for watched, found in times.items():
        label = "with the watch" if watched else "without      "
        print(f"{label}: median {statistics.median(found) * 1e6:8.1f} us CPU per action")


if __name__ == "__main__":
    main()
