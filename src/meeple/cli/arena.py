"""``meeple arena``: round robins between bots, rated with OpenSkill.

Every group of bots plays ``games`` matches, seats rotating between matches, in parallel
worker processes (or Ray tasks: :mod:`meeple.cli.executor`). Each match is rated with
OpenSkill's Plackett-Luce model: the seats a bot holds in a match form its team, ranked
by the outcome (winners first; a draw ranks all alike). The report lists per bot its
score with a Wilson 95 % interval (a win counts 1, a draw ½), its rating and its mean
time per decision, and per pair of bots the head-to-head score. It is written as JSON and
Markdown, with a PNG plot of the ratings.

Matches are reproducible: match ``i`` has a seed derived from ``--seed`` and ``i``, and
each bot a seed derived from the match seed and its seat. A bot's search is cut off by the
clock only if it runs past ``--move-seconds`` (the levels' promise is one second).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeple.ai import Bot, MctsBot, make_bot
from meeple.ai.deadline import deadline
from meeple.cli.executor import run_jobs
from meeple.core import Game, Seat, State, load_game, mix_seed
from meeple.core.ratings import RatingTable
from meeple.core.stats import wilson

SEED_MASK = (1 << 53) - 1


def decide(bot: Bot, state: State, seat: Seat, move_seconds: float | None) -> int:
    """The bot's action; a searching bot is stopped by the clock after ``move_seconds``."""
    if move_seconds is not None and isinstance(bot, MctsBot):
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        budget = bot.budget.stopping_when(deadline(move_seconds, time.perf_counter))
        return bot.search(state, seat, budget).action
    return bot.select(state, seat)


# -- matches -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchJob:
    """One match to play: which game, which bot in which seat, which seed."""

    index: int
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    lineup: tuple[str, ...]
    move_seconds: float | None


@dataclass
class MatchResult:
    """How a match went, with each seat's decisions and the time they took."""

    index: int
    lineup: tuple[str, ...]
    winners: tuple[Seat, ...]
    actions: int
    decisions: list[int]
    seconds: list[float]


def schedule(
    bots: Sequence[str],
    game: Game,
    games: int,
    seed: int,
    move_seconds: float | None,
) -> list[MatchJob]:
    """The round robin: every group of ``game.seats`` bots plays ``games`` matches.

    With two seats that is every pair; with more seats, every combination of that many
    bots, or -- when there are fewer bots than seats -- all of them, the seats dealt out
    in turn. Seats rotate from one match of a group to the next.
    """
    seats = game.seats
    if len(bots) < 2:
        raise ValueError("an arena needs at least two bots")
    groups = list(itertools.combinations(bots, seats)) if len(bots) >= seats else [tuple(bots)]
    jobs: list[MatchJob] = []
    for group in groups:
        for match in range(games):
            lineup = tuple(group[(seat + match) % len(group)] for seat in range(seats))
            index = len(jobs)
            jobs.append(
                MatchJob(
                    index,
                    game.id,
                    seats,
                    dict(game.options),
                    mix_seed(seed, index) & SEED_MASK,
                    lineup,
                    move_seconds,
                )
            )
    return jobs


def play_job(job: MatchJob) -> MatchResult:
    """Play one match (in a worker process); times every decision."""
    import meeple.games  # noqa: F401, PLC0415 (a spawned worker registers the games)

    game = load_game(job.game, seats=job.seats, options=job.options)
    bots = [make_bot(name, mix_seed(job.seed, seat + 1)) for seat, name in enumerate(job.lineup)]
    state = game.new_initial_state(job.seed)
    decisions = [0] * job.seats
    seconds = [0.0] * job.seats
    actions = 0
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        start = time.perf_counter()
        action = decide(bots[seat], state, seat, job.move_seconds)
        seconds[seat] += time.perf_counter() - start
        decisions[seat] += 1
        state.apply(seat, action)
        actions += 1
    outcome = state.outcome()
    winners = () if outcome is None else outcome.winners
    return MatchResult(job.index, job.lineup, winners, actions, decisions, seconds)


# -- the report ----------------------------------------------------------------------------


