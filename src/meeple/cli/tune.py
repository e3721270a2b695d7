"""``meeple tune manafields``: search the unit cards for balance on all 16 faction pairings.

A noisy local search by heuristic self-play. Each step changes one or two numbers on the
cards of a faction picked by how far its win rate is from 50 % (buffs for a weak faction,
nerfs for a strong one, a random direction one time in four): Speed, HP, To Hit, Armour, an
archer's Range, a healing or bolt ability's amount and range, each within its bounds around
the published cards. A candidate plays ``--games`` matches on every pairing (the matches
``meeple balance manafields --bots heuristic --seed S`` plays); it is kept when its loss
(the root mean square of the 16 first-seat win rates' distance from 50 %, plus 0.15 for
each step away from the published cards) beats the best on the same seed, and again on the
mean of two seeds.

The engine still reads its cards once, at import, so every candidate is played by a copy of
the ``meeple`` package with its ``rules.json`` swapped in, in two processes. ``--out`` gets
``log.txt`` and ``best.json`` (a whole ``rules.json``); ``meeple balance manafields`` run on
a copy of the package with that file (``PYTHONPATH=copy``) is the check at more matches and
a fresh seed.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import meeple
from meeple.cli.common import console

GAME = "manafields"
RULES_PATH = Path("games") / GAME / "data" / "rules.json"
"""The cards, relative to the ``meeple`` package."""
FACTIONS = ("humans", "elves", "orcs", "undead")
PAIRINGS = [(a, b) for a in FACTIONS for b in FACTIONS]
SEEDS = (1001, 2002)
PENALTY = 0.15

Param = tuple[str, int, str, int, int]
"""What the search may change: faction, unit index, field, low, high."""
Cells = dict[tuple[str, str], float]
"""First-seat win rate (in %) per (first, second) faction pairing."""


def parameters(published: dict[str, Any]) -> list[Param]:
    """What the search may change, with bounds around the published cards."""
    found: list[Param] = []
    for faction in FACTIONS:
        for index, unit in enumerate(published["factions"][faction]["units"]):
            if unit["kind"] == "zombie":
                continue  # the Undead's Zombie shares the risen Zombie's card
            found += [
                (faction, index, "speed", max(2, unit["speed"] - 1), unit["speed"] + 1),
                (faction, index, "hp", unit["hp"] - 2, unit["hp"] + 2),
                (faction, index, "to_hit", max(3, unit["to_hit"] - 1), min(5, unit["to_hit"] + 1)),
                (faction, index, "armour", max(2, unit["armour"] - 1), min(5, unit["armour"] + 1)),
            ]  # fmt: skip
            if unit["kind"] == "archers":
                found.append((faction, index, "range", unit["range"] - 1, unit["range"] + 1))
            ability = unit.get("ability")
            if ability and ability["effect"] in ("heal", "bolt"):
                amount, reach = ability["amount"], ability["range"]
                found.append((faction, index, "ability.amount", max(1, amount - 1), amount + 1))
                found.append((faction, index, "ability.range", reach - 1, reach + 1))
    return found


def get(rules: dict[str, Any], param: Param) -> int:
    """The value ``param`` names on these cards."""
    faction, index, field = param[:3]
    unit = rules["factions"][faction]["units"][index]
    return int(unit["ability"][field[8:]] if field.startswith("ability.") else unit[field])


def put(rules: dict[str, Any], param: Param, value: int) -> None:
    """Set the value ``param`` names on these cards."""
    faction, index, field = param[:3]
    unit = rules["factions"][faction]["units"][index]
    if field.startswith("ability."):
        unit["ability"][field[8:]] = value
    else:
        unit[field] = value


def first_seat_rates(seed: int, games: int, pairs: Sequence[tuple[str, str]]) -> list[float]:
    """The first seat's score (a win 1, a draw ½) per pairing over ``games`` heuristic
    self-play matches: the matches and seeds of ``meeple balance manafields --bots
    heuristic --seed SEED``."""
    from meeple.cli.balance import BalanceJob, play_job  # noqa: PLC0415 (the worker's only)
    from meeple.core import load_game, mix_seed  # noqa: PLC0415

    game = load_game(GAME)
    rates = []
    for first, second in pairs:
        options = {**game.options, "faction0": first, "faction1": second}
        points = 0.0
        for index in range(games):
            match_seed = mix_seed(seed, FACTIONS.index(first), FACTIONS.index(second), index)
            job = BalanceJob(index, game.id, 2, options, match_seed, ("heuristic", "heuristic"))
            winners = play_job(job)["winners"]
            points += 1.0 if winners == [0] else 0.5 if not winners else 0.0
        rates.append(points / games)
    return rates


class Search:
    """The search's state: the published cards, a copy of the package to play candidates
    with, and the win rates already measured."""

    def __init__(self, published: dict[str, Any], games: int) -> None:
        self.published = published
        self.params = parameters(published)
        self.games = games
        self.tree = Path(tempfile.mkdtemp(prefix="tune-manafields-"))
        shutil.copytree(
            Path(meeple.__file__).parent,
            self.tree / "meeple",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
        self.cache: dict[tuple[str, int], Cells] = {}

    def close(self) -> None:
        """Remove the package's copy."""
        shutil.rmtree(self.tree, ignore_errors=True)

    def distance(self, rules: dict[str, Any]) -> int:
        """Steps away from the published cards."""
        return sum(abs(get(rules, p) - get(self.published, p)) for p in self.params)

    def cells(self, rules: dict[str, Any], seed: int) -> Cells:
        """First-seat win rate (in %) on every pairing, played in two processes."""
        key = (json.dumps(rules, sort_keys=True), seed)
        if key not in self.cache:
            (self.tree / "meeple" / RULES_PATH).write_text(json.dumps(rules, indent=1))
            halves = [PAIRINGS[h::2] for h in range(2)]
            env = {**os.environ, "PYTHONPATH": str(self.tree)}
            worker = [sys.executable, "-m", "meeple.cli.tune", str(seed), str(self.games)]
            procs = [
                subprocess.Popen(
                    [*worker, json.dumps(half)],
                    env=env,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for half in halves
            ]
            rates = []
            for proc in procs:
                out, _ = proc.communicate()
                if proc.returncode:
                    raise RuntimeError(f"a tuning worker failed (exit {proc.returncode})")
                rates.append(json.loads(out))
            self.cache[key] = {
                pair: 100 * rate
                for half, got in zip(halves, rates, strict=True)
                for pair, rate in zip(half, got, strict=True)
            }
        return self.cache[key]

    def loss(self, rules: dict[str, Any], seeds: tuple[int, ...]) -> float:
        """Mean over ``seeds`` of the RMS distance from 50 %, plus the distance penalty."""
        rms = [
            math.sqrt(sum((v - 50) ** 2 for v in self.cells(rules, s).values()) / 16) for s in seeds
        ]
        return sum(rms) / len(rms) + PENALTY * self.distance(rules)

    def faction_rates(self, rules: dict[str, Any]) -> dict[str, float]:
        """Each faction's win rate (in %) over both seats, on the first seed."""
        cells = self.cells(rules, SEEDS[0])
        return {
            f: (sum(cells[(f, g)] for g in FACTIONS) + sum(100 - cells[(g, f)] for g in FACTIONS))
            / 8
            for f in FACTIONS
        }

    def propose(self, rules: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A candidate one or two steps from ``rules``."""
        rates = self.faction_rates(rules)
        candidate = copy.deepcopy(rules)
        for _ in range(rng.choice((1, 1, 2))):
            faction = rng.choices(FACTIONS, [abs(rates[f] - 50) + 1.5 for f in FACTIONS])[0]
            param = rng.choice([p for p in self.params if p[0] == faction])
            buff = rates[faction] < 50 if rng.random() < 0.75 else rng.random() < 0.5
            step = 1 if buff != (param[2] == "to_hit") else -1  # a lower To Hit is better
            value = get(candidate, param) + step
            if param[3] <= value <= param[4]:
                put(candidate, param, value)
        return candidate

    def changes(self, rules: dict[str, Any]) -> list[str]:
        """The cards' numbers that differ from the published ones."""
        return [
            f"{p[0]}/{rules['factions'][p[0]]['units'][p[1]]['name']}.{p[2]}={get(rules, p)}"
            for p in self.params
            if get(rules, p) != get(self.published, p)
        ]

    def describe(self, rules: dict[str, Any]) -> str:
        """The changes, how many pairings are within 45-55 %, and the table of them."""
        cells = self.cells(rules, SEEDS[0])
        within = sum(45 <= v <= 55 for v in cells.values())
        table = "\n".join(
            f"    {a:7}" + " ".join(f"{cells[(a, b)]:4.0f}" for b in FACTIONS) for a in FACTIONS
        )
        return f"[{', '.join(self.changes(rules))}] {within}/16 within 45-55 %\n{table}"


def run_search(
    search: Search,
    start: dict[str, Any],
    iterations: int,
    *,
    seed: int,
    out: Path,
    say: Callable[[str], None],
    on_step: Callable[[], None] | None = None,
) -> tuple[dict[str, Any], float]:
    """Walk ``iterations`` steps from ``start``; the best cards found and their loss on
    both seeds. The best so far is always in ``out/best.json``."""
    best = start
    rng = random.Random(seed)
    (out / "best.json").write_text(json.dumps(best, indent=1))
    say(f"start: loss {search.loss(best, SEEDS[:1]):.2f} {search.describe(best)}")
    for step in range(iterations):
        candidate = search.propose(best, rng)
        if candidate != best:
            one, mine = search.loss(candidate, SEEDS[:1]), search.loss(best, SEEDS[:1])
            line = f"step {step}: {one:.2f} against {mine:.2f}"
            if one < mine and search.loss(candidate, SEEDS) < search.loss(best, SEEDS):
                best = candidate
                (out / "best.json").write_text(json.dumps(best, indent=1))
                line += f", kept {search.describe(best)}"
            say(line)
        if on_step is not None:
            on_step()
    return best, search.loss(best, SEEDS)


tune_app = typer.Typer(
    name="tune",
    help="Search a game's numbers for balance by self-play.",
    no_args_is_help=True,
)


@tune_app.command("manafields")
def tune_manafields(  # noqa: PLR0917 (typer: one parameter per option)
    out: Annotated[Path, typer.Option(help="Directory for log.txt and best.json.")],
    start: Annotated[
        Path | None, typer.Option(help="A whole rules.json to start from (the published one).")
    ] = None,
    iterations: Annotated[int, typer.Option(min=0, help="Steps of the search.")] = 100,
    games: Annotated[int, typer.Option(min=1, help="Matches per pairing and candidate.")] = 120,
    seed: Annotated[int, typer.Option(help="Seed of the search's own choices.")] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the best cards' loss and changes as JSON.")
    ] = False,
) -> None:
    """Search Manafields' unit cards for balance on all 16 faction pairings.

    Heuristic self-play in two processes; writes OUT/log.txt and OUT/best.json."""
    out.mkdir(parents=True, exist_ok=True)
    published = json.loads((Path(meeple.__file__).parent / RULES_PATH).read_text("utf-8"))
    first = published if start is None else json.loads(start.read_text("utf-8"))
    search = Search(published, games)
    progress = Progress(
        TextColumn("tune manafields"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console(stderr=True),
    )
    try:
        with (out / "log.txt").open("a", encoding="utf-8") as log, progress:
            task = progress.add_task("steps", total=iterations)

            def say(text: str) -> None:
                print(text, file=log, flush=True)
                if not as_json:
                    print(text, flush=True)  # above the bar (rich redirects stdout)

            best, loss = run_search(
                search,
                first,
                iterations,
                seed=seed,
                out=out,
                say=say,
                on_step=lambda: progress.advance(task),
            )
        if as_json:
            report = {
                "loss": round(loss, 3),
                "changes": search.changes(best),
                "cells": {f"{a}-{b}": v for (a, b), v in search.cells(best, SEEDS[0]).items()},
                "best": str(out / "best.json"),
            }
            typer.echo(json.dumps(report, indent=2))
    finally:
        search.close()


if __name__ == "__main__":  # a worker: python -m meeple.cli.tune SEED GAMES PAIRS_JSON
    pairs = [(str(a), str(b)) for a, b in json.loads(sys.argv[3])]
    print(json.dumps(first_seat_rates(int(sys.argv[1]), int(sys.argv[2]), pairs)))
