"""``meeple tune GAME``: search a game's numbers for balance on every faction pairing.

For a game whose seats each play a faction (its ``faction0``/``faction1`` options) and whose
package says what may change: a ``tuning`` module with the published data (``published()``),
the numbers a search may move (``card_numbers``, each a :class:`Number`) and how a game is
built with other data (``builder(data)``, a function from a configured game to the same game
playing that data). A noisy local search
by self-play. Each step changes one or two numbers on the cards of a faction picked by how
far its win rate is from 50 % (buffs for a weak faction, nerfs for a strong one, a random
direction one time in four), each within its bounds around the published cards. A candidate
plays ``--games`` matches on every pairing (the matches ``meeple balance GAME --bots
heuristic --seed S`` plays); it is kept when its loss (the root mean square of the
first-seat win rates' distance from 50 %, plus 0.15 for each step away from the published
cards) beats the best on the same seed, and again on the mean of two seeds.

A game holds its rule data as a value (``game.rules``), so every candidate is played in this
process by games built from its data: no copy of the package, no worker process. ``--out``
gets ``log.txt`` and ``best.json`` (a whole data file); publishing that file as the game's
data (a new rules version) and running ``meeple balance GAME`` at more matches and a fresh
seed is the check.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import random
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any, Protocol

import typer

from meeple.cli.balance import pairings, play_job, schedule
from meeple.cli.common import fail, open_game, progress_bar
from meeple.core import Game, load_game

SEEDS = (1001, 2002)
PENALTY = 0.15
TUNING_MODULE = "tuning"
"""The module of a game package that says what a search may change."""

Cells = dict[tuple[str, str], float]
"""First-seat win rate (in %) per (first, second) faction pairing."""


class Number(Protocol):
    """One number a search may change: the faction (``side``) whose card it is on, its bounds,
    and which way is stronger (+1: higher, -1: lower)."""

    @property
    def side(self) -> str: ...
    @property
    def low(self) -> int: ...
    @property
    def high(self) -> int: ...
    @property
    def stronger(self) -> int: ...

    def get(self, cards: dict[str, Any]) -> int: ...
    def put(self, cards: dict[str, Any], value: int) -> None: ...
    def label(self, cards: dict[str, Any]) -> str: ...


def tuning_of(game: Game) -> ModuleType | None:
    """The ``tuning`` module of the game's package, or None if it has none."""
    package = type(game).__module__.rpartition(".")[0]
    name = f"{package}.{TUNING_MODULE}"
    return importlib.import_module(name) if package and find_spec(name) else None


def first_seat_rates(
    name: str,
    seed: int,
    games: int,
    pairs: Sequence[tuple[str, str]],
    bots: Sequence[str],
    *,
    build: Callable[[Game], Game] | None = None,
) -> list[float]:
    """The first seat's score (a win 1, a draw ½) per pairing over ``games`` self-play
    matches: the matches and seeds of ``meeple balance NAME --bots BOTS --seed SEED``, each
    played by ``build(game)`` (a candidate's data) when given."""
    game = load_game(name)
    rates = []
    for first, second in pairs:
        fixed = {"faction0": first, "faction1": second}
        points = 0.0
        for job in schedule(game, bots, games, seed, fixed):
            played = None
            if build is not None:
                played = build(load_game(job.game, seats=job.seats, options=job.options))
            winners = play_job(job, played)["winners"]
            points += 1.0 if winners == [0] else 0.5 if not winners else 0.0
        rates.append(points / games)
    return rates


