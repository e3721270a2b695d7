"""``meeple balance``: self-play win rates by seat, and by what else a game deals out.

Every seat is played by a bot (one name for all seats, or one per seat). Match ``i`` has
the seed ``mix_seed(--seed, seats, i)`` (Manafields: ``mix_seed(--seed, first faction,
second faction, i)``, the factions by their place in the option's choices); each bot the
seed ``mix_seed(match seed, seat + 1)``. So a run replays exactly, whatever ``--workers``
or ``--executor`` (:mod:`meeple.cli.executor`), and plays the same matches as the
Manafields balance script it replaced.

A win shared by k seats counts 1/k to each; a match with no winner (a draw) counts 1/seats
to every seat, so a two-seat draw is half a win. Every rate comes with its Wilson 95 %
interval and as a share of fair (rate x seats).

Besides the seat number the tables count what the match deals out:

* Maiterra: the **draft position** -- the place in the die-rolled draft order, read from
  the match's ``draft_order`` event (1. picks first) -- and the **house** each seat played;
* Manafields: every (first seat, second seat) **faction pairing** is played ``--games``
  times (only the pairings the ``faction0``/``faction1`` options allow): the first seat's
  win rate per pairing, each match-up over both seat orders, each faction over both seats.

The report prints as Markdown, the tables the rules pages quote; ``--json`` keeps it with
one row per match, so ``--merge`` can add several runs up without playing.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from meeple.ai import BOT_NAMES, make_bot
from meeple.cli.common import (
    OPTION_HELP,
    bot_names_error,
    fail,
    needs_extra,
    options_from_text,
    os_error_words,
    parse_options,
    progress_bar,
)
from meeple.cli.executor import (
    AddressOption,
    ExecutorOption,
    ExecutorUnavailable,
    WorkersOption,
    check_executor,
    run_jobs,
)
from meeple.cli.play import default_opponent
from meeple.cli.selfplay import bots_for_seats
from meeple.core import Event, Game, InvalidOptions, load_game, mix_seed
from meeple.core.stats import wilson

FACTION_OPTIONS = ("faction0", "faction1")
"""A game with these two options is played on every pairing of their choices."""

POSITION_TABLES = ("seat", "draft position")
"""The tables of a seat's place at the table (the plot's panels), before all others."""

BAND = (0.9, 1.1)
"""The share of fair the rules pages aim for (45-55 % at two seats)."""


# -- matches -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BalanceJob:
    """One match to play: which game with which options, which bots, which seed."""

    index: int
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    lineup: tuple[str, ...]


def has_factions(game: Game) -> bool:
    """Whether each seat of ``game`` plays a faction named by its options."""
    specs = {spec.name: spec for spec in game.info.options}
    return all(name in specs and specs[name].choices for name in FACTION_OPTIONS)


def pairings(game: Game, fixed: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The faction pairings to play: every pair of ``faction0``/``faction1`` choices, but
    only the faction an option in ``fixed`` names for its seat; none for a game without
    factions."""
    if not has_factions(game):
        return []
    specs = {spec.name: spec for spec in game.info.options}
    sides = [
        [str(fixed[name])] if name in fixed else [str(c) for c in specs[name].choices or ()]
        for name in FACTION_OPTIONS
    ]
    return [(first, second) for first in sides[0] for second in sides[1]]


def schedule(
    game: Game,
    lineup: Sequence[str],
    games: int,
    seed: int,
    fixed: Mapping[str, Any] | None = None,
) -> list[BalanceJob]:
    """``games`` matches of ``game`` -- per faction pairing for a game that has them, the
    options named in ``fixed`` (those given on the command line) narrowing the pairings."""
    options = dict(game.options)
    groups: list[tuple[dict[str, Any], tuple[int, ...]]] = [(options, (game.seats,))]
    pairs = pairings(game, fixed or {})
    if pairs:
        spec = next(s for s in game.info.options if s.name == FACTION_OPTIONS[0])
        factions = [str(c) for c in spec.choices or ()]
        groups = [
            ({**options, "faction0": f0, "faction1": f1}, (factions.index(f0), factions.index(f1)))
            for f0, f1 in pairs
        ]
    jobs: list[BalanceJob] = []
    for group_options, key in groups:
        for match in range(games):
            match_seed = mix_seed(seed, *key, match)
            jobs.append(
                BalanceJob(len(jobs), game.id, game.seats, group_options, match_seed, tuple(lineup))
            )
    return jobs


