#!/usr/bin/env python
"""Self-play balance for Maiterra: win rates by seat, draft position and house; match length.

Every seat is the Maiterra heuristic bot (houses drawn at random by each bot). For each seat
count it prints Markdown tables with Wilson 95 % intervals, as put in docs/rules/maiterra.md:

* by **seat** (the seat number: it decides only tie-breaks, so this shows noise and bias);
* by **draft position** (place in the die-rolled draft order: 1st picks first and last);
* by **house**, per seat that played it;
* how matches end and how long they last.

``--out FILE`` also writes one JSON line per match for further slicing.

    .venv/bin/python scripts/balance_maiterra.py --games 400 --seats 3
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import meeple.games  # noqa: F401  (registers the games)
from meeple.ai.maiterra_heuristic import MaiterraHeuristicBot
from meeple.core import load_game, mix_seed
from meeple.games.maiterra import MaiterraState
from meeple.games.maiterra.data import RULES
from meeple.games.maiterra.rules import DRAFT


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Wilson score 95 % interval of a win rate."""
    if n == 0:
        return 0.0, 0.0
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(seats: int, index: int, salt: int, teams: str = "") -> dict[str, Any]:
    """One self-play match; what the tables need, as a JSON-ready row."""
    game = load_game("maiterra", seats=seats, options={"teams": teams})
    seed = mix_seed(salt, seats, index)
    bots = [MaiterraHeuristicBot(mix_seed(seed, s)) for s in range(seats)]
    state = game.new_initial_state(seed)
    if not isinstance(state, MaiterraState):
        raise TypeError("maiterra makes MaiterraState positions")
    draft: list[int] = []
    while not state.is_terminal():
        if not draft and state.phase == DRAFT:
            draft = list(state.draft_order[:seats])
        seat = state.deciding_seats()[0]
        state.apply_unchecked(seat, bots[seat].select(state, seat))
    outcome = state.outcome()
    if outcome is None:
        raise RuntimeError("a finished match has an outcome")
    return {
        "seed": seed,
        "houses": [RULES.houses[h] for h in state.house],
        "draft": draft,
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "turns": state.turn,
        "points": [state.points(s) for s in range(seats)],
    }


def _table(title: str, rows: Sequence[tuple[str, float, int]], fair: float) -> None:
    print(f"\n| {title} | seats played | wins | win rate | 95 % interval | share of fair |")
    print("|---|---|---|---|---|---|")
    for name, wins, n in rows:
        rate = wins / n if n else 0.0
        low, high = wilson(wins, n)
        print(
            f"| {name} | {n} | {wins:g} | {rate:.3f} | {low:.3f}-{high:.3f} "
            f"| {rate / fair:.2f} ({low / fair:.2f}-{high / fair:.2f}) |"
        )


def report(seats: int, matches: Sequence[dict[str, Any]]) -> None:
    """The Markdown tables for one seat count."""
    games = len(matches)
    fair = 1.0 / seats
    seat_wins: dict[int, float] = dict.fromkeys(range(seats), 0.0)
    place_wins: dict[int, float] = dict.fromkeys(range(seats), 0.0)
    house_wins: dict[str, float] = dict.fromkeys(RULES.houses, 0.0)
    house_games: Counter[str] = Counter()
    reasons: Counter[str] = Counter(m["reason"] for m in matches)
    for match in matches:
        share = 1.0 / len(match["winners"]) if match["winners"] else 0.0
        house_games.update(match["houses"])
        for seat in match["winners"]:
            seat_wins[seat] += share
            place_wins[match["draft"].index(seat)] += share
            house_wins[match["houses"][seat]] += share
    turns = sorted(m["turns"] for m in matches)
    mean = sum(turns) / games
    print(f"\n### {seats} seats: {games} matches, mean length {mean:.1f} turns", end="")
    print(f" (median {turns[games // 2]}, range {turns[0]}-{turns[-1]})")
    print(f"\nEnds: {', '.join(f'{k} {v}' for k, v in reasons.most_common())}")
    _table("seat", [(str(s), seat_wins[s], games) for s in range(seats)], fair)
    places = [(f"{p + 1}. in draft", place_wins[p], games) for p in range(seats)]
    _table("draft position", places, fair)
    houses = [(h, house_wins[h], house_games[h]) for h in RULES.houses]
    _table("house", houses, fair)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--salt", type=lambda s: int(s, 0), default=0xBA1)
    parser.add_argument("--first", type=int, default=0, help="index of the first match")
    parser.add_argument("--out", help="append one JSON line per match to this file")
    parser.add_argument("--report", nargs="*", help="only report the rows of these --out files")
    args = parser.parse_args()
    if args.report:
        texts = [Path(name).read_text(encoding="utf-8") for name in args.report]
        rows = [json.loads(line) for text in texts for line in text.splitlines()]
        for seats in args.seats:
            if chosen := [row for row in rows if row["seats"] == seats]:
                report(seats, chosen)
        return
    for seats in args.seats:
        started = time.perf_counter()
        indices = range(args.first, args.first + args.games)
        matches = [play(seats, index, args.salt) for index in indices]
        elapsed = time.perf_counter() - started
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                for match in matches:
                    out.write(json.dumps({"seats": seats, **match}) + "\n")
        report(seats, matches)
        print(f"\n({elapsed:.0f} s, {elapsed / args.games * 1000:.0f} ms a match)", file=sys.stderr)


if __name__ == "__main__":
    main()