class Search:
    """The search's state: the published cards, how a candidate's games are built, and the
    win rates already measured."""

    def __init__(self, game: Game, tuning: ModuleType, games: int, bots: Sequence[str]) -> None:
        self.name = game.info.name
        self.tuning = tuning
        self.published: dict[str, Any] = tuning.published()
        self.params: list[Number] = list(tuning.card_numbers(self.published))
        self.pairs = pairings(game, {})
        self.sides = list(dict.fromkeys(first for first, _ in self.pairs))
        self.games = games
        self.bots = list(bots)
        self.cache: dict[tuple[str, int], Cells] = {}

    def distance(self, rules: dict[str, Any]) -> int:
        """Steps away from the published cards."""
        return sum(abs(p.get(rules) - p.get(self.published)) for p in self.params)

    def cells(self, rules: dict[str, Any], seed: int) -> Cells:
        """First-seat win rate (in %) on every pairing, played with games built from
        ``rules`` (a whole data file).

        Raises:
            ValueError: when ``rules`` is not a data file the game can be built from.
        """
        key = (json.dumps(rules, sort_keys=True), seed)
        if key not in self.cache:
            build: Callable[[Game], Game] = self.tuning.builder(rules)
            rates = first_seat_rates(
                self.name, seed, self.games, self.pairs, self.bots, build=build
            )
            self.cache[key] = {
                pair: 100 * rate for pair, rate in zip(self.pairs, rates, strict=True)
            }
        return self.cache[key]

    def loss(self, rules: dict[str, Any], seeds: tuple[int, ...]) -> float:
        """Mean over ``seeds`` of the RMS distance from 50 %, plus the distance penalty."""
        rms = []
        for seed in seeds:
            cells = self.cells(rules, seed).values()
            rms.append(math.sqrt(sum((v - 50) ** 2 for v in cells) / len(cells)))
        return sum(rms) / len(rms) + PENALTY * self.distance(rules)

    def faction_rates(self, rules: dict[str, Any]) -> dict[str, float]:
        """Each faction's win rate (in %) over both seats, on the first seed."""
        cells = self.cells(rules, SEEDS[0])
        return {
            f: (
                sum(cells[(f, g)] for g in self.sides)
                + sum(100 - cells[(g, f)] for g in self.sides)
            )
            / (2 * len(self.sides))
            for f in self.sides
        }

    def propose(self, rules: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A candidate one or two steps from ``rules``."""
        rates = self.faction_rates(rules)
        candidate = copy.deepcopy(rules)
        for _ in range(rng.choice((1, 1, 2))):
            side = rng.choices(self.sides, [abs(rates[f] - 50) + 1.5 for f in self.sides])[0]
            param = rng.choice([p for p in self.params if p.side == side])
            buff = rates[side] < 50 if rng.random() < 0.75 else rng.random() < 0.5
            value = param.get(candidate) + (param.stronger if buff else -param.stronger)
            if param.low <= value <= param.high:
                param.put(candidate, value)
        return candidate

    def changes(self, rules: dict[str, Any]) -> list[str]:
        """The numbers that differ from the published ones."""
        return [p.label(rules) for p in self.params if p.get(rules) != p.get(self.published)]

    def describe(self, rules: dict[str, Any]) -> str:
        """The changes, how many pairings are within 45-55 %, and the table of them."""
        cells = self.cells(rules, SEEDS[0])
        within = sum(45 <= v <= 55 for v in cells.values())
        table = "\n".join(
            f"    {a:7}" + " ".join(f"{cells[(a, b)]:4.0f}" for b in self.sides) for a in self.sides
        )
        return f"[{', '.join(self.changes(rules))}] {within}/{len(cells)} within 45-55 %\n{table}"


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


def tune(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (one with factions and a tuning space).")],
    out: Annotated[Path, typer.Option(help="Directory for log.txt and best.json.")],
    start: Annotated[
        Path | None, typer.Option(help="A whole data file to start from (the published one).")
    ] = None,
    iterations: Annotated[int, typer.Option(min=0, help="Steps of the search.")] = 100,
    games: Annotated[int, typer.Option(min=1, help="Matches per pairing and candidate.")] = 120,
    seed: Annotated[int, typer.Option(help="Seed of the search's own choices.")] = 1,
    bots: Annotated[str, typer.Option(help="The bot of both seats.")] = "heuristic",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the best cards' loss and changes as JSON.")
    ] = False,
) -> None:
    """Search a game's cards for balance on every faction pairing, by self-play.

    Self-play in this process; writes OUT/log.txt and OUT/best.json."""
    configured = open_game(game)
    tuning = tuning_of(configured)
    if tuning is None or not pairings(configured, {}):
        raise fail(f"{configured.info.name} has no factions and tuning space to search")
    out.mkdir(parents=True, exist_ok=True)
    search = Search(configured, tuning, games, [bots, bots])
    first = search.published if start is None else json.loads(start.read_text("utf-8"))
    progress = progress_bar(f"tune {configured.info.name}")
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
            "game": configured.info.name,
            "loss": round(loss, 3),
            "changes": search.changes(best),
            "cells": {f"{a}-{b}": v for (a, b), v in search.cells(best, SEEDS[0]).items()},
            "best": str(out / "best.json"),
        }
        typer.echo(json.dumps(report, indent=2))
