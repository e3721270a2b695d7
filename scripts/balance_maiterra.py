#!/usr/bin/env python
"""Self-play balance for Maiterra: win rates by seat position and by house, match length.

Every seat is the Maiterra heuristic bot (houses drawn at random by each bot). Prints a
Markdown table per seat count with Wilson 95 % intervals, as put in docs/rules/maiterra.md.

    .venv/bin/python scripts/balance_maiterra.py --games 100
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

import meeple.games  # noqa: F401  (registers the games)
from meeple.ai.maiterra_heuristic import MaiterraHeuristicBot
from meeple.core import load_game, mix_seed
from meeple.games.maiterra.data import RULES


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(seats: int, games: int, teams: str = "") -> None:
    game = load_game("maiterra", seats=seats, options={"teams": teams})
    seat_wins: Counter[int] = Counter()
    house_wins: Counter[int] = Counter()
    house_games: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    turns = []
    for index in range(games):
        seed = mix_seed(0xBA1, seats, index)
        bots = [MaiterraHeuristicBot(mix_seed(seed, s)) for s in range(seats)]
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.deciding_seats()[0]
            state.apply_unchecked(seat, bots[seat].select(state, seat))
        outcome = state.outcome()
        assert outcome is not None
        reasons[outcome.reason] += 1
        turns.append(state.turn)
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        for seat in range(seats):
            house_games[state.house[seat]] += 1
        for seat in outcome.winners:
            seat_wins[seat] += share if not teams else 1
            house_wins[state.house[seat]] += 1
    fair = 1.0 / seats
    label = f"{seats} seats" + (f", teams {teams}" if teams else "")
    print(f"\n### {label}: {games} matches, mean length {sum(turns) / games:.1f} turns")
    print(f"end reasons: {dict(reasons)}\n")
    print("| seat | win rate | 95 % interval | share of fair |")
    print("|---|---|---|---|")
    for seat in range(seats):
        low, high = wilson(seat_wins[seat], games)
        rate = seat_wins[seat] / games
        print(f"| {seat} | {rate:.3f} | {low:.3f}-{high:.3f} | {rate / fair:.2f} |")
    print("\n| house | seats played | win rate per seat | 95 % interval | share of fair |")
    print("|---|---|---|---|---|")
    for house, name in enumerate(RULES.houses):
        n = house_games[house]
        rate = house_wins[house] / n if n else 0.0
        low, high = wilson(house_wins[house], n)
        print(f"| {name} | {n} | {rate:.3f} | {low:.3f}-{high:.3f} | {rate / fair:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args()
    for seats in args.seats:
        run(seats, args.games)


if __name__ == "__main__":
    main()
