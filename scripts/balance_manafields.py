#!/usr/bin/env python3
"""Manafields balance by self-play: the heuristic bot against itself on every pairing.

    .venv/bin/python scripts/balance_manafields.py --games 40 [--seed 0] [--json out.json]
        [--workers 2] [--pairings humans-humans,elves-elves]

For each of the 16 (first seat, second seat) faction pairings it plays ``--games`` matches
and prints the first seat's win rate with a 95 % Wilson interval, draws, the mean length in
turns and how matches ended; then each match-up over both seat orders, each faction's
overall win rate and first vs second seat.
``--workers`` plays the pairings in that many processes (the results do not depend on it);
``--pairings`` plays only the named ones. ``--merge a.json b.json`` plays nothing: it adds up
the pairings of earlier runs' ``--json`` files (say, one card set on several seeds) and
prints the same tables for them all together.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from meeple.ai.manafields_heuristic import ManafieldsHeuristicBot
from meeple.core import mix_seed
from meeple.games.manafields import Manafields
from meeple.games.manafields.data import FACTIONS


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def matchup_table(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each faction against each other one over both seat orders: the first-named
    faction's share of the points (a draw counts half) with a 95 % Wilson interval."""
    by_pair = {(r["first"], r["second"]): r for r in rows}
    out = {}
    for (f0, f1), first in by_pair.items():
        other = by_pair.get((f1, f0))
        if f0 == f1 or other is None:
            continue
        games = first["games"] + other["games"]
        points = first["first_wins"] + other["second_wins"] + (first["draws"] + other["draws"]) / 2
        low, high = wilson(points, games)
        out[f"{f0}-{f1}"] = {"rate": points / games, "games": games, "ci95": [low, high]}
    return out


def play(game: Manafields, seed: int) -> tuple[int, int, str]:
    """(winner or 2 for a draw, turns, reason)"""
    state = game.new_initial_state(seed)
    bots = [ManafieldsHeuristicBot(mix_seed(seed, 1)), ManafieldsHeuristicBot(mix_seed(seed, 2))]
    while not state.is_terminal():
        seat = state.active
        state.apply_unchecked(seat, bots[seat].select(state, seat))
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.winners[0] if outcome.winners else 2
    return winner, state.turn + 1, outcome.reason


def pairing_row(
    first: str, second: str, wins: list[int], turns: float, ends: Counter[str]
) -> dict[str, Any]:
    """A pairing's row of the table from its counts: ``wins`` is (first, second, draws),
    ``turns`` the matches' turns added up."""
    games = sum(wins)
    points = wins[0] + wins[2] / 2
    low, high = wilson(points, games)
    return {"first": first, "second": second, "games": games, "first_wins": wins[0],
            "second_wins": wins[1], "draws": wins[2], "first_rate": points / games,
            "ci95": [low, high], "mean_turns": turns / games, "ends": dict(ends)}  # fmt: skip


def play_pairing(args: tuple[str, str, int, int, int | None]) -> dict[str, Any]:
    """Play one pairing's matches; its row of the table."""
    f0, f1, games, seed, turn_limit = args
    options: dict[str, object] = {"faction0": f0, "faction1": f1}
    if turn_limit:
        options["turn_limit"] = turn_limit
    game = Manafields(options=options)
    wins = [0, 0, 0]
    turns = 0
    ends: Counter[str] = Counter()
    for index in range(games):
        winner, length, reason = play(
            game, mix_seed(seed, FACTIONS.index(f0), FACTIONS.index(f1), index)
        )
        wins[winner] += 1
        turns += length
        ends[reason] += 1
    return pairing_row(f0, f1, wins, turns, ends)


def merge(paths: list[Path]) -> list[dict[str, Any]]:
    """The pairings of several runs' JSON files added up, in the first file's order."""
    counts: dict[tuple[str, str], tuple[list[int], list[float], Counter[str]]] = {}
    for path in paths:
        for row in json.loads(path.read_text())["pairings"]:
            wins, turns, ends = counts.setdefault(
                (row["first"], row["second"]), ([0, 0, 0], [0.0], Counter())
            )
            for i, field in enumerate(("first_wins", "second_wins", "draws")):
                wins[i] += row[field]
            turns[0] += row["mean_turns"] * row["games"]
            ends.update(row["ends"])
    return [
        pairing_row(first, second, wins, turns[0], ends)
        for (first, second), (wins, turns, ends) in counts.items()
    ]


