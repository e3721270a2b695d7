"""Bot-against-bot matches and random playouts: ``meeple selfplay`` and ``meeple bench``."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meeple.ai import make_bot
from meeple.core import MatchRecord, load_game, mix_seed
from meeple.core.game import Game

SEED_MASK = (1 << 53) - 1
"""Derived seeds stay below 2**53, so a record's seed survives a JavaScript JSON parser."""


def match_seed(base: int, index: int) -> int:
    """The seed of match ``index`` of a self-play run seeded with ``base``."""
    return mix_seed(base, index) & SEED_MASK


def bots_for_seats(names: Sequence[str], seats: int) -> list[str]:
    """One bot name per seat: a single name plays every seat, else one name per seat."""
    if len(names) == 1:
        return list(names) * seats
    if len(names) != seats:
        raise ValueError(f"give one bot for every seat ({seats}) or one for all, got {len(names)}")
    return list(names)


def play_match(game: Game, seed: int, bot_names: Sequence[str]) -> MatchRecord:
    """A whole match between bots (one per seat), as a record with its outcome.

    The match and each bot get their own seed derived from ``seed``, so the record replays
    and the same seed plays the same match again.
    """
    bots = [make_bot(name, mix_seed(seed, seat + 1)) for seat, name in enumerate(bot_names)]
    record = MatchRecord.for_game(game, seed=seed)
    record.players = [f"{name} bot" for name in bot_names]
    state = record.initial_state()
    while not state.is_terminal():
        for seat in state.deciding_seats():
            action = bots[seat].select(state, seat)
            state.apply(seat, action)
            record.add(seat, action)
            break
    record.outcome = state.outcome()
    return record


@dataclass(frozen=True)
class SelfplayJob:
    """Match ``index`` of a self-play run: the game as configured, its seed, the bots."""

    index: int
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    bot_names: tuple[str, ...]


def selfplay_jobs(game: Game, seed: int, games: int, bot_names: Sequence[str]) -> list[SelfplayJob]:
    """The matches of ``meeple selfplay``: match ``i`` seeded with ``match_seed(seed, i)``."""
    return [
        SelfplayJob(
            index,
            game.id,
            game.seats,
            dict(game.options),
            match_seed(seed, index),
            tuple(bot_names),
        )
        for index in range(games)
    ]


def play_selfplay_job(job: SelfplayJob) -> str:
    """Play one job (in a worker process, or on Ray); its record as one line of JSON."""
    import meeple.games  # noqa: F401, PLC0415 (a spawned worker registers the games)

    game = load_game(job.game, seats=job.seats, options=job.options)
    return play_match(game, job.seed, job.bot_names).dumps()


@dataclass(frozen=True)
class BenchResult:
    game: str
    games: int
    actions: int
    seconds: float

    def to_json(self) -> dict[str, float | int | str]:
        return {
            "game": self.game,
            "games": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 2),
            "actions_per_second": round(self.actions / self.seconds, 1),
            "mean_length": round(self.actions / self.games, 2),
        }


def random_playout(game: Game, seed: int, rng: random.Random) -> int:
    """Play one match with uniform random actions, unchecked; returns its length."""
    state = game.new_initial_state(seed)
    length = 0
    while True:
        deciding = state.deciding_seats()
        if not deciding:
            return length
        seat = deciding[0]
        state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
        length += 1


def bench(game: Game, seconds: float, seed: int = 0) -> BenchResult:
    """As many random playouts as fit in ``seconds`` (at least one), single process."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += random_playout(game, rng.getrandbits(64), rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return BenchResult(game.id, games, actions, now - start)