def _labels(event: Event, seats: int) -> dict[str, list[str]]:
    """What an event deals each seat, by the name of its table (Maiterra's draft and houses)."""
    if event.kind == "draft_order" and "order" in event.data:
        order = list(event.data["order"])[:seats]
        return {"draft position": [f"{order.index(seat) + 1}." for seat in range(seats)]}
    if event.kind == "houses" and "houses" in event.data:
        return {"house": [str(house) for house in event.data["houses"]]}
    return {}


def play_job(job: BalanceJob, game: Game | None = None) -> dict[str, Any]:
    """Play one match (in a worker process); its row: winners, length, how it ended, labels.
    ``game``: the job's game built otherwise (with a candidate's rules: ``meeple tune``)."""
    import meeple.games  # noqa: F401, PLC0415 (a spawned worker registers the games)

    if game is None:
        game = load_game(job.game, seats=job.seats, options=job.options)
    bots = [make_bot(name, mix_seed(job.seed, seat + 1)) for seat, name in enumerate(job.lineup)]
    state = game.new_initial_state(job.seed)
    labels: dict[str, list[str]] = {}
    actions = 0
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        for event in state.apply_unchecked(seat, bots[seat].select(state, seat)):
            labels.update(_labels(event, job.seats))
        actions += 1
    outcome = state.outcome()
    if outcome is None:
        raise RuntimeError(f"match {job.index} ended without an outcome")
    if has_factions(game):
        labels["faction"] = [str(job.options[name]) for name in FACTION_OPTIONS]
    turns = outcome.detail.get("turns") if isinstance(outcome.detail, Mapping) else None
    if not isinstance(turns, int):
        turns = getattr(state, "turn", actions)  # the match's turn, else its actions
    return {
        "index": job.index,
        "seed": job.seed,
        "winners": list(outcome.winners),
        "reason": outcome.reason,
        "turns": turns if isinstance(turns, int) else actions,
        "labels": labels,
    }


# -- tallies ---------------------------------------------------------------------------------


def credit(row: Mapping[str, Any], seats: int) -> list[float]:
    """Each seat's share of a match's win: 1/k for k winners; 1/seats each for a draw."""
    winners = row["winners"]
    if not winners:
        return [1.0 / seats] * seats
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]


def rate(wins: float, games: int, seats: int) -> dict[str, Any]:
    """A rate with its interval, as a fraction and as a share of fair (1/seats)."""
    low, high = wilson(wins, games)
    value = wins / games if games else 0.0
    return {
        "games": games,
        "wins": round(wins, 4),
        "rate": value,
        "ci95": [low, high],
        "share": value * seats,
        "share_ci95": [low * seats, high * seats],
    }


def by_label(rows: Sequence[Mapping[str, Any]], seats: int) -> dict[str, dict[str, Any]]:
    """Per table (seat, draft position, house, faction), per label: the seats' win rates."""
    tallies: dict[str, dict[str, list[float]]] = {"seat": {str(s): [0.0, 0] for s in range(seats)}}
    for row in rows:
        shares = credit(row, seats)
        named = {"seat": [str(s) for s in range(seats)], **row["labels"]}
        for table, labels in named.items():
            counts = tallies.setdefault(table, {})
            for seat, label in enumerate(labels):
                count = counts.setdefault(label, [0.0, 0])
                count[0] += shares[seat]
                count[1] += 1
    return {
        table: {label: rate(wins, int(games), seats) for label, (wins, games) in counts.items()}
        for table, counts in tallies.items()
    }


def pairing_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per (first, second) faction pairing: the first seat's wins (a draw counts half)."""
    counts: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        first, second = row["labels"]["faction"]
        entry = counts.setdefault(
            (first, second),
            {"wins": [0, 0, 0], "turns": 0, "ends": Counter[str]()},
        )
        winners = row["winners"]
        entry["wins"][winners[0] if len(winners) == 1 else 2] += 1
        entry["turns"] += row["turns"]
        entry["ends"][row["reason"]] += 1
    out = []
    for (first, second), entry in counts.items():
        wins = entry["wins"]
        games = sum(wins)
        points = wins[0] + wins[2] / 2
        low, high = wilson(points, games)
        out.append(
            {
                "first": first,
                "second": second,
                "games": games,
                "first_wins": wins[0],
                "second_wins": wins[1],
                "draws": wins[2],
                "first_rate": points / games,
                "ci95": [low, high],
                "mean_turns": entry["turns"] / games,
                "ends": dict(entry["ends"]),
            }
        )
    return out