def report(rows: Iterable[dict[str, Any]], started: float) -> dict[str, Any]:
    """Print the tables for the pairings' rows as they come; return them as JSON."""
    faction_points: dict[str, float] = dict.fromkeys(FACTIONS, 0.0)
    faction_games: Counter[str] = Counter()
    seat_wins = [0.0, 0.0]
    total = 0
    turn_total = 0.0
    seen = []
    header = f"{'first':8} {'second':8} {'first wins':>10} {'95% CI':>13} {'draws':>5}"
    print(header + f" {'turns':>6}  ends")
    for row in rows:
        seen.append(row)
        f0, f1, games = row["first"], row["second"], row["games"]
        points = [row["first_wins"] + row["draws"] / 2, row["second_wins"] + row["draws"] / 2]
        for seat, faction in ((0, f0), (1, f1)):
            faction_points[faction] += points[seat]
            faction_games[faction] += games
            seat_wins[seat] += points[seat]
        total += games
        turn_total += row["mean_turns"] * games
        low, high = row["ci95"]
        print(
            f"{f0:8} {f1:8} {row['first_rate']:10.1%} {f'{low:.1%}-{high:.1%}':>13}"
            f" {row['draws']:5d} {row['mean_turns']:6.1f}  {row['ends']}",
            flush=True,
        )
    print()
    matchups = matchup_table(seen)
    print("match-ups over both seat orders (the row faction's share, draws count half):")
    print(f"{'':8} " + " ".join(f"{f:>15}" for f in FACTIONS))
    for f0 in FACTIONS:
        cells = []
        for f1 in FACTIONS:
            cell = matchups.get(f"{f0}-{f1}")
            cells.append(
                f"{'-':>15}"
                if cell is None
                else f"{cell['rate']:4.0%} ({cell['ci95'][0]:.0%}-{cell['ci95'][1]:.0%})".rjust(15)
            )
        print(f"{f0:8} " + " ".join(cells))
    print()
    factions = {}
    for faction in FACTIONS:
        n = faction_games[faction]
        if n == 0:
            continue
        low, high = wilson(faction_points[faction], n)
        factions[faction] = {"rate": faction_points[faction] / n, "games": n, "ci95": [low, high]}
        rate = faction_points[faction] / n
        print(f"{faction:8} wins {rate:5.1%} of {n} seats  ({low:.1%}-{high:.1%})")
    low, high = wilson(seat_wins[0], total)
    print(f"first seat wins {seat_wins[0] / total:.1%} of {total} ({low:.1%}-{high:.1%})")
    elapsed = time.perf_counter() - started
    print(f"mean length {turn_total / total:.1f} turns; {elapsed:.0f} s")
    return {"pairings": seen, "matchups": matchups, "factions": factions,
            "first_seat": {"rate": seat_wins[0] / total, "games": total, "ci95": [low, high]},
            "mean_turns": turn_total / total}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="matches per pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--turn-limit", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write the table as JSON")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--pairings", default="", help="first-second,... (default: all 16)")
    parser.add_argument(
        "--merge", type=Path, nargs="+", default=None, help="add up earlier runs' JSON files"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    if args.merge:
        table = report(merge(args.merge), started)
    else:
        pairings = [(f0, f1) for f0 in FACTIONS for f1 in FACTIONS]
        if args.pairings:
            wanted = {tuple(p.split("-")) for p in args.pairings.split(",")}
            pairings = [p for p in pairings if p in wanted]
        jobs = [(f0, f1, args.games, args.seed, args.turn_limit) for f0, f1 in pairings]
        with multiprocessing.Pool(args.workers) as pool:
            table = report(pool.imap(play_pairing, jobs), started)
    if args.json is not None:
        args.json.write_text(json.dumps(table, indent=2))


if __name__ == "__main__":
    main()
