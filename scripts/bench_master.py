"""The match master's CPU per round trip, in-process: no sockets, no database.

Many matches at once, each a person (the bench) against the random bot. The person's
action goes in as a JSON frame through ``MatchMaster.receive`` (parsed, validated, checked,
stored in a memory store, applied, answered) and the bot answers on the event loop; every
frame the master sends is encoded as for a socket and dropped. A round trip is the
person's action and the bot's answer with every frame they cause. The figure is the
process's CPU time over the round trips: what the server spends per round trip above the
socket layer and the database. Medians of ``--repeats`` runs.

    .venv/bin/python scripts/bench_master.py --game maatatahay --matches 200 --rounds 3000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import time
from typing import Any

import orjson

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.server.live.bots import BotRunner
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch


class Sink:
    """A person's connection: counts what it is sent and wakes the person."""

    def __init__(self, seat: int) -> None:
        self._seat = seat
        self.frames = 0
        self.sent_bytes = 0
        self.woken = asyncio.Event()

    @property
    def seat(self) -> int | None:
        return self._seat

    async def send(self, text: str) -> None:
        self.frames += 1
        self.sent_bytes += len(text)
        self.woken.set()


class Tally:
    def __init__(self, rounds: int) -> None:
        self.left = rounds
        self.done = 0
        self.errors = 0
        self.frames = 0
        self.sent_bytes = 0


async def person(game_id: str, seed: int, tally: Tally, bots: BotRunner) -> None:
    """Play matches one after another while round trips are left to do."""
    rng = random.Random(seed)
    while tally.left > 0:
        game = load_game(game_id)
        holders = [SeatHolder(0, "person", 1), SeatHolder(1, "random bot", None, "random")]
        match = StoredMatch(
            f"m{seed}-{rng.random()}",
            game.id,
            2,
            dict(game.options),
            rng.randrange(2**31),
            "solo",
            holders,
        )
        store = MemoryMatchStore()
        await store.create_match(match)
        master = MatchMaster(match, store, bots)
        sink = Sink(0)
        await master.attach(sink)
        while not master.over and tally.left > 0:
            if 0 not in master.state.deciding_seats():
                sink.woken.clear()
                await sink.woken.wait()
                continue
            tally.left -= 1
            action = rng.choice(master._choices[0])
            frame = orjson.dumps(
                {"type": "action", "action": action, "version": master.version_of(0), "ref": "r"}
            )
            sink.woken.clear()
            before = master.version
            await master.receive(sink, frame)
            if master.version == before:
                tally.errors += 1
                continue
            tally.done += 1
            while not master.over and 1 in master.state.deciding_seats():  # the bot's turn
                sink.woken.clear()
                await sink.woken.wait()  # the bot's update
        await master.close()
        tally.frames += sink.frames
        tally.sent_bytes += sink.sent_bytes


async def run_once(game_id: str, matches: int, rounds: int, seed: int) -> dict[str, Any]:
    tally = Tally(rounds)
    bots = BotRunner(workers=0)  # the random bot decides on the event loop: unused
    gc.collect()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(person(game_id, seed * 1000 + i, tally, bots) for i in range(matches)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {
        "round_trips": tally.done,
        "errors": tally.errors,
        "cpu_ms_per_round_trip": 1000 * cpu / max(tally.done, 1),
        "wall_s": wall,
        "frames_per_round_trip": tally.frames / max(tally.done, 1),
        "bytes_per_round_trip": tally.sent_bytes / max(tally.done, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="maatatahay")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = [
        asyncio.run(run_once(args.game, args.matches, args.rounds, args.seed + r))
        for r in range(args.repeats)
    ]
    cpu = [run["cpu_ms_per_round_trip"] for run in runs]
    print(
        json.dumps(
            {
                "game": args.game,
                "matches": args.matches,
                "rounds": args.rounds,
                "cpu_ms_per_round_trip_median": round(statistics.median(cpu), 4),
                "cpu_ms_per_round_trip": [round(c, 4) for c in cpu],
                "frames_per_round_trip": round(runs[-1]["frames_per_round_trip"], 3),
                "bytes_per_round_trip": round(runs[-1]["bytes_per_round_trip"]),
                "errors": sum(run["errors"] for run in runs),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