def matchups(pairs: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each faction against each other one over both seat orders: the first-named faction's
    share of the points (a draw counts half)."""
    by_pair = {(p["first"], p["second"]): p for p in pairs}
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


def summarise(
    game: Game, lineup: Sequence[str], seed: int | list[int], rows: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The whole report as JSON: who played, the lengths and ends, every table, the rows."""
    seats = game.seats
    ordered = sorted(rows, key=lambda row: (row["index"], row["seed"]))
    turns = [row["turns"] for row in ordered]
    report: dict[str, Any] = {
        "game": game.id,
        "seats": seats,
        "options": dict(game.options),
        "bots": list(lineup),
        "seed": seed,
        "matches": len(ordered),
        "turns": {
            "mean": statistics.fmean(turns) if turns else 0.0,
            "median": statistics.median(turns) if turns else 0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
        },
        "ends": dict(Counter(row["reason"] for row in ordered).most_common()),
        "tables": by_label(ordered, seats),
    }
    if ordered and "faction" in ordered[0]["labels"]:
        pairs = pairing_rows(ordered)
        report["pairings"] = pairs
        report["matchups"] = matchups(pairs)
    report["rows"] = list(ordered)
    return report


def merge(paths: Iterable[Path]) -> tuple[dict[str, Any], list[dict[str, Any]], list[Any]]:
    """The first file's header, every file's rows (indices renumbered to stay apart) and
    every file's seed.

    Raises:
        InvalidOptions: when the files are not balance reports of one game, seats and bots.
    """
    header: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []
    seeds: list[Any] = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            key = (data["game"], data["seats"], data["bots"])
            found = data["rows"]
        except OSError as error:
            raise InvalidOptions(f"cannot read {str(path)!r}: {os_error_words(error)}") from error
        except (ValueError, KeyError, TypeError) as error:
            raise InvalidOptions(f"{str(path)!r} is not a balance report: {error}") from error
        if header is None:
            header = data
        elif key != (header["game"], header["seats"], header["bots"]):
            raise InvalidOptions(f"{str(path)!r} reports {key}, not the first file's game")
        rows += [{**row, "index": len(rows) + n} for n, row in enumerate(found)]
        seeds += data["seed"] if isinstance(data["seed"], list) else [data["seed"]]
    if header is None:
        raise InvalidOptions("--merge needs at least one report")
    return header, rows, seeds


# -- Markdown ----------------------------------------------------------------------------------


def _share(entry: Mapping[str, Any]) -> str:
    low, high = entry["share_ci95"]
    return f"{entry['share']:.2f} ({low:.2f}–{high:.2f})"


def _flag(entry: Mapping[str, Any]) -> str:
    """The share in bold when it lies outside the band."""
    text = _share(entry)
    if BAND[0] <= round(entry["share"], 2) <= BAND[1]:
        return text
    value, rest = text.split(" ", 1)
    return f"**{value}** {rest}"


def _table_order(table: str) -> tuple[int, str]:
    """Positions first (seat, draft position), then what seats play (house, faction)."""
    return (POSITION_TABLES.index(table) if table in POSITION_TABLES else 9, table)


def to_markdown(report: Mapping[str, Any]) -> str:
    """The report's tables: one per label kind, a one-row summary, and the pairings."""
    seats, matches = report["seats"], report["matches"]
    turns = report["turns"]
    tables = report["tables"]
    bots = report["bots"]
    players = f"{bots[0]} in every seat" if len(set(bots)) == 1 else ", ".join(bots)
    out = [
        f"### {report['game']}, {seats} seats: {matches:,} matches "
        f"({players}; seed {report['seed']})",
        "",
        f"Mean length {turns['mean']:.1f} turns (median {turns['median']:g}, "
        f"{turns['min']}–{turns['max']}). Ends: "
        + ", ".join(f"{reason} {count:,}" for reason, count in report["ends"].items())
        + ".",
    ]
    summary_head = ["seats", "matches", "mean turns (median)"]
    summary_row = [str(seats), f"{matches:,}", f"{turns['mean']:.1f} ({turns['median']:g})"]
    for table in sorted(tables, key=_table_order):
        entries = tables[table]
        labels = sorted(entries)
        out += [
            "",
            f"| {table} | seats played | wins | win rate | 95 % interval | share of fair |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        cells = []
        for label in labels:
            entry = entries[label]
            low, high = entry["ci95"]
            out.append(
                f"| {label} | {entry['games']:,} | {entry['wins']:g} | {entry['rate']:.3f} "
                f"| {low:.3f}–{high:.3f} | {_flag(entry)} |"
            )
            played = f" ({entry['games']:,})" if table in ("house", "faction") else ""
            cells.append(f"{label}{played}: {_flag(entry)}")
        summary_head.append(f"by {table}" + (" (seats played)" if table == "house" else ""))
        summary_row.append("<br>".join(cells))
    out += [
        "",
        "| " + " | ".join(summary_head) + " |",
        "|" + "---|" * len(summary_head),
        "| " + " | ".join(summary_row) + " |",
    ]
    if "pairings" in report:
        out += ["", *_pairing_markdown(report)]
    return "\n".join(out) + "\n"


def _pairing_markdown(report: Mapping[str, Any]) -> list[str]:
    """Manafields' tables: first seat per pairing, then each match-up over both seat orders."""
    out = [
        "| first | second | first seat wins | 95 % CI | draws | mean turns |",
        "|---|---|---|---|---|---|",
    ]
    for pair in report["pairings"]:
        low, high = pair["ci95"]
        out.append(
            f"| {pair['first']} | {pair['second']} | {pair['first_rate']:.1%} "
            f"| {low:.1%}–{high:.1%} | {pair['draws']} | {pair['mean_turns']:.1f} |"
        )
    factions = list(dict.fromkeys(p["first"] for p in report["pairings"]))
    if report["matchups"]:
        out += [
            "",
            "| | " + " | ".join(factions) + " |",
            "|---|" + "---|" * len(factions),
        ]
        for f0 in factions:
            cells = []
            for f1 in factions:
                cell = report["matchups"].get(f"{f0}-{f1}")
                cells.append(
                    "—"
                    if cell is None
                    else f"{cell['rate']:.1%} ({100 * cell['ci95'][0]:.0f}–"
                    f"{100 * cell['ci95'][1]:.0f})"
                )
            out.append(f"| {f0} | " + " | ".join(cells) + " |")
    return out


# -- the plot --------------------------------------------------------------------------------


def plot(report: Mapping[str, Any], path: Path) -> None:
    """A PNG of the share of fair by position (seat number, draft position; for a game with
    pairings, the first seat per pairing), with 95 % bars and the 0.9-1.1 band."""
    import matplotlib  # noqa: PLC0415 (import cost, CLI startup)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    panels: list[tuple[str, list[str], list[float], list[tuple[float, float]]]] = []
    for table in POSITION_TABLES:
        entries = report["tables"].get(table)
        if entries:
            labels = sorted(entries)
            panels.append(
                (
                    f"by {table}",
                    labels,
                    [entries[label]["share"] for label in labels],
                    [tuple(entries[label]["share_ci95"]) for label in labels],
                )
            )
    if "pairings" in report:
        pairs = report["pairings"]
        panels.append(
            (
                "first seat by pairing",
                [f"{p['first']}-{p['second']}" for p in pairs],
                [2 * p["first_rate"] for p in pairs],
                [(2 * p["ci95"][0], 2 * p["ci95"][1]) for p in pairs],
            )
        )
    width = sum(max(2.5, 0.5 * len(labels) + 1.0) for _, labels, _, _ in panels)
    figure, axes = plt.subplots(1, len(panels), figsize=(width + 1, 4), squeeze=False)
    for axis, (title, labels, shares, bounds) in zip(axes[0], panels, strict=True):
        errors = [
            [max(0.0, share - low) for share, (low, _) in zip(shares, bounds, strict=True)],
            [max(0.0, high - share) for share, (_, high) in zip(shares, bounds, strict=True)],
        ]
        axis.axhspan(*BAND, color="tab:green", alpha=0.15)
        axis.axhline(1.0, color="grey", linewidth=0.8)
        axis.errorbar(range(len(labels)), shares, yerr=errors, fmt="o", capsize=4)
        axis.set_xticks(range(len(labels)), labels, rotation=90 if len(labels) > 6 else 0)
        axis.set_title(title)
        axis.set_ylabel("win rate ÷ fair share (bars: 95 %)")
    figure.suptitle(f"{report['game']}, {report['seats']} seats: {report['matches']:,} matches")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


# -- the run -----------------------------------------------------------------------------------


def run_balance(
    game: Game,
    lineup: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    workers: int | None = 1,
    executor: str = "pool",
    address: str | None = None,
    fixed: Mapping[str, Any] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Schedule, play and summarise (see the module text); the matches run as
    :func:`meeple.cli.executor.run_jobs` runs them (``workers``: None for every core)."""
    rows = []
    jobs = schedule(game, lineup, games, seed, fixed)
    for row in run_jobs(play_job, jobs, workers=workers, executor=executor, address=address):
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return summarise(game, lineup, seed, rows)


def write_json(report: Mapping[str, Any], path: Path) -> None:
    """The report as JSON: the tables indented, then one line per match."""
    head = {key: value for key, value in report.items() if key != "rows"}
    text = json.dumps(head, indent=2)[:-2]
    rows = ",\n    ".join(json.dumps(row, separators=(",", ":")) for row in report["rows"])
    path.write_text(f'{text},\n  "rows": [\n    {rows}\n  ]\n}}\n', encoding="utf-8")


def balance(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game: name or name/version.")],
    games: Annotated[
        int | None,
        typer.Option(min=1, help="Matches to play (Manafields: per faction pairing)."),
    ] = None,
    seats: Annotated[
        int | None, typer.Option(help="Seats per match (the game's least if unset).")
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)] = None,
    seed: Annotated[int, typer.Option(help="Base seed; match i uses a seed derived from it.")] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated bots, one per seat or one for all "
            "(default: the game's default opponent, heuristic)."
        ),
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write the report (and every match) as JSON.")
    ] = None,
    plot_path: Annotated[
        Path | None, typer.Option("--plot", help="Draw the share of fair by position (PNG).")
    ] = None,
    workers: WorkersOption = None,
    executor: ExecutorOption = "pool",
    address: AddressOption = None,
    merge_paths: Annotated[
        list[Path] | None,
        typer.Option("--merge", help="Play nothing: add up these earlier --json reports."),
    ] = None,
) -> None:
    """Self-play win rates by seat, draft position and house (Maiterra) or faction pairing
    (Manafields), with 95 % intervals; prints the Markdown tables the rules pages use."""
    if (wrong := check_executor(executor)) is not None:
        raise fail(wrong)
    configured = parse_options(game, seats, option or [])
    given = options_from_text(configured.info, option or [])  # checked just above
    names = [name.strip() for name in (bots or default_opponent(configured.info.name)).split(",")]
    if wrong := bot_names_error([n for n in names if n], BOT_NAMES, least=len(names)):
        raise fail(wrong)
    try:
        lineup = bots_for_seats(names, configured.seats)
    except ValueError as error:
        raise fail(str(error)) from error
    if plot_path is not None:
        needs_extra("matplotlib", "plots", "--plot")
    if merge_paths:
        report = _merged(configured, lineup, merge_paths)
    elif games is None:
        raise fail("give --games N (how many matches to play) or --merge FILE ...")
    else:
        try:
            report = _played(
                configured,
                lineup,
                games,
                seed=seed,
                workers=workers,
                given=given,
                executor=executor,
                address=address,
            )
        except ExecutorUnavailable as error:
            raise fail(str(error)) from error
    typer.echo(to_markdown(report))
    written = []
    if json_path is not None:
        write_json(report, json_path)
        written.append(json_path)
    if plot_path is not None:
        plot(report, plot_path)
        written.append(plot_path)
    if written:
        typer.echo("wrote " + ", ".join(str(path) for path in written))


def _played(
    game: Game,
    lineup: Sequence[str],
    games: int,
    *,
    seed: int,
    workers: int | None,
    given: Mapping[str, Any],
    executor: str,
    address: str | None,
) -> dict[str, Any]:
    total = len(schedule(game, lineup, games, seed, given))
    progress = progress_bar(f"balance {escape(game.id)}, {game.seats} seats")
    with progress:
        task = progress.add_task("matches", total=total)
        return run_balance(
            game,
            lineup,
            games,
            seed=seed,
            workers=workers,
            executor=executor,
            address=address,
            fixed=given,
            on_row=lambda _: progress.advance(task),
        )


def _merged(game: Game, lineup: Sequence[str], paths: Sequence[Path]) -> dict[str, Any]:
    try:
        header, rows, seeds = merge(paths)
    except InvalidOptions as error:
        raise fail(str(error)) from error
    if (header["game"], header["seats"], header["bots"]) != (game.id, game.seats, list(lineup)):
        raise fail(
            f"the reports are of {header['game']} at {header['seats']} seats with "
            f"{', '.join(header['bots'])}, not {game.id} at {game.seats} with {', '.join(lineup)}"
        )
    merged = load_game(game.id, seats=game.seats, options=header.get("options") or {})
    return summarise(merged, lineup, seeds[0] if len(seeds) == 1 else seeds, rows)