@dataclass
class BotLine:
    """One bot's line of the table."""

    bot: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    low: float = 0.0
    high: float = 1.0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    ordinal: float = 0.0
    decisions: int = 0
    seconds: float = 0.0

    @property
    def mean_move_ms(self) -> float:
        return 1000.0 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class HeadToHead:
    """How ``bot`` fared against ``other`` in the matches they met."""

    bot: str
    other: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    score: float = 0.0
    low: float = 0.0
    high: float = 1.0


@dataclass
class ArenaReport:
    game: str
    seats: int
    games_per_group: int
    matches: int
    move_seconds: float | None
    lines: list[BotLine]
    pairs: list[HeadToHead] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for line, raw in zip(self.lines, data["lines"], strict=True):
            raw["mean_move_ms"] = round(line.mean_move_ms, 2)
        return data


def _result_of(result: MatchResult, seat: Seat) -> float:
    """1 for a win, ½ for a draw, 0 for a loss."""
    if not result.winners:
        return 0.5
    return 1.0 if seat in result.winners else 0.0


def summarise(
    bots: Sequence[str],
    game: Game,
    results: Sequence[MatchResult],
    games: int,
    move_seconds: float | None,
) -> ArenaReport:
    """Tally, rate (in match order, so the ratings do not depend on the workers) and pair."""
    ratings = RatingTable(bots)
    lines = {name: BotLine(name) for name in bots}
    pairs = {(a, b): HeadToHead(a, b) for a in bots for b in bots if a != b}
    for result in sorted(results, key=lambda r: r.index):
        seats_of: dict[str, list[Seat]] = {}
        for seat, name in enumerate(result.lineup):
            seats_of.setdefault(name, []).append(seat)
            line = lines[name]
            line.decisions += result.decisions[seat]
            line.seconds += result.seconds[seat]
        outcome_of = {
            name: max(_result_of(result, s) for s in seats) for name, seats in seats_of.items()
        }
        for name, value in outcome_of.items():
            line = lines[name]
            line.games += 1
            line.score += value
            line.wins += value == 1.0
            line.draws += value == 0.5
            line.losses += value == 0.0
        for a, b in itertools.permutations(outcome_of, 2):
            pair = pairs[(a, b)]
            pair.games += 1
            if outcome_of[a] == outcome_of[b]:
                pair.draws += 1
                pair.score += 0.5
            elif outcome_of[a] > outcome_of[b]:
                pair.wins += 1
                pair.score += 1.0
        # Winners share first place, the rest second; a draw ties everyone.
        ratings.rate(
            {
                name: 1.0 if value == 1.0 or not result.winners else 2.0
                for name, value in outcome_of.items()
            }
        )
    for name, line in lines.items():
        line.low, line.high = wilson(line.score, line.games)
        rating = ratings[name]
        line.mu, line.sigma, line.ordinal = rating.mu, rating.sigma, rating.ordinal
    for pair in pairs.values():
        pair.low, pair.high = wilson(pair.score, pair.games)
    ordered = sorted(lines.values(), key=lambda line: -line.ordinal)
    return ArenaReport(
        game.id,
        game.seats,
        games,
        len(results),
        move_seconds,
        ordered,
        [pair for pair in pairs.values() if pair.games],
    )


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def to_markdown(report: ArenaReport) -> str:
    """The ladder and the head-to-head scores as Markdown tables."""
    out = [
        f"### {report.game}: {report.matches} matches, {report.seats} seats, "
        f"{report.games_per_group} per group"
        + (f", at most {report.move_seconds:g} s a move" if report.move_seconds else ""),
        "",
        "| bot | games | W-D-L | score % (95 % CI) | rating μ ± σ | ordinal | ms / move |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for line in report.lines:
        score = line.score / line.games if line.games else 0.0
        out.append(
            f"| {line.bot} | {line.games} | {line.wins}-{line.draws}-{line.losses} | "
            f"{_pct(score)} ({_pct(line.low)}–{_pct(line.high)}) | "
            f"{line.mu:.1f} ± {line.sigma:.1f} | {line.ordinal:.1f} | {line.mean_move_ms:.1f} |"
        )
    out += ["", "| bot | vs | games | W-D-L | score % (95 % CI) |", "|---|---|---:|---:|---:|"]
    for pair in report.pairs:
        losses = pair.games - pair.wins - pair.draws
        out.append(
            f"| {pair.bot} | {pair.other} | {pair.games} | {pair.wins}-{pair.draws}-{losses} | "
            f"{_pct(pair.score / pair.games)} ({_pct(pair.low)}–{_pct(pair.high)}) |"
        )
    return "\n".join(out) + "\n"


def plot(report: ArenaReport, path: Path) -> None:
    """A PNG of the ratings: μ with ±2σ bars, best at the top."""
    import matplotlib  # noqa: PLC0415 (import cost, CLI startup)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    lines = list(reversed(report.lines))
    figure, axes = plt.subplots(figsize=(7, 0.6 * len(lines) + 1.5))
    axes.errorbar(
        [line.mu for line in lines],
        range(len(lines)),
        xerr=[2 * line.sigma for line in lines],
        fmt="o",
        capsize=4,
    )
    axes.set_yticks(range(len(lines)), [line.bot for line in lines])
    axes.set_xlabel("OpenSkill rating μ (bars: ±2σ)")
    axes.set_title(f"{report.game}: {report.matches} matches")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def report_stem(game_id: str) -> str:
    """The ``<game>`` of the report's file names: the game's name without its rules version
    (``name/1`` -> ``name``), as docs/ai.md names them; the JSON inside says the
    version."""
    return game_id.partition("/")[0]


def write_report(report: ArenaReport, directory: Path) -> list[Path]:
    """Write ``<game>-arena.json``, ``<game>-arena.md`` and ``<game>-ratings.png`` into
    ``directory`` (see :func:`report_stem`)."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = report_stem(report.game)
    paths = [
        directory / f"{stem}-arena.json",
        directory / f"{stem}-arena.md",
        directory / f"{stem}-ratings.png",
    ]
    paths[0].write_text(json.dumps(report.to_json(), indent=2) + "\n", encoding="utf-8")
    paths[1].write_text(to_markdown(report), encoding="utf-8")
    plot(report, paths[2])
    return paths


def run_arena(
    game: Game,
    bots: Sequence[str],
    games: int,
    *,
    workers: int | None = 1,
    executor: str = "pool",
    address: str | None = None,
    seed: int = 0,
    move_seconds: float | None = None,
    on_result: Callable[[MatchResult], None] | None = None,
) -> ArenaReport:
    """Schedule, play and summarise a round robin (see the module text); the matches run
    as :func:`meeple.cli.executor.run_jobs` runs them (``workers``: None for every core)."""
    jobs = schedule(bots, game, games, seed, move_seconds)
    results = []
    for result in run_jobs(
        play_job, jobs, workers=workers, executor=executor, address=address, chunksize=1
    ):
        results.append(result)
        if on_result is not None:
            on_result(result)
    return summarise(bots, game, results, games, move_seconds)


# -- search speed ------------------------------------------------------------------------


def search_speed(game: Game, seconds: float, positions: int = 5, seed: int = 0) -> float:
    """Search iterations per second (one process), averaged over positions of random play.

    Each position comes from a random match stopped partway through; the search there runs
    the default MCTS (the levels' policy) for ``seconds / positions``.
    """
    import random  # noqa: PLC0415

    from meeple.ai import Budget, Mcts  # noqa: PLC0415

    rng = random.Random(seed)
    iterations = 0
    spent = 0.0
    for index in range(positions):
        state = game.new_initial_state(mix_seed(seed, index))
        for _ in range(rng.randrange(game.max_game_length() // 8 + 1)):
            deciding = state.deciding_seats()
            if not deciding:
                break
            state.apply_unchecked(deciding[0], rng.choice(state.legal_actions(deciding[0])))
        if state.is_terminal():
            state = game.new_initial_state(mix_seed(seed, index))
        seat = state.deciding_seats()[0]
        budget = Budget(
            10**9, should_stop=deadline(seconds / positions, time.perf_counter), check_every=1
        )
        start = time.perf_counter()
        result = Mcts().run(state, seat, budget, index)
        spent += time.perf_counter() - start
        iterations += result.iterations
    return iterations / spent
